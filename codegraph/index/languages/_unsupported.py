"""Source files of languages that have no module yet: indexed as skipped, with a reason, so a
project of them never looks like an empty project (issue 9)."""

from __future__ import annotations

# extension -> language name (as a user would say it)
NOT_YET = {
    ".fsi": "F# signature",
    # no module on purpose: the bundled grammar parses neither ``*`` nor classes (README, LANGUAGES.md)
    ".groovy": "Groovy",
    ".vb": "Visual Basic",
    ".f90": "Fortran",
    ".nim": "Nim",
    ".cr": "Crystal",
    ".v": "V",
    ".ps1": "PowerShell",
}
