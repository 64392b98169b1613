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
    calls.remember("c9", "s", "")
    calls.remember("c9", "s", None)
    assert [c.tool_call_id for c in (calls.claim("cmd2"), calls.claim("cmd3"), calls.claim("cmd4"))] == ["x2", "x3", "x4"]


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


def test_terminal_calls_without_ids_block_claims_and_finish_by_task_and_command():
    """Review 2, finding 1: a call Hermes announced without ids (execute_code's sandbox) is
    recorded as one of an unknown session; while it is pending its command is never claimed."""
    from spillway.terminal import TerminalCalls

    calls = TerminalCalls()
    calls.remember("cA", "session-A", "pytest -q", "tA")
    calls.remember("", None, "pytest -q", "tB")  # session B's sandbox: no ids, session unknown
    assert calls.claim("pytest -q") is None
    assert calls.finish("", "tOther", "pytest -q") is None  # another task's id-less call: not this one
    assert calls.finish("", "tB", "pytest -q") is None and len(calls) == 1  # finished (nothing spilled)
    assert calls.claim("pytest -q").tool_call_id == "cA"  # A's call alone again
    calls.remember(None, "session-A", "make", "tA")  # an id-less call of a known session is claimable
    claimed = calls.claim("make")
    assert claimed is not None and claimed.session_id == "session-A" and claimed.tool_call_id == ""
    calls.mark_spilled(claimed, "0123456789ab")
    assert calls.finish("", "tA", "make") == "0123456789ab" and len(calls) == 1


def test_terminal_calls_claim_a_rewritten_command_under_either_command():
    """Review 2, finding 8: rtk's ``modify`` makes the call run ``rtk find .``; the terminal hook
    may see that (the agent loop applies modify) or ``find .`` (paths that do not)."""
    from spillway.terminal import TerminalCalls

    calls = TerminalCalls()
    calls.remember("c1", "s1", "find .", "t1")
    calls.add_command("c1", "t1", "find .", "rtk find .")
    assert calls.claim("rtk find .").tool_call_id == "c1" and calls.claim("find .").tool_call_id == "c1"
    calls.remember("", None, "find .", "t2")
    calls.add_command("", "t2", "find .", "rtk find .")  # the id-less call of t2 may run it too
    assert calls.claim("rtk find .") is None
    calls.remember("c3", "s3", "rtk find .", "t3")  # another session asks for the rewrite itself
    calls.finish("", "t2", "find .")
    assert calls.claim("rtk find .") is None and calls.claim("find .").tool_call_id == "c1"
    calls.add_command("nope", "t1", "find .", "x")  # unknown call: nothing happens
    assert calls.claim("x") is None


def test_terminal_calls_claim_agrees_with_a_naive_model():
    """Random remember / rewrite / spill / finish sequences: a claim returns the oldest open call
    that ran the command exactly when every open call that did belongs to one known session."""
    import random

    from spillway.terminal import TerminalCalls

    for seed in range(300):
        rng = random.Random(seed)
        calls, model = TerminalCalls(limit=10_000), []  # model: dicts in arrival order
        for step in range(40):
            op, cmd = rng.random(), rng.choice(["make", "ls", "rtk ls"])
            session = rng.choice(["s1", "s2", None])
            if op < 0.45:
                call_id = rng.choice(["", f"c{step}"])
                task = rng.choice(["t1", "t2"])
                calls.remember(call_id, session, cmd, task)
                model.append({"id": call_id, "session": session, "cmds": [cmd], "task": task, "spilled": False})
            elif op < 0.55 and model:
                entry = rng.choice(model)
                if entry["cmds"][0] == "ls":
                    calls.add_command(entry["id"], entry["task"], "ls", "rtk ls")
                    target = next((e for e in model if e["id"] == entry["id"]), None) if entry["id"] else \
                        next((e for e in reversed(model) if not e["id"] and e["task"] == entry["task"] and "ls" in e["cmds"]), None)
                    if target is not None and "rtk ls" not in target["cmds"]:
                        target["cmds"].append("rtk ls")
            elif op < 0.75 and model:
                entry = rng.choice(model)
                calls.finish(entry["id"], entry["task"], entry["cmds"][0])
                done = entry if entry["id"] else next(e for e in model if not e["id"] and e["task"] == entry["task"] and entry["cmds"][0] in e["cmds"])
                model.remove(done)
            else:
                got = calls.claim(cmd)
                open_ = [e for e in model if cmd in e["cmds"] and not e["spilled"]]
                sessions = {e["session"] for e in open_}
                want = open_[0] if open_ and None not in sessions and len(sessions) == 1 else None
                assert (got is None) == (want is None), (seed, step)
                if got is not None:
                    assert got.session_id == want["session"] and got.tool_call_id == want["id"] and got.commands == want["cmds"]
                    if rng.random() < 0.5:
                        calls.mark_spilled(got, "0123456789ab")
                        want["spilled"] = True


