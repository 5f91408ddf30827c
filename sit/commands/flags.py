"""One spelling of each flag across the subcommands; the old spellings still work and say so."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Sequence


class Spelled(argparse.Action):
    """Stores (``append``: appends) the value; an option string in ``old`` (an earlier spelling,
    kept as an alias for a release) prints a one-line note naming the flag's spelling now."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, old: Sequence[str] = (), append: bool = False,
                 **kwargs: Any):
        super().__init__(option_strings, dest, **kwargs)
        self.old, self.append = tuple(old), append

    def __call__(self, parser, namespace, values, option_string=None):
        if option_string in self.old:
            print(f"sit: note: {option_string} is the old spelling of {self.option_strings[0]}; it still works "
                  "this release", file=sys.stderr)
        if self.append:
            values = [*(getattr(namespace, self.dest, None) or []), values]
        setattr(namespace, self.dest, values)


def spelled(p, new: str, *old: str, append: bool = False, **kwargs: Any) -> None:
    """Add flag ``new`` to ``p`` with its ``old`` spellings as aliases that say so when used."""
    p.add_argument(new, *old, action=Spelled, old=old, append=append, **kwargs)
