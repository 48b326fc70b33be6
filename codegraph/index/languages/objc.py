"""Objective-C (``objc``: ``.m``, and ``.h`` headers that declare Objective-C) and Objective-C++
(``objcpp``: ``.mm``).

Both parse with the ``objc`` grammar, a superset of C's: the C parts (functions, structs, enums,
typedefs, macros, ``#include``/``#import``, calls) are read by the C extractor, so C and
Objective-C are one family and see each other's headers. There is no Objective-C++ grammar in the
language pack: in a ``.mm`` file the C++ parts (namespaces, classes, templates, ``std::`` calls)
come out as ERROR nodes, so what they define is lost and calls inside them are only found where
the grammar still recognises a ``call_expression`` or a message; the Objective-C classes and
methods around them are kept. A ``.h`` goes to Objective-C when its text has ``@interface``,
``@implementation``, ``@protocol``, ``@class`` or an ``#import`` of an Apple framework (to
Objective-C++ when it also looks like C++), else to C or C++ as before (see ``cfamily.py``).

Before parsing, macro calls standing where a method belongs inside ``@implementation`` are
rewritten into the methods they write (``RCT_EXPORT_METHOD(sel:(T)x)`` → ``- (void)sel:(T)x``;
see ``_objc_source``), then the C clean-ups run.

Definitions: ``@interface`` (categories and class extensions too: a node named after the class,
its signature says which), ``@implementation``, ``@protocol`` (kind protocol), methods named by
their selector (``initWithFrame:bridge:``; ``+`` methods are static), ``@property`` (kind
property), plus the C definitions. A method declared in an ``@interface`` has a signature ending
with ``;``.

Resolution of a message ``[recv sel:…]`` (everything else is C's): the receiver gives the class
and whether an instance or a class method is meant — ``self`` (the enclosing class; the class
itself in a ``+`` method), ``super`` (its superclass), a class name (class methods), a local,
``for … in`` variable, parameter, instance variable or property typed ``Foo *`` (instance
methods), ``[Foo alloc]``/``[Foo new]`` (an instance). The selector is looked up in that class's
``@implementation``s and categories, then its ``@interface``s, then up the superclass chain; a
definition wins over a declaration, and two different definitions leave the call unresolved. A
class outside the project (``UIView``, ``NSObject``) ends the lookup: unresolved, unless the
project adds a category to it (``UIView (React)``), whose methods are then found. Class names are
global in Objective-C (the runtime needs them unique), so a class name means the project's class
of that name when there is one, imported or not. ``[Foo alloc]`` and ``[Foo new]`` instantiate ``Foo``.
"""

from __future__ import annotations

from collections import defaultdict

from codegraph.index.extract import squash, text
from codegraph.index.languages._objc_source import objc_source
from codegraph.index.languages.cfamily import C_BUILTINS, CFamily, CFamilyExtractor, _prev_comments
from codegraph.model import Node, node_id

