"""Which files hold secrets (never indexed, never served) and which hold config/data (served only as
their keys, values withheld). Pure functions over POSIX relative paths and text; no I/O.

Rules come from issue 3 ("Safety"): ``.env``, key files (``*.pem``, ``id_rsa``…) and credential files
are never indexed or served; yaml, properties, ini/cfg, toml, JSON config and ``.env``-style files are
summarised as keys with values withheld. Gitignored files never reach the index (discovery skips them),
so they are never served either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from posixpath import basename, splitext

# Basename globs (matched case-insensitively) for files whose content is a secret.
SECRET_NAME_GLOBS: tuple[str, ...] = (
    ".env",
    ".env.*",
    "*.env",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "*.kdbx",
    "*.ppk",
    "*.gpg",
    "*.tfstate",
    "*.tfstate.*",
    "*.tfvars",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    "credentials",
    "credentials.json",
    "credentials.yaml",
    "credentials.yml",
    "credentials.toml",
    "credentials.ini",
    "credentials.xml",
    "credentials.csv",
    "*.credentials",
    "*-credentials.json",
    "secrets.json",
    "secrets.yaml",
    "secrets.yml",
    "secrets.toml",
    "secrets.ini",
    "secrets.env",
    "secrets.properties",
    "*.secrets",
    ".netrc",
    "_netrc",
    ".npmrc",
    ".pypirc",
    ".pgpass",
    ".htpasswd",
    ".git-credentials",
    ".dockercfg",
    "service-account*.json",
)


def _glob_tests(globs: tuple[str, ...]) -> tuple[frozenset[str], tuple[str, ...], tuple[str, ...], tuple]:
    """The globs sorted by shape: (names without wildcards, the ``X`` of ``*X``, the ``X`` of ``X*``,
    (longest piece, the literal pieces) of each other glob whose only wildcard is ``*``). A name matches a glob exactly
    when it is one of the names, ends with one of the suffixes, starts with one of the prefixes or
    holds one glob's pieces in order (:func:`_pieces_match`). One regular expression alternating every
    glob cost 23,000 instructions a file (``.*`` tried once per glob): 20 % of a no-change sync's
    discovery of Django (issue 12).

    Raises:
        ValueError: a glob uses ``?`` or ``[...]`` (none does; they would need fnmatch).
    """
    exact, suffixes, prefixes, other = set(), [], [], []
    for glob in globs:
        if any(c in glob for c in "?["):
            raise ValueError(f"secret glob {glob!r}: only * is supported")
        pieces = glob.split("*")
        if len(pieces) == 1:
            exact.add(glob)
        elif len(pieces) == 2 and not pieces[0]:
            suffixes.append(pieces[1])
        elif len(pieces) == 2 and not pieces[1]:
            prefixes.append(pieces[0])
        else:
            other.append((max(pieces, key=len), tuple(pieces)))
    return frozenset(exact), tuple(suffixes), tuple(prefixes), tuple(other)


def _pieces_match(name: str, pieces: tuple[str, ...]) -> bool:
    """Whether ``name`` matches the glob ``"*".join(pieces)``: it starts with the first piece, ends
    with the last, and holds the middle ones in order between them without overlap."""
    first, last = pieces[0], pieces[-1]
    if len(name) < len(first) + len(last) or not name.startswith(first) or not name.endswith(last):
        return False
    at, stop = len(first), len(name) - len(last)
    for piece in pieces[1:-1]:
        found = name.find(piece, at, stop)
        if found == -1:
            return False
        at = found + len(piece)
    return True


_SECRET_EXACT, _SECRET_SUFFIXES, _SECRET_PREFIXES, _SECRET_OTHER = _glob_tests(SECRET_NAME_GLOBS)

# ``.env`` variants that are documentation of the variables, not the values: summarised like config.
ENV_TEMPLATE_SUFFIXES: tuple[str, ...] = (".example", ".sample", ".template", ".dist", ".defaults")

# Directory names whose files are all secrets wherever they appear (``~/.ssh`` copied into a repo…).
SECRET_DIRS: frozenset[str] = frozenset({".ssh", ".gnupg", ".aws", ".docker"})

CONFIG_EXTENSIONS: dict[str, str] = {
    ".yaml": "yaml",
    ".yml": "yaml",
    ".properties": "properties",
    ".ini": "ini",
    ".cfg": "ini",
    ".conf": "ini",
    ".toml": "toml",
    ".json": "json",
    ".jsonc": "json",
    ".json5": "json",
}

WITHHELD = "<withheld>"
MAX_SUMMARY_LINES = 2000


def _is_env_template(name: str) -> bool:
    return name.startswith(".env") and name.endswith(ENV_TEMPLATE_SUFFIXES)


def is_secret(path: str) -> bool:
    """True when ``path`` (POSIX, relative to the root) names a file codegraph must never index or serve.

    Matches the basename against :data:`SECRET_NAME_GLOBS` case-insensitively, and any path under one of
    :data:`SECRET_DIRS`. ``.env.example``-style templates are config, not secrets (see
    :func:`config_format`). Paths with backslashes are judged by their last ``/`` or ``\\`` segment.
    """
    norm = path.replace("\\", "/").lower().rstrip("/")
    if not norm:
        return False
    head, _, name = norm.rpartition("/")
    # each directory and each file name judged once: discovery asks for every file (0.4 of a
    # 100,000-file sync's 1.4 CPU seconds of discovery went here, issue 12)
    return _secret_dir(head) or _secret_name(name)


def is_secret_dir(directory: str) -> bool:
    """True when every file under ``directory`` (POSIX, relative to the root, ``""`` for the root)
    is secret by its path alone: ``is_secret(directory + "/" + name)`` for any name that is not a
    secret's (see :data:`SECRET_DIRS`)."""
    return _secret_dir(directory.replace("\\", "/").lower())


