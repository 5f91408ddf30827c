"""Spelling of a translation in the target language: words Debian's hunspell dictionaries
(``hunspell-es``, ``hunspell-de-de``, ...) do not know, read through spylls (a maintained, pure-Python
port of Hunspell), and sentence marks glued to the next word (``16.Dezember``, ``.Februar``).

What counts (precision first, docs/check.md "spelling"): a word of letters (apostrophes and
hyphens inside it; each part of a hyphenated word looked up by itself too) of at least
``MIN_LETTERS`` letters that the dictionary knows in none of its written, lower-case or capitalised
forms, and that does not stand in the source (a source word carried over is a name or an untranslated
word: ``language.copied``'s finding, not a misspelling). Words written in capitals beyond their
first letter (acronyms, ``iPhone``) are left alone, and so are capitalised words in languages that
do not capitalise their nouns (names: :data:`CAPITALISED_NOUNS`), and so are the pass-through tokens (URLs,
addresses, handles: :mod:`sit.textcheck.tokens`), compounds of known words (``Lautstärkeregler``:
:meth:`Speller.compound`) and words attested in the target language's wordfreq list (Zipf at least
``ATTESTED_ZIPF``: the dictionaries lack rare real words such as ``Kuriosität``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence

from .. import hints
from ..errors import ConfigError, MissingDependencyError
from .tokens import TOKEN as PASS_THROUGH

#: where Debian's dictionary packages put their ``.dic``/``.aff`` pairs, in the order looked in
DICTIONARY_DIRS = ("/usr/share/hunspell", "/usr/share/myspell", "/usr/share/myspell/dicts")
#: the Debian package of each language's dictionary (the install hint)
DEBIAN_PACKAGES = {"es": "hunspell-es", "de": "hunspell-de-de", "fr": "hunspell-fr", "it": "hunspell-it",
                   "pt": "hunspell-pt-pt", "ca": "hunspell-ca", "en": "hunspell-en-us", "nl": "hunspell-nl",
                   "ru": "hunspell-ru"}
#: the region whose dictionary stands for a language where several are installed
MAIN_REGION = {"es": "ES", "de": "DE", "fr": "FR", "it": "IT", "pt": "PT", "ca": "ES", "en": "US", "nl": "NL",
               "ru": "RU"}
MIN_LETTERS = 3
#: the least Zipf frequency in the target language's wordfreq list of a word written all the same
ATTESTED_ZIPF = 1.0
#: the fewest letters of each part of a compound (:meth:`Speller.compound`)
MIN_COMPOUND = 4
#: what may link the parts of a compound ("Schiff|s|reise", "Stern|en|himmel")
LINKS = ("", "s", "es", "n", "en", "e")
#: a word: letters, with apostrophes and hyphens inside
WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
#: a sentence mark glued to the next word: a word or a number, then ``.``/``!``/``?``, then a
#: word of at least two more letters (:func:`_glued` keeps those capitalised: "16.Dezember",
#: "gestern.Heute")
GLUED = re.compile(r"(?<=[\w)\"”»])[.!?](?=[^\W\d_][^\W\d_A-Z]{2})")


def find_dictionary(language: str, dirs: Sequence[str] = DICTIONARY_DIRS) -> Optional[Path]:
    """The ``.dic`` path of ``language``'s dictionary (``de`` -> ``de_DE.dic``, else the first
    ``de_*.dic``), or None where none is installed."""
    lang = language.split("-")[0].split("_")[0].lower()
    for folder in map(Path, dirs):
        main = folder / f"{lang}_{MAIN_REGION.get(lang, lang.upper())}.dic"
        if main.is_file() and main.with_suffix(".aff").is_file():
            return main
        found = sorted(p for p in folder.glob(f"{lang}_*.dic") if p.with_suffix(".aff").is_file()) \
            if folder.is_dir() else []
        if found:
            return found[0]
    return None


def install_hint(language: str) -> str:
    """What to install for ``language``'s dictionary: its Debian package, where sit knows it."""
    lang = language.split("-")[0].split("_")[0].lower()
    package = DEBIAN_PACKAGES.get(lang)
    return hints.apt(package) if package else f"a hunspell dictionary for {lang!r} ({lang}_XX.dic and .aff)"


#: the languages that write their nouns with a capital: elsewhere a capitalised word is a name
#: (a transliterated "Lifeng", "Douyin" in English) or a sentence's first word, and is left alone
CAPITALISED_NOUNS = frozenset({"de", "lb"})


