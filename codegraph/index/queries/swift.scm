; Swift: one class_declaration covers class, struct, enum, extension and actor (its declaration_kind
; says which); an extension's members belong to the extended type.
(class_declaration) @definition.class
(protocol_declaration) @definition.protocol
(function_declaration) @definition.function
(protocol_function_declaration) @definition.function
(init_declaration) @definition.init
(property_declaration) @definition.property
(protocol_property_declaration) @definition.property
(enum_entry) @definition.enum_member
(typealias_declaration) @definition.type_alias
(import_declaration) @import
(call_expression) @reference.call
; names bound inside a function (parameters, loop variables, locals): they hide project functions there
(parameter name: (simple_identifier) @local.bind)
(for_statement item: (pattern bound_identifier: (simple_identifier) @local.bind))
(statements (property_declaration name: (pattern bound_identifier: (simple_identifier) @local.bind)))
