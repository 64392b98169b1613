"""Terminal output spilled in ``transform_terminal_output``, before Hermes' own 50,000-char
40/60 cut, through the stand-in host that runs Hermes' real order (see hermes_ctx.run_terminal)."""

from __future__ import annotations

import hashlib
import json

import pytest

import spillway
from hermes_ctx import DEFAULT_MAX_BYTES, StandInContext, head_tail_cut

FAILURE = "FAILED tests/test_io.py::test_roundtrip - AssertionError: expected 3 got 4"


def build_log(size: int = 400_000, fail_at: int = 3000, marker: str = "") -> str:
    """Raw terminal output (what the process printed) with one failure deep in the middle."""
    lines, total, n = [], 0, 0
    while total < size:
        n += 1
        line = f"{FAILURE}{marker}" if n == fail_at else f"[{n:05d}] compiling src/module_{n % 97}.c -> build/obj/module_{n % 97}.o ok"
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)


def blob_id(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


class CountingClient:
    """Wraps the real sidecar client and counts ``handle`` requests."""

    def __init__(self, inner):
        self.inner, self.handles = inner, 0

    def request(self, op, timeout_s=None, **fields):
        if op == "handle":
            self.handles += 1
        return self.inner.request(op, timeout_s=timeout_s, **fields)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture
def host(hermes_env):
    ctx = StandInContext({"timeout_s": 60})
    plugin = spillway.register(ctx)
    plugin.client = CountingClient(plugin.client)
    yield ctx, plugin
    ctx.unload()


def test_the_middle_of_a_large_terminal_output_survives_hermes_cap(host):
    """Regression (issue 13): Hermes cut terminal output to 50,000 chars (40/60) before
    transform_tool_result, so the failure in the middle never reached spillway."""
    ctx, plugin = host
    raw = build_log()
    result = ctx.run_terminal("make test", raw, returncode=2, session_id="s1", tool_call_id="call-1")
    assert f"3000: {FAILURE}" in result, "the middle of the output was cut before spillway saw it"
    parsed = json.loads(result)
    assert parsed["exit_code"] == 2
    output = parsed["output"]
    assert len(output) <= plugin.settings.max_chars < DEFAULT_MAX_BYTES  # Hermes' cut never fired
    assert "OUTPUT TRUNCATED" not in output
    assert f"3000: {FAILURE}" in output  # the failure from the middle, with its line number
    assert blob_id(raw) in output  # the handle names the full output, not a 50K window
    grep = ctx.dispatch_tool("fetch_result", {"id": blob_id(raw), "mode": "grep", "pattern": "AssertionError"},
                             session_id="s1", task_id="t1")
    assert f"3000: {FAILURE}" in grep
    stat = ctx.dispatch_tool("fetch_result", {"id": blob_id(raw), "mode": "stat"}, session_id="s1", task_id="t1")
    assert str(len(raw)) in stat.replace(",", "")


def test_terminal_output_is_spilled_once(host):
    ctx, plugin = host
    # quoted log lines: every quote is escaped in Hermes' JSON envelope, so it outgrows the budget
    raw = "\n".join(f'[{n:05d}] {{"module": "src/m_{n}.c", "status": "ok", "note": "\\"q\\""}}' for n in range(6000))
    result = ctx.run_terminal("pytest -x", raw, returncode=1, tool_call_id="call-once")
    # the JSON envelope is longer than the budget (escaped newlines), yet not spilled again
    assert len(result) > plugin.settings.max_chars
    assert plugin.client.handles == 1
    assert blob_id(raw) in json.loads(result)["output"]
    assert len(plugin.terminal_calls) == 0  # the pending call was finished by transform_tool_result


def test_other_tools_still_go_through_transform_tool_result(host):
    ctx, plugin = host
    rows = json.dumps([{"id": i, "body": "x" * 200} for i in range(500)])
    out = ctx.tool_result("web_extract", rows, {"url": "https://example.test"})
    assert out != rows and blob_id(rows) in out and plugin.client.handles == 1


def test_small_terminal_output_is_left_alone(host):
    ctx, plugin = host
    result = ctx.run_terminal("ls", "a\nb\nc", tool_call_id="call-small")
    assert json.loads(result)["output"] == "a\nb\nc"
    assert plugin.client.handles == 0 and plugin.client.pid is None


def test_each_session_reads_only_its_own_terminal_spill(host):
    ctx, _ = host
    mine, theirs = build_log(marker="_alice"), build_log(marker="_bob")
    ctx.run_terminal("make a", mine, session_id="alice", task_id="ta", tool_call_id="c-a")
    ctx.run_terminal("make b", theirs, session_id="bob", task_id="tb", tool_call_id="c-b")
    own = ctx.dispatch_tool("fetch_result", {"id": blob_id(mine), "mode": "grep", "pattern": "_alice"},
                            session_id="alice", task_id="ta")
    other = ctx.dispatch_tool("fetch_result", {"id": blob_id(mine), "mode": "grep", "pattern": "_alice"},
                              session_id="bob", task_id="tb")
    assert "_alice" in own and "_alice" not in other and "not available" in other


def test_same_command_pending_in_two_sessions_is_never_stored_under_the_wrong_one(host):
    """Hermes gives the terminal hook no session: while another session has the same command
    pending, the hook cannot tell whose output it holds, so it keeps it, and
    transform_tool_result spills Hermes' capped result under the right session (the old path)."""
    ctx, plugin = host
    ctx.invoke_hook("pre_tool_call", tool_name="terminal", args={"command": "make test"}, task_id="t2",
                    session_id="s2", tool_call_id="c2", turn_id="turn1", api_request_id="req1", middleware_trace=[])
    raw = build_log(marker="_one")
    out = ctx.run_terminal("make test", raw, returncode=2, session_id="s1", task_id="t1", tool_call_id="c1")
    assert blob_id(raw) not in out  # not spilled by the terminal hook ...
    capped = json.dumps({"output": head_tail_cut(raw, DEFAULT_MAX_BYTES).strip(), "exit_code": 2, "error": None},
                        ensure_ascii=False)
    assert blob_id(capped) in out and len(out) <= plugin.settings.max_chars  # ... but after Hermes' cut
    stat = {"id": blob_id(capped), "mode": "stat"}
    assert "not available" not in ctx.dispatch_tool("fetch_result", stat, session_id="s1", task_id="t1")
    assert "not available" in ctx.dispatch_tool("fetch_result", stat, session_id="s2", task_id="t2")


def test_newer_hermes_bounded_capture_hands_the_hook_a_window_unless_max_bytes_is_raised(host):
    """Newer Hermes bounds the process capture itself to tool_output.max_bytes (40/60) before
    the hook; raising max_bytes lets spillway see (and store) the whole output again."""
    ctx, _ = host
    raw = build_log(marker="_window")
    capped = json.loads(ctx.run_terminal("make", raw, capture_bounded=True, tool_call_id="c-w1"))["output"]
    assert FAILURE not in capped and blob_id(raw) not in capped  # the middle was gone before the hook
    raised = json.loads(ctx.run_terminal("make", raw, capture_bounded=True, max_bytes=1_000_000,
                                         tool_call_id="c-w2"))["output"]
    assert f"3000: {FAILURE}_window" in raised and blob_id(raw) in raised


def test_terminal_hook_can_be_switched_off(hermes_env):
    ctx = StandInContext({"timeout_s": 60, "terminal_hook": False})
    spillway.register(ctx)
    try:
        assert "transform_terminal_output" not in ctx.hooks
        raw = build_log()
        out = ctx.run_terminal("make", raw, tool_call_id="c-off")
        # Hermes cut first; spillway only saw (and stored) the 50K window: the failure is gone
        assert blob_id(raw) not in out and FAILURE not in out
    finally:
        ctx.unload()
