; C++: the syntax nodes the extractor (languages/cfamily.py) turns into symbols and references.
; A definition inside an ERROR node (macro trouble) is still captured.
(namespace_definition) @definition.namespace
(class_specifier) @definition.type
(struct_specifier) @definition.type
(union_specifier) @definition.type
(enum_specifier) @definition.type
(enumerator) @definition.enum_member
(function_definition) @definition.function
(declaration) @declaration
(field_declaration) @definition.field
(type_definition) @definition.typedef
(alias_declaration) @definition.typedef
(preproc_def) @definition.macro
(preproc_function_def) @definition.macro
(preproc_include) @import
(using_declaration) @import.using
(call_expression) @reference.call
(new_expression) @reference.new
(for_range_loop) @local.range_for
