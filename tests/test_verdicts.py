"""The single-translation checks' verdicts through the cache (sit/relations/verdicts.py): a re-run
reads what the checks found instead of judging every text again, with the same findings; a
damaged verdict is set aside and judged again; other options or other code read other entries."""

from __future__ import annotations

import json

import pytest
from conftest import requires_apertium

from sit.cache import Cache
from sit.records import Edit, Pair
from sit.relations import RunContext, create_relation
from sit.relations.every import text_origins
from sit.relations.numbers import NumbersRelation
from sit.relations.verdicts import code_fingerprint

SENTENCE = "Prices rose 4.34 percent to $1,000 on Monday."
TRANSLATION = {SENTENCE: "Los precios subieron 4.34 por ciento a 1.000 dólares el lunes.",
               "Prices rose 4.35 percent to $1,000 on Monday.": "Los precios subieron 4,35 por ciento a 1.000 dólares el lunes.",
               "PRICES ROSE 4.34 PERCENT TO $1,000 ON MONDAY.": "LOS PRECIOS SUBIERON 4,34 POR CIENTO A 1000 EUROS EL LUNES."}


def _check(cache, options=None):
    ctx = RunContext(cache, "en", "es")
    numbers = create_relation("numbers", ctx, options or {})
    cases = numbers.cases([0], [SENTENCE])
    variant = Pair(0, SENTENCE, SENTENCE.upper(), Edit(0, "", "", "case", level="sentence"), relation="case")
    ctx.origins = text_origins([0], [SENTENCE], {"numbers": cases, "case": [variant]})
    return numbers, numbers.check(cases, TRANSLATION)


def _found(checked):
    return [(i.kind, i.pair.original, i.pair.perturbed, i.distance, json.dumps(i.evidence)) for i in checked.issues]


def test_a_rerun_reads_the_verdicts_and_finds_the_same(tmp_path, monkeypatch):
    plain = _found(_check(None)[1])
    # the sentence writes 4.34 the English way; the ALL CAPS variant lost its dollars
    assert ("format", SENTENCE, SENTENCE) in [f[:3] for f in plain]
    assert any(kind == "currency" for kind, *_ in plain)
    cache = Cache(tmp_path)
    relation, first = _check(cache)
    assert _found(first) == plain
    assert len(relation.verdicts.store) == 3  # the sentence, its changed copy and the variant, each judged once

    def judged_again(self, text, y):
        raise AssertionError(f"judged again: {text!r}")

    monkeypatch.setattr(NumbersRelation, "_found", judged_again)
    assert _found(_check(Cache(tmp_path))[1]) == plain  # every verdict read back
    with pytest.raises(AssertionError, match="judged again"):  # other options: other entries
        _check(Cache(tmp_path), {"units": True})


def test_a_damaged_verdict_is_set_aside_and_judged_again(tmp_path):
    cache = Cache(tmp_path)
    relation, first = _check(cache)
    key = json.dumps([SENTENCE, TRANSLATION[SENTENCE]], ensure_ascii=False)
    cache.db.write(lambda conn: conn.execute("UPDATE entries SET v = ? WHERE k = ?", ("[1, 2]", key)))
    again = Cache(tmp_path)
    relation, second = _check(again)
    assert _found(second) == _found(first)
    assert any("verdicts" in problem for problem in again.problems), again.problems
    assert relation.verdicts.store.get(key)["format"][0]["number"] == "4.34"  # judged and cached again


