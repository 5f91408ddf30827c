"""The checks the WordNet perturber adds to the quality stage: is the new sentence plausible English?

A WordNet neighbour is a related word, not yet a word a writer would put there. Without a masked LM
(which proposes words that fit their context), the WordNet perturber proposed "a major running
that would help", "this potential uniting", "hospital appeal software", "a national selling
system", "privacy workers", and every false ``sit`` structure finding on held-out news came from
such a sentence (docs/precision.md). Each check is a :class:`~sit.perturb.constraints.Constraint`
with one hook, like the shared ones:

- :class:`VerbForm` (``verb_forms``): the substitute is no verb's gerund or participle standing
  as a noun or adjective ("funding", "selling", "compelling"), nor is the replaced word one that
  modifies the noun after it ("closing schools", "billing software"), unless WordNet's sense-tagged corpus uses it in that part of speech often
  ("building", "meeting", "training": :data:`VERB_FORM_USES`);
- :class:`NotRepeated` (``no_repeats``): the new word is no word the sentence already has;
- :class:`Agreement` (``agreement``): the inflections around it agree: "a"/"an" before the slot
  fits the new word, a plural substitute is a plural English uses (not "stuffs"), and a noun
  that "a"/"an" determines is a count noun (not "a new national news");
- :class:`Supported` (``supported``): where the replaced word forms a known pair with a content
  word it is linked to in the parse ("privacy advocates", "data centers"), the substitute forms
  one too ("privacy experts"; not "privacy workers", "fact centers"), by the n-gram model's own
  bigrams (:meth:`sit.perturb.fluency.NgramModel.association`); a noun compound must be a known
  pair whatever the original was (not "his hoard plan" for "his infrastructure plan");
- :class:`Naturalness` (``min_naturalness``, 0 by default: it scores, drops nothing): a score
  0-1 of how natural the new sentence likely is, kept on the edit; the ``sit`` ranking puts a
  likely unnatural perturbation (below :data:`sit.relations.rank.NATURAL`) after every natural one.

The checks ask the proposer what a word is through :attr:`Models.lexicon` (the WordNet perturber:
``verb_form``, ``singular``, ``article``); a proposer without one (``mlm``) does not run them.
"""

from __future__ import annotations

from typing import Any, Optional

from .constraints import SENTENCE, WORD, Constraint, zipf

#: a word ending in -ing, -ed or -en that WordNet reduces to a verb is a verb form, unless WordNet's
#: sense-tagged corpus uses it as a noun (adjective) at least this often ("training" 71,
#: "meeting" 39, "building" 52; "selling" 9, "closing" 2, "funding" 0)
VERB_FORM_USES = 15
#: a plural substitute must be at most this much (Zipf) rarer than its singular: "agendas" 3.3
#: against "agenda" 4.2 stays, "stuffs" 3.1 against "stuff" 5.4 goes
PLURAL_GAP = 1.5
#: a singular noun after "a"/"an" is a count noun: one whose plural English uses (the plural at most
#: :data:`PLURAL_GAP` Zipf below it, and not the same word) or that the n-gram model finds after
#: "a" at least this much (log10) more likely than alone ("a curriculum" 0.46, "a summit" 0.34;
#: "a news" 0.11, "an advice" -1.6, "an evidence" -1.4)
COUNT_ASSOCIATION = 0.3
#: the replaced word forms a known pair with a neighbour where the n-gram model finds the pair this
#: much (log10) more likely than the second word alone ("ice storm" 2.6; "the company cut" 0.07 is
#: no pair)
COLLOCATION = 0.5


class VerbForm(Constraint):
    """The substitute is no verb's gerund or participle standing as a noun or adjective (the
    lexicon's ``verb_form``), nor is the replaced word one that modifies the noun after it."""

    name = "verb_form"
    reads = ("verb_forms",)
    needs = ("wordnet",)
    stage = WORD

    def active(self) -> bool:
        return self.options.verb_forms and self.models.lexicon is not None

    def signature(self) -> dict[str, Any]:
        # the rule's figures and which slots it reads: a change of either changes the candidates
        return {"verb_forms": f"uses<{VERB_FORM_USES},slots=modifiers" if self.active() else False}

    def describe(self) -> Optional[str]:
        return "no gerund or participle" if self.active() else None

    def _check(self, candidates, batch):
        lexicon = self.models.lexicon
        # a verb slot's substitute is a verb form by design: only the slot itself is checked
        return [not (self._verbal_slot(batch.docs[c.sentence_index][c.slot.index])
                     or (c.slot.pos != "VERB" and lexicon.verb_form(c.word, c.slot.pos))) for c in candidates]

    def _verbal_slot(self, tok) -> bool:
        """Whether the replaced word is a verb form modifying the noun after it, which the tagger
        may have misread: "closing schools", "billing software", "banking shares" (no word of
        another kind replaces a verb there); "the shooting", "temporary housing" stay slots."""
        return (tok.dep_ in ("compound", "amod") and tok.head.i > tok.i
                and self.models.lexicon.verb_form(tok.text, tok.pos_))


