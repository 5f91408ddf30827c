"""The production relations (numbers, passthrough, case, punctuation, length, language, batch):
their shared helpers (sit/textcheck), and each relation on real Apertium eng-spa."""

from __future__ import annotations

import json
import time

import pytest
from conftest import requires_apertium

from sit.records import Edit, Pair
from sit.relations import RELATIONS, RunContext, create_relation, parse_relations
from sit.textcheck.repeats import longest_repeat
from sit.textcheck.compare import changed_words
from sit.textcheck.language import LanguageIdentifier
from sit.textcheck.numbers import changed_number, currency_kept, find, numbers_of, target_forms, ungrouped_in
from sit.textcheck.tokens import missing_tokens, outside_tokens, tokens_of
from sit.textcheck.untranslated import copied_words

LONG = "x" * 10_000


def test_numbers_are_written_the_target_languages_way_by_cldr():
    found = numbers_of("Prices rose 4.34 percent to $1,000 and 2024 saw 52-48, not 1st or 3D.")
    assert [n.text for n in found] == ["4.34", "1,000", "2024", "52", "48"]
    assert target_forms(found[0], "es") == ("4,34",)
    # CLDR's Spanish form first (minimum grouping digits 2: 1000, where Babel alone writes 1.000)
    assert target_forms(found[1], "es") == ("1000", "1.000") and found[1].currency == "$"
    assert target_forms(found[1], "fr") == ("1 000", "1000")
    assert find("4,34", "subió 4,34 por ciento") == 1 and find("4,3", "subió 4,34 por ciento") == 0
    assert currency_kept("$", "1.000 dólares", "es") and not currency_kept("$", "1.000 euros", "es")
    assert changed_number(found[0]) == "4.35" and changed_number(numbers_of("9")[0]) == "8"
    assert numbers_of("no number here") == [] and numbers_of("1" * 10_000)[0].text == "1" * 10_000


def test_a_run_of_more_digits_than_decimals_default_precision_is_a_number_like_any():
    """Gemma int8's loop on an ALL CAPS sentence ran to its bound in 34 ones: Babel's formatting
    raised decimal.InvalidOperation past 28 digits, and the numbers relation ended the run."""
    loop = "OLYMPIC OLYMPIC OLYM P " + "1" * 34
    source = "ELECTION OFFICIALS SAID A MANUAL RECOUNT OF MORE THAN 40,000 BALLOTS WOULD BEGIN."
    assert ungrouped_in(loop, source, "es") == [("1" * 34, ".".join(["1"] + ["111"] * 11))]
    [huge] = numbers_of("It holds " + "9" * 40 + " items.")
    assert target_forms(huge, "es") == (".".join(["9"] + ["999"] * 13), "9" * 40)


def test_pass_through_tokens_and_broken_or_huge_ones():
    text = "See https://example.com/a?b=1. Mail me@x.org, {name} %s %(n)d {{x}} <b>bold</b> @desk #tag 📈 `code`"
    kinds = [t.kind for t in tokens_of(text)]
    assert kinds == ["url", "email", "placeholder", "placeholder", "placeholder", "placeholder", "markup",
                     "markup", "handle", "hashtag", "emoji", "code"]
    assert tokens_of("https://example.com/a?b=1.")[0].text == "https://example.com/a?b=1"
    assert [t.text for t in missing_tokens("hi {name} and {name}", "hola {nombre} y {name}")] == ["{name}"]
    assert tokens_of("<b>Bold <i broken markup") == [tokens_of("<b>")[0]]
    start = time.perf_counter()
    assert tokens_of("https://" + LONG)[0].text == "https://" + LONG and tokens_of("<" + LONG) == []
    assert time.perf_counter() - start < 1.0, "linear patterns: a 10,000-character token is one scan"
    assert outside_tokens("see https://x.org/A now", str.upper) == "SEE https://x.org/A NOW"


def test_source_words_copied_verbatim_share_sits_rule():
    source = "The committee voted to subpoena officials on a benchmark rate, the hotel said online."
    translation = "El comité votó a subpoena oficiales en una benchmark tasa, el hotel dijo online."
    assert copied_words(source, translation, "en", "es") == ["subpoena", "benchmark"]


def test_language_identification_on_short_sentences():
    ident = LanguageIdentifier(("es", "en", "ca", "xx"))
    assert ident.languages == ("es", "en", "ca")
    assert ident.identify("El gobierno dijo el lunes que los precios subirán", "es").language == "es"
    said = ident.identify("The government said on Monday that prices will rise", "es")
    assert said.language == "en" and said.probability > 0.9 and said.expected < 0.1


