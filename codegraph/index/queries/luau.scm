; Luau's own captures, appended to lua.scm (languages/lua.py: Luau.query_parts).
; Luau type aliases: `type T = …`, `export type T = …`
(type_definition) @definition.type