class Speller:
    """A hunspell dictionary, loaded once (spylls reads it in 1-3 s), asked word by word;
    ``language``: the dictionary's (whether it capitalises nouns: :data:`CAPITALISED_NOUNS`),
    by default read from the file's name (``de_DE.dic``)."""

    def __init__(self, path: str | Path, language: str = ""):
        try:
            from spylls.hunspell import Dictionary
        except ImportError:
            raise MissingDependencyError(f"the spelling check needs spylls; {hints.SPYLLS}") from None
        path = Path(path)
        if not path.with_suffix(".dic").is_file() or not path.with_suffix(".aff").is_file():
            raise ConfigError(f"spelling.dictionary: {path.with_suffix('')} has no .dic and .aff pair; "
                              "give the path of an installed hunspell dictionary")
        self.path = path.with_suffix("")
        lang = (language or self.path.name).split("-")[0].split("_")[0].lower()
        self.names_capitalised = lang not in CAPITALISED_NOUNS
        self._dictionary = Dictionary.from_files(str(self.path))
        aff = self._dictionary.aff
        #: whether the dictionary declares that its language compounds words (German, Dutch: its
        #: .aff's COMPOUNDFLAG, COMPOUNDBEGIN or COMPOUNDRULE); Spanish's does not, so "cumbrededos"
        #: (Apertium's glued "cumbre de dos") is no "cumbre" + "dedos"
        self.compounds = bool(aff.COMPOUNDFLAG or aff.COMPOUNDBEGIN or aff.COMPOUNDRULE)
        self._known: dict[str, bool] = {}  # per speller: a word asked twice is looked up once

    def knows(self, word: str) -> bool:
        """Whether the dictionary knows ``word`` as written, in lower case or capitalised."""
        found = self._known.get(word)
        if found is None:
            look = self._dictionary.lookup
            found = self._known[word] = any(look(w) for w in dict.fromkeys((word, word.lower(), word.capitalize())))
        return found

    def accepts(self, word: str) -> bool:
        """Whether the dictionary knows ``word`` as written, or, capitalised, in lower case (a
        sentence's first word): stricter than :meth:`knows`, which takes a German noun in lower case too."""
        look = self._dictionary.lookup
        return bool(look(word) or (word[:1].isupper() and word[1:].islower() and look(word.lower())))

    def misspelled(self, source: str, translation: str,
                   attested: Callable[[str], bool] = lambda word: False) -> list[str]:
        """The words of ``translation`` this dictionary does not know, each once, in order (see
        the module's rules); ``attested(word)``: whether the word
        is written in the target language all the same (in wordfreq's list: rare words the
        dictionary lacks, "Kuriosität", "Schlägel"), asked only of the words the dictionary lacks."""
        text = PASS_THROUGH.sub(" ", translation)
        seen = {w.casefold() for w in WORD.findall(PASS_THROUGH.sub(" ", source))}
        out = []
        for word in dict.fromkeys(WORD.findall(text)):
            if self._checked(word, seen) and not self._known_word(word) and not attested(word):
                out.append(word)
        return out

    def _checked(self, word: str, seen: set[str]) -> bool:
        letters = sum(ch.isalpha() for ch in word)
        return (letters >= MIN_LETTERS and word.casefold() not in seen
                and not any(ch.isupper() for ch in word[1:]) and not (self.names_capitalised and word[0].isupper()))

    def _known_word(self, word: str) -> bool:
        if self.knows(word):
            return True
        parts = [p for p in re.split(r"['’-]", word) if p]
        if len(parts) > 1:
            return all(len(p) < MIN_LETTERS or self.knows(p) or self.compound(p) for p in parts)
        return self.compound(word)

    def compound(self, word: str, parts: int = 3) -> bool:
        """Whether ``word`` is a compound of at most ``parts`` words the dictionary knows (where it
        declares that its language compounds: :attr:`compounds`), each of
        at least ``MIN_COMPOUND`` letters, a linking ``s``, ``es``, ``n``, ``en`` or ``e`` allowed
        after each but the last (German and Dutch write compounds as one word, which hunspell's
        dictionaries list only in part: "Lautstärke" + "Regler", "Schnappschuss" + "Serie")."""
        if not self.compounds or parts < 2 or len(word) < 2 * MIN_COMPOUND:
            return False
        for cut in range(MIN_COMPOUND, len(word) - MIN_COMPOUND + 1):
            head, rest = word[:cut], word[cut:]
            if not self._head(head):
                continue
            tail = rest.capitalize() if word[:1].isupper() else rest
            if self.knows(tail) or self.compound(tail, parts - 1):
                return True
        return False

    def _head(self, head: str) -> bool:
        # the first part of a compound, with or without its linking letters
        return any(self.knows(head[:len(head) - len(link)]) for link in LINKS
                   if head.endswith(link) and len(head) - len(link) >= MIN_COMPOUND)


#: a word of four letters or more written twice back to back ("house house"), only spaces between
#: ("die die", "Sie sie" are German grammar)
REPEATED = re.compile(r"\b([^\W\d_]{4,})\s+(\1)\b", re.IGNORECASE)


def repeated_words(source: str, translation: str) -> list[str]:
    """Words ``translation`` writes twice back to back (only spaces between: "die die" after a
    comma is German grammar and has one) where the source doubles no word, each once."""
    if REPEATED.search(PASS_THROUGH.sub(" ", source)):
        return []
    return list(dict.fromkeys(m.group(1) for m in REPEATED.finditer(PASS_THROUGH.sub(" ", translation))
                              if m.group(1) == m.group(2) or m.group(1).lower() == m.group(2).lower()))


def glued_marks(source: str, translation: str) -> list[str]:
    """The stretches of ``translation`` where a sentence mark is glued to the next word
    ("16.Dezember") that the source does not write so, each once (at most 40 characters)."""
    return [span[:40] for span in dict.fromkeys(_glued(PASS_THROUGH.sub(" ", translation), source))]


def _glued(text: str, source: str) -> Iterable[str]:
    # the word-mark-word stretches of text glued together that the source does not write so
    for mark in GLUED.finditer(text):
        if not text[mark.end()].isupper():  # "chinanews.com", "node.js": a name, not two sentences
            continue
        span = re.search(r"\S*\Z", text[:mark.start()]).group(0) + text[mark.start():].split(None, 1)[0]
        if span not in source:
            yield span
