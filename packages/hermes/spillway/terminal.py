"""Ties Hermes' ``transform_terminal_output`` hook to the tool call it belongs to.

The hook is where a terminal command's output still exists before Hermes cuts it to
``tool_output.max_bytes`` (``tools/terminal_tool.py``, ``terminal_tool``), but Hermes passes it
only ``command``, ``output``, ``returncode``, ``task_id`` and ``env_type``, and that ``task_id``
is the container id (``_resolve_container_task_id``: usually ``"default"``), not the session.
Bounded hooks also run on a worker thread of their own
(``hermes_cli/plugins_dispatch.py``, ``_run_hook_callback_bounded``), so nothing thread-local
links them to the ``pre_tool_call`` that preceded them.

So ``pre_tool_call`` records each pending ``terminal`` call (session, call id, command), and the
terminal hook claims the one whose command it ran. A claim succeeds only when every pending
call with that command belongs to one known session: a blob is never stored under a session
that did not run the command. A call Hermes announced without ids (a tool called from an
``execute_code`` script: tools/code_execution_rpc.py, ``_default_dispatch`` passes only
``task_id``) whose session cannot be told is recorded as a call of an unknown session, and
while one of those is pending, no call with its command is claimed. Otherwise the hook leaves
the output alone and ``transform_tool_result`` handles the (capped) result as before.

A call may run under more than one command: another ``pre_tool_call`` hook (``rtk rewrite``)
may return ``modify``, and Hermes' agent loop runs the merged arguments
(agent/tool_executor.py, ``_pre_tool_block``), while other paths run the original ones. Both
are recorded (:meth:`TerminalCalls.add_command`), and a claim matches either.
"""

from __future__ import annotations

import collections
import itertools
import threading
import time
from dataclasses import dataclass
from typing import Deque, Dict, List, Optional

#: Pending terminal calls remembered at most (oldest dropped first).
MAX_PENDING_CALLS = 256
#: Seconds a pending call waits for its terminal hook; Hermes' foreground cap is 600 s.
PENDING_TTL_S = 900.0


def _text(value: object) -> Optional[str]:
    return value if isinstance(value, str) and value else None


@dataclass
class PendingCall:
    """One ``terminal`` call seen by ``pre_tool_call`` and not yet finished."""

    #: Hermes' tool call id, or ``""`` when Hermes passed none.
    tool_call_id: str
    #: The session that runs the call; ``None`` when it cannot be told (never claimed).
    session_id: Optional[str]
    #: The command as the model asked for it, then any rewrite it may run as.
    commands: List[str]
    at: float
    #: Hermes' task id (how an id-less call is finished).
    task_id: str = ""
    #: Blob id the terminal hook stored for this call, once it did.
    spilled: Optional[str] = None
    #: Its key in the pending table (the tool call id, or a private key for an id-less call).
    key: str = ""


class TerminalCalls:
    """Pending ``terminal`` calls, keyed by tool call id (a private key for id-less calls).
    Bounded, lock-protected."""

    def __init__(self, limit: int = MAX_PENDING_CALLS, ttl_s: float = PENDING_TTL_S) -> None:
        self._limit = limit
        self._ttl_s = ttl_s
        self._calls: Dict[str, PendingCall] = {}
        self._keys = itertools.count(1)
        #: Blob ids the terminal hook stored lately, to recognise its excerpts downstream.
        self._recent: Deque[str] = collections.deque(maxlen=limit)
        self._lock = threading.Lock()

    def remember(self, tool_call_id: object, session_id: object, command: object, task_id: object = "") -> None:
        """Record a ``terminal`` call from ``pre_tool_call`` (ignored without a command). A call
        without a session is recorded too, as one of an unknown session: it blocks claims."""
        text = _text(command)
        if text is None:
            return
        call_id = _text(tool_call_id) or ""
        with self._lock:
            now = time.monotonic()
            self._expire(now)
            key = call_id or f"\0id-less {next(self._keys)}"  # never a Hermes id
            self._calls[key] = PendingCall(call_id, _text(session_id), [text], now, _text(task_id) or "", key=key)
            while len(self._calls) > self._limit:
                self._calls.pop(next(iter(self._calls)))

    def add_command(self, tool_call_id: object, task_id: object, command: object, rewritten: object) -> None:
        """Record that the pending call that asked for ``command`` may run ``rewritten`` instead
        (a ``modify`` directive): the call with ``tool_call_id``, else the newest id-less call of
        ``task_id`` that asked for ``command``."""
        text, new = _text(command), _text(rewritten)
        if text is None or new is None:
            return
        with self._lock:
            call = self._find(_text(tool_call_id), _text(task_id) or "", text, newest=True)
            if call is not None and new not in call.commands:
                call.commands.append(new)

    def claim(self, command: object) -> Optional[PendingCall]:
        """The pending, not yet spilled call that ran ``command``, when all such calls belong to
        one known session (the oldest of them: Hermes runs a session's calls in order); else
        ``None``: a call of an unknown session, or of a second session, may have run it."""
        text = _text(command)
        if text is None:
            return None
        with self._lock:
            self._expire(time.monotonic())
            matches = [c for c in self._calls.values() if text in c.commands and c.spilled is None]
            sessions = {c.session_id for c in matches}
            if not matches or None in sessions or len(sessions) != 1:
                return None
            return min(matches, key=lambda c: c.at)

    def mark_spilled(self, call: PendingCall, blob_id: str) -> None:
        """Record that the terminal hook stored ``blob_id`` for ``call``."""
        with self._lock:
            call.spilled = blob_id
            self._recent.append(blob_id)

    def holds_excerpt(self, result: str, tool_call_id: object) -> bool:
        """Whether ``result`` already carries a handle the terminal hook made: the one stored
        for ``tool_call_id``, or any recent one (a claim may have matched a sibling call)."""
        with self._lock:
            call_id = _text(tool_call_id)
            call = self._calls.get(call_id) if call_id is not None else None
            ids = [call.spilled] if call is not None and call.spilled else []
            ids.extend(self._recent)
        return any(f"id {blob_id}," in result for blob_id in ids)

    def finish(self, tool_call_id: object, task_id: object = "", command: object = None) -> Optional[str]:
        """Forget a finished call (by ``tool_call_id``; an id-less one by ``task_id`` and
        ``command``, the oldest first); return the blob id its terminal hook stored, if any."""
        call_id, text = _text(tool_call_id), _text(command)
        if call_id is None and text is None:
            return None
        with self._lock:
            call = self._find(call_id, _text(task_id) or "", text or "", newest=False)
            if call is None:
                return None
            self._calls.pop(call.key, None)
        return call.spilled

    def __len__(self) -> int:
        with self._lock:
            return len(self._calls)

    def _find(self, call_id: Optional[str], task_id: str, command: str, newest: bool) -> Optional[PendingCall]:
        # Caller holds the lock. An id names its call; an id-less call is found by task and command.
        if call_id is not None:
            return self._calls.get(call_id)
        found = [c for c in self._calls.values() if not c.tool_call_id and c.task_id == task_id and command in c.commands]
        if not found:
            return None
        return found[-1] if newest else found[0]

    def _expire(self, now: float) -> None:
        for key in [k for k, c in self._calls.items() if now - c.at > self._ttl_s]:
            del self._calls[key]
