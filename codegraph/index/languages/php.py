"""PHP: ``.php`` files that open with ``<?php`` (anything else is a template, not source).

Names follow PHP's own rules, which are lexical: a class name is expanded at extraction through the
file's ``use`` imports and its ``namespace`` into a fully qualified name (``\\App\\Models\\User``); an
unqualified function name tries the current namespace first and then the global one (where PHP's
builtins live, which never bind to project code). Classes sit at the top of their file with the
namespace as the qualifier of their qualified name (``App\\Models::User::save``). Receivers:
``$this``, ``self::`` and ``static::`` mean the enclosing class, ``parent::`` its parent; a variable
has a type when the code states one (a parameter or property type, ``$x = new Foo``, a call whose
return type is known, ``catch (Foo $e)``). Member lookup walks the class, its traits, its parents,
then its interfaces. Docs are the ``/** … */`` block before a declaration. A class declared in
several files (stubs, polyfills, copies) is the one Composer's autoloader would load by the
``psr-4`` / ``psr-0`` rules of the tree's composer.json files; without one, the file whose path
matches the most trailing segments of the name. The rules only ever choose among classes declared
with that name: a class is found by its declared namespace wherever its file lies.

Receiver expressions are written with ``.`` between segments: ``$this.items.add``, ``\\App\\Foo.make``,
``$this.getApplication().getVersion`` (a call on a call's result), ``new \\App\\Foo`` (a fresh object).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import defaultdict

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule, parsed_manifests, relative_file
from codegraph.model import Node

# PHP's global functions and classes that code calls without importing (the common part of the
# manual's function index: strings, arrays, math, files, types, output, json, regex, date, SPL).
BUILTINS = frozenset(
    """
