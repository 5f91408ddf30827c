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


def progress_bars(no_progress: bool) -> bool:
    """Whether a command shows progress bars: not with ``--no-progress`` nor where standard error
    is not a terminal. Where it does not, the model libraries' own bars (transformers' "Loading
    weights", the model hub's downloads) are off too: they read ``HF_HUB_DISABLE_PROGRESS_BARS``
    when first imported, which the command's models have not been yet."""
    import os

    shown = not no_progress and sys.stderr.isatty()
    if not shown:
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    return shown
