"""Where a named corpus lives: built on demand by ../shared/corpora/build.sh (Python, JS/TS and the
mainstream languages) or by scripts/corpora/longtail.sh (the long-tail languages), both pinned."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED_BUILD = REPO.parent / "shared" / "corpora" / "build.sh"
LONGTAIL_BUILD = REPO / "scripts" / "corpora" / "longtail.sh"
UNKNOWN = 2  # both scripts exit 2 for a name they do not know


class CorpusError(RuntimeError):
    """The corpus could not be built (unknown name, registry unreachable, ../shared missing)."""


def corpus_dir(name: str) -> Path:
    """The directory of corpus ``name`` (an existing directory is returned as is), building it first
    when needed. Raises CorpusError with the builder's last words."""
    if Path(name).is_dir():
        return Path(name).resolve()
    said = []
    for script in (LONGTAIL_BUILD, SHARED_BUILD):
        if not script.is_file():
            said.append(f"{script} not found")
            continue
        proc = subprocess.run(["bash", str(script), name], capture_output=True, text=True)
        if proc.returncode == 0 and proc.stdout.strip():
            return Path(proc.stdout.strip().splitlines()[-1])
        said.append(proc.stderr.strip()[-300:] or f"{script.name} exited {proc.returncode}")
        if proc.returncode != UNKNOWN:
            break
    raise CorpusError(f"corpus {name} could not be built: {'; '.join(said)}")
