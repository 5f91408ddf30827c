"""Checks of a translation answer, before anything of it is cached.

:func:`failed` is the per-text rule every translator applies (:meth:`Translator.check_answer`): an
answer must be text UTF-8 can carry (no lone surrogate), and not empty (or only spaces) for a
non-empty text.

:func:`suspect_order` is the per-batch check for APIs whose batch answers nothing aligns
(DeepL, Google, Bing: a list in the order sent; OpenAI's ids, which a model can give another
text's translation): a provider or a proxy that reorders them would otherwise have every
translation cached against another text. It reads three signals that translation keeps:

* **numbers**: the digits of a text come back in its translation (``1,200`` as ``1.200``: the
  digit runs are compared, separators ignored);
* **pass-through words**: names and codes (``NASA``, ``Obama``, ``COVID-19``: a capital after the
  first letter of the text, or letters mixed with digits), URLs, placeholders, code, tags
  (:mod:`sit.textcheck.tokens`), and letter 4-grams of cognates;
* **length**: the answer's length over the text's stays near the batch's typical ratio.

A batch is suspect when an answer contradicts its own text (none of its numbers or tokens but
another text's; a length :data:`LENGTH_LIMIT` off the batch's ratio), when another answer fits a
text better than its own by :data:`MARGIN`, or when two near copies (:data:`NEAR`: a sentence and
its perturbation) fit each other's answers better by :data:`SWAP_MARGIN`, read on what tells the
two apart. Texts of fewer than :data:`MIN_WORDS` words (a word translated alone) take no part
in it; :func:`unplaced` holds their answers for the second look instead.
The caller re-asks a suspect batch one text at a time (one text cannot be misordered), and
:func:`moved` says whether the texts asked alone show the batch's answers moved: the provider then
gets no batch trusted again (:meth:`sit.translators.http.HttpTranslator.ordered`). docs/cloud.md
gives the false-alarm rate on clean answers and what a consistently reordering provider gets past
it (benchmarks/bench_order_check.py).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from statistics import median
from typing import Any, Optional, Sequence

from ..textcheck.tokens import tokens_of
from ..words import ANSWER_WORD

_DIGITS = re.compile(r"\d+")
#: how much better (in score points) another answer must fit a text to call the batch suspect
MARGIN = 1.0
#: the weight of shared letter 4-grams (cognates, names: "central" and "central", "interest" and
#: "interés"); between scripts there are none, and the signal is silent
COGNATES = 4.0
#: the weight of punctuation kept (commas, quotes, brackets, question marks: translation keeps
#: most of them, and sentences differ in them)
MARKS = 1.0
#: the weight of the share of capitals kept (a sentence and its ALL-CAPS copy)
CAPITALS = 2.0
#: texts of fewer words take no part in :func:`suspect_order`: a word alone has too little to tell
#: its answer by ("funding" shares more letters with "Fundación" than with its own "Financiación");
#: :func:`unplaced` holds them
MIN_WORDS = 3
#: how much better (in weight: a letter 4-gram 1, a name 2, a number or a token 3) two answers
#: must fit each other's text, by what tells the two texts apart, to call the batch suspect
SWAP_MARGIN = 3.0
#: an answer whose length over its text's is this far (in natural log) from the batch's typical
#: ratio contradicts its text on its own (e**1.4: four times longer or shorter)
LENGTH_LIMIT = 1.4
#: how much better (in score points, both texts' fits summed) two texts that are no near copies
#: must fit each other's answers than their own to call the batch suspect; an answer whose text
#: and another's are not told apart by as much either way cannot be placed (:func:`unplaced`)
PAIR_MARGIN = 1.0
#: letters two words share at their start to be taken for forms of one stem (:func:`_same_stem`)
STEM = 5
#: two texts sharing this share of their words are near copies (:func:`_near`)
NEAR = 0.6


def failed(text: str, answer: Any) -> Optional[str]:
    """Why ``answer`` is not a translation of ``text`` (None: it may be one; ``None`` itself, a
    refusal the adapter reports, passes: it is left untranslated without a retry)."""
    if answer is None:
        return None
    if not isinstance(answer, str):
        return f"a {type(answer).__name__}, not text"
    if text.strip() and not answer.strip():
        return "empty"
    try:
        answer.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\\ud800" in a JSON answer): no file or cache can hold it
        return "text holding a lone surrogate"
    return None


def _numbers(text: str) -> Counter:
    return Counter(m.lstrip("0") or "0" for m in _DIGITS.findall(text.replace(",", "").replace(".", "")
                                                                  .replace("\u00a0", "").replace(" ", "")))


#: punctuation a translation keeps, one count per kind (quotes of every style are one kind)
_MARKS = {**dict.fromkeys(",;:()%$€£?!"), **dict.fromkeys("\"“”«»„", '"')}


def _marks(text: str) -> Counter:
    return Counter(_MARKS[c] or c for c in text if c in _MARKS)


def _anchors(text: str) -> set[str]:
    """Words a translation leaves as they are: capitalised after the first word, or mixing letters
    and digits."""
    words = ANSWER_WORD.findall(text)
    return {w for i, w in enumerate(words)
            if (i > 0 and w[:1].isupper()) or (any(c.isdigit() for c in w) and any(c.isalpha() for c in w))}


class _Side:
    """The features of one text or answer the fit compares."""

    def __init__(self, text: str):
        self.text = text
        self.numbers = _numbers(text)
        self.marks = _marks(text)
        letters = [c for c in text if c.isalpha()]
        #: the share of its letters in capitals (an ALL-CAPS text's translation is in capitals too)
        self.upper = sum(c.isupper() for c in letters) / len(letters) if letters else 0.0
        self.anchors = _anchors(text)
        self.words = set(ANSWER_WORD.findall(text))
        self.size = len(text) + 5
        self.grams = letter_grams(self.words)
        self.tokens = {t.text for t in tokens_of(text)}
        #: what of it a translation keeps: numbers, tokens, names and letter 4-grams, weighed
        self.kept = {**dict.fromkeys(self.grams, 1.0), **dict.fromkeys(("=" + w for w in self.words), 0.0),
                     **dict.fromkeys(("=" + w for w in self.anchors), 2.0),
                     **dict.fromkeys(("@" + t for t in self.tokens), 3.0),
                     **dict.fromkeys(("#" + n for n in self.numbers), 3.0)}


def letter_grams(words) -> set[str]:
    """The lower-cased letter 4-grams of ``words``, each within one word (grams across two words
    taken from a set would change with the process's hash seed, and the check's verdicts with it)."""
    return {w[k:k + 4] for w in {w.lower() for w in words if len(w) > 3} for k in range(len(w) - 3)}


def _fit(text: _Side, answer: _Side, ratio: float) -> float:
    """How well ``answer`` fits ``text``: numbers and pass-through words found, length near
    ``ratio`` (higher is better)."""
    score = 0.0
    if text.numbers or answer.numbers:
        common = sum((text.numbers & answer.numbers).values())
        score += 2.0 * common / max(sum(text.numbers.values()), sum(answer.numbers.values()))
    if text.marks or answer.marks:
        common = sum((text.marks & answer.marks).values())
        score += MARKS * common / max(sum(text.marks.values()), sum(answer.marks.values()))
    if text.anchors:
        score += 2.0 * len(text.anchors & answer.words) / len(text.anchors)
    if text.grams and answer.grams:
        score += COGNATES * len(text.grams & answer.grams) / min(len(text.grams), len(answer.grams))
    score -= CAPITALS * abs(text.upper - answer.upper)
    return score - abs(math.log(answer.size / text.size) - ratio)


def _own_evidence(text: _Side, answer: _Side, ratio: float, others: list[_Side]) -> Optional[str]:
    """Why ``answer`` contradicts ``text`` on the text's own evidence (None: it does not): what it
    keeps contradicts it (:func:`_kept_against`), or its length is far from the batch's ratio."""
    why = _kept_against(text, answer, others)
    if why:
        return why
    if abs(math.log(answer.size / text.size) - ratio) > LENGTH_LIMIT:
        return f"is {answer.size / text.size / math.exp(ratio):.2g} times the batch's typical length"
    return None


