; Scala (tree-sitter-scala; Scala 2 and 3 syntax): the syntax nodes the extractor turns into symbols
; and references. Package clauses are read from the tree by the extractor.
(class_definition name: (identifier)) @definition.class
(object_definition name: (identifier)) @definition.object
(trait_definition name: (identifier)) @definition.trait
(enum_definition name: (identifier)) @definition.enum
(simple_enum_case name: (identifier)) @definition.enum_member
(full_enum_case name: (identifier)) @definition.enum_member
(type_definition name: (type_identifier)) @definition.type
(function_definition name: (_)) @definition.function
(function_declaration name: (_)) @definition.function
(val_definition pattern: (identifier)) @definition.value
(var_definition pattern: (identifier)) @definition.value
(val_declaration name: (identifier)) @definition.value
(var_declaration name: (identifier)) @definition.value
(given_definition name: (identifier)) @definition.value
; `import a.b.C`, `import a.b.{C => D, E}`, `import a.b._`
(import_declaration) @import
; Calls: `f(x)`, `a.f(x)`, `f[T](x)`, `a.f { ... }`; a curried `f(x)(y)` wraps the inner call.
(call_expression function: (_)) @reference.call
; `new C(...)`, `new C`, `new a.B`; an anonymous `new T { ... }` is not a construction of T.
(instance_expression) @reference.new
; `a.m` outside a call: a parameterless method call when m is a def, else a field read (the
; resolver decides: only methods are call targets).
(field_expression) @reference.field
; `a op b` with an alphanumeric operator is the call `a.op(b)`.
(infix_expression operator: (identifier)) @reference.infix
; Declared types of parameters, for member calls on them (vals and class parameters are read with
; their definitions).
(parameter name: (identifier) type: (_)) @local.parameter
(class_parameter name: (identifier) type: (_)) @local.class_parameter
; `{ self => ... }`: a name for `this` inside the template.
(template_body (self_type) @alias.self)
; a for-comprehension's generator variable (`for (f <- fs) f()`) hides project methods of that name
(enumerator . (identifier) @local.bind)
