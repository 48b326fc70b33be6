; F# (ionide/tree-sitter-fsharp): the nodes languages/fsharp.py turns into symbols and references.
; Whole nodes are captured; the extractor reads their children.

; definitions: nested modules, types (unions, records, classes, interfaces, enums), members,
; module-level let bindings, union cases and record fields
(module_defn) @definition.module
(type_definition) @definition.type
(member_defn) @definition.member
(function_or_value_defn) @definition.let
(union_type_case) @definition.case
(record_field) @definition.field

; imports
(import_decl) @import

; references: applications f x, M.f x, obj.M(x), constructors T(x)
(application_expression) @reference.call

; local facts: typed and plain patterns (parameters, let and match bindings)
(typed_pattern) @local.typed
(identifier_pattern) @local.pattern
(argument_patterns) @local.args