# Foundation / UIKit / libdispatch functions: never project definitions unless the project
# declares them.
OBJC_BUILTINS = C_BUILTINS | frozenset(
    """
NSLog NSLogv NSAssert NSCAssert NSParameterAssert NSStringFromClass NSClassFromString NSStringFromSelector
NSSelectorFromString NSStringFromProtocol NSProtocolFromString NSMakeRange NSMaxRange NSLocationInRange
NSEqualRanges NSStringFromRange NSStringFromCGRect NSStringFromCGSize NSStringFromCGPoint NSLocalizedString
NSHomeDirectory NSTemporaryDirectory NSSearchPathForDirectoriesInDomains CGRectMake CGSizeMake CGPointMake
CGRectZero CGRectGetMinX CGRectGetMinY CGRectGetMaxX CGRectGetMaxY CGRectGetMidX CGRectGetMidY
CGRectGetWidth CGRectGetHeight CGRectEqualToRect CGSizeEqualToSize CGPointEqualToPoint CGRectInset
CGRectIsEmpty CGRectIsNull CGRectIntersectsRect CGRectContainsPoint CGRectOffset CGRectIntegral
CGAffineTransformMakeScale CGAffineTransformMakeTranslation CGAffineTransformIdentity CGColorRelease
CGColorRetain CFRelease CFRetain CFBridgingRelease CFBridgingRetain UIEdgeInsetsMake UIEdgeInsetsEqualToEdgeInsets
UIGraphicsBeginImageContextWithOptions UIGraphicsGetCurrentContext UIGraphicsEndImageContext
UIGraphicsGetImageFromCurrentImageContext UIAccessibilityPostNotification dispatch_async dispatch_sync
dispatch_after dispatch_once dispatch_get_main_queue dispatch_get_global_queue dispatch_queue_create
dispatch_time dispatch_semaphore_create dispatch_semaphore_wait dispatch_semaphore_signal dispatch_group_create
dispatch_group_enter dispatch_group_leave dispatch_group_notify dispatch_group_wait dispatch_block_create
objc_getAssociatedObject objc_setAssociatedObject object_getClass class_getName class_getInstanceMethod
class_addMethod class_replaceMethod method_exchangeImplementations method_getImplementation sel_getName
sel_registerName objc_msgSend protocol_getName class_conformsToProtocol class_respondsToSelector
class_getSuperclass class_copyMethodList objc_getClass objc_getProtocol __weak __strong __block
@selector @encode @protocol MIN MAX ABS CLAMP
""".split()
)
APPLE_FRAMEWORKS = frozenset(
    """
Foundation UIKit AppKit Cocoa CoreFoundation CoreGraphics QuartzCore CoreText CoreImage CoreVideo
CoreMedia AVFoundation AVKit Metal MetalKit WebKit SafariServices Security SystemConfiguration
MobileCoreServices UniformTypeIdentifiers CoreLocation MapKit Photos PhotosUI UserNotifications
ImageIO Accelerate GLKit OpenGLES SpriteKit SceneKit ARKit CoreML Vision objc os dispatch XCTest
""".split()
)
SELF_NAMES = frozenset({"self"})
SUPER_NAMES = frozenset({"super"})
MESSAGE = "objc-message"  # Ref.args of a message send (the resolver tells it from a C call by this)
# A receiver that stands for an instance of a class: ``[Foo alloc]``, ``[Foo new]``
MAKERS = ("alloc", "new")
NOT_A_CLASS = frozenset({"id", "instancetype", "Class", "SEL", "IMP", "BOOL", "void"})
MAX_SUPERS = 32
MAX_CHAIN = 4  # nested unary messages kept in a receiver's text: [[[self class] shared] x]


def _name(ts):
    """The class/protocol name of an @interface, @implementation or @protocol."""
    return next((c for c in ts.named_children if c.type == "identifier"), None)


def selector(ts) -> str | None:
    """The selector of a method declaration/definition or of a message: ``initWithFrame:bridge:``
    for keyword parts, ``reload`` for a unary one."""
    if ts.type == "message_expression":
        parts = [text(c) for c in ts.children_by_field_name("method")]
        keyword = any(c.type == ":" for c in ts.children)
    else:
        parts, keyword = [], False
        for c in ts.children:
            if c.type == "identifier":
                parts.append(text(c))
            elif c.type == "method_parameter":
                keyword = True
            elif c.type in ("compound_statement", ";"):
                break
    if not parts:
        return None
    return "".join(p + ":" for p in parts) if keyword else parts[0]


def _type_of(method_type) -> str | None:
    """``Foo`` from a ``(Foo *)`` method type or a declaration's type; None for ``id``/primitives."""
    if method_type is None:
        return None
    for n in (method_type, *method_type.named_children):
        if n.type == "type_name":
            n = next((c for c in n.named_children if c.type == "type_identifier"), None)
            if n is None:
                return None
        if n.type == "type_identifier":
            name = text(n)
            return None if name in NOT_A_CLASS else name
    return None


