"""Project configuration: ``<root>/codegraph.json`` (the reference CLI's project config file name).

Keys codegraph reads (others are kept for the reference CLI and ignored here):
    ``vocabulary``: {word: [identifier, …]} — extends the built-in word → identifier table that
        ``context`` and ``explore`` use (e.g. {"结算": ["checkout", "settle"]}).
    ``exclude``: [gitignore-style pattern, …] — paths kept out of the index even when tracked.
    ``include``: [gitignore-style pattern, …] — paths indexed even under a default-ignored directory
        name (``build/``, ``vendor/``, ``node_modules/``…) and, outside git, even where a ``.gitignore``
        rule ignores them; ``exclude`` wins over it.
    ``extensions``: {".inc": "php", …} — file extensions mapped to a registered language's label,
        over the built-in map (issue 13). The shape is checked here; the labels by the language
        registry (``codegraph.index.languages.overrides``), which this layer does not import.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from codegraph.errors import ConfigUnparsable
from codegraph.paths import read_regular

CONFIG_NAME = "codegraph.json"


@dataclass(frozen=True)
class ProjectConfig:
    vocabulary: dict[str, list[str]] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    include: tuple[str, ...] = ()
    extensions: dict[str, str] = field(default_factory=dict)  # ".inc" → "php" (keys lower case)


def load_config(root: Path) -> ProjectConfig:
    """Read and validate ``codegraph.json`` (absent → defaults).

    Raises:
        ConfigUnparsable: not JSON, not an object, or a key of the wrong shape (message names the
        file and, for syntax errors, the line).
    """
    path = root / CONFIG_NAME
    try:  # a regular file only, opened without blocking: a FIFO named codegraph.json hung init
        text = read_regular(path).decode("utf-8")
    except FileNotFoundError:
        return ProjectConfig()
    except UnicodeDecodeError as exc:
        raise ConfigUnparsable(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except OSError as exc:
        raise ConfigUnparsable(f"{path}: cannot be read ({exc.strerror or 'not a regular file'})") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigUnparsable(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise ConfigUnparsable(f"{path}: the top level must be a JSON object")
    vocab = data.get("vocabulary", {})
    if not isinstance(vocab, dict) or not all(
        isinstance(k, str) and isinstance(v, list) and all(isinstance(x, str) for x in v)
        for k, v in vocab.items()
    ):
        raise ConfigUnparsable(f"{path}: 'vocabulary' must map words to lists of identifiers")
    patterns = {key: _patterns(path, data, key) for key in ("exclude", "include")}
    return ProjectConfig(
        vocabulary=vocab,
        exclude=patterns["exclude"],
        include=patterns["include"],
        extensions=_extensions(path, data),
    )


def _extensions(path: Path, data: dict) -> dict[str, str]:
    value = data.get("extensions", {})
    if not isinstance(value, dict):
        raise ConfigUnparsable(f"{path}: 'extensions' must map file extensions to language labels")
    out = {}
    for ext, label in value.items():
        if not (ext.startswith(".") and len(ext) > 1 and "/" not in ext and not ext.endswith(".")):
            raise ConfigUnparsable(f"{path}: 'extensions' key {ext!r} is no file extension (write '.inc')")
        if not isinstance(label, str) or not label:
            raise ConfigUnparsable(
                f"{path}: 'extensions' maps {ext!r} to {json.dumps(label)}: the value must be a language label"
            )
        out[ext.lower()] = label
    return out


def _patterns(path: Path, data: dict, key: str) -> tuple[str, ...]:
    import pathspec

    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise ConfigUnparsable(f"{path}: '{key}' must be a list of gitignore-style patterns")
    for pattern in value:
        try:
            pathspec.GitIgnoreSpec.from_lines([pattern])
        except Exception as exc:
            raise ConfigUnparsable(f"{path}: bad '{key}' pattern {pattern!r}: {exc}") from exc
    return tuple(value)
