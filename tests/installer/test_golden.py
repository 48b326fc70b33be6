"""Golden tests per agent: fixtures/agent-configs/<agent>/<case>/{case.json,before,after}.

``before``/``after`` hold ``home/`` and ``project/`` trees; ``@PROJECT@`` and ``@HOME@`` stand for the
temporary directories. Regenerate ``after`` with CODEGRAPH_REGEN_GOLDEN=1 (then review the diff).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from codegraph_installer import targets
from codegraph_installer.paths import InstallPaths

from tests.installer.conftest import COMMAND, FIXTURES, HOOK_COMMAND

CASES = sorted(p for p in FIXTURES.glob("*/*") if (p / "case.json").exists() and p.parent.name != "refused")


def _tree(root: Path, subs: dict[str, str]) -> dict[str, str]:
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            for token, value in subs.items():
                text = text.replace(token, value)
            out[path.relative_to(root).as_posix()] = text
    return out


def _disk(tmp: Path) -> dict[str, str]:
    out = {}
    for top in ("home", "project"):
        for path in sorted((tmp / top).rglob("*")):
            rel = path.relative_to(tmp).as_posix()
            if path.is_file() and "/.local/state/codegraph/" not in "/" + rel:  # backups, install record
                out[rel] = path.read_text(encoding="utf-8")
    return out


def _setup(case: Path, tmp: Path):
    home, project = tmp / "home", tmp / "project"
    subs = {"@PROJECT@": str(project), "@HOME@": str(home)}
    for name, text in _tree(case / "before", subs).items() if (case / "before").exists() else []:
        target = tmp / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    home.mkdir(exist_ok=True)
    project.mkdir(exist_ok=True)
    spec = json.loads((case / "case.json").read_text())
    options = targets.make_options(
        case.parent.name,
        spec.get("scope"),
        prewarm=spec.get("prewarm", False),
        redirect_reads=spec.get("redirect_reads", False),
        frontload=spec.get("frontload", False),
        command=COMMAND,
        hook_command=HOOK_COMMAND,
    )
    return InstallPaths(home, project), options, subs, spec


def _regenerate(case: Path, tmp: Path, subs: dict[str, str]) -> None:
    after = case / "after"
    shutil.rmtree(after, ignore_errors=True)
    for name, text in _disk(tmp).items():
        for token, value in subs.items():
            text = text.replace(value, token)
        (after / name).parent.mkdir(parents=True, exist_ok=True)
        (after / name).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}-{p.name}")
def test_install_matches_golden_then_reinstall_is_unchanged_and_uninstall_restores_bytes(case, tmp_path):
    paths, options, subs, spec = _setup(case, tmp_path)
    target = case.parent.name
    original = _disk(tmp_path)

    first = targets.run(target, "install", paths, options)
    assert first.plan.changed
    if os.environ.get("CODEGRAPH_REGEN_GOLDEN") == "1":
        _regenerate(case, tmp_path, subs)
    assert _disk(tmp_path) == _tree(case / "after", subs)

    installed = _disk(tmp_path)
    again = targets.run(target, "install", paths, options)
    assert [f.status for f in again.plan.files] == ["unchanged"] * len(again.plan.files)
    assert not again.written
    assert _disk(tmp_path) == installed

    targets.run(target, "uninstall", paths, options)
    after_uninstall = _disk(tmp_path)
    if spec.get("roundtrip", True):
        assert after_uninstall == original
    # Nothing of ours is left; a line the user had before (reinstall-old-path: their own allow rule) stays.
    had = {line for text in original.values() for line in text.splitlines() if "codegraph" in line}
    for text in after_uninstall.values():
        assert {line for line in text.splitlines() if "codegraph" in line} <= had
        assert "codegraph-hook" not in text and "/opt/codegraph" not in text


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}-{p.name}")
def test_backups_hold_the_previous_bytes_of_every_file_install_changed(case, tmp_path):
    paths, options, _, _ = _setup(case, tmp_path)
    original = _disk(tmp_path)
    outcome = targets.run(case.parent.name, "install", paths, options)
    backed_up = sorted(b.read_text(encoding="utf-8") for b in outcome.backups)
    overwritten = [c for c in outcome.plan.files if c.before is not None and c.status != "unchanged"]
    # one backup per file that existed and changed, holding exactly its old bytes (none for new files)
    assert backed_up == sorted(original[c.path.relative_to(tmp_path).as_posix()] for c in overwritten)


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}-{p.name}")
def test_dry_run_writes_nothing_and_its_diff_names_each_changed_file(case, tmp_path):
    paths, options, _, _ = _setup(case, tmp_path)
    original = _disk(tmp_path)
    outcome = targets.run(case.parent.name, "install", paths, options, dry_run=True)
    assert _disk(tmp_path) == original
    assert not outcome.written
    changed = [c for c in outcome.plan.files if c.status != "unchanged"]
    assert changed, "every golden case installs something"
    assert [c.path for c in changed if str(c.path) not in c.diff()] == []
