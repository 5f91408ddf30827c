"""``patinv``: sentences with different meanings should not get the same translation
(Pathological Invariance, ESEC/FSE 2020).

Different-meaning sentences come two ways: substitutions of one noun or adjective by a word of
clearly different meaning, and removals of one meaningful constituent (an adjective or adverb
modifier, a prepositional phrase) found in the English dependency parse. A pair whose two
translations are identical is a finding: the translator lost the difference.

Substitutes come from ``words``: ``contrast`` (default) proposes its own
(:mod:`sit.perturb.contrast`: nouns of the same WordNet lexicographer file that are not close to
the word, adjective antonyms; grammar kept); ``run`` reuses the run's ``--perturber`` pairs, whose
words are *similar* by design (city -> town), so most of their shared translations are right.
Either way a substitution is kept only when the new word is no synonym of the old one (no shared
WordNet sense, similar sense or pertainym) and has another stem, and it is no finding when the
translator renders the two words the same standing alone (companies, corporations: "empresas";
the words are translated with the run's texts, counted as ``same_words_alone``; option ``alone``,
default true: a cloud provider whose answer check re-asks a batch that looks out of order may
re-ask the sentences batched with these single words, so ``patinv.alone=false`` saves those
requests at the cost of such findings). A removal is
kept only when it changes the meaning: no modifier of a function word ("such" of "such as"), no
word the phrase means the same without ("a little bit": "a bit").
"""

from __future__ import annotations

import random
import re
from typing import Any, Mapping, Optional, Sequence

from ..errors import ConfigError
from ..records import Edit, Issue, Pair
from .base import Checked, Relation
from ..text import quoted, squeeze

#: dependency relations whose subtree can go and leave a sentence of another meaning
REMOVABLE = {"amod": 3, "advmod": 3, "prep": 6}  # relation -> most tokens removed
#: where substitutes come from (see the module docstring)
WORDS = ("contrast", "run")


#: heads whose modifiers make fixed expressions, not meaning ("such as", "just after")
FUNCTION_HEADS = ("ADP", "SCONJ", "DET", "PART", "CCONJ")


def removals(doc, source_id: int, text: str, wn=None) -> list[Pair]:
    """One pair per removable modifier or prepositional phrase of ``doc`` whose removal changes
    the meaning: not a modifier of a function word (``such`` of ``such as``), not an adverb of a
    noun, and (with ``wn``, a WordNet reader) not a word the phrase means the same without
    (:func:`same_phrase`: ``a little bit`` -> ``a bit``)."""
    pairs = []
    for tok in doc:
        limit = REMOVABLE.get(tok.dep_)
        if limit is None or tok.i == 0:
            continue
        start, end = tok.left_edge.i, tok.right_edge.i + 1
        span = doc[start:end]
        if end - start > limit or start == 0 or any(t.is_punct or t.ent_iob_ in ("B", "I") for t in span):
            continue
        if tok.dep_ == "advmod" and tok.head.pos_ not in ("ADJ", "VERB", "ADV"):
            continue
        if tok.dep_ in ("amod", "advmod") and tok.head.pos_ in FUNCTION_HEADS:
            continue
        if wn is not None and end - start == 1 and same_phrase(wn, doc, tok):
            continue
        a, b = span.start_char, span.end_char
        new = re.sub(r"\s+([,.;:!?])", r"\1", re.sub(r" {2,}", " ", text[:a] + text[b:])).strip()
        if new == text or not new:
            continue
        edit = Edit(position=start, before=span.text, after="", perturber="patinv-remove",
                    char_start=a, char_end=a, level="constituent")
        pairs.append(Pair(source_id, text, new, edit, relation="patinv"))
    return pairs


def same_phrase(wn, doc, tok) -> bool:
    """Whether the phrase means the same with the modifier ``tok`` or with its head alone: the
    determiner before them with either word is a WordNet lemma of one shared sense (``a little
    bit``: "a little" and "a bit" are one adverb)."""
    det = doc[tok.i - 1] if tok.i > 0 else None
    head = tok.head
    if det is None or det.dep_ != "det" or head.i != tok.i + 1:
        return False
    with_word = set(wn.synsets(f"{det.lower_}_{tok.lower_}"))
    return bool(with_word) and bool(with_word & set(wn.synsets(f"{det.lower_}_{head.lower_}")))


def _related(wn, word: str) -> set:
    """The senses of ``word``, the senses similar to them, and the senses of its pertainyms."""
    out = set()
    for syn in wn.synsets(word):
        out.add(syn)
        out.update(syn.similar_tos())
        for lemma in syn.lemmas():
            out.update(p.synset() for p in lemma.pertainyms())
            out.update(d.synset() for d in lemma.derivationally_related_forms())
    return out