abs acos array_chunk array_column array_combine array_count_values array_diff array_diff_key array_fill
array_fill_keys array_filter array_flip array_intersect array_intersect_key array_is_list array_key_exists
array_key_first array_key_last array_keys array_map array_merge array_merge_recursive array_pad array_pop
array_product array_push array_rand array_reduce array_replace array_replace_recursive array_reverse
array_search array_shift array_slice array_splice array_sum array_udiff array_uintersect array_unique
array_unshift array_values array_walk array_walk_recursive arsort asort assert base64_decode base64_encode
basename bin2hex boolval call_user_func call_user_func_array ceil chdir checkdate chmod chr class_exists
class_implements class_uses clearstatcache closedir compact constant copy cos count count_chars crc32
ctype_alnum ctype_alpha ctype_digit ctype_lower ctype_space ctype_upper ctype_xdigit current date
date_default_timezone_get debug_backtrace debug_zval_dump decbin dechex define defined dirname dir
each echo empty end enum_exists error_get_last error_log error_reporting escapeshellarg exec exit explode
extension_loaded extract fclose feof fflush fgetc fgets file file_exists file_get_contents file_put_contents
fileperms filemtime filesize filter_var floatval flock floor flush fmod fnmatch fopen fprintf fputs fread
fseek fstat ftell ftruncate func_get_arg func_get_args func_num_args function_exists fwrite gc_collect_cycles
get_called_class get_class get_class_methods get_object_vars get_parent_class getcwd getenv gettype glob
gmdate hash hash_equals hash_hmac header headers_sent hex2bin hexdec hrtime html_entity_decode htmlspecialchars
http_build_query iconv ignore_user_abort implode in_array include_once inet_pton ini_get ini_set intdiv
interface_exists intval ip2long is_a is_array is_bool is_callable is_countable is_dir is_file is_float
is_int is_integer is_iterable is_link is_null is_numeric is_object is_readable is_resource is_scalar
is_string is_subclass_of is_writable isset iterator_apply iterator_count iterator_to_array join json_decode
json_encode json_last_error json_last_error_msg key krsort ksort lcfirst levenshtein list localeconv log
ltrim max mb_check_encoding mb_convert_case mb_convert_encoding mb_detect_encoding mb_internal_encoding
mb_str_split mb_strlen mb_strpos mb_strrpos mb_strtolower mb_strtoupper mb_strwidth mb_substr md5
memory_get_peak_usage memory_get_usage method_exists microtime min mkdir mktime move_uploaded_file mt_rand
natcasesort natsort next nl2br number_format ob_end_clean ob_get_clean ob_get_contents ob_get_level ob_start
octdec opendir ord parse_str parse_url pathinfo php_sapi_name php_uname phpversion pi pow preg_grep
preg_last_error preg_match preg_match_all preg_quote preg_replace preg_replace_callback preg_split prev
print print_r printf proc_open property_exists random_bytes random_int range rawurlencode readdir readfile
readline realpath register_shutdown_function rename reset restore_error_handler rewind rmdir round rsort
rtrim scandir serialize set_error_handler set_exception_handler setlocale settype sha1 shuffle sin sizeof
sleep sort spl_autoload_register spl_object_hash spl_object_id sprintf sqrt srand sscanf str_contains
str_ends_with str_pad str_repeat str_replace str_split str_starts_with str_word_count strcasecmp strcmp
stream_context_create stream_get_contents stream_get_meta_data stream_isatty stream_select strip_tags
stripos stripslashes stristr strlen strnatcasecmp strncmp strpbrk strpos strrchr strrev strripos strrpos
strspn strstr strtolower strtotime strtoupper strtr strval substr substr_count substr_replace
sys_get_temp_dir system tan tempnam time timezone_identifiers_list tmpfile touch trait_exists trigger_error
trim uasort ucfirst ucwords uksort umask uniqid unlink unserialize unset urldecode urlencode usleep usort
utf8_decode utf8_encode var_dump var_export version_compare vsprintf wordwrap
ArrayAccess ArrayIterator ArrayObject BadFunctionCallException BadMethodCallException Closure Countable
DateInterval DatePeriod DateTime DateTimeImmutable DateTimeInterface DateTimeZone DirectoryIterator
DomainException Error ErrorException Exception FilesystemIterator Generator InvalidArgumentException
Iterator IteratorAggregate JsonSerializable LengthException LogicException OutOfBoundsException
OutOfRangeException OverflowException RangeException RecursiveArrayIterator RecursiveDirectoryIterator
RecursiveIteratorIterator ReflectionClass ReflectionFunction ReflectionMethod ReflectionNamedType
ReflectionObject ReflectionProperty RuntimeException SplFileInfo SplObjectStorage SplQueue SplStack
Stringable Throwable Traversable TypeError UnexpectedValueException ValueError WeakMap stdClass
""".split()
)
BUILTINS_LOWER = frozenset(b.lower() for b in BUILTINS)
SCALAR_TYPES = frozenset(
    "array bool callable false float int iterable mixed never null object string true void".split()
)
RELATIVE = frozenset({"self", "static", "parent"})
CLASS_KINDS = frozenset({"class", "interface", "trait", "enum"})
INCLUDES = frozenset(
    {"require_expression", "require_once_expression", "include_expression", "include_once_expression"}
)
_DOC_LINE = re.compile(r"^\s*\*+ ?")
# every line's leading ``*`` at once; whitespace the pattern eats across blank lines squashes away
_DOC_LINES = re.compile(r"^\s*\*+ ?", re.MULTILINE)
# line breaks str.splitlines knows and a multi-line pattern does not (a lone CR, form feed…)
_ODD_BREAK = re.compile("\r(?!\n)|[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


class _Scope:
    """One namespace region of a file with the ``use`` aliases declared in it."""

    __slots__ = ("start", "end", "ns", "classes", "functions")

    def __init__(self, start: int, end: int, ns: str):
        self.start = start
        self.end = end
        self.ns = ns
        self.classes: dict[str, str] = {}  # lower-case alias -> FQN (leading backslash)
        self.functions: dict[str, str] = {}


def _fqn(ns: str, name: str) -> str:
    return f"\\{ns}\\{name}" if ns else f"\\{name}"


class PhpExtractor(Extractor):
    # ---------------------------------------------------------------- names
    def begin(self, root) -> None:
        self.scopes: list[_Scope] = []
        self.static_defs: set[int] = set()
        current = _Scope(0, len(self.source) + 1, "")
        self.scopes.append(current)
        for child in root.named_children:
            if child.type == "namespace_definition":
                name = child.child_by_field_name("name")
                ns = text(name) if name is not None else ""
                body = child.child_by_field_name("body")
                if body is None:  # `namespace A;` runs to the next namespace statement
                    current.end = child.start_byte
                    current = _Scope(child.start_byte, len(self.source) + 1, ns)
                    self.scopes.append(current)
                else:
                    current.end = min(current.end, child.start_byte)
                    scope = _Scope(child.start_byte, child.end_byte, ns)
                    self.scopes.append(scope)
                    for stmt in body.named_children:
                        if stmt.type == "namespace_use_declaration":
                            self._use(stmt, scope)
                if self.out.package is None and ns:
                    self.out.package = ns
            elif child.type == "namespace_use_declaration":
                self._use(child, current)

    def _scope_at(self, byte: int) -> _Scope:
        for scope in reversed(self.scopes):
            if scope.start <= byte < scope.end:
                return scope
        return self.scopes[0]

    def _use(self, stmt, scope: _Scope) -> None:
        """``use A\\B [as C]``, ``use function A\\f``, ``use A\\{B, C as D}``: aliases and bindings."""
        kind = next((c.type for c in stmt.children if c.type in ("function", "const")), "class")
        prefix = ""
        clauses = []
        for c in stmt.named_children:
            if c.type == "namespace_name":
                prefix = text(c)
            elif c.type == "namespace_use_clause":
                clauses.append(c)
            elif c.type == "namespace_use_group":
                clauses.extend(x for x in c.named_children if x.type == "namespace_use_clause")
        items = []
        for clause in clauses:
            ckind = next((c.type for c in clause.children if c.type in ("function", "const")), kind)
            alias_node = clause.child_by_field_name("alias")
            target = next((c for c in clause.named_children if c != alias_node), None)
            if target is None:
                continue
            full = text(target).lstrip("\\")
            if prefix:
                full = f"{prefix.strip(chr(92))}\\{full}"
            items.append(
                (ckind, full, text(alias_node) if alias_node is not None else full.rpartition("\\")[2])
            )
        if not items:
            return
        nid = self.import_node(stmt, prefix.strip("\\") if prefix else items[0][1])
        for ckind, full, alias in items:
            if ckind == "const":
                continue
            module, _, last = full.rpartition("\\")
            table = scope.functions if ckind == "function" else scope.classes
            table[alias.lower()] = "\\" + full
            self.bind(stmt, alias, module, last, node=nid)

    def class_name(self, name_text: str, byte: int) -> str:
        """The fully qualified name a class name means at ``byte`` (``self``/``static``/``parent`` kept)."""
        if name_text.startswith("\\"):
            return name_text
        if name_text.lower() in RELATIVE:
            return name_text.lower()
        scope = self._scope_at(byte)
        if name_text.lower().startswith("namespace\\"):
            return _fqn(scope.ns, name_text[len("namespace\\") :])
        head, sep, rest = name_text.partition("\\")
        alias = scope.classes.get(head.lower())
        if alias is not None:
            return alias + (sep + rest if sep else "")
        return _fqn(scope.ns, name_text)

    def function_name(self, name_text: str, byte: int) -> str:
        """A called function's name: fully qualified when the file says which (``\\f``, ``A\\f``, a
        ``use function``), else the bare name (the resolver tries the namespace, then global)."""
        if name_text.startswith("\\"):
            return name_text
        if "\\" in name_text:
            return self.class_name(name_text, byte)
        alias = self._scope_at(byte).functions.get(name_text.lower())
        return alias if alias is not None else name_text

    def type_name(self, node) -> str | None:
        """The class a declared type names (``?Foo``, ``Foo|null``), FQN; None for scalars/unions."""
        if node is None:
            return None
        if node.type == "optional_type":
            node = node.named_children[0] if node.named_child_count else None
        elif node.type == "union_type":
            parts = [c for c in node.named_children if text(c).lower() != "null"]
            node = parts[0] if len(parts) == 1 else None
        if node is None:
            return None
        if node.type == "named_type" and node.named_child_count:
            node = node.named_children[0]
        if node.type not in ("name", "qualified_name", "relative_scope"):
            return None
        raw = text(node)
        if raw.lower() in SCALAR_TYPES:
            return None
        return self.class_name(raw, node.start_byte)

    # ---------------------------------------------------------------- expressions
    def expr(self, node) -> str | None:
        """A receiver expression in the resolver's notation, or None when it is not one we follow."""
        t = node.type
        if t == "variable_name":
            return "$" + text(node).lstrip("$")
        if t in ("member_access_expression", "nullsafe_member_access_expression"):
            obj = node.child_by_field_name("object")
            name = node.child_by_field_name("name")
            if obj is None or name is None or name.type != "name":
                return None
            inner = self.expr(obj)
            return f"{inner}.{text(name)}" if inner else None
        if t in ("member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression"):
            callee = self.callee(node)
            return callee + "()" if callee else None
        if t == "function_call_expression":
            fn = node.child_by_field_name("function")
            if fn is not None and fn.type in ("name", "qualified_name"):
                return self.function_name(text(fn), fn.start_byte) + "()"
            return None
        if t == "class_constant_access_expression":
            parts = node.named_children
            if len(parts) == 2 and parts[1].type == "name":
                scope = self.scope_expr(parts[0])
                return f"{scope}.{text(parts[1])}" if scope else None
            return None
        if t == "scoped_property_access_expression":  # Registry::$default: a static property
            scope = node.child_by_field_name("scope")
            name = node.child_by_field_name("name")
            if scope is None or name is None or name.type != "variable_name":
                return None  # Registry::$$dyn
            owner = self.scope_expr(scope)
            return f"{owner}.${text(name).lstrip('$')}" if owner else None
        if t == "object_creation_expression":
            cls = next((c for c in node.named_children if c.type in ("name", "qualified_name")), None)
            return "new " + self.class_name(text(cls), cls.start_byte) if cls is not None else None
        if t == "parenthesized_expression" and node.named_child_count == 1:
            return self.expr(node.named_children[0])
        if t in ("name", "qualified_name", "relative_scope"):
            return self.scope_expr(node)
        return None

    def scope_expr(self, node) -> str | None:
        """The class part of ``X::m()``: ``self``/``static``/``parent``, a FQN, or ``$var``."""
        if node.type == "relative_scope":
            return text(node).lower()
        if node.type in ("name", "qualified_name"):
            return self.class_name(text(node), node.start_byte)
        if node.type == "variable_name":
            return "$" + text(node).lstrip("$")
        return None

    def callee(self, node) -> str | None:
        """``recv.method`` for a member or scoped call, None when the name is dynamic."""
        name = node.child_by_field_name("name")
        if name is None or name.type != "name":
            return None
        if node.type == "scoped_call_expression":
            scope = node.child_by_field_name("scope")
            recv = self.scope_expr(scope) if scope is not None else None
        else:
            obj = node.child_by_field_name("object")
            recv = self.expr(obj) if obj is not None else None
        return f"{recv or '<expr>'}.{text(name)}"

    # ---------------------------------------------------------------- captures
    def handle(self, capture: str, ts) -> None:
        if capture == "definition.namespace":
            name = ts.child_by_field_name("name")
            if name is not None:
                self.add_def(ts, "namespace", name, span=name)
        elif capture in ("definition.class", "definition.interface", "definition.trait", "definition.enum"):
            self._type(ts, capture.split(".", 1)[1])
        elif capture in ("definition.function", "definition.method"):
            d = self.add_def(ts, "function", ts.child_by_field_name("name"))
            if d is not None:
                self._parameters(ts)
                ret = self.type_name(ts.child_by_field_name("return_type"))
                body = ts.child_by_field_name("body")
                if ret is not None and body is not None:
                    if ret == "self":  # `: self` is the declaring class; `: static` the receiver's
                        ret = self.own_class(ts) or "self"
                    self.returns_fact(body, "self" if ret == "static" else ret)
        elif capture == "definition.property":
            ptype = self.type_name(ts.child_by_field_name("type"))
            for el in ts.named_children:
                if el.type != "property_element":
                    continue
                var = el.child_by_field_name("name")
                if var is None:
                    continue
                name = text(var).lstrip("$")
                self.add_def(el, "variable", None, name=name)
                if ptype is not None:
                    self.type_fact(el, f"$this.{name}", ptype)
        elif capture == "definition.constant":
            for el in ts.named_children:
                if el.type == "const_element":
                    name = next((c for c in el.named_children if c.type == "name"), None)
                    self.add_def(el, "constant", name)
        elif capture == "definition.enum_member":
            self.add_def(ts, "enum_member", ts.child_by_field_name("name"))
        elif capture == "import.include":
            self._include(ts)
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "reference.new":
            cls = next((c for c in ts.named_children if c.type in ("name", "qualified_name")), None)
            if cls is not None:
                self.ref(ts, "instantiates", self.class_name(text(cls), cls.start_byte), None)
        elif capture == "assign":
            self._assign(ts)
        elif capture == "catch":
            self._catch(ts)
        elif capture == "narrow":
            self._narrow(ts)
        elif capture == "return":
            value = ts.named_children[0] if ts.named_child_count else None
            expr = self._value(value) if value is not None else None
            self.returns_fact(ts, expr or "unknown")

    def _type(self, ts, kind: str) -> None:
        d = self.add_def(ts, kind, ts.child_by_field_name("name"))
        if d is None:
            return
        for c in ts.named_children:
            if c.type == "base_clause":
                for b in c.named_children:
                    if b.type in ("name", "qualified_name"):
                        self.base_ref(d, "extends", self.class_name(text(b), b.start_byte), b)
            elif c.type == "class_interface_clause":
                for b in c.named_children:
                    if b.type in ("name", "qualified_name"):
                        self.base_ref(d, "implements", self.class_name(text(b), b.start_byte), b)
        body = ts.child_by_field_name("body")
        for member in body.named_children if body is not None else ():
            if member.type == "use_declaration":  # traits: their members become the class's own
                for b in member.named_children:
                    if b.type in ("name", "qualified_name"):
                        self.base_ref(d, "implements", self.class_name(text(b), b.start_byte), b)

    def _parameters(self, fn) -> None:
        params = fn.child_by_field_name("parameters")
        body = fn.child_by_field_name("body")
        if params is None:
            return
        for p in params.named_children:
            if p.type not in ("simple_parameter", "property_promotion_parameter", "variadic_parameter"):
                continue
            var = p.child_by_field_name("name")
            ptype = self.type_name(p.child_by_field_name("type"))
            if var is None:
                continue
            name = text(var).lstrip("$")
            if p.type == "property_promotion_parameter" and ptype is not None:
                self.type_fact(fn, f"$this.{name}", ptype)
            if ptype is not None and body is not None and p.type != "variadic_parameter":
                self.type_fact(body, f"${name}", f"@0:{ptype}")

    def _param_type(self, var_node, name: str) -> str | None:
        """The declared type of parameter ``$name`` of the function around ``var_node``."""
        fn = var_node.parent
        while fn is not None and fn.type not in (
            "method_declaration",
            "function_definition",
            "anonymous_function",
        ):
            fn = fn.parent
        params = fn.child_by_field_name("parameters") if fn is not None else None
        for p in params.named_children if params is not None else ():
            var = p.child_by_field_name("name")
            if var is not None and text(var).lstrip("$") == name:
                return self.type_name(p.child_by_field_name("type"))
        return None

    def own_class(self, ts) -> str | None:
        """The fully qualified name of the class (or trait, enum…) declared around ``ts``."""
        p = ts.parent
        while p is not None:
            if p.type in (
                "class_declaration",
                "interface_declaration",
                "trait_declaration",
                "enum_declaration",
            ):
                name = p.child_by_field_name("name")
                return _fqn(self._scope_at(p.start_byte).ns, text(name)) if name is not None else None
            if p.type == "anonymous_class":
                return None
            p = p.parent
        return None

    def _value(self, value) -> str | None:
        """What an assigned or returned value is, as a type expression: ``new \\A\\B``, a call
        (``recv.m()``), ``$this``, a variable (``$x``, ``$this.prop``)."""
        if value.type == "object_creation_expression":
            cls = next((c for c in value.named_children if c.type in ("name", "qualified_name")), None)
            if cls is None:
                return None
            name = self.class_name(text(cls), cls.start_byte)
            if name == "self":  # `new self` builds the declaring class, `new static` the receiver's
                own = self.own_class(value)
                return "new " + own if own else "self"
            return "self" if name == "static" else "new " + name
        if value.type == "variable_name" and text(value) == "$this":
            return "self"
        if value.type in (
            "member_call_expression",
            "nullsafe_member_call_expression",
            "scoped_call_expression",
            "function_call_expression",
            "variable_name",
            "member_access_expression",
        ):
            return self.expr(value)
        if value.type == "parenthesized_expression" and value.named_child_count == 1:
            return self._value(value.named_children[0])
        return None

    def _assign(self, ts) -> None:
        left = ts.child_by_field_name("left")
        right = ts.child_by_field_name("right")
        if left is None or right is None:
            return
        target = self.expr(left) if left.type in ("variable_name", "member_access_expression") else None
        if target is None or target == "$this" or target.count(".") > 1:
            return
        if "." in target and not target.startswith("$this."):
            return
        value = None
        if right.type == "binary_expression" and any(c.type == "??" for c in right.children):
            # `$x = $given ?? new Default()`: the given value's declared type when it has one
            given = right.child_by_field_name("left")
            if given is not None and given.type == "variable_name":
                value = self._param_type(ts, text(given).lstrip("$"))
            right = right.child_by_field_name("right") or right
        value = value or self._value(right)
        if value is None:
            return
        if value.startswith("$") and "." not in value and "(" not in value:
            # `$this->x = $x` where the parameter $x is typed: the property has that type
            ptype = self._param_type(ts, value[1:])
            if ptype is None:
                return
            value = ptype
        if target.startswith("$this."):
            self.type_fact(ts, target, value)
        else:  # a local: remember the line, so a use sees only the assignments above it
            self.type_fact(ts, target, f"@{ts.start_point[0] + 1}:{value}")

    def _catch(self, ts) -> None:
        types = [c for c in ts.named_children if c.type == "type_list"]
        var = ts.child_by_field_name("name")
        body = ts.child_by_field_name("body")
        if not types or var is None or body is None:
            return
        names = [c for c in types[0].named_children if c.type == "named_type"]
        if len(names) == 1:
            cls = self.type_name(names[0])
            if cls is not None:
                self.type_fact(body, "$" + text(var).lstrip("$"), f"@{ts.start_point[0] + 1}:{cls}")

    def _narrow(self, ts) -> None:
        """``if ($x instanceof Foo) { … }`` (alone or in an ``&&``): inside that body $x is a Foo."""
        cond = ts.child_by_field_name("condition")
        body = ts.child_by_field_name("body")
        if cond is None or body is None:
            return
        stack = [cond]
        while stack:
            n = stack.pop()
            if n.type == "parenthesized_expression":
                stack.extend(n.named_children)
            elif n.type == "binary_expression":
                op = next((c.type for c in n.children if not c.is_named), "")
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                if op == "&&" or op == "and":
                    stack.extend(c for c in (left, right) if c is not None)
                elif op == "instanceof" and left is not None and right is not None:
                    if left.type == "variable_name" and right.type in ("name", "qualified_name"):
                        cls = self.class_name(text(right), right.start_byte)
                        if cls not in RELATIVE:
                            first, last = body.start_point[0] + 1, body.end_point[0] + 1
                            self.type_fact(ts, "$" + text(left).lstrip("$"), f"@R{first}-{last}:{cls}")

    def _call(self, ts) -> None:
        args = ts.child_by_field_name("arguments")
        # `show(...)`, `$this->line(...)`: a first-class callable made, not a call (PHP 8.1)
        kind = (
            "value"
            if args is not None and [c.type for c in args.named_children] == ["variadic_placeholder"]
            else "calls"
        )
        if ts.type == "function_call_expression":
            fn = ts.child_by_field_name("function")
            if fn is not None and fn.type in ("name", "qualified_name"):
                self.ref(ts, kind, self.function_name(text(fn), fn.start_byte), None)
            return
        callee = self.callee(ts)
        if callee is not None:
            self.call_ref(ts, callee, kind)

    def _include(self, ts) -> None:
        """``require_once __DIR__ . '/x.php'`` and friends: a file dependency when the path is literal."""
        arg = ts.named_children[0] if ts.named_child_count else None
        while arg is not None and arg.type == "parenthesized_expression" and arg.named_child_count:
            arg = arg.named_children[0]
        spec = None
        if arg is not None and arg.type in ("string", "encapsed_string"):
            spec = _string(arg)
        elif arg is not None and arg.type == "binary_expression":
            left, right = arg.child_by_field_name("left"), arg.child_by_field_name("right")
            if (
                left is not None
                and right is not None
                and text(left) in ("__DIR__", "dirname(__FILE__)")
                and right.type in ("string", "encapsed_string")
            ):
                tail = _string(right)
                spec = tail.lstrip("/") if tail is not None else None
                if spec and not spec.startswith("."):
                    spec = "./" + spec
        if spec:
            statement = (
                ts.parent if ts.parent is not None and ts.parent.type == "expression_statement" else ts
            )
            self.bind(statement, "", spec, "")

    def filter_defs(self, defs: list[Def]) -> list[Def]:
        """Everything declared inside a namespace is qualified by it (``App\\Models::User::save``)."""
        for d in defs:
            if d.kind != "namespace" and d.qualifier is None:
                d.qualifier = self._scope_at(d.start).ns or None
        return defs

    # ---------------------------------------------------------------- node details
    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        node.docstring = _doc_comment(ts)
        for c in ts.children:
            if c.type == "visibility_modifier":
                node.visibility = text(c)
            elif c.type == "static_modifier":
                node.is_static = True
            elif c.type == "abstract_modifier":
                node.is_abstract = True
        if node.kind in ("class", "interface", "trait", "enum", "function"):
            node.is_exported = True
        if d.kind in ("property",) and ts.type == "property_element":
            decl = ts.parent
            for c in decl.children if decl is not None else ():
                if c.type == "visibility_modifier":
                    node.visibility = text(c)
                elif c.type == "static_modifier":
                    node.is_static = True
            typ = decl.child_by_field_name("type") if decl is not None else None
            if typ is not None:
                node.signature = squash(text(typ), 120)
        if node.kind == "method" and node.visibility is None:
            node.visibility = "public"


