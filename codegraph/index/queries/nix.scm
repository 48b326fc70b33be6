; Nix (nix-community/tree-sitter-nix): the nodes languages/nix.py turns into symbols and references.
; Definitions and imports are read from the tree in the extractor's begin() (a binding's meaning
; depends on where its attribute set sits); the captures below are the references.

; references: applications `f x`, `a.b.f x` (curried applications are one call, at the innermost)
(apply_expression) @reference.call

; local facts: function parameters (`x: …`, `{ a, b ? 1, ... }@args: …`)
(function_expression) @local.params
