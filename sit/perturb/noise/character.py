"""The catalogue's character level: one letter of each of ``n`` words swapped, deleted, inserted,
replaced, repeated, or replaced by a look-alike code point."""

from __future__ import annotations

import random
from typing import Any

from ...errors import ConfigError
from ..homoglyphs import HOMOGLYPHS
from ..text import Span
from .base import WordEditor

ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def _match_case(new: str, like: str) -> str:
    return new.upper() if like.isupper() else new


class CharacterPerturber(WordEditor):
    """Edits one character in each of ``n`` distinct eligible words."""

    level = "character"

    def _letters(self, word: str) -> list[int]:
        return [i for i, ch in enumerate(word) if ch.isalpha()]

    def _word_problem(self, word: Span, doc: Any) -> str:
        return "" if self._sites(word.text) else self.no_site

    no_site = "no letter to edit"

    def _sites(self, word: str) -> list[int]:
        return self._letters(word)

    def _edit_word(self, word: str, rng: random.Random) -> tuple[str, str]:
        raise NotImplementedError

    def _new_word(self, word: Span, doc: Any, rng: random.Random) -> tuple[str, str]:
        return self._edit_word(word.text, rng)


class CharacterSwap(CharacterPerturber):
    """Swap two adjacent (different) letters of a word: "house" -> "hosue"."""

    name = "character_swap"
    no_site = "no two adjacent different letters"

    def _sites(self, word: str) -> list[int]:
        return [
            i for i in range(len(word) - 1)
            if word[i].isalpha() and word[i + 1].isalpha() and word[i] != word[i + 1]
        ]

    def _edit_word(self, word, rng):
        i = rng.choice(self._sites(word))
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :], f"swapped characters {i} and {i + 1}"


class CharacterDelete(CharacterPerturber):
    """Delete one letter of a word of at least two letters: "house" -> "hose"."""

    name = "character_delete"
    no_site = "fewer than two letters"

    def _sites(self, word: str) -> list[int]:
        letters = self._letters(word)
        return letters if len(letters) >= 2 else []

    def _edit_word(self, word, rng):
        i = rng.choice(self._sites(word))
        return word[:i] + word[i + 1 :], f"deleted {word[i]!r} at character {i}"


class _AlphabetMixin:
    """The ``alphabet`` option of the perturbers that write new letters."""

    def __init__(self, *, alphabet: str = ALPHABET, **options):
        super().__init__(**options)
        if not alphabet or len(set(alphabet)) < 2:
            raise ConfigError(f"{self.name}: alphabet needs at least two different characters")
        self.alphabet = "".join(dict.fromkeys(alphabet))

    def options(self):
        return {**super().options(), "alphabet": self.alphabet}


class CharacterInsert(_AlphabetMixin, CharacterPerturber):
    """Insert a random letter (from ``alphabet``) into a word: "house" -> "houkse"."""

    name = "character_insert"

    def _edit_word(self, word, rng):
        i = rng.randrange(len(word) + 1)
        ch = _match_case(rng.choice(self.alphabet), word)
        return word[:i] + ch + word[i:], f"inserted {ch!r} at character {i}"


class CharacterReplace(_AlphabetMixin, CharacterPerturber):
    """Replace a letter with a different random one (case kept): "house" -> "hovse"."""

    name = "character_replace"

    def _edit_word(self, word, rng):
        i = rng.choice(self._sites(word))
        old = word[i]
        ch = rng.choice([c for c in self.alphabet if c != old.lower() and c != old])
        ch = ch.upper() if old.isupper() else ch
        return word[:i] + ch + word[i + 1 :], f"replaced {old!r} with {ch!r} at character {i}"


class CharacterRepeat(CharacterPerturber):
    """Repeat one letter of a word: "house" -> "housse"."""

    name = "character_repeat"

    def _edit_word(self, word, rng):
        i = rng.choice(self._sites(word))
        return word[: i + 1] + word[i] + word[i + 1 :], f"repeated {word[i]!r} at character {i}"


def _glyph_note(ch: str) -> str:
    import unicodedata

    g = HOMOGLYPHS[ch]
    return f"{ch!r} -> U+{ord(g):04X} {unicodedata.name(g)}"


class Homoglyph(CharacterPerturber):
    """Replace one Latin letter of a word with a look-alike Cyrillic or Greek code point (see
    :data:`sit.perturb.homoglyphs.HOMOGLYPH_TABLE`): it looks the same and is another string."""

    name = "homoglyph"
    no_site = "no letter with a look-alike"

    def _sites(self, word: str) -> list[int]:
        return [i for i, ch in enumerate(word) if ch in HOMOGLYPHS]

    def _edit_word(self, word, rng):
        i = rng.choice(self._sites(word))
        return word[:i] + HOMOGLYPHS[word[i]] + word[i + 1 :], f"character {i}: {_glyph_note(word[i])}"