class ObjcExtractor(CFamilyExtractor):
    """The C extractor plus Objective-C's classes, methods, properties and messages."""

    def run(self):
        self.source = objc_source(self.source)
        self._heads: dict[tuple[int, str], str] = {}  # (start byte, name) of a class → its header line
        return _c_functions_to_file_scope(super().run(), self.defs)

    def handle(self, capture: str, ts) -> None:
        if capture == "definition.interface":
            self._container(ts, "class", "@interface")
        elif capture == "definition.implementation":
            self._container(ts, "class", "@implementation")
        elif capture == "definition.protocol":
            self._container(ts, "protocol", "@protocol")
        elif capture in ("definition.method", "definition.method_declaration"):
            self._method(ts)
        elif capture == "definition.property":
            self._property(ts)
        elif capture == "reference.message":
            self._message(ts)
        elif capture == "local.ivar":
            self._ivar(ts)
        elif capture == "local.for_in":
            self._for_in(ts)
        else:
            if capture == "declaration":
                self._local_types(ts)
            super().handle(capture, ts)

    # ------------------------------------------------------------ definitions
    def _container(self, ts, kind: str, keyword: str) -> None:
        name = _name(ts)
        if name is None:
            return
        category = ts.child_by_field_name("category")
        d = self.add_def(ts, kind, name)
        if d is None:
            return
        head = f"{keyword} {text(name)}"
        if category is not None:
            head += f" ({text(category)})"
        elif kind == "class" and self.source[name.end_byte : name.end_byte + 40].lstrip().startswith(b"()"):
            head += " ()"
        superclass = ts.child_by_field_name("superclass")
        if superclass is not None:
            head += f" : {text(superclass)}"
            self.base_ref(d, "extends", text(superclass), superclass)
        for c in ts.named_children:
            if c.type in ("parameterized_arguments", "protocol_reference_list"):
                for p in c.named_children:
                    ident = (
                        p
                        if p.type == "identifier"
                        else next(
                            (x for x in p.named_children if x.type in ("type_identifier", "identifier")), None
                        )
                    )
                    if ident is not None:
                        self.base_ref(d, "implements", text(ident), ident)
                head += " " + squash(text(c), 80)
        self._heads[(d.start, d.name)] = head

    def _method(self, ts) -> None:
        sel = selector(ts)
        if sel is None:
            return
        d = self.add_def(ts, "function", None, name=sel)
        if d is None:
            return
        body = next((c for c in ts.named_children if c.type == "compound_statement"), None)
        if body is not None:
            for p in ts.named_children:
                if p.type == "method_parameter":
                    tname = _type_of(next((c for c in p.named_children if c.type == "method_type"), None))
                    pname = next((c for c in p.named_children if c.type == "identifier"), None)
                    if pname is not None:
                        self.local_name(body, text(pname))
                        if tname:
                            self.type_fact(body, text(pname), tname)

    def _property(self, ts) -> None:
        decl = next((c for c in ts.named_children if c.type == "struct_declaration"), None)
        if decl is None:
            return
        tname = None
        typ = next((c for c in decl.named_children if c.type == "type_identifier"), None)
        if typ is not None and text(typ) not in NOT_A_CLASS:
            tname = text(typ)
        for sd in decl.named_children:
            if sd.type != "struct_declarator":
                continue
            ident = next((x for x in _walk_named(sd) if x.type == "identifier"), None)
            if ident is None:
                continue
            d = self.add_def(ts, "property", ident)
            if d is not None and tname:
                anchor = ts.parent if ts.parent is not None else ts
                self.type_fact(anchor, f"self.{text(ident)}", tname)
                self.type_fact(anchor, f"_{text(ident)}", tname)

    def _ivar(self, ts) -> None:
        """``{ Foo *_foo; }`` after ``@interface``/``@implementation``: ``_foo`` holds a ``Foo``
        in the class's methods."""
        decl = next((c for c in ts.named_children if c.type == "struct_declaration"), None)
        typ = next((c for c in decl.named_children if c.type == "type_identifier"), None) if decl else None
        if decl is None or typ is None or text(typ) in NOT_A_CLASS:
            return
        for sd in decl.named_children:
            if (
                sd.type == "struct_declarator"
                and sd.named_child_count
                and sd.named_children[0].type == ("pointer_declarator")
            ):
                ident = sd.named_children[0].child_by_field_name("declarator")
                if ident is not None and ident.type == "identifier":
                    self.type_fact(ts, text(ident), text(typ))

    def _for_in(self, ts) -> None:
        """``for (Foo *x in items)``: ``x`` holds a ``Foo``."""
        typ = ts.child_by_field_name("type")
        ptr = next((c for c in ts.named_children if c.type == "pointer_declarator"), None)
        if typ is None or ptr is None or typ.type != "type_identifier" or text(typ) in NOT_A_CLASS:
            return
        ident = ptr.child_by_field_name("declarator")
        if ident is not None and ident.type == "identifier":
            self.type_fact(ts, text(ident), text(typ))
            self.local_name(ts, text(ident))

    def _local_types(self, ts) -> None:
        """``Foo *x = …;`` in a function or method body: ``x`` holds a ``Foo``."""
        typ = ts.child_by_field_name("type")
        if typ is None or typ.type != "type_identifier" or text(typ) in NOT_A_CLASS:
            return
        if ts.parent is None or ts.parent.type not in ("compound_statement", "for_statement"):
            return
        for decl in ts.children_by_field_name("declarator"):
            d = decl.child_by_field_name("declarator") if decl.type == "init_declarator" else decl
            if d is not None and d.type == "pointer_declarator":
                ident = d.child_by_field_name("declarator")
                if ident is not None and ident.type == "identifier":
                    self.type_fact(ts, text(ident), text(typ))
                    self.local_name(ts, text(ident))

    # ------------------------------------------------------------ references
    def _message(self, ts) -> None:
        sel = selector(ts)
        recv = ts.child_by_field_name("receiver")
        if sel is None or recv is None:
            return
        shown = _receiver_text(recv)
        self.pending_refs.append(
            (
                ts.start_byte,
                "calls",
                f"{shown}.{sel}",
                ts.start_point[0] + 1,
                ts.start_point[1],
                shown,
                MESSAGE,
            )
        )
        if sel in MAKERS and recv.type == "identifier" and text(recv) not in SELF_NAMES | SUPER_NAMES:
            self.pending_refs.append(
                (
                    recv.start_byte,
                    "instantiates",
                    text(recv),
                    recv.start_point[0] + 1,
                    recv.start_point[1],
                    None,
                    MESSAGE,
                )
            )

    # ------------------------------------------------------------ details
    def filter_defs(self, defs):
        """C's rule (a prototype the file also defines is dropped) for the C definitions only:
        a method declared in an ``@interface`` and defined in the ``@implementation`` keeps both."""
        methods = [d for d in defs if d.ts.type in ("method_definition", "method_declaration")]
        ids = {id(d) for d in methods}
        kept = {id(d) for d in super().filter_defs([d for d in defs if id(d) not in ids])}
        return [d for d in defs if id(d) in kept or id(d) in ids]

    def node_details(self, node: Node, d) -> None:
        ts = d.ts
        if ts.type in ("method_definition", "method_declaration"):
            body = next((c for c in ts.children if c.type == "compound_statement"), None)
            head_end = body.start_byte if body is not None else ts.end_byte
            sig = squash(self.source[ts.start_byte : head_end].decode("utf-8", "replace"))
            if ts.type == "method_declaration" and not sig.endswith(";"):
                sig += ";"
            node.signature = sig
            node.is_static = sig.startswith("+")
            ret = next((c for c in ts.named_children if c.type == "method_type"), None)
            node.return_type = squash(text(ret).strip("() "), 120) if ret is not None else None
            node.docstring = _prev_comments(ts)
            return
        if ts.type in ("class_interface", "class_implementation", "protocol_declaration"):
            node.signature = self._heads.get((d.start, d.name))
            node.docstring = _prev_comments(ts)
            return
        if ts.type == "property_declaration":
            node.signature = squash(text(ts), 200)
            node.docstring = _prev_comments(ts)
            return
        super().node_details(node, d)


