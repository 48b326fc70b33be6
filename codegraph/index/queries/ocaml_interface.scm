; OCaml interfaces (.mli, tree-sitter-ocaml `ocaml_interface`): declarations only.

(value_specification) @definition.val
(module_definition) @definition.module
(module_type_definition) @definition.module_type
(type_definition) @definition.type
(external) @definition.external
[(open_module) (include_module)] @import
