"""SidecarClient against small stand-in sidecars written in Python: crashes, noise, hangs,
missing commands and out-of-order replies, without Node."""

from __future__ import annotations

import sys
import textwrap
import threading
import time

import pytest

from spillway.client import MAX_FAILED_STARTS, SidecarClient, SidecarError


def script(tmp_path, name: str, body: str) -> list:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    return [sys.executable, str(path)]


ECHO = """
    import json, sys, threading, time
    def answer(req):
        time.sleep(req.get("delay", 0))
        out = {"id": req["id"], "ok": True, "result": {"echo": req.get("value")}}
        sys.stdout.write(json.dumps(out) + "\\n"); sys.stdout.flush()
    for line in sys.stdin:
        threading.Thread(target=answer, args=(json.loads(line),)).start()
"""


def test_replies_are_matched_by_id_even_out_of_order(tmp_path):
    client = SidecarClient(lambda: script(tmp_path, "echo", ECHO), timeout_s=30)
    out = {}

    def call(i):
        # Later requests answer first: the delays run backwards.
        out[i] = client.request("x", value=i, delay=(8 - i) * 0.05)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert out == {i: {"echo": i} for i in range(8)}
    assert client.starts == 1
    client.close()


def test_noise_on_stdout_is_ignored(tmp_path):
    body = """
        import json, sys
        print("Debugger attached."); print("[1, 2]"); sys.stdout.flush()
        for line in sys.stdin:
            req = json.loads(line)
            print("not json"); print(json.dumps({"id": req["id"], "ok": True, "result": 42}), flush=True)
    """
    client = SidecarClient(lambda: script(tmp_path, "noisy", body), timeout_s=30)
    assert client.request("ping") == 42
    client.close()


def test_a_crash_mid_request_fails_fast_with_the_stderr_tail(tmp_path):
    body = """
        import sys
        sys.stdin.readline()
        sys.stderr.write("Error: Cannot find module '@spillway/core'\\n"); sys.exit(1)
    """
    client = SidecarClient(lambda: script(tmp_path, "crash", body), timeout_s=30)
    # The message names the exit (not the time-out), so the crash was noticed, not waited out.
    with pytest.raises(SidecarError, match="exited with code 1.*Cannot find module"):
        client.request("handle", result="x")
    assert "Cannot find module" in (client.last_error or "")


def test_error_replies_raise_with_code_and_message(tmp_path):
    body = """
        import json, sys
        for line in sys.stdin:
            req = json.loads(line)
            err = {"code": "unknown_op", "message": "unknown op 'nope'"}
            print(json.dumps({"id": req["id"], "ok": False, "error": err}), flush=True)
    """
    client = SidecarClient(lambda: script(tmp_path, "err", body), timeout_s=30)
    with pytest.raises(SidecarError, match="unknown_op: unknown op 'nope'"):
        client.request("nope")
    assert client.starts == 1  # an error reply is an answer: the process stays
    with pytest.raises(SidecarError):
        client.request("nope")
    assert client.starts == 1
    client.close()


def test_missing_command_and_missing_binary_raise_sidecar_error(tmp_path):
    with pytest.raises(SidecarError, match="no sidecar command"):
        SidecarClient(lambda: None).request("ping")
    with pytest.raises(SidecarError, match="cannot start"):
        SidecarClient(lambda: [str(tmp_path / "no-such-spillway"), "sidecar"]).request("ping")


def test_repeated_failed_starts_back_off_instead_of_respawning(tmp_path):
    argv = script(tmp_path, "dies", "import sys; sys.exit(3)\n")
    client = SidecarClient(lambda: argv, timeout_s=5)
    for _ in range(MAX_FAILED_STARTS):
        with pytest.raises(SidecarError):
            client.request("ping")
    with pytest.raises(SidecarError, match="retrying later"):
        client.request("ping")
    assert client.starts == MAX_FAILED_STARTS


def test_a_hung_sidecar_times_out_and_is_replaced(tmp_path):
    # The first process answers its start ping and one request, then hangs; the second answers all.
    hang = """
        import json, sys, time, os
        marker = sys.argv[1]
        first = not os.path.exists(marker)
        open(marker, "a").close()
        for n, line in enumerate(sys.stdin):
            req = json.loads(line)
            if first and n > 1:
                time.sleep(60)
            print(json.dumps({"id": req["id"], "ok": True, "result": "fresh"}), flush=True)
    """
    argv = script(tmp_path, "hang", hang) + [str(tmp_path / "started")]
    client = SidecarClient(lambda: argv, timeout_s=30)
    assert client.request("x") == "fresh"
    first = client._conn.proc
    with pytest.raises(SidecarError, match="did not answer within 0.5 s"):
        client.request("x", timeout_s=0.5)
    assert first.wait(5) is not None  # the hung process was killed
    assert client.request("x") == "fresh"
    assert client.starts == 2
    client.close()