def _c_functions_to_file_scope(out, defs):
    """A C function written between the methods of an ``@implementation`` (a ``static`` helper)
    is still a file-level C function, not a method: move it (and its id, which names its kind)
    out of the class."""
    file_id = f"file:{out.path}"
    moved: dict[str, str] = {}
    for d in defs:
        n = d.node
        if n is None or d.ts.type != "function_definition" or n.kind != "method":
            continue
        new = node_id(out.path, "function", n.name, n.start_line)
        moved[n.id] = new
        n.id, n.kind, n.qualified_name = new, "function", n.name
    if not moved:
        return out

    def m(nid: str) -> str:
        return moved.get(nid, nid)

    out.contains = [(file_id if c in moved else m(p), m(c)) for p, c in out.contains]
    for r in out.refs:
        r.source = m(r.source)
    out.assigned_types = [(m(a), b, c) for a, b, c in out.assigned_types]
    out.returns = [(m(a), b) for a, b in out.returns]
    out.locals = [(m(a), b) for a, b in out.locals]
    out.closures = [(m(a), m(b)) for a, b in out.closures]
    out.owners = [(m(a), b) for a, b in out.owners]
    return out


def _walk_named(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.named_children))


def _receiver_text(recv, depth: int = 0) -> str:
    """How a receiver is written in a reference: ``self``, ``Foo``, ``self.bridge``, ``_bridge``,
    a unary message to one of those (``[Foo alloc]``, ``[[self class] sharedInstance]``);
    ``<expr>`` for anything else."""
    t = recv.type
    if t == "identifier":
        return text(recv)
    if t == "field_expression":
        arg, field = recv.child_by_field_name("argument"), recv.child_by_field_name("field")
        if arg is not None and field is not None and arg.type == "identifier" and text(arg) in SELF_NAMES:
            return f"self.{text(field)}"
    if t == "message_expression" and depth < MAX_CHAIN:
        inner = recv.child_by_field_name("receiver")
        sel = selector(recv)
        if inner is not None and sel is not None and ":" not in sel:
            shown = _receiver_text(inner, depth + 1)
            if shown != "<expr>":
                return f"[{shown} {sel}]"
    return "<expr>"