class PatInvRelation(Relation):
    name = "patinv"
    title = "sentences of different meaning got the same translation"
    sides = ("source", "changed")
    kind = "same-translation"
    uses = frozenset({"perturber"})
    measured = {"": (2, 17, "labels-patinv.jsonl")}
    severity = {"": 2.0}

    @classmethod
    def cluster_keys(cls, issue: Issue, stops: frozenset[str]):
        """The same change of meaning, wherever it stands."""
        edit = issue.pair.edit
        return None if issue.kind else ([], (cls.name, edit.before.lower(), edit.after.lower()))

    @classmethod
    def cluster_title(cls, key: Sequence[str], issues: Sequence[Issue]) -> str:
        if key[0] != cls.name:
            return ""
        return f"{quoted(key[1])} and {quoted(key[2] or '(removed)')} share one translation though they differ in meaning"

    @classmethod
    def needs(cls, source_lang: str, target_lang: str, model: Optional[str] = None) -> list:
        """WordNet: the meaning of each substitution is checked in it, whichever perturber made it."""
        from ..models import wordnet_need

        return [wordnet_need()]

    def __init__(self, ctx, *, substitute: bool = True, remove: bool = True, words: str = "contrast",
                 alone: bool = True):
        super().__init__(ctx)
        if words not in WORDS:
            raise ConfigError(f"unknown patinv words {words!r}; choose one of: {', '.join(WORDS)}")
        self.substitute = substitute
        self.remove = remove
        self.words = words
        self.alone = alone  # ask the translator for a substitution's two words alone (same_alone)
        self._contrast = None
        if substitute:  # build before any work: a missing WordNet fails now
            self._contrast = self._make_contrast() if words == "contrast" else ctx.perturber()
        self._wn = None
        self._stem = None

    def _make_contrast(self):
        from ..perturb.contrast import ContrastPerturber

        tagger = getattr(self.ctx.built_perturber, "tagger", None)
        return ContrastPerturber(cache=self.ctx.cache, progress=self.ctx.progress, tagger=tagger)

    def signature(self) -> dict[str, Any]:
        sig = {"substitute": self.substitute, "remove": self.remove, "words": self.words, "alone": self.alone}
        if self.substitute and self.words == "contrast":
            sig["contrast"] = {"model": self._contrast.model_id(), **self._contrast.options()}
        return sig

    def describe(self) -> str:
        subs = "different-meaning substitutions (" + (self._contrast.describe() if self.words == "contrast" and
                                                      self._contrast else "the run's perturber") + ")"
        ways = [w for w, on in ((subs, self.substitute), ("constituent removals", self.remove)) if on]
        return "patinv: " + " and ".join(ways)

    def different_meaning(self, edit: Edit) -> bool:
        """A substitution changes the meaning: another stem, and WordNet knows no sense of the
        one word that is a sense of the other, similar to it, or its pertainym."""
        from ..models import nltk_module

        self._stem = self._stem or nltk_module("nltk.stem").PorterStemmer()
        before, after = edit.before.lower(), edit.after.lower()
        if self._stem.stem(before) == self._stem.stem(after):
            return False
        wn = self._reader()
        return not (_related(wn, before) & set(wn.synsets(after)))

    def _reader(self):
        """The WordNet reader of :meth:`_lexicon`, opened once."""
        self._wn = self._wn or self._lexicon().reader
        return self._wn

    def _lexicon(self):
        """The WordNet the substitutions came from (the contrast perturber's, or the run's WordNet
        perturber's), else the default one."""
        from ..perturb.wordnet import WordNetLexicon

        source = self._contrast if self._contrast is not None else self.ctx.built_perturber
        lexicon = getattr(source, "lexicon", None)
        return lexicon if isinstance(lexicon, WordNetLexicon) else WordNetLexicon()

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        cases = []
        if self.substitute:
            for p in self._substitutions(ids, texts):
                if self.different_meaning(p.edit):
                    cases.append(Pair(p.source_id, p.original, p.perturbed, p.edit, relation="patinv"))
        if self.remove:
            wn = self._reader()
            for sid, text, doc in zip(ids, texts, self.ctx.english(texts)):
                cases.extend(removals(doc, sid, text, wn))
        return cases

    def _substitutions(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        if self.words == "run":
            return self.ctx.substitutions(ids, texts)
        pairs = self._contrast.perturb(list(texts), random.Random(self.ctx.seed), ids=list(ids))
        return [p for p in pairs if p.perturbed != p.original]

    def sources(self, cases: Sequence[Pair]) -> list[str]:
        """The two sentences of every case, and the two words of every substitution alone (see
        :meth:`same_alone`)."""
        words = [w for p in cases if p.edit.after for w in (p.edit.before, p.edit.after)] if self.alone else []
        return super().sources(cases) + list(dict.fromkeys(words))

    @staticmethod
    def same_alone(pair: Pair, translation: Mapping[str, Optional[str]]) -> bool:
        """Whether the translator renders a substitution's two words the same when they stand
        alone (companies, corporations: both "empresas"): for this translator they do not differ
        in meaning, so the same sentence translation is no finding."""
        if not pair.edit.after:
            return False
        a, b = translation.get(pair.edit.before), translation.get(pair.edit.after)
        return bool(a) and bool(b) and squeeze(a.lower()) == squeeze(b.lower())

    def meaning_lost(self, edit: Edit) -> float:
        """How much meaning one identical translation lost (the finding's distance, larger is
        worse): for a removal, its words that are no stop words (at least 1); for a substitution,
        1 plus how far apart the two words' first senses of the same part of speech lie in WordNet
        (1 - Wu-Palmer similarity: between 1 and 2; 2 where WordNet does not know both)."""
        if not edit.after:
            from ..words import stop_words

            stops = stop_words(self.ctx.source_lang)
            return float(max(1, sum(1 for w in edit.before.split() if w.lower() not in stops)))
        wn = self._reader()
        for pos in ("n", "a", "s", "v", "r"):
            a, b = wn.synsets(edit.before, pos), wn.synsets(edit.after, pos)
            if a and b:
                return round(1.0 + 1.0 - (a[0].wup_similarity(b[0]) or 0.0), 3)
        return 2.0

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        found = []
        same_alone = {p for p in cases if self.same_alone(p, translation)}
        for pair in cases:
            y, y2 = translation.get(pair.original), translation.get(pair.perturbed)
            if not y or not y2 or pair in same_alone:
                continue
            if squeeze(y) == squeeze(y2):
                found.append(Issue(pair, y, y2, self.meaning_lost(pair.edit), {}, evidence={"translation": y}))
        compared = sum(1 for p in cases if translation.get(p.original) and translation.get(p.perturbed))
        return self.checked(found, cases=len(cases), compared=compared, same_words_alone=len(same_alone))
