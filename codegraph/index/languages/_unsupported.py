"""Source files of languages that have no module yet: indexed as skipped, with a reason, so a
project of them never looks like an empty project (issue 9)."""

from __future__ import annotations

# extension -> language name (as a user would say it)
NOT_YET = {
    ".lua": "Lua",
    ".luau": "Luau",
    ".m": "Objective-C",
    ".mm": "Objective-C++",
    ".r": "R",
    ".sol": "Solidity",
    ".pas": "Pascal",
    ".pp": "Pascal",
    ".dpr": "Delphi",
    ".nix": "Nix",
    ".tf": "Terraform",
    ".hcl": "HCL",
    ".sh": "Bash",
    ".bash": "Bash",
    ".jl": "Julia",
    ".pl": "Perl",
    ".pm": "Perl",
    ".clj": "Clojure",
    ".cljs": "ClojureScript",
    ".fs": "F#",
    ".fsx": "F#",
    # no module on purpose: the bundled grammar parses neither ``*`` nor classes (README, LANGUAGES.md)
    ".groovy": "Groovy",
    ".cu": "CUDA",
    ".cuh": "CUDA",
    ".vb": "Visual Basic",
    ".f90": "Fortran",
    ".nim": "Nim",
    ".cr": "Crystal",
    ".v": "V",
    ".ps1": "PowerShell",
}