def _psr4_depth(node: Node, fqn: str) -> int:
    """How many trailing segments of ``fqn`` the node's path matches the PSR-4 way (``Sub/Name.php``
    for ``\\Vendor\\Sub\\Name``); 0 when the file is not named after the class."""
    names = fqn.strip("\\").lower().split("\\")
    path = node.file_path.lower()
    if not path.endswith(".php"):
        return 0
    segments = path[: -len(".php")].split("/")
    depth = 0
    while depth < min(len(names), len(segments)) and names[-1 - depth] == segments[-1 - depth]:
        depth += 1
    return depth


def _string(node) -> str | None:
    parts = [c for c in node.named_children if c.type == "string_content"]
    if len(parts) != len(node.named_children):
        return None  # interpolation: not a literal path
    return "".join(text(p) for p in parts)


def _doc_comment(ts) -> str | None:
    """The ``/** … */`` block right before a declaration (attributes may sit between)."""
    prev = ts.prev_named_sibling
    if ts.type == "property_element" and ts.parent is not None:
        prev = ts.parent.prev_named_sibling
    while prev is not None and prev.type == "attribute_list":
        prev = prev.prev_named_sibling
    if prev is None or prev.type != "comment":
        return None
    raw = text(prev)
    if not raw.startswith("/**"):
        return None
    return _doc_text(raw[3:-2] if raw.endswith("*/") else raw[3:])


