"""The offline SIT perturber on the real WordNet database and the real English tagger."""

import os
import random

import pytest

from sit.perturb import PERTURBERS


@pytest.fixture(scope="module")
def perturber():
    return PERTURBERS.create("wordnet", num_perturb=5)


@pytest.mark.parametrize(
    "sentence, word, expected_some",
    [
        ("The angry senators rejected the new budget proposal.", "senators", {"representatives", "congressmen"}),
        ("The angry senators rejected the new budget proposal.", "angry", {"furious", "mad"}),
        ("The company built a huge warehouse near the airport.", "huge", {"enormous", "large", "vast", "immense"}),
    ],
)
def test_same_pos_neighbours(perturber, sentence, word, expected_some):
    afters = {p.edit.after for p in perturber.perturb([sentence]) if p.edit.before == word}
    assert afters & expected_some, afters
    assert len(afters) <= 5


def test_plural_nouns_stay_plural_and_structure_is_kept(perturber, english_tagger):
    sentence = "The angry senators rejected the new budget proposal."
    pairs = perturber.perturb([sentence])
    doc = english_tagger.tag([sentence])[0]
    assert any(doc[p.edit.position].tag_ == "NNS" for p in pairs), "a plural noun (senators) is replaced"
    for pair in pairs:
        new = english_tagger.tag([pair.perturbed])[0]
        i = pair.edit.position
        assert 0 < i < len(doc) - 1
        assert len(new) == len(doc) and new[i].pos_ == doc[i].pos_ and new[i].text == pair.edit.after
        if doc[i].tag_ == "NNS":
            assert new[i].tag_ == "NNS", pair.perturbed


def test_never_the_first_or_last_token_and_deterministic(perturber):
    # "Budgets" (first) and "cuts" (last) are nouns that must not be replaced; "need" (a verb) may be
    sentence = "Budgets need cuts"
    assert {p.edit.position for p in perturber.perturb([sentence])} == {1}
    assert PERTURBERS.create("wordnet", num_perturb=5, verbs=False).perturb([sentence]) == []
    s = ["The bank opened a new branch in the small town."]
    assert perturber.perturb(s, random.Random(1)) == perturber.perturb(s, random.Random(2))


def test_capitalisation_follows_the_original(perturber):
    pairs = perturber.perturb(["Two Angry senators rejected the new budget."])
    afters = [p.edit.after for p in pairs if p.edit.before == "Angry"]
    assert afters and all(a[0].isupper() and a[1:].islower() for a in afters), afters
    assert {a.lower() for a in afters} & {"furious", "mad", "outraged", "enraged"}, afters


