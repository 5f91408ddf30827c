"""Which language a translation is in: py3langid (langid.py's model, shipped in the wheel),
restricted to a set of candidate languages.

Chosen over lingua-language-detector by ``benchmarks/bench_langid.py`` (docs/relations.md): on 160
short sentences (8 words) in es, ca, en, pt and fr, py3langid was right on 160, lingua on 158, and
py3langid took 0.03 ms a sentence against lingua's 4 ms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .. import hints
from ..errors import MissingDependencyError

#: the languages a translation is told apart from besides the run's own two: those a translator
#: into a Romance or Germanic language most plausibly slips into
NEIGHBOURS = ("en", "es", "ca", "pt", "fr", "it", "gl", "de", "nl")


@dataclass(frozen=True)
class Identified:
    """What the identifier says of one text: the likeliest language and its probability among the
    candidates, and the probability of the language it should be in."""

    language: str
    probability: float
    expected: float


class LanguageIdentifier:
    """py3langid's identifier over ``languages`` (those py3langid knows), loaded once."""

    def __init__(self, languages: Sequence[str]):
        try:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier as Model
        except ImportError as exc:
            raise MissingDependencyError(f"the language check needs py3langid: {hints.LANGID}") from exc
        self._model = Model.from_model_file(MODEL_FILE, norm_probs=True)
        known = set(self._model.nb_classes)
        self.languages = tuple(dict.fromkeys(lang for lang in languages if lang in known))
        self._model.set_languages(list(self.languages))

    def knows(self, lang: str) -> bool:
        return lang in self.languages

    def identify(self, text: str, expected: str) -> Identified:
        """The likeliest of the candidate languages for ``text``, and ``expected``'s probability."""
        ranked = dict(self._model.rank(text))
        best = max(ranked, key=ranked.get)
        return Identified(best, float(ranked[best]), float(ranked.get(expected, 0.0)))
