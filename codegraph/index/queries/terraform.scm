; Terraform / HCL (tree-sitter-grammars/tree-sitter-hcl, terraform dialect): the nodes
; languages/terraform.py turns into symbols and references. HCL has only generic blocks and
; attributes; the extractor reads a block's type and labels.

; definitions: top-level blocks (resource, data, module, variable, output, locals, provider…)
(config_file (body (block) @definition.block))

; references: an expression's head name and its attribute chain (var.x, module.m.out, aws_s3.b.id)
(expression (variable_expr) @reference.address)

; calls: built-in functions (length(…), lookup(…)), never project symbols
(function_call) @reference.call
