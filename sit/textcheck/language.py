"""Which language a translation is in: py3langid (langid.py's model, shipped in the wheel),
restricted to a set of candidate languages.

Chosen over lingua-language-detector by ``benchmarks/bench_langid.py`` (docs/relations.md): on 160
short sentences (8 words) in es, ca, en, pt and fr, py3langid was right on 160, lingua on 158, and
py3langid took 0.03 ms a sentence against lingua's 4 ms.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional, Sequence

from .. import hints
from ..batching import cached_batches
from ..errors import MissingDependencyError
from ..stage import Stage

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


class LanguageIdentifier(Stage):
    """py3langid's identifier over ``languages`` (those py3langid knows), a cached stage: each
    text's probabilities over the candidates are kept in the cache (``languages`` entries), so a
    re-run of cached translations loads no model. The model loads once, on the first text (or
    list of known languages) the cache does not hold."""

    name = "py3langid"
    kind = "languages"
    verb = "identify language"
    unit = "text"
    batch_size = 256

    def __init__(self, languages: Sequence[str], *, cache=None):
        super().__init__(cache=cache)
        self.requested = tuple(dict.fromkeys(languages))
        self._model = None
        self._languages: Optional[tuple[str, ...]] = None
        self.version()  # a missing py3langid is said now, before any work

    def version(self) -> str:
        from importlib import metadata

        try:
            return metadata.version("py3langid")
        except metadata.PackageNotFoundError:
            raise MissingDependencyError(f"the language check needs py3langid: {hints.LANGID}") from None

    def options(self) -> dict[str, Any]:
        return {"languages": list(self.requested)}

    @property
    def languages(self) -> tuple[str, ...]:
        """The candidates py3langid knows, in the order asked (kept in the cache beside the texts)."""
        if self._languages is None:
            known = self.cache.store(self.kind, {**self.signature(), "of": "known"}) if self.cache else None
            cached = known.get("known", None) if known is not None else None
            if not (isinstance(cached, list) and all(isinstance(lang, str) for lang in cached)):
                cached = [lang for lang in self.requested if lang in self._known()]
                if known is not None:
                    known.put("known", cached)
            self._languages = tuple(cached)
        return self._languages

    def knows(self, lang: str) -> bool:
        return lang in self.languages

    def identify(self, text: str, expected: str) -> Identified:
        """The likeliest of the candidate languages for ``text``, and ``expected``'s probability."""
        return self.identify_all([text], expected)[0]

    def identify_all(self, texts: Sequence[str], expected: str) -> list[Identified]:
        """:meth:`identify` for each of ``texts``, those an earlier run identified from the cache."""
        ranked = cached_batches(list(dict.fromkeys(texts)), self.batch_job("_rank_batch", valid=_probabilities))
        return [_best(ranked[text], expected) for text in texts]

    def _known(self) -> set[str]:
        """The languages py3langid knows. Asked at set-up (the run's signature names them), long
        before the check stage identifies anything: a model loaded only for them is let go at once,
        so its 60-90 MB are not held through the perturber and the parser (benchmarks/bench_run.py)."""
        return set(self._model.nb_classes) if self._model is not None else set(_known_languages())

    def _loaded(self):
        if self._model is None:
            self._model = self._load_model()
        return self._model

    @staticmethod
    def _load_model():
        from py3langid.langid import MODEL_FILE, LanguageIdentifier as Model

        return Model.from_model_file(MODEL_FILE, norm_probs=True)

    def _rank_batch(self, texts: list[str]) -> list[dict[str, float]]:
        model = self._loaded()
        model.set_languages(list(self.languages))
        return [{lang: float(p) for lang, p in model.rank(text)} for text in texts]


@lru_cache(maxsize=1)
def _known_languages() -> frozenset:
    # what the installed model knows, read once per process (each load costs about 0.3 s)
    return frozenset(LanguageIdentifier._load_model().nb_classes)


def _probabilities(value: Any) -> bool:
    return (isinstance(value, dict) and bool(value)
            and all(isinstance(k, str) and isinstance(v, float) for k, v in value.items()))


def _best(ranked: dict[str, float], expected: str) -> Identified:
    best = max(ranked, key=ranked.get)
    return Identified(best, ranked[best], ranked.get(expected, 0.0))
