"""SpillwayPlugin with a recording stand-in client: what is sent for which Hermes call."""

from __future__ import annotations

import threading

from spillway.client import SidecarError
from spillway.plugin import SpillwayPlugin, TaskSessions, session_of
from spillway.settings import Settings


class RecordingClient:
    def __init__(self, reply=None, pid=4242):
        self.calls, self.reply, self.pid = [], reply, pid
        self.swept = threading.Event()

    def request(self, op, timeout_s=None, **fields):
        self.calls.append((op, fields))
        if op == "sweep":
            self.swept.set()
        if isinstance(self.reply, Exception):
            raise self.reply
        return self.reply


def plugin(reply=None, **settings):
    return SpillwayPlugin(Settings(store_dir="/tmp/x", max_chars=2000, **settings), RecordingClient(reply))


def test_handle_request_carries_tool_args_session_and_call_id():
    p = plugin({"changed": True, "content": "EXCERPT"})
    big = "y" * 5000
    out = p.transform_tool_result(tool_name="web_extract", args={"url": "u"}, result=big, task_id="t9",
                                  session_id="s9", tool_call_id="c9", telemetry_schema_version="hermes.observer.v1")
    assert out == "EXCERPT"
    op, fields = p.client.calls[0]
    assert op == "handle" and fields == {"tool": "web_extract", "args": {"url": "u"}, "result": big,
                                          "sessionId": "s9", "toolCallId": "c9"}
    assert (p.trimmed, p.chars_before, p.chars_after) == (1, 5000, 7)


def test_unchanged_reply_and_errors_return_none():
    assert plugin({"changed": False}).transform_tool_result(tool_name="t", result="y" * 5000) is None
    failing = plugin(SidecarError("boom"))
    assert failing.transform_tool_result(tool_name="t", result="y" * 5000) is None
    assert failing.failed_open == 1


def test_skip_tools_are_never_sent():
    p = plugin({"changed": True, "content": "E"}, skip_tools=frozenset({"memory"}))
    assert p.transform_tool_result(tool_name="memory", result="y" * 5000) is None
    assert p.client.calls == []


def test_session_key_falls_back_and_stays_valid():
    assert session_of({"session_id": "", "task_id": "t1"}) == "t1"
    assert session_of({}) == "default"
    long_id = "s" * 500
    key = session_of({"session_id": long_id})
    assert key.startswith("sha256-") and len(key) <= 128 and key == session_of({"session_id": long_id})


def test_session_end_sweeps_in_the_background_at_most_once_per_interval():
    p = plugin({"expired": 0}, sweep_interval_s=3600)
    p.on_session_end(session_id="s1", completed=True)
    assert p.client.swept.wait(5)
    p.on_session_end(session_id="s1", completed=True)
    assert [op for op, _ in p.client.calls] == ["sweep"]
    idle = plugin({"expired": 0}, sweep_interval_s=0)
    idle.client.pid = None  # no sidecar started by this process: nothing to sweep for
    idle.on_session_end(session_id="s1")
    assert idle.client.calls == []


def test_fetch_uses_the_session_recorded_for_its_task_by_pre_tool_call():
    p = plugin({"text": "ok"})
    assert p.pre_tool_call(tool_name="fetch_result", args={}, task_id="t1", session_id="s1", tool_call_id="c") is None
    assert p.fetch_result({"id": "0123456789ab", "mode": "stat"}, task_id="t1", user_task=None) == "ok"
    assert p.client.calls[-1][1]["sessionId"] == "s1"
    p.fetch_result({"id": "0123456789ab", "mode": "stat"}, task_id="t2", user_task=None)
    assert p.client.calls[-1][1]["sessionId"] == "t2"  # unknown task: its own id, never another session
    p.fetch_result({"id": "0123456789ab", "mode": "stat"}, task_id="t1", session_id="s7")
    assert p.client.calls[-1][1]["sessionId"] == "s7"  # an explicit session wins
    p.pre_tool_call(tool_name="terminal", args={}, task_id="t3", session_id="s3")
    assert len(p.task_sessions) == 1  # only fetch_result's tasks are recorded


