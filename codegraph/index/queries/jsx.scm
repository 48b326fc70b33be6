; JSX elements (javascript and tsx grammars; typescript's has none): a component element is an
; instantiates reference, resolved in ecmascript.py.
(jsx_opening_element name: (_) @element)
(jsx_self_closing_element name: (_) @element)
