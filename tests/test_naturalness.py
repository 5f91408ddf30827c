"""Natural substitutes (sit/perturb/naturalness.py): the WordNet perturber's checks on the real
WordNet, tagger, n-gram model and encoder, and the ranking that never puts a likely unnatural
perturbation above a natural one (sit/relations/rank.py)."""

import random
from collections import Counter
from dataclasses import replace

import pytest

from sit.errors import ConfigError
from sit.perturb import PERTURBERS
from sit.perturb.constraints import CONSTRAINTS, Batch
from sit.perturb.naturalness import COLLOCATION, Agreement, Naturalness, Supported, VerbForm
from sit.perturb.quality import Candidate, QualityFilter, QualityOptions
from sit.perturb.substitution import Slot, slots
from sit.relations.rank import NATURAL, rank_issues, worst_first
from sit.records import Edit, Issue, Pair
from conftest import requires_torch


@pytest.fixture(scope="module")
def wordnet(english_tagger):
    return PERTURBERS.create("wordnet", tagger=english_tagger, encoder="none")


def candidates(tagger, sentence: str, word: str, words: list[str]):
    doc = tagger.tag([sentence], entities=True)[0]
    tok = next(t for t in doc if t.text == word)
    index = tok.i
    slot = Slot(index, tok.text, tok.pos_, tok.tag_, tok.lemma_.lower())
    out = []
    for w in words:
        text = sentence[:tok.idx] + w + sentence[tok.idx + len(tok.text):]
        out.append(Candidate(0, slot, w, text, tok.idx))
    return out, Batch([sentence], [doc], tagger)


def kept(check, cands, batch):
    dropped = [Counter()]
    return [c.word for c in check.check(cands, batch, dropped)], dropped[0][check.name]


@pytest.mark.parametrize("word, pos, verb_form", [
    ("selling", "NOUN", True), ("funding", "NOUN", True), ("closing", "NOUN", True), ("compelling", "ADJ", True),
    ("building", "NOUN", False), ("meeting", "NOUN", False), ("training", "NOUN", False), ("interested", "ADJ", False),
    ("morning", "NOUN", False), ("women", "NOUN", False), ("open", "ADJ", False), ("city", "NOUN", False),
])
def test_verb_forms_by_wordnet_and_its_sense_counts(wordnet, word, pos, verb_form):
    assert wordnet.verb_form(word, pos) is verb_form


def test_verb_form_drops_gerund_substitutes_and_slots_that_modify_a_noun(wordnet, english_tagger):
    check = VerbForm(wordnet.quality.options, wordnet.quality.constraints[0].models)
    cands, batch = candidates(english_tagger, "The government will build a national payment system soon.", "payment",
                              ["selling", "billing", "banking", "transfer", "charge"])
    assert kept(check, cands, batch) == (["transfer", "charge"], 3)
    # "closing" modifies "schools": a verb the tagger read as a noun; no substitute replaces it
    sentence = "Snowfall totals reached nearly two feet in some areas, closing schools and grounding flights."
    cands, batch = candidates(english_tagger, sentence, "closing", ["spot", "episode"])
    assert cands[0].slot.pos == "NOUN"
    assert kept(check, cands, batch) == ([], 2)


def test_agreement_of_the_article_and_the_plural(wordnet, english_tagger):
    check = Agreement(wordnet.quality.options, wordnet.quality.constraints[0].models)
    cands, batch = candidates(english_tagger, "She was attacked by a rival on Sunday.", "rival",
                              ["opponent", "enemy", "foe", "adversary"])
    assert kept(check, cands, batch) == (["foe"], 3)
    cands, batch = candidates(english_tagger, "They agreed on new emissions rules last week.", "emissions",
                              ["stuffs", "pollutants", "gases"])
    assert kept(check, cands, batch) == (["pollutants", "gases"], 1)


def test_supported_keeps_pairs_the_ngram_model_knows(wordnet, english_tagger):
    check = Supported(wordnet.quality.options, wordnet.quality.constraints[0].models)
    assert check.active()
    cands, batch = candidates(english_tagger, "The plan drew criticism from privacy advocates on Monday.", "advocates",
                              ["experts", "workers", "children"])
    words, dropped = kept(check, cands, batch)
    assert words == ["experts"] and dropped == 2
    # the weakest pair the new word forms is kept for the naturalness score
    measured = check.check(cands[:1], batch, [Counter()])[0]
    assert measured.support is not None and measured.support > 0


