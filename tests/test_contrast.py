"""patinv's substitutes of clearly different meaning (sit.perturb.contrast), on the real WordNet
and English tagger: no synonym, hypernym, hyponym or co-hyponym of the word, same lexicographer
file, antonyms for adjectives, grammar kept."""

import random

import pytest

from sit.perturb import contrast
from sit.perturb.contrast import ContrastPerturber


@pytest.fixture(scope="module")
def perturber():
    mp = pytest.MonkeyPatch()
    mp.setattr(contrast, "TOP_WORDS", 6000)  # a smaller index: the same rules, built faster
    # the n-gram check off: it would drop "after a short debate" (the fall from "a long" is 2.2),
    # and these tests are about which contrasting words are proposed (test_fluency tests the check)
    yield ContrastPerturber(lm="none")
    mp.undo()


def test_nouns_of_the_same_kind_that_are_not_close(perturber):
    wn = perturber.wn
    words = perturber.noun_contrasts("city")
    assert len(words) >= 10
    assert not {"town", "municipality", "metropolis", "city", "cities", "village"} & set(words)
    lexname = wn.synsets("city", pos="n")[0].lexname()
    assert all(wn.synsets(w, pos="n")[0].lexname() == lexname for w in words)
    city = set(wn.synsets("city", pos="n"))
    for w in words:  # no sense shared with city, none its direct hypernym or hyponym
        for syn in wn.synsets(w, pos="n"):
            assert syn not in city and not city & set(syn.hypernyms() + syn.hyponyms())
    assert words == perturber.noun_contrasts("city"), "a fixed order, seeded by the word"


def test_adjectives_get_antonyms(perturber):
    assert perturber.antonyms("new")[0] == "old"
    assert "falling" in perturber.antonyms("rising")
    assert perturber.antonyms("political") == ["nonpolitical"]


def test_substitutions_keep_the_grammar(perturber):
    text = "The senators rejected the new budget after a long debate."
    pairs = perturber.perturb([text], random.Random(0), ids=[7])
    edits = {p.edit.before: p.edit.after for p in pairs}
    by_word = {}
    for p in pairs:
        by_word.setdefault(p.edit.before, []).append(p.edit.after)
    assert by_word["new"] == ["old"] and by_word["long"] == ["short"]
    assert all(w.endswith("s") for w in by_word["senators"]), "a plural stays plural"
    assert all(len(v) <= 2 for v in by_word.values()), "at most two per word"
    assert edits and all(p.source_id == 7 and p.edit.perturber == "contrast" for p in pairs)
    tagged = perturber.tagger.tag([p.perturbed for p in pairs])
    for p, doc in zip(pairs, tagged):
        assert doc[p.edit.position].text == p.edit.after and doc[p.edit.position].pos_ in ("NOUN", "ADJ")


def test_patinv_judges_meaning_on_the_wordnet_its_substitutes_came_from(perturber, tmp_path):
    from sit.cache import Cache
    from sit.records import Edit
    from sit.relations import RunContext
    from sit.relations.patinv import PatInvRelation

    ctx = RunContext(Cache(tmp_path), "en", "es")
    rel = PatInvRelation(ctx, remove=False, words="contrast")
    assert rel._lexicon() is rel._contrast.lexicon
    edit = lambda a, b: Edit(position=1, before=a, after=b, perturber="contrast")  # noqa: E731
    assert rel.different_meaning(edit("city", "village"))
    assert not rel.different_meaning(edit("big", "large"))  # a sense of "big" is a sense of "large"
    assert not rel.different_meaning(edit("cities", "city"))  # one stem
