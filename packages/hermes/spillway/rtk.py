"""Optional ``pre_tool_call`` hook: let ``rtk rewrite`` turn a terminal command into its
token-lean rtk equivalent before it runs (``find`` -> ``rtk find`` ...). Fails open."""

from __future__ import annotations

import subprocess
from typing import Any, Callable, Dict, Optional

#: Exit codes of ``rtk rewrite`` that carry a rewritten command on stdout (0: rewritten,
#: 3: rewritten, confirmation advised); 1 (no rewrite) and 2 (refused) leave the command as is.
REWRITE_EXIT_CODES = frozenset({0, 3})


#: Told ``(command, rewritten, hook kwargs)`` for each rewrite the hook returns.
OnRewrite = Callable[[str, str, Dict[str, Any]], None]


def make_rtk_hook(rtk_path: str, timeout_s: float, on_rewrite: Optional[OnRewrite] = None) -> Callable[..., Optional[Dict[str, Any]]]:
    """A ``pre_tool_call`` callback for the ``terminal`` tool, using the ``rtk`` at ``rtk_path``.
    ``on_rewrite`` hears of each rewrite (the terminal hook must recognise the new command)."""

    def pre_tool_call(tool_name: str = "", args: Any = None, **kwargs: Any) -> Optional[Dict[str, Any]]:
        if tool_name != "terminal" or not isinstance(args, dict):
            return None
        command = args.get("command")
        if not isinstance(command, str) or not command.strip():
            return None
        try:
            done = subprocess.run(
                [rtk_path, "rewrite", command], capture_output=True, text=True, timeout=timeout_s,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.SubprocessError, ValueError):
            return None  # missing, hung (time-out) or broken rtk: run the command unchanged
        rewritten = done.stdout.strip()
        if done.returncode not in REWRITE_EXIT_CODES or not rewritten or rewritten == command.strip():
            return None
        if on_rewrite is not None:
            try:
                on_rewrite(command, rewritten, kwargs)
            except Exception:  # noqa: BLE001 - bookkeeping never stops the rewrite
                pass
        # Hermes shallow-merges "args" over the tool's arguments before it runs.
        return {"action": "modify", "args": {"command": rewritten}}

    return pre_tool_call
