; Bash (tree-sitter-bash): the nodes languages/bash.py turns into symbols and references.

; definitions: `f() { … }`, `function f { … }`
(function_definition name: (word) @name) @definition.function

; commands: a call of a function, or `source file` / `. file` (an import)
(command name: (command_name) @name) @reference.call
