"""Whether a word a program's message keeps as its source wrote it is a word of the target language
all the same (issue 48): one the target's hunspell dictionary accepts as written (German
``Distribution``, ``Operator``, ``Check``; Spanish ``error``), or one of the target's own CLDR names
(a month or day as abbreviated, ``Feb``, ``may``; a language's name, German ``Tamil``). A message of
one word returned as it was is untranslated unless its word is such a word (or code, which
:func:`sit.textcheck.software.prose` blanks before)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Optional

from .spelling import find_dictionary

#: one word of prose (three letters or more) of a message
PROSE_WORD = re.compile(r"[^\W\d_]{3,}")


def lone_word(prose_text: str) -> Optional[str]:
    """The word of a message's prose where it has one word of three letters or more (``semaphore``,
    ``(pipe)``, ``Unknown-5``), else None."""
    words = PROSE_WORD.findall(prose_text)
    return words[0] if len(words) == 1 else None


class TargetWords:
    """The target language's words for one check: its hunspell dictionary, loaded on the first
    question (none installed, or no spylls: dictionaries answer no), and its CLDR names."""

    def __init__(self, target_lang: str):
        self.target_lang = target_lang
        self.dictionary: Optional[Path] = find_dictionary(target_lang)
        self._speller = None

    def identity(self) -> dict:
        """What the answers depend on besides sit's code (for a verdict cache's key): the dictionary's path and size."""
        path = self.dictionary
        return {"dictionary": str(path), "size": path.stat().st_size} if path else {"dictionary": None}

    def knows(self, word: str) -> bool:
        """Whether ``word`` as written is the target language's: a CLDR name of it, or a word its
        hunspell dictionary accepts (as written, or capitalised where it opens the text)."""
        if word.casefold() in cldr_names(self.target_lang):
            return True
        speller = self._spelling()
        return speller is not None and speller.accepts(word)

    def _spelling(self):
        if self._speller is None and self.dictionary is not None:
            from ..errors import MissingDependencyError
            from .spelling import Speller

            try:
                self._speller = Speller(self.dictionary, self.target_lang)
            except MissingDependencyError:  # no spylls: no dictionary to ask
                self.dictionary = None
        return self._speller


@lru_cache(maxsize=32)
def cldr_names(lang: str) -> frozenset:
    """The target language's CLDR names, case-folded, a final period dropped: months and days
    (wide and abbreviated, format and stand-alone) and languages; none for an unknown locale."""
    from babel import Locale, UnknownLocaleError

    try:
        locale = Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return frozenset()
    names = set(locale.languages.values())
    for context in ("format", "stand-alone"):
        for width in ("wide", "abbreviated"):
            names.update(locale.months[context][width].values())
            names.update(locale.days[context][width].values())
    return frozenset(n.casefold().rstrip(".") for n in names)


def kept_terms(pairs: Iterable[tuple[str, str]], least: int = 2) -> frozenset:
    """The words (case-folded, three letters or more) that a file's translated messages keep as
    their sources write them, in the prose of at least ``least`` messages each (a program's messages,
    ``pairs`` of source and translation; a message returned as it was is no translated one): the
    terms its translators keep (German ``Flags`` in xz, ``Tasks`` in procps-ng), which a message
    of them returned as it was keeps by right."""
    from collections import Counter

    from .software import prose

    seen: Counter = Counter()
    for source, translation in pairs:
        if " ".join(source.casefold().split()) == " ".join(translation.casefold().split()):
            continue
        ours = {w.casefold() for w in PROSE_WORD.findall(prose(source))}
        seen.update(ours & {w.casefold() for w in PROSE_WORD.findall(prose(translation))})
    return frozenset(w for w, n in seen.items() if n >= least)
