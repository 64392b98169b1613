"""What the plugin does on each Hermes callback. Every decision about trimming, storing and
fetching is made by the sidecar (``@spillway/core``); this file only translates Hermes' shapes
and fails open."""

from __future__ import annotations

import collections
import hashlib
import json
import logging
import threading
import time
from typing import Any, Dict, Optional

from .client import SidecarClient, SidecarError
from .settings import Settings

log = logging.getLogger("hermes_plugins.spillway")

#: Name of the tool the model calls to read a spilled result.
FETCH_TOOL = "fetch_result"

#: Model-facing schema of ``fetch_result`` (same fields as core's ``fetchTool.parameters``;
#: a test compares the two).
FETCH_RESULT_SCHEMA: Dict[str, Any] = {
    "name": FETCH_TOOL,
    "description": (
        "Read more of a tool result that was shown as an excerpt. Use the id from the handle block under "
        "the excerpt. Modes: \"stat\" (sizes, kind, tool); \"range\" (lines start..start+count-1, 1-based; "
        "or chars from a 0-based \"offset\" for one-line results); \"grep\" (lines matching \"pattern\", "
        "numbered \"N: line\"; \"context\" lines around each; \"page\" for more; plain text unless the "
        "pattern uses regex syntax, or force with \"literal\": true); \"full\" (the whole result, only when "
        "it is small). Ask for the smallest slice that answers your question."
    ),
    "parameters": {
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": "^[0-9a-f]{12,64}$", "description": "Result id from the handle block (12+ hex characters)."},
            "mode": {"type": "string", "enum": ["stat", "range", "grep", "full"], "description": "stat | range | grep | full"},
            "start": {"type": "integer", "minimum": 1, "description": "range: first line, 1-based. Default 1."},
            "count": {"type": "integer", "minimum": 1, "description": "range: number of lines (or chars with offset). Default 100 lines."},
            "offset": {"type": "integer", "minimum": 0, "description": "range: 0-based char offset, for one-line results."},
            "pattern": {"type": "string", "maxLength": 256, "description": "grep: text or JavaScript regex to find."},
            "literal": {"type": "boolean", "description": "grep: search pattern as plain text (dots, brackets and all)."},
            "ignoreCase": {"type": "boolean", "description": "grep: ignore case. Default false."},
            "context": {"type": "integer", "minimum": 0, "maximum": 5, "description": "grep: lines of context around each match. Default 0."},
            "page": {"type": "integer", "minimum": 1, "description": "grep: page of matches, 1-based. Default 1."},
        },
        "required": ["id", "mode"],
    },
}


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


def _format_stats(stats: Any) -> str:
    if not isinstance(stats, dict):
        return f"spillway: {json.dumps(stats)}"
    labels = (
        ("blobs", "blobs"), ("bytes", "bytes stored"), ("chars", "original chars"),
        ("sessions", "sessions"), ("tombstones", "tombstones"), ("store", "store"),
    )
    parts = [f"{label}: {stats[key]}" for key, label in labels if key in stats]
    rest = {k: v for k, v in stats.items() if k not in dict(labels)}
    line = ", ".join(parts) if parts else ""
    if rest:
        line = f"{line}; {json.dumps(rest, separators=(',', ':'))}" if line else json.dumps(rest, separators=(",", ":"))
    return f"spillway: {line}"


