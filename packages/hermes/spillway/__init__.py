"""spillway for Hermes Agent: large tool results become a compact, structure-aware excerpt plus
a handle; the full result goes to a local store and the model reads the slice it needs with
``fetch_result``. The work is done by one long-lived ``spillway sidecar`` Node process.

Install: copy this folder to ``~/.hermes/plugins/spillway`` and run
``hermes plugins enable spillway``. See README.md beside the package for the settings.
"""

from __future__ import annotations

import atexit
import os
import shutil
from typing import Any

from .client import SidecarClient, SidecarError
from .plugin import FETCH_RESULT_SCHEMA, FETCH_TOOL, SpillwayPlugin, TaskSessions, session_of
from .rtk import make_rtk_hook
from .settings import Settings, ensure_store_dir, load_settings, sidecar_argv, sidecar_env

__all__ = [
    "FETCH_RESULT_SCHEMA", "FETCH_TOOL", "SidecarClient", "SidecarError", "Settings",
    "SpillwayPlugin", "TaskSessions", "load_settings", "register", "session_of", "sidecar_argv", "sidecar_env",
]

#: Toolset that holds ``fetch_result``.
TOOLSET = "spillway"


def _config_reader(ctx: Any):
    """``ctx.get_config`` when this Hermes has it (it reads ``plugins.entries.spillway.settings``);
    defaults otherwise. A failing read never stops the plugin from loading."""
    get = getattr(ctx, "get_config", None)

    def read(key: str, default: Any = None) -> Any:
        if get is None:
            return default
        try:
            return get(key, default)
        except Exception:  # noqa: BLE001
            return default

    return read


def register(ctx: Any) -> SpillwayPlugin:
    """Hermes' entry point: registers the hooks, the ``fetch_result`` tool and ``/spillway``."""
    settings = load_settings(_config_reader(ctx), os.environ)

    def argv():
        ensure_store_dir(settings.store_dir)
        return sidecar_argv(settings, os.environ)

    client = SidecarClient(argv, timeout_s=settings.timeout_s, start_timeout_s=settings.start_timeout_s,
                           env=sidecar_env(settings, os.environ))
    plugin = SpillwayPlugin(settings, client)

    # fetch_result's handler may get only task_id, and the terminal hook no session at all:
    # this observer records both links (see plugin.pre_tool_call).
    ctx.register_hook("pre_tool_call", plugin.pre_tool_call)
    # terminal output before Hermes cuts it to tool_output.max_bytes; every other tool after.
    if settings.terminal_hook:
        ctx.register_hook("transform_terminal_output", plugin.transform_terminal_output)
    ctx.register_hook("transform_tool_result", plugin.transform_tool_result)
    ctx.register_hook("on_session_end", plugin.on_session_end)
    ctx.register_tool(
        name=FETCH_TOOL, toolset=TOOLSET, schema=FETCH_RESULT_SCHEMA, handler=plugin.fetch_result,
        description=FETCH_RESULT_SCHEMA["description"], emoji="🗄️",
    )
    if hasattr(ctx, "register_command"):
        ctx.register_command(
            "spillway", plugin.command,
            description="spillway: what was saved per tool (results, trimmed, spilled, chars and tokens, "
                        "fetches), all days or the last DAYS; /spillway sweep cleans up",
            args_hint="[status] [DAYS] | sweep",
        )
    rtk = shutil.which("rtk") if settings.rtk else None
    if rtk:
        # registered after the observer, so the call it rewrites is already recorded
        ctx.register_hook("pre_tool_call", make_rtk_hook(rtk, settings.rtk_timeout_s, plugin.note_rewrite))
    if hasattr(ctx, "on_unload"):
        ctx.on_unload(plugin.shutdown)
    atexit.register(plugin.shutdown)  # idempotent; also covers Hermes versions without on_unload
    return plugin