def test_task_sessions_is_bounded_and_keeps_the_latest():
    ts = TaskSessions(limit=3)
    for i in range(5):
        ts.remember(f"t{i}", f"s{i}")
    ts.remember("", "s")
    ts.remember("t9", None)
    assert len(ts) == 3
    assert ts.session_for({"task_id": "t0"}) == "t0"  # evicted: falls back
    assert ts.session_for({"task_id": "t4"}) == "s4"
    assert ts.session_for({"task_id": "t4", "session_id": "x" * 300}).startswith("sha256-")


def test_register_passes_both_time_outs_to_the_client(tmp_path, monkeypatch):
    import spillway
    from hermes_ctx import StandInContext

    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    ctx = StandInContext({"timeout_s": 3, "start_timeout_s": 42})
    p = spillway.register(ctx)
    assert (p.client.timeout_s, p.client.start_timeout_s) == (3, 42)
    assert p.client.pid is None  # nothing started at registration
    ctx.unload()


def test_terminal_calls_claim_only_an_unambiguous_pending_call():
    from spillway.terminal import TerminalCalls

    calls = TerminalCalls(limit=3)
    calls.remember("c1", "s1", "make")
    calls.remember("c2", "s1", "make")
    claimed = calls.claim("make")
    assert claimed is not None and claimed.tool_call_id == "c1"  # the oldest of one session
    calls.mark_spilled(claimed, "0123456789ab")
    assert calls.claim("make").tool_call_id == "c2"  # a spilled call is not claimed twice
    calls.remember("c3", "s2", "make")
    assert calls.claim("make") is None  # two sessions run "make": whose output is it?
    assert calls.claim("ls") is None and calls.claim(None) is None
    assert calls.holds_excerpt("... id 0123456789ab, 5 chars ...", "c1")
    assert calls.finish("c1") == "0123456789ab" and calls.finish("c1") is None
    for i in range(5):
        calls.remember(f"x{i}", "s", f"cmd{i}")
    assert len(calls) == 3  # bounded, oldest dropped
    calls.remember("", "s", "cmd")
    calls.remember("c9", None, "cmd")
    assert len(calls) == 3


def test_terminal_calls_expire():
    from spillway.terminal import TerminalCalls

    calls = TerminalCalls(ttl_s=0)
    calls.remember("c1", "s1", "make")
    import time as _t
    _t.sleep(0.01)
    assert calls.claim("make") is None and len(calls) == 0


def test_terminal_hook_uses_the_claimed_session_and_call_and_fails_open():
    p = plugin({"changed": True, "content": "EXCERPT", "handle": {"id": "0123456789ab"}})
    p.pre_tool_call(tool_name="terminal", args={"command": "make"}, task_id="t1", session_id="s1", tool_call_id="c1")
    assert p.transform_terminal_output(command="make", output="y" * 5000, returncode=2, task_id="default",
                                       env_type="local", telemetry_schema_version="hermes.observer.v1") == "EXCERPT"
    op, fields = p.client.calls[-1]
    assert op == "handle" and fields["sessionId"] == "s1" and fields["toolCallId"] == "c1" and fields["tool"] == "terminal"
    # downstream, the same output (now inside Hermes' JSON) is not sent again
    wrapped = '{"output": "EXCERPT ... id 0123456789ab, 5000 chars", "exit_code": 2, "error": null}' + " " * 3000
    assert p.transform_tool_result(tool_name="terminal", result=wrapped, session_id="s1", tool_call_id="c1") is None
    assert len(p.client.calls) == 1
    # no pending call for this command: no session to store under, so keep the output
    assert p.transform_terminal_output(command="other", output="y" * 5000, task_id="default") is None
    failing = plugin(SidecarError("boom"))
    failing.pre_tool_call(tool_name="terminal", args={"command": "make"}, session_id="s1", tool_call_id="c1")
    assert failing.transform_terminal_output(command="make", output="y" * 5000) is None and failing.failed_open == 1
