"""The spelling check (issue 45): Debian's hunspell dictionaries (hunspell-es, hunspell-de-de, which
scripts/setup.sh installs) read through spylls, on real sentences, by itself and through ``sit check``."""

from __future__ import annotations

import csv
import json

import pytest

from conftest import requires_apertium
from sit.check import CheckConfig, check
from sit.errors import ConfigError
from sit.relations.spelling import SpellingRelation
from sit.textcheck.spelling import Speller, find_dictionary, glued_marks, repeated_words


@pytest.fixture(scope="module")
def spanish():
    return Speller(find_dictionary("es"))


@pytest.fixture(scope="module")
def german():
    return Speller(find_dictionary("de"))


def test_a_misspelled_spanish_word_is_found_and_a_right_one_is_not(spanish):
    found = spanish.misspelled("He received the letter.", "Él recivió la carta y la recibió.")
    assert found == ["recivió"]


def test_source_words_acronyms_and_short_words_are_left_to_other_checks(spanish, german):
    # "Blinken" stands in the source (a name, or language.copied's untranslated word); ONU is an acronym
    found = spanish.misspelled("Blinken met the UN.", "Blinken se reunió con la ONU y xq.")
    assert found == []
    assert german.misspelled("Smith met the UN.", "Debevoice traf die UNO.") == ["Debevoice"]  # German: checked


def test_capitalised_words_are_names_where_nouns_are_not_capitalised(spanish, german):
    # a transliterated name in a translation from Chinese: no word of the source
    assert spanish.misspelled("李峰说", "Lifeng dijo que sí.") == []
    assert german.misspelled("李峰说", "Lifeng sagte ja.") == ["Lifeng"]


def test_a_mark_glued_to_the_next_word_but_not_a_decimal_or_a_file_name():
    assert glued_marks("On 16 December, 3.5 percent.", "El 16.Diciembre, 3.5 por ciento.") == ["16.Diciembre,"]
    assert glued_marks("Visit node.js today.", "Visite node.js hoy.") == []
    assert glued_marks("中新网", "the process-Chinanews.com") == []
    assert glued_marks("He left. Then she came.", "Se fue.Luego ella vino.") == ["fue.Luego"]


def test_german_compounds_of_known_words_are_known(german):
    assert german.compound("Lautstärkeregler") and german.compound("Schnappschussserie")
    found = german.misspelled("the volume knob", "der Lautstärkeregler und der Lautstärkerexler")
    assert found == ["Lautstärkerexler"]


def test_spanish_does_not_compound_so_glued_words_are_misspellings(spanish):
    # Apertium glues "una cumbre de dos días" into "cumbrededos"; "cumbre" + "dedos" are both words
    assert not spanish.compounds and not spanish.compound("cumbrededos")
    assert spanish.misspelled("a two-day summit", "una cumbrededos días") == ["cumbrededos"]


def test_a_word_attested_in_the_target_language_is_not_a_misspelling(german):
    text = "Eine Kuriosität"
    assert german.misspelled("A curiosity", text) == ["Kuriosität"]  # the dictionary lacks it
    assert german.misspelled("A curiosity", text, attested=lambda w: w == "Kuriosität") == []


def test_repeated_words_but_not_german_relative_pronouns_or_a_doubled_source():
    assert repeated_words("The house is red.", "La casa casa es roja.") == ["casa"]
    assert repeated_words("The ones that the women saw.", "Die, die die Frauen sahen.") == []
    assert repeated_words("Very very good.", "Muy muy bueno.") == []


def test_sit_check_reports_spelling_with_its_mqm_category(tmp_path):
    tsv = tmp_path / "t.tsv"
    tsv.write_text("source\ttranslation\nHe received the letter.\tÉl recivió la carta.\n"
                   "A curiosity.\tUna curiosidad.\nThe house is red.\tLa casa casa es roja.\n", encoding="utf-8")
    result = check(CheckConfig(source=str(tsv), target_lang="es", out=str(tmp_path / "run"),
                               cache_dir=str(tmp_path / "cache"), checks=("spelling",), report_formats=()))
    rows = [json.loads(line) for line in (tmp_path / "run" / "issues.jsonl").read_text().splitlines()]
    got = {(r["source_id"], r["kind"]): r["evidence"] for r in rows}
    assert set(got) == {(2, "spelling"), (4, "repeated")}
    assert got[(2, "spelling")]["words"] == ["recivió"] and got[(2, "spelling")]["mqm"] == "Fluency/Spelling"
    assert got[(4, "repeated")]["mqm"] == "Fluency/Grammar"
    assert result.segments == 3


