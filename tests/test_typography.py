"""The typography check's quotation marks (issue 45) against CLDR's delimiters, committed in
sit/data/cldr_quotes.json by scripts/cldr_quotes.py, on real sentences."""

from __future__ import annotations

import json

from conftest import checked_rows

from sit.textcheck.typography import (added_period, bad_spaces, foreign_quotes, hyphen_dashes, quote_marks, straightened_quotes,
                                     wide_marks)


def test_cldr_marks_of_german_french_and_spanish():
    assert quote_marks("de") == "„“‚‘"
    assert quote_marks("fr") == "«»«»"
    assert quote_marks("es") == "“”‘’"  # CLDR 48: Spanish inherits root's English-style marks
    assert quote_marks("de_AT") == quote_marks("de")  # a region CLDR does not list: its language's


def test_straight_quotes_are_foreign_to_german_but_not_to_spanish_or_english():
    assert foreign_quotes('Er sagte: "Wir gehen."', "de") == ['"']
    assert foreign_quotes('Er sagte: „Wir gehen.“', "de") == []
    assert foreign_quotes('Dijo: "Nos vamos."', "es") == []
    assert foreign_quotes('He said: "We leave."', "en") == []


def test_an_english_opening_mark_is_foreign_to_german_and_french():
    assert foreign_quotes("Er sagte: “Wir gehen.”", "de") == ["“"]
    assert foreign_quotes("Il a dit : “Nous partons.”", "fr") == ["“"]
    assert foreign_quotes("Er sagte: „Wir gehen.“ Dann ging er.", "de") == []  # German closes with “


def test_straight_quotes_where_the_source_quotes_with_typographic_marks():
    # WMT23 zh->en (the MQM development file): annotators mark the " that stands for the source's “ ”
    source = "最近，美国对华“芯片战”大有升级之势"
    assert straightened_quotes(source, 'Recently, the U.S. "chip war" against China has escalated', "en") == ['"']
    assert straightened_quotes(source, "Recently, the U.S. “chip war” against China has escalated", "en") == []
    assert straightened_quotes("他说「好」", 'He said "fine"', "en") == ['"']
    assert straightened_quotes('He said "no".', 'Dijo "no".', "es") == []  # the source's marks are straight too
    assert straightened_quotes("Er sagte „nein“.", 'He said "no".', "en") == ['"']
    assert straightened_quotes("He said “no”.", 'Er sagte "nein".', "de") == []  # foreign_quotes names it there
    assert straightened_quotes("见“链接”", 'See <a href="https://example.org">link</a>', "en") == []


def test_a_final_period_where_the_source_ends_with_no_mark():
    # WMT23 zh->en headlines (the MQM development file)
    assert added_period("首批个人养老金理财产品开售", "The first batch of personal pension products goes on sale.") == ["."]
    assert added_period("美国升级“芯片战”重创全球半导体产业-中新网", 'The US escalates "chip war" - China News Network.') == ["."]
    assert added_period("首批个人养老金理财产品开售", "The first batch of personal pension products goes on sale") == []
    assert added_period("他说：", "He said.") == []  # the source ends with a mark of its own
    assert added_period("Save the file", "Datei speichern.") == ["."]
    assert added_period("Save the file.", "Datei speichern.") == []
    assert added_period("Wait...", "Warte...") == [] and added_period("See (1)", "Siehe (1).") == ["."]


def test_quotes_inside_a_url_or_a_tag_are_the_markup_s():
    assert foreign_quotes('Siehe <a href="https://example.org/x">hier</a>.', "de") == []


def test_sit_check_reports_quotes_as_mqm_punctuation(tmp_path):
    rows = checked_rows(tmp_path, 'He said "no".\tEr sagte "nein".\nHe said "no".\tEr sagte „nein“.\n', "de",
                        ("typography",))
    assert [(r["source_id"], r["kind"], r["evidence"]["marks"], r["evidence"]["mqm"]) for r in rows] == \
        [(2, "quotes", ['"'], "Fluency/Punctuation")]
    (tmp_path / "en").mkdir()
    pairs = '他说“不”。\tHe said "no".\n他说“不”。\tHe said “no”.\n'
    assert checked_rows(tmp_path / "en", pairs, "en", ("typography",)) == []  # straight quotes: asked for
    (tmp_path / "en2").mkdir()
    rows = checked_rows(tmp_path / "en2", pairs, "en", ("typography",), {"typography": {"straight": True}})
    assert [(r["source_id"], r["kind"], r["evidence"]["marks"]) for r in rows] == [(2, "straight", ['"'])]


def test_the_quotes_table_is_built_from_cldr_json(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    from cldr_fakes import npm_package

    keys = ("quotationStart", "quotationEnd", "alternateQuotationStart", "alternateQuotationEnd")
    marks = {"root": "“”‘’", "en": "“”‘’", "de": "„“‚‘", "de-CH": "«»‹›", "de-AT": "„“‚‘"}
    tgz = npm_package(tmp_path, "cldr-misc-full", "delimiters",
                      {locale: {"delimiters": dict(zip(keys, m))} for locale, m in marks.items()})
    out = tmp_path / "quotes.json"
    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, str(root / "scripts" / "cldr_quotes.py"), "--package", str(tgz), "--out", str(out)],
                   check=True, capture_output=True)
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["locales"] == {"de": "„“‚‘", "de-CH": "«»‹›"} and doc["default"] == "“”‘’" and doc["locales_read"] == 5
    committed = json.loads((root / "sit" / "data" / "cldr_quotes.json").read_text(encoding="utf-8"))
    assert "cldr-misc-full@48.2.0" in committed["source"] and committed["locales"]["fr"] == "«»«»"


def test_two_spaces_or_a_space_before_a_comma_where_the_source_has_none():
    # Apertium's own outputs: a space where it dropped a word, one before a comma
    assert bad_spaces("The supply chain problems would likely ease.", "problemas del suministro  probablemente facilidad.",
                      "es") == ["suministro  probablemente"]
    assert bad_spaces('"This is a step forward, but."', '"Esto es un paso adelante significativo , pero."', "es") == \
        ["significativo ,"]
    assert bad_spaces("He said: yes; no.", "Il a dit : oui ; non.", "fr") == []  # French spaces before : and ;
    assert bad_spaces("Name:  Value", "Nombre:  Valor", "es") == []  # the source's own layout


def test_full_width_marks_kept_from_a_chinese_source_but_not_in_chinese_or_japanese():
    assert wide_marks("He said，we will go。", "en") == ["，", "。"]
    assert wide_marks("He said, we will go.", "en") == []
    assert wide_marks("他说，我们走。", "zh") == [] and wide_marks("「はい」と言った。", "ja") == []


def test_a_spaced_hyphen_is_a_dash_written_wrong_but_a_compound_or_a_range_is_not():
    assert hyphen_dashes("Einstein erkannte - und das ist der Kern - dass") == ["erkannte - und", "Kern - dass"]
    assert hyphen_dashes("Es war -- wie immer -- spät.") == ["war -- wie", "immer -- spät."]
    assert hyphen_dashes("die Anti-Flüchtlings-Demonstration, 2-0, Seiten 10-12") == []
    assert hyphen_dashes("Einstein erkannte – und das ist der Kern – dass") == []
