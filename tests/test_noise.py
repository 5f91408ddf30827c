"""The noise catalogue: fixed seed -> exact output, cannot-apply cases, Unicode and empty input."""

from __future__ import annotations

import random
import unicodedata

import pytest

from sit.errors import ConfigError
from sit.perturb import PERTURBERS
from sit.perturb.homoglyphs import HOMOGLYPH_TABLE, HOMOGLYPHS, fold
from sit.perturb.noise import NoisePerturber, apply_replacements
from sit.perturb.text import documents, sentences, words

S = "The quick brown fox jumps over the lazy dog."
U = "Zürich café serves naïve crêpes"
D = "Rain fell all night. The river rose quickly. Roads were closed by noon."
M = "First report. Second line. ||||| Another paper says more."

NOISE = [
    "character_swap", "character_delete", "character_insert", "character_replace", "character_repeat",
    "homoglyph", "word_delete", "word_homograph", "word_reorder", "word_synonym", "sentence_reorder",
    "document_reorder",
]


@pytest.fixture(scope="module")
def make():
    made: dict[str, NoisePerturber] = {}

    def get(name: str, **options) -> NoisePerturber:
        if options:
            return PERTURBERS.create(name, **options)
        if name not in made:
            made[name] = PERTURBERS.create(name)
        return made[name]

    return get


def one(p, text, seed=7):
    return p.perturb_detailed([text], random.Random(seed))[0][0]


EXPECTED = [
    ("character_swap", S, "The quick brown fox jumps over the layz dog."),
    ("character_swap", U, "Zürich café serves naïve crpêes"),
    ("character_swap", D, "Rain fell all night. The river rose quickly. Roads were closed by nono."),
    ("character_delete", S, "The quick brown fox jumps over the lay dog."),
    ("character_delete", U, "Zürich café serves naïve crêpe"),
    ("character_insert", S, "The quick brown fox jumps over the laozy dog."),
    ("character_insert", U, "Zürich café serves naïve crêpejs"),
    ("character_replace", S, "The quick brown fox jumps over the laoy dog."),
    ("character_replace", U, "Zürich café serves naïve crêpej"),
    ("character_repeat", S, "The quick brown fox jumps over the lazzy dog."),
    ("character_repeat", U, "Zürich café serves naïve crêpess"),
    ("homoglyph", S, "The quick brown fox jumps over the laz\u0443 dog."),
    ("homoglyph", U, "Zürich café serves naïve crêp\u0435s"),
    ("word_delete", S, "The quick brown fox jumps over the dog."),
    ("word_delete", U, "Zürich café serves naïve"),
    ("word_delete", D, "Rain fell all night. The river rose quickly. Roads were closed by."),
    ("word_homograph", S, "The quick brown fox jumps over the l\u0430z\u0443 dog."),
    ("word_homograph", U, "Zürich café serves naïve \u0441r\u00ea\u0440\u0435\u0455"),
    ("word_reorder", S, "The quick brown fox over jumps the lazy dog."),
    ("word_reorder", U, "Zürich café naïve serves crêpes"),
    ("word_synonym", S, "The quick brownish fox jumps over the lazy dog."),
    ("word_synonym", D, "Rain fell all night. The river rose quickly. Roads were closed by noontide."),
    ("word_synonym", M, "First study. Second line. ||||| Another paper says more."),
    ("sentence_reorder", D, "Roads were closed by noon. Rain fell all night. The river rose quickly."),
    ("sentence_reorder", M, "Second line. First report. ||||| Another paper says more."),
    ("document_reorder", M, "Another paper says more. ||||| First report. Second line."),
]


@pytest.mark.parametrize("name,text,expected", EXPECTED)
def test_fixed_seed_gives_exact_output(make, name, text, expected):
    o = one(make(name), text)
    assert o.applied
    assert o.text == expected
    # every change's offsets point at its before/after text
    for c, (start, end) in zip(o.changes, o.spans()):
        assert text[start:end] == c.before
        assert o.text[c.char_start : c.char_end] == c.after
        assert (c.perturber, c.level) == (name, make(name).level)


