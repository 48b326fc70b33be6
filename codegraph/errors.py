"""The error tree. Library code raises these; the CLI maps them to a message and an exit code, the MCP
layer turns the recoverable ones into a success-shaped answer that tells the agent what to do."""

from __future__ import annotations

from codegraph.echo import echoed


class CodegraphError(Exception):
    """Base of every error codegraph raises on purpose. ``exit_code`` is what the CLI exits with."""

    exit_code = 1
    recoverable = False


class IndexMissing(CodegraphError):
    """No ``.codegraph/codegraph.db`` at or above the given path."""

    exit_code = 3
    recoverable = True


class IndexUnreadable(CodegraphError):
    """The database exists but is not a codegraph index we can read (corrupt, or a newer schema).
    ``corrupt`` is True when a rebuild may replace it (never for a newer schema)."""

    exit_code = 3

    def __init__(self, message: str, *, corrupt: bool = False):
        self.corrupt = corrupt
        super().__init__(message)


class IndexLost(CodegraphError):
    """The index folder was removed or replaced while a run wrote to it: nothing of the run is saved."""

    exit_code = 3


class IndexBusy(CodegraphError):
    """Another index run still held the project's index lock when waiting for it ran out."""

    exit_code = 75  # EX_TEMPFAIL: try again later


class IndexUnfinished(CodegraphError):
    """The index has never completed: the first run was interrupted, or is still going. A query would
    find nothing and say "no symbol", which is not true of the code."""

    exit_code = 3
    recoverable = True


class IndexInterrupted(CodegraphError):
    """An index run was stopped (Ctrl-C) before it wrote anything: the last complete index stands."""

    exit_code = 130  # 128 + SIGINT, as shells report it


class ProjectDirMissing(CodegraphError):
    """The project directory given to ``init``/``index`` does not exist or is not a directory."""

    exit_code = 2


class ProjectDirUnusable(CodegraphError):
    """``.codegraph`` cannot be created or written (a file in its place, permissions, read-only fs)."""

    exit_code = 7


class SymbolNotFound(CodegraphError):
    """No symbol has the asked name. ``suggestions`` holds close names (may be empty)."""

    exit_code = 4
    recoverable = True

    def __init__(
        self,
        name: str,
        suggestions: list[str] | None = None,
        *,
        in_file: str | None = None,
        defined_in: list[str] | None = None,
    ):
        self.name = name
        self.suggestions = suggestions or []
        self.index_note: str | None = None
        if in_file is not None:  # the name exists, only not in the file asked for
            where = ", ".join(defined_in[:5]) if defined_in else "other files"
            more = f" and {len(defined_in) - 5} more" if defined_in and len(defined_in) > 5 else ""
            super().__init__(
                f"No symbol named '{echoed(name)}' in a file matching '{echoed(in_file)}'; "
                f"it is defined in {where}{more}."
            )
            return
        hint = f" Did you mean: {', '.join(self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"No symbol named '{echoed(name)}' in the index.{hint}")

    def add_index_note(self, note: str | None) -> None:
        """Append why the miss may be the index's (behind disk, or the name in skipped files; see
        ``query.freshness.miss_note``) to the message; ``index_note`` carries it for ``--json``."""
        if note:
            self.index_note = f"{self.index_note} {note}" if self.index_note else note
            self.args = (f"{self.args[0]} {note}",)


class FileNotIndexed(CodegraphError):
    """A file argument matched no indexed file (or several: ``candidates``)."""

    exit_code = 4
    recoverable = True

    def __init__(self, message: str, candidates: list[str] | None = None):
        self.candidates = candidates or []
        super().__init__(message)


class SourceUnavailable(CodegraphError):
    """An indexed file's current source can't be shown: deleted since the last index, unreadable, or
    not text any more. ``reason`` is the short phrase every command uses for it."""

    exit_code = 4
    recoverable = True
    DELETED = "deleted since the last index"
    NOT_TEXT = "not text on disk (binary content)"

    def __init__(self, path: str, reason: str):
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason} (`codegraph sync` updates the index)")


class PathOutsideRoot(CodegraphError):
    """A path argument escapes the project root (``..``, absolute elsewhere, or a symlink out)."""

    exit_code = 5


class RefusedRoot(CodegraphError):
    """Indexing ``/``, ``$HOME`` or one of its parents without ``--force``."""

    exit_code = 2


class ConfigRefused(CodegraphError):
    """A user's config file was left alone (the message says why); nothing was written."""

    exit_code = 6


class ConfigUnparsable(ConfigRefused):
    """A user's config file could not be parsed (not JSON/TOML, not UTF-8); nothing was written."""


class ConfigConflict(ConfigRefused):
    """The config already holds a ``codegraph`` entry that codegraph did not write; install refuses to
    overwrite it unless asked to (``--replace``)."""


class ConfigUnwritable(ConfigRefused):
    """A config file or a folder the installer needs cannot be written: read-only mode, a dangling
    symlink, not a regular file, or a folder that cannot be created. Nothing was written."""


class InputTooLong(CodegraphError):
    """A text or path argument is over its bound."""

    exit_code = 2


class InputEmpty(CodegraphError):
    """A question, task or search query is empty or only whitespace: nothing to match or rank."""

    exit_code = 2


class InputNotText(CodegraphError):
    """An argument used as a name is not valid UTF-8 (the shell passed bytes such as ``x\xff``): names
    in the index are UTF-8 text, so none can match it."""

    exit_code = 2


class GitFailed(CodegraphError):
    """A git command codegraph needs (``affected --since``) failed: not a work tree, an unknown
    revision, or git missing. The message carries git's first line. Recoverable: the MCP answer says
    why, and the agent can pass the files instead."""

    exit_code = 2
    recoverable = True
