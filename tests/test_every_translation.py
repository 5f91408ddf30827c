"""Every text a run translates goes through the single-translation checks (issue 33): through an
independent translator that injects faults into 15% of any text it is asked
(tests/production_fakes.py's AnyFaultTranslator), ``--relation all`` names at least 95% of the
injected texts of each fault type, and the clean translator sets no such check off on more than 5%
of texts (figures: benchmarks/bench_recall.py --every)."""

from __future__ import annotations

import pytest

from production_fakes import (AnyFaultTranslator, InventingTranslator, corpus, fault_of, named_recall,
                              named_share, run_all)
from sit.records import Edit, Pair
from sit.relations.every import Origin, merged, named_texts, text_issue, text_origins
from sit.relations.punctuation import final_changed
from sit.textcheck.untranslated import returned_words
from sit.translators import TRANSLATORS


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    TRANSLATORS.register("anyfault-test", AnyFaultTranslator)
    TRANSLATORS.register("inventing-test", InventingTranslator)
    texts, _ = corpus(n=60, per_fault=0)
    tmp = tmp_path_factory.mktemp("every")
    try:
        yield {name: run_all(name, texts, tmp) for name in ("anyfault-test", "inventing-test")}
    finally:
        TRANSLATORS.unregister("anyfault-test")
        TRANSLATORS.unregister("inventing-test")


def test_faults_in_any_text_are_named_at_least_95_percent(runs):
    issues, asked = runs["anyfault-test"]
    kinds = {fault_of(t) for t in asked} - {None}
    assert kinds == {"number", "token", "loop", "untranslated"}
    injected = sum(1 for t in asked if fault_of(t))
    assert 0.10 <= injected / len(asked) <= 0.20  # 15% of every text asked, variants included
    for fault, (found, total) in named_recall(issues, asked).items():
        assert total >= 10, fault
        assert found / total >= 0.95, f"{fault}: {found}/{total}"


def test_the_clean_translator_sets_off_single_checks_on_at_most_5_percent(runs):
    issues, asked = runs["inventing-test"]
    named, total, groups = named_share(issues, asked)
    assert total > 500  # the variants of every relation, not only the 60 sentences
    assert named / total <= 0.05, groups


def test_one_problem_in_several_variants_of_a_sentence_is_one_finding(runs):
    issues, asked = runs["anyfault-test"]
    loops = [i for i in issues if i.group == "length.loop"]
    assert len({(i.pair.source_id, i.kind) for i in loops}) == len(loops)
    listed = [i for i in loops if i.evidence.get("texts", 1) > 1]
    assert listed, "no sentence had a loop in two of its texts"
    for i in listed:
        texts = [v["text"] for v in i.evidence["variants"]]
        assert len(texts) == len(set(texts)) == i.evidence["texts"]
        assert all(fault_of(t) == "loop" for t in texts)
        assert {v["relation"] for v in i.evidence["variants"]} <= {"original", "sit", "rti", "patinv", "numbers",
                                                                    "passthrough", "case", "punctuation", "batch", "cit"}


def test_text_origins_name_each_texts_sentence_and_maker():
    edit = Edit(1, "bank", "firm", "wordnet")
    cases = {"sit": [Pair(4, "The bank rose.", "The firm rose.", edit, relation="sit")]}
    origins = text_origins([4], ["The bank rose."], cases, {"patinv": ["bank"]})
    assert origins["The bank rose."] == Origin(4)
    assert origins["The firm rose."].source_id == 4 and origins["The firm rose."].relation == "sit"
    assert origins["The firm rose."].role == "perturbed"
    assert origins["bank"] == Origin(-1, "patinv", "auxiliary")


def test_merged_lists_every_text_once_under_the_sentences_first_finding():
    origins = {"A 5.": Origin(1), "B 5.": Origin(1, "sit", "perturbed"), "C 7.": Origin(2)}
    found = [text_issue("numbers", "A 5.", "A 6.", origins["A 5."], "missing", 1, {"numbers": ["5"]}),
             text_issue("numbers", "B 5.", "B 6.", origins["B 5."], "missing", 1, {"numbers": ["5"]}),
             text_issue("numbers", "C 7.", "C.", origins["C 7."], "missing", 1, {"numbers": ["7"]})]
    out = merged(found, origins)
    assert [i.pair.original for i in out] == ["A 5.", "C 7."]
    assert [v["text"] for v in out[0].evidence["variants"]] == ["A 5.", "B 5."]
    assert out[0].evidence["variants"][1]["relation"] == "sit"
    assert named_texts(out[0]) == {"A 5.", "B 5."}
    assert "variants" not in out[1].evidence


def test_a_text_returned_as_it_was_is_untranslated_only_with_a_source_language_word():
    assert returned_words("will", "will", "en", "es") == ["will"]
    assert returned_words("The New Bank", "the new bank", "en", "es") == ["the", "new", "bank"]
    assert returned_words("hospital", "hospital", "en", "es") == []  # Spanish as well
    assert returned_words("will", "will", "en", "de") == []  # German "will"
    assert returned_words("the bank", "el banco", "en", "es") == []


def test_final_mark_of_a_question_or_exclamation_is_kept():
    assert final_changed("Why?", "¿Por qué?") is None
    assert final_changed("Why?", "Por qué.") == ("?", ".")
    assert final_changed('He said "no."', 'Dijo "no".') is None
    assert final_changed("It rose.", "¿Subió?") == (".", "?")
    assert final_changed("It rose.", "Subió") is None  # a cut-off is length's


def test_sit_untranslated_and_language_copied_on_one_word_are_one_finding():
    from sit.records import Issue, RelationCounts
    from sit.relations import Checked
    from sit.relations.every import merge_untranslated

    edit = Edit(1, "budget", "plan", "wordnet")
    pair = Pair(4, "The budget rose.", "The plan rose.", edit, relation="sit")
    original_side = Issue(pair, "El budget subió.", "El plan subió.", 1.0, {}, kind="untranslated",
                          evidence={"word": "budget", "side": "original"})
    other = Issue(Pair(5, "A cat.", "A dog.", Edit(1, "cat", "dog", "wordnet"), relation="sit"), "Un gato.", "Un dog.", 1.0, {},
                  kind="untranslated", evidence={"word": "dog", "side": "perturbed"})
    sit = Checked([original_side, other], RelationCounts(2, 2, 0, 0, {"untranslated_issues": 2}))
    copied = text_issue("language", "The budget rose.", "El budget subió.", Origin(4), "copied", 1, {"words": ["budget"]})
    language = Checked([copied], RelationCounts(1, 1, 1, 1, {"copied_issues": 1}))
    merge_untranslated({"sit": sit, "language": language})
    assert sit.issues == [other] and sit.counts.own["untranslated_issues"] == 1
    assert language.issues[0].evidence == {"words": ["budget"], "substitutions": ["The plan rose."]}