CANNOT = [
    ("character_swap", "a", "no eligible word (shorter than 2 characters: 1)"),
    ("character_swap", "I am aa", "no eligible word (shorter than 2 characters: 1, stop words: 1, no two adjacent different letters: 1)"),
    ("character_delete", "a", "no eligible word (shorter than 2 characters: 1)"),
    ("character_insert", "the and of", "no eligible word (stop words: 3)"),
    ("character_replace", "42 17", "no eligible word (numbers: 2)"),
    ("character_repeat", "日", "no eligible word (shorter than 2 characters: 1)"),
    ("homoglyph", "Fülm", "no eligible word (no letter with a look-alike: 1)"),
    ("homoglyph", "!!! ...", "no words in the text"),
    ("word_homograph", "Fülm flm", "no eligible word (no letter with a look-alike: 2)"),
    ("word_delete", "Hello", "a one-word text: deleting its word would leave none"),
    ("word_delete", "It is", "no eligible word (stop words: 2)"),
    ("word_reorder", "go go", "no two adjacent different eligible words"),
    ("word_reorder", "Hello", "no two adjacent different eligible words"),
    ("word_synonym", U, "no eligible word (no same-POS WordNet synonym: 5)"),
    ("sentence_reorder", S, "a one-sentence document"),
    ("sentence_reorder", "Yes. Yes. Yes.", "no document has two different sentences to reorder"),
    ("sentence_reorder", "One. ||||| Two.", "every document has one sentence"),
    ("document_reorder", D, "a single document (no '|||||' separator between documents)"),
    ("document_reorder", "Same. ||||| Same.", "all documents are identical"),
]


@pytest.mark.parametrize("name,text,reason", CANNOT)
def test_cannot_apply_says_why(make, name, text, reason):
    o = one(make(name), text)
    assert not o.applied and o.text == text and o.reason == reason
    edit = o.edit(name, "x")
    assert edit.position == -1 and edit.note == reason


@pytest.mark.parametrize("name", NOISE)
@pytest.mark.parametrize("text", ["", "   "])
def test_empty_input(make, name, text):
    o = one(make(name), text)
    assert not o.applied and o.text == text and o.reason == "empty text"


@pytest.mark.parametrize("name", NOISE)
def test_same_seed_same_output_and_global_random_untouched(make, name):
    p = make(name)
    texts = [S, U, D, M, ""]
    random.seed(123)
    state = random.getstate()
    a = p.perturb(texts, random.Random(11))
    assert random.getstate() == state  # the global random state is never used
    b = p.perturb(texts, random.Random(11))
    assert [(x.perturbed, x.edit) for x in a] == [(x.perturbed, x.edit) for x in b]
    assert len(a) == len(texts)  # one Pair per text (unchanged ones carry the reason)


def test_per_text_seeds_are_independent_of_other_texts_work(make):
    p = make("character_swap")
    a = p.perturb([S, D], random.Random(5))[1].perturbed
    b = p.perturb([U, D], random.Random(5))[1].perturbed
    assert a == b  # each text draws exactly one seed, whatever the text before it needed


def test_pairs_carry_edits_for_the_pipeline(make):
    pairs = make("character_swap").perturb([S, "a"], random.Random(7), ids=[10, 11])
    assert [p.source_id for p in pairs] == [10, 11]
    e = pairs[0].edit
    assert (e.position, e.before, e.after, e.perturber, e.level) == (7, "lazy", "layz", "character_swap", "character")
    assert pairs[0].perturbed[e.char_start : e.char_end] == "layz"
    assert e.note == "swapped characters 2 and 3"
    assert pairs[1].perturbed == "a" and pairs[1].edit.note.startswith("no eligible word")


@pytest.mark.parametrize(
    "options,expected",
    [
        ({"n": 3}, "The quick brown ofx jumsp over the lzay dog."),
        ({"n": 3, "seed": 1}, "The qucik brown fox jumps over the alzy dgo."),
        ({"rate": 1.0}, "The quikc brwon ofx jupms over the lzay odg."),  # all 6 eligible words
        ({"rate": 0.5}, "The quick brown ofx jumsp over the lzay dog."),  # 3 of 6
        ({"n": 2, "protect": [r"la\w+", "dog"]}, "The quick borwn fxo jumps over the lazy dog."),
        ({"n": 9, "skip_stopwords": False}, "hTe qucik bronw ofx jmups voer teh layz dgo."),
    ],
)
def test_how_many_and_which_words(options, expected):
    options = dict(options)
    seed = options.pop("seed", 7)
    o = one(PERTURBERS.create("character_swap", **options), S, seed)
    assert o.text == expected