# ---------------------------------------------------------------------------------------------------
class _Classes:
    """Every Objective-C class and protocol of the project by name: its nodes (interfaces,
    categories, implementations), superclass and protocols."""

    def __init__(self, project):
        self.parts: dict[str, list[Node]] = defaultdict(list)
        self.headers: dict[str, list[str]] = defaultdict(list)  # file name → C-family headers
        for path, lang in project.lang.items():
            if lang.family == "c" and path.endswith(".h"):
                self.headers[path.rsplit("/", 1)[-1]].append(path)
        self.protocols: dict[str, list[Node]] = defaultdict(list)
        self.superclass: dict[str, str] = {}
        self.adopts: dict[str, list[str]] = defaultdict(list)
        for path in project.files:
            if not isinstance(project.lang[path], Objc):
                continue  # not read (a lazily filled project leaves the C files unread; issue 12)
            f = project.files[path]
            for n in f.nodes:
                if n.kind == "class" and (n.signature or "").startswith(("@interface", "@implementation")):
                    self.parts[n.name].append(n)
                elif n.kind == "protocol":
                    self.protocols[n.name].append(n)
            for ref in f.refs:
                if ref.kind not in ("extends", "implements"):
                    continue
                owner = project.nodes.get(ref.source)
                if owner is None:
                    continue
                if ref.kind == "extends" and owner.kind == "class":
                    self.superclass.setdefault(owner.name, ref.name)
                elif ref.kind == "implements":
                    self.adopts[owner.name].append(ref.name)

    def primary(self, name: str) -> Node | None:
        """The node that stands for a class: its ``@interface`` (not a category), else its one
        ``@implementation``; a protocol's one declaration."""
        parts = self.parts.get(name)
        if parts:
            main = [
                n
                for n in parts
                if (n.signature or "").startswith("@interface") and "(" not in (n.signature or "")
            ]
            if len(main) == 1:
                return main[0]
            impl = [n for n in parts if (n.signature or "").startswith("@implementation")]
            impl = [n for n in impl if "(" not in (n.signature or "")]
            return impl[0] if len(impl) == 1 else None
        protos = self.protocols.get(name)
        return protos[0] if protos is not None and len(protos) == 1 else None

    def method(self, project, cls: str, sel: str, static: bool) -> tuple[Node | None, bool]:
        """(the method ``sel`` of class ``cls`` or its superclasses, decided): decided is False
        when the chain leaves the project before finding it, or two definitions compete."""
        seen: set[str] = set()
        name: str | None = cls
        while name and name not in seen and len(seen) < MAX_SUPERS:
            seen.add(name)
            parts = self.parts.get(name) or self.protocols.get(name)
            if not parts:
                return None, False
            defs: list[Node] = []
            decls: list[Node] = []
            for part in parts:
                for m in project.children.get(part.id, {}).get(sel, ()):
                    if m.kind != "method" or bool(m.is_static) != static:
                        continue
                    (decls if (m.signature or "").endswith(";") else defs).append(m)
            if len({m.id for m in defs}) > 1 and not _alternatives(project, defs):
                return None, False
            if defs:
                return defs[0], True
            if decls:
                return sorted(decls, key=lambda m: (not m.file_path.endswith(".h"), m.file_path))[0], True
            name = self.superclass.get(name)
        return None, False