def test_run_sessions_name_a_task_only_while_it_has_one_session():
    """Review 2, finding 4: a tool an execute_code script calls has no session_id; its task's
    session is used when that task was only ever seen with one session."""
    ts = TaskSessions()
    ts.remember("T", "S")
    ts.remember("T", "S")
    assert ts.only_session("T") == "S" and ts.scope_for({"session_id": "", "task_id": "T"}) == "S"
    assert ts.scope_for({"session_id": "own", "task_id": "T"}) == "own"
    assert ts.only_session("unknown") is None and ts.scope_for({"task_id": "unknown"}) == "unknown"
    ts.remember("T", "S2")
    assert ts.only_session("T") is None and ts.scope_for({"task_id": "T"}) == "T"  # whose? neither
    ts.remember("T", "S")
    assert ts.only_session("T") is None  # stays shared
    assert ts.session_for({"task_id": "T"}) == "S"  # fetch_result's rule (its own call, last) is unchanged


def test_sandbox_tool_results_are_stored_under_the_task_session():
    p = plugin({"changed": True, "content": "EXCERPT"})
    p.pre_tool_call(tool_name="execute_code", args={"code": "..."}, task_id="T", session_id="S", tool_call_id="c1")
    assert p.transform_tool_result(tool_name="read_file", args={"path": "x"}, result="y" * 5000, task_id="T",
                                   session_id="", tool_call_id="") == "EXCERPT"
    assert p.client.calls[-1][1]["sessionId"] == "S" and "toolCallId" not in p.client.calls[-1][1]
    # a sandbox terminal call of that task is recorded under S and claimable
    p.pre_tool_call(tool_name="terminal", args={"command": "make"}, task_id="T", session_id="", tool_call_id="")
    assert p.transform_terminal_output(command="make", output="y" * 5000, task_id="default") == "EXCERPT"
    assert p.client.calls[-1][1]["sessionId"] == "S"
    # a task never seen with a session: its own id scopes the result, its terminal call is never claimed
    p.pre_tool_call(tool_name="terminal", args={"command": "make"}, task_id="T9", session_id="", tool_call_id="")
    p.transform_tool_result(tool_name="read_file", result="y" * 5000, task_id="T9", session_id="")
    assert p.client.calls[-1][1]["sessionId"] == "T9"
    before = len(p.client.calls)
    assert p.transform_terminal_output(command="make", output="y" * 5000, task_id="default") is None
    assert len(p.client.calls) == before


def test_fetch_failures_give_the_model_a_fixed_sentence():
    """Review 2, finding 9: the sidecar's stderr (a store URL, a password) never reaches the model."""
    import json

    from spillway.plugin import FETCH_UNAVAILABLE

    secret = "spillway: invalid store URL redis://:s3cr/et@h/0"
    for reply in (SidecarError(f"the sidecar exited with code 1: {secret}"), {"oops": secret}, None):
        answer = plugin(reply).fetch_result({"id": "0123456789ab", "mode": "stat"}, task_id="t1", session_id="s1")
        assert json.loads(answer) == {"error": FETCH_UNAVAILABLE}


def test_a_failing_rewrite_listener_never_stops_the_rewrite(tmp_path):
    from spillway.rtk import make_rtk_hook

    rtk = tmp_path / "rtk"
    rtk.write_text('#!/bin/sh\necho "rtk $2"\n')
    rtk.chmod(0o755)
    heard = []

    def broken(command, rewritten, kwargs):
        heard.append((command, rewritten, kwargs.get("tool_call_id")))
        raise RuntimeError("boom")

    hook = make_rtk_hook(str(rtk), 5, broken)
    assert hook(tool_name="terminal", args={"command": "find ."}, tool_call_id="c1") == {
        "action": "modify", "args": {"command": "rtk find ."}}
    assert heard == [("find .", "rtk find .", "c1")]
