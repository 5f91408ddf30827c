"""sit.words: the word patterns, each splitting as its docstring says, and the stop-word lists
(spaCy's, and the noise catalogue's, which is spaCy's English list less a named difference)."""

from __future__ import annotations

import random

from sit.perturb import PERTURBERS
from sit.words import (ANSWER_WORD, BAG_WORD, COPY_CANDIDATE, NOISE_EDITABLE, NOISE_EXTRA, RUN, TOKEN, WORD,
                       is_noise_stop_word, noise_stop_words, stop_words)

TEXT = "Don't say 'well-known' rock_n_roll, COVID-19!"


def test_each_pattern_splits_as_documented():
    assert WORD.findall(TEXT) == ["Don't", "say", "well-known", "rock", "n", "roll", "COVID-19"]
    assert BAG_WORD.findall(TEXT) == ["Don't", "say", "well", "known", "rock_n_roll", "COVID", "19"]
    assert TOKEN.findall(TEXT) == ["Don", "'", "t", "say", "'", "well", "-", "known", "'", "rock_n_roll", ",",
                                   "COVID", "-", "19", "!"]
    assert RUN.findall(TEXT) == ["Don", "t", "say", "well", "known", "rock_n_roll", "COVID", "19"]
    assert COPY_CANDIDATE.findall(TEXT) == ["say"]  # after an apostrophe, in a compound: not alone
    assert ANSWER_WORD.findall("X-ray- l'  d'") == ["X-ray-", "l'", "d'"]


def test_spacy_lists_are_read_without_spacy_and_are_empty_for_an_unknown_language():
    assert {"the", "two", "across", "made"} <= stop_words("en")
    assert {"el", "de", "que"} <= stop_words("es")
    assert stop_words("xx-none") == frozenset()


def test_the_noise_list_is_spacys_english_list_less_the_editable_words_plus_the_extras():
    spacy_en = stop_words("en")
    assert NOISE_EDITABLE <= spacy_en  # a difference from spaCy's list, nothing else
    assert not NOISE_EXTRA & spacy_en
    assert noise_stop_words() == (spacy_en - NOISE_EDITABLE) | NOISE_EXTRA
    for word in ("the", "of", "which", "shall", "don't", "Don’t", "THEIRS"):
        assert is_noise_stop_word(word), word
    for word in ("two", "made", "across", "nothing", "whether", "fox"):
        assert not is_noise_stop_word(word), word


def test_a_noise_perturber_edits_a_word_spacy_calls_a_stop_word_but_not_a_function_word():
    # "made" and "two" are spaCy stop words the catalogue may edit; "they" and "have" it skips
    perturber = PERTURBERS.create("word_delete", n=1)
    deleted = set()
    for seed in range(12):
        [outcome] = perturber.perturb_detailed(["They have made two"], random.Random(seed))[0][:1]
        deleted |= {change.before.strip() for change in outcome.changes}
    assert deleted == {"made", "two"}
