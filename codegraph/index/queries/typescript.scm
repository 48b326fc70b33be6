; TypeScript and TSX (TSX adds jsx.scm; the typescript grammar has no JSX): the syntax nodes the extractor turns into symbols and references.
(class_declaration) @class
(abstract_class_declaration) @class
(class name: (_)) @class
(interface_declaration) @class
(enum_declaration) @class
(type_alias_declaration) @class
(internal_module) @class
(function_declaration) @function
(generator_function_declaration) @function
(function_signature) @function
(method_definition) @function
(method_signature) @function
(abstract_method_signature) @function
(variable_declarator value: [(arrow_function) (function_expression) (generator_function)]) @function
(public_field_definition value: [(arrow_function) (function_expression)]) @function
(public_field_definition) @field
(property_signature) @field
(pair key: (_) value: [(arrow_function) (function_expression) (generator_function)]) @function
(call_expression) @call
(new_expression) @new
(import_statement) @import
(export_statement source: (_)) @import
(export_statement) @export
(lexical_declaration) @assign
(variable_declaration) @assign
(type_identifier) @typeref
(arrow_function) @arrow
(return_statement) @return
(arguments (function_expression) @callback)
(formal_parameters) @params
(arrow_function parameter: (identifier) @target)
(for_in_statement left: (_) @target)
(catch_clause parameter: (_) @target)
(assignment_expression) @assign_expr
