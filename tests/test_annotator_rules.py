"""The rules that make the single-translation checks judge as MQM annotators do (issue 33 part 3;
figures: benchmarks/bench_mqm.py, docs/precision.md): CLDR digit groups, numbers that name,
numbers in words, Chinese number units, words the target language writes as the source does,
stretches of source text left as they were."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from sit.relations import RunContext
from sit.relations.language import LanguageRelation
from sit.relations.numbers import NumbersRelation
from sit.relations.every import Origin
from sit.textcheck.numbers import (cldr_grouped, maybe_year, min_grouping_digits, misspaced_percent, month_named, month_of,
                                  naming_number, numbers_of, scaled, spelled, target_forms, ungrouped_in)
from sit.textcheck.untranslated import (calendar_words, copied_runs, copied_words, foreign_script_runs, place_names,
                                      written_as)


def _numbers(source, translation, target="es", source_lang="en", **options):
    ctx = RunContext(None, source_lang, target)
    ctx.origins = {source: Origin(1)}
    found = NumbersRelation(ctx, **options).check([], {source: translation}).issues
    return {i.kind: [n["number"] for n in i.evidence["numbers"]] for i in found}


def test_numbers_that_name_stay_as_written_or_become_roman():
    assert _numbers("We used SPSS 22.0 in phase 2 of the trial.", "Usamos SPSS 22.0 en la fase II del ensayo.") == {}
    assert _numbers("The dose was 22.5 mg.", "La dosis fue de 22.5 mg.") == {"format": ["22.5"]}
    assert _numbers("He took 2 pills.", "Tomó II pastillas.") == {"missing": ["2"]}  # Roman only where it names
    text = "as shown in figure 3 [12]"
    assert [naming_number(text, n) for n in numbers_of(text)] == [True, True]


def test_numbers_in_words_or_with_a_scale_word_are_there():
    n = numbers_of("about 10 years")[0]
    assert spelled(n, "vor fast zehn Jahren", "de") and spelled(n, "hace casi diez años", "es")
    assert not spelled(n, "vor fast neun Jahren", "de")
    big = numbers_of("140亿年", "zh")[0]
    assert big.value == Decimal(14 * 10 ** 9)
    assert scaled(big, "14 billion years", "en") and scaled(big, "Fourteen billion years", "en")
    assert not scaled(big, "1.4 billion years", "en")
    assert _numbers("It cost 2,500,000 dollars.", "Es kostete 2,5 Millionen Dollar.", target="de") == {}


def test_cldr_digit_groups_of_the_target():
    assert _numbers("有两万种兰花。", "There are 20000 species of orchids.", target="en", source_lang="zh") == \
        {"grouping": ["20000"]}
    assert _numbers("有25万种。", "There are 250,000 species.", target="en", source_lang="zh") == {}
    assert _numbers("有25万种。", "There are 250000 species.", target="en", source_lang="zh") == {"grouping": ["25"]}
    assert ungrouped_in("postcode 10115 and 40000 stars", "postcode 10115", "de") == [("40000", "40.000")]
    assert _numbers("In 2019 it rose.", "En 2019 subió.") == {}  # a year is no grouping error


def test_four_digit_numbers_grouped_as_cldrs_minimum_grouping_digits_say():
    from babel.numbers import format_decimal

    # the committed cldr-json table; Babel carries no minimum grouping digits and groups Spanish 5.000
    assert format_decimal(5000, locale="es") == "5.000"
    assert [min_grouping_digits(lang) for lang in ("es", "es-ES", "es_MX", "pl", "pt-PT", "pt", "de", "en", "ee")] == \
        [2, 2, 1, 2, 2, 1, 1, 1, 3]
    assert cldr_grouped(Decimal(5000), "de") and not cldr_grouped(Decimal(5000), "es")
    assert cldr_grouped(Decimal(50000), "es") and not cldr_grouped(Decimal(50000), "ee")
    # German groups four digits: 5000 for "5,000" is a grouping error where asked (numbers.four_digits;
    # off by default: German style guides allow 5000 and MQM annotators do not mark it)
    assert _numbers("It cost 5,000 euros.", "Es kostete 5000 Euro.", target="de", four_digits=True) == \
        {"grouping": ["5,000"]}
    assert _numbers("It cost 5,000 euros.", "Es kostete 5000 Euro.", target="de") == {}
    assert _numbers("It cost 5,000 euros.", "Es kostete 5.000 Euro.", target="de", four_digits=True) == {}
    # Spanish and Polish do not: 5000 is CLDR's own form (first), the grouped one still counts as written
    assert target_forms(numbers_of("5,000")[0], "es") == ("5000", "5.000")
    assert target_forms(numbers_of("5,000")[0], "pl") == ("5000", "5 000")
    for target, translation in (("es", "Costó 5000 euros."), ("es", "Costó 5.000 euros."),
                                ("pl", "Kosztował 5000 euro."), ("pl", "Kosztował 5 000 euro.")):
        assert _numbers("It cost 5,000 euros.", translation, target=target, four_digits=True) == {}, translation
    assert _numbers("It cost 50,000 euros.", "Costó 50000 euros.") == {"grouping": ["50,000"]}
    assert _numbers("It cost 5,000 euros.", "Costó 5,000 euros.") == {"format": ["5,000"]}


def test_a_four_digit_year_is_no_grouping_error_but_an_amount_is():
    source = "2022年补贴5000元，最短持有1080天。"
    assert _numbers(source, "In 2022 the subsidy was 5000 yuan, held for at least 1080 days.", target="en",
                    source_lang="zh", four_digits=True) == {"grouping": ["5000", "1080"]}
    assert _numbers(source, "In 2022 the subsidy was 5,000 yuan, held for at least 1,080 days.", target="en",
                    source_lang="zh", four_digits=True) == {}
    assert maybe_year("2022", "in 2022", "en") and not maybe_year("2022", "2022 euros", "en")
    assert not maybe_year("1095", "Shortest Holding 1095 Days No. 1", "en") and not maybe_year("2500", "2500 BC", "en")
    assert ungrouped_in("under the 1992 consensus, 2000 Euro, 1500 Jahre, 20000 Sterne", "九二共识", "de") == \
        [("2000", "2.000"), ("1500", "1.500"), ("20000", "20.000")]
    assert ungrouped_in("under the 1992 consensus, 2000 Euro, 1500 Jahre, 20000 Sterne", "九二共识", "de", at_least=2) == \
        [("20000", "20.000")]


def test_a_number_the_source_repeats_and_the_translation_writes_fewer_times_is_missing_where_asked():
    source = "新华社北京2月11日电2月11日，论坛在北京举办。"  # a dateline and the date itself
    one = "On February 11, the forum was held in Beijing."
    assert _numbers(source, one, target="en", source_lang="zh") == {}  # off by default
    assert _numbers(source, one, target="en", source_lang="zh", repeats=True) == {"missing": ["11"]}
    assert _numbers(source, "Beijing, February 11 (Xinhua) -- On February 11, the forum was held in Beijing.",
                    target="en", source_lang="zh", repeats=True) == {}
    assert _numbers("He scored 2 goals and 2 assists.", "Marcó 2 goles y 2 asistencias.", repeats=True) == {}
    assert _numbers("He scored 2 goals and 2 assists.", "Marcó 2 goles y asistencias.", repeats=True) == {"missing": ["2"]}
    assert _numbers("He scored 2 goals and 2 assists.", "Marcó 2 goles y dos asistencias.", repeats=True) == {}  # in words


def test_the_min_grouping_table_is_built_from_cldr_json(tmp_path):
    import json
    import subprocess
    import sys

    from cldr_fakes import npm_package

    tgz = npm_package(tmp_path, "cldr-numbers-full", "numbers", {
        locale: {"numbers": {"minimumGroupingDigits": digits}}
        for locale, digits in (("en", "1"), ("es", "2"), ("es-MX", "1"), ("es-ES", "2"), ("pt", "1"), ("pt-PT", "2"))})
    out = tmp_path / "table.json"
    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, str(root / "scripts" / "cldr_min_grouping.py"), "--package", str(tgz), "--out", str(out)],
                   check=True, capture_output=True)
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["locales"] == {"es": 2, "es-MX": 1, "pt-PT": 2} and doc["locales_read"] == 6
    assert "cldr-numbers-full@0" in doc["source"] and "Unicode" in doc["licence"]
    committed = json.loads((root / "sit" / "data" / "cldr_min_grouping.json").read_text(encoding="utf-8"))
    assert "cldr-numbers-full@48.2.0" in committed["source"] and committed["locales"]["es"] == 2


def test_imperial_units_only_where_asked():
    assert _numbers("a 15-foot boat", "ein 15-Fuß-Boot", target="de") == {}
    assert _numbers("a 15-foot boat", "ein 15-Fuß-Boot", target="de", units=True) == {"unit": ["15"]}
    assert _numbers("a 15-foot boat", "ein fünf Meter langes Boot", target="de") == {}  # converted
    assert _numbers("120 feet, or 40 meters", "120 Fuß oder 40 Meter", target="de", units=True) == {}


def test_a_word_counts_as_copied_only_as_the_source_writes_it():
    assert written_as("animation", "Animation zeigt") and not written_as("animation", "Diese Animation zeigt")
    assert written_as("horse", "ein horse im Stall")
    # as-written: German writes "aggressive", Spanish "molecular"; not "rainfall" or "budget"
    assert copied_words("an aggressive rainfall", "ein aggressive rainfall", "en", "de", rule="as-written") == ["rainfall"]
    assert copied_words("the molecular budget", "el molecular budget", "en", "es", rule="as-written") == ["budget"]


# stop 42: the copied-word check against MQM annotators (docs/precision.md, "Stop 42"); wordfreq's
# real lists decide every verdict below

def test_an_english_word_a_german_translation_capitalises_is_still_copied():
    # the as-written rule reads a copy in any case: German writes the English nouns it leaves with
    # a capital, and wordfreq's German list does not know them ("bricks" 2.14 against 3.81 in English)
    assert copied_words("as you're building your bricks", "wenn Sie Ihre Bricks bauen", "en", "de",
                        rule="as-written") == ["bricks"]
    # the rule before (written_as) let every capitalised copy pass as a German noun
    assert copied_words("as you're building your bricks", "wenn Sie Ihre Bricks bauen", "en", "de") == []


def test_a_rare_source_word_the_target_list_does_not_know_is_copied_but_no_latin_name():
    # "blowflies": English Zipf 1.52 (under the 3.0 floor), German 0: a word of English only
    assert copied_words("And blowflies just can't help themselves.", "Und Blowflies können sich einfach nicht helfen.",
                        "en", "de", rule="as-written") == ["blowflies"]
    # a Latin name is in neither list (English Zipf 0): no source-language word
    assert copied_words("This, which is helicodiceros, is arum.", "Dies, was Helicodiceros ist, ist Arum.",
                        "en", "de", rule="as-written") == []


def test_words_the_target_language_uses_are_not_copied():
    # German "Output" (3.33), "separate" (3.44: an inflection of "separat"), "miserable" (2.79),
    # "Dollars" (3.26): the target's own, which annotators left unmarked
    source = "the output of a separate test cost miserable dollars"
    assert copied_words(source, "der Output eines separate Tests kostete miserable Dollars", "en", "de",
                        rule="as-written") == []
    # Spanish sports writing uses "quarterback" (2.70) and "touchdowns" (2.15); not "prosecutors" (0),
    # "diplomats" (0) or "rainfall" (1.03)
    assert copied_words("The veteran quarterback threw three touchdowns.", "El veterano quarterback lanzó tres touchdowns.",
                        "en", "es", rule="as-written") == []
    assert copied_words("prosecutors said the diplomats saw rainfall", "prosecutors dijo que los diplomats vieron rainfall",
                        "en", "es", rule="as-written") == ["prosecutors", "diplomats", "rainfall"]


def test_the_language_relation_reports_a_capitalised_copy():
    ctx = RunContext(None, "en", "de")
    source = "And blowflies just can't help themselves."
    ctx.origins = {source: Origin(5)}
    found = LanguageRelation(ctx).check([], {source: "Und Blowflies können sich einfach nicht helfen."}).issues
    assert [(i.kind, i.pair.source_id, i.evidence.get("words")) for i in found] == [("copied", 5, ["blowflies"])]


def test_stretches_of_source_text_left_as_they_were():
    assert copied_runs("This is just one example of it.", "This is just one example dafür.", "en", "de") == \
        ["This is just one example"]
    assert copied_runs("I read the New York Times.", "Ich lese die New York Times.", "en", "de") == []
    assert copied_runs("He lives in Long Beach now.", "Er lebt jetzt in Long Beach.", "en", "de") == []


def test_the_language_relation_reports_copied_stretches():
    ctx = RunContext(None, "en", "de")
    source = "And this is just one example of how it works in practice."
    ctx.origins = {source: Origin(3)}
    found = LanguageRelation(ctx).check([], {source: "Und this is just one example dafür, wie es geht."}).issues
    assert [(i.kind, i.pair.source_id, i.evidence.get("runs")) for i in found] == \
        [("copied", 3, ["this is just one example"])]


# stop 40: what the WMT23 side-by-side MQM files showed (docs/precision.md, "Stop 40")

def test_a_month_the_source_writes_with_digits_may_be_named():
    # CLDR's Chinese month names are "2月"; English names it "February" (Babel for both sides)
    assert _numbers("2月10日，中国理财网发布名单。", "On February 10, the network released a list.",
                    target="en", source_lang="zh") == {}
    assert _numbers("于9 月在该国死亡。", "died there in September.", target="en", source_lang="zh") == {}
    assert _numbers("2月10日发布。", "Am 10. Feb. veröffentlicht.", target="de", source_lang="zh") == {}
    # another month, or no month at all, is still a missing number
    assert _numbers("2月10日发布。", "Released on March 10.", target="en", source_lang="zh") == {"missing": ["2"]}
    assert _numbers("他买了2本书。", "He bought February books.", target="en", source_lang="zh") == {"missing": ["2"]}
    iso = "2023-02-11 13:09:10 来源"
    assert [month_of(iso, n, "zh") for n in numbers_of(iso, "zh")] == [0, 2, 0, 0, 0, 0]
    assert _numbers(iso, "February 11, 2023, 13:09:10 Source", target="en", source_lang="zh") == {}
    assert month_named(5, "le 3 mai", "fr") and month_named(5, "Mai 2023", "fr") and not month_named(5, "you may", "en")


def test_ranges_ordinals_codes_and_approximate_units():
    assert _numbers("可达1200万至1400万人次", "could reach 12 to 14 million visitors", target="en", source_lang="zh") == {}
    assert _numbers("可达138亿至143亿新元", "could reach S$13.8 to S$14.3 billion", target="en", source_lang="zh") == {}
    assert _numbers("可达1200万至1400万人次", "could reach 12 to 14 visitors", target="en", source_lang="zh") == \
        {"missing": ["1200", "1400"]}
    assert numbers_of("500余万的缺口", "zh")[0].value == Decimal(5 * 10 ** 6)
    assert _numbers("尚有500余万的供给缺口", "a gap of over 5 million", target="en", source_lang="zh") == {}
    assert _numbers("已是第5度出现", "it was the fifth time", target="en", source_lang="zh") == {}
    assert _numbers("Er kam zum 5. Mal.", "He came for the fifth time.", target="en", source_lang="de") == {}
    assert _numbers("杉杉股份（600884.SH）上市", "Shanshan (600884.SH) went public", target="en", source_lang="zh") == {}
    assert _numbers("The code 00123 stays.", "El código 00123 se queda.") == {}  # zero-padded: no format error
    assert _numbers("The dose was 22.5 mg.", "La dosis fue de 22.5 mg.") == {"format": ["22.5"]}


def test_source_script_left_in_a_target_written_in_another():
    assert foreign_script_runs("据经济观察网报道", "According to 经济观察网, prices rose", "en") == ["经济观察网"]
    assert foreign_script_runs("据经济观察网报道", "According to Jingji Guancha", "en") == []
    assert foreign_script_runs("The iPhone 据说", "iPhone 据说", "zh") == []  # Latin and the target's own script
    assert foreign_script_runs("Москва", "Москва", "ru") == [] and foreign_script_runs("Привет мир", "Hallo мир", "de") == ["мир"]
    ctx = RunContext(None, "zh", "en")
    source = "经济观察网－专业财经新闻网站"
    ctx.origins = {source: Origin(2)}
    found = LanguageRelation(ctx).check([], {source: "经济观察网 - Professional financial news website"}).issues
    assert [(i.kind, i.pair.source_id, i.evidence.get("script")) for i in found] == [("copied", 2, ["经济观察网"])]


def test_day_and_month_names_of_the_source_left_in_the_translation():
    assert calendar_words("in a statement shared on Friday", "in einer am Friday geteilten Erklärung", "en", "de") == ["Friday"]
    assert calendar_words("shared on Friday", "am Freitag geteilt", "en", "de") == []
    assert calendar_words("in April", "im April", "en", "de") == []  # German names it so too
    assert calendar_words("Sherwood told Soccer Saturday.", "sagte Sherwood Soccer Saturday.", "en", "de") == []
    assert calendar_words("It was Black Friday.", "Es war Black Friday.", "en", "de") == []  # names
    assert calendar_words("On Friday, he left.", "Am Friday ging er.", "en", "de") == ["Friday"]
    assert calendar_words("on Friday", "am Friday", "en", "xx") == []  # a target CLDR does not know
    ctx = RunContext(None, "en", "de")
    source = "In a statement shared on Friday with the Times, a spokesman said so."
    ctx.origins = {source: Origin(4)}
    found = LanguageRelation(ctx).check([], {source: "In einer am Friday geteilten Erklärung sagte ein Sprecher das."}).issues
    assert [(i.kind, i.evidence.get("calendar")) for i in found] == [("copied", ["Friday"])]


def test_a_stretch_with_two_source_function_words_is_copied_but_not_a_name():
    assert copied_runs("to play Gallant to the Republicans now", "von Gallant to the Republicans auszuspielen",
                       "en", "de") == ["Gallant to the Republicans"]
    assert copied_runs("The Department of Homeland Security has hired", "Das Department of Homeland Security hat",
                       "en", "de") == []  # one such word inside a name
    assert copied_runs("at the high school in Texas", "an der High School in Texas", "en", "de") == []
    assert copied_runs("at the high school in Texas", "an der high school in Texas", "en", "de") == ["high school in Texas"]


def test_a_percent_sign_spaced_the_way_cldr_writes_the_target():
    # CLDR (Babel): German and Spanish "18 %", English "18%"; a narrow no-break space counts as one
    assert _numbers("It rose 18% in May.", "Es stieg im Mai um 18% an.", target="de") == {"format": ["18"]}
    assert _numbers("It rose 18% in May.", "Es stieg im Mai um 18\u202f% an.", target="de") == {}
    assert _numbers("增长8.6%", "grew 8.6 %", target="en", source_lang="zh") == {"format": ["8.6"]}
    assert _numbers("增长8.6%", "grew 8.6%", target="en", source_lang="zh") == {}
    assert _numbers("It rose 18% in May.", "Es stieg im Mai um 18 Prozent an.", target="de") == {}
    n = numbers_of("rose 18%")[0]
    assert misspaced_percent(n, "stieg um 18%", "de") == "18 %" and misspaced_percent(n, "%18 arttı", "tr") == ""


def test_a_currency_kept_by_the_unit_word_of_its_cldr_name():
    # CLDR's German names: "Britisches Pfund", "US-Dollar"; the unit is the last word there
    assert _numbers("fake claims totalling £52,000", "gefälschte Abrechnungen über 52.000 Pfund", target="de") == {}
    assert _numbers("it cost $50", "es kostete 50 Dollar", target="de") == {}
    assert _numbers("fake claims totalling £52,000", "gefälschte Abrechnungen über 52.000 Euro", target="de") == \
        {"currency": ["£52,000"]}


def test_chinese_units_in_a_row_multiply():
    assert [n.value for n in numbers_of("约26万亿元，3千万人", "zh")] == [Decimal(26 * 10 ** 12), Decimal(3 * 10 ** 7)]
    assert _numbers("规模约26万亿元", "assets of about 26 trillion yuan", target="en", source_lang="zh") == {}
    # a thousand times less: 26 stands, but not as 26 trillion is written
    assert _numbers("规模约26万亿元", "assets of about 26 billion yuan", target="en", source_lang="zh") == \
        {"format": ["26"]}
    assert _numbers("规模约26万亿元", "assets of about 26,000,000,000,000 yuan", target="en", source_lang="zh") == {}


def test_a_date_none_of_the_targets_cldr_patterns_writes():
    from sit.textcheck.dates import misformatted_dates

    # English (CLDR en: "MMMM d, y", skeleton "MMMM d"): the day first or an ISO date is not English
    found = misformatted_dates("It was set on 31 January 2023, published 2023-02-11 13:09:10.", "en")
    assert [(d.written, d.expected) for d in found] == [("31 January 2023", "January 31, 2023"),
                                                        ("2023-02-11", "February 11, 2023")]
    assert misformatted_dates("On February 11, 2023 and on Feb. 3 and May 5 they met.", "en") == []
    assert misformatted_dates("On February 3rd they met.", "en") == []  # an ordinal day: no CLDR pattern either way
    # the same order is right where the target's CLDR writes it so: British English, French, Swedish ISO
    assert misformatted_dates("On 31 January 2023 they met.", "en-GB") == []
    assert misformatted_dates("le 5 mars 2023", "fr") == [] and misformatted_dates("den 2023-02-11", "sv") == []
    assert misformatted_dates("5 марта 2023 г.", "ru") == []  # the year's word after the year
    # German: "d. MMMM"; the English order, or the day without its full stop, is not German
    assert [d.written for d in misformatted_dates("am 11. Februar, am Februar 11 und am 11 Februar", "de")] == \
        ["Februar 11", "11 Februar"]
    assert misformatted_dates("version 2023-02-11-beta at https://x.org/2023-02-11/a", "en") == []
    assert misformatted_dates("31 January", "xx") == []  # a language Babel does not know: nothing to say


def test_the_numbers_relation_reports_a_date_against_cldr():
    assert _numbers("2023年1月31日为基准日。", "January 31, 2023 is the base date.", target="en", source_lang="zh") == {}
    assert _numbers("2023年1月31日为基准日。", "31 January 2023 is the base date.", target="en",
                    source_lang="zh") == {"date": ["31 January 2023"]}
    assert _numbers("Talks resume on Feb. 11.", "Die Gespräche beginnen am 11. Februar wieder.", target="de") == {}
    assert _numbers("Talks resume on Feb. 11.", "Die Gespräche beginnen am Februar 11 wieder.", target="de") == \
        {"date": ["Februar 11"]}


def test_a_decade_may_be_written_with_its_century():
    assert _numbers("上世纪80年代，他担任厂长。", "In the 1980s, he was the director.", target="en", source_lang="zh") == {}
    assert _numbers("上世纪80年代，他担任厂长。", "In the 1970s, he was the director.", target="en",
                    source_lang="zh") == {"missing": ["80"]}
    assert _numbers("In the 90s it grew.", "In den 1990er Jahren wuchs es.", target="de") == {}


def test_an_imperial_quantity_whose_unit_alone_was_converted():
    # Babel's CLDR unit names of the target: "200 Meter" for 200 feet is a wrong conversion
    source = "The icebergs were almost 200 feet out of the water."
    assert _numbers(source, "Die Eisberge waren fast 200 Meter aus dem Wasser.", target="de") == {"conversion": ["200"]}
    assert _numbers(source, "Die Eisberge ragten fast 60 m aus dem Wasser.", target="de") == {}  # converted
    assert _numbers(source, "Die Eisberge ragten fast 200 Fuß aus dem Wasser.", target="de") == {}  # kept (units=false)
    assert _numbers("It is 5 miles away.", "Está a 5 km.", target="es") == {"conversion": ["5"]}
    assert _numbers("It is 5 meters away.", "Está a 5 metros.", target="es") == {}  # a metric source: nothing converted


def test_the_benchmark_reads_untranslated_digits_as_no_untranslated_word(tmp_path):
    # benchmarks/bench_mqm.py's truth: a source-language fragment of digits alone ("4") is about a
    # number, not a word left in the source language; one with letters, or a whole segment, is
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_mqm.py"
    spec = importlib.util.spec_from_file_location("bench_mqm_under_test", path)
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # its dataclass looks its module up there
    try:
        spec.loader.exec_module(bench)
    finally:
        sys.modules.pop(spec.name, None)
    tsv = tmp_path / "mqm.tsv"
    rows = [("A", "t.1", "1", "1", "r1", "有4个。", "There are <v>4</v> of them.", "Accuracy/Source language fragment", "Minor"),
            ("A", "t.1", "1", "2", "r1", "夏立言说。", "<v>Xia Liyan</v> said.", "Accuracy/Source language fragment", "Major"),
            ("A", "t.1", "1", "3", "r1", "好。", "Good.", "Non-translation!", "Major")]
    tsv.write_text("system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
                   + "".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    words = bench.read_mqm([str(tsv)])
    assert ["untranslated" in s.categories for s in words] == [False, True, False]
    assert "numbers" in words[0].categories  # the digit still counts for the numbers check
    assert ["untranslated" in s.categories for s in bench.read_mqm([str(tsv)], untranslated="category")] == \
        [True, True, False]


def test_a_capitalised_copy_inside_a_name_of_the_source_is_no_copy():
    # the source writes "Rescue" in a name: the translation may keep the name (lower case elsewhere)
    source = "the rescue team and the Lancashire Fire and Rescue Service"
    assert copied_words(source, "das Rettungsteam und der Lancashire Fire and Rescue Service", "en", "de",
                        rule="as-written") == []
    assert copied_words("the rescue team", "das Rescue Team", "en", "de", rule="as-written") == ["rescue"]


def test_country_names_of_the_source_left_in_the_translation():
    # CLDR's territory names through Babel: English "Türkiye", German "Türkei"; "China" is both
    assert place_names("Rescuers in Türkiye and China said so.", "Retter in Türkiye und China sagten das.", "en", "de") == \
        ["Türkiye"]
    assert place_names("Rescuers in Türkiye said so.", "Retter in der Türkei sagten das.", "en", "de") == []
    assert place_names("in Ireland and the Netherlands", "en Irlanda y el Netherlands", "en", "es") == ["Netherlands"]
    assert place_names("He met Michael Jordan in Paris.", "Er traf Michael Jordan in Paris.", "en", "de") == []  # a name
    # a name the source has inside a longer name stands there by right; by itself it is translated
    source = "Many moved to Norway, says Statistics Norway, and to India, says the Board of India."
    assert place_names(source, "Viele zogen nach Norwegen, sagt Statistics Norway, und nach Indien, sagt das Board of India.",
                       "en", "de") == []
    assert place_names(source, "Viele zogen nach Norway, sagt Statistics Norway, und nach India, sagt das Board of India.",
                       "en", "de") == ["India", "Norway"]
    assert place_names("trade between India and Norway", "Handel zwischen India und Norway", "en", "de") == ["India", "Norway"]
    assert place_names("in the Netherlands", "in the Netherlands", "en", "xx") == []  # a target CLDR does not know
    ctx = RunContext(None, "en", "de")
    source = "Kazakh rescuers found 7 survivors in Türkiye, Kazinform reports."
    ctx.origins = {source: Origin(6)}
    found = LanguageRelation(ctx).check([], {source: "Kasachische Retter fanden 7 Überlebende in Türkiye, meldet Kazinform."}).issues
    assert [(i.kind, i.evidence.get("places")) for i in found] == [("copied", ["Türkiye"])]


def test_the_benchmark_runs_every_check_and_reads_prose(tmp_path):
    # benchmarks/bench_mqm.py checks with every check, the opt-in ones too (typography's straight
    # quotes), and with the software mode off: "Seven" stands for 7 in a news sentence
    import importlib.util
    import sys
    from pathlib import Path

    from sit.commands.run import parse_relation_options

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_mqm.py"
    spec = importlib.util.spec_from_file_location("bench_mqm_fired", path)
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench
    try:
        spec.loader.exec_module(bench)
    finally:
        sys.modules.pop(spec.name, None)
    segments = [bench.Segment("1", "家机构的7只产品可选。", "Seven products from the home institution are available."),
                bench.Segment("1", "美国对华“芯片战”升级", 'The U.S. "chip war" against China escalates'),
                bench.Segment("1", "中国对美“芯片战”升级", "China’s “chip war” against the U.S. escalates")]
    found = bench.fired(segments, "zh", "en", parse_relation_options(bench.PROSE))
    assert [sorted(f) for f in found] == [[], ["typography.straight"], []]
