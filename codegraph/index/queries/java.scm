; Java: the syntax nodes the extractor turns into symbols and references.
; Definitions (names come from the `name` field; the extractor reads kinds and modifiers).
(class_declaration) @definition.class
(record_declaration) @definition.class
(interface_declaration) @definition.interface
(annotation_type_declaration) @definition.interface
(enum_declaration) @definition.enum
(method_declaration) @definition.method
(annotation_type_element_declaration) @definition.method
(constructor_declaration) @definition.constructor
(compact_constructor_declaration) @definition.constructor
(field_declaration) @definition.field
(constant_declaration) @definition.field
(enum_constant) @definition.constant
; Package and imports (single, wildcard `.*`, static).
(package_declaration) @package
(import_declaration) @import
; Inheritance: `extends` of a class, `implements`, and an interface's `extends`.
(superclass) @reference.inheritance
(super_interfaces) @reference.inheritance
(extends_interfaces) @reference.inheritance
; Calls and construction.
(method_invocation) @reference.call
(explicit_constructor_invocation) @reference.call
(object_creation_expression) @reference.new
(method_reference) @reference.method_ref
; Declared types of locals, parameters and resources (`Foo foo = …`, `(Foo foo)`, `for (Foo f : xs)`).
(local_variable_declaration) @local
(formal_parameter) @local
(spread_parameter) @local
(catch_formal_parameter) @local
(enhanced_for_statement) @local
(resource) @local
(instanceof_expression) @local
; Anonymous class bodies: members inside belong to no named class.
(object_creation_expression (class_body) @anonymous)
(lambda_expression) @lambda
(return_statement) @return
