"""The declension check (issue 45): German determiners and nouns read with Wiktionary's noun forms
(german-nouns' CSV) and the Hannover Tagger's German model, on real machine translations from the
TED en->de MQM file (google/wmt-mqm-human-evaluation, the development file; docs/precision.md)."""

from __future__ import annotations

import pytest
from conftest import checked_rows

from sit.textcheck.german import GermanNouns, determiners, disagreements, doubled, nouns_file

NOUNS = nouns_file()
pytestmark = pytest.mark.skipif(NOUNS is None, reason="german-nouns is not installed "
                                "(pip install --no-deps german-nouns==1.2.5; scripts/setup.sh does)")


@pytest.fixture(scope="module")
def nouns():
    return GermanNouns(NOUNS)


def test_the_lexicon_gives_gender_number_and_case(nouns):
    assert ("nom", "sg", "f") in nouns.features("Pflanze")
    assert {n for _, n, _ in nouns.features("Kindern")} == {"pl"}
    assert ("dat", "pl", "*") in nouns.features("Kindern") and ("dat", "pl", "*") not in nouns.features("Kinder")
    # a compound by its last part; a hyphenated one by its last word
    assert nouns.features("Rasterelektronenmikroskop") == nouns.features("Mikroskop")
    assert nouns.features("Multiversum-Theorie") == nouns.features("Theorie")
    assert nouns.features("Zylonen") is None and nouns.features("klein") is None
    assert ("dat", "pl", "*") in determiners()["den"] and ("nom", "sg", "m") not in determiners()["das"]


@pytest.mark.parametrize("text, expected", [
    ("Das hier ist ein Pflanze.", "ein Pflanze"),
    ("Es gibt einen Art Mythos, dass Schwarze Löcher alles im Universum verschlingen.", "einen Art"),
    ("Dies ist eine Pflanze, die Insekten in Südafrika einfach lieben, und sie haben sich mit einer langen Rüssel "
     "entwickelt.", "einer langen Rüssel"),
    ("Sonst würde das Befangenheit einführen.", "das Befangenheit"),
    ("Diese Arten von Stress haben einen ganz bestimmten Effekt auf die Physiologie des Stress.", "des Stress"),
    ("Wir spielen mit den Kinder im Garten.", "den Kinder"),
])
def test_what_cannot_agree_is_found(nouns, text, expected):
    assert [(d.words, text[d.start:d.end]) for d in disagreements(text, nouns)] == [(expected, expected)]


@pytest.mark.parametrize("text", [
    "Diese Art von Stress wirkt sich ganz besonders auf die Physiologie des Stresses aus.",
    "Aber wo dann „niedrige soziale Klasse“ steht, sind das ungelernte manuelle Berufe.",  # "das": a pronoun
    "Das ist die Frau, die Geld verdient, und der Mann, mit dem Frauen sprechen.",  # relative pronouns
    "Ist das Kunst oder Wissenschaft?",  # "das" after a form of "sein": a pronoun
    "Das ist das Doppelte, und das Klingeln hört nicht auf.",  # a nominalised adjective and infinitive
    "Sie ist so ungleich wie einige der anderen erfolgreichen Marktdemokratien.",  # a compound's plural
    "Wenn Sie also die Kette zusammenbauen, programmieren Sie sie im Grunde.",
    "Er gab ihr Blumen, und sein Haus ist groß.",  # bare "ihr", "sein": a pronoun, a verb as often
    "Wenn das hier Battlestar Galactica wäre, würden die Zylonen kommen.",  # names the lexicon lacks
])
def test_what_agrees_or_cannot_be_told_is_not(nouns, text):
    assert disagreements(text, nouns) == []


def test_short_doubled_words_but_not_a_relative_pronoun_and_an_article():
    assert doubled("That is our prediction.", "Dies ist ist unsere Vorstellung.") == ["ist"]
    assert doubled("into a ball of six kilometres", "zu einem Ball von von sechs Kilometern") == ["von"]
    assert doubled("the women whom the children love", "die Frauen, die die Kinder lieben") == []
    assert doubled("the ones for whom the rules hold", "jene, für die die Regeln gelten") == []
    assert doubled("you are programming it", "programmieren Sie sie im Grunde") == []
    assert doubled("we see the the children", "wir sehen die die Kinder") == []  # the source doubles one too
    assert doubled("we see the children", "wir sehen die die Kinder") == ["die"]


def test_sit_check_reports_agreement_as_mqm_grammar(tmp_path):
    rows = checked_rows(tmp_path, "This is a plant.\tDas hier ist ein Pflanze.\nThis is a plant.\tDas hier ist eine "
                        "Pflanze.\nThat is our prediction.\tDies ist ist unsere Vorstellung.\n", "de", ("declension",))
    rows.sort(key=lambda r: r["source_id"])
    assert [(r["source_id"], r["kind"], r["evidence"]["mqm"]) for r in rows] == \
        [(2, "noun", "Fluency/Grammar"), (4, "doubled", "Fluency/Grammar")]
    assert rows[0]["evidence"]["pairs"][0]["words"] == "ein Pflanze" and rows[1]["evidence"]["words"] == ["ist"]


def test_other_target_languages_are_left_out_with_a_reason():
    from sit.relations.declension import DeclensionRelation

    assert "German only" in DeclensionRelation.usable("en", "es")
    assert DeclensionRelation.usable("en", "de") == ""


def test_a_nouns_file_that_is_not_there_is_a_one_line_error(tmp_path):
    from sit.errors import ConfigError
    from sit.relations import RunContext
    from sit.relations.declension import DeclensionRelation

    with pytest.raises(ConfigError, match="declension.nouns: .* is not a file; give the path of german-nouns' nouns.csv"):
        DeclensionRelation(RunContext(None, "en", "de"), nouns=str(tmp_path / "missing.csv"))