def _kept_against(text: _Side, answer: _Side, others: list[_Side]) -> Optional[str]:
    """Why ``answer`` contradicts ``text`` on what translation keeps (None: it does not): it holds
    none of the text's numbers, or none of its pass-through tokens, but some of ``others``' (the
    batch's other texts: a translation that mangles a token makes a new one, a reorder brings
    another text's). Read on texts of every length: a word alone keeps its digits too."""
    if text.numbers and answer.numbers and not text.numbers & answer.numbers \
            and any(answer.numbers & o.numbers for o in others):
        return "holds none of its numbers and another text's instead"
    if text.tokens and answer.tokens and not text.tokens & answer.tokens and any(answer.tokens & o.tokens for o in others):
        return "holds none of its tokens (URLs, placeholders, code) and another text's instead"
    return None


def _near(t1: _Side, t2: _Side) -> bool:
    """Whether two texts are near copies (most of their words shared: a sentence and its
    perturbation), whose answers only the few words that tell them apart can place."""
    return _shared(t1.words, t2.words)


def _shared(words1: set[str], words2: set[str]) -> bool:
    return len(words1 & words2) >= NEAR * len(words1 | words2)


def _same_stem(words1: set[str], words2: set[str]) -> bool:
    """Whether the words that tell two texts apart are forms of one stem ("minister" and
    "ministry": their translations "ministro" and "ministerio" share letters both ways, so the
    letters cannot say which is which)."""
    return any(a.lower()[:STEM] == b.lower()[:STEM] for a in words1 for b in words2 if min(len(a), len(b)) >= STEM)