@lru_cache(maxsize=65536)
def _secret_dir(head: str) -> bool:
    """Is a directory path (lower-case, ``/``-separated, empty parts allowed) under a secret one?"""
    return not SECRET_DIRS.isdisjoint(p for p in head.split("/") if p)


@lru_cache(maxsize=65536)
def _secret_name(name: str) -> bool:
    """Is a lower-case file name a secret's?"""
    if _is_env_template(name):
        return False
    if name in _SECRET_EXACT or name.endswith(_SECRET_SUFFIXES) or name.startswith(_SECRET_PREFIXES):
        return True
    return any(longest in name and _pieces_match(name, pieces) for longest, pieces in _SECRET_OTHER)


def config_format(path: str) -> str | None:
    """The config/data format of ``path`` — ``"yaml"``, ``"properties"``, ``"ini"``, ``"toml"``,
    ``"json"`` or ``"env"`` — or None for any other file (source, docs…).

    Secret files also return None: check :func:`is_secret` first.
    """
    name = basename(path.replace("\\", "/")).lower()
    if _is_env_template(name):
        return "env"
    if is_secret(path):
        return None
    return CONFIG_EXTENSIONS.get(splitext(name)[1])


@dataclass(frozen=True)
class KeyLine:
    """One key found in a config file: ``line`` is 1-based, ``text`` is the line with its value withheld
    (indentation kept, e.g. ``"  password: <withheld>"``)."""

    line: int
    text: str