def test_multiple_edits_become_one_covering_edit():
    o = one(PERTURBERS.create("character_swap", n=2), S, 1)
    assert len(o.changes) == 2
    e = o.edit("character_swap", "character")
    assert e.before == S[o.spans()[0][0] : o.spans()[1][1]]
    assert e.after == o.text[e.char_start : e.char_end]
    assert e.note.startswith("2 edits: ")


def test_numbers_are_skipped_unless_asked():
    text = "Sales rose 12345 units"
    assert one(PERTURBERS.create("word_delete", rate=1.0), text).text == "12345"
    assert one(PERTURBERS.create("word_delete", rate=1.0, skip_numbers=False), text).text == "units"


def test_named_entities_are_skipped_with_the_tagger():
    text = "Angela Merkel visited Washington yesterday"
    o = one(PERTURBERS.create("character_swap", n=9, skip_entities=True), text)
    assert o.applied
    # PERSON, GPE and DATE entities (Angela Merkel, Washington, yesterday) are left alone
    assert [c.before for c in o.changes] == ["visited"]


def test_num_perturb_gives_distinct_variants():
    p = PERTURBERS.create("homoglyph", num_perturb=4)
    outs = p.perturb_detailed([S], random.Random(2))[0]
    assert len(outs) == 4 and len({o.text for o in outs}) == 4
    assert all(fold(o.text) == S for o in outs)


@pytest.mark.parametrize(
    "name,options",
    [
        ("character_swap", {"n": 0}),
        ("character_swap", {"rate": 0}),
        ("character_swap", {"rate": 1.5}),
        ("character_swap", {"n": 1, "rate": 0.5}),
        ("character_swap", {"protect": ["("]}),
        ("character_insert", {"alphabet": "a"}),
        ("word_synonym", {"senses": 0}),
        ("character_swap", {"num_perturb": 0}),
    ],
)
def test_bad_options_are_config_errors(name, options):
    with pytest.raises(ConfigError):
        PERTURBERS.create(name, **options)


def test_sentence_paraphrase_needs_a_model():
    with pytest.raises(ConfigError, match="needs a paraphrase model"):
        PERTURBERS.create("sentence_paraphrase")


def test_constructor_convention_for_sit_run():
    for name in NOISE:
        p = PERTURBERS.create(name, cache=None, progress=False, num_perturb=2)
        assert p.name == name and p.num_perturb == 2
        assert p.signature()["name"] == name


def test_homoglyph_table_names_match_unicode():
    assert len(HOMOGLYPH_TABLE) == len(HOMOGLYPHS) == 33
    for latin, glyph, name in HOMOGLYPH_TABLE:
        assert latin.isascii() and latin.isalpha() and len(glyph) == 1
        assert unicodedata.name(glyph) == name
        assert name.startswith(("CYRILLIC", "GREEK"))
        assert (latin.isupper()) == ("CAPITAL" in name)
    assert fold("\u0421\u043e\u0441\u043e") == "Coco"


SENTENCES = [
    ("Mr. Smith went to Washington. He met Dr. J. Brown at 5 p.m. on Friday! \"Great,\" he said.",
     ["Mr. Smith went to Washington.", "He met Dr. J. Brown at 5 p.m. on Friday!", "\"Great,\" he said."]),
    ("The U.S. economy grew 3.5% in 2023. Prices rose.", ["The U.S. economy grew 3.5% in 2023.", "Prices rose."]),
    ("今天很好。明天也好。", ["今天很好。", "明天也好。"]),
    ("No final stop", ["No final stop"]),
    ("  Spaces around.   Here too.  ", ["Spaces around.", "Here too."]),
    ("", []),
]


@pytest.mark.parametrize("text,expected", SENTENCES)
def test_sentence_splitting(text, expected):
    spans = sentences(text)
    assert [s.text for s in spans] == expected
    assert all(text[s.start : s.end] == s.text for s in spans)


def test_words_and_documents():
    assert [w.text for w in words("Don't stop well-known COVID-19 café 日本語 3.5")] == [
        "Don't", "stop", "well-known", "COVID-19", "café", "日本語", "3", "5"]
    docs = documents("a b ||||| c d |||||")
    assert [(d.text, d.start) for d in docs] == [("a b", 0), ("c d", 10)]


def test_apply_replacements_offsets():
    o = apply_replacements("abc def ghi", [(8, 11, "X", 2, ""), (0, 3, "long", 0, "")], perturber="p", level="word")
    assert o.text == "long def X"
    assert [(c.char_start, c.char_end) for c in o.changes] == [(0, 4), (9, 10)]
    assert o.spans() == [(0, 3), (8, 11)]  # where each stood in the original
    assert [r["start"] for r in o.to_dict()["edits"]] == [0, 8]


