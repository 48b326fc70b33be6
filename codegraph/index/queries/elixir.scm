; Elixir (elixir-lang/tree-sitter-elixir): everything is a call. languages/elixir.py tells
; definitions (defmodule, def, defp, defmacro, defprotocol, defimpl…), directives (alias, import,
; require, use) and plain calls apart by the call's target.

(call) @call

; module attributes: @doc / @moduledoc (docs), @behaviour (implements); & captures (&f/1)
(unary_operator) @unary

; struct literals and patterns: %Foo{...}
(map (struct) @struct)
