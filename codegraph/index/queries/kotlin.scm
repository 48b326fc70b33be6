; Kotlin (fwcd grammar): the syntax nodes the extractor turns into symbols and references.
; The grammar has almost no field names: the extractor reads each node's children by type
; (the name is the `type_identifier` / `simple_identifier` child; the kind comes from the keyword
; child `class` / `interface` and from `modifiers > class_modifier`: enum, data, sealed, annotation).
(class_declaration) @definition.class
(object_declaration) @definition.object
(companion_object) @definition.object
(function_declaration) @definition.function
(secondary_constructor) @definition.constructor
(property_declaration) @definition.property
(class_parameter) @definition.property
(type_alias) @definition.type_alias
(enum_entry) @definition.constant
; Package and imports (single, `.*`, `as` alias).
(package_header) @package
(import_header) @import
; Supertypes: `: Base(args)` (a superclass call), `: Iface`, `: Iface by impl`.
(delegation_specifier) @reference.inheritance
; Calls: the callee is the first child (simple_identifier or navigation_expression). A call to a
; capitalised name constructs the class: there is no `new`.
(call_expression) @reference.call
(constructor_delegation_call) @reference.call
(callable_reference) @reference.method_ref
; Declared types of parameters and locals (`val foo: Foo = …`, `fun f(foo: Foo)`).
(parameter) @local
(for_statement) @local
(catch_block) @local
(lambda_literal) @lambda
(object_literal) @anonymous
(jump_expression) @return