class SpillwayPlugin:
    """The plugin's callbacks, bound to one settings object and one sidecar client."""

    def __init__(self, settings: Settings, client: SidecarClient) -> None:
        self.settings = settings
        self.client = client
        self._last_sweep = float("-inf")  # the first session end sweeps
        self._sweeping = threading.Lock()
        self._warned = False
        #: Hook calls that failed open (the original result was kept).
        self.failed_open = 0
        #: Results replaced by an excerpt in this process, and the chars they had / have.
        self.trimmed = 0
        self.chars_before = 0
        self.chars_after = 0
        self._counts = threading.Lock()
        #: task id -> session id, filled by :meth:`pre_tool_call`, read by :meth:`fetch_result`.
        self.task_sessions = TaskSessions()

    # -- pre_tool_call --------------------------------------------------------------------
    def pre_tool_call(self, tool_name: str = "", args: Any = None, **kwargs: Any) -> None:
        """Observe-only: remember which session ``fetch_result``'s task belongs to."""
        try:
            if tool_name == FETCH_TOOL:
                self.task_sessions.remember(kwargs.get("task_id"), kwargs.get("session_id"))
        except Exception as err:  # noqa: BLE001 - an observer never disturbs the call
            log.debug("spillway: pre_tool_call failed (%s)", err)
        return None

    # -- transform_tool_result ------------------------------------------------------------
    def transform_tool_result(self, tool_name: str = "", args: Any = None, result: Any = None, **kwargs: Any) -> Optional[str]:
        """Return the excerpt the model should see, or ``None`` to keep ``result`` unchanged."""
        try:
            if not isinstance(result, str) or tool_name == FETCH_TOOL or tool_name in self.settings.skip_tools:
                return None  # multimodal envelopes are not strings; our own reads stay as they are
            if len(result) <= self.settings.max_chars:
                return None  # under budget: core would keep it byte-identical, so skip the round trip
            reply = self.client.request(
                "handle", tool=tool_name or "unknown", args=args if isinstance(args, dict) else None,
                result=result, sessionId=session_of(kwargs),
                **({"toolCallId": kwargs["tool_call_id"]} if isinstance(kwargs.get("tool_call_id"), str) and kwargs["tool_call_id"] else {}),
            )
            if not isinstance(reply, dict) or reply.get("changed") is not True:
                return None
            content = reply.get("content")
            if not isinstance(content, str) or content == result:
                return None
            with self._counts:
                self.trimmed += 1
                self.chars_before += len(result)
                self.chars_after += len(content)
            return content
        except Exception as err:  # noqa: BLE001 - nothing may escape into the agent loop
            self._fail_open(err)
            return None

    def _fail_open(self, err: BaseException) -> None:
        self.failed_open += 1
        # One warning per run is enough to notice; the rest go to debug.
        (log.debug if self._warned else log.warning)("spillway: kept the original tool result (%s)", err)
        self._warned = True

    # -- fetch_result ---------------------------------------------------------------------
    def fetch_result(self, params: Any = None, **kwargs: Any) -> str:
        """Handler of the ``fetch_result`` tool: the sidecar's model-facing answer."""
        try:
            args = params if isinstance(params, (dict, str)) else {}  # core also reads a JSON string
            session = self.task_sessions.session_for(kwargs)
            reply = self.client.request("fetch_result", args=args, sessionId=session)
            text = reply.get("text") if isinstance(reply, dict) else None
            if isinstance(text, str):
                return text
            return json.dumps({"error": "spillway returned no text; re-run the original tool."})
        except Exception as err:  # noqa: BLE001
            return json.dumps({"error": f"spillway is unavailable ({err}); re-run the original tool to see its output."})

    # -- /spillway ------------------------------------------------------------------------
    def command(self, raw_args: str = "", **_: Any) -> str:
        """``/spillway`` (status) and ``/spillway sweep``."""
        action = (raw_args or "").strip().split(" ", 1)[0].lower() or "status"
        try:
            if action == "sweep":
                return f"spillway sweep: {json.dumps(self.client.request('sweep'), separators=(',', ':'))}"
            if action in ("status", "stats"):
                line = _format_stats(self.client.request("stats"))
                saved = self.chars_before - self.chars_after
                return (
                    f"{line}\nthis run: {self.trimmed} results trimmed, {saved} chars saved "
                    f"(~{saved // 4} tokens at 4 chars/token), {self.failed_open} kept whole (fail-open)\n"
                    f"store: {self.settings.store_dir}, budget: {self.settings.max_chars} chars per result"
                )
            return "usage: /spillway [status|sweep]"
        except SidecarError as err:
            return f"spillway: the sidecar is unavailable ({err}). Check that `spillway` is on PATH or set SPILLWAY_SIDECAR."

    # -- on_session_end -------------------------------------------------------------------
    def on_session_end(self, **_: Any) -> None:
        """Sweep expired blobs, at most once per ``sweep_interval_s``, off the agent's thread."""
        now = time.monotonic()
        if self.client.pid is None or now - self._last_sweep < self.settings.sweep_interval_s:
            return  # nothing was spilled by this process yet, or swept recently
        if not self._sweeping.acquire(blocking=False):
            return
        self._last_sweep = now

        def sweep() -> None:
            try:
                self.client.request("sweep", timeout_s=max(self.settings.timeout_s, 30.0))
            except Exception as err:  # noqa: BLE001
                log.debug("spillway: sweep failed (%s)", err)
            finally:
                self._sweeping.release()

        threading.Thread(target=sweep, name="spillway-sweep", daemon=True).start()

    # -- unload ---------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Stop the sidecar (``ctx.on_unload`` and interpreter exit). Idempotent."""
        try:
            self.client.close()
        except Exception as err:  # noqa: BLE001
            log.debug("spillway: shutdown failed (%s)", err)
