"""Source files of languages that have no module yet: indexed as skipped, with a reason, so a
project of them never looks like an empty project (issue 9)."""

from __future__ import annotations

# extension -> language name (as a user would say it)
NOT_YET = {
    ".m": "Objective-C",
    ".mm": "Objective-C++",
    ".r": "R",
    ".sol": "Solidity",
    ".pas": "Pascal",
    ".pp": "Pascal",
    ".dpr": "Delphi",
    ".erl": "Erlang",
    ".hrl": "Erlang",
    ".ex": "Elixir",
    ".exs": "Elixir",
    ".nix": "Nix",
    ".tf": "Terraform",
    ".hcl": "HCL",
    ".hs": "Haskell",
    ".ml": "OCaml",
    ".mli": "OCaml",
    ".jl": "Julia",
    ".elm": "Elm",
    ".clj": "Clojure",
    ".cljs": "ClojureScript",
    ".fs": "F#",
    ".fsx": "F#",
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
