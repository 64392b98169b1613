"""The optional rtk ``pre_tool_call`` hook, with a stand-in ``rtk`` script on PATH."""

from __future__ import annotations

import pytest

import spillway
from hermes_ctx import StandInContext
from conftest import install_fake_rtk

FAKE_RTK = """#!/bin/sh
# stand-in for `rtk rewrite <command>`: exit 0/3 print a rewrite, 1 = no rewrite, 2 = refused
[ "$1" = "rewrite" ] || exit 2
case "$2" in
  find*) echo "rtk $2"; exit 0 ;;
  "cat "*) echo "rtk read ${2#cat }"; exit 3 ;;
  "rm "*) echo "rtk never-runs"; exit 2 ;;
  sleep*) sleep 5; echo "rtk late"; exit 0 ;;
  *) exit 1 ;;
esac
"""


@pytest.fixture
def with_rtk(tmp_path, monkeypatch):
    install_fake_rtk(tmp_path, monkeypatch, FAKE_RTK)
    monkeypatch.setenv("HERMES_HOME", str(tmp_path / "home"))
    ctx = StandInContext({"rtk_timeout_s": 0.5})
    spillway.register(ctx)
    yield ctx
    ctx.unload()


def test_rewrites_terminal_commands_on_exit_0_and_3(with_rtk):
    assert with_rtk.pre_tool_call("terminal", {"command": "find . -name '*.py'", "timeout": 9}) == {
        "command": "rtk find . -name '*.py'", "timeout": 9}
    assert with_rtk.pre_tool_call("terminal", {"command": "cat big.yaml"})["command"] == "rtk read big.yaml"


def test_leaves_commands_alone_on_exit_1_or_2_or_time_out(with_rtk):
    for command in ("python3 script.py", "rm -rf build", "sleep 1"):
        assert with_rtk.pre_tool_call("terminal", {"command": command}) == {"command": command}


def test_only_the_terminal_tool_is_rewritten(with_rtk):
    assert with_rtk.pre_tool_call("execute_code", {"command": "find ."}) == {"command": "find ."}
    assert with_rtk.pre_tool_call("terminal", {"cmd": "find ."}) == {"cmd": "find ."}


def test_no_hook_without_rtk_or_when_switched_off(tmp_path, monkeypatch, with_rtk):
    # Only the plugin's own session observer is registered then (one callback, not two).
    off = StandInContext({"rtk": False})
    spillway.register(off)
    assert len(off.hooks["pre_tool_call"]) == 1
    assert off.pre_tool_call("terminal", {"command": "find ."}) == {"command": "find ."}
    assert len(with_rtk.hooks["pre_tool_call"]) == 2
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    absent = StandInContext()
    spillway.register(absent)
    assert len(absent.hooks["pre_tool_call"]) == 1
