"""The real agent CLIs the tests drive (Claude Code, Codex, Gemini CLI, opencode): one cache, one lookup.

On first use each is ``npm install``-ed into :func:`cache_dir` (about 1.5 GB for all four, reused by later
runs). ``CODEGRAPH_SKIP_REAL_CLIENTS=1`` skips every test that needs one, with that reason; CI leaves it
unset. ``CODEGRAPH_TEST_AGENT_CACHE`` moves the cache.

Binaries are looked up when a test asks for one (the ``agent_cli`` fixture), never at import time: a module
that looked at collection time saw no binary on a fresh machine, although a session fixture of another
module installed it moments later (18 file-view tests skipped with "Claude Code binary not found").

Facts relied on (shared/FACTS.md): npm 11 skips the packages' postinstall, so Claude Code's and opencode's
native binaries are run directly from their platform packages.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

SKIP_ENV = "CODEGRAPH_SKIP_REAL_CLIENTS"
PACKAGES = {
    "claude": "@anthropic-ai/claude-code",
    "codex": "@openai/codex",
    "gemini": "@google/gemini-cli",
    "opencode": "opencode-ai",
}
_LEGACY_CACHE = Path.home() / ".cache" / "codegraph-test-npm"  # the name before issue 9: reused if present


def cache_dir() -> Path:
    """Where the agent CLIs are installed: ``CODEGRAPH_TEST_AGENT_CACHE``, else
    ``~/.cache/codegraph-test-agent-clis`` (an existing ``~/.cache/codegraph-test-npm`` is reused)."""
    override = os.environ.get("CODEGRAPH_TEST_AGENT_CACHE")
    if override:
        return Path(override)
    if (_LEGACY_CACHE / "node_modules").is_dir():
        return _LEGACY_CACHE
    return Path.home() / ".cache" / "codegraph-test-agent-clis"


def find(agent: str, cache: Path | None = None) -> Path | None:
    """The agent's executable in the cache, or None."""
    modules = (cache or cache_dir()) / "node_modules"
    natives = {
        "claude": sorted(modules.glob("@anthropic-ai/claude-code-linux-*/claude"))
        + sorted(modules.glob("@anthropic-ai/claude-code-*/claude")),
        "opencode": sorted(modules.glob("opencode-*/bin/opencode")),
    }
    for native in natives.get(agent, []):
        if os.access(native, os.X_OK):
            return native
    shim = modules / ".bin" / agent
    return shim if shim.exists() else None


def install_npm(cache: Path, package: str, timeout: float = 600) -> str | None:
    """``npm install`` ``package`` into ``cache``; returns None on success, else why it failed."""
    npm = shutil.which("npm")
    if npm is None:
        return "npm is not installed"
    cache.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(cache), package],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return f"npm install {package} timed out"
    if proc.returncode != 0:
        return f"npm install {package} failed: {proc.stderr.strip()[-400:]}"
    return None


@functools.cache
def locate(agent: str) -> Path | str:
    """The agent's executable, installing it on first use; or a string saying why it is unavailable."""
    if os.environ.get(SKIP_ENV, "").strip() not in ("", "0"):
        return f"{SKIP_ENV} is set: not running the real {PACKAGES[agent]} CLI"
    found = find(agent)
    if found is None:
        why = install_npm(cache_dir(), PACKAGES[agent])
        found = find(agent)
        if found is None:
            return f"{PACKAGES[agent]} not available: {why or 'no binary after npm install'}"
    return found


def require(agent: str) -> Path:
    """:func:`locate`, skipping the calling test with the reason when the agent is unavailable."""
    found = locate(agent)
    if isinstance(found, str):
        pytest.skip(found)
    return found
