"""Regression tests for review 2 (findings 1, 4, 8 and 9), each through the stand-in host in
Hermes' order and the real sidecar. Each failed against the plugin before its fix."""

from __future__ import annotations

import hashlib
import json

import pytest

import spillway
from hermes_ctx import DEFAULT_MAX_BYTES, StandInContext
from conftest import install_fake_rtk


def blob_id(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def private_log(tag: str, lines: int = 5000) -> str:
    # "row" lines (no "token=" assignment, which the secret scanner would redact)
    return "\n".join(f"{tag} row {i} of the private output" for i in range(lines))


@pytest.fixture
def host(hermes_env):
    ctx = StandInContext({"timeout_s": 60, "start_timeout_s": 60})
    plugin = spillway.register(ctx)
    yield ctx, plugin
    ctx.unload()


# -- finding 1: a sandbox call (no session, no call id) must never be claimed for another session


def test_sandbox_terminal_output_is_never_stored_under_another_session(host):
    """Session A's model has `pytest -q` in flight; session B's execute_code script runs the same
    command (code_execution_rpc._default_dispatch: task id only). The terminal hook must not
    store B's output under A (before the fix it did: A could read B's output)."""
    ctx, plugin = host
    ctx.invoke_hook("pre_tool_call", tool_name="terminal", args={"command": "pytest -q"}, task_id="tA",
                    session_id="session-A", tool_call_id="callA", turn_id="", api_request_id="", middleware_trace=[])
    b_output = private_log("B-ONLY")
    result = ctx.sandbox_terminal("pytest -q", b_output, returncode=1, task_id="tB")
    assert blob_id(b_output) not in result  # the terminal hook kept it: whose output was it?
    # and A cannot read it, whatever the id
    stat_a = ctx.dispatch_tool("fetch_result", {"id": blob_id(b_output), "mode": "stat"},
                               session_id="session-A", task_id="tA")
    assert "B-ONLY" not in stat_a and "not available" in stat_a
    assert len(plugin.terminal_calls) == 1  # B's entry was finished by transform_tool_result; A's waits


def test_an_unknown_session_call_blocks_claims_of_its_command_until_it_finishes(host):
    ctx, plugin = host
    # B's sandbox call starts first (no ids, a task never seen with a session) ...
    ctx.invoke_hook("pre_tool_call", tool_name="terminal", args={"command": "make"}, task_id="tB",
                    session_id="", tool_call_id="", turn_id="", api_request_id="", middleware_trace=[])
    # ... then A runs the same command: A's output is not spilled by the terminal hook either
    # (it cannot tell the two apart), but by transform_tool_result under A, after Hermes' cut.
    a_output = private_log("A-ONLY")
    result = ctx.run_terminal("make", a_output, session_id="session-A", task_id="tA", tool_call_id="callA")
    assert blob_id(a_output) not in result
    assert "not available" not in ctx.dispatch_tool(
        "fetch_result", {"id": _handle_id(result), "mode": "stat"}, session_id="session-A", task_id="tA")


# -- finding 4: a tool called inside execute_code is readable by the model that called execute_code


def test_results_of_tools_called_inside_execute_code_are_readable_by_the_conversation(host):
    ctx, plugin = host
    # the model calls execute_code in session S (task T): pre_tool_call sees both ids
    ctx.invoke_hook("pre_tool_call", tool_name="execute_code", args={"code": "..."}, task_id="T",
                    session_id="S", tool_call_id="c1", turn_id="", api_request_id="", middleware_trace=[])
    big = "\n".join(f"row {i} value {i * 7}" for i in range(20000))
    out = ctx.sandbox_tool("read_file", {"path": "x.csv"}, big, task_id="T")
    assert blob_id(big) in out
    text = ctx.dispatch_tool("fetch_result", {"id": blob_id(big), "mode": "range", "start": 1, "count": 2},
                             session_id="S", task_id="T")
    assert "row 0 value 0" in text
    # another session never reads it
    other = ctx.dispatch_tool("fetch_result", {"id": blob_id(big), "mode": "stat"}, session_id="S2", task_id="T2")
    assert "not available" in other


def test_sandbox_terminal_output_spilled_under_the_session_of_its_task(host):
    ctx, plugin = host
    ctx.invoke_hook("pre_tool_call", tool_name="execute_code", args={"code": "..."}, task_id="T",
                    session_id="S", tool_call_id="c1", turn_id="", api_request_id="", middleware_trace=[])
    raw = private_log("SANDBOX")
    result = ctx.sandbox_terminal("make test", raw, returncode=2, task_id="T")
    assert blob_id(raw) in result and "OUTPUT TRUNCATED" not in result  # whole output, before Hermes' cut
    grep = ctx.dispatch_tool("fetch_result", {"id": blob_id(raw), "mode": "grep", "pattern": "SANDBOX row 2500 "},
                             session_id="S", task_id="T")
    assert "2501: SANDBOX row 2500 of" in grep
    assert len(plugin.terminal_calls) == 0  # finished by transform_tool_result (no call id)


def test_a_task_seen_with_two_sessions_resolves_to_none_of_them(host):
    ctx, plugin = host
    for session in ("S1", "S2"):
        ctx.invoke_hook("pre_tool_call", tool_name="execute_code", args={"code": "..."}, task_id="T",
                        session_id=session, tool_call_id=f"c-{session}", turn_id="", api_request_id="",
                        middleware_trace=[])
    big = "\n".join(f"row {i} value {i * 7}" for i in range(20000))
    ctx.sandbox_tool("read_file", {"path": "x.csv"}, big, task_id="T")
    for session in ("S1", "S2"):  # stored under the task id itself: neither session reads it
        assert "not available" in ctx.dispatch_tool("fetch_result", {"id": blob_id(big), "mode": "stat"},
                                                    session_id=session, task_id="T")


# -- finding 8: a command rewritten by rtk is still claimed by the terminal hook

RTK = '#!/bin/sh\n[ "$1" = rewrite ] || exit 2\ncase "$2" in find*) echo "rtk $2"; exit 0;; esac\nexit 1\n'


def test_a_command_rewritten_by_rtk_is_spilled_whole(hermes_env, tmp_path, monkeypatch):
    install_fake_rtk(tmp_path, monkeypatch, RTK)
    ctx = StandInContext({"timeout_s": 60, "start_timeout_s": 60})
    plugin = spillway.register(ctx)
    try:
        raw = "\n".join(f"./src/dir_{i // 50}/file_{i}.py" for i in range(8000))
        assert len(raw) > DEFAULT_MAX_BYTES
        ran = []
        result = ctx.run_terminal("find .", raw, session_id="s1", task_id="t1", tool_call_id="c1", ran=ran)
        assert ran == ["rtk find ."]  # the stand-in, like Hermes, runs the rewritten command
        assert blob_id(raw) in result and "OUTPUT TRUNCATED" not in result  # spilled whole, not cut
        assert len(json.loads(result)["output"]) <= plugin.settings.max_chars  # by the terminal hook
        middle = ctx.dispatch_tool("fetch_result", {"id": blob_id(raw), "mode": "grep", "pattern": "file_4000.py"},
                                   session_id="s1", task_id="t1")
        assert "./src/dir_80/file_4000.py" in middle
        assert len(plugin.terminal_calls) == 0
    finally:
        ctx.unload()


# -- finding 9: nothing the sidecar prints reaches the model


def test_a_sidecar_failure_never_puts_its_stderr_or_a_password_in_front_of_the_model(hermes_env, monkeypatch):
    monkeypatch.setenv("SPILLWAY_STORE", "redis://:s3cr/et@127.0.0.1:6379/0")  # '/' unencoded: unparsable
    ctx = StandInContext({"timeout_s": 30, "start_timeout_s": 30})
    plugin = spillway.register(ctx)
    try:
        text = ctx.dispatch_tool("fetch_result", {"id": "0123456789ab", "mode": "stat"}, session_id="s1", task_id="t1")
        answer = json.loads(text)["error"]
        assert "s3cr" not in answer and "redis" not in answer and "exited" not in answer
        assert answer == spillway.plugin.FETCH_UNAVAILABLE
        # the operator still sees why, without the password (the CLI prints only the scheme)
        assert "invalid store URL" in (plugin.client.last_error or "")
        assert "s3cr" not in (plugin.client.last_error or "")
    finally:
        ctx.unload()


def _handle_id(result: str) -> str:
    import re

    match = re.search(r"id ([0-9a-f]{12,64}),", result)
    assert match, result[-400:]
    return match.group(1)
