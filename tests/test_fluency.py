"""The fluency check: pocketsphinx's n-gram code on a hand-written ARPA model and on the English
trigram model the package ships, inside the quality stage on real WordNet and spaCy."""

import random

import pytest

from sit.errors import ConfigError
from sit.perturb import PERTURBERS
from sit.perturb.fluency import UNKNOWN, NgramModel, lm_words, resolve_lm, shipped_lm
from sit.perturb.quality import options_from
from conftest import requires_torch

# log10 probabilities and back-offs chosen by hand
ARPA = """
\\data\\
ngram 1=5
ngram 2=3

\\1-grams:
-1.0 <s> -0.3
-0.5 a -0.2
-0.7 b -0.1
-0.9 c -0.4
-1.0 </s>

\\2-grams:
-0.1 <s> a
-0.2 a b
-0.3 b </s>

\\end\\
"""


@pytest.fixture()
def arpa(tmp_path):
    path = tmp_path / "tiny.arpa"
    path.write_text(ARPA)
    return NgramModel(str(path))


def test_log_probabilities_are_the_models_own_in_log10(arpa):
    assert arpa.logprob("b", ["a"]) == pytest.approx(-0.2, abs=1e-3)  # a listed bigram
    assert arpa.logprob("a", ["b"]) == pytest.approx(-0.1 - 0.5, abs=1e-3)  # back-off(b) + P(a)
    assert arpa.logprob("c", []) == pytest.approx(-0.9, abs=1e-3)
    assert arpa.logprob("zebra", ["a"]) == UNKNOWN


def test_the_fall_sums_the_ngrams_through_the_word(arpa):
    words = ["<s>", "a", "b", "</s>"]
    # "b" -> "c": P(b|a) -0.2 and P(</s>|b) -0.3 become P(c|a) = -0.2 - 0.9 and P(</s>|c) = -0.4 - 1.0
    assert arpa.fall(words, 2, "c") == pytest.approx((-0.2 - 0.3) - (-1.1 - 1.4), abs=1e-3)
    assert arpa.fall(words, 2, "b") == 0


def test_a_window_read_before_the_model_is_loaded_sums_the_same_ngrams(arpa):
    # the first window of a run (a slot's original words) is asked for before anything loaded the model
    words = ["<s>", "a", "b", "</s>"]
    assert arpa.window(words, 2) == pytest.approx(-0.2 - 0.3, abs=1e-3)  # P(b|a) + P(</s>|b)
    assert arpa.window(words, 2) == pytest.approx(-0.2 - 0.3, abs=1e-3)


def test_the_shipped_english_model_tells_a_usual_word_from_an_odd_one():
    path, why = resolve_lm("auto")
    assert path == shipped_lm() and "pocketsphinx" in why
    lm = NgramModel(path)
    assert lm.source().startswith("pocketsphinx-") and lm.source().endswith(":en-us.lm.bin")
    words = ["<s>", "the", "interior", "minister", "said", "on", "monday", "</s>"]
    assert lm.fall(words, 3, "ministry") < 1.0 < 4.0 < lm.fall(words, 3, "pastor")
    said = ["<s>", "the", "university", "said", "it", "would", "appeal", "</s>"]
    assert lm.fall(said, 2, "school") < 0.5 < lm.fall(said, 2, "membership")


def test_the_models_words_of_a_parsed_sentence(english_tagger):
    doc = english_tagger.tag(["The company's 2 new plants don't open, officials said."])[0]
    words, where = lm_words(doc)
    assert words == ["<s>", "the", "company's", "new", "plants", "don't", "open", "officials", "said", "</s>"]
    assert where[1] == where[2] == 2  # "company" and its "'s"
    assert 3 not in where and where[4] == 3  # the number is left out


