; Rust: the syntax nodes the extractor turns into symbols and references.
; Methods are function_items inside an impl_item (the impl's type owns them) or a trait_item.
(function_item) @definition.function
(function_signature_item) @definition.function
(struct_item) @definition.struct
(union_item) @definition.union
(enum_item) @definition.enum
(enum_variant) @definition.enum_member
(trait_item) @definition.trait
(type_item) @definition.type_alias
(mod_item) @definition.module
(const_item) @definition.constant
(static_item) @definition.variable
(impl_item) @impl
(use_declaration) @import
(extern_crate_declaration) @import
(call_expression) @reference.call
(struct_expression) @reference.new
(macro_invocation) @reference.macro
(let_declaration) @assign
; names bound inside a function (loop and closure variables): they hide project functions there
(for_expression pattern: (identifier) @local.bind)
(closure_parameters (identifier) @local.bind)
(closure_parameters (parameter pattern: (identifier) @local.bind))
