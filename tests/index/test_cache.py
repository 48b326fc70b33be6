"""The extraction cache's encoding (codegraph/index/cache.py): lossless, and compact once decoded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codegraph.index import cache
from codegraph.index.discover import discover
from codegraph.index.extract import extract
from codegraph.index.source import source_utf8
from codegraph.paths import read_regular

REPOS = Path(__file__).resolve().parents[2] / "fixtures" / "repos"


def _extractions(name: str):
    root = (REPOS / name).resolve()
    for f in discover(root).files:
        text = source_utf8(read_regular(os.path.join(root, f.path)), f.language)
        yield extract(f.path, text, f.language, f.grammar)


@pytest.mark.parametrize("name", sorted(p.name for p in REPOS.iterdir() if p.is_dir()))
def test_decoding_an_encoded_extraction_gives_back_what_the_extractor_made(name):
    count = 0
    for fx in _extractions(name):
        assert cache.decode(cache.encode(fx)) == fx, fx.path
        count += 1
    assert count > 0


def test_decoded_extraction_holds_one_string_object_per_repeated_id_and_name():
    fx = max(_extractions("python"), key=lambda f: len(f.refs))
    back = cache.decode(cache.encode(fx))
    by_id = {n.id: n.id for n in back.nodes}
    sources = [r.source for r in back.refs if r.source in by_id]
    assert len(sources) > len(set(sources))  # several references share an enclosing symbol
    assert all(s is by_id[s] for s in sources)
    kinds = [r.kind for r in back.refs]
    assert all(k is kinds[0] for k in kinds if k == kinds[0])
    assert all(n.file_path is back.path for n in back.nodes)


def test_encoding_is_the_same_bytes_for_the_same_extraction():
    fx = next(iter(_extractions("typescript")))
    assert cache.encode(fx) == cache.encode(cache.decode(cache.encode(fx)))


@pytest.mark.parametrize("name", sorted(p.name for p in REPOS.iterdir() if p.is_dir()))
def test_rows_sent_through_a_pipe_build_back_the_extraction_the_cache_row_holds(name):
    import pickle

    for fx in _extractions(name):
        payload = pickle.loads(pickle.dumps(cache.rows(fx)))  # what the pool does to a worker's result
        assert cache.from_rows(payload) == fx, fx.path
        assert cache.encode_rows(cache.rows(fx)) == cache.encode(fx)


def test_an_interface_made_from_rows_is_the_bytes_of_encoding_the_interface_extraction():
    from codegraph.index.incremental import HIERARCHY, interface

    checked = 0
    for name in sorted(p.name for p in REPOS.iterdir() if p.is_dir()):
        for fx in _extractions(name):
            kept = cache.with_refs_of(cache.rows(fx), HIERARCHY)
            assert cache.encode_rows(kept) == cache.encode(interface(fx)), fx.path
            pair = cache.encode_with_interface(cache.rows(fx), HIERARCHY)
            assert pair == (cache.encode(fx), cache.encode(interface(fx))), fx.path
            checked += any(r.kind in HIERARCHY for r in fx.refs) and any(
                r.kind not in HIERARCHY for r in fx.refs
            )
    assert checked > 0  # some file had references of both sorts


def test_worker_rows_decoded_without_interning_ids_equal_the_extraction_and_share_each_id_object():
    """A worker's rows come through one pickle message per chunk, which sends a string object once:
    :func:`cache.from_rows` with ``ids_shared`` leaves ids as they come, and each reference, contains
    pair and fact still points at its node's id object (the memory interning bought)."""
    import pickle

    fxs = list(_extractions("python"))
    sent = pickle.loads(pickle.dumps([cache.rows(fx) for fx in fxs]))  # one chunk, as the pool sends it
    back = [cache.from_rows(payload, ids_shared=True) for payload in sent]
    assert back == fxs
    fx = max(back, key=lambda f: len(f.refs))
    by_id = {n.id: n.id for n in fx.nodes}
    sources = [r.source for r in fx.refs if r.source in by_id]
    assert len(sources) > len(set(sources))
    assert all(s is by_id[s] for s in sources)
    assert all(child is by_id[child] for _, child in fx.contains)
    assert all(scope is by_id[scope] for scope, _ in fx.locals)
    names = [r.name for f in back for r in f.refs]
    assert all(n is names[0] for n in names if n == names[0])  # names are still interned across files
