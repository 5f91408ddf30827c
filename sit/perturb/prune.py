"""Optional constituents of an English sentence, and the sentence without them (syntactic tree
pruning, as STP and CIT do), read off spaCy's dependency parse.

A constituent is the subtree of one token whose relation to its head makes it optional: an
adverbial or prepositional adjunct of a verb, an adverbial clause, a relative clause, an
appositive, a parenthetical set off by commas, a noun's conjunct after "and"/"or" outside the
subject; or the modifiers of a noun phrase, which are cut back to its determiner and head noun
("four former administration officials" -> "four officials"). What remains is a grammatical
English sentence whose words, but for the cut, are the original's, so its translation should keep
the rest of the original's translation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: dependency relations of a token whose subtree is an optional adjunct -> the most tokens cut
OPTIONAL = {"prep": 7, "advmod": 2, "npadvmod": 3, "advcl": 12, "relcl": 12, "appos": 8, "acl": 10}
#: heads an adjunct may hang on for each relation (other heads: the words are not optional)
HEADS = {"prep": ("VERB",), "advmod": ("VERB",), "npadvmod": ("VERB",), "advcl": ("VERB",),
         "relcl": ("NOUN", "PROPN"), "appos": ("NOUN", "PROPN"), "acl": ("NOUN", "PROPN")}
#: prepositions that open an adjunct even right after their verb; any other preposition there may
#: make a prepositional verb ("looking for stability": "looking after years" once it goes)
ADJUNCT_PREPS = frozenset({"in", "during", "along", "across", "through", "throughout", "since", "until", "before",
                           "outside", "near", "amid", "despite", "without", "within", "inside", "beyond", "below",
                           "above", "behind", "beside", "among", "around", "past", "because", "under"})
#: adverbs that make a construction with their verb, not an adjunct: negation, question words,
#: particles of phrasal verbs ("came back" / "came"), aspect and focus ("has just started":
#: "acaba de empezar" / "ha empezado")
KEPT_ADVERBS = frozenset({"not", "n't", "never", "so", "how", "why", "when", "where", "back", "away", "out", "off", "up",
                          "down", "over", "around", "forward", "home", "together", "apart", "aside", "just", "already",
                          "still", "yet", "ever", "even", "only", "also", "too", "almost", "nearly"})
#: modifiers a noun phrase is cut back without (its determiner, numeral, possessive and compound
#: nouns stay: "hotel room" -> "room" changes the sense of the head, not the structure around it)
NP_MODIFIERS = ("amod", "nmod")
#: words of quantity and degree that make a construction with what follows ("so much food that")
QUANTITY = frozenset({"much", "many", "more", "most", "such", "few", "fewer", "little", "less", "enough", "so", "as",
                      "too", "very", "other", "same"})


#: nouns whose phrase takes its number from what follows "of" ("a lot of people started")
GROUPS = frozenset({"lot", "lots", "number", "couple", "majority", "minority", "plenty", "bunch", "percent", "half",
                    "rest", "variety", "range", "series", "pair", "group", "kind", "sort", "type", "total", "part"})


@dataclass(frozen=True)
class Cut:
    """One constituent of a sentence taken out: its token and character span, what it is
    (``role``: the dependency relation, ``conj`` or ``np``), and the sentence without it."""

    start: int
    end: int
    char_start: int
    char_end: int
    role: str
    words: str
    reduced: str
    #: what stands in the constituent's place ("it", "they"; "": nothing)
    replacement: str = ""


def cut_text(text: str, a: int, b: int) -> str:
    """``text`` without characters ``a`` to ``b``: no doubled spaces, no space or comma left before
    a mark, no leading comma."""
    new = re.sub(r" {2,}", " ", text[:a] + text[b:])
    new = re.sub(r"\s*,\s*([,.;:!?])", r"\1", new)
    new = re.sub(r"\s+([,.;:!?])", r"\1", new).strip()
    return re.sub(r"^[,;:]\s*", "", new)


def _in_entity(span) -> bool:
    return any(t.ent_iob_ in ("B", "I") for t in span)


def _widen_commas(doc, start: int, end: int) -> tuple[int, int]:
    """A constituent set off by commas takes its commas: the one before, and the one after where
    it closes a parenthetical (``The bill, which passed, now goes`` -> ``The bill now goes``)."""
    if start > 0 and doc[start - 1].text == ",":
        start -= 1
        if end < len(doc) and doc[end].text == ",":
            end += 1
    return start, end


def _adjunct(doc, tok):
    """The span ``(start, end)`` of ``tok``'s subtree where it is an optional adjunct, else None."""
    limit = OPTIONAL.get(tok.dep_)
    if limit is None or tok.head.pos_ not in HEADS[tok.dep_] or tok.i == 0:
        return None
    start, end = tok.left_edge.i, tok.right_edge.i + 1
    while end > start + 1 and doc[end - 1].is_punct:  # a clause's subtree may hold the final mark: it stays
        end -= 1
    span = doc[start:end]
    if end - start > limit or start == 0 or _in_entity(span) and tok.dep_ in ("prep", "npadvmod"):
        return None
    if tok.dep_ == "advmod" and (tok.pos_ != "ADV" or tok.lower_ in KEPT_ADVERBS):
        return None
    if tok.dep_ == "advmod" and (doc[start - 1].pos_ == "CCONJ" or end < len(doc) and doc[end].pos_ == "CCONJ"):
        return None  # "hurriedly and shamefacedly handed": the "and" would be left alone
    if tok.dep_ == "prep" and any(c.dep_ == "pobj" for c in tok.children) is False:
        return None
    if tok.dep_ in ("relcl", "appos", "acl") and start <= tok.head.i:
        return None
    if tok.dep_ == "prep" and tok.i == tok.head.i + 1 and tok.lower_ not in ADJUNCT_PREPS:
        return None
    if tok.dep_ in ("prep", "advmod") and tok.head.dep_ == "acl":  # "a summit focused on trade": no participle left bare
        return None
    return _widen_commas(doc, start, end)


