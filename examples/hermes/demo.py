#!/usr/bin/env python3
"""Offline demo of the spillway Hermes plugin: loads it with a stand-in ``ctx`` (the same
methods Hermes' PluginContext has), feeds it tool results the way Hermes would, and prints what
the model would see before and after. No model, no network.

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

import spillway  # noqa: E402  (the plugin package: packages/hermes/spillway)


class DemoContext:
    """The part of Hermes' PluginContext the plugin uses."""

    def __init__(self, settings=None):
        self.settings, self.hooks, self.tools, self.commands, self.unload = settings or {}, {}, {}, {}, []

    def register_hook(self, hook_name, callback):
        self.hooks.setdefault(hook_name, []).append(callback)

    def register_tool(self, name, toolset, schema, handler, check_fn=None, requires_env=None,
                      is_async=False, description="", emoji="", override=False):
        self.tools[name] = handler

    def register_command(self, name, handler, description="", args_hint="", argument_mode=None):
        self.commands[name] = handler

    def get_config(self, key, default=None):
        return self.settings.get(key, default)

    def on_unload(self, callback):
        self.unload.append(callback)

    def tool_result(self, tool_name, result, args=None):
        """What Hermes appends to the conversation after ``transform_tool_result``."""
        for cb in self.hooks.get("transform_tool_result", []):
            out = cb(tool_name=tool_name, args=args or {}, result=result, task_id="demo",
                     session_id="demo-session", tool_call_id="call-1", duration_ms=1)
            if isinstance(out, str):
                return out
        return result

    def call_tool(self, name, args):
        """How Hermes runs a tool: ``pre_tool_call`` hooks with both ids, then the handler with
        ``task_id`` only (some Hermes versions pass no ``session_id`` to handlers)."""
        for cb in self.hooks.get("pre_tool_call", []):
            cb(tool_name=name, args=dict(args), task_id="demo", session_id="demo-session", tool_call_id="call-2")
        return self.tools[name](args, task_id="demo", user_task=None)


def dev_sidecar() -> str | None:
    tsx = REPO / "node_modules" / "tsx" / "dist" / "loader.mjs"
    node = shutil.which("node")
    if node and tsx.exists():
        return shlex.join([node, "--conditions=@spillway/source", "--import", str(tsx),
                           str(REPO / "packages" / "cli" / "src" / "bin.ts"), "sidecar"])
    return None


def build_log() -> str:
    lines = []
    for n in range(1, 9001):
        if n == 4321:
            lines.append("FAILED tests/test_cache.py::test_eviction - AssertionError: 512 != 511")
        else:
            lines.append(f"[{n:05d}] compiling src/module_{n % 97}.c -> build/obj/module_{n % 97}.o ok")
    return json.dumps({"output": "\n".join(lines) + "\n=== 1 failed, 8998 passed ===",
                       "exit_code": 1, "error": None})


def main() -> None:
    os.environ.setdefault("HERMES_HOME", tempfile.mkdtemp(prefix="hermes-demo-"))
    if "SPILLWAY_SIDECAR" not in os.environ and shutil.which("spillway") is None:
        cmd = dev_sidecar()
        if cmd is None:
            sys.exit("needs `spillway` on PATH, SPILLWAY_SIDECAR, or this checkout with node_modules installed")
        os.environ["SPILLWAY_SIDECAR"] = cmd

    ctx = DemoContext({"max_chars": 12_000})
    plugin = spillway.register(ctx)
    print(f"registered: hooks={sorted(ctx.hooks)} tools={sorted(ctx.tools)} commands={sorted(ctx.commands)}")
    print(f"store: {plugin.settings.store_dir}\n")

    cases = [
        ("terminal", build_log(), {"command": "make test"}),
        ("mcp_github_list_issues", json.dumps({"result": json.dumps(
            [{"number": i, "title": f"Flaky test #{i}", "body": "Steps to reproduce... " * 12, "labels": ["ci"]}
             for i in range(400)])}), {}),
        ("read_file", "small file\n" * 20, {"path": "NOTES.md"}),
    ]
    seen_by_tool = {}
    for tool, result, args in cases:
        t0 = time.perf_counter()
        seen = seen_by_tool[tool] = ctx.tool_result(tool, result, args)
        ms = (time.perf_counter() - t0) * 1000
        verdict = "unchanged" if seen is result else "excerpt + handle"
        print(f"{tool:24s} {len(result):>8,d} chars -> {len(seen):>7,d} chars  ({verdict}, {ms:.0f} ms)")
    print()

    excerpt = seen_by_tool["terminal"]  # the hook ran once per result: /spillway counts each once
    print("--- what the model sees for the terminal result (last 1,200 chars) ---")
    print(excerpt[-1200:])
    match = re.search(r"\bid ([0-9a-f]{12})\b", excerpt)
    if match is None:
        sys.exit("the terminal result was not spilled (no handle in the excerpt)")
    print("\n--- fetch_result grep 'FAILED' ---")
    print(ctx.call_tool("fetch_result", {"id": match.group(1), "mode": "grep", "pattern": "FAILED"})[:800])
    print("\n--- /spillway ---")
    print(ctx.commands["spillway"](""))
    for cb in reversed(ctx.unload):
        cb()


if __name__ == "__main__":
    main()