class NotRepeated(Constraint):
    """The new word is no word the sentence already has ("distributed water, water and
    blankets")."""

    name = "repeated"
    reads = ("no_repeats",)
    needs = ("tagger",)
    stage = WORD

    def active(self) -> bool:
        return self.options.no_repeats and self.models.lexicon is not None

    def signature(self) -> dict[str, Any]:
        return {"no_repeats": self.active()}

    def describe(self) -> Optional[str]:
        return "no word repeated" if self.active() else None

    def _check(self, candidates, batch):
        return [c.word.lower() not in {t.lower_ for t in batch.docs[c.sentence_index]} for c in candidates]


class Agreement(Constraint):
    """The inflections around the new word agree: an article right before it is the one the word
    takes ("an insurgent", "a union"), a plural is one English uses (Zipf at most
    :data:`PLURAL_GAP` below its singular's), and a singular noun that "a"/"an" determines is a
    count noun ("a new national curriculum", not "a new national news": :meth:`countable`)."""

    name = "agreement"
    reads = ("agreement",)
    needs = ("wordfreq", "lm")
    stage = WORD

    def active(self) -> bool:
        return self.options.agreement and self.models.lexicon is not None

    def signature(self) -> dict[str, Any]:
        if not self.active():
            return {"agreement": False}
        if self.models.lm is None:  # no count-noun rule: the key it always had
            return {"agreement": PLURAL_GAP}
        return {"agreement": f"{PLURAL_GAP},count<{COUNT_ASSOCIATION}"}

    def describe(self) -> Optional[str]:
        return "article and plural agree" if self.active() else None

    def _check(self, candidates, batch):
        return [self._agrees(batch.docs[c.sentence_index], c) for c in candidates]

    def _agrees(self, doc, cand) -> bool:
        lexicon = self.models.lexicon
        word, i = cand.word.lower(), cand.slot.index
        article = doc[i - 1].lower_ if i > 0 else ""
        if article in ("a", "an") and lexicon.article(word) != article:
            return False
        if cand.slot.tag in ("NNS", "NNPS"):
            singular = lexicon.singular(word)
            if singular != word and zipf(word) + PLURAL_GAP < zipf(singular):
                return False
        if cand.slot.tag == "NN" and indefinite(doc[i]) and not self.countable(word):
            return False
        return True

    def countable(self, word: str) -> bool:
        """Whether the singular noun ``word`` can follow "a"/"an": its plural is a word English
        uses (not the same word, at most :data:`PLURAL_GAP` Zipf below it: "curriculums",
        "hoards"), or else the n-gram model knows it after "a" (:data:`COUNT_ASSOCIATION`:
        "a series", "a sheep"); "news", "advice", "evidence", "equipment" are not. Without an
        n-gram model every noun is."""
        lm = self.models.lm
        if lm is None:
            return True
        plural = self.models.lexicon.plural(word)
        if plural != word and zipf(plural) + PLURAL_GAP >= zipf(word):
            return True
        return lm.association("a", word) >= COUNT_ASSOCIATION


def indefinite(tok) -> bool:
    """Whether the noun ``tok`` is determined by "a" or "an" (before any adjectives: "a new
    national curriculum")."""
    return any(child.dep_ == "det" and child.lower_ in ("a", "an") for child in tok.lefts)


class Supported(Constraint):
    """Where the replaced word forms a known pair with a content word next to it that it is linked
    to in the parse (its head or a dependent), or forms a noun compound with it (:func:`compound`),
    the new word forms a pair the n-gram model knows too
    (:meth:`~sit.perturb.fluency.NgramModel.association` above 0). Keeps the new word's weakest
    such association (``support``) for :class:`Naturalness`."""

    name = "unsupported"
    reads = ("supported",)
    needs = ("lm",)
    stage = WORD
    measure = "support"

    def active(self) -> bool:
        return self.options.supported and self.models.lm is not None

    def signature(self) -> dict[str, Any]:
        return {"supported": f"{COLLOCATION},compounds" if self.active() else False}

    def describe(self) -> Optional[str]:
        return "collocations supported" if self.active() else None

    def _check(self, candidates, batch):
        return [self._supported(batch.docs[c.sentence_index], c.slot.index, c.word) for c in candidates]

    def _supported(self, doc, i: int, word: str) -> tuple[bool, Optional[float]]:
        lm = self.models.lm
        ok, weakest = True, None
        for j in linked_neighbours(doc, i):
            pair = (doc[j].text, doc[i].text) if j < i else (doc[i].text, doc[j].text)
            new = (doc[j].text, word) if j < i else (word, doc[j].text)
            support = lm.association(*new)
            weakest = support if weakest is None else min(weakest, support)
            if support <= 0 and (lm.association(*pair) > COLLOCATION or compound(doc, min(i, j), max(i, j))):
                ok = False
        return ok, weakest