def _conjunct(doc, tok):
    """The span of ``tok``'s ``and X`` where ``tok`` is a noun's conjunct outside the subject."""
    if tok.dep_ != "conj" or tok.pos_ not in ("NOUN", "PROPN") or tok.head.pos_ not in ("NOUN", "PROPN"):
        return None
    head = tok.head
    if head.dep_ not in ("pobj", "dobj", "attr", "conj"):
        return None
    while head.dep_ == "conj":
        head = head.head
    if head.dep_ in ("nsubj", "nsubjpass") or any(a.dep_ in ("nsubj", "nsubjpass") for a in head.ancestors):
        return None
    if head.head.lower_ == "between":  # "between a horse and a donkey" needs both
        return None
    cc = [c for c in head.children if c.dep_ == "cc" and c.i < tok.i]
    if not cc or tok.right_edge.i - cc[-1].i > 6 or tok.left_edge.i != cc[-1].i + 1:
        return None
    after = tok.right_edge.i + 1
    if after < len(doc) and doc[after].pos_ in ("VERB", "AUX"):  # "the customer and the company lost": clauses
        return None
    return cc[-1].i, tok.right_edge.i + 1


def _noun_phrase(doc, tok):
    """The span of the modifiers of ``tok``'s noun phrase between its determiner and its head
    (amod, compound, nmod and their words), where there are any, else None."""
    if tok.pos_ != "NOUN" or tok.dep_ in ("compound", "amod", "nmod"):
        return None
    mods = [c for c in tok.children if c.dep_ in NP_MODIFIERS and c.i < tok.i]
    if not mods:
        return None
    start, end = min(m.left_edge.i for m in mods), tok.i
    span = doc[start:end]
    if any(t.is_punct or t.pos_ == "CCONJ" or t.dep_ == "compound" or t.lower_ in QUANTITY for t in span):
        return None
    if _in_entity(doc[start:end + 1]) or end - start > 4:
        return None
    return start, end


