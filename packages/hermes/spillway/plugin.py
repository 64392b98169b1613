"""What the plugin does on each Hermes callback. Every decision about trimming, storing and
fetching is made by the sidecar (``@spillway/core``); this file only translates Hermes' shapes
and fails open."""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any, Dict, Optional

from .client import SidecarClient, SidecarError
from .settings import CHARS_PER_TOKEN, Settings
from .sessions import TaskSessions, _safe_key, session_of
from .terminal import TerminalCalls

__all__ = ["FETCH_RESULT_SCHEMA", "FETCH_TOOL", "FETCH_UNAVAILABLE", "TERMINAL_TOOL", "SpillwayPlugin", "TaskSessions",
           "session_of"]

#: Hermes' terminal tool, whose output the ``transform_terminal_output`` hook sees before the cap.
TERMINAL_TOOL = "terminal"

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
            "raw": {"type": "boolean", "description": "range/grep: read the output exactly as the tool returned it (colour codes, link targets, the JSON around the text); lines are then counted in it. Default false."},
        },
        "required": ["id", "mode"],
    },
}


#: What ``fetch_result`` answers when the sidecar cannot: a fixed sentence, because the reason
#: (in the log and ``/spillway``) may quote the sidecar's stderr, which is no business of the model.
FETCH_UNAVAILABLE = ("spillway cannot read stored results right now (its sidecar is unavailable); "
                     "re-run the original tool to see its output.")

#: What ``/spillway`` answers to arguments it does not know.
USAGE = "usage: /spillway [status] [DAYS] | /spillway sweep"


