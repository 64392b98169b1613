"""Which session a blob belongs to: Hermes' ``session_id``, and the ``task_id -> session_id``
links learnt from ``pre_tool_call`` for tool handlers that get only ``task_id``."""

from __future__ import annotations

import collections
import hashlib
import threading
from typing import Any, Dict, Optional, Tuple


#: Task ids remembered by :class:`TaskSessions` (most recent first out); a few per live agent
#: run are enough, the bound only keeps a long-lived gateway from growing without limit.
MAX_TRACKED_TASKS = 4096


def _safe_key(value: str) -> str:
    # Ids the store would refuse (over 128 chars, control characters) become their SHA-256.
    if len(value) > 128 or any(ord(c) < 32 or ord(c) == 127 for c in value):
        return "sha256-" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
    return value


def session_of(kwargs: Dict[str, Any]) -> str:
    """The key that scopes blobs: Hermes' ``session_id``, else ``task_id``, else ``default``.
    Ids the store would refuse (over 128 chars, control characters) are replaced by their
    SHA-256. Tool handlers may not receive ``session_id`` (see :class:`TaskSessions`)."""
    for key in ("session_id", "task_id"):
        value = kwargs.get(key)
        if isinstance(value, str) and value:
            return _safe_key(value)
    return "default"


class TaskSessions:
    """Which session a task id belongs to, learnt from ``pre_tool_call``.

    ``transform_tool_result`` receives ``session_id`` and ``task_id``, but Hermes runs a tool as
    ``registry.dispatch(name, args, task_id=..., user_task=...)`` -> ``handler(args, **kwargs)``,
    and some Hermes versions pass no ``session_id`` there; a tool that an ``execute_code`` script
    calls gets no session at all (tools/code_execution_rpc.py, ``_default_dispatch``:
    ``handle_function_call(name, args, task_id=task_id)``). ``pre_tool_call`` fires before every
    tool with both ids when the model called it (``execute_code`` included), so the task's
    session can be looked up. Bounded and lock-protected: hooks run on several threads."""

    def __init__(self, limit: int = MAX_TRACKED_TASKS) -> None:
        self._limit = limit
        #: task id -> (latest session, whether the task was ever seen with another session)
        self._map: "collections.OrderedDict[str, Tuple[str, bool]]" = collections.OrderedDict()
        self._lock = threading.Lock()

    def remember(self, task_id: Any, session_id: Any) -> None:
        """Record ``task_id -> session_id`` (ignored unless both are non-empty strings)."""
        if not (isinstance(task_id, str) and task_id and isinstance(session_id, str) and session_id):
            return
        with self._lock:
            known = self._map.get(task_id)
            shared = known is not None and (known[1] or known[0] != session_id)
            self._map[task_id] = (session_id, shared)
            self._map.move_to_end(task_id)
            while len(self._map) > self._limit:
                self._map.popitem(last=False)

    def session_for(self, kwargs: Dict[str, Any]) -> str:
        """The blob scope for a tool handler's ``kwargs``: its own ``session_id`` when Hermes
        passes one, else the session recorded last for its ``task_id`` (the ``pre_tool_call``
        of this very call), else :func:`session_of`."""
        own = kwargs.get("session_id")
        if isinstance(own, str) and own:
            return _safe_key(own)
        task = kwargs.get("task_id")
        if isinstance(task, str) and task:
            with self._lock:
                known = self._map.get(task)
            if known is not None:
                return _safe_key(known[0])
        return session_of(kwargs)

    def only_session(self, task_id: Any) -> Optional[str]:
        """The one session ``task_id`` was ever seen with, or ``None`` when it is unknown or was
        seen with two sessions (then nobody can tell whose call an id-less one is)."""
        if not (isinstance(task_id, str) and task_id):
            return None
        with self._lock:
            known = self._map.get(task_id)
        return known[0] if known is not None and not known[1] else None

    def scope_for(self, kwargs: Dict[str, Any]) -> str:
        """The blob scope for a result hook's ``kwargs``: its ``session_id``, else the one session
        of its ``task_id`` (:meth:`only_session`), else :func:`session_of` (the task id itself)."""
        own = kwargs.get("session_id")
        if isinstance(own, str) and own:
            return _safe_key(own)
        session = self.only_session(kwargs.get("task_id"))
        return _safe_key(session) if session is not None else session_of(kwargs)

    def __len__(self) -> int:
        with self._lock:
            return len(self._map)
