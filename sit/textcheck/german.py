"""German grammar a translation shows by itself (issue 45): a determiner and its noun that no
reading lets agree in gender, number and case ("ein Pflanze", "das Befangenheit", "mit den
Kinder"), and a short word written twice where German does not double it ("ist ist", "in in";
not "Frauen, die die Kinder", a relative pronoun and an article).

Where the forms come from: every form of about 100,000 nouns, with its gender, number and case,
from the German Wiktionary as the ``german-nouns`` package ships it (``nouns.csv``; only that file
is read), and the Hannover Tagger's German model (``HanTa``, ``morphmodel_ger.pgz`` in its wheel)
to tell a nominalised adjective ("das Doppelte") or infinitive ("das Klingeln") from a noun. A
determiner is read from its ending (the definite article, the ``dies-`` words, the ``ein-`` words
and possessives). A noun the lexicon lacks is read by its last part where that is a noun
("Rasterelektronenmikroskop" by "Mikroskop"); one it cannot read at all is left alone, as is a
determiner that may be a pronoun (after a comma, a preposition after a comma, "das" after a form
of "sein" or before a plural: "sind das Nachahmer").
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional

#: a feature bundle of a German noun phrase: (case, number, gender); a plural's gender is "*"
Feature = tuple[str, str, str]

_CASES = {"nominativ": "nom", "genitiv": "gen", "dativ": "dat", "akkusativ": "akk"}
#: tokens: words (with their hyphenated parts: "Multiversum-Theorie") and single marks
TOKEN = re.compile(r"\w+(?:-\w+)*|[^\w\s]")
#: an attributive adjective between a determiner and its noun, by its ending ("kleinen", "gelbe")
ADJECTIVE = re.compile(r"[a-zäöüß]+(?:e|en|em|er|es)")
#: prepositions: a determiner right after one that follows a comma is a relative pronoun ("..., mit der")
PREPOSITIONS = frozenset(
    "an auf aus bei bis durch für gegen hinter in mit nach neben ohne seit über um unter von vor während "
    "wegen zu zwischen trotz gegenüber".split())
#: conjunctions after which two pronouns may stand together ("dass sie sie sieht")
CONJUNCTIONS = frozenset("dass daß ob weil wenn als da wie damit obwohl und oder aber denn sondern".split())
#: forms of "sein": "das" after one is a pronoun ("sind das Nachahmer")
SEIN = frozenset("ist sind war waren wäre wären sei seien".split())
#: short words German writes twice in a row as a relative pronoun and an article (after a comma, a
#: preposition or a conjunction: "Frauen, die die Kinder")
DOUBLES = frozenset("der die das den dem des".split())
#: pronouns German writes twice in a row as subject and object ("programmieren Sie sie", "rollt es es")
PRONOUNS = frozenset("sie ihr es".split())


def _features(spec: str) -> frozenset[Feature]:
    # "nom.sg.m gen.pl.*" -> the bundles; a determiner's "*" stands for every gender
    out = set()
    for item in spec.split():
        case, number, gender = item.split(".")
        for g in ("m", "f", "n", "*") if gender == "*" else (gender,):
            out.add((case, number, g))
    return frozenset(out)


@lru_cache(maxsize=1)
def determiners() -> dict[str, frozenset[Feature]]:
    """Determiner (lower case) -> every (case, number, gender) it may stand for: the definite
    article, the ``dies-`` words (dieser, jener, jeder, welcher, mancher), ``ein`` and ``kein``
    and the possessives (mein, dein, seine, ihre, unser, euer, Ihr; not bare "ihr" and "sein", a
    pronoun and a verb as often as not)."""
    definite = {"der": "nom.sg.m gen.sg.f dat.sg.f gen.pl.*", "die": "nom.sg.f akk.sg.f nom.pl.* akk.pl.*",
                "das": "nom.sg.n akk.sg.n", "den": "akk.sg.m dat.pl.*", "dem": "dat.sg.m dat.sg.n",
                "des": "gen.sg.m gen.sg.n"}
    out = {w: _features(s) for w, s in definite.items()}
    dies = {"er": definite["der"], "e": definite["die"], "es": "nom.sg.n akk.sg.n gen.sg.m gen.sg.n",
            "en": definite["den"], "em": definite["dem"]}
    for stem in ("dies", "jen", "jed", "welch", "manch"):
        out.update({stem + end: _features(s) for end, s in dies.items()})
    ein = {"": "nom.sg.m nom.sg.n akk.sg.n", "e": "nom.sg.f akk.sg.f", "en": "akk.sg.m", "em": "dat.sg.m dat.sg.n",
           "er": "gen.sg.f dat.sg.f", "es": "gen.sg.m gen.sg.n"}
    plural = {"e": " nom.pl.* akk.pl.*", "en": " dat.pl.*", "er": " gen.pl.*"}
    for stem in ("ein", "kein", "mein", "dein", "sein", "ihr", "unser", "eur"):
        for end, s in ein.items():
            if stem in ("sein", "ihr") and not end:
                continue  # "sein", "ihr": a verb and a pronoun as often as not
            word = "euer" if stem == "eur" and not end else stem + end
            out[word] = _features(s + ("" if stem == "ein" else plural.get(end, "")))
    for end, s in ein.items():  # "Ihr" with a capital: the polite possessive
        out["Ihr" + end] = _features(s + plural.get(end, ""))
    return out


#: a nominalised infinitive ("das Klingeln", "beim Nutzen"): neuter singular
INFINITIVE = _features("nom.sg.n akk.sg.n dat.sg.n")
#: every plural form: a plural the lexicon does not list ("Kindersterblichkeiten")
PLURAL = _features("nom.pl.* gen.pl.* dat.pl.* akk.pl.*")


def nouns_file() -> Optional[Path]:
    """The ``german-nouns`` package's ``nouns.csv`` (read as data; the package is not imported), or
    None where it is not installed."""
    from importlib.util import find_spec

    spec = find_spec("german_nouns")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "nouns.csv"
    return path if path.is_file() else None


def read_nouns(path: Path) -> dict[str, frozenset[Feature]]:
    """Form -> every (case, number, gender) it is of some noun of ``path`` (german-nouns' CSV: a
    lemma, its parts of speech, its genders and a column per case and number, with variants)."""
    forms: dict[str, set[Feature]] = {}
    with open(path, encoding="utf-8", newline="") as fh:
        rows = csv.reader(fh)
        header = next(rows)
        columns = [(i, _CASES[h.split()[0]], "sg" if h.split()[1].startswith("singular") else "pl")
                   for i, h in enumerate(header) if h.split() and h.split()[0] in _CASES]
        genders = [i for i, h in enumerate(header) if h.startswith("genus")]
        for row in rows:
            if len(row) < len(header) or "Substantiv" not in row[1]:
                continue
            kinds = {row[i] for i in genders if row[i] in ("m", "f", "n")} or {"m", "f", "n"}
            for i, case, number in columns:
                word = row[i]
                if word and word[0].isalpha():
                    forms.setdefault(word, set()).update(
                        (case, number, g) for g in (kinds if number == "sg" else ("*",)))
    pool: dict[frozenset[Feature], frozenset[Feature]] = {}  # a few hundred distinct sets: shared, not copied
    return {w: pool.setdefault(frozenset(f), frozenset(f)) for w, f in forms.items()}


@dataclass(frozen=True)
class Disagreement:
    """A determiner and its noun that cannot agree: the words from the determiner to the noun and
    their character span in the text."""

    words: str
    start: int
    end: int


class GermanNouns:
    """What a German noun form may be (:meth:`features`): german-nouns' forms, the Hannover
    Tagger's German model for nominalised adjectives and infinitives. One per check; the CSV is
    read when first asked (about 5 s)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._forms: Optional[dict[str, frozenset[Feature]]] = None
        self._tagger = None
        self._pos: dict[str, str] = {}

    def pos(self, word: str) -> str:
        """The Hannover Tagger's part of speech of a lower-case word alone (``ADJ(A)``, ``VV(INF)``)."""
        if word not in self._pos:
            if self._tagger is None:
                from HanTa import HanoverTagger

                self._tagger = HanoverTagger.HanoverTagger("morphmodel_ger.pgz")
            self._pos[word] = self._tagger.analyze(word)[-1]
        return self._pos[word]

    def features(self, word: str) -> Optional[frozenset[Feature]]:
        """Every (case, number, gender) the capitalised noun ``word`` may have (its last hyphenated
        part; a compound by its last part the lexicon knows), or None where it cannot be read: not
        capitalised, unknown, or a nominalised adjective ("Doppelte": its forms follow the article)."""
        if self._forms is None:
            self._forms = read_nouns(self.path)
        word = word.rsplit("-", 1)[-1]
        if len(word) < 2 or not word[0].isupper() or not word.isalpha():
            return None
        if re.search(r"(?:e|en|er|es|em)$", word) and self.pos(word.lower()).startswith("ADJ"):
            return None
        found = self._forms.get(word)
        for i in range(3, len(word) - 3):  # a compound: its longest last part the lexicon knows
            if found is not None:
                break
            found = self._forms.get(word[i].upper() + word[i + 1:])
        if found is None:
            return None
        if re.search(r"(?:en|ln|rn)$", word) and self.pos(word.lower()).startswith("V"):
            found = found | INFINITIVE
        if (word.endswith("en") and word[:-2] in self._forms) or (word.endswith("n") and word[:-1] in self._forms):
            found = found | PLURAL
        return found


