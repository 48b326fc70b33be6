"""What a JavaScript/TypeScript project's manifests say about its bare imports (issue 11).

``tsconfig.json`` / ``jsconfig.json``: ``compilerOptions.paths`` (``"@app/*": ["src/app/*"]``) and
``baseUrl``, through ``extends`` chains; each config applies to the files under its directory (the
nearest one up from a file, as an editor picks it in a monorepo). ``package.json`` ``workspaces``:
a bare import of a workspace package (``@scope/pkg``, ``@scope/pkg/sub``) is that package's source,
found through its ``exports`` / ``source`` / ``module`` / ``main`` / ``types`` (an entry under
``dist/`` or ``lib/`` is looked for under ``src/`` too, since built output is not indexed), else its
``src/index.*`` or ``index.*``.

The files are JSON with comments and trailing commas (tsconfig's dialect): parsed with ``json5``.
A manifest that cannot be read or parsed is left out and reported (``status`` lists it); the
imports it would have mapped stay unresolved rather than guessed.
"""

from __future__ import annotations

import fnmatch
import posixpath
from dataclasses import dataclass, field

from codegraph.index.languages.base import parsed_manifests

STATE = "ecmascript:manifests"
CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")  # in one directory, tsconfig.json wins
MAX_EXTENDS = 16
# folders of built output whose sources usually sit under src/ (an entry ``dist/index.js``)
BUILD_DIRS = ("dist/", "lib/", "build/", "esm/", "cjs/", "out/")
# which ``exports`` condition names a source file first (TypeScript reads "types")
CONDITIONS = ("source", "types", "import", "module", "default", "require", "node", "browser")
ENTRY_FIELDS = ("source", "module", "main", "types", "typings")


@dataclass
class PathsConfig:
    """One config's effective module mapping: project-relative directories and patterns."""

    base_url: str | None = None  # a directory, "" for the root
    paths: list[tuple[str, list[str]]] = field(default_factory=list)  # pattern → project-relative targets


@dataclass
class Package:
    name: str
    directory: str  # project-relative, "" for the root
    manifest: dict


@dataclass
class JsProject:
    configs: dict[str, PathsConfig] = field(default_factory=dict)  # directory → its config
    packages: dict[str, Package] = field(default_factory=dict)  # workspace package name → package
    problems: dict[str, str] = field(default_factory=dict)
    _nearest: dict[str, PathsConfig | None] = field(default_factory=dict)

    def config_for(self, path: str) -> PathsConfig | None:
        """The config of the nearest directory at or above ``path``'s that has one."""
        directory = posixpath.dirname(path)
        seen = []
        found: PathsConfig | None = None
        while True:
            if directory in self._nearest:
                found = self._nearest[directory]
                break
            seen.append(directory)
            if directory in self.configs:
                found = self.configs[directory]
                break
            if not directory:
                break
            directory = posixpath.dirname(directory)
        for d in seen:
            self._nearest[d] = found
        return found


def load(manifests: dict[str, str | None]) -> JsProject:
    """The mappings the manifests state (``manifests``: path → text, None when unreadable)."""
    import json5

    out = JsProject()
    parsed: dict[str, dict] = {}
    # json5 raises ValueError, and RecursionError (it recurses per bracket)
    for path, data in parsed_manifests(manifests, lambda _, text: json5.loads(text), out.problems):
        if not isinstance(data, dict):
            out.problems[path] = "not parseable: the top level is not an object"
            continue
        parsed[path] = data
    for name in reversed(CONFIG_NAMES):  # tsconfig.json overwrites jsconfig.json of the same folder
        for path in sorted(p for p in parsed if posixpath.basename(p) == name):
            out.configs[posixpath.dirname(path)] = _effective(path, parsed)
    _workspaces(parsed, out)
    return out