def _crossed(t1: _Side, t2: _Side, a1: _Side, a2: _Side) -> float:
    """How much better two answers fit their texts swapped than as given, by what tells the two
    texts apart (a sentence and its copy with one word replaced differ only there)."""
    d1, d2 = t1.kept.keys() - t2.kept.keys(), t2.kept.keys() - t1.kept.keys()
    e1, e2 = a1.kept.keys() - a2.kept.keys(), a2.kept.keys() - a1.kept.keys()

    grams = not _same_stem(t1.words - t2.words, t2.words - t1.words)

    def weight(keys) -> float:
        return sum(max(t1.kept.get(k, 0.0), t2.kept.get(k, 0.0)) for k in keys if grams or k[0] in "#@=")

    return weight(d1 & e2) + weight(d2 & e1) - weight(d1 & e1) - weight(d2 & e2)


def suspect_order(texts: Sequence[str], answers: Sequence[Optional[str]]) -> Optional[str]:
    """Why the answers of a batch look misaligned with its texts (module documentation), or None."""
    every = [(i, _Side(t), _Side(a)) for i, (t, a) in enumerate(zip(texts, answers)) if isinstance(a, str) and a.strip()]
    for i, text, own in every:
        if len(text.text.split()) < MIN_WORDS:  # a short text: only what translation keeps is read
            why = _kept_against(text, own, [t for j, t, _ in every if j != i])
            if why:
                return f"answer {i + 1} {why}"
    pairs = [(i, t, a) for i, t, a in every if len(t.text.split()) >= MIN_WORDS]
    if len(pairs) < 2:
        return None
    ratio = median(math.log(a.size / t.size) for _, t, a in pairs)
    for i, text, own in pairs:
        why = _own_evidence(text, own, ratio, [t for j, t, _ in pairs if j != i])
        if why:
            return f"answer {i + 1} {why}"
        mine = _fit(text, own, ratio)
        for j, other_text, other in pairs:
            if j != i and _fit(text, other, ratio) >= mine + MARGIN:
                return f"answer {j + 1} fits text {i + 1} better than its own answer"
            if j > i and _swap_gain(text, other_text, own, other, ratio) >= 0:
                return f"answers {i + 1} and {j + 1} fit each other's text better than their own"
    return None


def _swap_gain(t1: _Side, t2: _Side, a1: _Side, a2: _Side, ratio: float) -> float:
    """How much better two answers fit their texts swapped than as given, less the margin that
    calls it a misorder (>= 0: suspect): near copies by what tells them apart (:func:`_crossed`,
    :data:`SWAP_MARGIN`), other texts by both fits summed (:data:`PAIR_MARGIN`)."""
    if _near(t1, t2):
        return _crossed(t1, t2, a1, a2) - SWAP_MARGIN
    given = _fit(t1, a1, ratio) + _fit(t2, a2, ratio)
    return _fit(t1, a2, ratio) + _fit(t2, a1, ratio) - given - PAIR_MARGIN


def moved(batch: Sequence[Any], alone: Sequence[Any]) -> bool:
    """Whether a batch's answers were moved: some text asked alone got, not its own batch answer,
    but the one the batch gave another text."""
    return any(isinstance(a, str) and a != batch[i] and a in list(batch[:i]) + list(batch[i + 1:]) for i, a in enumerate(alone))



