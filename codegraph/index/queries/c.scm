; C: the syntax nodes the extractor (languages/cfamily.py) turns into symbols and references.
; A definition inside an ERROR node (macro trouble) is still captured.
(function_definition) @definition.function
(declaration) @declaration
(field_declaration) @definition.field
(struct_specifier) @definition.type
(union_specifier) @definition.type
(enum_specifier) @definition.type
(enumerator) @definition.enum_member
(type_definition) @definition.typedef
(preproc_def) @definition.macro
(preproc_function_def) @definition.macro
(preproc_include) @import
(call_expression) @reference.call