IDENTIFY = """
import sys
from sit.cache import Cache
from sit.textcheck.language import LanguageIdentifier
ident = LanguageIdentifier(("es", "en", "ca"), cache=Cache(sys.argv[1]))
said = ident.identify_all(["El gobierno dijo el lunes que los precios subirán", "The government said on Monday"], "es")
print([s.language for s in said], ident.languages, ident.stats.calls, "py3langid.langid" in sys.modules)
"""


def test_language_verdicts_come_from_the_cache_without_loading_the_model(tmp_path):
    import subprocess
    import sys

    runs = [subprocess.run([sys.executable, "-c", IDENTIFY, str(tmp_path / "cache")], capture_output=True, text=True,
                           timeout=120) for _ in range(2)]
    assert [r.stdout.strip() for r in runs] == ["['es', 'en'] ('es', 'en', 'ca') 1 True",
                                                "['es', 'en'] ('es', 'en', 'ca') 0 False"], runs[0].stderr


def test_loops_and_words_that_differ():
    assert longest_repeat("de la casa de la casa de la casa de la casa.") == (4, 3, "de la casa")
    assert longest_repeat("El gobierno dijo que sí.")[0] == 1 and longest_repeat(LONG)[0] == 1
    assert changed_words("El PRECIO subió", "el precio subió", fold_case=True) == 0
    assert changed_words("el precio subió hoy", "el precio bajó") == 2


def test_length_checks_every_translation_of_the_run(tmp_path):
    ctx = RunContext(None, "en", "es")
    length = create_relation("length", ctx, {"min_texts": 5})
    texts = [f"The council approved the budget number {i} on Monday." for i in range(8)]
    assert length.cases(list(range(8)), texts) == [] and length.sources([]) == []
    translation = {t: f"El consejo aprobó el presupuesto número {i} el lunes{'!' * i}" for i, t in enumerate(texts)}
    translation[texts[1]] = "El consejo aprobó el presupuesto la casa la casa la casa la casa."
    translation[texts[2]] = ""
    translation[texts[3]] = "El consejo aprobó el"
    translation[texts[4]] = "El consejo aprobó el presupuesto número 4 el lunes " + "y el martes " * 30 + "."
    translation["a phrase of another relation"] = None  # left untranslated: not a finding
    found = {(i.pair.source_id, i.kind) for i in length.check([], translation).issues}
    # "!!!!!!!" is marks, not a loop; a cut-off translation is also far shorter than the run's
    assert found == {(1, "loop"), (2, "empty"), (3, "cut"), (3, "ratio"), (4, "ratio"), (4, "loop")}


def test_all_is_every_registered_relation():
    assert parse_relations("all") == tuple(RELATIONS.names())
    assert {"numbers", "passthrough", "case", "punctuation", "length", "language", "batch", "sit"} <= set(
        parse_relations("sit,all"))


SENTENCES = [
    "The central bank left its benchmark interest rate unchanged at 4.25 percent on Thursday.",
    "Hello {name}, your order of $1,200 ships on Monday.",
    "The committee voted to subpoena four former officials.",
    "Governor Linda Marsh said on Monday that she would not seek a third term.",
    "Read the report at https://example.org/report before Friday.",
    "<b>Bold <i>broken markup",
    "https://example.org/" + LONG,
    "A sentence without any number or link.",
]


@pytest.fixture(scope="module")
def apertium_run(tmp_path_factory):
    from sit.pipeline import RunConfig, run

    tmp = tmp_path_factory.mktemp("production")
    source = tmp / "in.txt"
    source.write_text("\n".join(SENTENCES) + "\n", encoding="utf-8")

    def once(name: str):
        return run(RunConfig(input=str(source), translator="apertium", target_lang="es", max_line_chars=20_000,
                             relations=("numbers", "passthrough", "case", "punctuation", "length", "language",
                                        "batch"), out=str(tmp / name), cache_dir=str(tmp / "cache"),
                             progress=False, report_formats=("text", "html")))
    return once("first"), once("again")


def _found(result, relation):
    return {(i.pair.source_id, i.kind): i for i in result.issues if i.relation == relation}


