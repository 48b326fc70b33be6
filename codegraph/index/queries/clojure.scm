; Clojure (sogaiu/tree-sitter-clojure): everything is a list; languages/clojure.py reads the head
; symbol of each form (ns, defn, def, defprotocol, defrecord, require…) to tell definitions,
; imports and calls apart.

; top-level forms: definitions, the ns declaration, require/use
(source (list_lit) @definition.form)

; calls: every list whose head is a symbol, and #(…) anonymous functions
(list_lit . (sym_lit) @reference.head)
(anon_fn_lit . (sym_lit) @reference.head)
