"""Bash: ``.sh`` and ``.bash`` files (a script without an extension is not recognised: the registry
goes by file name).

Functions are ``f() { … }`` and ``function f { … }``. ``source lib.sh`` / ``. "$DIR/lib.sh"`` makes
the sourced file's functions visible (a star import): the path is taken relative to the sourcing
file's directory — a leading ``$(dirname "$0")``, ``${BASH_SOURCE%/*}`` or any ``$VAR/`` prefix is
read as that directory — then from the project root. A command is a call when it names a function
of the file or of a file it sources (transitively); builtins and common commands (``echo``,
``grep``…) never bind, and a command built from an expansion (``$CMD run``) is no reference.
Docs are the ``#`` comment lines right above a function.
"""

from __future__ import annotations

import posixpath
import re

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

SOURCE_COMMANDS = frozenset({"source", "."})
BUILTINS = frozenset(
    """
alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo
enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile
popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true
type typeset ulimit umask unalias unset wait [ [[ . :
awk basename cat chmod chown cp curl cut date dirname diff env find git grep gzip head install ln ls
make mkdir mktemp mv nohup python python3 realpath rm rmdir sed seq sleep sort ssh stat sudo tail tar
tee touch tr uname uniq wc wget which xargs yes
""".split()
)
_DIR_PREFIX = re.compile(r"^(?:\$\([^)]*\)|\$\{[^}]*\}|\$\w+)/")


def _doc(stmt) -> str | None:
    lines = []
    prev, line = stmt.prev_sibling, stmt.start_point[0]
    while prev is not None and prev.type == "comment" and prev.end_point[0] >= line - 1:
        body = text(prev)
        if not body.startswith("#!"):
            lines.append(body.lstrip("#").strip())
        line = prev.start_point[0]
        prev = prev.prev_sibling
    return squash(" ".join(ln for ln in reversed(lines) if ln), MAX_DOCSTRING) or None


def sourced_path(arg) -> str | None:
    """The file a ``source`` argument names, as written relative to the sourcing file (``./`` for
    a directory expansion), or None when it is computed some other way."""
    raw = text(arg)
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
        raw = raw[1:-1]
    raw = raw.replace('"', "")
    m = _DIR_PREFIX.match(raw)
    if m is not None:
        raw = "./" + raw[m.end() :]
    if "$" in raw or "`" in raw or not raw or raw.endswith("/"):
        return None
    return raw


class BashExtractor(Extractor):
    def handle(self, capture: str, ts) -> None:
        if capture == "definition.function":
            self.add_def(ts, "function", ts.child_by_field_name("name"))
        elif capture == "reference.call":
            name = ts.child_by_field_name("name")
            word = name.named_children[0] if name is not None and name.named_children else None
            if word is None or word.type != "word":
                return  # $CMD, "$(…)": computed
            cmd = text(word)
            if cmd in SOURCE_COMMANDS:
                arg = ts.child_by_field_name("argument")
                spec = sourced_path(arg) if arg is not None else None
                if spec is not None:
                    self.bind(ts, "*", spec, "*")
                return
            if re.match(r"^[A-Za-z_][\w:.-]*$", cmd):
                self.ref(ts, "calls", cmd, None)

    def node_details(self, node: Node, d: Def) -> None:
        node.docstring = _doc(d.ts)
        node.signature = "()"
        node.is_exported = True


class Bash(LanguageModule):
    label = "bash"
    grammar = "bash"
    name = "Bash"
    extracts = "functions, source/. of files, commands that call functions, doc comments"
    resolution = (
        "a command → a function of the file or of a file it sources (relative to the file, $(dirname"
        ' "$0")/… included, or the root); builtins and common commands never bind'
    )
    extensions = (".sh", ".bash")
    builtins = BUILTINS
    unique_fallback = False
    line_comment = "#"
    extractor = BashExtractor

    def is_test_file(self, path: str) -> bool:
        name = path.rsplit("/", 1)[-1]
        return name.startswith("test_") or name.rsplit(".", 1)[0].endswith(("_test", "_spec"))

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        if spec.startswith("/"):
            return None
        here = posixpath.normpath(posixpath.join(posixpath.dirname(from_path), spec))
        if here in project.files:
            return here
        root = posixpath.normpath(spec)
        return root if root in project.files else None

    def resolve_ref(self, project, path: str, ref):
        if ref.receiver is None and ref.name in self.builtins:
            return None, ""
        return None


LANGUAGES = (Bash(),)