def _alternatives(project, defs: list[Node]) -> bool:
    """Are competing definitions of one selector the branches of an ``#if``: one file, each in its
    own main ``@implementation`` of the class (two of those cannot both be compiled)? Then the
    first in the file stands for them (the branch a build without flags keeps)."""
    if len({m.file_path for m in defs}) != 1:
        return False
    blocks = [project.nodes.get(project.parent.get(m.id, "")) for m in defs]
    if any(b is None or b.signature is None or "(" in b.signature for b in blocks):
        return False
    if not all(b.signature.startswith("@implementation") for b in blocks):
        return False
    defs.sort(key=lambda m: m.start_line)
    return len({b.id for b in blocks}) == len(blocks)


class Objc(CFamily):
    label = "objc"
    grammar = "objc"
    name = "Objective-C"
    extensions = (".m",)
    builtins = OBJC_BUILTINS
    self_names = SELF_NAMES
    super_names = SUPER_NAMES
    implicit_members = False  # a bare name is a C function: methods are reached by messages only
    test_suffixes = ("tests.m", "test.m", "tests.mm", "test.mm")
    extractor = ObjcExtractor
    extracts = (
        "@interface/@implementation/categories/@protocol, methods named by selector, @property, "
        "C functions/structs/enums/typedefs/macros, doc comments, signatures; RCT_* method macros"
    )
    resolution = (
        "#import/#include like C; messages by receiver: self/super/class name/typed local, param "
        "or property/[Foo alloc], up the superclass chain; [Foo alloc]/[Foo new] instantiate"
    )

    def prepare(self, project, files) -> None:
        super().prepare(project, files)
        if "objc" not in project.lang_state:
            project.lang_state["objc"] = _Classes(project)

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        """C's include rules, then a framework-style ``<React/RCTBridge.h>`` (a framework's
        headers are flat: ``Framework.framework/Headers/RCTBridge.h``) as the one project header
        of that file name; Apple's frameworks (``<UIKit/UIKit.h>``) are no project file."""
        hit = super().resolve_module(project, from_path, spec)
        if hit is not None or not spec.startswith("<") or spec.count("/") != 1:
            return hit
        framework, _, header = spec.strip("<>").partition("/")
        if framework in APPLE_FRAMEWORKS or not header.endswith(".h"):
            return None
        headers = project.lang_state["objc"].headers.get(header, ())
        return headers[0] if len(headers) == 1 else None

    def resolve_ref(self, project, path: str, ref):
        if ref.args != MESSAGE and ref.kind not in ("extends", "implements"):
            return None
        classes: _Classes = project.lang_state["objc"]
        if ref.kind in ("extends", "implements", "instantiates"):
            target = classes.primary(ref.name)
            if target is None:
                return None, ""
            if ref.kind == "implements" and target.kind != "protocol":
                return None, ""
            return target, "objc-class"
        recv = ref.receiver or ""
        sel = ref.name[len(recv) + 1 :]
        cls, static = self._receiver_class(project, classes, ref, recv)
        if cls is None:
            return None, ""
        target, decided = classes.method(project, cls, sel, static)
        return (target, "objc-message") if decided and target is not None else (None, "")

    def _receiver_class(self, project, classes: _Classes, ref, recv: str) -> tuple[str | None, bool]:
        """(class name, class method?) a message's receiver stands for."""
        method = project.nodes.get(ref.source)
        in_class_method = method is not None and method.kind == "method" and bool(method.is_static)
        if recv in SELF_NAMES or recv in SUPER_NAMES:
            cls = project.enclosing_class(ref.source)
            if cls is None:
                return None, False
            if recv in SUPER_NAMES:
                return classes.superclass.get(cls.name), in_class_method
            return cls.name, in_class_method
        if recv.startswith("[") and recv.endswith("]"):
            inner, _, sel = recv[1:-1].rpartition(" ")
            cls, static = self._receiver_class(project, classes, ref, inner)
            if cls is None:
                return None, False
            if sel == "class":
                return cls, True
            if sel in MAKERS:
                return cls, False
            # a method that returns an instance: ``instancetype`` (of the receiver's class) or ``Foo *``
            made, decided = classes.method(project, cls, sel, static)
            if not decided or made is None:
                return None, False
            ret = (
                (made.return_type or "")
                .replace("*", "")
                .replace("nullable", "")
                .replace("nonnull", "")
                .strip()
            )
            if ret == "instancetype":
                return cls, False
            if ret in classes.parts:
                return ret, False
            return None, False
        typed = self._declared_type(project, ref, recv)
        if typed is not None:
            return typed, False
        if recv.startswith("self.") or recv.startswith("_"):
            return None, False
        if recv[:1].isupper() and (recv in classes.parts or recv in classes.protocols):
            if any(recv in project.locals.get(s.id, ()) for s in project.scopes(ref.source)):
                return None, False
            return recv, True
        return None, False

    def _declared_type(self, project, ref, var: str) -> str | None:
        """The class a local, parameter (``Foo *x``) or property (``self.x``, ``_x``) is declared
        with; None when nothing (or more than one type) is stated."""
        for scope in project.scopes(ref.source):
            types = project.types.get(scope.id, {}).get(var)
            if types:
                return next(iter(types)) if len(types) == 1 else None
            if var in project.locals.get(scope.id, ()):
                return None
        if var.startswith("self.") or var.startswith("_"):
            cls = project.enclosing_class(ref.source)
            classes: _Classes = project.lang_state["objc"]
            if cls is None:
                return None
            found = set()
            for part in classes.parts.get(cls.name, ()):
                found.update(project.types.get(part.id, {}).get(var, ()))
            return next(iter(found)) if len(found) == 1 else None
        return None


class Objcpp(Objc):
    label = "objcpp"
    name = "Objective-C++"
    query = "objc.scm"
    extensions = (".mm",)
    extracts = (
        "as Objective-C (objc grammar: no Objective-C++ grammar exists); C++ namespaces, "
        "classes and templates degrade to ERROR nodes and are not extracted"
    )
    resolution = "as Objective-C; C++ calls only where the grammar still sees a C call"


LANGUAGES = (Objc(), Objcpp())
