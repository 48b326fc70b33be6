; Perl (tree-sitter-perl): the nodes languages/perl.py turns into symbols and references. Whole
; statements are captured; the extractor reads their children.

; definitions: `package Foo::Bar;` (up to the next package statement) or `package Foo { … }`, subs
(package_statement) @definition.package  ; read in PerlExtractor.begin
(subroutine_declaration_statement) @definition.function

; imports: `use Foo::Bar qw(a b);`, `use parent -norequire, 'A';`, `require Foo::Bar;`
(use_statement) @import
(require_expression) @import.require

; references: `f(…)`, `Foo::f(…)`, `f …` (and `has …` / `push @ISA, …`), `$x->m`, `Foo->new`
(function_call_expression) @reference.call
(ambiguous_function_call_expression) @reference.call
(method_call_expression) @reference.method

; `my $obj = Foo->new(…)` types $obj; `our @ISA = (…)` names the bases
(assignment_expression) @assign