def _format_stats(stats: Any) -> str:
    """One line of store figures: the fallback when the sidecar returns no ``text`` report."""
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
        #: task id -> session id of ``fetch_result`` calls, filled by :meth:`pre_tool_call`, read
        #: by :meth:`fetch_result`.
        self.task_sessions = TaskSessions()
        #: task id -> session id of every tool call the model made (``execute_code`` included):
        #: the session of a call Hermes announces without one (a tool an ``execute_code`` script
        #: calls), when its task was only ever seen with that session.
        self.run_sessions = TaskSessions()
        #: pending ``terminal`` calls, filled by :meth:`pre_tool_call`, claimed by
        #: :meth:`transform_terminal_output`.
        self.terminal_calls = TerminalCalls()

    # -- pre_tool_call --------------------------------------------------------------------
    def pre_tool_call(self, tool_name: str = "", args: Any = None, **kwargs: Any) -> None:
        """Observe-only: remember which session each task belongs to, and which session and call
        a ``terminal`` command belongs to (see :mod:`spillway.terminal`). A call without a
        session (one an ``execute_code`` script made) gets its task's session when the task was
        only ever seen with one; else it is recorded as a call of an unknown session."""
        try:
            task, own = kwargs.get("task_id"), kwargs.get("session_id")
            self.run_sessions.remember(task, own)
            if tool_name == FETCH_TOOL:
                self.task_sessions.remember(task, own)
            elif tool_name == TERMINAL_TOOL and self.settings.terminal_hook and isinstance(args, dict):
                session = own if isinstance(own, str) and own else self.run_sessions.only_session(task)
                self.terminal_calls.remember(kwargs.get("tool_call_id"), session, args.get("command"), task)
        except Exception as err:  # noqa: BLE001 - an observer never disturbs the call
            log.debug("spillway: pre_tool_call failed (%s)", err)
        return None

    def note_rewrite(self, command: str, rewritten: str, hook_kwargs: Dict[str, Any]) -> None:
        """The rtk hook rewrote a pending ``terminal`` call's command: the terminal hook may see
        either (Hermes' agent loop runs the rewrite, other paths the original)."""
        try:
            self.terminal_calls.add_command(hook_kwargs.get("tool_call_id"), hook_kwargs.get("task_id"), command, rewritten)
        except Exception as err:  # noqa: BLE001
            log.debug("spillway: recording a rewrite failed (%s)", err)

    # -- transform_terminal_output --------------------------------------------------------
    def transform_terminal_output(self, command: Any = "", output: Any = None, **kwargs: Any) -> Optional[str]:
        """The terminal's output before Hermes' ``tool_output.max_bytes`` cut: excerpt + handle,
        or ``None`` to keep it. Hermes passes no session here, so the call is claimed from the
        pending ``terminal`` calls (:class:`spillway.terminal.TerminalCalls`); when that is
        ambiguous the output is left to Hermes and to :meth:`transform_tool_result`."""
        try:
            if not self.settings.terminal_hook or TERMINAL_TOOL in self.settings.skip_tools:
                return None
            if not isinstance(output, str) or len(output) <= self.settings.max_chars:
                return None
            own = kwargs.get("session_id")  # a Hermes that passes the session wins over the claim
            call = self.terminal_calls.claim(command)
            if isinstance(own, str) and own:
                session, call_id = _safe_key(own), (call.tool_call_id if call is not None and call.session_id == own else None)
            elif call is not None:
                session, call_id = _safe_key(call.session_id), call.tool_call_id
            else:
                return None
            content, handle = self._handle(TERMINAL_TOOL, {"command": command} if isinstance(command, str) else None,
                                           output, session, call_id)
            if content is not None and handle is not None and call is not None and call_id is not None:
                self.terminal_calls.mark_spilled(call, handle)
            return content
        except Exception as err:  # noqa: BLE001 - nothing may escape into the terminal tool
            self._fail_open(err)
            return None

    # -- transform_tool_result ------------------------------------------------------------
    def transform_tool_result(self, tool_name: str = "", args: Any = None, result: Any = None, **kwargs: Any) -> Optional[str]:
        """Return the excerpt the model should see, or ``None`` to keep ``result`` unchanged."""
        try:
            if tool_name == TERMINAL_TOOL:
                spilled = self.terminal_calls.holds_excerpt(result, kwargs.get("tool_call_id")) if isinstance(result, str) else False
                self.terminal_calls.finish(kwargs.get("tool_call_id"), kwargs.get("task_id"),
                                           args.get("command") if isinstance(args, dict) else None)
                if spilled:
                    return None  # transform_terminal_output already spilled this output: never twice
            if not isinstance(result, str) or tool_name == FETCH_TOOL or tool_name in self.settings.skip_tools:
                return None  # multimodal envelopes are not strings; our own reads stay as they are
            if len(result) <= self.settings.max_chars:
                return None  # under budget: core would keep it byte-identical, so skip the round trip
            call_id = kwargs.get("tool_call_id")
            # A tool an execute_code script called comes without session_id: its task's session.
            content, _ = self._handle(tool_name or "unknown", args if isinstance(args, dict) else None, result,
                                      self.run_sessions.scope_for(kwargs), call_id if isinstance(call_id, str) and call_id else None)
            return content
        except Exception as err:  # noqa: BLE001 - nothing may escape into the agent loop
            self._fail_open(err)
            return None

    def _handle(self, tool: str, args: Optional[dict], result: str, session: str,
                call_id: Optional[str]) -> "tuple[Optional[str], Optional[str]]":
        """One sidecar ``handle``: ``(content, blob id)``, or ``(None, None)`` to keep ``result``."""
        reply = self.client.request(
            "handle", tool=tool, args=args, result=result, sessionId=session,
            **({"toolCallId": call_id} if call_id else {}),
        )
        if not isinstance(reply, dict) or reply.get("changed") is not True:
            return None, None
        content = reply.get("content")
        if not isinstance(content, str) or content == result:
            return None, None
        with self._counts:
            self.trimmed += 1
            self.chars_before += len(result)
            self.chars_after += len(content)
        handle = reply.get("handle")
        blob_id = handle.get("id") if isinstance(handle, dict) and isinstance(handle.get("id"), str) else None
        return content, blob_id

    def _fail_open(self, err: BaseException) -> None:
        self.failed_open += 1
        self._warn("spillway: kept the original tool result (%s)", err)

    def _warn(self, message: str, err: BaseException) -> None:
        # One warning per run is enough to notice; the rest go to debug.
        (log.debug if self._warned else log.warning)(message, err)
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
            raise SidecarError(f"no text in the sidecar's reply: {str(reply)[:200]}")
        except Exception as err:  # noqa: BLE001 - the model gets a sentence, the log gets the reason
            self._warn("spillway: fetch_result failed (%s)", err)
            return json.dumps({"error": FETCH_UNAVAILABLE})

    # -- /spillway ------------------------------------------------------------------------
    def command(self, raw_args: str = "", **_: Any) -> str:
        """``/spillway [status] [DAYS]``: the store and what was saved per tool (summed over every
        process sharing the store, the last DAYS UTC days or all), as ``spillway stats`` prints it;
        ``/spillway sweep``: clean up now."""
        words = (raw_args or "").strip().split()
        if words and words[0].isdigit():
            words = ["status", *words]  # "/spillway 7"
        action = words[0].lower() if words else "status"
        try:
            if action == "sweep" and len(words) == 1:
                return f"spillway sweep: {json.dumps(self.client.request('sweep'), separators=(',', ':'))}"
            if action in ("status", "stats") and len(words) <= 2:
                days = int(words[1]) if len(words) == 2 and words[1].isdigit() and int(words[1]) >= 1 else None
                if len(words) == 2 and days is None:
                    return USAGE
                stats = self.client.request("stats", format="text", **({"days": days} if days is not None else {}))
                report = stats["text"].rstrip("\n") if isinstance(stats, dict) and isinstance(stats.get("text"), str) else _format_stats(stats)
                saved = self.chars_before - self.chars_after
                budget = f"{self.settings.max_chars} chars per result"
                if self.settings.max_tokens is not None:
                    budget += f" (max_tokens {self.settings.max_tokens}, at {CHARS_PER_TOKEN} chars per token)"
                elif self.settings.context_length:
                    budget += f" (5% of the model's {self.settings.context_length}-token window)"
                return (
                    f"{report}\nthis run: {self.trimmed} results trimmed, {saved} chars saved "
                    f"(~{saved // 4} tokens at 4 chars/token), {self.failed_open} kept whole (fail-open)\n"
                    f"store: {self.settings.store_dir}, budget: {budget}"
                )
            return USAGE
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