def disagreements(text: str, nouns: GermanNouns) -> list[Disagreement]:
    """The determiners of ``text`` followed (through at most three attributive adjectives) by a
    capitalised noun that no reading of both lets agree."""
    dets = determiners()
    spans = [(m.group(0), m.start(), m.end()) for m in TOKEN.finditer(text)]
    toks = [t for t, _, _ in spans]
    out = []
    for i, tok in enumerate(toks):
        det = dets.get(tok) or dets.get(tok.lower())
        if det is None or _pronoun_here(toks, i):
            continue
        j = i + 1
        while (j < len(toks) and j - i <= 3 and ADJECTIVE.fullmatch(toks[j]) and toks[j] not in dets
               and nouns.pos(toks[j]).startswith("ADJ")):  # not "hier", "aber", "immer"
            j += 1
        if j >= len(toks) or (noun := nouns.features(toks[j])) is None or det & noun:
            continue
        if tok.lower() in ("das", "dies") and any(n == "pl" for _, n, _ in noun):
            continue  # "das Nachahmer" is as often "(sind) das Nachahmer": a pronoun
        out.append(Disagreement(text[spans[i][1]:spans[j][2]], spans[i][1], spans[j][2]))
    return out


def _pronoun_here(toks: list[str], i: int) -> bool:
    # a determiner that may be a relative or demonstrative pronoun here: after a comma, a
    # preposition after a comma, or ("das") a form of "sein"
    before = toks[i - 1] if i else ""
    if before in (",", ";", ":", "(", "–", "-"):
        return True
    if before.lower() in PREPOSITIONS and i > 1 and toks[i - 2] == ",":
        return True
    return toks[i].lower() in ("das", "dies") and before.lower() in SEIN


