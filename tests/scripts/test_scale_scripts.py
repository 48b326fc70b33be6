"""The scale benchmark's parts (issue 12): the synthetic monorepo generator and the parse-only floor."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from tests.conftest import copy_fixture

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench"
sys.path.insert(0, str(BENCH))  # index_bench imports its siblings (_corpora, _measure)


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


monorepo = _load("monorepo")
index_bench = _load("index_bench")


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_monorepo_writes_exactly_the_files_asked_for(tmp_path):
    assert monorepo.generate(tmp_path / "m", files=137, seed=3, per_package=10) == 137
    assert len(_tree(tmp_path / "m")) == 137


def test_monorepo_is_the_same_tree_for_the_same_seed_and_another_for_another(tmp_path):
    monorepo.generate(tmp_path / "a", files=60, seed=7, per_package=12)
    monorepo.generate(tmp_path / "b", files=60, seed=7, per_package=12)
    monorepo.generate(tmp_path / "c", files=60, seed=8, per_package=12)
    assert _tree(tmp_path / "a") == _tree(tmp_path / "b")
    assert _tree(tmp_path / "a") != _tree(tmp_path / "c")


def test_monorepo_python_packages_import_each_other_and_run(tmp_path):
    out = tmp_path / "m"
    monorepo.generate(out, files=120, seed=5, per_package=15)
    modules = sorted(f"{p.parent.name}.{p.stem}" for p in (out / "py").glob("pkg_*/mod_*.py"))
    assert len(modules) > 40
    crossing = [
        m
        for m in modules
        if re.search(r"^from pkg_\d+", (out / "py" / (m.replace(".", "/") + ".py")).read_text(), re.M)
    ]
    assert crossing, "modules import other modules"
    script = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]:\n"
        "    m = importlib.import_module(name)\n"
        "    for obj in list(vars(m).values()):\n"
        "        if isinstance(obj, type) and obj.__module__ == name:\n"
        "            inst = obj('x')\n"
        "            for attr, fn in vars(obj).items():\n"
        "                if callable(fn) and not attr.startswith('_'):\n"
        "                    getattr(inst, attr)(1)\n"
        "print('ok', len(sys.argv) - 1)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, *modules], cwd=out / "py", capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == f"ok {len(modules)}"


def test_monorepo_typescript_imports_name_files_that_export_those_names(tmp_path):
    out = tmp_path / "m"
    monorepo.generate(out, files=120, seed=5, per_package=15)
    checked = 0
    for ts in sorted((out / "ts").rglob("*.ts")):
        for names, spec in re.findall(r"^import \{ (.+) \} from '(.+)';$", ts.read_text(), re.M):
            target = (ts.parent / f"{spec}.ts").resolve()
            assert target.is_file(), f"{ts}: {spec}"
            exported = set(re.findall(r"^export (?:class|function) (\w+)", target.read_text(), re.M))
            assert set(names.split(", ")) <= exported, f"{ts}: {names} from {spec}"
            checked += 1
    assert checked > 50


def test_monorepo_index_accounts_for_every_file_and_progress_counts_them(tmp_path):
    out = tmp_path / "m"
    monorepo.generate(out, files=90, seed=2, per_package=15)
    seen: list[tuple[int, int]] = []
    summary = index_project(
        ProjectPaths(out.resolve()), workers=2, progress=lambda done, total: seen.append((done, total))
    )
    assert (summary.files, summary.parsed, summary.skipped) == (90, 90, {})
    assert seen[-1] == (90, 90)
    assert [done for done, _ in seen] == list(range(1, 91))
    assert summary.edges > summary.nodes  # calls across modules resolved, not only contains


def test_parse_floor_parses_the_files_the_indexer_indexes(tmp_path):
    root = copy_fixture("python", tmp_path).resolve()
    floor = index_bench.parse_floor(root)
    summary = index_project(ProjectPaths(root), workers=1)
    assert floor["files"] == summary.files
    assert floor["bytes"] == sum(p.stat().st_size for p in root.rglob("*.py") if ".codegraph" not in p.parts)
    assert floor["seconds"] > 0


def test_parse_floor_uses_the_indexers_worker_pool_on_enough_files(tmp_path):
    out = tmp_path / "m"
    monorepo.generate(out, files=60, seed=1, per_package=20)
    floor = index_bench.parse_floor(out.resolve(), workers=2)
    assert (floor["files"], floor["workers"]) == (60, 2)
    assert floor["bytes"] == sum(p.stat().st_size for p in out.rglob("*") if p.is_file())


def test_phase_split_is_read_from_init_json_output():
    out = 'indexing…\n{\n  "files": 3,\n  "phases": {"discover": 0.1, "parse": 0.5}\n}\n'
    assert index_bench.phases_of(out) == {"discover": 0.1, "parse": 0.5}


def test_another_checkout_is_run_with_its_own_package_first_on_the_path():
    init, sync, env = index_bench.tool_commands("codegraph@/src/before")
    assert init[-2:] == ["init", "--json"] and sync[-1] == "sync"
    assert env is not None and env["PYTHONPATH"] == "/src/before"
    assert index_bench.tool_commands("codegraph")[2] is None


def test_cold_only_rounds_time_each_checkout_once_a_round_against_the_floor(tmp_path):
    root = copy_fixture("python", tmp_path).resolve()
    repo = str(Path(index_bench.__file__).resolve().parents[2])
    tools = ["codegraph", f"codegraph@{repo}"]
    data = index_bench.run_tools(tools, root, runs=2, cold_only=True)
    assert set(data) == set(tools)
    for t in tools:
        assert list(data[t]["timing"]) == ["cold"]
        assert data[t]["sizes"] == data["codegraph"]["sizes"] and data[t]["sizes"][0] == 11
        assert data[t]["floor"]["files"] == 11 and data[t]["floor_ratio"] > 0
        assert "ratios" not in data[t]  # no reference in the rounds
        assert set(data[t]["phases"]) >= {"parse", "resolve", "write"}


def test_held_bench_counts_every_node_the_index_stores_of_the_files_it_samples(tmp_path):
    root = copy_fixture("c", tmp_path)
    out = subprocess.run(
        [sys.executable, str(BENCH / "held_bench.py"), str(root), "--files", "1000"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    summary = index_project(ProjectPaths(root))
    files = int(re.search(r"; (\d+) files parsed", out).group(1))
    per_file = int(re.search(r", (\d+) nodes a file", out).group(1))
    in_kinds = sum(int(n) for n in re.findall(r"^  \w+ +(\d+) nodes ", out, re.MULTILINE))
    assert files == summary.files and in_kinds == summary.nodes
    assert per_file == round(summary.nodes / summary.files)


def test_scale_bench_times_both_edit_syncs_and_leaves_the_tree_as_it_was(tmp_path):
    out = tmp_path / "m"
    monorepo.generate(out, files=40, seed=3, per_package=10)
    before = _tree(out)
    run = subprocess.run(
        [sys.executable, str(BENCH / "scale_bench.py"), str(out), "--edit-runs", "2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    cli = re.search(
        r"one-edit sync, CLI \((\S+)\): [\d.]+ s wall \(median of [\d.]+, [\d.]+\).*incremental", run.stdout
    )
    watcher = re.search(
        r"one-edit sync, daemon's watcher \((\S+)\): [\d.]+ s \(median of [\d.]+, [\d.]+\); its first sync "
        r"as the daemon starts [\d.]+ s .*resolution incremental \(\d+ files\)",
        run.stdout,
    )
    assert cli and watcher, run.stdout
    assert cli.group(1) == watcher.group(1)
    assert {k: v for k, v in _tree(out).items() if not k.startswith(".codegraph/")} == before


def test_tables_bench_weighs_what_a_first_index_holds_at_resolution():
    run = subprocess.run(
        [sys.executable, str(BENCH / "tables_bench.py"), "--files", "60", "--top", "20"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert re.search(r"monorepo: 60 files, \d+ nodes", run.stdout), run.stdout
    assert re.search(r"traced at resolve\(\): [\d.]+ MB", run.stdout), run.stdout
    assert re.search(r"^  Node +[\d.]+ MB +\d+ objects +192 B each$", run.stdout, re.M), run.stdout