_YAML_KEY = re.compile(r"^(\s*(?:-\s+)?)((?:\"[^\"]*\"|'[^']*'|[^\s#:'\"][^:#]*?))\s*:(?:\s|$)")
_YAML_ITEM = re.compile(r"^(\s*)-\s")
_PROPS_KEY = re.compile(r"^(\s*(?:export\s+)?)([^\s=:#!;][^=:]*?)\s*([=:])")
_INI_SECTION = re.compile(r"^\s*(\[\[?[^\]]*\]\]?)\s*(?:[#;].*)?$")
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def summarise_config(text: str, fmt: str) -> list[KeyLine]:
    """The keys of a config/data file with every value withheld, one :class:`KeyLine` per key or section.

    Line-based and tolerant (a file that does not parse still yields the keys it can see); comments and
    values never appear. Nested structure shows through kept indentation (yaml, json) or section headers
    (ini, toml). At most :data:`MAX_SUMMARY_LINES` entries.

    Args:
        text: the decoded file, lines split at ``\\n`` (a lone ``\\r`` ends the key search on its line).
        fmt: a value returned by :func:`config_format`.
    """
    out: list[KeyLine] = []
    in_block = False  # yaml block scalar / toml multi-line string: skip its lines
    block_indent = 0
    for number, raw in enumerate(text.split("\n"), start=1):
        if len(out) >= MAX_SUMMARY_LINES:
            break
        # A lone \r stays inside its line (as Read shows it, split_lines) but breaks the line for
        # these formats' parsers: what follows it is not searched for keys (a value could look like one).
        line = raw.rstrip("\r") if fmt == "json" else raw.partition("\r")[0]
        if fmt == "yaml":
            indent = len(line) - len(line.lstrip(" "))
            if in_block:
                if line.strip() == "" or indent > block_indent:
                    continue
                in_block = False
            m = _YAML_KEY.match(line)
            if m:
                rest = line[m.end() :].strip()
                has_value = bool(rest) and not rest.startswith("#")
                out.append(
                    KeyLine(number, f"{m.group(1)}{m.group(2)}:" + (f" {WITHHELD}" if has_value else ""))
                )
                if has_value:
                    # A key with a value on its line has no children: deeper lines continue the value
                    # (block scalar, multi-line plain scalar or flow collection) and are skipped whole.
                    in_block, block_indent = True, len(m.group(1))
            elif item := _YAML_ITEM.match(line):
                out.append(KeyLine(number, f"{item.group(1)}- {WITHHELD}"))
        elif fmt == "json":
            text_line = _json_keys(line)
            if text_line is not None:
                out.append(KeyLine(number, text_line))
        elif fmt in ("ini", "toml"):
            if in_block:
                if '"""' in line or "'''" in line:
                    in_block = False
                continue
            stripped = line.strip()
            if not stripped or stripped[0] in "#;":
                continue
            sec = _INI_SECTION.match(line)
            if sec:
                out.append(KeyLine(number, sec.group(1)))
                continue
            m = _PROPS_KEY.match(line)
            if m and (m.group(3) == "=" or fmt == "ini"):
                out.append(KeyLine(number, f"{m.group(1)}{m.group(2).rstrip()} {m.group(3)} {WITHHELD}"))
                value = line[m.end() :].strip()
                if fmt == "toml" and value[:3] in ('"""', "'''") and value.count(value[:3]) == 1:
                    in_block = True
        else:  # properties, env
            stripped = line.strip()
            if not stripped or stripped[0] in "#!;":
                continue
            m = _PROPS_KEY.match(line)
            if m:
                out.append(KeyLine(number, f"{m.group(1)}{m.group(2).rstrip()}{m.group(3)}{WITHHELD}"))
    return out


def _json_keys(line: str) -> str | None:
    """The keys on one JSON line (strings followed by ``:``) with values withheld, or None.

    Strings are tokenised left to right, so a ``"k": v`` inside a value string is never taken for a
    key. A lone key whose value opens on the next lines (``"a": {``) shows the opener to keep the
    structure; anything else after a key is withheld.
    """
    keys: list[tuple[str, str]] = []
    for m in _JSON_STRING.finditer(line):
        rest = line[m.end() :].lstrip()
        if rest.startswith(":"):
            keys.append((m.group(0), rest[1:].strip()))
    if not keys:
        return None
    indent = line[: len(line) - len(line.lstrip())]
    if len(keys) == 1 and keys[0][1] in ("{", "[", "{,", "[,"):
        return f"{indent}{keys[0][0]}: {keys[0][1][0]}"
    return indent + ", ".join(f"{key}: {WITHHELD}" for key, _ in keys)
