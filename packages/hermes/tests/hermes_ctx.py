"""A stand-in for Hermes' ``PluginContext`` (hermes_cli/plugins.py) and the host side that calls
plugins (model_tools.handle_function_call, PluginManager.invoke_hook, tools/terminal_tool.py),
with the same method names, signatures and order, so the plugin is tested the way Hermes
drives it. Read from NousResearch/hermes-agent: hermes_cli/plugins.py @ 00067189,
hermes_cli/plugins_dispatch.py @ 006a5aeb, model_tools.py @ 00511331,
tools/terminal_tool.py @ 01224e79, tools/environments/base_output.py @ 0294b433,
tools/tool_output_limits.py @ 17206cf2, agent/tool_executor.py @ 0019b9b9,
tools/code_execution_rpc.py @ 03f0bff0 (the store held each file at its own commit)."""

from __future__ import annotations

import contextvars
import json
import logging
import threading
from typing import Any, Callable, Dict, List, Optional

# The hooks this plugin uses, as listed in hermes_cli.plugins.VALID_HOOKS.
VALID_HOOKS = {
    "pre_tool_call", "post_tool_call", "transform_terminal_output", "transform_tool_result",
    "transform_llm_output", "pre_llm_call", "post_llm_call", "on_session_start", "on_session_end",
    "on_session_finalize", "on_session_reset",
}

log = logging.getLogger("stand-in-hermes")

# plugins_dispatch._HOOK_TIMEOUT_BOUNDED_HOOKS (+ the fail-closed pre_tool_call): these run on a
# worker thread of their own under plugins.hook_callback_timeout (30 s by default).
BOUNDED_HOOKS = {
    "post_tool_call", "transform_terminal_output", "transform_tool_result", "transform_llm_output",
    "pre_llm_call", "post_llm_call", "on_session_start", "on_session_end", "pre_tool_call",
}
# Hermes' default is 30 s (plugins.hook_callback_timeout, at most 600 s). The tests give the plugin
# long sidecar time-outs so that correctness never depends on the machine's speed, so the stand-in
# waits up to the maximum a config can set.
HOOK_CALLBACK_TIMEOUT_S = 600.0
#: tools/tool_output_limits.DEFAULT_MAX_BYTES: ``tool_output.max_bytes`` when config.yaml has none.
DEFAULT_MAX_BYTES = 50_000


def head_tail_cut(output: str, max_chars: int) -> str:
    """terminal_tool's final cut (``tools/terminal_tool.py``, ``terminal_tool``, after the
    ``transform_terminal_output`` hook): 40% head + notice + 60% tail when over ``max_chars``."""
    if len(output) <= max_chars:
        return output
    head_chars = int(max_chars * 0.4)
    tail_chars = max_chars - head_chars
    omitted = len(output) - head_chars - tail_chars
    notice = f"\n\n... [OUTPUT TRUNCATED - {omitted} chars omitted out of {len(output)} total] ...\n\n"
    return output[:head_chars] + notice + output[-tail_chars:]


def bounded_capture(output: str, max_chars: int) -> str:
    """What newer Hermes' ``_BoundedOutputCollector.render`` (tools/environments/base_output.py,
    ``bounded_capture=True`` on the foreground terminal path) hands terminal_tool: a 40/60
    head/tail window of ``tool_output.max_bytes`` chars, notice included."""
    if len(output) <= max_chars:
        return output
    notice = ""
    for _ in range(4):
        omitted = max(0, len(output) - max(0, max_chars - len(notice)))
        updated = f"\n\n... [OUTPUT TRUNCATED - {omitted:,} chars omitted out of {len(output):,} total] ...\n\n"
        if updated == notice:
            break
        notice = updated
    budget = max(0, max_chars - len(notice))
    head_chars = int(budget * 0.4)
    tail_chars = budget - head_chars
    return output[:head_chars] + notice + (output[-tail_chars:] if tail_chars else "")