def test_a_language_without_a_dictionary_is_left_out_with_the_package_to_install():
    assert SpellingRelation.usable("en", "es") == ""
    assert SpellingRelation.usable("en", "eo") == ("spelling left out: no hunspell dictionary for 'eo' "
                                                   "(a hunspell dictionary for 'eo' (eo_XX.dic and .aff))")


def test_a_run_without_the_target_language_s_dictionary_goes_on_and_says_so(tmp_path):
    from sit.relations import RunContext, create_relation

    relation = create_relation("spelling", RunContext(None, "en", "eo"), {})
    assert relation.describe() == ("spelling: nothing checked (no hunspell dictionary for 'eo' "
                                   "(a hunspell dictionary for 'eo' (eo_XX.dic and .aff)))")
    assert relation.check([], {"The house.": "La domo domo."}).issues == []
    with pytest.raises(ConfigError, match="spelling.dictionary: .* has no .dic and .aff pair"):
        create_relation("spelling", RunContext(None, "en", "es"), {"dictionary": str(tmp_path / "nothing")})


def test_a_spelling_finding_is_minor_fluency_spelling_in_the_csv_report(tmp_path):
    """The severity a CI gate reads (--fail-on, SARIF, CSV) is the one spelling declares, not the
    default (major, Accuracy/Mistranslation) a swapped (category, severity) pair fell back to."""
    tsv = tmp_path / "t.tsv"
    tsv.write_text("source\ttranslation\nHe received the letter.\tÉl recivió la carta.\n", encoding="utf-8")
    check(CheckConfig(source=str(tsv), target_lang="es", out=str(tmp_path / "run"), cache_dir=str(tmp_path / "cache"),
                      checks=("spelling",), report_formats=("csv",)))
    rows = list(csv.DictReader((tmp_path / "run" / "report.csv").open(encoding="utf-8")))
    assert [(r["group"], r["severity"], r["category"]) for r in rows] == [("spelling.spelling", "minor", "Fluency/Spelling")]


@requires_apertium
def test_a_run_that_names_no_relation_checks_spelling_and_spacing(tmp_path):
    """spelling and typography are among the run's defaults (blind labels 15/16, 15/15): Apertium's
    glued words and the two spaces it leaves where it drops a word are found without --relation."""
    from sit.cli import main

    text = tmp_path / "in.txt"
    text.write_text("The 19-year-old from Brazil upset the top seed in straight sets on Wednesday.\n"
                    "The streaming platform said it would start charging users an extra fee.\n", encoding="utf-8")
    assert main(["run", "--input", str(text), "--translator", "apertium", "--perturber", "character_swap",
                 "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / "run"), "--no-progress"]) == 0
    found = [json.loads(line) for line in (tmp_path / "run" / "issues.jsonl").read_text(encoding="utf-8").splitlines()]
    words = {(f["group"], f["source_id"]): f["evidence"].get("words") or f["evidence"].get("stretches") for f in found
             if f["relation"] in ("spelling", "typography")}
    assert words[("spelling.spelling", 1)] == ["niñode"]
    assert words[("typography.spaces", 2)] == ["dijo  empezaría"]


def test_a_re_run_from_the_cache_reads_no_dictionary_and_finds_the_same(tmp_path):
    """Each text's verdict is cached (sit.relations.verdicts): a second run on the same cache
    answers every text from it, without reading the dictionary, with the same findings; another
    dictionary file (another digest) is another namespace, so its verdicts are made afresh."""
    import shutil

    from sit.cache import Cache
    from sit.relations import RunContext, create_relation
    from sit.relations.every import Origin

    texts = {"The senator criticized his guidance of the crisis.": "El senador criticó su guiaje de la crisis.",
             "A seven-year-old girl won.": "Una chicadesieteaños ganó."}

    def run(options):
        ctx = RunContext(Cache(tmp_path / "cache"), "en", "es")
        ctx.origins = {x: Origin(n) for n, x in enumerate(texts, 1)}
        relation = create_relation("spelling", ctx, options)
        found = relation.check([], texts)
        return relation, [(i.pair.original, i.evidence["words"]) for i in found.issues]

    first, found = run({})
    assert first._speller is not None and sorted(found) == sorted([
        ("The senator criticized his guidance of the crisis.", ["guiaje"]),
        ("A seven-year-old girl won.", ["chicadesieteaños"])])
    again, cached = run({})
    assert again._speller is None and cached == found
    for suffix in (".dic", ".aff"):
        shutil.copy(find_dictionary("es").with_suffix(suffix), (tmp_path / "es_ES").with_suffix(suffix))
    with open(tmp_path / "es_ES.dic", "a", encoding="utf-8") as f:
        f.write("guiaje\n")
    other, own = run({"dictionary": str(tmp_path / "es_ES")})
    assert other._speller is not None and own == [("A seven-year-old girl won.", ["chicadesieteaños"])]
