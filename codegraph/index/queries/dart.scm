; Dart: the syntax nodes the extractor turns into symbols and references.
(class_definition) @definition.class
(mixin_declaration) @definition.mixin
(enum_declaration) @definition.enum
(extension_declaration) @definition.extension
(type_alias) @definition.type_alias
(enum_constant) @definition.enum_member
(program (function_signature) @definition.function)
(program (getter_signature) @definition.function)
(method_signature) @definition.method
(class_body (declaration) @definition.member)
; Top-level variables (`final registry = Registry();`, `const int c = 3;`): the modifiers and the
; declared type are the list's preceding siblings in `program`.
(program (static_final_declaration_list) @definition.top_variables)
(program (initialized_identifier_list) @definition.top_variables)
(extension_body (declaration) @definition.member)
(selector (argument_part)) @reference.call
(cascade_section) @reference.cascade
(new_expression) @reference.new
(const_object_expression) @reference.new
(library_import) @import
(library_export) @import
(part_directive) @import
(part_of_directive) @import.part_of
(local_variable_declaration) @local
(formal_parameter_list) @parameters
(return_statement) @return
