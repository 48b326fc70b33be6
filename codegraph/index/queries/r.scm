; R: the syntax nodes the extractor (languages/r.py) turns into symbols and references.
; Definitions are assignments (``f <- function(…)``, ``Dog <- R6Class(…)``); imports, S4 classes
; and generics are calls (``source``, ``library``, ``setClass``, ``setGeneric``).
(binary_operator) @definition.assignment
(call) @reference.call
(parameter) @local.parameter
(for_statement) @local.for