def doubled(source: str, translation: str) -> list[str]:
    """Short words (one to three letters) ``translation`` writes twice in a row (spaces only
    between) where the source doubles none: "ist ist", "in in"; not a relative pronoun and an
    article (:data:`DOUBLES` after a comma, a preposition or a conjunction: "Frauen, die die
    Kinder") nor two pronouns (:data:`PRONOUNS`: "programmieren Sie sie", "dass sie sie sieht"). Longer words are :func:`sit.textcheck.spelling.repeated_words`'."""
    if _SHORT_TWICE.search(source):
        return []
    out = []
    for m in _SHORT_TWICE.finditer(translation):
        word = m.group(1)
        if word.lower() in PRONOUNS:
            continue
        before = _WORD_BEFORE.search(translation[:m.start()])
        prev = before.group(0).strip().lower() if before else ""
        if word.lower() in DOUBLES and (not prev or prev in (",", ";", ":") or prev in PREPOSITIONS
                                        or prev in CONJUNCTIONS):
            continue
        out.append(word)
    return list(dict.fromkeys(out))


_SHORT_TWICE = re.compile(r"(?<![\w-])([^\W\d_]{1,3})[ \t]+(\1)(?![\w-])", re.IGNORECASE)
_WORD_BEFORE = re.compile(r"(\w+|[^\w\s])\s*\Z")


__all__ = ["Disagreement", "GermanNouns", "determiners", "disagreements", "doubled", "nouns_file", "read_nouns"]