class StandInContext:
    """``ctx`` as passed to ``register(ctx)``; ``settings`` plays
    ``plugins.entries.spillway.settings`` in config.yaml."""

    def __init__(self, settings: Dict[str, Any] | None = None) -> None:
        self.settings = dict(settings or {})
        self.hooks: Dict[str, List[Callable]] = {}
        self.tools: Dict[str, Dict[str, Any]] = {}
        self.commands: Dict[str, Dict[str, Any]] = {}
        self._unload: List[Callable[[], None]] = []

    # -- PluginContext API ----------------------------------------------------------------
    def register_hook(self, hook_name: str, callback: Callable) -> None:
        assert hook_name in VALID_HOOKS, f"unknown hook {hook_name}"
        assert callable(callback)
        self.hooks.setdefault(hook_name, []).append(callback)

    def register_tool(self, name: str, toolset: str, schema: dict, handler: Callable,
                      check_fn: Callable | None = None, requires_env: list | None = None,
                      is_async: bool = False, description: str = "", emoji: str = "",
                      override: bool = False) -> None:
        assert isinstance(schema, dict) and schema.get("name") == name and "parameters" in schema
        self.tools[name] = {"toolset": toolset, "schema": schema, "handler": handler, "is_async": is_async}

    def register_command(self, name: str, handler: Callable, description: str = "",
                         args_hint: str = "", argument_mode: str | None = None) -> None:
        """PluginContext.register_command: an in-session ``/name``; ``handler(raw_args: str) -> str |
        None``. Same name cleaning, defaults and ``argument_mode`` rule as Hermes (the built-in
        conflict check and the registration ledger are left out: there are no built-ins here)."""
        clean = name.lower().strip().lstrip("/").replace(" ", "-")
        if not clean:
            log.warning("tried to register a command with an empty name")
            return
        hint = (args_hint or "").strip()
        self.commands[clean] = {
            "handler": handler, "description": description or "Plugin command", "args_hint": hint,
            "argument_mode": argument_mode if argument_mode in {"options", "text", "mixed"} else ("text" if hint else None),
        }

    def get_config(self, key: str, default: Any = None) -> Any:
        node: Any = self.settings
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    def on_unload(self, callback: Callable[[], None]) -> None:
        if not callable(callback):
            raise TypeError("on_unload callback must be callable")
        self._unload.append(callback)

    # -- host side --------------------------------------------------------------------------
    def invoke_hook(self, hook_name: str, **kwargs: Any) -> List[Any]:
        """Like PluginDispatchMixin.invoke_hook: every callback with the keyword arguments plus
        ``telemetry_schema_version``; bounded hooks on a worker thread (copied contextvars,
        skipped after the callback time-out); exceptions logged and skipped; ``None`` results
        dropped."""
        kwargs.setdefault("telemetry_schema_version", "hermes.observer.v1")
        results = []
        for cb in self.hooks.get(hook_name, []):
            try:
                ret = self._run_bounded(cb, kwargs) if hook_name in BOUNDED_HOOKS else cb(**kwargs)
            except Exception:  # noqa: BLE001
                log.exception("hook %s failed", hook_name)
                continue
            if ret is not None:
                results.append(ret)
        return results

    @staticmethod
    def _run_bounded(cb: Callable, kwargs: Dict[str, Any]) -> Any:
        box: Dict[str, Any] = {}
        context = contextvars.copy_context()

        def work() -> None:
            try:
                box["ret"] = context.run(cb, **kwargs)
            except BaseException as err:  # noqa: BLE001
                box["err"] = err

        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        worker.join(HOOK_CALLBACK_TIMEOUT_S)
        if worker.is_alive():
            return None  # abandoned, as Hermes does (fail-open for transform hooks)
        if "err" in box:
            raise box["err"]
        return box.get("ret")

    def tool_result(self, tool_name: str, result: Any, args: dict | None = None, *,
                    session_id: str = "s1", task_id: str = "t1", tool_call_id: str = "tc1") -> Any:
        """What model_tools.handle_function_call appends to the conversation: the first string
        a ``transform_tool_result`` callback returns, else the original result."""
        for out in self.invoke_hook(
            "transform_tool_result", tool_name=tool_name, args=args or {}, result=result,
            task_id=task_id, session_id=session_id, tool_call_id=tool_call_id, turn_id="turn1",
            api_request_id="req1", duration_ms=12, status="ok", error_type=None, error_message=None,
        ):
            if isinstance(out, str):
                return out
        return result

    def run_terminal(self, command: str, full_output: str, returncode: int = 0, *, session_id: str = "s1",
                     task_id: str = "t1", tool_call_id: str = "tc1", max_bytes: int = DEFAULT_MAX_BYTES,
                     capture_bounded: bool = False, before_result: Optional[Callable[[], None]] = None,
                     apply_modify: bool = True, ran: Optional[List[str]] = None) -> Any:
        """One foreground ``terminal`` call in Hermes' order:

        1. ``pre_tool_call`` (model_tools.handle_function_call / agent.tool_executor) with both ids;
           the agent loop then runs the tool with the ``modify`` directives merged in
           (agent/tool_executor.py @ 0019b9b9, ``_pre_tool_block``: ``ref.args if modified_args is
           None else modified_args``; ``_dispatch_authorized_once``: ``execute(ref.args)``), so
           with ``apply_modify`` the terminal runs (and the hooks see) the rewritten command;
        2. the terminal tool (tools/terminal_tool.py, ``terminal_tool``): the process output,
           already a ``max_bytes`` head/tail window when ``capture_bounded`` (newer Hermes,
           ``env.execute(..., bounded_capture=True)``); then ``transform_terminal_output`` with
           ``command``, ``output``, ``returncode``, ``task_id`` = the container id
           (``_resolve_container_task_id``: ``"default"``) and ``env_type``, first string wins;
           then the ``tool_output.max_bytes`` 40/60 cut; ANSI strip; ``output.strip()``; the
           ``{"output", "exit_code", "error"}`` JSON;
        3. ``transform_tool_result`` on that JSON (first string wins), with the args the tool ran with.
        ``before_result`` runs between 2 and 3 (to interleave concurrent calls); ``ran`` collects
        the command the terminal ran."""
        merged = self.pre_tool_call("terminal", {"command": command}, session_id=session_id, task_id=task_id,
                                    tool_call_id=tool_call_id)
        args = merged if apply_modify else {"command": command}
        command = args["command"]
        if ran is not None:
            ran.append(command)
        output = bounded_capture(full_output, max_bytes) if capture_bounded else full_output
        for out in self.invoke_hook("transform_terminal_output", command=command, output=output,
                                    returncode=returncode, task_id="default", env_type="local"):
            if isinstance(out, str):
                output = out
                break
        output = head_tail_cut(output, max_bytes).strip()
        result = json.dumps({"output": output, "exit_code": returncode, "error": None}, ensure_ascii=False)
        if before_result is not None:
            before_result()
        return self.tool_result("terminal", result, dict(args), session_id=session_id, task_id=task_id,
                                tool_call_id=tool_call_id)

    # -- execute_code's sandbox -------------------------------------------------------------
    # A script run by execute_code calls tools over RPC; Hermes dispatches each one as
    # ``handle_function_call(tool_name, tool_args, task_id=task_id)`` (tools/code_execution_rpc.py
    # @ 03f0bff0, ``_default_dispatch``): no session id, no tool call id. handle_function_call
    # (model_tools.py @ 00511331) then fires ``pre_tool_call`` through ``resolve_pre_tool_block``,
    # which keeps only the block message (``_dispatch_pre_tool_call_hooks(...)[0]``, hermes_cli/
    # plugins.py @ 00067189): ``modify`` directives are not applied on this path; and it passes
    # ``session_id or ""`` / ``tool_call_id or ""`` to both hooks.

    def sandbox_terminal(self, command: str, full_output: str, returncode: int = 0, *, task_id: str,
                         **kwargs: Any) -> Any:
        """``terminal`` called from an execute_code script of the agent run ``task_id``."""
        return self.run_terminal(command, full_output, returncode, session_id="", task_id=task_id,
                                 tool_call_id="", apply_modify=False, **kwargs)

    def sandbox_tool(self, name: str, args: dict, result: Any, *, task_id: str) -> Any:
        """Any other tool called from an execute_code script: ``pre_tool_call``, the tool (whose
        return value is ``result``), then ``transform_tool_result``, all without session or call id."""
        self.pre_tool_call(name, args, session_id="", task_id=task_id, tool_call_id="")
        return self.tool_result(name, result, args, session_id="", task_id=task_id, tool_call_id="")

    def dispatch_tool(self, name: str, args: dict, *, session_id: str = "s1", task_id: str = "t1") -> str:
        """Like the agent loop running one tool: ``pre_tool_call`` (both ids, ``modify``
        directives merged), then registry.dispatch -> ``handler(args, task_id=..., user_task=...)``.
        The handler gets no ``session_id``, as in Hermes versions whose dispatch omits it."""
        args = self.pre_tool_call(name, args, session_id=session_id, task_id=task_id)
        return self.tools[name]["handler"](args, task_id=task_id, user_task=None)

    def pre_tool_call(self, tool_name: str, args: dict, *, session_id: str = "s1", task_id: str = "t1",
                      tool_call_id: str = "tc1") -> dict:
        """The arguments the tool runs with: ``modify`` directives shallow-merged in order, each
        hook seeing the original args (hermes_cli/plugins.py @ 00067189,
        ``_get_pre_tool_call_directive_details``)."""
        merged = dict(args)
        for out in self.invoke_hook("pre_tool_call", tool_name=tool_name, args=dict(args), task_id=task_id,
                                    session_id=session_id, tool_call_id=tool_call_id, turn_id="turn1",
                                    api_request_id="req1", middleware_trace=[]):
            if isinstance(out, dict) and out.get("action") == "modify" and isinstance(out.get("args"), dict):
                merged.update(out["args"])
        return merged

    def run_command(self, name: str, raw_args: str = "") -> Any:
        """The user typing ``/name raw_args``: the handler gets the text after the name."""
        return self.commands[name.lower().lstrip("/")]["handler"](raw_args)

    def unload(self) -> None:
        for cb in reversed(self._unload):
            try:
                cb()
            except Exception:  # noqa: BLE001
                log.exception("on_unload callback failed")
        self._unload.clear()
