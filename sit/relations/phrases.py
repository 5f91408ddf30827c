"""The substitute's own phrase: whether a structure difference is just the two phrases' own
translations (issue 32).

A similar noun or adjective can make a phrase that the translator renders in another shape,
rightly: "foreign ministers" is "ministros de asuntos exteriores", "foreign ambassadors"
"embajadores extranjeros"; "school gyms" is "gimnasios escolares", "hotel gyms" "gimnasios de
hotel". The two sentence translations then differ in structure while both are right. ``sit``
therefore asks the translator for the substitute's phrase alone, on both sides (the phrase:
:func:`phrase_span`, the noun phrase the word belongs to without its determiner, its
prepositional phrases or its clauses), and calls a difference *explained by the phrase*
(:func:`explained`) when

- each sentence translation holds its phrase's translation alone, word for word (case aside);
- with the two phrase translations set aside, the sentences agree but for agreement and function
  words (:func:`agreement_outside`); and
- each phrase stands in its sentence translation as one nominal phrase of the target parse: one
  token attached outside it, and inside only the relations of a noun phrase (:data:`NOMINAL`;
  ``advmod`` and ``acl`` only where the English phrase has an adverb or a verb form; ``nmod`` on
  the side of its head that the language's other trees put it).

The last condition keeps the findings where the phrase itself is mistranslated in a way a
phrase cannot be right: "a little kid" -> "un poco niño" (an adverb where English has none),
"privacy advocates" -> "intimidad defiende" (a verb), "a mighty new telescope" -> "un telescopio
muy nuevo", "worldwide growth" -> "en todo el mundo crecimiento". Pure functions over spaCy tokens and :class:`~sit.records.Tree`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Optional, Sequence

#: English relations of a noun's pre-modifiers, kept in its phrase with their subtrees
PREMODIFIERS = frozenset({"amod", "compound", "nmod", "nummod", "npadvmod", "quantmod"})
#: the English relations by which a word modifies the noun after it (climbed to that noun)
MODIFIES = frozenset({"amod", "compound", "nmod", "nummod"})
NOUNS = frozenset({"NOUN", "PROPN"})
#: the longest English phrase (tokens) asked alone
MAX_PHRASE = 8
#: target relations (Universal Dependencies) inside a noun phrase
NOMINAL = frozenset({"det", "amod", "nmod", "case", "compound", "flat", "flat:name", "fixed", "appos",
                     "conj", "cc", "nummod", "punct"})
#: target relations allowed inside only where the English phrase has that part of speech
BY_ENGLISH = {"advmod": "ADV", "acl": "VERB"}


@dataclass(frozen=True)
class Phrase:
    """The substitute's phrase on both sides: the English text in the original and in the
    perturbed sentence, and the parts of speech of the original phrase (spaCy's UPOS)."""

    original: str
    perturbed: str
    pos: frozenset

    def texts(self) -> tuple[str, str]:
        return self.original, self.perturbed

    def to_dict(self) -> dict:
        return {"original": self.original, "perturbed": self.perturbed, "pos": sorted(self.pos)}

    @classmethod
    def from_dict(cls, d: Optional[dict]) -> Optional["Phrase"]:
        """The phrase :meth:`to_dict` wrote (None stays None)."""
        return d and cls(d["original"], d["perturbed"], frozenset(d["pos"]))


def _head(tok):
    """The noun a modifier belongs to (``school`` -> ``gyms``; ``member`` -> ``states``), the first
    conjunct of a coordination of nouns (``churches`` of ``gyms and churches`` -> ``gyms``)."""
    while tok.dep_ in MODIFIES and tok.head.i > tok.i and tok.head.pos_ in NOUNS | {"ADJ"}:
        tok = tok.head
    while tok.dep_ == "conj" and tok.pos_ in NOUNS and tok.head.pos_ in NOUNS and tok.head.i < tok.i:
        tok = tok.head
    return tok


def _members(head, out: set[int]) -> None:
    """``head``, its pre-modifiers' subtrees, and its noun conjuncts (with theirs and the ``cc``)."""
    out.add(head.i)
    for child in head.lefts:
        if child.dep_ in PREMODIFIERS:
            out.update(t.i for t in child.subtree)
        elif child.dep_ == "advmod" and head.pos_ == "ADJ":
            out.update(t.i for t in child.subtree)
    conjuncts = [c for c in head.rights if c.dep_ == "conj" and c.pos_ in NOUNS]
    for child in head.rights:
        if child.dep_ == "cc" and conjuncts:
            out.add(child.i)
    for conj in conjuncts:
        _members(conj, out)


def phrase_span(doc, position: int) -> Optional[tuple[int, int]]:
    """Token range ``[start, end)`` of the phrase of the word at ``position`` in the spaCy ``doc``:
    the noun it is or modifies, that noun's pre-modifiers (adjectives, nouns, numbers, with their
    own modifiers) and its noun conjuncts, without determiners, possessives, prepositional
    phrases or clauses ("his infrastructure plan" -> "infrastructure plan"; "in school gyms and
    churches" -> "school gyms and churches"; a predicative adjective: itself and its adverbs).
    None where it would be longer than :data:`MAX_PHRASE` tokens or the whole sentence."""
    if not 0 <= position < len(doc):
        return None
    members: set[int] = set()
    _members(_head(doc[position]), members)
    start, end = min(members), max(members) + 1
    if end - start > MAX_PHRASE or (start == 0 and end >= len(doc) - 1):
        return None
    while start < position and doc[start].is_punct:
        start += 1
    return start, end


def source_phrase(doc, original: str, perturbed: str, position: int, char_start: int,
                  char_end: int) -> Optional[Phrase]:
    """The substitute's :class:`Phrase`: the span of :func:`phrase_span` in ``original`` (parsed as
    ``doc``), and the same span in ``perturbed``, where the word at ``position`` stands at
    ``[char_start, char_end)``. None where there is no phrase or the texts do not line up."""
    span = phrase_span(doc, position)
    if span is None:
        return None
    word = doc[position]
    start, end = doc[span[0]].idx, doc[span[1] - 1].idx + len(doc[span[1] - 1].text)
    if char_start != word.idx or original[:word.idx] != perturbed[:char_start]:
        return None
    shift = (char_end - char_start) - len(word.text)
    if original[word.idx + len(word.text):end] != perturbed[char_end:end + shift]:
        return None
    pos = frozenset(t.pos_ for t in doc[span[0]:span[1]])
    return Phrase(original[start:end], perturbed[start:end + shift], pos)


def find(tokens: Sequence[str], part: Sequence[str]) -> list[int]:
    """Where ``part`` stands in ``tokens`` as a run of whole tokens (case aside): start indices."""
    low, want = [t.lower() for t in tokens], [t.lower() for t in part]
    n = len(want)
    return [i for i in range(len(low) - n + 1) if n and low[i:i + n] == want]


def nmod_before(trees) -> bool:
    """Whether the target language's nominal modifiers (``nmod``) usually stand before their
    head in ``trees`` (Chinese, Japanese: "城市的市长"), not after it (Spanish, French: "plan de
    infraestructura"): the side most of the trees' ``nmod`` arcs take."""
    before = after = 0
    for tree in trees:
        for i, (rel, head) in enumerate(zip(tree.relations, tree.heads)):
            if rel == "nmod" and head:
                before, after = before + (i < head - 1), after + (i > head - 1)
    return before > after


def nominal(tree, start: int, end: int, english_pos: frozenset, nmod_first: bool = False) -> bool:
    """Whether tokens ``[start, end)`` of ``tree`` make one nominal phrase of the target parse: one
    token attached outside the span, and every other token attached inside by a relation of a
    noun phrase (:data:`NOMINAL`, or one of :data:`BY_ENGLISH` whose part of speech the English
    phrase has), an ``nmod`` on the side the language puts it (``nmod_first``: before its head,
    see :func:`nmod_before`), and no preposition of the phrase's head where English has none ("en
    todo el mundo crecimiento" for "worldwide growth" is a prepositional phrase)."""
    tops = [i for i in range(start, end) if not start <= tree.heads[i] - 1 < end]
    if len(tops) != 1:
        return False
    for i in range(start, end):
        head = tree.heads[i] - 1
        if i == tops[0]:
            continue
        rel = tree.relations[i]
        base = rel.split(":")[0]
        if rel not in NOMINAL and base not in NOMINAL and BY_ENGLISH.get(base) not in english_pos:
            return False
        if (rel == "nmod" and (i < head) != nmod_first) or (base == "case" and head == tops[0] and "ADP" not in english_pos):
            return False
    return True


def explained(a, b, alone_a: Sequence[str], alone_b: Sequence[str], english_pos: frozenset,
              stops: frozenset[str], nmod_first: bool = False) -> bool:
    """Whether the trees ``a`` and ``b`` of the two sentence translations differ only by the
    tokens of their phrases' translations alone (``alone_a``, ``alone_b``), each a nominal phrase
    there (:func:`nominal`), and by the agreement the new phrase asks of the rest
    (:func:`agreement_outside`)."""
    for i in find(a.tokens, alone_a):
        if not nominal(a, i, i + len(alone_a), english_pos, nmod_first):
            continue
        rest_a = a.tokens[:i] + (MARK,) + a.tokens[i + len(alone_a):]
        for k in find(b.tokens, alone_b):
            rest_b = b.tokens[:k] + (MARK,) + b.tokens[k + len(alone_b):]
            if nominal(b, k, k + len(alone_b), english_pos, nmod_first) and agreement_outside(rest_a, rest_b, stops):
                return True
    return False


#: the token that stands for a phrase's translation in :func:`agreement_outside`
MARK = "\x00phrase"
#: endings of gender and number (Romance languages; "cortado"/"cortada", "nuevo"/"nuevos")
_ENDING = re.compile(r"(os|as|es|o|a|e|s)$")


def inflection(x: str, y: str) -> bool:
    """Two words that differ only by an ending of gender or number (stems of 3 letters or more)."""
    x, y = x.lower(), y.lower()
    sx, sy = _ENDING.sub("", x), _ENDING.sub("", y)
    return x == y or (x.isalpha() and y.isalpha() and len(sx) >= 3 and sx == sy)


def agreement_outside(a: Sequence[str], b: Sequence[str], stops: frozenset[str]) -> bool:
    """Whether two token sequences, each with its phrase's translation set aside as :data:`MARK`,
    differ only by the agreement a new noun asks: words that change only their gender or number
    ending (:func:`inflection`: "fue cortado" / "fue cortada"), and function words next to the
    phrase ("el" / "la", "del" / "de la"). A verb's tense, a word moved, inserted or dropped
    elsewhere, a function word changed away from the phrase: not agreement."""
    ma, mb = a.index(MARK), b.index(MARK)
    for op, a0, a1, b0, b1 in SequenceMatcher(None, list(a), list(b), autojunk=False).get_opcodes():
        if op == "equal":
            continue
        ha, hb = a[a0:a1], b[b0:b1]
        if len(ha) == len(hb) and all(inflection(x, y) for x, y in zip(ha, hb)):
            continue
        beside = a0 == ma + 1 or a1 == ma or b0 == mb + 1 or b1 == mb
        if not beside or not all(t.lower() in stops for t in (*ha, *hb)):
            return False
    return True


def matched(tokens: Sequence[str], alone: Sequence[str]) -> bool:
    """Whether a phrase's translation alone stands in a sentence translation's ``tokens``."""
    return bool(find(tokens, alone))


__all__ = ["BY_ENGLISH", "MARK", "MAX_PHRASE", "NOMINAL", "Phrase", "agreement_outside", "explained", "find",
           "inflection", "matched", "nmod_before", "nominal", "phrase_span", "source_phrase"]