def test_the_code_fingerprint_follows_every_source_file(tmp_path, monkeypatch):
    package = tmp_path / "checkpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rule.py").write_text("LIMIT = 1\n")
    (tmp_path / "alone.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = code_fingerprint(["checkpkg", "alone"])
    assert before == code_fingerprint(["alone", "checkpkg"])  # the order modules are named in is no matter
    (package / "rule.py").write_text("LIMIT = 2\n")  # a file of the package changed
    changed = code_fingerprint(["checkpkg", "alone"])
    assert changed != before
    (tmp_path / "alone.py").write_text("X = 2\n")
    assert code_fingerprint(["checkpkg", "alone"]) not in (before, changed)
    assert code_fingerprint(["json"]) is not None and code_fingerprint(["_json"]) is None  # no source: no cache


def test_the_language_checks_find_the_same_from_the_cache(tmp_path, monkeypatch):
    pytest.importorskip("py3langid")
    pytest.importorskip("wordfreq")
    texts = {"The president said on Monday that prices will rise.":
             "El presidente dijo el Monday que los prices subirán.",
             "The weather is nice today in the city.": "The weather is nice today in the city.",
             "She reads the newspaper every morning at home.": "Elle lit le journal tous les matins à la maison."}

    def check(cache):
        ctx = RunContext(cache, "en", "es")
        language = create_relation("language", ctx, {})
        cases = language.cases([0, 1, 2], list(texts))
        return _found(language.check(cases, texts))

    plain = check(None)
    assert [kind for kind, *_ in plain] == ["copied", "untranslated", "wrong_language"]
    assert check(Cache(tmp_path)) == plain
    from sit.relations.language import LanguageRelation

    monkeypatch.setattr(LanguageRelation, "_verdict", lambda *a: pytest.fail("judged again"))
    assert check(Cache(tmp_path)) == plain


@requires_apertium
def test_the_sit_comparisons_are_read_back_with_the_same_findings(tmp_path, monkeypatch):
    from conftest import have_apertium_pair

    if not have_apertium_pair():
        pytest.skip("Apertium eng-spa is not installed")
    import random

    from sit.parse import get_parser
    from sit.perturb import PERTURBERS
    from sit.relations.sit import SitRelation
    from sit.translators import get_translator

    sentences = ["The senator criticized the governor over the new budget proposal.",
                 "The president met the foreign minister at the embassy.",
                 "Shares of the company fell sharply after the earnings report."]
    pairs = [p for p in PERTURBERS.create("character_swap", num_perturb=4).perturb(sentences, random.Random(0))
             if p.perturbed != p.original]
    texts = list(dict.fromkeys(t for p in pairs for t in (p.original, p.perturbed)))
    translation = dict(zip(texts, get_translator("apertium", target_lang="es").translate(texts)))

    def check(cache, **options):
        ctx = RunContext(cache, "en", "es", make_perturber=lambda: (None, ""),
                         make_parser=lambda: (get_parser("spacy", "es", cache=cache), "spacy", ""))
        found = create_relation("sit", ctx, options).check(pairs, translation)
        return [i.to_dict() for i in found.issues], found.counts, found.extra

    plain = check(None)
    assert plain[0] and plain[1].compared == len(pairs)  # something found, every pair compared
    assert {row["kind"] for row in plain[0]} >= {"untranslated_substitute"}
    assert check(Cache(tmp_path)) == plain
    monkeypatch.setattr(SitRelation, "_judge", lambda *a: pytest.fail("judged again"))
    assert check(Cache(tmp_path)) == plain  # every comparison read back
    with pytest.raises(pytest.fail.Exception, match="judged again"):  # other options: other entries
        check(Cache(tmp_path), discount=False)


def test_the_fingerprint_follows_the_data_files_too(tmp_path, monkeypatch):
    import sit.relations.verdicts as verdicts

    (tmp_path / "sit").mkdir()
    monkeypatch.setattr(verdicts, "__file__", str(tmp_path / "sit" / "relations" / "verdicts.py"))
    (tmp_path / "sit" / "data").mkdir()
    (tmp_path / "sit" / "data" / "table.json").write_text('{"es": 2}')
    before = code_fingerprint(["json"])
    (tmp_path / "sit" / "data" / "table.json").write_text('{"es": 1}')  # CLDR data changed
    assert code_fingerprint(["json"]) != before
    assert code_fingerprint(["json"], data=()) == code_fingerprint(["json"], data=())