def unplaced(texts: Sequence[str], answers: Sequence[Optional[str]]) -> list[tuple[int, int]]:
    """The answers of a batch (one the check does not doubt) whose place its evidence cannot
    prove, in pairs: two answers that could be swapped without the check seeing it (near copies
    told apart by a word that shares nothing with its translation; texts whose numbers, names,
    punctuation, letters and lengths fit both answers alike), and each text of fewer than
    :data:`MIN_WORDS` words with every other short text and every longer one its answer would
    not contradict (:func:`suspect_order` does not read short texts: a word alone carries too
    little; a longer text given a word's answer is seen where its length, numbers or tokens
    contradict it, as a sentence given one word is). Such answers are doubtful: the caller asks their texts
    again in other company and compares (:mod:`sit.translators.company`).

    Three answers turned round (each text given the next one's), each two of them told apart,
    can pass :func:`suspect_order`; read on the answers as they came, the pairs of such a turn
    are not told apart, and its three texts are held (all of 325 such turns over 200 batches of
    8 of benchmarks/bench_order_check.py's texts, all of 152 over the news set's four batches of
    50; tests/test_hostile_turns.py turns two of them end to end)."""
    sides = [(i, _Side(t), _Side(a)) for i, (t, a) in enumerate(zip(texts, answers))
             if isinstance(a, str) and a.strip() and len(t.split()) >= MIN_WORDS]
    pairs: set[tuple[int, int]] = set()
    ratio = median(math.log(a.size / t.size) for _, t, a in sides) if len(sides) >= 2 else None
    every = [t for _, t, _ in sides]
    if ratio is not None:
        pairs.update((i, j) for x, (i, ti, ai) in enumerate(sides) for j, tj, aj in sides[x + 1:]
                     if not _told_apart(ti, ai, tj, aj, ratio, every))
    pairs.update(_short_pairs(texts, answers, sides, ratio))
    pairs.update(copies(texts, answers))
    return sorted(pairs)


def copies(texts: Sequence[str], answers: Sequence[Optional[str]]) -> set[tuple[int, int]]:
    """The pairs of different texts of a batch given the same answer. Two texts may translate
    alike ("big" and "large": "grande"), but a provider may also give one text another's answer
    (a copy: the other keeps its own), and nothing in the batch says which it was: each of the
    two is asked again in other company (:func:`sit.translators.company.mark` leaves neither
    unasked: confirming one says nothing of the other)."""
    alike: dict[str, list[int]] = {}
    for i, answer in enumerate(answers):
        if isinstance(answer, str) and answer.strip():
            alike.setdefault(str(answer), []).append(i)
    return {(i, j) for group in alike.values() for x, i in enumerate(group) for j in group[x + 1:] if texts[i] != texts[j]}


def _short_pairs(texts: Sequence[str], answers: Sequence[Optional[str]], sides: list,
                 ratio: Optional[float]) -> set[tuple[int, int]]:
    """The pairs of :func:`unplaced` with a text of fewer than :data:`MIN_WORDS` words: a short
    text and any other whose answers, swapped, :func:`suspect_order` would not doubt (the short
    one read on what translation keeps, :func:`_kept_against`; a longer one on its own evidence,
    length included, where the batch has a ratio)."""
    answered = [(i, _Side(t), _Side(a)) for i, (t, a) in enumerate(zip(texts, answers)) if isinstance(a, str) and a.strip()]
    every = [t for _, t, _ in sides]

    def seen(text: _Side, answer: _Side) -> bool:
        if len(text.text.split()) < MIN_WORDS:
            return bool(_kept_against(text, answer, [t for _, t, _ in answered if t is not text]))
        return ratio is not None and bool(_own_evidence(text, answer, ratio, [t for t in every if t.text != text.text]))

    out = set()
    for x, (i, ti, ai) in enumerate(answered):
        for j, tj, aj in answered[x + 1:]:
            short = len(ti.text.split()) < MIN_WORDS or len(tj.text.split()) < MIN_WORDS
            if short and ai.text != aj.text and not seen(ti, aj) and not seen(tj, ai):
                out.add((i, j))
    return out


def near_copies(text: str, other: str) -> bool:
    """Whether two texts are near copies (a sentence and its perturbation: most words shared)."""
    return near_words(words_of(text), words_of(other))


def words_of(text: str) -> frozenset:
    """The words :func:`near_words` compares (read once where a text meets many others)."""
    return frozenset(ANSWER_WORD.findall(text))


def near_words(words: frozenset, other: frozenset) -> bool:
    """:func:`near_copies` of two texts' :func:`words_of`."""
    return _shared(words, other)


def _told_apart(ti: _Side, ai: _Side, tj: _Side, aj: _Side, ratio: float, every: list) -> bool:
    """Whether the check would doubt a batch (of texts ``every``) holding the answers of two
    texts swapped: the evidence places each of the two answers (identical answers cannot be
    swapped; whether one is a copy is :func:`copies`' question)."""
    if ai.text == aj.text:
        return True
    if _own_evidence(ti, aj, ratio, [tj] + every) or _own_evidence(tj, ai, ratio, [ti] + every):
        return True
    if _fit(ti, ai, ratio) >= _fit(ti, aj, ratio) + MARGIN or _fit(tj, aj, ratio) >= _fit(tj, ai, ratio) + MARGIN:
        return True
    return _swap_gain(ti, tj, aj, ai, ratio) >= 0
