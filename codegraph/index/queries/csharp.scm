; C# (tree-sitter-c-sharp 0.23.5): the syntax nodes the extractor turns into symbols and references.
; Namespaces (block or file-scoped) are not captured here: the extractor reads them from the tree
; and qualifies every definition with the namespace around it.
(class_declaration name: (identifier)) @definition.class
(record_declaration name: (identifier)) @definition.record
(struct_declaration name: (identifier)) @definition.struct
(interface_declaration name: (identifier)) @definition.interface
(enum_declaration name: (identifier)) @definition.enum
(delegate_declaration name: (identifier)) @definition.delegate
(method_declaration name: (identifier)) @definition.method
(constructor_declaration name: (identifier)) @definition.constructor
(local_function_statement name: (identifier)) @definition.function
(property_declaration name: (identifier)) @definition.property
(field_declaration) @definition.field
(event_field_declaration) @definition.field
(enum_member_declaration name: (identifier)) @definition.enum_member
; `using A.B;`, `using static A.B.C;`, `using Alias = A.B.C;`
(using_directive) @import
; Calls and construction.
(invocation_expression function: (_)) @reference.call
(object_creation_expression type: (_)) @reference.new
; Declared types of parameters and locals, for member calls on them.
(parameter type: (_) name: (identifier)) @local.parameter
(local_declaration_statement (variable_declaration)) @local.variable
(using_statement (variable_declaration)) @local.variable
(for_statement (variable_declaration)) @local.variable
(foreach_statement type: (_) left: (identifier)) @local.foreach
(declaration_expression type: (_) name: (identifier)) @local.out
(declaration_pattern type: (_) name: (identifier)) @local.out
