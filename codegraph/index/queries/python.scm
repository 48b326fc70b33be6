; Python: the syntax nodes the extractor turns into symbols and references.
(class_definition) @class
(function_definition) @function
(call) @call
(import_statement) @import
(import_from_statement) @import
(assignment) @assign
(return_statement) @return
