"""``spelling``: every translation of the run checked by itself against the target language's
hunspell dictionary (Debian's ``hunspell-XX`` packages, read through spylls:
:mod:`sit.textcheck.spelling`). No cases of its own, nothing to translate.

Findings: ``spelling`` (words the dictionary does not know, not compounds of words it knows, not
in the target language's wordfreq list, that the source does not write, MQM
``Fluency/Spelling``, minor) and ``spacing`` (a sentence mark glued to the next word,
``16.Dezember``: MQM annotators mark it as spelling too), ``repeated`` (a word written twice back
to back where the source doubles none, MQM ``Fluency/Grammar``). One finding per text and kind
lists its words; each finding's evidence names its MQM category and severity (``mqm``,
``mqm_severity``).
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..records import Issue, Pair
from .base import Checked
from .every import TextsAlone, merged, other_texts
from .verdicts import Verdicts

#: the severity and MQM category a finding of each kind stands for (what annotators call it)
MQM = {"spelling": ("minor", "Fluency/Spelling"), "spacing": ("minor", "Fluency/Spelling"),
       "repeated": ("minor", "Fluency/Grammar")}


class SpellingRelation(TextsAlone):
    name = "spelling"
    title = "a translation has words the target language's dictionary does not know"
    kinds = {"spelling": "words the target language's hunspell dictionary does not know (not in the source)",
             "spacing": "a sentence mark glued to the next word",
             "repeated": "a word written twice back to back where the source doubles none"}
    mqm = MQM
    #: blind labels of a news run's findings (docs/precision.md, stop 44)
    measured = {"spelling": (15, 16, "labels-blind-spelling-typography-keyed.jsonl")}
    alone = 6
    alone_default = False  # not yet on a program's messages: 82 findings per 1,000 (docs/check.md)
    alone_needs = "a hunspell dictionary of the target language (apt: hunspell-es, hunspell-de-de, ...) and spylls"

    def __init__(self, ctx, *, dictionary: str = ""):
        super().__init__(ctx)
        from pathlib import Path

        from ..errors import ConfigError
        from ..textcheck.spelling import find_dictionary

        if dictionary and not (Path(dictionary).with_suffix(".dic").is_file()
                               and Path(dictionary).with_suffix(".aff").is_file()):
            raise ConfigError(f"spelling.dictionary: {dictionary} has no .dic and .aff pair; give the path of an "
                              "installed hunspell dictionary (/usr/share/hunspell/es_ES)")
        #: why nothing is checked (no dictionary for the target language, no spylls), or ""; a run
        #: with --relation all goes on without the check and says so (``sit check`` leaves it out)
        self.missing = "" if dictionary else self.usable(ctx.source_lang, ctx.target_lang)
        self.dictionary = str(dictionary or find_dictionary(ctx.target_lang) or "")
        self._speller = None
        #: each text's words by kind, through the run's cache: a re-run from the cache reads no
        #: dictionary (keyed by the dictionary's files and spylls' version as well)
        self.verdicts = None if self.missing else Verdicts(
            ctx.cache, self.name, {**self.signature(), **_dictionary_version(self.dictionary)}, ctx.source_lang,
            ctx.target_lang, (type(self).__module__,))

    @classmethod
    def usable(cls, source_lang: str, target_lang: str) -> str:
        from importlib.util import find_spec

        from .. import hints
        from ..textcheck.spelling import find_dictionary, install_hint

        if find_spec("spylls") is None:
            return f"spelling left out: it reads hunspell dictionaries through spylls ({hints.SPYLLS})"
        if find_dictionary(target_lang) is None:
            return f"spelling left out: no hunspell dictionary for {target_lang!r} ({install_hint(target_lang)})"
        return ""

    def signature(self) -> dict[str, Any]:
        from pathlib import Path

        return {"dictionary": Path(self.dictionary).stem, "reader": "spylls"}

    def describe(self) -> str:
        if self.missing:
            return f"spelling: nothing checked ({self.missing.removeprefix('spelling left out: ')})"
        return f"spelling: every translation against the hunspell dictionary {self.dictionary}"

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        if self.missing:
            return self.checked([], cases=0, compared=0, kinds=list(self.kinds))
        found: list[Issue] = []
        done = other_texts(self.ctx.origins, translation, ())
        verdicts = self.verdicts.many(((x, y) for x, y, _ in done), self._verdicts)
        for x, y, origin in done:
            for kind, words in verdicts[(x, y)].items():
                found.append(self.finding(x, y, origin, kind, {"words": words}, len(words)))
        return self.checked(merged(found, self.ctx.origins), cases=0, compared=len(done), kinds=list(self.kinds))

    def _verdicts(self, pairs: list[tuple[str, str]]) -> list[dict[str, list[str]]]:
        """Each (text, translation)'s words by kind (``spacing``, ``spelling``, ``repeated``, in
        that order; a kind with none left out), for the pairs the cache lacks: the dictionary is
        read only where there are some."""
        from ..textcheck.spelling import ATTESTED_ZIPF, Speller, glued_marks, repeated_words

        if self._speller is None:
            self._speller = Speller(self.dictionary, self.ctx.target_lang)
        zipf, target = self.ctx.frequencies(), self.ctx.target_lang
        attested = lambda word: (zipf(word, target) or 0.0) >= ATTESTED_ZIPF  # noqa: E731
        out = []
        for x, y in pairs:
            by_kind = {"spacing": glued_marks(x, y), "spelling": self._speller.misspelled(x, y, attested),
                       "repeated": repeated_words(x, y)}
            out.append({kind: words for kind, words in by_kind.items() if words})
        return out


def _dictionary_version(path: str) -> dict[str, str]:
    """What a cached verdict depends on beyond the options: the dictionary's two files (a
    digest of each) and the version of spylls that reads them."""
    import hashlib
    from importlib.metadata import PackageNotFoundError, version
    from pathlib import Path

    files = [Path(path).with_suffix(suffix) for suffix in (".dic", ".aff")]
    try:
        reader = version("spylls")
    except PackageNotFoundError:  # the check says so where it first reads the dictionary
        reader = "none"
    return {"files": ",".join(hashlib.sha256(f.read_bytes()).hexdigest()[:16] for f in files), "spylls": reader}
