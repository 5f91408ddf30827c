"""Importing a library without the optional packages it would import for parts sit never uses."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator, Sequence

#: what ``import transformers`` makes its object-detection losses import whenever it is installed
#: (the test set-up installs it with sentence-transformers): SciPy, about 320 modules, 37 MB and
#: 0.3 s of a cold run, for losses no model sit runs computes
TRANSFORMERS_OPTIONAL = ("scipy",)


@contextmanager
def hidden_modules(names: Sequence[str]) -> Iterator[list[str]]:
    """Within the block, the packages ``names`` that are not loaded yet cannot be imported (the
    import system's "not there": ``import name`` raises ImportError, ``importlib.util.find_spec``
    answers None), so a library that imports each in a ``try``, or asks whether it is installed,
    goes on without it. They can be imported again after the block; one loaded already stays as
    it is. Yields the names hidden."""
    hidden = [m for m in names if m not in sys.modules]
    for m in hidden:
        sys.modules[m] = None
    try:
        yield hidden
    finally:
        for m in hidden:
            if m in sys.modules and sys.modules[m] is None:
                del sys.modules[m]
