"""``cit``: taking an optional constituent out of a sentence keeps the translation of the rest
(constituency invariance: CIT, He et al.; syntactic tree pruning: STP).

Cases come from the English dependency parse (:mod:`sit.perturb.prune`): an adjunct
prepositional phrase, adverb or adverbial clause of a verb, a relative clause, an appositive, a
noun's conjunct outside the subject, or a noun phrase's modifiers cut back to its determiner and
head. The sentence and the sentence without the constituent are translated, and the constituent
alone (a probe, so that its own words are told apart from the rest's). The two translations are
aligned word by word (:mod:`difflib`); a finding is a changed stretch where the reduced
translation has content words (not the target's stop words) the original's lacks anywhere, and the
original's has content words there that are neither in the reduced translation nor in the
constituent's own: the rest of the sentence was translated another way once the constituent went.
A rule-based translator changes its reading of the rest only where its tagger or transfer
mis-read the structure, so one of the two readings is usually wrong; the finding names the
original translation's words that changed (``evidence.original_words``) and those that came
instead (``evidence.reduced_words``), so a reader sees where.
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

from ..records import Edit, Issue, Pair
from ..text import quoted
from ..words import TOKEN, stop_words
from .base import Checked, Relation

#: what a finding is, by the kind of constituent taken out ("" every removal; ``np`` a noun
#: phrase cut back to its head)
KINDS = {"np": "cutting a noun phrase back to its head changes the translation of the rest of the sentence",
         "pronoun": "a pronoun in a noun phrase's place changes the translation of the rest of the sentence"}
#: the MQM category and severity of a finding (the structure of the rest read two ways)
MQM = {"": ("major", "Fluency/Grammar"), "np": ("major", "Fluency/Grammar"), "pronoun": ("major", "Fluency/Grammar")}


@dataclass(frozen=True)
class Change:
    """One stretch of the original translation that changed once the constituent went: the
    stretch as written on each side, and the content words that differ."""

    before: str
    after: str
    original_words: tuple[str, ...]
    reduced_words: tuple[str, ...]


def _content(word: str, stops: frozenset) -> bool:
    return word[0].isalpha() and word.lower() not in stops


#: pronouns a Romance verb takes at its end ("viéndolo", "drenarlo"): a verb with one is the same verb
CLITICS = ("selos", "selas", "selo", "sela", "los", "las", "les", "nos", "lo", "la", "le", "se", "me", "te")


def _plain(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c))


def with_clitic(word: str, others: set) -> bool:
    """Whether ``word`` is one of ``others`` (plain, lower-cased words) with a pronoun at its end."""
    w = _plain(word)
    return any(w.endswith(c) and w[: -len(c)] in others for c in CLITICS if len(w) > len(c) + 3)


def folded(word: str) -> str:
    """``word`` lower-cased less a final gender and number ending (o, a, e, os, as, es): "obtenida" and
    "obtenido" are one word here, since a pronoun in a noun's place may change the gender a
    participle agrees with, and "considerables" and "considerable", since an adjective after two
    nouns agrees with both; "votado" and "votó", "ocurre" and "ocurren" stay two."""
    w = word.lower()
    for end in ("os", "as", "es", "o", "a", "e"):
        if w.endswith(end) and len(w) > len(end) + 2:
            return w[: -len(end)]
    return w


def changes(original: str, reduced: str, removed: str, lang: str) -> list[Change]:
    """The stretches where ``reduced`` (the translation without the constituent) has content words
    ``original`` lacks anywhere, and ``original`` has content words there that neither
    ``reduced`` nor ``removed`` (the constituent's own translation) has."""
    stops = stop_words(lang)
    x, y = TOKEN.findall(original), TOKEN.findall(reduced)
    kx, ky = [w.lower() for w in x], [w.lower() for w in y]
    in_x, in_y = {folded(w) for w in kx}, {folded(w) for w in ky}
    plain_x, plain_y = {_plain(w) for w in kx}, {_plain(w) for w in ky}
    gone = {folded(w) for w in TOKEN.findall(removed or "")}
    found = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, kx, ky, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        new = tuple(w for w in y[j1:j2] if _content(w, stops) and folded(w) not in in_x and not with_clitic(w, plain_x))
        old = tuple(w for w in x[i1:i2] if _content(w, stops) and folded(w) not in in_y | gone
                    and not any(with_clitic(v, {_plain(w)}) for v in ky))
        if new and old:
            found.append(Change(" ".join(x[i1:i2]), " ".join(y[j1:j2]), old, new))
    return found


#: Spanish verb endings of the third person, plural and singular (longest first)
VERB_ENDINGS = ("ieron", "aron", "ían", "aban", "an", "en", "ió", "ó", "ía", "aba", "a", "e")
#: Spanish determiners that make a noun phrase plural
PLURAL_DETERMINERS = frozenset({"los", "las", "unos", "unas", "estos", "estas", "esos", "esas", "sus", "muchos", "muchas"})


def _verb_stem(word: str) -> str:
    w = _plain(word)
    return next((w[: -len(e)] for e in VERB_ENDINGS if w.endswith(_plain(e)) and len(w) > len(e) + 2), w)


def number_only(change: Change) -> bool:
    """Whether ``change`` is one verb in another number ("suspendió" -> "suspendieron")."""
    pairs = list(zip(change.original_words, change.reduced_words))
    return len(change.original_words) == len(change.reduced_words) == 1 and all(
        _verb_stem(a) == _verb_stem(b) and a.lower() != b.lower() for a, b in pairs)


def plural_phrase(text: str) -> bool:
    """Whether a Spanish noun phrase is plural: by its first word where that is a determiner, else
    by any word ending in s ("Cambios básicos en la opinión", "Young mujeres")."""
    words = [w.lower() for w in TOKEN.findall(text) if w[0].isalpha()]
    if not words:
        return False
    if words[0] in PLURAL_DETERMINERS or words[0] in ("el", "la", "un", "una", "este", "esta", "ese", "esa", "su"):
        return words[0] in PLURAL_DETERMINERS
    return any(w.endswith("s") for w in words)


def agreeing(stretch: Sequence[Change], subject: str, lang: str) -> list[Change]:
    """``stretch`` less the changes a pronoun's number made where the original agreed: "La policía
    secreta suspendió" -> "Suspendieron" (police is plural in English, "policía" singular); kept
    where the original's verb has another number than its subject ("los padres protestó")."""
    if lang != "es" or not subject:
        return list(stretch)
    plural = plural_phrase(subject)
    return [c for c in stretch if not (number_only(c) and plural == _plain(c.original_words[0]).endswith("n"))]


class CitRelation(Relation):
    name = "cit"
    title = "taking an optional constituent out changes the translation of the rest of the sentence"
    kinds = KINDS
    kind = "rest-changed"
    sides = ("source", "pruned")
    mqm = MQM
    severity = {"": 2.0}
    blockwise = True

    @classmethod
    def cluster_keys(cls, issue: Issue, stops: frozenset[str]):
        """The same words of a translation read two ways, wherever they stand."""
        words = issue.evidence.get("original_words") or []
        return [], (cls.name, " ".join(words).lower(), "")

    @classmethod
    def cluster_title(cls, key: Sequence[str], issues: Sequence[Issue]) -> str:
        if key[0] != cls.name:
            return ""
        return f"{quoted(key[1])} is translated another way once a constituent around it goes"

    def __init__(self, ctx, *, limit: int = 8, noun_phrases: bool = False, pronouns: bool = True):
        super().__init__(ctx)
        from ..validate import check_bool

        self.limit = int(limit)  # cuts per sentence
        # blind labels (docs/precision.md, stop 46): cit 20/20, cit.pronoun 20/20, cit.np 10/15, so a noun
        # phrase's adjectives are cut only where asked for
        self.noun_phrases = check_bool(noun_phrases, "cit.noun_phrases")
        self.pronouns = check_bool(pronouns, "cit.pronouns")

    def signature(self) -> dict[str, Any]:
        return {"limit": self.limit, "noun_phrases": self.noun_phrases, "pronouns": self.pronouns}

    def describe(self) -> str:
        what = "adjuncts, clauses, appositives, conjuncts" + (" and noun-phrase modifiers" if self.noun_phrases else "") + (
            ", a pronoun for a subject" if self.pronouns else "")
        return f"cit: up to {self.limit} optional constituents a sentence ({what}) taken out"

    def cases(self, ids: Sequence[int], texts: Sequence[str]) -> list[Pair]:
        from ..perturb.prune import cuts

        out = []
        for sid, text, doc in zip(ids, texts, self.ctx.english(texts)):
            for cut in cuts(doc, limit=self.limit, noun_phrases=self.noun_phrases, pronouns=self.pronouns):
                edit = Edit(position=cut.start, before=cut.words, after=cut.replacement, perturber="cit",
                            char_start=cut.char_start, char_end=cut.char_start + len(cut.replacement),
                            level="constituent", change="substitution" if cut.replacement else "removal", note=cut.role)
                out.append(Pair(sid, text, cut.reduced, edit, relation=self.name))
        return out

    def probes(self, cases: Sequence[Pair]) -> list[str]:
        """Each constituent alone, so that its own words are not taken for the rest's."""
        return list(dict.fromkeys(p.edit.before for p in cases))

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        found = []
        for pair, y, y2 in self.translated(cases, translation):
            if not y or not y2:
                continue
            alone = translation.get(pair.edit.before) or ""
            stretch = changes(y, y2, alone, self.ctx.target_lang)
            if pair.edit.note == "pronoun":
                stretch = agreeing(stretch, alone, self.ctx.target_lang)
            if not stretch:
                continue
            old = [w for c in stretch for w in c.original_words]
            new = [w for c in stretch for w in c.reduced_words]
            evidence = {"constituent": pair.edit.before, "role": pair.edit.note, "original_words": old,
                        "reduced_words": new, "changed": [[c.before, c.after] for c in stretch]}
            kind = pair.edit.note if pair.edit.note in KINDS else ""
            found.append(Issue(pair, y, y2, float(len(old) + len(new)), {}, kind=kind, evidence=evidence))
        return self.checked(found, cases=len(cases), compared=len(self.translated(cases, translation)),
                            kinds=tuple(KINDS))
