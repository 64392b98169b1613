"""A stand-in for Hermes' ``PluginContext`` (hermes_cli/plugins.py) and the host side that calls
plugins (model_tools.handle_function_call, PluginManager.invoke_hook), with the same method
names and signatures, so the plugin is tested the way Hermes drives it."""

from __future__ import annotations

import logging
from typing import Any, Callable, Dict, List

# The hooks this plugin uses, as listed in hermes_cli.plugins.VALID_HOOKS.
VALID_HOOKS = {
    "pre_tool_call", "post_tool_call", "transform_terminal_output", "transform_tool_result",
    "transform_llm_output", "pre_llm_call", "post_llm_call", "on_session_start", "on_session_end",
    "on_session_finalize", "on_session_reset",
}

log = logging.getLogger("stand-in-hermes")


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
        self.commands[name.lower().strip().lstrip("/")] = {"handler": handler, "description": description}

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
        """Like PluginManager.invoke_hook: every callback, keyword arguments plus the legacy
        telemetry marker, exceptions logged and skipped."""
        results = []
        for cb in self.hooks.get(hook_name, []):
            try:
                results.append(cb(**kwargs, telemetry_schema_version="hermes.observer.v1"))
            except Exception:  # noqa: BLE001
                log.exception("hook %s failed", hook_name)
        return results

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

    def dispatch_tool(self, name: str, args: dict, *, session_id: str = "s1", task_id: str = "t1") -> str:
        """Like the agent loop running one tool: ``pre_tool_call`` (both ids, ``modify``
        directives merged), then registry.dispatch -> ``handler(args, task_id=..., user_task=...)``.
        The handler gets no ``session_id``, as in Hermes versions whose dispatch omits it."""
        args = self.pre_tool_call(name, args, session_id=session_id, task_id=task_id)
        return self.tools[name]["handler"](args, task_id=task_id, user_task=None)

    def pre_tool_call(self, tool_name: str, args: dict, *, session_id: str = "s1", task_id: str = "t1") -> dict:
        """The arguments the tool runs with: ``modify`` directives shallow-merged in order."""
        merged = dict(args)
        for out in self.invoke_hook("pre_tool_call", tool_name=tool_name, args=dict(args), task_id=task_id,
                                    session_id=session_id, tool_call_id="tc1", turn_id="turn1",
                                    api_request_id="req1", middleware_trace=[]):
            if isinstance(out, dict) and out.get("action") == "modify" and isinstance(out.get("args"), dict):
                merged.update(out["args"])
        return merged

    def run_command(self, name: str, raw_args: str = "") -> Any:
        return self.commands[name]["handler"](raw_args)

    def unload(self) -> None:
        for cb in reversed(self._unload):
            try:
                cb()
            except Exception:  # noqa: BLE001
                log.exception("on_unload callback failed")
        self._unload.clear()
