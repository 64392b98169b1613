"""One long-lived ``spillway sidecar`` process, shared by every thread of the agent.

Requests are JSON lines tagged with an integer ``id``; a reader thread hands each reply to the
thread waiting for that id, so any number of threads may call :meth:`SidecarClient.request` at
once. A writer thread owns the child's stdin, so a hung child can never block a caller past its
time-out. Any failure (spawn error, crash, time-out, error reply) raises :class:`SidecarError`;
the connection is then dropped and the next request starts a fresh process.

A new process is first sent a ``ping`` by a background thread, with its own, longer start
time-out: a sidecar that is slow to start (a cold disk, a busy machine) makes callers fail open
while it starts instead of being killed and respawned on every call. A process that never
answered counts as a failed start, so repeated failures back off.
"""

from __future__ import annotations

import collections
import itertools
import json
import queue
import subprocess
import threading
import time
from typing import Any, Callable, Dict, List, Optional

#: Seconds a request waits for its reply before the sidecar is declared hung.
DEFAULT_TIMEOUT_S = 5.0
#: Seconds a new process has to answer its first ``ping`` before it counts as a failed start.
DEFAULT_START_TIMEOUT_S = 15.0
#: Consecutive failed starts (the process died before any reply) before backing off.
MAX_FAILED_STARTS = 3
#: Seconds to wait before trying again after :data:`MAX_FAILED_STARTS` failed starts.
START_BACKOFF_S = 30.0


class SidecarError(Exception):
    """The sidecar could not answer: not found, crashed, timed out or replied with an error."""


class _Slot:
    """Where the reader thread leaves the reply for one waiting request."""

    __slots__ = ("event", "reply", "error")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.reply: Optional[Dict[str, Any]] = None
        self.error: Optional[str] = None

    def resolve(self, reply: Dict[str, Any]) -> None:
        self.reply = reply
        self.event.set()

    def fail(self, error: str) -> None:
        self.error = error
        self.event.set()


