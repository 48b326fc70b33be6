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
    ".erl": "Erlang",
    ".hrl": "Erlang",
    ".ex": "Elixir",
    ".exs": "Elixir",
    ".sh": "Bash",
    ".bash": "Bash",
    ".hs": "Haskell",
    ".ml": "OCaml",
    ".mli": "OCaml",
    ".jl": "Julia",
    ".pl": "Perl",
    ".pm": "Perl",
    ".elm": "Elm",
    ".fsi": "F# signature",
    ".groovy": "Groovy",
    ".cu": "CUDA",
    ".cuh": "CUDA",
    ".vue": "Vue",
    ".svelte": "Svelte",
    ".astro": "Astro",
    ".vb": "Visual Basic",
    ".f90": "Fortran",
    ".nim": "Nim",
    ".cr": "Crystal",
    ".v": "V",
    ".ps1": "PowerShell",
}
