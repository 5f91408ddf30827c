"""The checks the offline judge applies before its encoder (sit.judge.evidence): numbers,
negations and names a translation keeps of its source, on hand-made sentences."""

from __future__ import annotations

import math

import pytest

from sit.judge.evidence import distances, negations, worse_by_evidence

SOURCE = "The chancellor Merkel did not sign the 2,500 contracts in Berlin."
GOOD = "La canciller Merkel no firmó los 2.500 contratos en Berlín."


@pytest.mark.parametrize("bad, check", [
    ("La canciller Merkel no firmó los 2.600 contratos en Berlín.", "numbers"),
    ("La canciller Merkel firmó los 2.500 contratos en Berlín.", "negation"),
    ("La canciller Scholz no firmó los 2.500 contratos en Berlín.", "names"),
])
def test_the_translation_that_loses_a_number_a_negation_or_a_name_is_worse(bad, check):
    assert worse_by_evidence(SOURCE, GOOD, bad, "en", "es") == ("b", check)
    assert worse_by_evidence(SOURCE, bad, GOOD, "en", "es") == ("a", check)


def test_counts_and_what_is_not_checked():
    # "Berlin" is "Berlín" in Spanish: a name not kept verbatim, in both translations alike
    assert distances(SOURCE, GOOD, "en", "es") == {"numbers": 0, "negation": 0, "names": 1}
    assert distances("He paid 45 dollars.", "Er zahlte 54 Dollar nicht.", "en", "de") == {
        "numbers": 2, "negation": 1, "names": 0}
    assert "negation" not in distances("Он не знал.", "He did not know.", "ru", "en")  # no Russian list
    assert "names" not in distances("默克尔没有签字。", "Merkel did not sign.", "zh", "en")  # not Latin script
    assert negations("他不喜欢北京，不过未来没有问题。", "zh") == 2  # 不 and 没; 不过 "but" and 未来 "future" are none
    assert negations("I don't know and I can't say.", "en") == 2
    assert worse_by_evidence(SOURCE, GOOD, GOOD + " ", "en", "es") == ("", "")
    assert worse_by_evidence(SOURCE, GOOD, "La canciller firmó.", "en", "es", checks=()) == ("", "")


def test_the_model_features_change_sign_when_the_translations_swap():
    from sit.judge.features import FEATURES, differences

    short = "La canciller Merkel no firmó los contratos."
    ab = differences(GOOD, short, 0.8, 0.6)
    ba = differences(short, GOOD, 0.6, 0.8)
    assert set(ab) == set(FEATURES) and all(ab[f] == pytest.approx(-ba[f]) for f in FEATURES)
    # b is further from the source and shorter (by its characters): a's badness minus b's is
    # negative on each
    assert ab["encoder"] == pytest.approx(-0.2) and ab["shorter"] == pytest.approx(math.log(len(short) / len(GOOD)))


def test_a_loop_is_an_ngram_repeated_beyond_the_source():
    from sit.judge.features import loops

    assert loops(SOURCE, "La canciller Merkel no firmó los contratos contratos contratos contratos.")
    assert loops(SOURCE, "La canciller Merkel no firmó, no firmó, no firmó, no firmó los contratos.")
    assert not loops(SOURCE, GOOD) and not loops(SOURCE, "La canciller no no firmó.")  # twice is no loop
    assert not loops("Go, go, go, go!", "¡Vamos, vamos, vamos, vamos!")  # no more than the source
