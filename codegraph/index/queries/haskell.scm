; Haskell (tree-sitter-haskell): the nodes languages/haskell.py turns into symbols and references.
; Every equation of a function is its own `function` node; the extractor merges a run of them.

; definitions at the top of the module
(declarations (function) @definition.function)
(declarations (bind) @definition.value)
(declarations (signature) @signature)
(declarations (data_type) @definition.data)
(declarations (newtype) @definition.newtype)
(declarations (type_synomym) @definition.type)
(declarations (class) @definition.class)
(declarations (instance) @definition.instance)

; imports
(import) @import

; references: application f x y (the innermost `function` of an apply chain), f $ x
(apply) @reference.call
(infix) @reference.infix

; names bound locally: equation and lambda patterns, do-binds, let and where bindings
(patterns) @local.patterns
(bind pattern: (_) @local.patterns)
(local_binds (function name: (variable) @local.name))
(local_binds (bind name: (variable) @local.name))
