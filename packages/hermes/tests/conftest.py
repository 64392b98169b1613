"""Makes ``packages/hermes`` importable (``import spillway``) and finds a sidecar command that
runs the CLI from source, so the tests need no build."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # packages/hermes -> import spillway
sys.path.insert(0, str(HERE))  # hermes_ctx

REPO = HERE.parents[2]
CLI = REPO / "packages" / "cli"


def dev_sidecar_command() -> str | None:
    """``$SPILLWAY_TEST_SIDECAR``, else the CLI source through tsx, else the built dist."""
    if os.environ.get("SPILLWAY_TEST_SIDECAR"):
        return os.environ["SPILLWAY_TEST_SIDECAR"]
    node = shutil.which("node")
    if node is None:
        return None
    tsx = REPO / "node_modules" / "tsx" / "dist" / "loader.mjs"
    if tsx.exists():
        return shlex.join([node, "--conditions=@spillway/source", "--import", str(tsx), str(CLI / "src" / "bin.ts"), "sidecar"])
    dist = CLI / "dist" / "bin.js"
    return shlex.join([node, str(dist), "sidecar"]) if dist.exists() else None


@pytest.fixture
def sidecar_command() -> str:
    cmd = dev_sidecar_command()
    if cmd is None:
        pytest.fail("node and the spillway CLI (source + tsx, or dist) are needed: install Node 20+ and run pnpm install")
    return cmd


@pytest.fixture
def hermes_env(tmp_path, monkeypatch, sidecar_command):
    """A fresh HERMES_HOME and the sidecar command in SPILLWAY_SIDECAR."""
    home = tmp_path / "hermes"
    home.mkdir()
    monkeypatch.setenv("HERMES_HOME", str(home))
    monkeypatch.setenv("SPILLWAY_SIDECAR", sidecar_command)
    return home


def install_fake_rtk(tmp_path, monkeypatch, script: str) -> Path:
    """Puts an executable `rtk` holding `script` first on PATH; returns its folder."""
    import stat

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    rtk = bin_dir / "rtk"
    rtk.write_text(script)
    rtk.chmod(rtk.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return bin_dir
