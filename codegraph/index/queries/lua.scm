; Lua and Luau (tree-sitter-grammars; Luau adds luau.scm): the nodes languages/lua.py turns into symbols and references.
; Whole statements are captured; the extractor reads their children.

; definitions: `function f()`, `local function f()`, `function M.f()`, `function M:m()`
(function_declaration) @definition.function
; `local M = {}`, `M.f = function() end`, `local x = require("a.b")`, `self.x = T.new()`
(assignment_statement) @assign
; `local x` without a value: a local name
(variable_declaration (variable_list) @local.names)

; references: every call, `f(x)`, `a.b.f(x)`, `a:m(x)`, `f "s"`, `f { }`
(function_call) @reference.call

; the module a file gives back: `return M`, `return setmetatable(M, mt)`, `return { f = f }`
(chunk (return_statement) @return)

; loop variables are locals of the function around them
(for_numeric_clause name: (identifier) @local.name)
(for_generic_clause (variable_list) @local.names)