def _doc_text(body: str) -> str | None:
    """A docblock's text: each line's leading ``*`` run (and one space after it) removed, blank
    lines dropped, whitespace squashed. One pass over the whole block where a multi-line pattern
    sees the same line starts as ``str.splitlines`` (whitespace the pattern eats across blank lines
    squashes away anyway): the per-line loop was an eighth of Laravel's extraction under cProfile."""
    if _ODD_BREAK.search(body):
        lines = [_DOC_LINE.sub("", line).rstrip() for line in body.splitlines()]
        return squash(" ".join(line for line in lines if line), MAX_DOCSTRING) or None
    return squash(_DOC_LINES.sub("", body), MAX_DOCSTRING) or None


COMPOSER = "composer.json"
AUTOLOAD_SECTIONS = ("autoload", "autoload-dev")


class ComposerShapeError(ValueError):
    """A composer.json whose autoload section is not of the shape Composer reads."""


class _Rule:
    """One autoload mapping of a composer.json: ``standard`` (``psr-4`` / ``psr-0``), the namespace
    ``prefix`` (lower case, no leading backslash; "" for every namespace) and the project
    ``directory`` it maps to (POSIX, relative, lower case; "" for the project root)."""

    __slots__ = ("standard", "prefix", "directory")

    def __init__(self, standard: str, prefix: str, directory: str):
        self.standard = standard
        self.prefix = prefix
        self.directory = directory

    def path_of(self, fqn: str) -> str | None:
        """The file this rule loads class ``fqn`` (lower case, no leading backslash) from, or None
        when the prefix does not cover it. PSR-4: the rest after the prefix, ``\\`` as ``/``; PSR-0:
        the whole name, with ``_`` in the class's own name as ``/`` too."""
        if not fqn.startswith(self.prefix):
            return None
        if self.standard == "psr-4":
            rest = fqn[len(self.prefix) :].replace("\\", "/")
        else:
            ns, _, cls = fqn.rpartition("\\")
            rest = (ns.replace("\\", "/") + "/" if ns else "") + cls.replace("_", "/")
        if not rest:
            return None
        return posixpath.join(self.directory, rest + ".php") if self.directory else rest + ".php"


