; Elm (elm-tooling/tree-sitter-elm): the nodes languages/elm.py turns into symbols and references.

; definitions: top-level values and functions, custom types (and their constructors), type
; aliases, ports. Local `let` declarations are not symbols (their names shadow).
(file (value_declaration) @definition.value)
(file (type_declaration) @definition.type)
(file (type_alias_declaration) @definition.alias)
(file (port_annotation) @definition.port)

; imports: import A.B as C exposing (x, T(..))
(import_clause) @import

; references: function application `f x`, `M.f x`, constructor application `Circle 1.0`
(function_call_expr) @reference.call

; names bound by patterns (arguments, let, case branches, lambdas): locals
(lower_pattern) @local.pattern
(let_in_expr (value_declaration (function_declaration_left . (lower_case_identifier) @local.let)))
