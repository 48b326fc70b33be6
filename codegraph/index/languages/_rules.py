"""The generic resolver as language modules' hooks reach it.

``codegraph.index.resolve`` imports the language registry, so a language module cannot import it at load
time; and a ``from … import`` inside a hook costs 1.6 µs a call (Scala's hooks run 47k times on its
library). ``resolver_rules()`` imports it on first use and hands the same module back after that.
"""

from __future__ import annotations

import functools


@functools.cache
def resolver_rules():
    """The module ``codegraph.index.resolve`` (imported on first call)."""
    from codegraph.index import resolve

    return resolve
