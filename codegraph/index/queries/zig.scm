; Zig (maxxnino/tree-sitter-zig: PEG-style node names): the nodes languages/zig.py turns into
; symbols and references. Whole nodes are captured; the extractor reads their children.

; definitions: functions (the body Block is the FnProto's sibling inside the Decl), container-level
; constants and variables (containers, @import bindings and aliases among them), fields, tests
(Decl (FnProto)) @definition.function
(Decl (VarDecl)) @definition.constant
(ContainerField) @definition.field
(TestDecl) @definition.test

; imports that are not a container-level binding (those come with their Decl)
((SuffixExpr (BUILTINIDENTIFIER) @_builtin (FnCallArguments)) @import
 (#eq? @_builtin "@import"))

; references: free calls f(x), member or namespace calls a.b.f(x) (a chain of FieldOrFnCall), and
; struct literals T{ ... } (the InitList follows its type)
(SuffixExpr (FnCallArguments)) @reference.call
(SuffixExpr (FieldOrFnCall (FnCallArguments))) @reference.call
(InitList) @reference.new

; local facts: what a block's variables hold; capture payloads (|x|) are local names
(Statement (VarDecl) @local.assign)
[(Payload) (PtrPayload) (PtrIndexPayload) (PtrListPayload)] @local.payload
