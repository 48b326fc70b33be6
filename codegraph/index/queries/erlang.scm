; Erlang (WhatsApp/tree-sitter-erlang): the forms languages/erlang.py turns into symbols and
; references. Every clause of a function is its own fun_decl; the extractor merges a run of clauses
; of one name and arity into one definition. The module attributes are read in ``begin``.

; definitions: function clauses, records, macros, types, behaviour callbacks
(fun_decl) @definition.function
(record_decl) @definition.record
(pp_define) @definition.macro
[(type_alias) (opaque)] @definition.type
(callback) @definition.callback

; imports: -import(lists, [map/2]), -include("x.hrl"), -include_lib("app/include/x.hrl")
(import_attribute) @import
[(pp_include) (pp_include_lib)] @include

; references: local f(X) and remote m:f(X) calls, fun f/1 and fun m:f/1 values, #rec{} literals
(call) @reference.call
[(internal_fun) (external_fun)] @reference.fun
(record_expr) @reference.record