@requires_torch
def test_naturalness_scores_every_candidate_and_the_natural_higher(english_tagger):
    p = PERTURBERS.create("wordnet", tagger=english_tagger)
    natural = next(c for c in p.quality.constraints if isinstance(c, Naturalness))
    fluent = Candidate(0, Slot(1, "city", "NOUN", "NN", "city"), "town", "", 0, lm_fall=0.1, support=1.5)
    odd = Candidate(0, Slot(1, "city", "NOUN", "NN", "city"), "mart", "", 0, lm_fall=1.9, support=-0.6)
    high, low = natural.score(fluent, 0.8), natural.score(odd, 0.15)
    assert high > NATURAL > low and 0 <= low and high <= 1
    assert natural.score(Candidate(0, fluent.slot, "town", "", 0), None) is None, "nothing measured: no score"
    pairs = p.perturb(["The city council approved the new budget on Tuesday."], random.Random(0))
    assert pairs and all(0 <= pair.edit.naturalness <= 1 for pair in pairs)
    assert all("naturalness" in pair.edit.to_dict() for pair in pairs)


def test_the_checks_change_the_cache_key_and_show_their_options(english_tagger):
    default = PERTURBERS.create("wordnet", tagger=english_tagger, encoder="none").options()
    assert default["verb_forms"] == "uses<15,slots=modifiers" and default["agreement"] == "1.5,count<0.3"
    assert default["supported"] == "0.5,compounds" and default["min_naturalness"] == "0.4 of fluency+support"
    assert default["per_slot"] == 0, "the WordNet perturber's own default: every candidate its checks pass"
    off = PERTURBERS.create("wordnet", tagger=english_tagger, encoder="none", verb_forms=False, agreement=False,
                            supported=False, min_naturalness=0).options()
    assert (off["verb_forms"], off["agreement"], off["supported"], off["min_naturalness"]) == (
        False, False, False, "0 of fluency+support")


def test_the_other_substitution_perturbers_run_none_of_them(english_tagger):
    """The mlm perturber's quality stage is the shared one (its cache keys and outputs stay as
    they were), and it refuses the WordNet checks' options; so does the contrast perturber."""
    shared = QualityFilter(QualityOptions(encoder="none"), constraints=CONSTRAINTS)
    assert not {"verb_forms", "agreement", "supported", "min_naturalness"} & set(shared.signature())
    from sit.options import declared_options
    from sit.perturb.contrast import ContrastPerturber
    from sit.perturb.options import perturber_options

    contrast = ContrastPerturber(tagger=english_tagger)
    assert [type(c) for c in contrast.quality.constraints] == list(CONSTRAINTS)
    assert "verb_forms" not in declared_options(ContrastPerturber)
    with pytest.raises(ConfigError, match="verb_forms"):
        perturber_options("mlm", {"verb_forms": "false"})


def test_an_edit_without_naturalness_writes_the_keys_it_always_had():
    edit = Edit(position=1, before="city", after="town", perturber="mlm")
    assert "naturalness" not in edit.to_dict()
    scored = Edit(position=1, before="city", after="town", perturber="wordnet", naturalness=0.7)
    assert scored.to_dict()["naturalness"] == 0.7 and Edit.from_dict(scored.to_dict()) == scored


def issue(source_id: int, after: str, distance: float, naturalness):
    edit = Edit(position=1, before="city", after=after, perturber="wordnet", naturalness=naturalness)
    pair = Pair(source_id, "The city said.", f"The {after} said.", edit, relation="sit")
    return Issue(pair, "La ciudad dijo.", f"El {after} dijo.", distance, {})


