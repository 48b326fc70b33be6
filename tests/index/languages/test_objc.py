"""Objective-C and Objective-C++ over fixtures/repos/objc and fixtures/repos/objcpp (a miniature
of React Native's React/: a bridge, views, a view manager with RCT_* macros, a C logging unit, a
.mm with C++ in it) through the real indexer. Every expected edge below was read from the
fixtures' source, not from the tool's output."""

from __future__ import annotations

import pytest

from codegraph.index.languages._objc_source import looks_like_objc, objc_source
from tests.index.languages.cfamily_helpers import index_fixture


@pytest.fixture(scope="module")
def g(tmp_path_factory):
    return index_fixture("objc", tmp_path_factory.mktemp("objc"))


@pytest.fixture(scope="module")
def gpp(tmp_path_factory):
    return index_fixture("objcpp", tmp_path_factory.mktemp("objcpp"))


def targets(g, file, line):
    return {(h.target, h.target_file) for h in g.calls_at(file, line)}


def test_headers_with_interfaces_are_objective_c_and_plain_headers_stay_c(g):
    assert g.language_of("Base/RCTBridge.h") == "objc"  # @interface, #import <Foundation/…>
    assert g.language_of("Views/RCTView.h") == "objc"
    assert g.language_of("Base/RCTLog.h") == "c"  # prototypes only
    assert g.language_of("Views/RCTScrollView.mm") == "objcpp"


def test_methods_are_named_by_their_selector_and_belong_to_their_class(g):
    (m,) = g.nodes("RCTBridge::initWithBundleName:launchOptions:", "method")[1:]  # header decl first
    assert m["file_path"] == "Base/RCTBridge.m" and m["name"] == "initWithBundleName:launchOptions:"
    (decl, _) = g.nodes("RCTBridge::currentBridge", "method")
    assert decl["signature"] == "+ (instancetype)currentBridge;" and decl["is_static"]


def test_interfaces_categories_implementations_and_protocols_are_nodes(g):
    sigs = {r["signature"] for r in g.nodes("RCTView", "class")}
    assert sigs == {
        "@interface RCTView : UIView",
        "@interface RCTView (Borders)",
        "@implementation RCTView",
        "@implementation RCTView (Borders)",
    }
    (proto,) = g.nodes("RCTInvalidating", "protocol")
    assert proto["file_path"] == "Base/RCTBridge.h"


def test_message_to_self_binds_to_the_method_defined_in_the_implementation(g):
    # RCTBridge.m:21 [self setUp] — declared in the class extension, defined at line 26
    assert targets(g, "Base/RCTBridge.m", 21) == {("RCTBridge::setUp", "Base/RCTBridge.m")}
    # RCTView.m:19 [self setBorderWidth:clamped] — a method of the Borders category
    assert targets(g, "Views/RCTView.m", 19) == {("RCTView::setBorderWidth:", "Views/RCTView.m")}


def test_message_to_super_walks_to_the_superclass_in_another_file(g):
    # RCTScrollView.mm:24 [super setBorderWidth:offset]; RCTScrollView : RCTView
    assert targets(g, "Views/RCTScrollView.mm", 24) == {("RCTView::setBorderWidth:", "Views/RCTView.m")}


def test_message_to_a_class_name_calls_its_class_method(g):
    # RCTView.m:30 [RCTBridge currentBridge]
    assert targets(g, "Views/RCTView.m", 30) == {("RCTBridge::currentBridge", "Base/RCTBridge.m")}


def test_typed_locals_parameters_and_properties_give_the_receiver_class(g):
    assert targets(g, "Views/RCTView.m", 11) == {("RCTBridge::reload", "Base/RCTBridge.m")}  # param
    assert targets(g, "Views/RCTView.m", 31) == {("RCTBridge::reload", "Base/RCTBridge.m")}  # local
    # RCTView.m:20 [self.bridge enqueueJSCall:…] — @property RCTBridge *bridge in RCTView.h
    assert targets(g, "Views/RCTView.m", 20) == {
        ("RCTBridge::enqueueJSCall:method:args:", "Base/RCTBridge.m")
    }


def test_instance_variables_and_for_in_variables_are_typed_receivers(g):
    # RCTViewRegistry.m: { RCTBridge *_bridge; }, for (RCTView *view in _views)
    assert targets(g, "Views/RCTViewRegistry.m", 14) == {("RCTBridge::reload", "Base/RCTBridge.m")}
    assert targets(g, "Views/RCTViewRegistry.m", 16) == {("RCTView::updateOpacity:", "Views/RCTView.m")}
    assert targets(g, "Views/RCTViewRegistry.m", 18) == set()  # NSArray's count


def test_alloc_instantiates_the_class_and_the_init_binds_to_its_initialiser(g):
    hits = {(h.kind, h.target, h.target_file) for h in g.calls_at("Views/RCTViewManager.m", 26)}
    assert hits == {
        ("instantiates", "RCTBridge", "Base/RCTBridge.h"),
        ("calls", "RCTBridge::initWithBundleName:launchOptions:", "Base/RCTBridge.m"),
    }


