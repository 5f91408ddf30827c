"""The ``Judge`` face: given a source and two translations of it, which translation is worse.

:meth:`Judge.judge` is public: it takes a batch of (source, a, b) triples and answers one
:class:`Verdict` each, in order. It abstains (a ``tie`` with a ``reason``) where a judge is known
to be blind, before any model is asked: the two translations are the same, one is empty, or the
two copy different source words verbatim (sit's untranslated-word rule,
:func:`sit.textcheck.untranslated.copied_words`: sentence encoders prefer the output that copies
source words, so the copy, not the judge, decides there; the ``language`` relation reports it).
The rest go through the one cached batch loop (:meth:`sit.stage.Stage.batch_job`): a triple
judged once is answered from the cache (kind ``judgements``) ever after, and nothing is cached
that a judge did not answer. Each judge implements :meth:`Judge._judge_batch` only.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ..batching import cached_batches
from ..stage import Stage
from ..words import TOKEN

#: what a verdict's ``worse`` may be: translation a, translation b, or neither
WORSE = ("a", "b", "tie")
#: why a judge abstained (a tie it did not judge)
ABSTAIN_REASONS = {
    "identical": "the two translations are the same",
    "empty": "a translation is empty",
    "copied": "the translations copy different source words verbatim (sit's language relation reports that)",
}
#: the scripts a target language is written in (by Unicode's names); languages not listed: Latin
TARGET_SCRIPTS = {
    "zh": ("CJK",), "ja": ("CJK", "HIRAGANA", "KATAKANA"), "ko": ("HANGUL", "CJK"), "ru": ("CYRILLIC",),
    "uk": ("CYRILLIC",), "bg": ("CYRILLIC",), "sr": ("CYRILLIC", "LATIN"), "el": ("GREEK",), "ar": ("ARABIC",),
    "fa": ("ARABIC",), "he": ("HEBREW",), "hi": ("DEVANAGARI",), "th": ("THAI",),
}


@dataclass(frozen=True)
class Verdict:
    """Which of two translations of one source is worse: ``worse`` is ``"a"``, ``"b"`` or
    ``"tie"``; ``score_a`` / ``score_b`` are the judge's scores of each (higher is better; None
    where it abstained); ``span`` is where, in the worse translation, the judge places the
    trouble (character offsets, end exclusive; None where it cannot say) and ``span_text`` that
    text; ``reason`` says why a judge abstained ("" where it judged); ``basis`` what decided (the
    judge's model, or one of its checks: ``numbers``, ``negation``, ``names``)."""

    worse: str
    score_a: Optional[float] = None
    score_b: Optional[float] = None
    span: Optional[tuple[int, int]] = None
    span_text: str = ""
    reason: str = ""
    judge: str = ""
    basis: str = ""

    @property
    def margin(self) -> Optional[float]:
        """How far apart the two scores are (None where either is unknown)."""
        if self.score_a is None or self.score_b is None:
            return None
        return abs(self.score_a - self.score_b)

    def to_dict(self) -> dict[str, Any]:
        return {"worse": self.worse, "score_a": self.score_a, "score_b": self.score_b,
                "span": list(self.span) if self.span else None, "span_text": self.span_text,
                "reason": self.reason, "judge": self.judge, "basis": self.basis}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Verdict":
        if d["worse"] not in WORSE:
            raise ValueError(f"worse {d['worse']!r}")
        span = d.get("span")
        return cls(d["worse"], d.get("score_a"), d.get("score_b"), tuple(span) if span else None,
                   d.get("span_text", ""), d.get("reason", ""), d.get("judge", ""), d.get("basis", ""))


def decide(score_a: float, score_b: float, tie_below: float = 0.0) -> str:
    """``"a"`` where a's score is lower (a is worse), ``"b"`` where b's is, ``"tie"`` where they
    are less than ``tie_below`` apart (or equal)."""
    if abs(score_a - score_b) <= tie_below:
        return "tie"
    return "a" if score_a < score_b else "b"


def difference_span(worse: str, other: str) -> Optional[tuple[int, int]]:
    """Where ``worse`` differs from ``other``, as character offsets in ``worse``: from the first
    differing word or punctuation mark (:data:`sit.words.TOKEN`) to the last (an empty span where
    ``worse`` only lacks words the other has);
    None where they have the same words."""
    wa = [(m.start(), m.end(), m.group()) for m in TOKEN.finditer(worse)]
    wb = [m.group() for m in TOKEN.finditer(other)]
    blocks = [op for op in difflib.SequenceMatcher(None, [w for _, _, w in wa], wb, autojunk=False).get_opcodes()
              if op[0] != "equal"]
    if not blocks:
        return None
    first, last = blocks[0][1], blocks[-1][2]
    if first == last:  # words missing here: an empty span where they would be
        at = wa[first][0] if first < len(wa) else len(worse)
        return (at, at)
    return (wa[first][0], wa[last - 1][1])


def script(char: str) -> str:
    """The script of a letter as Unicode names it (``CJK``, ``CYRILLIC``, ``LATIN``...); "" for
    anything else."""
    if not char.isalpha():
        return ""
    return unicodedata.name(char, "").split(" ")[0]


def copied_script(source: str, translation: str, target_lang: str) -> frozenset[str]:
    """Runs of the translation in a script of the source that the target language is not written
    in (Chinese characters left in an English translation): copied text that
    :func:`~sit.textcheck.untranslated.copied_words`, which reads Latin words, cannot see."""
    own = TARGET_SCRIPTS.get(target_lang.split("-")[0], ("LATIN",))
    foreign = {script(c) for c in source} - {"", *own}
    if not foreign:
        return frozenset()
    runs = re.findall(r"\w+", "".join(c if script(c) in foreign else " " for c in translation))
    return frozenset(r for r in runs if r in source)


class Judge(Stage):
    """Base of every judge (a :class:`~sit.stage.Stage`, cached in the ``judgements`` kind).

    Subclasses set :attr:`name` and implement :meth:`_judge_batch` (triples in, one
    :class:`Verdict` each out, in order). ``source_lang`` and ``target_lang`` are the languages of
    the sources and of the translations; ``abstain=False`` judges even where the judge is known to
    be blind (for measuring it)."""

    name = "judge"
    kind = "judgements"
    verb = "judge"
    unit = "pair"
    batch_size = 64
    #: the constructor keywords a user may set with ``--judge-option`` (:class:`sit.options.Option`);
    #: ``option_names``, names alone, is the untyped form of old, still read
    option_specs: tuple = ()
    option_names: tuple[str, ...] = ()

    def __init__(self, source_lang: str = "en", target_lang: str = "es", *, cache=None, progress: bool = False,
                 abstain: bool = True):
        super().__init__(cache=cache, progress=progress)
        self.source_lang = source_lang
        self.target_lang = target_lang
        self.abstain = abstain

    def signature(self) -> dict[str, Any]:
        return {**super().signature(), "source_lang": self.source_lang, "target_lang": self.target_lang}

    # -- the public face -----------------------------------------------------------------------
    def judge(self, triples: Sequence[tuple[str, str, str]]) -> list[Verdict]:
        """One :class:`Verdict` per (source, a, b) triple, in order: abstentions first (see the
        module), the rest from the cache or the judge, in batches."""
        triples = [(s, a, b) for s, a, b in triples]
        reasons = [self.blind(s, a, b) if self.abstain else ("identical" if a == b else "") for s, a, b in triples]
        keys = [json.dumps(t, ensure_ascii=False) for t, why in zip(triples, reasons) if not why]
        job = self.batch_job("_judge_keys", valid=lambda v: isinstance(v, Verdict),
                             encode=Verdict.to_dict, decode=Verdict.from_dict)
        judged = cached_batches(keys, job) if keys else {}
        return [Verdict("tie", reason=why, judge=self.name) if why else judged[json.dumps(t, ensure_ascii=False)]
                for t, why in zip(triples, reasons)]

    def blind(self, source: str, a: str, b: str) -> str:
        """Why this judge abstains on the triple (a key of :data:`ABSTAIN_REASONS`), or ""."""
        if a.strip() == b.strip():
            return "identical"
        if not a.strip() or not b.strip():
            return "empty"
        if self.copies(source, a) != self.copies(source, b):
            return "copied"
        return ""

    def copies(self, source: str, translation: str) -> frozenset[str]:
        """The source words ``translation`` copies verbatim where the target language has its own
        word (the ``language`` relation's rule); a translation that is the source itself copies
        every word."""
        from ..textcheck.untranslated import copied_words

        if " ".join(translation.split()) == " ".join(source.split()):
            return frozenset({"<the whole source>"})
        return frozenset(copied_words(source, translation, self.source_lang, self.target_lang)) | \
            copied_script(source, translation, self.target_lang)

    def _judge_keys(self, keys: list[str]) -> list[Verdict]:
        """The batch loop's hook: the keys (JSON triples) back to triples, then :meth:`_judge_batch`."""
        return self._judge_batch([tuple(json.loads(k)) for k in keys])

    # -- the judge's hook ----------------------------------------------------------------------
    def _judge_batch(self, triples: list[tuple[str, str, str]]) -> list[Verdict]:
        raise NotImplementedError