def compound(doc, first: int, second: int) -> bool:
    """Whether token ``first`` is a noun modifying the noun right after it, token ``second``
    ("privacy advocates", "infrastructure plan", "rebel leaders"): such a compound must be a
    pair English uses, whatever the original pair was (an adjective and its noun mean what the two
    words mean, and the n-gram model knows too few of them: "angry congressmen")."""
    return doc[first].head.i == second and doc[first].dep_ == "compound"


def linked_neighbours(doc, i: int) -> list[int]:
    """The tokens right before and after token ``i`` that are content words (alphabetic, no stop
    word) linked to it in the parse: its head or one of its dependents."""
    out = []
    for j in (i - 1, i + 1):
        if 0 <= j < len(doc) and doc[j].is_alpha and not doc[j].is_stop:
            if doc[j].head.i == i or doc[i].head.i == j:
                out.append(j)
    return out


class Naturalness(Constraint):
    """How natural the new sentence likely is, 0-1: the mean of what was measured of it, each
    scaled to 0-1: fluency (``1 - lm_fall / max_lm_fall``), support by its linked neighbours
    (``(support + 1) / 2``; 1 with none) and the two words' relatedness by the encoder given them
    alone (``(cosine - 0.2) / 0.5``). Kept on the edit (``naturalness``); a candidate below
    ``min_naturalness`` (0 by default: none) is dropped."""

    name = "unnatural_score"
    reads = ("min_naturalness",)
    needs = ("lm", "encoder")
    stage = SENTENCE
    measure = "naturalness"

    def active(self) -> bool:
        return self.models.lexicon is not None and (self.models.lm is not None or self.models.encoder is not None)

    def signature(self) -> dict[str, Any]:
        # the floor, and the parts the score is made of (a change of either changes the edits)
        if not self.active():
            return {"min_naturalness": None}
        parts = [name for name, model in (("fluency+support", self.models.lm),
                                          ("relatedness", self.models.encoder)) if model is not None]
        return {"min_naturalness": f"{self.options.min_naturalness:g} of {'+'.join(parts)}"}

    def describe(self) -> Optional[str]:
        if not self.active():
            return None
        floor = self.options.min_naturalness
        return f"naturalness >= {floor:g}" if floor else "naturalness scored"

    def _check(self, candidates, batch):
        encoder = self.models.encoder
        related = (encoder.word_similarity([(c.slot.text.lower(), c.word.lower()) for c in candidates])
                   if encoder is not None else [None] * len(candidates))
        scores = [self.score(c, sim) for c, sim in zip(candidates, related)]
        return [(score is None or score >= self.options.min_naturalness, score) for score in scores]

    def score(self, cand, related: Optional[float]) -> Optional[float]:
        """The naturalness of ``cand`` whose two words the encoder found ``related`` (None: not
        asked): the mean of the parts measured, None where none was."""
        parts = []
        if cand.lm_fall is not None:
            parts.append(_unit(1 - cand.lm_fall / max(self.options.max_lm_fall, 1e-9)))
            parts.append(1.0 if cand.support is None else _unit((cand.support + 1) / 2))
        if related is not None:
            parts.append(_unit((related - 0.2) / 0.5))
        return round(sum(parts) / len(parts), 4) if parts else None


def _unit(x: float) -> float:
    return min(1.0, max(0.0, x))


#: the options of these checks: a perturber that does not run them lists them in ``ignored_options``
LEXICON_OPTIONS = frozenset({"verb_forms", "no_repeats", "agreement", "supported", "min_naturalness"})

#: the checks the WordNet perturber adds to :data:`~sit.perturb.constraints.CONSTRAINTS`, in the
#: order they are described
WORDNET_CONSTRAINTS: tuple[type[Constraint], ...] = (VerbForm, NotRepeated, Agreement, Supported, Naturalness)
