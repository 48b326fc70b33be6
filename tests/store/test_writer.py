"""The writer's fast metadata encoder writes exactly what json.dumps would."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from codegraph.store.writer import _meta_json

values = st.one_of(st.text(), st.floats(allow_nan=False, allow_infinity=False), st.integers(), st.booleans())


@given(st.dictionaries(st.text(), values, max_size=5))
def test_fast_metadata_json_equals_json_dumps(meta):
    expected = json.dumps(meta, separators=(",", ":")) if meta else None
    assert _meta_json(meta) == expected
