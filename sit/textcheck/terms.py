"""A team's terminology as ``sit check`` reads it (issue 48): a glossary (a source term and the
target term a translation must use for it) and a do-not-translate list (terms a translation keeps
as written: product names, commands).

Files: a glossary is TSV or CSV (by its ending; ``.txt`` as TSV), two columns, source term then
target term, a header row (``source``/``target``) and ``#`` comment lines skipped; a
do-not-translate list is one term a line. A bad file is an :class:`~sit.errors.InputError`
naming its line.

Matching: a glossary's terms case-insensitively, whole words; a source term also in an English
plural (``file`` in ``files``); a target term also through its lemmas where spaCy has a pipeline
for the target language installed (``archivos`` for ``archivo``). A do-not-translate term as
written, whole words.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional, Sequence

from ..errors import InputError
from ..inputs import decode_lines, read_file

#: the first column names a header row may give
HEADER_NAMES = frozenset({"source", "src", "term", "source term"})


@dataclass(frozen=True)
class Term:
    """A glossary entry: the source term, the target term required for it, and its line."""

    source: str
    target: str
    line: int


def read_glossary(path: str | Path) -> tuple[Term, ...]:
    """The terms of glossary file ``path`` (TSV, or CSV by its ``.csv`` ending)."""
    rows = _rows(path, "glossary")
    delimiter = "," if Path(path).suffix.lower() == ".csv" else "\t"
    out = []
    for n, line in rows:
        cells = [c.strip() for c in next(csv.reader([line], delimiter=delimiter))]
        if len(cells) < 2 or not cells[0] or not cells[1]:
            sep = "a comma" if delimiter == "," else "a tab"
            raise InputError(f"glossary {path}: line {n} is not a source term and a target term separated by {sep}; "
                             "write one pair a line")
        if n == rows[0][0] and cells[0].lower() in HEADER_NAMES:
            continue
        out.append(Term(cells[0], cells[1], n))
    if not out:
        raise InputError(f"glossary {path}: no term in it; write one 'source<TAB>target' pair a line")
    return tuple(out)


def read_do_not_translate(path: str | Path) -> tuple[str, ...]:
    """The terms of do-not-translate file ``path``, one a line."""
    terms = tuple(dict.fromkeys(line.strip() for _, line in _rows(path, "do-not-translate list")))
    if not terms:
        raise InputError(f"do-not-translate list {path}: no term in it; write one term a line")
    return terms


def _rows(path: str | Path, what: str) -> list[tuple[int, str]]:
    # (line number, line) of the lines that are neither blank nor comments
    lines = decode_lines(read_file(path, what), f"{what} {path}")
    return [(n, line) for n, line in enumerate(lines, start=1) if line.strip() and not line.lstrip().startswith("#")]


def _words(term: str, plural: bool = False) -> re.Pattern:
    body = r"\s+".join(re.escape(w) for w in term.split())
    return re.compile(rf"(?<!\w){body}{'(?:e?s)?' if plural else ''}(?!\w)", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _pattern(term: str, plural: bool, case: bool) -> re.Pattern:
    p = _words(term, plural)
    return p if not case else re.compile(p.pattern)


def has_term(text: str, term: str, *, plural: bool = False) -> bool:
    """Whether ``text`` writes ``term`` (case-insensitive, whole words; ``plural``: an English
    plural of its last word too)."""
    return bool(_pattern(term, plural, False).search(text))


def has_verbatim(text: str, term: str) -> bool:
    """Whether ``text`` writes ``term`` exactly as given (case and all), as whole words."""
    return bool(_pattern(term, False, True).search(text))


class Lemmas:
    """The lemmas of a language's texts through spaCy's installed pipeline, if any (None: none
    installed, and the matching is by the words as written)."""

    def __init__(self, lang: str):
        self.lang = lang
        self._nlp: Optional[Callable] = None
        self._seen: dict[str, str] = {}
        self.available = self._load()

    def _load(self) -> bool:
        from ..models import find_spacy_model, load_spacy

        lang = self.lang.split("-")[0].lower()
        if find_spacy_model(lang) is None:
            return False
        self._nlp = load_spacy(lang, disable=("parser", "ner"))
        return True

    def of(self, text: str) -> str:
        """``text``'s words as their lemmas, lower case, one space between."""
        if self._nlp is None:
            return " ".join(text.lower().split())
        if text not in self._seen:
            self._seen[text] = " ".join(t.lemma_.lower() for t in self._nlp(text) if not t.is_space)
        return self._seen[text]


def missing_terms(source: str, translation: str, glossary: Sequence[Term],
                  lemmas: Optional[Lemmas] = None, kept: Sequence[str] = ()) -> list[Term]:
    """The glossary terms ``source`` writes whose required target term ``translation`` lacks
    (as written, or through its lemmas where ``lemmas`` has a pipeline); a term inside one of the
    do-not-translate terms ``kept`` (``file`` in ``print to file``) is none."""
    for term in kept:
        source = _pattern(term, False, True).sub(" ", source)
    out = []
    for term in glossary:
        if not has_term(source, term.source, plural=True) or has_term(translation, term.target):
            continue
        if lemmas is not None and lemmas.available and _lemma_in(lemmas, term.target, translation):
            continue
        out.append(term)
    return out


def _lemma_in(lemmas: Lemmas, term: str, text: str) -> bool:
    return f" {lemmas.of(term)} " in f" {lemmas.of(text)} "


def changed_terms(source: str, translation: str, terms: Sequence[str]) -> list[str]:
    """The do-not-translate ``terms`` that ``source`` writes and ``translation`` does not write as
    written (as often as the source does)."""
    return [t for t in terms if (n := len(_pattern(t, False, True).findall(source)))
            and len(_pattern(t, False, True).findall(translation)) < n]


__all__ = ["HEADER_NAMES", "Lemmas", "Term", "changed_terms", "has_term", "has_verbatim", "missing_terms",
           "read_do_not_translate", "read_glossary"]
