"""Fluency: does a substitute fit the words around it, as English text has them?

A WordNet neighbour is a related word, not a word a writer would put there: "the interior
pastor", "a tropical inversion warning", "party heads". An n-gram language model knows which word
sequences English uses. :class:`NgramModel` scores, for a sentence and one replaced word, how much
less likely the n-grams through that word become (``fall``, in log10 units: 1.0 is ten times less
likely); the quality stage drops a substitute whose fall is above ``max_lm_fall``.

Offline default: the generic US English trigram model that the ``pocketsphinx`` package ships
(``model/en-us/en-us.lm.bin``, CMU Sphinx, BSD licence; lower case, no punctuation), read and
scored with pocketsphinx's own n-gram code. Any ARPA or Sphinx binary model can be named instead
(``--perturber-option lm=PATH``).
"""

from __future__ import annotations

import importlib.util
import math
import os
from typing import Optional, Sequence

from ..errors import ConfigError, MissingDependencyError

#: the model the ``auto`` choice reads, inside the installed ``pocketsphinx`` package
SHIPPED_LM = os.path.join("model", "en-us", "en-us.lm.bin")
#: pocketsphinx reports log probabilities in base 1.0001 (its LogMath default)
_TO_LOG10 = math.log10(1.0001)
#: the log10 probability an unknown word gets (below any word the model knows)
UNKNOWN = -8.0


def shipped_lm() -> Optional[str]:
    """The trigram model the ``pocketsphinx`` package ships, or None where it is not installed."""
    spec = importlib.util.find_spec("pocketsphinx")
    if spec is None or not spec.origin:
        return None
    path = os.path.join(os.path.dirname(spec.origin), SHIPPED_LM)
    return path if os.path.isfile(path) else None


def resolve_lm(name: Optional[str]) -> tuple[Optional[str], str]:
    """The model file to read for ``name`` (``auto``, ``none`` or a path) and why."""
    if name in ("none", "off", "", None):
        return None, "no fluency check (lm=none)"
    if name != "auto":
        if not os.path.isfile(name):
            raise ConfigError(f"lm={name!r} is not a file: name an ARPA or Sphinx binary n-gram model, or lm=auto")
        return name, f"n-gram model {name} (chosen)"
    path = shipped_lm()
    if path is None:
        return None, "no fluency check: pip install pocketsphinx (it ships an English trigram model)"
    return path, "the US English trigram model pocketsphinx ships"


def lm_words(doc) -> tuple[list[str], dict[int, int]]:
    """The words of a tagged sentence as the model reads them, between ``<s>`` and ``</s>``: lower
    case, a clitic joined to its word (``company's``, ``don't``), punctuation and numbers left out;
    and where each token's word is (token index -> list index; a clitic maps to its word)."""
    words = ["<s>"]
    where: dict[int, int] = {}
    for tok in doc:
        text = tok.text.lower()
        if (text.startswith("'") or text == "n't") and len(words) > 1 and tok.i - 1 in where:
            words[-1] += text
            where[tok.i] = len(words) - 1
        elif any(c.isalpha() for c in text):
            where[tok.i] = len(words)
            words.append(text)
    words.append("</s>")
    return words, where


class NgramModel:
    """An n-gram language model, read on first use with pocketsphinx's ``NGramModel``."""

    def __init__(self, path: str):
        self.path = path
        self._model = None
        self._order = 0

    def source(self) -> str:
        """What the model is (written to the perturber's signature): the shipped model by its
        package version, another by its path and size."""
        shipped = shipped_lm()
        if shipped is not None and os.path.realpath(self.path) == os.path.realpath(shipped):
            from importlib import metadata

            return f"pocketsphinx-{metadata.version('pocketsphinx')}:{os.path.basename(self.path)}"
        return f"{os.path.abspath(self.path)} ({os.path.getsize(self.path)} bytes)"

    def release(self) -> None:
        """Let go of the loaded model; the next lookup reads it again."""
        self._model = None

    def _load(self):
        if self._model is None:
            try:
                from pocketsphinx import NGramModel as _Reader
            except ImportError as exc:
                raise MissingDependencyError(
                    "the fluency check reads its n-gram model with pocketsphinx: pip install pocketsphinx "
                    "(or --perturber-option lm=none)"
                ) from exc
            try:
                self._model = _Reader.readfile(self.path)
            except Exception as exc:  # pocketsphinx raises a bare RuntimeError/ValueError on a bad file
                raise ConfigError(f"cannot read the n-gram model {self.path!r} ({exc}); name an ARPA or Sphinx binary model, or lm=none") from exc
            self._order = self._model.size()
        return self._model

    def logprob(self, word: str, history: Sequence[str]) -> float:
        """log10 P(``word`` | ``history``), the history nearest word last; unknown words get
        :data:`UNKNOWN`."""
        model = self._load()
        context = list(history[-(self._order - 1):])[::-1] if self._order > 1 else []
        value = model.prob([word, *context]) * _TO_LOG10
        return max(value, UNKNOWN)

    def association(self, first: str, second: str) -> float:
        """How much more likely (log10) ``second`` is right after ``first`` than alone: above 0
        where the model knows the pair ("ice storm" 2.6, "privacy experts" 1.5), at or below 0
        where it backs off to ``second`` alone, a pair its corpus never had ("fact centers"
        -0.8). Lower-cased, as the model reads words."""
        second = second.lower()
        return round(self.logprob(second, [first.lower()]) - self.logprob(second, []), 4)

    def fall(self, words: Sequence[str], index: int, new: str, *, before: Optional[float] = None) -> float:
        """How much less likely (log10) the n-grams through ``words[index]`` become when it is
        ``new``; negative where the new word fits better. ``before``: :meth:`window` of ``words``
        at ``index``, where the caller already has it."""
        changed = list(words)
        changed[index] = new
        if before is None:
            before = self.window(words, index)
        return round(before - self.window(changed, index), 4)

    def window(self, words: Sequence[str], index: int) -> float:
        """The summed log10 probability of the words whose n-gram contains ``words[index]`` (the
        model is loaded first: its order says how many words that is)."""
        self._load()
        end = min(len(words), index + max(self._order, 1))
        return sum(self.logprob(words[k], words[max(0, k - self._order + 1):k]) for k in range(index, end))


class SentenceScorer:
    """One tagged sentence as ``model`` reads it (:func:`lm_words`), for scoring its slots'
    candidates: the original words' n-grams through a slot are scored once, since every candidate
    for that slot is compared with them."""

    def __init__(self, model: NgramModel, doc):
        self.model = model
        self.doc = doc
        self.words, self.where = lm_words(doc)
        self._before: dict[int, float] = {}

    def fall(self, index: int, word: str) -> float:
        """:meth:`NgramModel.fall` of ``word`` at token ``index`` (a clitic after the token stays:
        ``charity's``)."""
        at = self.where[index]
        new = word.lower() + self.words[at][len(self.doc[index].text):]
        if at not in self._before:
            self._before[at] = self.model.window(self.words, at)
        return self.model.fall(self.words, at, new, before=self._before[at])
