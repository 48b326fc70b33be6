; Pascal / Delphi (Isopod/tree-sitter-pascal): the nodes languages/pascal.py turns into symbols and
; references. Whole nodes are captured; the extractor reads their fields.

; definitions: types (classes, records, interfaces, objects), routines declared in a type or a unit's
; interface, routines implemented (TFoo.Bar outside its class), fields, constants
(declType) @definition.type
(declProc) @definition.proc
(defProc) @definition.routine
(declField) @definition.field
(declConst) @definition.constant

; imports: uses clauses
(declUses) @import

; references: calls with arguments, routine statements without them (`Free;`, `A.B;`), inherited
(exprCall) @reference.call
(statement (identifier) @reference.statement)
(statement (exprDot) @reference.statement)
(inherited) @reference.inherited

; local facts: typed variables and parameters
[(declVar) (declArg)] @local.typed
