"""What ``install`` added to each config file, so ``uninstall`` removes exactly that and nothing the user
had before (an adversarial test found uninstall deleting a user's own ``{}`` file and their own
``mcp__codegraph__*`` rule).

One small JSON file, ``<state dir>/codegraph/installs.json``, maps each config path to a ``Record``.
Our MCP entries and hooks are also recognised by content; the record is what content cannot tell:
whether the file, a container (``mcpServers``, ``permissions.allow``…) or a plain array item (the allow
rule) existed before install. Without a record (state lost, or a config edited by hand) uninstall stays
on the safe side: it removes our entries and hooks by content, and keeps files, containers and rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

Key = tuple[str, ...]
VERSION = 1


@dataclass(frozen=True)
class Record:
    """``created``: the file did not exist before install. ``keys``: object members install created
    (paths of keys, e.g. ``("mcpServers",)``). ``items``: array items install appended, as (array path,
    item). ``replaced``: (path, previous value) of entries ``--replace`` overwrote, put back by
    uninstall."""

    created: bool = False
    keys: tuple[Key, ...] = ()
    items: tuple[tuple[Key, Any], ...] = ()
    replaced: tuple[tuple[Key, Any], ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.keys or self.items or self.replaced)

    def merge(self, other: Record) -> Record:
        """This record plus what ``other`` adds (a re-install adds nothing it already holds)."""
        replaced = dict(self.replaced)
        for key, value in other.replaced:
            replaced.setdefault(key, value)  # the first overwritten value is the user's
        return Record(
            created=self.created or other.created,
            keys=_union(self.keys, other.keys),
            items=_union(self.items, other.items),
            replaced=tuple(replaced.items()),
        )

    def keep(self, keys=None, items=None, replaced=None) -> Record:
        """A copy holding only the given entries (those not given stay)."""
        return replace(
            self,
            keys=self.keys if keys is None else tuple(keys),
            items=self.items if items is None else tuple(items),
            replaced=self.replaced if replaced is None else tuple(replaced),
        )

    def prunable(self, container: Key, limit: int) -> int:
        """How many containers, ``container`` and then its parents (at most ``limit``), install created:
        the number uninstall may remove once they are left empty."""
        count = 0
        while count < limit and len(container) > count and container[: len(container) - count] in self.keys:
            count += 1
        return count

    def to_json(self) -> dict:
        return {
            "created": self.created,
            "keys": [list(k) for k in self.keys],
            "items": [[list(k), v] for k, v in self.items],
            "replaced": [[list(k), v] for k, v in self.replaced],
        }

    @classmethod
    def from_json(cls, data: Any) -> Record:
        if not isinstance(data, dict):
            return cls()
        try:
            return cls(
                created=data.get("created") is True,
                keys=tuple(tuple(k) for k in data.get("keys") or ()),
                items=tuple((tuple(k), v) for k, v in data.get("items") or ()),
                replaced=tuple((tuple(k), v) for k, v in data.get("replaced") or ()),
            )
        except (TypeError, ValueError):
            return cls()


def _union(first: tuple, second: tuple) -> tuple:
    out = list(first)
    for entry in second:
        if entry not in out:
            out.append(entry)
    return tuple(out)


def key_of(path: Path) -> str:
    """The record key of a config path: absolute, symlinks not resolved (the path agents read)."""
    return str(Path(path).absolute())


def load(state_file: Path) -> dict[str, Record]:
    """Every record, by ``key_of`` path. A missing or unreadable state file is no records (uninstall then
    keeps what it cannot prove install added)."""
    try:
        data = json.loads(state_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    return {path: Record.from_json(value) for path, value in files.items()}


def dumps(records: dict[str, Record]) -> str:
    files = {path: record.to_json() for path, record in sorted(records.items())}
    return json.dumps({"version": VERSION, "files": files}, indent=2, default=str) + "\n"