@requires_apertium
def test_numbers_on_apertium(apertium_run):
    first, _ = apertium_run
    found = _found(first, "numbers")
    # Apertium keeps the English decimal point: 4.25 where Spanish writes 4,25
    assert found[(1, "format")].evidence["numbers"] == [{"number": "4.25", "expected": ["4,25"]}]
    assert first.relations["numbers"].cases == 2, "only the sentences with a number make a case"
    assert not any(k == "changed" for _, k in found), "Apertium changes only the changed number"


@requires_apertium
def test_passthrough_on_apertium(apertium_run):
    first, _ = apertium_run
    found = _found(first, "passthrough")
    # Apertium translates the placeholder's name: {name} -> {Nombre}
    assert found[(2, "missing")].evidence["tokens"][0] == {"token": "{name}", "type": "placeholder"}
    assert "{Nombre}" in found[(2, "missing")].original_translation
    url = [t for i in first.issues if i.relation == "passthrough" and i.pair.source_id == 5
           for t in i.evidence.get("tokens", []) if t["type"] == "url"]
    assert url == [], "the URL comes through verbatim"
    # the code inserted into sentence 5 (`run_id`) is not carried over: Apertium translates inside it
    assert found[(5, "missing")].evidence == {"tokens": [{"token": "`run_id`", "type": "code"}], "inserted": True}


@requires_apertium
def test_case_on_apertium(apertium_run):
    first, _ = apertium_run
    found = _found(first, "case")
    # lower-cased, "monday" is no longer Apertium's weekday: left untranslated
    assert "monday" in found[(4, "lower")].perturbed_translation
    assert found[(4, "lower")].pair.perturbed == SENTENCES[3].lower()


@requires_apertium
def test_punctuation_and_batch_on_apertium_find_nothing(apertium_run):
    first, again = apertium_run
    counts = first.relations
    assert counts["punctuation"].own["space_issues"] == 0 and counts["punctuation"].cases >= 2 * len(SENTENCES)
    # eng-spa tags each text apart: its batch neighbours never change a translation
    assert (counts["batch"].compared, counts["batch"].issues) == (2 * len(SENTENCES), 0)
    assert again.counts.translator_calls == 0, "a re-run, the batch's re-translations included, is all cache"


@requires_apertium
def test_language_on_apertium(apertium_run):
    first, _ = apertium_run
    found = _found(first, "language")
    assert "subpoena" in found[(3, "copied")].evidence["words"]
    assert not any(k == "wrong_language" for _, k in found)
    meta = json.loads((first.run_dir / "run.json").read_text())
    assert meta["relations_told"]["language"]["kinds"]["copied"]
    assert "language.copied" in (first.run_dir / "report.txt").read_text()


@requires_apertium
def test_a_batch_retranslation_is_never_the_plain_cache_entry(tmp_path):
    from sit.cache import Cache
    from sit.translators import TRANSLATORS

    text = "The committee met on Monday."
    translator = TRANSLATORS.create("apertium", source_lang="en", target_lang="es", cache=Cache(tmp_path))
    translator.store.put(text, "PLAIN ENTRY")
    assert translator.translate([text]) == ["PLAIN ENTRY"]
    alone = translator.translate_in_batch([text], "tag-1")
    # re-translations are counted apart from the run's one pass (batch_stats)
    assert alone == ["El comité cumplió el lunes."] and translator.batch_stats.calls == 1
    assert translator.translate_in_batch([text], "tag-1") == alone and translator.batch_stats.calls == 1
    assert translator.translate_in_batch([text, "Hello."], "tag-2")[0] == alone[0] and translator.batch_stats.calls == 2
    assert translator.stats.calls == 0 and translator.stats.cache_hits == 1


def test_batch_needs_a_translator_and_options_are_checked():
    from sit.errors import ConfigError

    with pytest.raises(ConfigError, match="batch relation needs a translator"):
        create_relation("batch", RunContext(None, "en", "es"), {})
    with pytest.raises(ConfigError, match="case.variants"):
        create_relation("case", RunContext(None, "en", "es"), {"variants": "upper,shouting"})
    with pytest.raises(ConfigError, match="passthrough.inserts"):
        create_relation("passthrough", RunContext(None, "en", "es"), {"inserts": "fax"})
    case = create_relation("case", RunContext(None, "en", "es"), {"variants": "upper"})
    pairs = case.cases([0, 1], ["SHOUT.", "Quiet words."])
    assert [p.perturbed for p in pairs] == ["QUIET WORDS."], "a variant that equals the sentence makes no case"
    assert isinstance(pairs[0], Pair) and isinstance(pairs[0].edit, Edit) and pairs[0].relation == "case"
