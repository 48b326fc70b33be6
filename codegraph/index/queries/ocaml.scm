; OCaml implementations (.ml, tree-sitter-ocaml `ocaml`): the nodes languages/ocaml.py turns into
; symbols and references. A file is a module; `module M = struct … end` nests.

; definitions at the top of a file or of a structure (local `let … in` are not symbols)
(compilation_unit (value_definition) @definition.value)
(structure (value_definition) @definition.value)
(module_definition) @definition.module
(module_type_definition) @definition.module_type
(type_definition) @definition.type
(external) @definition.external
(class_definition) @definition.class

; imports: open M, include M
[(open_module) (include_module)] @import

; references: application f x, M.f x, Constructor x; x |> f; f @@ x; new c
(application_expression) @reference.call
(infix_expression) @reference.infix
(new_expression) @reference.new

; names bound locally: parameters, let … in, match cases
(parameter) @local.patterns
(let_expression (value_definition (let_binding pattern: (_) @local.patterns)))
(match_case pattern: (_) @local.patterns)