def _effective(path: str, parsed: dict[str, dict]) -> PathsConfig:
    """``baseUrl`` and ``paths`` of one config after its ``extends`` chain, each made relative to
    the project root from the config that states it (as TypeScript does)."""
    chain: list[str] = []
    current: str | None = path
    while current is not None and current not in chain and len(chain) < MAX_EXTENDS:
        chain.append(current)
        extends = parsed[current].get("extends")
        parents = [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []
        current = None
        for spec in parents[-1:]:  # with several, the last one's options win; enough for paths
            if not isinstance(spec, str) or not spec.startswith("."):
                continue  # a package's config (``@tsconfig/node16``) lives outside the project
            target = posixpath.normpath(posixpath.join(posixpath.dirname(chain[-1]), spec))
            candidates = (target, target + ".json", target + "/tsconfig.json")
            current = next((c for c in candidates if c in parsed), None)
    base_url: str | None = None
    paths: dict | None = None
    paths_base = ""
    for step in reversed(chain):  # the base first, each child overriding
        options = parsed[step].get("compilerOptions")
        if not isinstance(options, dict):
            continue
        here = posixpath.dirname(step)
        if isinstance(options.get("baseUrl"), str):
            base_url = _join(here, options["baseUrl"])
        if isinstance(options.get("paths"), dict):
            paths, paths_base = options["paths"], here
    config = PathsConfig(base_url=base_url)
    root = base_url if base_url is not None else paths_base
    for pattern, targets in (paths or {}).items():
        if isinstance(pattern, str) and isinstance(targets, list):
            config.paths.append((pattern, [_join(root, t) for t in targets if isinstance(t, str)]))
    # the longest prefix before the wildcard wins (TypeScript's rule)
    config.paths.sort(key=lambda item: -len(item[0].split("*", 1)[0]))
    return config


def _join(directory: str, rel: str) -> str:
    joined = posixpath.normpath(posixpath.join(directory, rel))
    return "" if joined == "." else joined


def _workspaces(parsed: dict[str, dict], out: JsProject) -> None:
    """Packages named by a ``workspaces`` list (npm, yarn: a list or ``{"packages": [...]}``)."""
    packages = {
        posixpath.dirname(p): data for p, data in parsed.items() if posixpath.basename(p) == "package.json"
    }
    for root, data in sorted(packages.items()):
        spaces = data.get("workspaces")
        if isinstance(spaces, dict):
            spaces = spaces.get("packages")
        if not isinstance(spaces, list):
            continue
        patterns = [s for s in spaces if isinstance(s, str) and not s.startswith("!")]
        negated = [s[1:] for s in spaces if isinstance(s, str) and s.startswith("!")]
        for directory, manifest in sorted(packages.items()):
            rel = directory[len(root) + 1 :] if root else directory
            if directory == root or (root and not directory.startswith(root + "/")):
                continue
            if not any(_glob(rel, p) for p in patterns) or any(_glob(rel, p) for p in negated):
                continue
            name = manifest.get("name")
            if isinstance(name, str) and name and name not in out.packages:
                out.packages[name] = Package(name, directory, manifest)


def _glob(path: str, pattern: str) -> bool:
    """A workspace glob over directory segments (``packages/*``, ``apps/**``)."""
    parts = [p for p in pattern.strip("/").split("/") if p not in ("", ".")]
    segments = path.split("/")

    def match(i: int, j: int) -> bool:
        if i == len(parts):
            return j == len(segments)
        if parts[i] == "**":
            return any(match(i + 1, k) for k in range(j, len(segments) + 1))
        return j < len(segments) and fnmatch.fnmatchcase(segments[j], parts[i]) and match(i + 1, j + 1)

    return match(0, 0)


def mapped(project: JsProject, from_path: str, spec: str) -> list[str]:
    """Candidate module paths (project-relative, without probing extensions) a bare ``spec`` of
    ``from_path`` names through the file's config (``paths``, then ``baseUrl``), in order."""
    config = project.config_for(from_path)
    if config is None:
        return []
    out: list[str] = []
    for pattern, targets in config.paths:
        if "*" in pattern:
            head, _, tail = pattern.partition("*")
            if spec.startswith(head) and spec.endswith(tail) and len(spec) >= len(head) + len(tail):
                star = spec[len(head) : len(spec) - len(tail)]
                out.extend(t.replace("*", star, 1) for t in targets)
                break
        elif pattern == spec:
            out.extend(targets)
            break
    if config.base_url is not None:
        out.append(_join(config.base_url, spec))
    return out


def package_entries(project: JsProject, spec: str) -> list[str]:
    """Candidate files (project-relative) a bare import of a workspace package names, best first."""
    parts = spec.split("/")
    name_len = 2 if spec.startswith("@") else 1
    package = project.packages.get("/".join(parts[:name_len]))
    if package is None:
        return []
    sub = "/".join(parts[name_len:])
    manifest = package.manifest
    found: list[str] = []
    exports = manifest.get("exports")
    if isinstance(exports, (str, list)) or (
        isinstance(exports, dict) and not any(str(k).startswith(".") for k in exports)
    ):
        exports = {".": exports}
    if isinstance(exports, dict):
        key = "./" + sub if sub else "."
        target = exports.get(key)
        if target is None:
            for pattern, value in exports.items():
                head, star, tail = str(pattern).partition("*")
                if star and key.startswith(head) and key.endswith(tail) and len(key) >= len(head) + len(tail):
                    match = key[len(head) : len(key) - len(tail)]
                    target = _substitute(value, match)
                    break
        found.extend(_condition_targets(target))
    if not sub:
        found.extend(manifest[f] for f in ENTRY_FIELDS if isinstance(manifest.get(f), str))
        found.extend(["src/index", "index"])
    else:
        found.extend([f"src/{sub}", sub])
    out: list[str] = []
    for rel in found:
        path = _join(package.directory, rel)
        out.append(path)
        inside = path[len(package.directory) + 1 :] if package.directory else path
        for build in BUILD_DIRS:  # dist/index.js: the source is src/index.ts
            if inside.startswith(build):
                out.append(_join(package.directory, "src/" + inside[len(build) :]))
    return list(dict.fromkeys(out))


def _substitute(value, match: str):
    if isinstance(value, str):
        return value.replace("*", match)
    if isinstance(value, dict):
        return {k: _substitute(v, match) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, match) for v in value]
    return value


def _condition_targets(target) -> list[str]:
    """The paths an ``exports`` value names, in the order of ``CONDITIONS`` (then any other)."""
    if isinstance(target, str):
        return [target]
    if isinstance(target, list):
        return [t for item in target for t in _condition_targets(item)]
    if isinstance(target, dict):
        keys = [k for k in CONDITIONS if k in target] + [k for k in target if k not in CONDITIONS]
        return [t for k in keys for t in _condition_targets(target[k])]
    return []