def test_a_likely_unnatural_perturbation_never_outranks_a_natural_one():
    found = [issue(1, "mart", 9.0, 0.2), issue(1, "town", 3.0, 0.8), issue(1, "village", 2.0, None),
             issue(2, "hub", 8.0, 0.3), issue(3, "borough", 1.0, 0.6)]
    ranked = rank_issues(found, top_k=3)
    assert [(i.pair.source_id, i.rank, i.pair.edit.after) for i in ranked] == [
        (1, 1, "town"), (1, 2, "village"), (1, 3, "mart"), (2, 1, "hub"), (3, 1, "borough")]
    order = [i.pair.edit.after for i in worst_first(ranked)]
    assert order == ["town", "village", "borough", "mart", "hub"]
    # sit's untranslated findings keep their own order
    untranslated = [replace(issue(1, "mart", 9.0, 0.2), kind="untranslated"), replace(issue(1, "town", 3.0, 0.8), kind="untranslated")]
    assert [i.pair.edit.after for i in rank_issues(untranslated)] == ["mart", "town"]
    # without naturalness (other perturbers), sentences worst first as before
    plain = [issue(1, "town", 3.0, None), issue(2, "hub", 8.0, None), issue(1, "mart", 9.0, None)]
    assert [i.pair.edit.after for i in worst_first(rank_issues(plain))] == ["mart", "town", "hub"]


def test_slots_are_unchanged(english_tagger):
    doc = english_tagger.tag(["The city council approved the new budget on Tuesday."], entities=True)[0]
    assert [s.text for s in slots(doc)] == ["city", "council", "new", "budget"]


def test_a_singular_noun_after_a_is_a_count_noun(wordnet, english_tagger):
    """"a new national news" (issue 32): after "a", a noun whose plural English does not use and
    that the n-gram model does not know after "a" is no substitute; without "a" it may stand."""
    check = Agreement(wordnet.quality.options, wordnet.quality.constraints[0].models)
    words = ["news", "program", "syllabus", "advice", "course", "evidence", "series"]
    cands, batch = candidates(english_tagger, "The school board adopted a new science curriculum last spring.",
                              "curriculum", words)
    assert kept(check, cands, batch) == (["program", "syllabus", "course", "series"], 3)
    assert not check.countable("news") and check.countable("series"), "series: no plural of its own, but 'a series'"
    cands, batch = candidates(english_tagger, "The board will review the curriculum next spring.", "curriculum",
                              ["news", "program", "advice"])
    assert kept(check, cands, batch) == (["news", "program", "advice"], 0)


def test_a_noun_compound_stays_a_pair_english_uses(wordnet, english_tagger):
    """"his hoard plan" (issue 32): the original pair ("infrastructure plan") is one the n-gram
    model does not know either, so the collocation rule alone let it through; a noun that modifies
    the noun right after it must form a known pair with it. An adjective need not: the model
    knows neither "angry senators" nor "angry congressmen"."""
    check = Supported(wordnet.quality.options, wordnet.quality.constraints[0].models)
    lm = check.models.lm
    assert lm.association("infrastructure", "plan") <= COLLOCATION
    sentence = "The president promoted his infrastructure plan in three states."
    cands, batch = candidates(english_tagger, sentence, "infrastructure", ["hoard", "energy", "housing", "transport"])
    assert kept(check, cands, batch) == (["energy", "housing", "transport"], 1)
    # the noun's side too: "infrastructure project" is a pair the model knows, "infrastructure scheme" not
    cands, batch = candidates(english_tagger, sentence, "plan", ["scheme", "project"])
    assert kept(check, cands, batch) == (["project"], 1)
    cands, batch = candidates(english_tagger, "The angry senators rejected the budget.", "senators", ["congressmen"])
    assert lm.association("angry", "congressmen") <= 0 and kept(check, cands, batch) == (["congressmen"], 0)


def test_a_verb_slots_substitute_is_no_verb_form_to_drop(wordnet, english_tagger):
    check = VerbForm(wordnet.quality.options, wordnet.quality.constraints[0].models)
    cands, batch = candidates(english_tagger, "Health officials urged residents to get flu shots.", "urged",
                              ["recommended", "pressed"])
    assert cands[0].slot.pos == "VERB" and wordnet.verb_form("pressed", "ADJ")
    assert kept(check, cands, batch) == (["recommended", "pressed"], 0)
