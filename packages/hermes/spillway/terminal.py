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
call with that command belongs to one session: a blob is never stored under a session that did
not run the command. Otherwise the hook leaves the output alone and ``transform_tool_result``
handles the (capped) result as before.
"""

from __future__ import annotations

import collections
import threading
import time
from dataclasses import dataclass
from typing import Deque, Dict, Optional

#: Pending terminal calls remembered at most (oldest dropped first).
MAX_PENDING_CALLS = 256
#: Seconds a pending call waits for its terminal hook; Hermes' foreground cap is 600 s.
PENDING_TTL_S = 900.0


@dataclass
class PendingCall:
    """One ``terminal`` call seen by ``pre_tool_call`` and not yet finished."""

    tool_call_id: str
    session_id: str
    command: str
    at: float
    #: Blob id the terminal hook stored for this call, once it did.
    spilled: Optional[str] = None


class TerminalCalls:
    """Pending ``terminal`` calls, keyed by tool call id. Bounded, lock-protected."""

    def __init__(self, limit: int = MAX_PENDING_CALLS, ttl_s: float = PENDING_TTL_S) -> None:
        self._limit = limit
        self._ttl_s = ttl_s
        self._calls: Dict[str, PendingCall] = {}
        #: Blob ids the terminal hook stored lately, to recognise its excerpts downstream.
        self._recent: Deque[str] = collections.deque(maxlen=limit)
        self._lock = threading.Lock()

    def remember(self, tool_call_id: object, session_id: object, command: object) -> None:
        """Record a ``terminal`` call from ``pre_tool_call`` (ignored unless all three are non-empty strings)."""
        if not all(isinstance(v, str) and v for v in (tool_call_id, session_id, command)):
            return
        with self._lock:
            self._expire(time.monotonic())
            self._calls[tool_call_id] = PendingCall(tool_call_id, session_id, command, time.monotonic())  # type: ignore[arg-type]
            while len(self._calls) > self._limit:
                self._calls.pop(next(iter(self._calls)))

    def claim(self, command: object) -> Optional[PendingCall]:
        """The pending, not yet spilled call that ran ``command``, when all such calls belong to
        one session (the oldest of them: Hermes runs a session's calls in order); else ``None``."""
        if not isinstance(command, str) or not command:
            return None
        with self._lock:
            self._expire(time.monotonic())
            matches = [c for c in self._calls.values() if c.command == command and c.spilled is None]
            if not matches or len({c.session_id for c in matches}) != 1:
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
            call = self._calls.get(tool_call_id) if isinstance(tool_call_id, str) else None
            ids = [call.spilled] if call is not None and call.spilled else []
            ids.extend(self._recent)
        return any(f"id {blob_id}," in result for blob_id in ids)

    def finish(self, tool_call_id: object) -> Optional[str]:
        """Forget a finished call; return the blob id its terminal hook stored, if any."""
        if not isinstance(tool_call_id, str):
            return None
        with self._lock:
            call = self._calls.pop(tool_call_id, None)
        return call.spilled if call is not None else None

    def __len__(self) -> int:
        with self._lock:
            return len(self._calls)

    def _expire(self, now: float) -> None:
        for key in [k for k, c in self._calls.items() if now - c.at > self._ttl_s]:
            del self._calls[key]
