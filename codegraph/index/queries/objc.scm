; Objective-C (and Objective-C++, parsed with the same grammar): the C patterns of c.scm, read by
; the C extractor, plus the Objective-C ones (languages/objc.py). Definitions inside ERROR nodes
; (macro trouble) are still captured.
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
(class_interface) @definition.interface
(class_implementation) @definition.implementation
(protocol_declaration) @definition.protocol
(method_declaration) @definition.method_declaration
(method_definition) @definition.method
(property_declaration) @definition.property
(message_expression) @reference.message
(instance_variable) @local.ivar
(for_statement) @local.for_in