SLOW_START = """
    import json, sys, time
    time.sleep(float(sys.argv[1]))  # a cold start: nothing is read or answered meanwhile
    for line in sys.stdin:
        req = json.loads(line)
        print(json.dumps({"id": req["id"], "ok": True, "result": "up"}), flush=True)
"""


def test_a_slow_start_fails_open_without_respawning_and_then_serves(tmp_path):
    argv = script(tmp_path, "slow", SLOW_START) + ["2"]
    client = SidecarClient(lambda: argv, timeout_s=0.3, start_timeout_s=30)
    with pytest.raises(SidecarError, match="still starting"):
        client.request("handle")
    # While it starts, callers fail open at once and nothing is killed or started again.
    for _ in range(5):
        with pytest.raises(SidecarError, match="still starting"):
            client.request("handle")
    assert client.starts == 1
    assert client._conn.ready.wait(30)  # the handshake finishes in the background
    assert client.request("handle") == "up"
    assert client.starts == 1


def test_a_start_that_never_answers_counts_as_failed_and_backs_off(tmp_path):
    argv = script(tmp_path, "slow", SLOW_START) + ["60"]
    client = SidecarClient(lambda: argv, timeout_s=0.2, start_timeout_s=1)
    for n in range(1, MAX_FAILED_STARTS + 1):
        with pytest.raises(SidecarError, match="still starting"):
            client.request("handle")
        conn = client._conn
        assert conn.ready.wait(10) and not conn.alive  # killed after its start time-out
        assert conn.proc.wait(5) is not None
        assert client.starts == n
    with pytest.raises(SidecarError, match="retrying later"):
        client.request("handle")
    assert client.starts == MAX_FAILED_STARTS


def test_close_is_idempotent_and_final(tmp_path):
    client = SidecarClient(lambda: script(tmp_path, "echo", ECHO), timeout_s=30)
    client.request("x", value=1)
    proc = client._conn.proc
    client.close()
    client.close()
    assert proc.wait(5) == 0  # stdin closed: the stand-in ends its loop and exits cleanly
    with pytest.raises(SidecarError, match="unloaded"):
        client.request("x")


def test_plugin_without_a_sidecar_fails_open_everywhere(tmp_path, monkeypatch):
    import json

    import spillway
    from hermes_ctx import StandInContext

    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    monkeypatch.setenv("SPILLWAY_SIDECAR", str(tmp_path / "missing" / "spillway") + " sidecar")
    ctx = StandInContext()
    plugin = spillway.register(ctx)
    big = json.dumps({"output": "x\n" * 60_000, "exit_code": 0, "error": None})
    assert ctx.tool_result("terminal", big) == big
    assert plugin.failed_open == 1
    answer = json.loads(ctx.dispatch_tool("fetch_result", {"id": "0123456789ab", "mode": "stat"}))
    assert "re-run the original tool" in answer["error"]
    assert "unavailable" in ctx.run_command("spillway")
    ctx.unload()


SLOW_START_SLOW_REPLY = """
    import json, sys, time
    time.sleep(float(sys.argv[1]))  # a cold start
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("op") != "ping":
            time.sleep(float(sys.argv[2]))  # each real request takes a while too
        print(json.dumps({"id": req["id"], "ok": True, "result": "up"}), flush=True)
"""


def test_a_start_that_eats_the_time_out_keeps_the_process_for_the_next_call(tmp_path):
    # start 0.7 s + request 0.5 s > time-out 1 s: the first call fails open, but the new process
    # is not killed; the next call finds it warm and is answered (one start in all).
    argv = script(tmp_path, "slowboth", SLOW_START_SLOW_REPLY) + ["0.7", "0.5"]
    client = SidecarClient(lambda: argv, timeout_s=1.0, start_timeout_s=30)
    with pytest.raises(SidecarError, match="kept running for the next call"):
        client.request("handle")
    for _ in range(3):
        assert client.request("handle") == "up"
    assert client.starts == 1
    client.close()
