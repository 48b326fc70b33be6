; Julia: the syntax nodes the extractor (languages/julia.py) turns into symbols and references.
(module_definition) @definition.module
(struct_definition) @definition.struct
(abstract_definition) @definition.abstract
(function_definition) @definition.function
(assignment) @definition.assignment
(macro_definition) @definition.macro
(using_statement) @import
(import_statement) @import
(call_expression) @reference.call
(macrocall_expression) @reference.macro
