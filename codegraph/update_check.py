"""The update notice (issue 14): after codegraph has been used, at most once every 6 hours, a detached
background process asks the package index (``PIP_INDEX_URL``, else pip's config files, else PyPI) for the
newest codegraph release; when it is newer than this one, the next answer (a CLI command's output or an
MCP tool result) gets one line, once per version. Never blocking, silent on any failure;
``CODEGRAPH_NO_UPDATE_CHECK=1`` turns it off.

State: ``<user state dir>/update-check.json`` (platformdirs; ``$XDG_STATE_HOME/codegraph`` on Linux):
``{"checked": unix time of the last check started, "latest": "X.Y.Z" or null, "notified": [versions]}``.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from codegraph import __version__

INTERVAL_SECONDS = 6 * 3600
TIMEOUT_SECONDS = 5.0
DEFAULT_INDEX = "https://pypi.org/simple"
PACKAGE = "codegraph"
_RELEASE = re.compile(r"^(\d+(?:\.\d+)*)$")  # final releases only: no a/b/rc/dev/post


def disabled(env: dict[str, str] | None = None) -> bool:
    value = (env if env is not None else os.environ).get("CODEGRAPH_NO_UPDATE_CHECK", "")
    return value.strip().lower() not in ("", "0", "false", "no")


def state_file() -> Path:
    from platformdirs import user_state_dir

    return Path(user_state_dir("codegraph")) / "update-check.json"


def _load(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


def _key(version: str) -> tuple[int, ...] | None:
    m = _RELEASE.match(version.strip())
    return tuple(int(p) for p in m.group(1).split(".")) if m else None


def newer(candidate: str, current: str = __version__) -> bool:
    a, b = _key(candidate), _key(current)
    return a is not None and b is not None and a > b


def notice(now: float | None = None) -> str | None:
    """The line to append to this answer, or None; also starts the background check when one is due.
    Never raises, never waits on the network."""
    if disabled():
        return None
    try:
        now = time.time() if now is None else now
        path = state_file()
        data = _load(path)
        line = None
        latest = data.get("latest")
        notified = data["notified"] if isinstance(data.get("notified"), list) else []
        if isinstance(latest, str) and newer(latest) and latest not in notified:
            line = f"codegraph {latest} is available: pipx upgrade codegraph"
            data["notified"] = [*notified, latest]
        checked = data.get("checked")
        due = not isinstance(checked, (int, float)) or not 0 <= now - checked < INTERVAL_SECONDS
        if due:
            data["checked"] = now  # claimed before the spawn: one check per interval, not one per call
        if line or due:
            _save(path, data)
        if due:
            _spawn_check()
        return line
    except Exception:
        return None


def _spawn_check() -> None:
    import subprocess

    subprocess.Popen(
        [sys.executable, "-c", "from codegraph.update_check import run_check; run_check()"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # fully detached (FACTS.md: an attached child can stall the caller)
        close_fds=True,
    )


def index_url(env: Mapping[str, str] | None = None) -> str:
    """The index pip would use: ``PIP_INDEX_URL``, else ``index-url`` from pip's config files (``[global]``
    or ``[install]``; later files win: /etc/xdg/pip, /etc, ~/.pip, ~/.config/pip, the environment's
    prefix, ``PIP_CONFIG_FILE``), else PyPI's simple index."""
    import configparser

    if env is None:
        env = os.environ
    if env.get("PIP_INDEX_URL"):
        return env["PIP_INDEX_URL"]
    home = Path(env.get("HOME") or Path.home())
    xdg = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    files = [
        Path("/etc/xdg/pip/pip.conf"),
        Path("/etc/pip.conf"),
        home / ".pip" / "pip.conf",
        xdg / "pip" / "pip.conf",
        Path(sys.prefix) / "pip.conf",
    ]
    if env.get("PIP_CONFIG_FILE"):
        files.append(Path(env["PIP_CONFIG_FILE"]))
    url = None
    for file in files:
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read(file, encoding="utf-8")
        except (configparser.Error, OSError, UnicodeDecodeError):
            continue
        for section in ("global", "install"):
            if parser.has_option(section, "index-url"):
                url = parser.get(section, "index-url").strip() or url
    return url or DEFAULT_INDEX


def latest_version(url: str, timeout: float = TIMEOUT_SECONDS) -> str | None:
    """The newest final release of codegraph on the simple index at ``url`` (PEP 691 JSON, or the HTML
    page's file names), or None."""
    import urllib.request

    page = url.rstrip("/") + f"/{PACKAGE}/"
    request = urllib.request.Request(
        page,
        headers={
            "Accept": "application/vnd.pypi.simple.v1+json, text/html;q=0.1",
            "User-Agent": f"codegraph/{__version__} update-check",
        },
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        body = response.read(4_000_000).decode("utf-8", "replace")
        kind = response.headers.get("Content-Type", "")
    versions: set[str] = set()
    if "json" in kind:
        data = json.loads(body)
        versions.update(v for v in data.get("versions", []) if isinstance(v, str))
        names = [f.get("filename", "") for f in data.get("files", []) if isinstance(f, dict)]
    else:
        names = re.findall(r">\s*([^<>\s]+)\s*</a>", body)
    for name in names:
        m = re.match(rf"{PACKAGE}-([^-]+?)(?:\.tar\.gz|\.zip|-py\S*\.whl)$", name, re.IGNORECASE)
        if m:
            versions.add(m.group(1))
    finals = {v: key for v in versions if (key := _key(v)) is not None}
    return max(finals, key=finals.__getitem__) if finals else None


def run_check() -> None:
    """The background process: ask the index, record the answer. Silent on any failure."""
    try:
        latest = latest_version(index_url())
    except Exception:
        return
    if latest is None:
        return
    path = state_file()
    data = _load(path)
    data["latest"] = latest
    _save(path, data)