def _pronoun(doc, tok):
    """``(start, end, pronoun)`` where ``tok`` heads a common noun phrase of 2 to 6 words that is a
    subject: the phrase and the pronoun that stands for it ("it", "they"). Objects are left: their
    pronouns become clitics ("dejarlo"), a change of form that is no change of structure."""
    if tok.pos_ != "NOUN" or tok.dep_ not in ("nsubj", "nsubjpass"):
        return None
    start, end = tok.left_edge.i, tok.right_edge.i + 1
    if not 2 <= end - start <= 6 or any(t.is_punct or t.pos_ in ("PRON", "VERB", "CCONJ") for t in doc[start:end]):
        return None
    if _in_entity(doc[start:end]) or tok.tag_ not in ("NN", "NNS") or any(t.tag_ in ("WDT", "WP", "WP$") for t in doc[start:end]):
        return None
    if end >= len(doc) or doc[end].pos_ not in ("VERB", "AUX", "ADV"):  # a subject right before its verb
        return None
    before = doc[start - 1] if start > 0 else None
    if before is not None and (before.pos_ in ("VERB", "AUX") or before.is_punct and before.i > 0 and doc[before.i - 1].pos_ == "ADJ"):
        return None  # "learn the breast stroke", "That queer, cosmopolitan, rather sinister crowd": misparses
    if tok.lower_ in GROUPS:  # "a lot of people": the pronoun's number would be the head's, not the people's
        return None
    plural = tok.tag_ == "NNS" or doc[end].tag_ == "VBP"  # "The larvae of some moths spin": they
    return start, end, ("They" if plural else "It") if start == 0 else ("they" if plural else "it")


def _article(doc, start: int, end: int, text: str) -> str:
    """``text`` (the sentence with tokens ``start`` to ``end`` cut: what precedes them stands as it
    was) with an "a"/"an" just before the cut fitted to the word after it."""
    if start == 0 or doc[start - 1].lower_ not in ("a", "an") or end >= len(doc):
        return text
    art = doc[start - 1]
    want = "an" if doc[end].lower_[:1] in "aeiou" else "a"
    want = want.capitalize() if art.text[0].isupper() else want
    return text[:art.idx] + want + text[art.idx + len(art):]


def cuts(doc, *, limit: int = 8, noun_phrases: bool = True, pronouns: bool = True) -> list[Cut]:
    """The constituents of ``doc`` that can go, at most ``limit`` (the first in sentence order),
    each with the sentence without it; one cut per span; with ``noun_phrases``, noun phrases' modifiers
    too; with ``pronouns``, a pronoun in a subject's place."""
    text, found, seen = doc.text, [], set()
    for tok in doc:
        spans = [(tok.dep_, _adjunct(doc, tok)), ("conj", _conjunct(doc, tok))]
        spans += [("np", _noun_phrase(doc, tok))] if noun_phrases else []
        spans += [("pronoun", _pronoun(doc, tok))] if pronouns else []
        for role, span in spans:
            if span is None or span[:2] in seen or _in_compound(doc, *span[:2]):
                continue
            seen.add(span[:2])
            cut = _cut(doc, text, role, *span)
            if cut is not None:
                found.append(cut)
    found.sort(key=lambda c: (c.start, c.end))
    return found[:limit]


def _in_compound(doc, start: int, end: int) -> bool:
    """Whether the span is part of a hyphenated word ("data" of "data-sharing") or of a name that
    goes on outside it ("the Great" of "Alexander the Great"), or stands next to a quotation mark
    (the quote would be left empty)."""
    marks = ("-", "`", "'", '"', "‘", "’", "“", "”", "``", "''")
    if doc[start].ent_iob_ == "I" or (end < len(doc) and doc[end].ent_iob_ == "I"):
        return True
    return (start > 0 and doc[start - 1].text in marks) or (end < len(doc) and doc[end].text in marks)


def _cut(doc, text: str, role: str, start: int, end: int, pronoun: str = ""):
    """The :class:`Cut` of tokens ``start`` to ``end`` (replaced by ``pronoun`` where one is
    given), or None where too little is left."""
    a, b = doc[start].idx, doc[end - 1].idx + len(doc[end - 1])
    if pronoun:
        reduced = text[:a] + pronoun + text[b:]
    else:
        reduced = _article(doc, start, end, cut_text(text, a, b))
    if not reduced or reduced == text or len(reduced.split()) < 4:
        return None
    return Cut(start, end, a, b, role, text[a:b].strip(" ,"), reduced[0].upper() + reduced[1:], pronoun)
