"""Words: the ways sit splits a text into words, and which words are stop words (one module, so
that every room reads the same patterns and lists).

sit splits text into words with these patterns, each for a reason named at it:

- :data:`WORD`, the unit a perturbation edits (``sit.perturb.text.words``, with offsets);
- :data:`BAG_WORD`, a word of a translation's bag (``sit.bags``: the ``rti`` relation);
- :data:`TOKEN`, a word or one punctuation mark: how two texts are compared unit by unit (the
  production relations' changed words, the ``length`` relation's repeats);
- :data:`RUN`, a bare run of word characters: the untranslated-word rule, whose whole-word search
  has the same ``\\w`` boundaries (``sit.textcheck.untranslated``);
- :data:`COPY_CANDIDATE`, a source word the ``language`` relation looks for in a translation;
- :data:`ANSWER_WORD`, a word of a model's answer for the batch-order check
  (``sit.translators.answers``);
- :data:`LETTERS`, a word findings are clustered by (:func:`letter_words`, :func:`word_key`: the
  relations' cluster keys and ``sit.report.clusters``).

Whitespace (``str.split``) only counts words against length limits, and the relations that parse
read spaCy's own tokens. Changing a pattern changes outputs and cache keys: each is kept as it was
when it was written.

The stop words are spaCy's list for each language (:func:`stop_words`); the noise catalogue's
English list (:func:`noise_stop_words`) is spaCy's English list less the words it may edit all
the same (:data:`NOISE_EDITABLE`) plus a few it adds (:data:`NOISE_EXTRA`).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

#: a word a perturbation edits: letters and digits of any script (no underscore), joined by inner
#: apostrophes or hyphens ("don't", "well-known", "COVID-19"); a run of CJK characters is one word
WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
#: a word of a translation's bag: word characters joined by inner apostrophes ("l'homme" is one
#: word) but not hyphens, so that "well-known" and "well known" make the same bag
BAG_WORD = re.compile(r"\w+(?:['’]\w+)*")
#: a word or one punctuation mark: a dropped comma or a doubled "!" counts as a change, and a
#: repeat of "- -" as a repeat
TOKEN = re.compile(r"\w+|[^\w\s]")
#: a bare run of word characters (apostrophes and hyphens split it): the units of the
#: untranslated-word rule, whose whole-word search ``(?<!\w)word(?!\w)`` stops at the same places
RUN = re.compile(r"\w+")
#: a source word the ``language`` relation looks for in a translation: lower-case ASCII letters, three
#: or more (a capitalised word may be a name), standing alone: no part of a hyphenated word or a
#: contraction, nor right after a straight or curly apostrophe
COPY_CANDIDATE = re.compile(r"(?<![\w'’-])[a-z]{3,}(?![\w'’-])")
#: a word of a model's answer as the batch-order check reads it: from a word character on through
#: apostrophes and hyphens, trailing ones and underscores included; looser than WORD, which does
#: no harm here, since the check only compares an answer with its text, both read the same way
ANSWER_WORD = re.compile(r"\w[\w'’-]*", re.U)
#: a word a cluster of findings is keyed on: three letters or more of any script, no digit or
#: underscore ("40,000" and "a" key nothing)
LETTERS = re.compile(r"[^\W\d_]{3,}")


def letter_words(text: str) -> set[str]:
    """The lower-cased words (:data:`LETTERS`) of ``text``."""
    return {w.lower() for w in LETTERS.findall(text or "")}


def word_key(word: str) -> str:
    """The key of a word findings cluster by: lower case, an English plural's ``s`` taken off
    (``shipments`` and ``shipment`` are one word left untranslated)."""
    low = word.lower()
    return low[:-1] if len(low) > 4 and low.endswith("s") and not low.endswith(("ss", "us", "is")) else low


@cache
def stop_words(lang: str) -> frozenset[str]:
    """spaCy's stop-word list for ``lang`` (it ships with spaCy; no pipeline needed); empty if none.

    The list is read from its own module file, ``spacy/lang/<lang>/stop_words.py`` (a plain
    ``STOP_WORDS = set(...)``), without importing spaCy, which would import thinc and torch: a
    cached re-run that parses nothing loads none of them. It is the list a spaCy token's
    ``is_stop`` reads, so the relations that parse and the bags agree."""
    import importlib.util

    spacy = importlib.util.find_spec("spacy")
    for folder in (spacy.submodule_search_locations or []) if spacy else []:
        path = Path(folder) / "lang" / lang / "stop_words.py"
        if path.is_file():
            spec = importlib.util.spec_from_file_location(f"sit._stop_words_{lang}", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return frozenset(w.lower() for w in getattr(module, "STOP_WORDS", ()))
    return frozenset()


#: words of spaCy's English list that the noise catalogue edits all the same. Its list began as a
#: short hand-made one of the commonest function words; these are kept editable so that a
#: perturbation, and the cache key it makes, stays what it was.
NOISE_EDITABLE = frozenset(
    # numerals
    """one two three four five six eight nine ten eleven twelve fifteen twenty forty fifty sixty
    hundred first third"""
    # verbs
    """ became become becomes becoming call done get give go keep made make move put say see seem
    seemed seeming seems show take used using ca re"""
    # nouns, adjectives and quantifiers
    """ amount bottom front name part side top empty full serious whole former latter last least
    less many much several various next another others mine"""
    # prepositions and conjunctions
    """ across along among amongst around behind beside besides beyond due except onto per
    regarding since throughout thru toward towards via within without although though unless
    whereas whether"""
    # pronouns
    """ anyone anything everyone everything nobody none noone nothing someone something whatever
    whoever"""
    # adverbs
    """ afterwards almost alone already always anyhow anyway anywhere back beforehand else
    elsewhere enough even ever every everywhere formerly hence hereafter hereby herein hereupon
    however indeed latterly meanwhile moreover mostly namely never nevertheless nowhere often
    otherwise perhaps please quite rather really somehow sometime sometimes somewhere still
    thence thereafter thereby therefore therein thereupon together thus well whence whenever
    whereafter whereby wherein whereupon wherever whither""".split()
)
#: English function words the noise catalogue skips that spaCy's list lacks: the negative
#: contractions written out, and three more
NOISE_EXTRA = frozenset(
    "aren't can't didn't doesn't don't isn't wasn't weren't won't having shall theirs".split()
)


@cache
def noise_stop_words() -> frozenset[str]:
    """The English words (lower-case, straight apostrophes) the noise catalogue leaves alone by
    default: :func:`stop_words` ``("en")`` less :data:`NOISE_EDITABLE`, plus :data:`NOISE_EXTRA`."""
    return (stop_words("en") - NOISE_EDITABLE) | NOISE_EXTRA


def is_noise_stop_word(word: str) -> bool:
    """Whether the noise catalogue leaves ``word`` alone by default (:func:`noise_stop_words`);
    case and curly apostrophes do not matter."""
    return word.lower().replace("’", "'") in noise_stop_words()