def test_sdk_methods_and_untyped_receivers_stay_unresolved(g):
    assert targets(g, "Views/RCTView.m", 21) == set()  # [self setNeedsLayout]: UIView's
    # [self.layer setBorderWidth:] is CALayer's, not RCTView's own setBorderWidth:
    assert targets(g, "Views/RCTView.m", 32) == set()
    assert "self.layer.setBorderWidth:" in g.unresolved("Views/RCTView.m", 32)
    assert targets(g, "Base/RCTBridge.m", 40) == set()  # NSLog is Foundation's


def test_c_functions_resolve_through_imported_headers_to_their_definition(g):
    assert targets(g, "Views/RCTView.m", 18) == {("RCTClamp", "Base/RCTLog.c")}
    assert targets(g, "Base/RCTBridge.m", 28) == {("RCTLogInfo", "Base/RCTLog.c")}


def test_rct_method_macros_become_methods_and_module_macros_vanish(g):
    names = {
        r["name"] for r in g.db.execute("SELECT name FROM nodes WHERE file_path = 'Views/RCTViewManager.m'")
    }
    assert {"focus:", "blur:", "init", "viewForTag:"} <= names
    assert not {n for n in names if n.startswith("RCT_")}
    assert targets(g, "Views/RCTViewManager.m", 16) == {("RCTView::updateOpacity:", "Views/RCTView.m")}


def test_interface_extends_its_superclass_and_implements_its_protocols(g):
    assert {(h.source_file, h.target) for h in g.edges("extends")} == {("Views/RCTScrollView.mm", "RCTView")}
    assert {(h.source, h.target) for h in g.edges("implements")} == {("RCTBridge", "RCTInvalidating")}


def test_objective_cpp_keeps_its_objc_parts_and_never_binds_cpp_calls_to_objc_methods(gpp):
    assert targets(gpp, "RCTSurface.mm", 25) == {("RCTSurface::start", "RCTSurface.mm")}
    assert targets(gpp, "RCTSurface.mm", 20) == set()  # _handler->start() is the C++ struct's
    assert targets(gpp, "RCTSurface.mm", 19) == {("RCTSurfaceStageLog", "RCTSurfaceStage.mm")}
    assert targets(gpp, "RCTSurfaceStage.mm", 7) == {("RCTSurface::stopWithReason:", "RCTSurface.mm")}


def test_header_sniffing_ignores_comments_and_strings():
    assert looks_like_objc(b"#import <Foundation/Foundation.h>\n")
    assert looks_like_objc(b"@class RCTBridge;\n")
    assert not looks_like_objc(b'/* @interface Foo */\nconst char *s = "@interface";\nint f(void);\n')


def test_macro_rewrites_keep_length_and_lines():
    src = b"@implementation A\nRCT_EXPORT_MODULE()\nRCT_EXPORT_METHOD(go:(int)x)\n{\n}\n@end\n"
    out = objc_source(src)
    assert len(out) == len(src) and out.count(b"\n") == src.count(b"\n")
    assert b"- (void)go:(int)x" in out and b"RCT_EXPORT_MODULE" not in out


def test_a_static_c_function_inside_an_implementation_is_a_file_level_function(g):
    (fn,) = g.nodes("RCTCountViews")
    assert fn["kind"] == "function"  # written between the methods of RCTViewRegistry (Counting)
    assert targets(g, "Views/RCTViewRegistry.m", 32) == {("RCTCountViews", "Views/RCTViewRegistry.m")}


def test_framework_style_imports_find_the_projects_header_and_apple_frameworks_stay_outside(g):
    imports = {h.target_file for h in g.edges("imports") if h.source_file == "Views/RCTViewCounter.m"}
    assert imports == {"Base/RCTBridge.h"}  # <React/RCTBridge.h>; <UIKit/UIKit.h> is Apple's


def test_a_message_returning_instancetype_types_the_outer_message(g):
    # RCTViewCounter.m:12 [[RCTBridge currentBridge] reload]: currentBridge returns instancetype
    assert targets(g, "Views/RCTViewCounter.m", 12) == {
        ("RCTBridge::currentBridge", "Base/RCTBridge.m"),
        ("RCTBridge::reload", "Base/RCTBridge.m"),
    }


def test_implementations_in_if_branches_of_one_file_resolve_to_the_first(g):
    # RCTViewCounter.m:23 [[RCTViewCounter sharedCounter] bump]: #if RCT_DEV … #else … #endif
    hits = {(h.target, h.target_line) for h in g.calls_at("Views/RCTViewCounter.m", 23)}
    assert hits == {("RCTViewCounter::sharedCounter", 11), ("RCTViewCounter::bump", 12)}
