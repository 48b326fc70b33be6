"""The on-disk format is shared with the reference TypeScript CLI (npm @colbymchenry/codegraph 1.6.1):
an index built by either tool is read by the other. Runs the real reference CLI through
../shared/reference/reference-cli.sh; skips only when it cannot be installed."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from codegraph.index.indexer import index_project
from codegraph.index.languages import all_languages
from codegraph.paths import ProjectPaths
from codegraph.query.relations import callers
from codegraph.query.search import search
from codegraph.store.reader import Reader
from tests.conftest import copy_fixture, git

SCRIPT = Path(__file__).resolve().parents[3] / "shared" / "reference" / "reference-cli.sh"
pytestmark = pytest.mark.needs_shared


@pytest.fixture(scope="session")
def reference_cli():
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: cannot install the reference CLI")
    probe = subprocess.run(["bash", str(SCRIPT), "--version"], capture_output=True, text=True, timeout=600)
    if probe.returncode == 3:
        pytest.skip(f"npm could not install @colbymchenry/codegraph: {probe.stderr.strip()}")
    assert probe.returncode == 0, probe.stderr

    def run(*args: str) -> str:
        proc = subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr + proc.stdout
        return proc.stdout

    return run


def _repo(tmp_path: Path) -> Path:
    root = copy_fixture("python", tmp_path)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    return root


def test_codegraph_reads_an_index_the_reference_cli_built(tmp_path, reference_cli):
    root = _repo(tmp_path)
    reference_cli("init", str(root))
    with Reader(root) as reader:
        assert reader.metadata()["indexed_with_version"] == "1.6.1"
        hits = search(reader, "QuerySet").hits
        assert hits[0][0].qualified_name == "QuerySet" and hits[0][0].file_path == "shop/db/query.py"
        groups = callers(reader, "Query.add_q").groups
        assert [(s.node.qualified_name, s.line) for s in groups[0].sites] == [("QuerySet::filter", 10)]


def test_reference_cli_reads_an_index_codegraph_built(tmp_path, reference_cli):
    root = _repo(tmp_path)
    index_project(ProjectPaths(root.resolve()), workers=1)
    status = json.loads(reference_cli("status", str(root), "-j"))
    with Reader(root) as reader:
        counts = reader.counts()
    assert status["fileCount"] == counts["files"] == 11
    assert status["nodeCount"] == counts["nodes"]
    assert status["edgeCount"] == counts["edges"]
    assert status["index"]["state"] == "complete"
    assert status["index"]["reindexRecommended"] is False
    assert status["pendingChanges"] == {"added": 0, "modified": 0, "removed": 0}

    found = json.loads(reference_cli("query", "QuerySet", "-p", str(root), "-j"))
    assert found[0]["node"]["qualifiedName"] == "QuerySet"

    result = json.loads(reference_cli("callers", "add_q", "-p", str(root), "-j"))
    callers_seen = [(c["name"], c["filePath"]) for d in result["definitions"] for c in d["callers"]]
    assert callers_seen == [("filter", "shop/db/query.py")]


# Per language: a function or method of the fixture repo and its callers (name, file), read off the
# golden dump's edges (fixtures/golden/<label>.json); the test checks the golden still says so.
# The reference parses most of these languages itself, but not Zig, CUDA, Julia, Objective-C++, F# or
# Clojure (no grammar there); it must still read our index of those fixtures.
CALLED = {
    "astro": (
        "siteTitle",
        {
            ("Base", "src/layouts/Base.astro"),
            ("Base.astro", "src/layouts/Base.astro"),
            ("title", "src/pages/index.astro"),
            ("index.astro", "src/pages/index.astro"),
        },
    ),
    "bash": ("ensure_dir", {("compile", "build.sh"), ("test_build.sh", "tests/test_build.sh")}),
    "c": (
        "kv_get",
        {("main", "src/main.c"), ("mem_get", "src/main.c"), ("test_put_then_get", "tests/test_store.c")},
    ),
    "clojure": (
        "clamp",
        {
            ("describe-works", "test/acme/shapes_test.clj"),
            ("describe", "src/acme/shapes/core.clj"),
            ("core.clj", "src/acme/shapes/core.clj"),
        },
    ),
    "cpp": ("Write", {("Add", "src/canvas.cc"), ("Draw", "src/canvas.cc")}),
    "cuda": ("square", {("add", "src/vec.cu")}),
    "csharp": ("Transfer", {("Main", "src/Ledger.App/Program.cs")}),
    "dart": ("bump", {("add", "lib/src/registry.dart")}),
    "elixir": ("clamp", {("add", "lib/shop/cart.ex")}),
    "elm": (
        "mul",
        {("square", "src/Shape/Util.elm"), ("area", "src/Shape/Area.elm"), ("main", "src/Main.elm")},
    ),
    "erlang": ("clamp", {("add", "src/shop_cart.erl")}),
    "fsharp": (
        "distance",
        {("d", "src/App.fsx"), ("shifted", "src/Shapes/Geo.fs"), ("grow", "src/Shapes/Ops.fs")},
    ),
    "go": ("report", {("main", "main.go")}),
    "haskell": (
        "mul",
        {
            ("Shape.hs", "src/Geo/Shape.hs"),
            ("area", "src/Geo/Shape.hs"),
            ("main", "app/Main.hs"),
            ("square", "src/Geo/Util.hs"),
        },
    ),
    "java": ("hex", {("main", "src/main/java/com/acme/shop/Main.java")}),
    "javascript": ("area", {("main", "lib/app.mjs")}),
    "julia": (
        "banner",
        {("describe", "src/Shapes.jl"), ("@loud", "src/Report.jl"), ("Shapes.jl", "src/Shapes.jl")},
    ),
    "jsx": (
        "formatLabel",
        {
            ("Button", "src/Button.jsx"),
            ("Button.jsx", "src/Button.jsx"),
            ("render", "src/Toolbar.jsx"),
            ("Toolbar.jsx", "src/Toolbar.jsx"),
        },
    ),
    "kotlin": (
        "hypot",
        {
            ("diagonal", "src/main/kotlin/com/acme/app/service/ShapeService.kt"),
            ("ShapeService.kt", "src/main/kotlin/com/acme/app/service/ShapeService.kt"),
        },
    ),
    "ocaml": ("mul", {("area", "lib/shape.ml"), ("square", "lib/util.ml")}),
    "ocaml_interface": ("push", {("push_all", "src/stack.ml")}),
    "objc": (
        "setUp",
        {("initWithBundleName:launchOptions:", "Base/RCTBridge.m"), ("reload", "Base/RCTBridge.m")},
    ),
    "objcpp": ("start", {("stopWithReason:", "RCTSurface.mm")}),
    "lua": ("format_number", {("describe", "shapes/circle.lua"), ("tostring", "util/strings.lua")}),
    "luau": ("record", {("open", "src/Bank/init.luau")}),
    "perl": ("round", {("total", "lib/Shop/Cart.pm"), ("fmt", "lib/Shop/Util.pm")}),
    "nix": ("frame", {("banner", "default.nix")}),
    "pascal": ("Distance", {("Describe", "src/shapes.pas")}),
    "php": ("describe", {("defaults", "src/Registry.php")}),
    "python": ("add_q", {("filter", "shop/db/query.py")}),
    "r": ("check_positive", {("rect_area", "R/geometry.R")}),
    "ruby": ("distance_to", {("edge_distance", "lib/shapes/circle.rb")}),
    "rust": ("grow", {("build", "app/src/main.rs")}),
    "scala": ("validate", {("place", "src/main/scala/shop/service/OrderService.scala")}),
    "svelte": (
        "clamp",
        {
            ("increment", "src/lib/Counter.svelte"),
            ("double", "src/lib/math.ts"),
            ("math.ts", "src/lib/math.ts"),
        },
    ),
    "solidity": ("_checkOwner", {("onlyOwner", "contracts/utils/Ownable.sol")}),
    "swift": ("shouted", {("title", "Sources/App/Report.swift")}),
    "terraform": ("var.zones", {("aws_instance.web", "main.tf"), ("local.zones", "variables.tf")}),
    "tsx": ("useTitle", {("Panel", "src/Panel.tsx"), ("Panel.tsx", "src/Panel.tsx")}),
    "typescript": ("emit", {("next", "src/internal/Subscriber.ts")}),
    "vue": (
        "formatLabel",
        {
            ("onClick", "src/components/Button.vue"),
            ("Button.vue", "src/components/Button.vue"),
            ("shout", "src/utils/format.ts"),
        },
    ),
    "zig": ("translate", {("shifted", "src/geo/point.zig")}),
}
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
# The edge kinds the reference's `callers` walks (its graph/traversal.js getCallers): a file that imports
# the symbol counts as a caller, named by the file.
REFERENCE_CALLER_KINDS = {"calls", "references", "imports", "instantiates", "navigates"}


def _golden_callers(label: str, name: str) -> set[tuple[str, str]]:
    golden = json.loads((FIXTURES / "golden" / f"{label}.json").read_text())
    names = {n["key"]: n["name"] for n in golden["nodes"]}
    return {
        (names[e["from"]], e["from"].split(":", 1)[0])
        for e in golden["edges"]
        if e["kind"] in REFERENCE_CALLER_KINDS and names[e["to"]] == name
    }


def test_every_registered_language_has_a_called_symbol_to_check():
    assert sorted(CALLED) == [lang.label for lang in all_languages()]


@pytest.mark.parametrize("label", [lang.label for lang in all_languages()])
def test_reference_cli_reads_our_index_of_each_language(label, tmp_path, reference_cli):
    name, expected = CALLED[label]
    assert _golden_callers(label, name) == expected
    root = copy_fixture(label, tmp_path)
    index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as reader:
        counts = reader.counts()
        assert label in reader.languages()

    status = json.loads(reference_cli("status", str(root), "-j"))
    assert (status["fileCount"], status["nodeCount"], status["edgeCount"]) == (
        counts["files"],
        counts["nodes"],
        counts["edges"],
    )
    assert status["index"]["state"] == "complete"

    result = json.loads(reference_cli("callers", name, "-p", str(root), "-j"))
    seen = {(c["name"], c["filePath"]) for d in result["definitions"] for c in d["callers"]}
    assert seen == expected
