from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures" / "agent-configs"
COMMAND = "/opt/codegraph/bin/codegraph"
HOOK_COMMAND = "/opt/codegraph/bin/codegraph-hook"


@pytest.fixture
def sandbox(tmp_path):
    """A temporary HOME and project directory."""
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    return home, project