# -- through Perturber.perturb: batches, cache, a kill mid-stage ---------------------------------

BATCHED = [f"Sentence number {i} talks about the quick brown fox." for i in range(20)] + ["The lazy dog sleeps."] * 2


def test_perturb_in_batches_gives_the_same_pairs_as_before():
    """Seeds are drawn per sentence in order, so batching (16 per batch here) changes nothing;
    the expected texts were produced by the code before the cached batch loop."""
    got = [p.perturbed for p in PERTURBERS.create("character_swap").perturb(BATCHED, random.Random(3))]
    assert got[16:] == [
        "Sentence number 16 tlaks about the quick brown fox.", "Sentence number 17 atlks about the quick brown fox.",
        "Sentence number 18 talks about the qiuck brown fox.", "Sentence number 19 talks about the uqick brown fox.",
        "The lazy odg sleeps.", "The lazy dog lseeps.",
    ]


KILLED_RUN = """
import os, random, signal, sys
from sit.cache import Cache
from sit.perturb import PERTURBERS
p = PERTURBERS.create("character_swap", cache=Cache(sys.argv[1]))
p.batch_size = 5
real = p._perturb_seeded
calls = []
def dying(sentences, seeds):
    calls.append(1)
    if len(calls) == 3:
        os.kill(os.getpid(), signal.SIGKILL)  # killed in the middle of the perturb stage
    return real(sentences, seeds)
p._perturb_seeded = dying
p.perturb(sys.argv[2:], random.Random(3))
"""


def test_a_kill_during_perturb_keeps_the_finished_batches(tmp_path):
    import subprocess
    import sys

    from sit.cache import Cache

    proc = subprocess.run([sys.executable, "-c", KILLED_RUN, str(tmp_path), *BATCHED], capture_output=True, text=True)
    assert proc.returncode == -9, proc.stderr
    again = PERTURBERS.create("character_swap", cache=Cache(tmp_path))
    again.batch_size = 5
    pairs = again.perturb(BATCHED, random.Random(3))
    assert again.cache_hits == 10, "the two batches finished before the kill come from the cache"
    assert again.computed == 12  # the 12 others (a repeated sentence draws its own seed)
    fresh = PERTURBERS.create("character_swap").perturb(BATCHED, random.Random(3))
    assert pairs == fresh


# -- word_synonym reads WordNet through the one engine (sit.perturb.wordnet) ---------------------


def test_the_wordnet_engine_gives_single_word_lemmas_in_wordnet_order():
    from sit.perturb.wordnet import WordNetLexicon, single_word

    lex = WordNetLexicon()
    # car.n.01 (auto, automobile, machine, motorcar), then car.n.02 (railcar; railway_car is two words)
    assert lex.synonyms("car", "n", 2) == ["auto", "automobile", "machine", "motorcar", "railcar"]
    assert lex.synonyms("car", "n", 1) == ["auto", "automobile", "machine", "motorcar"]
    assert lex.plural("noontide") == "noontides" and lex.plural("city") == "cities"
    # irregular plurals, from inflect (pinned to 7.0: pyproject.toml says why)
    assert [lex.plural(w) for w in ("wolf", "mouse", "analysis", "criterion", "ministry")] == [
        "wolves", "mice", "analyses", "criteria", "ministries"]
    assert [single_word(w) for w in ("auto", "railway_car", "well-known", "Paris", "B12")] == [
        True, False, False, False, False]


def test_word_synonym_uses_the_wordnet_engine_and_a_cached_rerun_reads_no_wordnet(tmp_path):
    from sit.cache import Cache
    from sit.perturb.wordnet import WordNetLexicon

    p = PERTURBERS.create("word_synonym", cache=Cache(tmp_path))
    assert isinstance(p.lexicon, WordNetLexicon) and p.model_id() == "wordnet-3.0"
    first = p.perturb([S, D], random.Random(7))
    assert [x.perturbed for x in first] == [  # what the catalogue's own WordNet code gave before
        "The quick brownish fox jumps over the lazy dog.",
        "Rain fell all nighttime. The river rose quickly. Roads were closed by noon."]
    again = PERTURBERS.create("word_synonym", cache=Cache(tmp_path))
    assert again.perturb([S, D], random.Random(7)) == first
    assert again.cache_hits == 2 and again.lexicon._reader is None
