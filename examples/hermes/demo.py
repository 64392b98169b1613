#!/usr/bin/env python3
"""Offline demo of the spillway Hermes plugin: loads it with the tests' stand-in Hermes
(``packages/hermes/tests/hermes_ctx.py``: the methods Hermes' PluginContext has, and Hermes'
order for a terminal call: ``pre_tool_call``, ``transform_terminal_output``, the
``tool_output.max_bytes`` cut, ``transform_tool_result``), feeds it tool results the way Hermes
would, and prints what the model would see before and after. No model, no network.

    python3 examples/hermes/demo.py            # from the repository root

The sidecar is ``$SPILLWAY_SIDECAR``, else ``spillway`` on PATH, else the CLI run from this
checkout's source (node + tsx). The store goes to a temporary HERMES_HOME.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "packages" / "hermes"))

sys.path.insert(0, str(REPO / "packages" / "hermes" / "tests"))

import spillway  # noqa: E402  (the plugin package: packages/hermes/spillway)
from hermes_ctx import DEFAULT_MAX_BYTES, StandInContext, head_tail_cut  # noqa: E402

SESSION = {"session_id": "demo-session", "task_id": "demo"}


def dev_sidecar() -> str | None:
    tsx = REPO / "node_modules" / "tsx" / "dist" / "loader.mjs"
    node = shutil.which("node")
    if node and tsx.exists():
        return shlex.join([node, "--conditions=@spillway/source", "--import", str(tsx),
                           str(REPO / "packages" / "cli" / "src" / "bin.ts"), "sidecar"])
    return None


FAILURE = "FAILED tests/test_cache.py::test_eviction - AssertionError: 512 != 511"


def build_log() -> str:
    """What ``make test`` printed: 9,000 lines, one failure at line 4321."""
    lines = []
    for n in range(1, 9001):
        if n == 4321:
            lines.append(FAILURE)
        else:
            lines.append(f"[{n:05d}] compiling src/module_{n % 97}.c -> build/obj/module_{n % 97}.o ok")
    return "\n".join(lines) + "\n=== 1 failed, 8998 passed ==="


def main() -> None:
    os.environ.setdefault("HERMES_HOME", tempfile.mkdtemp(prefix="hermes-demo-"))
    if "SPILLWAY_SIDECAR" not in os.environ and shutil.which("spillway") is None:
        cmd = dev_sidecar()
        if cmd is None:
            sys.exit("needs `spillway` on PATH, SPILLWAY_SIDECAR, or this checkout with node_modules installed")
        os.environ["SPILLWAY_SIDECAR"] = cmd

    ctx = StandInContext({"max_chars": 12_000})
    plugin = spillway.register(ctx)
    print(f"registered: hooks={sorted(ctx.hooks)} tools={sorted(ctx.tools)} commands={sorted(ctx.commands)}")
    print(f"store: {plugin.settings.store_dir}\n")

    log = build_log()
    cut = head_tail_cut(log, DEFAULT_MAX_BYTES)
    print(f"Hermes alone: its {DEFAULT_MAX_BYTES:,}-char 40/60 cut keeps {len(cut):,} of {len(log):,} chars; "
          f"the failure at line 4321 is {'kept' if FAILURE in cut else 'gone'}.")
    t0 = time.perf_counter()
    terminal = ctx.run_terminal("make test", log, returncode=1, tool_call_id="call-1", **SESSION)
    print(f"{'terminal':24s} {len(log):>8,d} chars -> {len(terminal):>7,d} chars  "
          f"(excerpt + handle in transform_terminal_output, {(time.perf_counter() - t0) * 1000:.0f} ms)")
    cases = [
        ("mcp_github_list_issues", json.dumps({"result": json.dumps(
            [{"number": i, "title": f"Flaky test #{i}", "body": "Steps to reproduce... " * 12, "labels": ["ci"]}
             for i in range(400)])}), {}),
        ("read_file", "small file\n" * 20, {"path": "NOTES.md"}),
    ]
    for tool, result, args in cases:
        t0 = time.perf_counter()
        seen = ctx.tool_result(tool, result, args, tool_call_id=f"call-{tool}", **SESSION)
        ms = (time.perf_counter() - t0) * 1000
        verdict = "unchanged" if seen is result else "excerpt + handle in transform_tool_result"
        print(f"{tool:24s} {len(result):>8,d} chars -> {len(seen):>7,d} chars  ({verdict}, {ms:.0f} ms)")
    print()

    excerpt = json.loads(terminal)["output"]
    print("--- what the model sees in the terminal result's \"output\" (last 1,200 chars) ---")
    print(excerpt[-1200:])
    match = re.search(r"\bid ([0-9a-f]{12})\b", excerpt)
    if match is None or FAILURE not in excerpt:
        sys.exit("the terminal output was not spilled before Hermes' cut (no handle, or the failure is missing)")
    print("\n--- fetch_result grep 'FAILED' ---")
    print(ctx.dispatch_tool("fetch_result", {"id": match.group(1), "mode": "grep", "pattern": "FAILED"}, **SESSION)[:800])
    print("\n--- /spillway ---")
    print(ctx.run_command("spillway"))
    ctx.unload()


if __name__ == "__main__":
    main()