def composer_rules(path: str, body: str) -> list[_Rule]:
    """The ``psr-4`` and ``psr-0`` mappings of the composer.json at ``path`` with text ``body``, in
    the order Composer's class loader tries them: ``autoload`` then ``autoload-dev`` for a prefix,
    longer prefixes first, a prefix's directories in the order written, the "" prefix last (its
    fallback directories). Directories are taken relative to the composer.json's own; one leading
    outside the project, or absolute, is left out. Other autoload kinds (classmap, files) name no class.

    Raises:
        ComposerShapeError: an ``autoload`` section, a ``psr-4`` / ``psr-0`` map or one of its
            directories that is not of the shape Composer reads (or a document that is no object).
        ValueError: not JSON (``json.JSONDecodeError``); RecursionError: nesting too deep.
    """
    doc = json.loads(body)
    if not isinstance(doc, dict):
        raise ComposerShapeError("not a JSON object")
    base = posixpath.dirname(path)
    found: list[tuple[int, int, _Rule]] = []
    for section in AUTOLOAD_SECTIONS:
        autoload = doc.get(section)
        if autoload is None or autoload == []:  # PHP's json_encode writes an empty map as []
            continue
        if not isinstance(autoload, dict):
            raise ComposerShapeError(f"{section} is not an object")
        for rank, standard in enumerate(("psr-4", "psr-0")):
            mapping = autoload.get(standard)
            if mapping is None or mapping == []:
                continue
            if not isinstance(mapping, dict):
                raise ComposerShapeError(f"{section}.{standard} is not an object")
            for prefix, dirs in mapping.items():
                for directory in (
                    [dirs] if isinstance(dirs, str) else dirs if isinstance(dirs, list) else [None]
                ):
                    if not isinstance(directory, str):
                        raise ComposerShapeError(f"{section}.{standard} maps {prefix!r} to no directory")
                    if directory.startswith("/"):  # Composer keeps an absolute path: no folder of the tree
                        continue
                    joined = posixpath.normpath(posixpath.join(base, directory.strip("/") or "."))
                    if joined == ".." or joined.startswith("../"):
                        continue
                    rule = _Rule(
                        standard, prefix.lstrip("\\").lower(), "" if joined == "." else joined.lower()
                    )
                    # Composer: PSR-4 before PSR-0; within each, longest prefix first, "" last
                    found.append((rank, -len(rule.prefix) if rule.prefix else 1, rule))
    found.sort(key=lambda t: (t[0], t[1]))  # stable: the order written within one prefix length
    return [rule for _, _, rule in found]


