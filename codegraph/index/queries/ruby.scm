; Ruby: the syntax nodes the extractor turns into symbols and references.
; Definitions
(module name: (_)) @definition.module
(class name: (_)) @definition.class
(singleton_class) @definition.singleton_class
(method name: (_)) @definition.method
(singleton_method name: (_)) @definition.singleton_method
(assignment left: (constant)) @definition.constant
; Calls (a bare identifier is a call when it is not a local variable: the extractor's own walk finds
; those, reference.identifier). Loads (require, require_relative, load, autoload → import) and mixins
; (include, extend, prepend → reference.mixin) are the calls of those names: the extractor picks them
; from these captures (a #match? predicate cost as much as the rest of the query)
(call) @reference.call
; Method aliases: `alias new old` (alias_method is a call, read with the calls)
(alias) @reference.alias
(super) @reference.super
; Types of locals and instance variables, and what methods return
(assignment) @assign
(operator_assignment) @assign
(return) @return
