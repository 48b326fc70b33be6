"""SessionStart: prewarm the project's daemon (or start a background index) and tell the agent, in one
line, what state the index is in. Never indexes in the foreground; never blocks the agent's start."""

from __future__ import annotations

import os
from pathlib import Path

from codegraph_hooks.index_info import IndexState, find_root, index_state

STALE_AFTER = 600.0  # issue 6: re-index at session start when older than 10 minutes and changed
# A stale index is brought up to date with `sync` (changed files only; tested equal to a full index),
# a missing one is built with `index`; both --background: detached, joining a run already going.


class Decision:
    """``response`` is the JSON to print (None: print nothing); ``spawn`` the codegraph arguments to start
    detached (None: nothing); ``cwd`` where to start them."""

    __slots__ = ("response", "spawn", "cwd")

    def __init__(self, response: dict | None, spawn: list[str] | None = None, cwd: Path | None = None):
        self.response, self.spawn, self.cwd = response, spawn, cwd

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Decision) and (self.response, self.spawn, self.cwd) == (
            other.response,
            other.spawn,
            other.cwd,
        )

    def __repr__(self) -> str:
        return f"Decision({self.response!r}, {self.spawn!r}, {self.cwd!r})"


def _ago(seconds: float) -> str:
    if seconds < 90:
        return "just now"
    if seconds < 5400:
        return f"{round(seconds / 60)} min ago"
    if seconds < 172800:
        return f"{round(seconds / 3600)} h ago"
    return f"{round(seconds / 86400)} days ago"


def _say(line: str) -> dict:
    return {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": line}}


def may_auto_index(cwd: Path, home: Path) -> bool:
    """Only a project directory gets a first index unasked: a git work tree root that is not the home
    directory or the filesystem root (user-scope hooks fire in every folder an agent opens)."""
    if os.environ.get("CODEGRAPH_HOOK_NO_AUTO_INDEX") == "1":
        return False
    if cwd == home or cwd == Path(cwd.anchor) or cwd in home.parents:
        return False
    return (cwd / ".git").exists()


def decide(payload: dict, state: IndexState | None, *, home: Path | None = None) -> Decision:
    """Pure: the response and the detached command for a session in ``payload["cwd"]`` whose index is
    ``state`` (None: no index at or above it)."""
    cwd = Path(payload.get("cwd") or os.getcwd())
    home = home or Path.home()
    if state is None:
        if not may_auto_index(cwd, home):
            return Decision(None)
        return Decision(
            _say(
                "codegraph: no index for this project yet; building one in the background "
                "(codegraph tools answer once it is ready)."
            ),
            ["index", "--background", str(cwd)],
            cwd,
        )
    root = state.root
    if state.indexing:
        done = f" ({state.progress} files parsed)" if state.progress else ""
        return Decision(
            _say(
                f"codegraph: the index is being updated in the background{done}; "
                f"{_files(state.files)} indexed so far."
            )
        )
    if state.files == 0:
        return Decision(
            _say("codegraph: the index is empty or still being built; indexing in the background."),
            ["index", "--background", str(root)],
            root,
        )
    changed = len(state.changed)
    more = "+" if changed >= 20 else ""
    if changed and state.age > STALE_AFTER:
        return Decision(
            _say(
                f"codegraph: index of {_files(state.files)} is out of date ({changed}{more} changed since "
                f"{_ago(state.age)}); syncing in the background."
            ),
            ["sync", "--background", str(root)],
            root,
        )
    detail = f", {changed}{more} changed since (being synced)" if changed else ", fresh"
    return Decision(
        _say(
            f"codegraph: index of {_files(state.files)}, updated {_ago(state.age)}{detail}. "
            "Use codegraph_explore for where code is defined, what calls it and what a change affects."
        ),
        ["daemon", "start", "--path", str(root)],
        root,
    )


def run(payload: dict) -> dict | None:
    """Inspect, decide, spawn; returns the response to print."""
    from codegraph_hooks.spawn import spawn_detached

    cwd = payload.get("cwd") or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    payload = {**payload, "cwd": cwd}
    root = find_root(cwd)
    state = index_state(root) if root else None
    decision = decide(payload, state)
    if decision.spawn:
        try:
            spawn_detached(decision.spawn, decision.cwd or Path(cwd))
        except OSError:
            pass  # fail open: the line still helps, the server starts its own daemon later
    return decision.response


def _files(n: int) -> str:
    """``1 file``, ``2 files`` (stdlib-only here: codegraph.paths.plural is not imported by a hook)."""
    return f"{n} file" if n == 1 else f"{n} files"