class _Index:
    """Per-project PHP tables: FQN → definitions, namespace → files, each class's supertypes."""

    def __init__(self, autoload: list[list[_Rule]] | None = None):
        # each composer.json's autoload rules (empty without one: the path heuristic alone)
        self.autoload: list[list[_Rule]] = autoload or []
        self.by_fqn: dict[str, list[Node]] = defaultdict(list)  # lower-case FQN -> class/function nodes
        self.ns_files: dict[str, list[str]] = defaultdict(list)  # lower-case namespace -> files
        self.namespaces: dict[str, list[tuple[int, str]]] = {}  # path -> [(line, namespace)]
        self.parents: dict[str, list[str]] = defaultdict(list)  # class id -> extends targets
        self.traits: dict[str, list[str]] = defaultdict(list)
        self.interfaces: dict[str, list[str]] = defaultdict(list)
        self.returns_memo: dict[tuple[str, str | None], Node | None] = {}
        self.ancestors_memo: dict[str, list[str]] = {}


class Php(LanguageModule):
    label = "php"
    constructor_names = ("__construct",)
    name = "PHP"
    grammar = "php"
    extracts = "classes, interfaces, traits, enums, functions, methods, properties, namespaces, use imports"
    resolution = (
        "namespaces + use (lexical), composer.json psr-4/psr-0 picks among classes declared twice,"
        " $this/self/static/parent, typed parameters and properties"
    )
    extensions = (".php", ".phtml")
    manifests = (COMPOSER,)
    builtins = BUILTINS
    self_names = frozenset({"$this", "self", "static"})
    super_names = frozenset({"parent"})
    unique_fallback = False
    test_suffixes = ("test.php",)
    extractor = PhpExtractor
    resolves_by_position = True  # call_target reads ref.line

    def accepts(self, path: str, data: bytes) -> str | None:
        if b"<?php" in data or b"<?=" in data or b"<?PHP" in data:
            return None
        return "not PHP source (no <?php tag)"

    # ------------------------------------------------------------ tables
    def read_manifests(self, project, manifests: dict[str, str | None]) -> dict[str, str]:
        """Each composer.json's ``psr-4`` / ``psr-0`` autoload rules, for ``prepare``; one that cannot
        be read, is not JSON or maps a prefix to something that is no directory is left out with the
        reason (its classes are then placed by their declared namespaces and the path heuristic)."""
        rules: list[list[_Rule]] = []
        problems: dict[str, str] = {}
        # json.JSONDecodeError is a ValueError, and so is ComposerShapeError
        for _, mine in parsed_manifests(
            manifests,
            composer_rules,
            problems,
            why=lambda exc: "not usable" if isinstance(exc, ComposerShapeError) else "not parseable",
        ):
            if mine:
                rules.append(mine)
        project.lang_state[COMPOSER] = rules
        return problems

    def prepare(self, project, files) -> None:
        idx = _Index(project.lang_state.get(COMPOSER))
        for f in files:
            spans = []
            file_id = f"file:{f.path}"
            for n in f.nodes:
                if n.kind == "namespace" and project.parent.get(n.id) == file_id:
                    spans.append((n.start_line, n.name))
                    if f.path not in idx.ns_files[n.name.lower()]:
                        idx.ns_files[n.name.lower()].append(f.path)
                elif n.kind in CLASS_KINDS or (n.kind == "function" and project.parent.get(n.id) == file_id):
                    qual = n.qualified_name.split("::")
                    ns = qual[0] if len(qual) > 1 else ""
                    idx.by_fqn[_fqn(ns, n.name).lower()].append(n)
            if not spans:
                idx.ns_files[""].append(f.path)
            idx.namespaces[f.path] = sorted(spans)
        project.lang_state["php"] = idx
        for f in files:
            for ref in f.refs:
                if ref.kind not in ("extends", "implements"):
                    continue
                target = self._class(idx, ref.name)
                if target is None:
                    continue
                if ref.kind == "extends":
                    idx.parents[ref.source].append(target.id)
                elif target.kind == "trait":
                    idx.traits[ref.source].append(target.id)
                else:
                    idx.interfaces[ref.source].append(target.id)
        if idx.autoload:
            self._drop_unloaded(idx)

    def _drop_unloaded(self, idx: _Index) -> None:
        """Leave out of a namespace's files (what a ``use`` of one of its classes looks in) each file
        whose every declaration in that namespace is a duplicate the autoload rules decided against
        (``stubs/Models/User.php`` beside the PSR-4 file ``src/Models/User.php``): the ``use`` then
        finds the one Composer loads instead of two. A file that declares anything else stays."""
        beaten: set[str] = set()
        for fqn, nodes in idx.by_fqn.items():
            hits = [n for n in nodes if n.kind in CLASS_KINDS]
            if len(hits) > 1:
                chosen = self._autoloaded(idx, fqn, hits)
                if chosen is not None:
                    beaten.update(n.id for n in hits if n.file_path != chosen.file_path)
        if not beaten:
            return
        declared: dict[tuple[str, str], list[str]] = defaultdict(list)  # (namespace, path) -> node ids
        for fqn, nodes in idx.by_fqn.items():
            ns = fqn[1:].rpartition("\\")[0]
            for n in nodes:
                declared[(ns, n.file_path)].append(n.id)
        for (ns, path), ids in declared.items():
            if path in idx.ns_files.get(ns, ()) and all(i in beaten for i in ids):
                idx.ns_files[ns].remove(path)

    def resolve_module(self, project, from_path: str, spec: str):
        if spec.endswith((".php", ".phtml", ".inc")) or "/" in spec:
            for cand in (relative_file(from_path, spec), spec.lstrip("./")):
                if cand in project.files:
                    return cand
            return None
        idx: _Index = project.lang_state["php"]
        files = idx.ns_files.get(spec.strip("\\").lower())
        return list(files) if files else None

    # ------------------------------------------------------------ lookups
    def _class(self, idx: _Index, fqn: str) -> Node | None:
        hits = [n for n in idx.by_fqn.get(fqn.lower(), ()) if n.kind in CLASS_KINDS]
        if len(hits) > 1 and idx.autoload:  # declared twice: the file composer.json's rules load
            chosen = self._autoloaded(idx, fqn.lower(), hits)
            if chosen is not None:
                return chosen
        if len(hits) > 1:  # declared twice (stubs, polyfills): the file PSR-4 would load, if one is
            depth = {n.id: _psr4_depth(n, fqn) for n in hits}
            best = max(depth.values())
            hits = [n for n in hits if depth[n.id] == best] if best else []
            if len({n.file_path for n in hits}) == 1:  # `if (…) { class A … } else { class A … }`
                hits = hits[:1]
        return hits[0] if len(hits) == 1 else None

    def _autoloaded(self, idx: _Index, fqn: str, hits: list[Node]) -> Node | None:
        """Among ``hits`` (definitions of the class ``fqn``, lower case), the one Composer's autoloader
        would load: per composer.json, the first of its rules (in loading order) whose file is one of
        theirs. None when no composer.json decides, or when two decide differently (two packages
        of one tree mapping the same prefix): then the path heuristic decides, as without one.
        Only ever a choice among classes declared with that name, so a rule mapping the prefix
        elsewhere (or a file at the rule's path declaring another namespace) makes no edge."""
        by_path: dict[str, Node] = {}
        for n in hits:
            by_path.setdefault(n.file_path.lower(), n)
        name = fqn.lstrip("\\")
        chosen: set[str] = set()
        for rules in idx.autoload:
            for rule in rules:
                path = rule.path_of(name)
                if path is not None and path in by_path:
                    chosen.add(path)
                    break
        return by_path[chosen.pop()] if len(chosen) == 1 else None

    def _function(self, idx: _Index, fqn: str) -> Node | None:
        hits = [n for n in idx.by_fqn.get(fqn.lower(), ()) if n.kind == "function"]
        return hits[0] if len(hits) == 1 else None

    def namespace_at(self, project, path: str, line: int) -> str:
        ns = ""
        for start, name in project.lang_state["php"].namespaces.get(path, ()):
            if start <= line:
                ns = name
        return ns

    def ancestors(self, idx: _Index, class_id: str) -> list[str]:
        """The class, its traits, its parents (each with their traits), then every interface."""
        cached = idx.ancestors_memo.get(class_id)
        if cached is not None:
            return cached
        order: list[str] = []
        interfaces: list[str] = []
        seen: set[str] = set()

        def walk(cid: str) -> None:
            if cid in seen or len(seen) > 64:
                return
            seen.add(cid)
            order.append(cid)
            for t in idx.traits.get(cid, ()):
                walk(t)
            for p in idx.parents.get(cid, ()):
                walk(p)
            interfaces.extend(idx.interfaces.get(cid, ()))

        walk(class_id)
        queue = list(interfaces)
        while queue:
            cid = queue.pop(0)
            if cid in seen or len(seen) > 64:
                continue
            seen.add(cid)
            order.append(cid)
            queue.extend(idx.parents.get(cid, ()))  # interface extends
            queue.extend(idx.interfaces.get(cid, ()))
        idx.ancestors_memo[class_id] = order
        return order

    def member(self, project, class_id: str, name: str, kinds=("method",)) -> Node | None:
        idx: _Index = project.lang_state["php"]
        lower = name.lower()
        for cid in self.ancestors(idx, class_id):
            members = project.children.get(cid, {})
            hits = [n for n in members.get(name, ()) if n.kind in kinds]
            if not hits and "method" in kinds:
                hits = [
                    n for key, ns in members.items() if key.lower() == lower for n in ns if n.kind in kinds
                ]
            if hits:
                return hits[-1]
        return None

    def property_type(self, project, class_id: str, prop: str, depth: int) -> Node | None:
        """The class a property holds: the one type its declarations and assignments agree on."""
        idx: _Index = project.lang_state["php"]
        for cid in self.ancestors(idx, class_id):
            facts = project.types.get(cid, {}).get(f"$this.{prop}")
            if facts:
                return self._agree(project, cid, facts, depth)
        return None

    def _agree(self, project, scope_id: str, facts, depth: int, line: int | None = None) -> Node | None:
        """The one class every fact gives (each evaluated where it was stated), else None. With
        ``line`` (a use of a local), only the facts stated on earlier lines count."""
        found = {}
        kept = []
        narrowed = None
        for fact in facts:
            if fact.startswith("@R"):  # an instanceof check around the use wins, the innermost one
                span, _, cls = fact[2:].partition(":")
                first, _, last = span.partition("-")
                if line is not None and int(first) <= line <= int(last):
                    if narrowed is None or int(first) >= narrowed[0]:
                        narrowed = (int(first), cls)
        if narrowed is not None and line is not None:  # narrowing is only recorded with a line
            reassigned = any(
                f.startswith("@")
                and not f.startswith("@R")
                and narrowed[0] <= int(f[1:].partition(":")[0]) < line
                for f in facts
            )
            if not reassigned:
                return self._class(project.lang_state["php"], narrowed[1])
        for fact in facts:
            if fact.startswith("@R"):
                continue
            at = None
            if fact.startswith("@"):
                head, _, fact = fact.partition(":")
                at = int(head[1:])
            if line is not None and at and at >= line:
                continue
            kept.append((at or None, fact))
        if not kept:
            return None
        for at, fact in kept:
            path = project.nodes[scope_id].file_path if not scope_id.startswith("file:") else scope_id[5:]
            cls = self.type_of(project, path, scope_id, fact, depth + 1, at)
            if cls is None:
                return None
            found[cls.id] = cls
        return next(iter(found.values())) if len(found) == 1 else None

    def enclosing(self, project, source_id: str) -> Node | None:
        for n in project.scopes(source_id):
            if n.kind in CLASS_KINDS:
                return n
        return None

    def type_of(
        self, project, path: str, source_id: str, expr: str, depth: int = 0, line: int | None = None
    ) -> Node | None:
        """The class an expression (in the receiver notation) evaluates to at ``line``, or None."""
        if depth > 12 or not expr:
            return None
        idx: _Index = project.lang_state["php"]
        if expr in ("$this", "self", "static"):
            return self.enclosing(project, source_id)
        if expr == "parent":
            cls = self.enclosing(project, source_id)
            parents = idx.parents.get(cls.id, ()) if cls is not None else ()
            return project.nodes[parents[0]] if parents else None
        if expr.startswith("new ") and "." not in expr:
            return self._class(idx, expr[4:])
        if expr.endswith("()"):
            target = self.call_target(project, path, source_id, expr[:-2], depth + 1, line)
            if target is None:
                return None
            recv = expr[:-2].rpartition(".")[0]
            recv_cls = self.type_of(project, path, source_id, recv, depth + 1, line) if recv else None
            return self.return_class(project, target, recv_cls, depth + 1)
        if expr.startswith("\\") and "." not in expr:
            return self._class(idx, expr)
        if expr.startswith("$") and "." not in expr:
            for scope in project.scopes(source_id):
                if scope.kind not in ("function", "method"):
                    continue
                facts = project.types.get(scope.id, {}).get(expr)
                if facts:
                    return self._agree(project, scope.id, facts, depth, line)
            facts = project.types.get(f"file:{path}", {}).get(expr)
            return self._agree(project, f"file:{path}", facts, depth, line) if facts else None
        recv, _, prop = expr.rpartition(".")
        if not recv:
            return None
        cls = self.type_of(project, path, source_id, recv, depth + 1, line)
        if cls is None:
            return None
        if prop.startswith("$"):  # X::$prop, a static property: its declared type (no enum case)
            return self.property_type(project, cls.id, prop[1:], depth + 1)
        if recv.startswith("\\") or recv in ("self", "static"):
            case = self.member(project, cls.id, prop, kinds=("enum_member",))
            if case is not None:
                return cls
        return self.property_type(project, cls.id, prop, depth + 1)

    def return_class(self, project, fn: Node, recv_cls: Node | None, depth: int) -> Node | None:
        """The class ``fn`` returns: its declared type, else the one type every return agrees on;
        ``self``/``static``/``$this`` mean the receiver's class."""
        key = (fn.id, recv_cls.id if recv_cls is not None else None)
        idx: _Index = project.lang_state["php"]
        if key in idx.returns_memo:
            return idx.returns_memo[key]
        idx.returns_memo[key] = None
        facts = project.returns.get(fn.id, ())
        found: Node | None = None
        own = self.enclosing(project, fn.id)
        declared = [f for f in facts if f == "self" or f.startswith("\\")]
        if declared:
            first = declared[0]
            found = (recv_cls or own) if first == "self" else self._class(idx, first)
            if found is not None and found.kind == "interface" and recv_cls is None:
                pass
        elif facts:
            classes: dict[str, Node] = {}
            for fact in facts:
                if fact == "self":
                    cls = recv_cls or own
                elif fact == "unknown":
                    cls = None
                else:
                    cls = self.type_of(project, fn.file_path, fn.id, fact, depth + 1)
                if cls is None:
                    classes = {}
                    break
                classes[cls.id] = cls
            found = next(iter(classes.values())) if len(classes) == 1 else None
        idx.returns_memo[key] = found
        return found

    def call_target(
        self, project, path: str, source_id: str, callee: str, depth: int = 0, line: int | None = None
    ) -> Node | None:
        """The method or function a callee (``recv.m`` or a function name) names."""
        idx: _Index = project.lang_state["php"]
        recv, _, method = callee.rpartition(".")
        if not recv:
            return self._function_call(project, path, source_id, callee)[0]
        if recv.startswith("<"):
            return None
        if recv == "parent":
            cls = self.enclosing(project, source_id)
            for p in idx.parents.get(cls.id, ()) if cls is not None else ():
                hit = self.member(project, p, method)
                if hit is not None:
                    return hit
            return None
        cls = self.type_of(project, path, source_id, recv, depth + 1, line)
        return self.member(project, cls.id, method) if cls is not None else None

    def _function_call(self, project, path: str, source_id: str, name: str) -> tuple[Node | None, str]:
        idx: _Index = project.lang_state["php"]
        if name.startswith("\\"):
            hit = self._function(idx, name)
            return (hit, "qualified") if hit is not None else (None, "")
        line = project.nodes[source_id].start_line if not source_id.startswith("file:") else 0
        ns = self.namespace_at(project, path, line) if line else (idx.namespaces.get(path) or [(0, "")])[0][1]
        if ns:
            hit = self._function(idx, _fqn(ns, name))
            if hit is not None:
                return hit, "namespace"
        if name.lower() in BUILTINS_LOWER:
            return None, ""
        hit = self._function(idx, _fqn("", name))
        return (hit, "global") if hit is not None else (None, "")

    # ------------------------------------------------------------ the hook
    def resolve_ref(self, project, path: str, ref):
        idx: _Index = project.lang_state["php"]
        if ref.kind in ("extends", "implements"):
            target = self._class(idx, ref.name)
            return (target, "qualified") if target is not None else (None, "")
        if ref.kind == "instantiates":
            if ref.name in ("self", "static"):
                cls = self.enclosing(project, ref.source)
                return (cls, "self") if cls is not None else (None, "")
            if ref.name == "parent":
                cls = self.enclosing(project, ref.source)
                parents = idx.parents.get(cls.id, ()) if cls is not None else ()
                return (project.nodes[parents[0]], "parent") if parents else (None, "")
            target = self._class(idx, ref.name)
            return (
                (target, "qualified")
                if target is not None and target.kind in ("class", "enum")
                else (None, "")
            )
        if ref.kind != "calls":
            return None
        if ref.receiver is None:
            return self._function_call(project, path, ref.source, ref.name)
        target = self.call_target(project, path, ref.source, ref.name, 0, ref.line)
        if target is None:
            return None, ""
        recv = ref.receiver
        how = (
            "self"
            if recv in ("$this", "self", "static")
            else "parent"
            if recv == "parent"
            else "qualified"
            if recv.startswith("\\") and ".$" not in recv  # Registry::$default is typed by its property
            else "type-inference"
        )
        return target, how


LANGUAGES = (Php(),)
