"""Which session a blob belongs to: Hermes' ``session_id``, and the ``task_id -> session_id``
links learnt from ``pre_tool_call`` for tool handlers that get only ``task_id``."""

from __future__ import annotations

import collections
import hashlib
import threading
from typing import Any, Dict


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
    and some Hermes versions pass no ``session_id`` there. ``pre_tool_call`` fires before every
    tool (``fetch_result`` included) with both ids, so the handler can find the session the
    hook stored under. Bounded and lock-protected: hooks run on several threads."""

    def __init__(self, limit: int = MAX_TRACKED_TASKS) -> None:
        self._limit = limit
        self._map: "collections.OrderedDict[str, str]" = collections.OrderedDict()
        self._lock = threading.Lock()

    def remember(self, task_id: Any, session_id: Any) -> None:
        """Record ``task_id -> session_id`` (ignored unless both are non-empty strings)."""
        if not (isinstance(task_id, str) and task_id and isinstance(session_id, str) and session_id):
            return
        with self._lock:
            self._map[task_id] = session_id
            self._map.move_to_end(task_id)
            while len(self._map) > self._limit:
                self._map.popitem(last=False)

    def session_for(self, kwargs: Dict[str, Any]) -> str:
        """The blob scope for a tool handler's ``kwargs``: its own ``session_id`` when Hermes
        passes one, else the session recorded for its ``task_id``, else :func:`session_of`."""
        own = kwargs.get("session_id")
        if isinstance(own, str) and own:
            return _safe_key(own)
        task = kwargs.get("task_id")
        if isinstance(task, str) and task:
            with self._lock:
                known = self._map.get(task)
            if known is not None:
                return _safe_key(known)
        return session_of(kwargs)

    def __len__(self) -> int:
        with self._lock:
            return len(self._map)