def test_wordnet_is_found_where_nltk_looks_without_importing_nltk(tmp_path):
    # NLTK's search path worked out without `import nltk` (seconds: scipy, scikit-learn) must be
    # NLTK's own, and a WordNet under $NLTK_DATA is found first, all in a fresh interpreter
    import json
    import os
    import pathlib
    import subprocess
    import sys

    (tmp_path / "mine" / "corpora" / "wordnet").mkdir(parents=True)
    env = {**os.environ, "NLTK_DATA": os.pathsep.join([str(tmp_path / "none"), str(tmp_path / "mine")]),
           "PYTHONPATH": str(pathlib.Path(__file__).resolve().parent.parent)}  # this checkout's sit, not an installed one
    code = ("import json, sys\nfrom sit.models.wordnetdb import nltk_data_dirs, wordnet_root\n"
            "ours, root = nltk_data_dirs(), wordnet_root()\nimported = 'nltk' in sys.modules\n"
            "import nltk.data\nprint(json.dumps([ours, list(nltk.data.path), root, imported]))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    ours, theirs, root, imported = json.loads(out.stdout.strip().splitlines()[-1])
    assert ours == theirs and ours[:2] == [str(tmp_path / "none"), str(tmp_path / "mine")]
    assert root == str(tmp_path / "mine") and imported is False


def test_the_reader_skips_nltks_version_mapping_and_reads_wordnet_whole():
    from sit.models import wordnet

    wn = wordnet()
    assert wn.map30 is None  # no second pass over index.sense for the multilingual wordnets
    assert [l.name() for l in wn.synset("dog.n.01").lemmas()][:2] == ["dog", "domestic_dog"]
    assert wn.lemma_from_key("dog%1:05:00::").synset().name() == "dog.n.01"


def test_the_reader_reads_plain_text_files_and_gives_what_nltks_own_streams_give(monkeypatch):
    # sit's reader opens WordNet's files as plain text files (NLTK's stream reader decodes line by
    # line in Python); every lookup must read what NLTK's own reader reads from the same files
    import io
    from pathlib import Path

    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    from sit.models import wordnet, wordnet_root

    class Stock(WordNetCorpusReader):  # NLTK's streams; only the version mapping skipped (seconds)
        def map_wn(self, version="wordnet"):
            return None

    import nltk.data

    ours = wordnet()
    # sit's reader leaves NLTK's global data path alone (the test run's $NLTK_DATA is NLTK's own entry)
    assert nltk.data.path.count(wordnet_root()) == os.environ.get("NLTK_DATA", "").split(os.pathsep).count(wordnet_root())
    monkeypatch.setattr(nltk.data, "path", [*nltk.data.path, wordnet_root()])  # NLTK's own reader needs it there
    stock = Stock(str(Path(wordnet_root()) / "corpora" / "wordnet"), None)
    ours.synsets("dog")
    assert ours._data_file_map and all(isinstance(f, io.TextIOWrapper) for f in ours._data_file_map.values())

    def seen(wn, words):
        return [(s.name(), s.offset(), s.definition(), [(l.name(), l.key(), l.count()) for l in s.lemmas()],
                 sorted(h.name() for h in s.hypernyms() + s.hyponyms() + s.similar_tos()))
                for w in words for s in wn.synsets(w)]

    words = sorted(stock.all_lemma_names())[::293]  # about 500 lemmas of every part of speech
    assert len(words) > 400 and seen(ours, words) == seen(stock, words)
    # all_synsets walks a data file by tell() and readline()
    assert [s.name() for s in ours.all_synsets("r")] == [s.name() for s in stock.all_synsets("r")]
    assert ours.morphy("geese", "n") == stock.morphy("geese", "n") == "goose"


POS_WORDS = ["woods", "mutual", "future", "close", "stand", "mob", "light", "general", "foreign", "meeting"]


def nltk_pos_counts(wn, word: str, pos: str) -> tuple[int, int]:
    # NLTK's own Lemma.count() (a binary search in cntlist.rev), once per distinct sense key: NLTK
    # lists forest.n.01 twice among the synsets of "woods"
    lemmas = {l.key(): l for l in wn.lemmas(word)}.values()
    kinds = ("n",) if pos == "NOUN" else ("a", "s")
    own = sum(l.count() for l in lemmas if l.synset().pos() in kinds)
    return own, sum(l.count() for l in lemmas) - own


def test_part_of_speech_counts_are_nltks_lemma_counts(perturber):
    for word in POS_WORDS:
        for pos in ("NOUN", "ADJ"):
            assert perturber.pos_counts(word, pos) == nltk_pos_counts(perturber.wn, word, pos), (word, pos)
    # cntlist.rev: mutual%5:00:00:shared:00 3, and mutual%5:00:00:reciprocal:00 3, a key WordNet 3.0
    # no longer has, which does not count
    assert perturber.pos_counts("mutual", "ADJ") == (3, 0)


def test_part_of_speech_counts_without_index_sense_are_the_same(perturber, tmp_path):
    import shutil
    from pathlib import Path

    from sit.models import wordnet_root

    root = tmp_path / "nltk_data"
    shutil.copytree(Path(wordnet_root()) / "corpora" / "wordnet", root / "corpora" / "wordnet",
                    ignore=shutil.ignore_patterns("index.sense"))
    bare = PERTURBERS.create("wordnet", wordnet_root=str(root))
    assert [bare.pos_counts(w, "NOUN") for w in POS_WORDS] == [perturber.pos_counts(w, "NOUN") for w in POS_WORDS]
    assert bare.sense_tables().pos_counts is None  # it asked NLTK, since there is no index.sense to read
    # a sense's number: from index.sense, or without it from the order of NLTK's synsets
    lemmas = [(l, pos) for word, pos in (("meeting", "NOUN"), ("state", "NOUN"), ("light", "ADJ"), ("foreign", "ADJ"))
              for syn in perturber.wn.synsets(word, pos="n" if pos == "NOUN" else "a")
              for l in syn.lemmas() if l.name().isalpha()]
    usual = [perturber.usual_sense(l, pos) for l, pos in lemmas]
    assert [bare.usual_sense(l, pos) for l, pos in lemmas] == usual and bare.sense_tables().rare is None
    assert True in usual and False in usual


def test_usual_senses_are_a_words_two_most_frequent_in_the_part_of_speech_it_takes(perturber):
    wn = perturber.wn
    # "meeting" (index.sense numbers its noun senses): 1 "a formally arranged gathering" and 2 "a
    # small informal social gathering" are usual; 3 "a casual or unexpected convergence" is not
    first, second, third = wn.synsets("meeting", pos="n")[:3]
    named = lambda syn: next(l for l in syn.lemmas() if l.name() == "meeting")  # noqa: E731
    assert perturber.usual_sense(named(first), "NOUN") and perturber.usual_sense(named(second), "NOUN")
    assert not perturber.usual_sense(named(third), "NOUN")
    # "Earth" and "earth" in one synset have keys of their own, and index.sense lists only one: the
    # sense is judged by its number all the same (earth.n.01, the planet, is sense 1; earth.n.04,
    # "the abode of mortals", sense 4)
    lower = {s.name(): l for s in wn.synsets("earth", pos="n") for l in s.lemmas() if l.name() == "earth"}
    assert perturber.usual_sense(lower["earth.n.01"], "NOUN") and not perturber.usual_sense(lower["earth.n.04"], "NOUN")
    # "abroad" is mostly an adverb in WordNet's tagged corpus: never a usual adjective
    assert not any(perturber.usual_sense(l, "ADJ") for s in wn.synsets("abroad", pos="a") for l in s.lemmas()
                   if l.name() == "abroad")


# -- which WordNet relations neighbours come from (neighbours=) ---------------------------------
# Expected words read by hand from WordNet 3.0 (`wn` browser): truck.n.01 "truck, motortruck" has
# the hypernym motor_vehicle (two words: never a substitute) and the hyponyms pickup, lorry
# ("camion, lorry"), tractor, ...; its co-hyponyms (other motor vehicles) include car and hearse;
# the second sense hand_truck.n.01 has the hypernym "handcart, pushcart, cart, go-cart".
# plan.n.01's hypernym is "idea, thought".


@pytest.fixture(scope="module")
def vertical():
    return PERTURBERS.create("wordnet", num_perturb=5, neighbours="synonyms,hypernyms,hyponyms,similar")


def test_hypernyms_are_the_direct_ones_in_single_words():
    up = PERTURBERS.create("wordnet", neighbours="hypernyms")
    assert up.neighbours("truck", "NOUN") == ["cart", "handcart", "pushcart"]  # cart most counted
    assert up.neighbours("plan", "NOUN")[:2] == ["idea", "thought"]
    assert up.neighbours("angry", "ADJ") == []  # adjectives have no hypernyms


def test_hyponyms_without_cohyponyms(vertical, perturber):
    down = vertical.neighbours("truck", "NOUN")
    assert {"pickup", "lorry", "tractor", "motortruck", "cart"} <= set(down), down
    assert not {"car", "hearse", "bike"} & set(down), down  # co-hyponyms: not asked for
    assert {"car", "hearse"} <= set(perturber.neighbours("truck", "NOUN"))  # the default has them
    # adjectives: synonyms and similar adjectives, whichever noun relations are chosen
    assert vertical.neighbours("angry", "ADJ") == perturber.neighbours("angry", "ADJ")


def test_relations_reach_the_perturbed_sentences(vertical, perturber):
    sentence = "The government announced a new plan for the region."
    afters = {p.edit.after for p in vertical.perturb([sentence]) if p.edit.before == "plan"}
    assert afters and afters <= set(vertical.neighbours("plan", "NOUN")), afters
    assert afters & {"idea", "thought"}, afters  # the hypernym passes the quality stage here
    # the default's co-hyponym of plan (another kind of idea) is not among the vertical ones
    assert "concept" in {p.edit.after for p in perturber.perturb([sentence])}
    assert "concept" not in vertical.neighbours("plan", "NOUN")


def test_relations_in_the_signature_only_when_chosen(perturber):
    assert "neighbours" not in perturber.options()  # caches made before the option keep their keys
    a = PERTURBERS.create("wordnet", neighbours="hyponyms, synonyms")
    b = PERTURBERS.create("wordnet", neighbours=["synonyms", "hyponyms", "synonyms"])
    assert a.options()["neighbours"] == b.options()["neighbours"] == "synonyms,hyponyms"
    assert a.signature() == b.signature() != perturber.signature()
    same = PERTURBERS.create("wordnet", num_perturb=5, neighbours="similar,cohyponyms,synonyms")
    assert same.signature() == perturber.signature()


@pytest.mark.parametrize("bad", ["synonyms,cousins", "", " , ", 3, ["hypernym"]])
def test_unknown_relations_are_refused_in_one_line(bad):
    from sit.errors import ConfigError
    from sit.perturb.options import parse_key_values, perturber_options

    with pytest.raises(ConfigError) as err:
        PERTURBERS.create("wordnet", neighbours=bad)
    message = str(err.value)
    assert "\n" not in message and "synonyms, cohyponyms, hypernyms, hyponyms, similar" in message
    # the command line's KEY=VALUE reaches the same check; contrast takes no neighbours option (its own words)
    opts = perturber_options("wordnet", parse_key_values(["neighbours=hypernyms"]))
    assert PERTURBERS.create("wordnet", **opts).kinds == ("hypernyms",)
    from sit.options import accepted_options
    from sit.perturb.contrast import ContrastPerturber

    assert "neighbours" in accepted_options(PERTURBERS.get("wordnet"))
    assert "neighbours" not in accepted_options(ContrastPerturber)


# -- verbs (verbs=true, the default): synonyms in senses the verb often has, inflected like it --


def test_verbs_are_slots_unless_switched_off_or_phrasal(perturber, english_tagger):
    from sit.perturb.substitution import TARGET_POS, slots

    doc = english_tagger.tag(["The senators approved the budget after a long debate."], entities=True)[0]
    assert [(s.text, s.pos) for s in slots(doc, perturber.slot_parts()) if s.pos == "VERB"] == [("approved", "VERB")]
    assert "approved" not in [s.text for s in slots(doc)], "nouns and adjectives only, unless a perturber asks"
    off = PERTURBERS.create("wordnet", verbs=False)
    assert off.slot_parts() == TARGET_POS and "verbs" not in off.options()
    assert perturber.options()["verbs"] == "synonyms,lemminflect,share>=0.08,frames"
    # a phrasal verb means what its parts mean together: "carried" alone is no slot
    doc = english_tagger.tag(["Officials carried out the plan on Monday."], entities=True)[0]
    assert doc[1].pos_ == "VERB" and [c.dep_ for c in doc[1].children if c.dep_ == "prt"] == ["prt"]
    assert [s.text for s in slots(doc, perturber.slot_parts())] == ["plan"]


def test_a_verbs_neighbours_come_from_senses_it_often_has(perturber):
    wn = perturber.wn
    # throw.v.03 "shed, cast, cast_off, ..., throw, ..." is among throw's five most frequent senses,
    # but WordNet's tagged corpus uses "throw" in it in 7 of its 98 counted uses (under 8%)
    third = wn.synsets("throw", pos="v")[2]
    assert {"shed", "cast"} <= {l.name() for l in third.lemmas()}
    assert third not in perturber.senses_of("throw", "VERB")
    assert not {"shed", "cast"} & set(perturber.neighbours("throw", "VERB"))
    # "hit" is "reach, make, attain, hit, arrive at, gain" in 9 of its 99: kept
    assert "reach" in perturber.neighbours("hit", "VERB")
    assert perturber.neighbours("buy", "VERB") == ["purchase"]
    # nouns and adjectives keep every one of their five most frequent senses
    assert perturber.senses_of("state", "NOUN") == wn.synsets("state", pos="n")[:5]


@pytest.mark.parametrize("lemma, tag, form", [
    ("purchase", "VBD", "purchased"), ("reach", "VBN", "reached"), ("seek", "VBD", "sought"),
    ("seek", "VBZ", "seeks"), ("forecast", "VBP", "forecast"), ("recommend", "VBG", "recommending"),
    ("senator", "NNS", "senators"), ("budget", "NN", "budget"),
])
def test_substitutes_take_the_replaced_words_inflection(perturber, lemma, tag, form):
    assert perturber.inflect(lemma, tag) == form


def test_a_verb_substitute_keeps_the_verbs_tense_in_the_new_sentence(perturber, english_tagger):
    sentence = "Gold prices hit a record high on Friday."
    pairs = [p for p in perturber.perturb([sentence]) if p.edit.before == "hit"]
    assert [p.edit.after for p in pairs] == ["reached"]
    new = english_tagger.tag([pairs[0].perturbed])[0]
    assert (new[2].text, new[2].pos_, new[2].tag_) == ("reached", "VERB", "VBD")


def test_the_contrast_perturber_replaces_no_verbs(english_tagger):
    from sit.options import declared_options
    from sit.perturb.contrast import ContrastPerturber
    from sit.perturb.substitution import TARGET_POS

    contrast = ContrastPerturber(tagger=english_tagger)
    assert contrast.slot_parts() == TARGET_POS and "verbs" not in contrast.options()
    assert "verbs" not in declared_options(ContrastPerturber) and "verbs" in declared_options(type(PERTURBERS.create("wordnet")))


@pytest.mark.parametrize("sentence, verb, frame", [
    ("Health officials urged residents to get flu shots.", "urged", "object+infinitive"),
    ("The governor ordered city agencies on Tuesday to cut energy use.", "ordered", "object+infinitive"),
    ("The company agreed to buy a battery maker.", "agreed", "infinitive"),
    ("Insurers estimate that losses could exceed $6 billion.", "estimate", "that-clause"),
    ("Gold prices hit a record high on Friday.", "hit", None),
])
def test_the_clausal_complement_a_verb_takes(english_tagger, sentence, verb, frame):
    from sit.perturb.wordnet import complement

    doc = english_tagger.tag([sentence])[0]
    assert complement(next(t for t in doc if t.text == verb)) == frame


def test_a_verb_with_a_complement_keeps_only_senses_whose_frames_allow_it(perturber):
    """"Health officials recommended residents to get flu shots" (issue 32): "urge" is "recommend"
    in recommend.v.01, whose frames (8, 11, 26) have no object with a "to" infinitive; urge.v.01
    ("urge, urge on, press, exhort") has it (24)."""
    sentence = "Health officials urged residents to get flu shots after admissions doubled."
    wn = perturber.wn
    assert 24 not in wn.synset("recommend.v.01").frame_ids() and 24 in wn.synset("urge.v.01").frame_ids()
    assert "recommend" in perturber.neighbours("urge", "VERB")  # a neighbour of the verb out of context
    afters = {p.edit.after for p in perturber.perturb([sentence]) if p.edit.before == "urged"}
    assert afters and "recommended" not in afters and afters <= {"pressed", "exhorted"}, afters


class _NoReader:
    """A WordNet reader that refuses every lookup: what is asked of it after it is put in place
    was not remembered."""

    def __getattr__(self, name):
        raise AssertionError(f"WordNet was read again ({name})")


def test_a_lemmas_senses_and_neighbours_are_looked_up_once_per_run():
    # issue 46: news repeats its words (said, government, official); a lemma's senses and
    # neighbours are found once and kept until the perturber is released
    p = PERTURBERS.create("wordnet")
    first = p.neighbours("truck", "NOUN")
    senses = p.senses_of("truck", "NOUN")
    assert {"car", "hearse"} <= set(first) and senses
    first.append("zzz")  # a caller's list is its own
    reader = p.lexicon._reader
    p.lexicon._reader = _NoReader()
    try:
        assert p.neighbours("truck", "NOUN") == first[:-1]
        assert p.senses_of("truck", "NOUN") == senses
    finally:
        p.lexicon._reader = reader
    p.release()
    p.lexicon._reader = _NoReader()
    with pytest.raises(AssertionError, match="read again"):
        p.neighbours("truck", "NOUN")  # released: found again
