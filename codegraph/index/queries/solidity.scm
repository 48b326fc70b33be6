; Solidity (JoranHonig/tree-sitter-solidity): the nodes languages/solidity.py turns into symbols and
; references. Whole nodes are captured; the extractor reads their fields.

; definitions
(contract_declaration) @definition.class
(interface_declaration) @definition.interface
(library_declaration) @definition.module
(struct_declaration) @definition.struct
(enum_declaration) @definition.enum
(enum_value) @definition.enum_member
(struct_member) @definition.field
(user_defined_type_definition) @definition.type_alias
[(function_definition) (modifier_definition) (event_definition) (error_declaration)
 (constructor_definition) (fallback_receive_definition)] @definition.function
[(state_variable_declaration) (constant_variable_declaration)] @definition.variable

; imports and library attachment
(import_directive) @import
(using_directive) @using

; references: calls (f(x), a.b(x), new T(x)), emitted events, reverted errors, modifiers and base
; constructors in a header, user-defined types in declarations
(call_expression) @reference.call
(emit_statement) @reference.emit
(revert_statement) @reference.revert
(modifier_invocation) @reference.modifier
(user_defined_type) @reference.type

; local facts: parameters and variables with their declared types
[(parameter) (variable_declaration)] @local.typed