def test_the_quality_stage_drops_unnatural_words_and_keeps_the_fall(english_tagger):
    sentence = ["The interior minister said the new rules would take effect next month."]
    every = dict(encoder="none", per_slot=0, num_perturb=50)
    on = PERTURBERS.create("wordnet", tagger=english_tagger, **every)
    off = PERTURBERS.create("wordnet", tagger=english_tagger, lm="none", **every)
    kept, plain = on.perturb(sentence, random.Random(0)), off.perturb(sentence, random.Random(0))
    assert on.dropped["unnatural"] > 0 and not off.dropped.get("unnatural")
    assert all(p.edit.lm_fall is not None and p.edit.lm_fall <= 2.0 for p in kept)
    assert all(p.edit.lm_fall is None for p in plain)
    assert {p.perturbed for p in kept} < {p.perturbed for p in plain}
    odd = "The interior pastor said the new rules would take effect next month."
    assert odd in {p.perturbed for p in plain} and odd not in {p.perturbed for p in kept}
    assert on.options()["lm"].startswith("pocketsphinx-") and on.options()["max_lm_fall"] == 2.0
    assert off.options()["lm"] == "none" and off.options()["max_lm_fall"] is None


def test_a_looser_threshold_keeps_more(english_tagger):
    sentence = ["Rebel leaders said the ceasefire talks had collapsed after a week of fighting."]
    strict = PERTURBERS.create("wordnet", tagger=english_tagger, max_lm_fall=0.5, encoder="none", per_slot=0)
    loose = PERTURBERS.create("wordnet", tagger=english_tagger, max_lm_fall=3.0, encoder="none", per_slot=0)
    a, b = strict.perturb(sentence, random.Random(0)), loose.perturb(sentence, random.Random(0))
    assert len(a) < len(b) and strict.dropped["unnatural"] > loose.dropped["unnatural"]


def test_bad_options_and_files_are_one_line_errors(tmp_path, english_tagger):
    with pytest.raises(ConfigError, match="max_lm_fall must be a finite number of at least 0"):
        options_from({"max_lm_fall": "-1"})
    with pytest.raises(ConfigError, match="max_lm_fall must be a finite number"):
        options_from({"max_lm_fall": "high"})
    with pytest.raises(ConfigError, match="is not a file"):
        PERTURBERS.create("wordnet", tagger=english_tagger, lm=str(tmp_path / "missing.arpa"))
    broken = tmp_path / "broken.arpa"
    broken.write_text("not a language model\n")
    with pytest.raises(ConfigError, match="cannot read the n-gram model"):
        NgramModel(str(broken)).logprob("a", [])


@requires_torch
def test_rank_by_fluency_keeps_the_most_fluent_of_each_word(english_tagger):
    sentence = ["Rebel leaders said the ceasefire talks had collapsed after a week of fighting."]
    every = PERTURBERS.create("wordnet", tagger=english_tagger, per_slot=0, min_similarity=0)
    fluent = PERTURBERS.create("wordnet", tagger=english_tagger, per_slot=2, min_similarity=0, rank="fluency")
    assert fluent.options()["rank"] == "fluency" and every.options()["rank"] == "similarity"
    falls: dict = {}
    for p in every.perturb(sentence, random.Random(0)):
        falls.setdefault(p.edit.position, []).append(p.edit.lm_fall)
    kept: dict = {}
    for p in fluent.perturb(sentence, random.Random(0)):
        kept.setdefault(p.edit.position, []).append(p.edit.lm_fall)
    assert any(len(v) > 2 for v in falls.values()), "some word has candidates to choose among"
    for position, chosen in kept.items():
        assert chosen == sorted(falls[position])[:2]
    with pytest.raises(ConfigError, match="unknown rank .loudness.; choose one of: similarity, fluency"):
        options_from({"rank": "loudness"})


@requires_torch
def test_rank_by_fluency_without_the_ngram_model_ranks_by_similarity_and_says_so(english_tagger):
    sentence = ["Rebel leaders said the ceasefire talks had collapsed after a week of fighting."]
    similar = PERTURBERS.create("wordnet", tagger=english_tagger, per_slot=2, min_similarity=0, lm="none")
    asked = PERTURBERS.create("wordnet", tagger=english_tagger, per_slot=2, min_similarity=0, lm="none", rank="fluency")
    assert asked.options()["rank"] == similar.options()["rank"] == "similarity"
    pairs = asked.perturb(sentence, random.Random(0))
    assert pairs and [p.perturbed for p in pairs] == [p.perturbed for p in similar.perturb(sentence, random.Random(0))]
    by_word: dict = {}
    for p in pairs:
        by_word.setdefault(p.edit.position, []).append(p.edit.similarity)
    assert all(sims == sorted(sims, reverse=True) for sims in by_word.values())
