; Go: the syntax nodes the Go extractor (languages/go.py) turns into symbols and references.
; Whole nodes are captured; the extractor reads their fields.

; definitions
(function_declaration) @definition.function
(method_declaration) @definition.method
(type_spec) @definition.type
(type_alias) @definition.type
(source_file (const_declaration) @definition.constant)
(source_file (var_declaration) @definition.variable)

; imports
(import_spec) @import

; references: calls (also inside go/defer), generic calls that parse as conversions, composite literals
(call_expression) @reference.call
(type_conversion_expression) @reference.call
(composite_literal) @reference.new
; a type named anywhere else (signatures, fields, conversions, declarations): a `references` edge
(type_identifier) @reference.type

; local facts: what a variable holds (x := &T{}, var x T, x := f()), typed parameters of func literals
(short_var_declaration) @local.assign
(var_declaration) @local.assign
(range_clause) @local.range
(func_literal) @local.function