class _Connection:
    """One child process with its reader, writer and stderr-drain threads."""

    def __init__(self, argv: List[str], env: Optional[Dict[str, str]], cwd: Optional[str],
                 stderr_tail: "collections.deque[str]") -> None:
        # A new session keeps the terminal's Ctrl-C (an agent interrupt) away from the sidecar.
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, cwd=cwd, start_new_session=True,
        )
        self.pending: Dict[int, _Slot] = {}
        self.lock = threading.Lock()
        self.alive = True
        self.replied = False
        self.reason = ""
        #: Set once the start handshake is over (answered, or failed: then ``alive`` is False).
        self.ready = threading.Event()
        #: A caller already gave up waiting for this start: later callers fail open at once.
        self.waited_out = False
        #: This process was already counted as a failed start.
        self.start_counted = False
        self._outbox: "queue.SimpleQueue[Optional[bytes]]" = queue.SimpleQueue()
        self._stderr_tail = stderr_tail
        for target in (self._read, self._write, self._drain_stderr):
            threading.Thread(target=target, name=f"spillway-{target.__name__[1:]}", daemon=True).start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, req_id: int, line: bytes, slot: _Slot) -> bool:
        with self.lock:
            if not self.alive:
                return False
            self.pending[req_id] = slot
        self._outbox.put(line)
        return True

    def forget(self, req_id: int) -> None:
        with self.lock:
            self.pending.pop(req_id, None)

    def close(self, reason: str, kill: bool = False) -> None:
        """Fail every pending request with ``reason``; with ``kill``, end the process too."""
        with self.lock:
            was_alive, self.alive = self.alive, False
            if was_alive:
                self.reason = reason
            pending = list(self.pending.values())
            self.pending.clear()
        for slot in pending:
            slot.fail(reason)
        self.ready.set()  # nobody waits for a start that can no longer succeed
        if was_alive:
            self._outbox.put(None)
        if kill and self.proc.poll() is None:
            try:
                self.proc.kill()  # SIGKILL also ends a stopped (SIGSTOP) process
            except OSError:
                pass
            threading.Thread(target=self.proc.wait, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            try:
                msg = json.loads(raw)
            except ValueError:
                continue  # not ours (a stray print); replies are always JSON objects
            if not isinstance(msg, dict) or not isinstance(msg.get("id"), int):
                continue
            with self.lock:
                slot = self.pending.pop(msg["id"], None)
                self.replied = True
            if slot is not None:
                slot.resolve(msg)
        code = self.proc.wait()
        self.close(f"the sidecar exited with code {code}")

    def _write(self) -> None:
        assert self.proc.stdin is not None
        while True:
            line = self._outbox.get()
            if line is None:
                try:
                    self.proc.stdin.close()  # EOF: the sidecar answers what it has and exits
                except OSError:
                    pass
                return
            try:
                self.proc.stdin.write(line)
                self.proc.stdin.flush()
            except (OSError, ValueError) as err:
                self.close(f"writing to the sidecar failed: {err}", kill=True)
                return

    def _drain_stderr(self) -> None:
        # Drained so a chatty child never blocks on a full pipe; the tail explains failures.
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            self._stderr_tail.append(raw.decode("utf-8", "replace").rstrip())


class SidecarClient:
    """Thread-safe client of one lazily started sidecar process.

    ``argv`` is called at each start and returns the command line (or ``None`` when no
    sidecar is configured), so a changed ``PATH`` or setting takes effect on restart.
    """

    def __init__(self, argv: Callable[[], Optional[List[str]]], timeout_s: float = DEFAULT_TIMEOUT_S,
                 env: Optional[Dict[str, str]] = None, cwd: Optional[str] = None,
                 start_timeout_s: float = DEFAULT_START_TIMEOUT_S) -> None:
        self.timeout_s = timeout_s
        #: Seconds a new process has to answer its start ``ping`` (see the module docstring).
        self.start_timeout_s = start_timeout_s
        self._argv = argv
        self._env = env
        self._cwd = cwd
        self._lock = threading.Lock()
        self._conn: Optional[_Connection] = None
        self._ids = itertools.count(1)
        self._failed_starts = 0
        self._backoff_until = 0.0
        self._closed = False
        #: Last lines the sidecar wrote to stderr (for status and error messages).
        self.stderr_tail: "collections.deque[str]" = collections.deque(maxlen=20)
        #: How many processes were started so far.
        self.starts = 0
        #: The last failure, as a short sentence (``None`` after a success).
        self.last_error: Optional[str] = None

    @property
    def pid(self) -> Optional[int]:
        """Process id of the live sidecar, or ``None`` when none runs."""
        conn = self._conn
        return conn.pid if conn is not None and conn.alive and conn.proc.poll() is None else None

    def request(self, op: str, timeout_s: Optional[float] = None, **fields: Any) -> Any:
        """Send ``{"op": op, **fields}`` and return the reply's ``result``.

        Raises :class:`SidecarError` on any failure; never blocks longer than the time-out
        (plus the start of the process when none runs).
        """
        try:
            result = self._request(op, self.timeout_s if timeout_s is None else timeout_s, fields)
        except SidecarError as err:
            self.last_error = str(err)
            raise
        self.last_error = None
        return result

    def _request(self, op: str, timeout_s: float, fields: Dict[str, Any]) -> Any:
        asked, deadline = timeout_s, time.monotonic() + timeout_s
        conn = self._connection()
        waited_for_start = not conn.ready.is_set()
        if waited_for_start:
            # Fail open while the process starts; the start handshake goes on without us.
            if conn.waited_out or not conn.ready.wait(timeout_s):
                conn.waited_out = True
                raise SidecarError(f"the sidecar is still starting (start time-out {self.start_timeout_s:g} s)")
            if not conn.alive:
                self._count_failed_start_of(conn)
                raise SidecarError(self._explain(conn.reason or "the sidecar exited while starting"))
        timeout_s = max(0.0, deadline - time.monotonic())
        req_id = next(self._ids)
        # ensure_ascii keeps lone surrogates and odd code points safe on the pipe.
        line = (json.dumps({"id": req_id, "op": op, **fields}, ensure_ascii=True) + "\n").encode("ascii")
        slot = _Slot()
        if not conn.send(req_id, line, slot):
            self._after_failure(conn)
            raise SidecarError(conn.reason or "the sidecar is not running")
        if not slot.event.wait(timeout_s):
            conn.forget(req_id)
            message = f"the sidecar did not answer within {asked:g} s"
            if waited_for_start:
                # The start ate part of this call's time-out: the process is not hung, just new.
                # Keep it running for the next call instead of killing and restarting it forever.
                raise SidecarError(f"{message} (it had just started; kept running for the next call)")
            conn.close(message, kill=True)
            self._after_failure(conn)  # a process that never answered is a failed start
            raise SidecarError(message)
        if slot.reply is None:
            self._after_failure(conn)
            raise SidecarError(self._explain(slot.error or "the sidecar exited"))
        with self._lock:
            self._failed_starts = 0
        reply = slot.reply
        if reply.get("ok") is not True:
            error = reply.get("error") if isinstance(reply.get("error"), dict) else {}
            raise SidecarError(f"{error.get('code', 'failed')}: {error.get('message', 'no message')}")
        return reply.get("result")

    def _connection(self) -> _Connection:
        with self._lock:
            if self._closed:
                raise SidecarError("the spillway plugin was unloaded")
            conn = self._conn
            if conn is not None and conn.alive and conn.proc.poll() is None:
                return conn
            if conn is not None:
                conn.close("the sidecar exited", kill=True)
                self._conn = None
            if time.monotonic() < self._backoff_until:
                raise SidecarError(f"the sidecar failed to start {MAX_FAILED_STARTS} times; retrying later")
            try:
                argv = self._argv()
            except Exception as err:  # noqa: BLE001 - e.g. the store folder cannot be created
                raise SidecarError(f"cannot prepare the sidecar: {err}") from err
            if not argv:
                raise SidecarError("no sidecar command: set SPILLWAY_SIDECAR (e.g. \"node packages/cli/dist/bin.js sidecar\") or put the spillway CLI on PATH")
            try:
                self._conn = _Connection(argv, self._env, self._cwd, self.stderr_tail)
            except OSError as err:
                self._count_failed_start()
                raise SidecarError(f"cannot start {argv[0]!r}: {err.strerror or err}") from err
            self.starts += 1
            conn = self._conn
        threading.Thread(target=self._handshake, args=(conn,), name="spillway-start", daemon=True).start()
        return conn

    def _handshake(self, conn: _Connection) -> None:
        """Wait (off every caller's thread) for the new process to answer a ``ping``."""
        req_id = next(self._ids)
        slot = _Slot()
        line = (json.dumps({"id": req_id, "op": "ping"}) + "\n").encode("ascii")
        if conn.send(req_id, line, slot) and slot.event.wait(self.start_timeout_s) and slot.reply is not None:
            with self._lock:
                self._failed_starts = 0
            conn.ready.set()  # any reply, even an error object, proves the process answers
            return
        conn.forget(req_id)
        # Counted before close() sets ``ready``: a caller woken by it must already see the
        # back-off this failure may start, or it would spawn one process too many.
        self._count_failed_start_of(conn)
        if conn.alive:
            conn.close(f"the sidecar did not answer its start ping within {self.start_timeout_s:g} s", kill=True)

    def _after_failure(self, conn: _Connection) -> None:
        if not conn.replied:
            self._count_failed_start_of(conn)

    def _count_failed_start_of(self, conn: _Connection) -> None:
        # Once per process: the handshake thread and a waiting caller may both notice.
        with self._lock:
            if conn.start_counted:
                return
            conn.start_counted = True
            self._count_failed_start()

    def _count_failed_start(self) -> None:
        self._failed_starts += 1
        if self._failed_starts >= MAX_FAILED_STARTS:
            self._backoff_until = time.monotonic() + START_BACKOFF_S
            self._failed_starts = 0

    def _explain(self, reason: str) -> str:
        tail = [line for line in list(self.stderr_tail)[-3:] if line]
        return f"{reason}: {' | '.join(tail)}" if tail else reason

    def close(self, grace_s: float = 2.0) -> None:
        """Ask the sidecar to finish and exit; kill it after ``grace_s``. Idempotent."""
        with self._lock:
            self._closed = True
            conn, self._conn = self._conn, None
        if conn is None or not conn.alive:
            return
        conn.close("the spillway plugin was unloaded")  # closes stdin: a clean exit
        try:
            conn.proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            conn.close("the spillway plugin was unloaded", kill=True)
