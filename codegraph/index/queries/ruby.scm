; Ruby: the syntax nodes the extractor turns into symbols and references.
; Definitions
(module name: (_) @name) @definition.module
(class name: (_) @name) @definition.class
(singleton_class) @definition.singleton_class
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.singleton_method
(assignment left: (constant)) @definition.constant
; Loads and mixins are calls with a known method name and no receiver
(call method: (identifier) @_load (#match? @_load "^(require|require_relative|load|autoload)$")) @import
(call method: (identifier) @_mixin (#match? @_mixin "^(include|extend|prepend)$")) @reference.mixin
; Calls (a bare identifier is a call when it is not a local variable: the extractor's own walk finds
; those, reference.identifier)
(call) @reference.call
; Method aliases: `alias new old` (alias_method is a call, read with the calls)
(alias) @reference.alias
(super) @reference.super
; Types of locals and instance variables, and what methods return
(assignment) @assign
(operator_assignment) @assign
(return) @return
