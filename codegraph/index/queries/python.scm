; Python: the syntax nodes the extractor turns into symbols and references.
(class_definition) @class
(function_definition) @function
(call) @call
(import_statement) @import
(import_from_statement) @import
(assignment) @assign
(return_statement) @return
(parameters) @params
(lambda_parameters) @params
(for_statement left: (_) @target)
(for_in_clause left: (_) @target)
(as_pattern_target) @target
(named_expression name: (identifier) @target)
