; JavaScript / JSX: the syntax nodes the extractor turns into symbols and references.
(class_declaration) @class
(class name: (_)) @class
(function_declaration) @function
(generator_function_declaration) @function
(method_definition) @function
(variable_declarator value: [(arrow_function) (function_expression) (generator_function)]) @function
(field_definition property: (_) value: [(arrow_function) (function_expression)]) @function
(field_definition) @field
(pair key: (_) value: [(arrow_function) (function_expression) (generator_function)]) @function
(call_expression) @call
(new_expression) @new
(import_statement) @import
(export_statement source: (_)) @import
(export_statement) @export
(lexical_declaration) @assign
(variable_declaration) @assign
(arrow_function) @arrow
(return_statement) @return
(arguments (function_expression) @callback)
(formal_parameters) @params
(arrow_function parameter: (identifier) @target)
(for_in_statement left: (_) @target)
(catch_clause parameter: (_) @target)
(assignment_expression) @assign_expr
