; PHP: the syntax nodes the extractor turns into symbols and references.
; Definitions
(namespace_definition name: (namespace_name)) @definition.namespace
(class_declaration name: (name)) @definition.class
(interface_declaration name: (name)) @definition.interface
(trait_declaration name: (name)) @definition.trait
(enum_declaration name: (name)) @definition.enum
(function_definition name: (name)) @definition.function
(method_declaration name: (name)) @definition.method
(property_declaration) @definition.property
(const_declaration) @definition.constant
(enum_case name: (name)) @definition.enum_member
; Imports
(namespace_use_declaration) @import
(require_expression) @import.include
(require_once_expression) @import.include
(include_expression) @import.include
(include_once_expression) @import.include
; Inheritance (extends, implements, trait use) is read from each type's own node
; Calls and construction
(function_call_expression) @reference.call
(member_call_expression) @reference.call
(nullsafe_member_call_expression) @reference.call
(scoped_call_expression) @reference.call
(object_creation_expression) @reference.new
; Types of variables and properties ($x = new Foo, $this->x = $typedParam, catch (Foo $e)) and returns
(assignment_expression) @assign
(catch_clause) @catch
(if_statement) @narrow
(else_if_clause) @narrow
(return_statement) @return
