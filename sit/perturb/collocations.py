"""English collocations: does a substitute keep the word pairs its neighbours form?

A substitute that breaks a fixed pair ("video game" -> "motion game", "party lines" -> "party
heads", "high winds" -> "advanced winds") makes a sentence nobody writes, however close the two
words are in meaning. :class:`Bigrams` reads the English bigram counts that the ``symspellpy``
package ships (242,342 frequent bigrams with their counts, MIT licence) and tells which neighbour
pair of the original word is a known collocation that the substitute does not keep.
"""

from __future__ import annotations

from typing import Optional

from ..errors import MissingDependencyError

#: the file of ``symspellpy``'s package data that holds the bigram counts
BIGRAM_FILE = "frequency_bigramdictionary_en_243_342.txt"


class Bigrams:
    """Counts of frequent English bigrams (lower case), read on first use."""

    def __init__(self):
        self._counts: Optional[dict[tuple[str, str], int]] = None

    def source(self) -> str:
        """What the counts come from (written to the perturber's signature)."""
        from importlib import metadata

        try:
            return f"symspellpy-{metadata.version('symspellpy')}:{BIGRAM_FILE}"
        except metadata.PackageNotFoundError:
            return "symspellpy (not installed)"

    def _load(self) -> dict[tuple[str, str], int]:
        if self._counts is None:
            try:
                from importlib.resources import files

                text = files("symspellpy").joinpath(BIGRAM_FILE).read_text(encoding="utf-8")
            except (ImportError, ModuleNotFoundError, FileNotFoundError) as exc:
                raise MissingDependencyError(
                    "the collocation check needs the bigram counts symspellpy ships: pip install symspellpy "
                    "(or --perturber-option collocations=false)"
                ) from exc
            counts = {}
            for line in text.splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[2].isdigit():
                    counts[(parts[0], parts[1])] = int(parts[2])
            self._counts = counts
        return self._counts

    def count(self, first: str, second: str) -> int:
        return self._load().get((first.lower(), second.lower()), 0)

    def broken(self, left: Optional[str], old: str, new: str, right: Optional[str]) -> Optional[str]:
        """The collocation of ``old`` with a neighbour (``left old`` or ``old right``) that ``new``
        does not form (``left new`` / ``new right`` is no known bigram), or None."""
        if left and self.count(left, old) and not self.count(left, new):
            return f"{left} {old}"
        if right and self.count(old, right) and not self.count(new, right):
            return f"{old} {right}"
        return None
