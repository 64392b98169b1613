#!/usr/bin/env python3
"""Measures the plugin's costs on this machine (not a test: timings are noisy on shared hosts).

    python3 examples/hermes/measure.py [runs]

Prints the median and max of: sidecar start to first reply (ping), one transform of a 400 KB
terminal result, a fetch_result grep on it, a small result (no round trip), and 8 threads
transforming at once. Uses $SPILLWAY_SIDECAR, else the CLI source via tsx.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "packages" / "hermes"))
sys.path.insert(0, str(HERE))

import spillway  # noqa: E402
from demo import StandInContext, dev_sidecar  # noqa: E402  (the tests' stand-in Hermes)


def result(i: int, size: int = 400_000) -> str:
    lines, n = [], 0
    while sum(len(x) + 1 for x in lines) < size:
        n += 1
        lines.append(f"FAILED case {i}" if n == 3000 else f"[{n:05d}] step {n % 97} of run {i} ok")
    return json.dumps({"output": "\n".join(lines), "exit_code": 1, "error": None})


def stats(name: str, xs: list) -> None:
    ms = [x * 1000 for x in xs]
    print(f"{name:44s} median {statistics.median(ms):8.1f} ms   max {max(ms):8.1f} ms   (n={len(ms)})")


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    os.environ["HERMES_HOME"] = tempfile.mkdtemp(prefix="hermes-measure-")
    os.environ.setdefault("SPILLWAY_SIDECAR", dev_sidecar() or "spillway sidecar")
    print(f"sidecar: {os.environ['SPILLWAY_SIDECAR']}")
    starts, handles, greps, smalls, eights = [], [], [], [], []
    big = result(0)
    for _ in range(runs):
        ctx = StandInContext()
        plugin = spillway.register(ctx)
        t0 = time.perf_counter()
        plugin.client.request("ping", timeout_s=30)
        starts.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        out = ctx.tool_result("terminal", big)
        handles.append(time.perf_counter() - t0)
        assert out is not big
        bid = re.search(r"\bid ([0-9a-f]{12}),", out).group(1)  # the handle block's id
        t0 = time.perf_counter()
        answer = ctx.dispatch_tool("fetch_result", {"id": bid, "mode": "grep", "pattern": "FAILED"})  # as Hermes runs it
        greps.append(time.perf_counter() - t0)
        assert "FAILED" in answer, answer[:200]
        t0 = time.perf_counter()
        ctx.tool_result("read_file", "small\n" * 100)
        smalls.append(time.perf_counter() - t0)
        inputs = [result(i) for i in range(1, 9)]
        threads = [threading.Thread(target=ctx.tool_result, args=("terminal", inputs[i])) for i in range(8)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        eights.append(time.perf_counter() - t0)
        ctx.unload()
    stats("sidecar start -> first reply (ping)", starts)
    stats("transform 400 KB terminal result", handles)
    stats("fetch_result grep on it", greps)
    stats("small result (no round trip)", smalls)
    stats("8 threads x 400 KB at once (wall)", eights)


if __name__ == "__main__":
    main()
