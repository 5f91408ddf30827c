"""Relations and their comparisons: distance discount, untranslated substitutes, rti phrases,
patinv variants, and several relations in one `sit run` with Apertium."""

import json
import os
import subprocess
import sys

import pytest
from conftest import requires_apertium
from fakes.fixtures import _no_real_credentials, serve  # noqa: F401 (fixtures)

from sit.bags import missing_from, target_bag
from sit.distance import relation_diff, relation_distance
from sit.records import Edit, Tree
from sit.relations.sit import left_untranslated, target_language_word, untranslated
from sit.relations.patinv import removals
from sit.relations.rti import containers, noun_phrases


def tree(tokens, rels):
    return Tree(tuple(tokens), tuple(0 for _ in tokens), tuple(rels))


def test_discount_leaves_out_only_the_substituted_tokens_arc():
    a = tree(["El", "consejo", "aprobó", "la", "ley"], ["det", "nsubj", "root", "det", "obj"])
    b = tree(["El", "comité", "aprobó", "la", "ley"], ["det", "amod", "root", "det", "obj"])
    assert relation_distance(a, b) == 2 and relation_diff(a, b) == {"amod": (0, 1), "nsubj": (1, 0)}
    assert relation_distance(a, b, discount=True) == 0
    c = tree(["El", "comité", "aprobó", "la", "ley"], ["det", "amod", "root", "det", "nsubj"])
    assert relation_distance(a, c, discount=True) == 2, "a change elsewhere still counts"


def test_untranslated_substitute_is_the_word_standing_verbatim():
    edit = Edit(3, "crisis", "strait", "wordnet")
    assert left_untranslated(edit, "el manejo de la crisis", "el manejo del strait", "es") == 1
    assert left_untranslated(edit, "el manejo de la crisis", "el manejo del estrecho", "es") == 0
    hotel = Edit(3, "house", "hotel", "wordnet")  # a Spanish word too: no sign of anything
    assert left_untranslated(hotel, "la casa", "el hotel", "es") == 0


def test_a_target_language_word_is_weighed_against_its_source_language_frequency():
    """wordfreq's Zipf (Spanish / English): loans Spanish really uses are common there or about as
    common as in English; English names and words that only leak into Spanish texts are not."""
    for word in ("hotel", "online", "software", "marketing"):  # 4.80/4.95, 4.75/5.19, 4.65/4.77, 4.19/4.78
        assert target_language_word(word, "en", "es"), word
    assert target_language_word("judo", "en", "es")  # 3.20 / 3.25: rare, but no rarer than in English
    for word in ("harper", "fowler", "gaming", "strait"):  # 3.41/4.04, 3.04/3.63, 3.22/4.36, < 3.0
        assert not target_language_word(word, "en", "es"), word
    assert target_language_word("harper", "en", "es", rule="floor"), "the rule before: Spanish Zipf >= 3.0"
    assert target_language_word("harper", "xx", "es"), "no data for the source language: the floor alone"
    assert not target_language_word("hotel", "en", "xx"), "no data for the target language: nothing is its own"


def test_word_frequencies_come_back_from_the_cache_without_wordfreq(tmp_path):
    """A run's Zipf lookup (sit.textcheck.untranslated.Frequencies) caches what wordfreq says of
    the words it is told; a re-run reads them back in one query and never imports wordfreq, with
    the same verdicts (hotel: Spanish too; strait: not)."""
    from sit.cache import Cache
    from sit.textcheck.untranslated import Frequencies, shared_words

    words = shared_words("The hotel on the Strait", "El hotel del strait")
    assert words == {"hotel", "strait"}  # the source's words that stand in the translation, case aside
    Frequencies(Cache(tmp_path)).prefetch(words, ("en", "es"))
    code = ("import json, sys\nfrom sit.cache import Cache\n"
            "from sit.textcheck.untranslated import Frequencies, target_language_word\n"
            "zipf = Frequencies(Cache(sys.argv[1]))\nzipf.prefetch(['hotel', 'strait'], ('en', 'es'))\n"
            "verdicts = [target_language_word(w, 'en', 'es', zipf=zipf) for w in ('hotel', 'strait')]\n"
            "print(json.dumps([verdicts, 'wordfreq' in sys.modules]))")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(__file__)))},
                          check=True)
    verdicts, imported = json.loads(proc.stdout.strip().splitlines()[-1])
    assert verdicts == [True, False] and imported is False
    assert [target_language_word(w, "en", "es") for w in ("hotel", "strait")] == verdicts  # wordfreq's own


@requires_apertium
def test_substitutes_apertium_leaves_in_english_are_untranslated(tmp_path):
    """Real Apertium output: "industry fowler", "gaming operations" and "the harper's lawyer" keep
    the English word; "hotel gyms", "accounting software" and "the judo team" are Spanish."""
    from sit.cache import Cache
    from sit.translators import get_translator

    cases = [
        ("compiled by an industry tracker.", "tracker", "fowler", ("fowler", "perturbed", 1)),
        ("money from illegal online gambling operations.", "gambling", "gaming", ("gaming", "perturbed", 1)),
        ("The singer's lawyer said his client would plead not guilty.", "singer", "harper",
         ("harper", "perturbed", 1)),
        ("shelters set up in school gyms and churches.", "school", "hotel", None),
        ("The firm sells accounting tools.", "tools", "software", None),
        ("Two riders from the cycling team tested positive.", "cycling", "judo", None),
    ]
    t = get_translator("apertium", target_lang="es", cache=Cache(tmp_path))
    texts = [x for text, before, after, _ in cases for x in (text, text.replace(before, after))]
    out = t.translate(texts)
    for n, (text, before, after, expected) in enumerate(cases):
        y, y2 = out[2 * n], out[2 * n + 1]
        assert untranslated(Edit(0, before, after, "wordnet"), y, y2, "es") == expected, (y, y2)
        floor = untranslated(Edit(0, before, after, "wordnet"), y, y2, "es", rule="floor")
        assert floor is None, "the Spanish Zipf alone took all six for Spanish words"


@requires_apertium
def test_the_relation_sets_untranslated_substitutes_apart_by_its_rule(tmp_path):
    """"The harper's lawyer": an untranslated finding by default, a structure comparison under the
    rule before ("floor"); the rule is in the relation's signature, an unknown one refused."""
    from sit.cache import Cache
    from sit.errors import ConfigError
    from sit.parse import get_parser
    from sit.records import Pair
    from sit.relations import RunContext, create_relation
    from sit.translators import get_translator

    a = "The singer's lawyer said his client would plead not guilty to all charges."
    pair = Pair(0, a, a.replace("singer", "harper"), Edit(1, "singer", "harper", "wordnet"), relation="sit")
    cache = Cache(tmp_path)
    translation = dict(zip([a, pair.perturbed], get_translator("apertium", target_lang="es", cache=cache)
                           .translate([a, pair.perturbed])))
    ctx = RunContext(cache, "en", "es", make_perturber=lambda: (None, ""),
                     make_parser=lambda: (get_parser("spacy", "es", cache=cache), "spacy", ""))
    ratio, floor = (create_relation("sit", ctx, {"untranslated": rule}) for rule in ("source-ratio", "floor"))
    assert ratio.signature()["untranslated"] == "source-ratio" and floor.signature()["untranslated"] == "floor"
    found = ratio.check([pair], translation)
    assert found.counts.own["untranslated_pairs"] == 1
    # "harper" is the substitute, no word of the input: the substitute's own kind, and it says so
    assert [(i.kind, i.evidence["word"], i.evidence["word_of"], i.evidence["input_word"]) for i in found.issues] == [
        ("untranslated_substitute", "harper", "substitute", "singer")]
    gap = found.issues[0].evidence["zipf_gap"]
    assert found.issues[0].distance == gap > 0.3, "ordered by how much more English than Spanish the word is"
    assert floor.check([pair], translation).counts.own["untranslated_pairs"] == 0
    with pytest.raises(ConfigError, match="choose one of: source-ratio, floor"):
        create_relation("sit", ctx, {"untranslated": "nosuch"})


def test_bags_ignore_articles_and_punctuation():
    inner = target_bag("Los planes de la empresa.", "es")
    outer = target_bag("el plan de empresa", "es")
    assert missing_from(inner, outer) == {"planes": 1}
    assert target_bag("los", "es", "all-words") == {"los": 1}
    assert missing_from(target_bag("新的预算", "zh"), target_bag("批准了预算", "zh")) == {"新": 1}


def test_rti_phrases_and_their_containers(english_tagger):
    doc = english_tagger.tag(["Thousands of students marched to protest proposed cuts to university funding."], entities=True)[0]
    spans = noun_phrases(doc)
    texts = {doc[a:b].text for a, b in spans}
    assert "proposed cuts to university funding" in texts
    assert all(2 <= b - a <= 9 for a, b in spans)
    around = containers(spans)
    assert all(c is None or (c[0] <= s[0] and s[1] <= c[1]) for s, c in around.items())


def test_patinv_removes_modifiers_and_prepositional_phrases(english_tagger):
    text = "The very old bridge collapsed during the storm."
    doc = english_tagger.tag([text], entities=True)[0]
    variants = {p.perturbed for p in removals(doc, 0, text)}
    assert "The bridge collapsed during the storm." in variants or "The old bridge collapsed during the storm." in variants
    assert "The very old bridge collapsed." in variants
    assert all(p.edit.after == "" and p.relation == "patinv" for p in removals(doc, 0, text))


def sit(*args, check=True):
    proc = subprocess.run([sys.executable, "-m", "sit.cli", *args], capture_output=True, text=True,
                          env=dict(os.environ), timeout=600)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


@requires_apertium
def test_three_relations_share_one_translation_pass(tmp_path):
    cache, out = tmp_path / "cache", tmp_path / "run"
    args = ["run", "--dataset", "politics", "--limit", "12", "--cache-dir", str(cache), "--relation", "sit,rti,patinv",
            "--perturber-option", "lm=none"]  # more substitutes, so that each relation has issues
    sit(*args, "--out", str(out))
    meta = json.loads((out / "run.json").read_text())
    counts, rels = meta["counts"], meta["counts"]["relations"]
    assert set(rels) == {"sit", "rti", "patinv"} and all(r["cases"] > 0 for r in rels.values())
    assert meta["signature"]["relations"]["rti"] == {"max_words": 9, "compare": "words"}
    rows = [json.loads(x) for x in (out / "translations.jsonl").read_text().splitlines()]
    texts = [r["text"] for r in rows]
    assert len(texts) == len(set(texts)) == counts["translations"] == counts["translated"], "each text once"
    pairs = [json.loads(x) for x in (out / "pairs.jsonl").read_text().splitlines()]
    needs = {}
    for p in pairs:
        for text in (p["original"], p["perturbed"]):
            needs.setdefault(text, set()).add(p["relation"])
    shared = [t for t, rels in needs.items() if len(rels) > 1]
    assert shared and all(texts.count(t) == 1 for t in shared), "texts two relations need are translated once"
    contrast = [p for p in pairs if p["relation"] == "patinv" and p["edit"]["perturber"] == "contrast"]
    assert contrast, "patinv's own different-meaning substitutions"
    sit_words = {(p["edit"]["before"], p["edit"]["after"]) for p in pairs if p["relation"] == "sit"}
    assert not sit_words & {(p["edit"]["before"], p["edit"]["after"]) for p in contrast}
    issues = [json.loads(x) for x in (out / "issues.jsonl").read_text().splitlines()]
    assert {i["relation"] for i in issues} >= {"sit"}
    for i in issues:
        if i["relation"] == "patinv":
            assert i["original_translation"] == i["perturbed_translation"] and i["original"] != i["perturbed"]
        if i["relation"] == "rti":
            assert i["perturbed"] in i["original"] and i["evidence"]["missing"]
    again = sit(*args, "--out", str(tmp_path / "run2"))
    assert " 0 by the translator in 0 calls" in again.stderr
    assert (tmp_path / "run2" / "issues.jsonl").read_text() == (out / "issues.jsonl").read_text()


@pytest.mark.parametrize("extra, message", [
    (["--relation", "nosuch"], "unknown relation 'nosuch'; choose one of: batch, brackets, case, cit, codes, concord, consistency, "
                                   "coverage, declension, language, length, numbers, passthrough, patinv, punctuation, repetition, rti, "
                                   "sit, spelling, terms, typography, whitespace, width"),
    (["--relation", "rti", "--relation-option", "rti.colour=1"], "the rti relation has no option 'colour'"),
    (["--relation", "rti", "--relation-option", "patinv.remove=false"], "which this run does not test"),
    (["--relation", "rti", "--relation-option", "compare=words"], "takes RELATION.KEY=VALUE"),
])
def test_relation_errors_are_one_line(tmp_path, extra, message):
    p = sit("run", "--dataset", "politics", "--limit", "2", "--out", str(tmp_path / "r"), *extra, check=False)
    assert p.returncode == 2 and message in p.stderr and "Traceback" not in p.stderr


RELATION_SENTENCES = [
    "The president met the minister.",
    "The bank raised interest rates.",
    "Thousands of angry students marched to protest proposed cuts to university funding.",
    "The senator criticized the governor for the rising state budget deficit.",
]


def _relations_run(main, tmp_path, out, *extra):
    f = tmp_path / "in.txt"
    f.write_text("\n".join(RELATION_SENTENCES) + "\n")
    return main(["run", "--input", str(f), "--target-lang", "es", "--perturber", "wordnet", "--num-perturb", "3",
                 "--relation", "sit,rti,patinv", "--relation-option", "patinv.words=run",
                 "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / out), "--no-progress", *extra])


def _check_one_pass(run_dir):
    """Every relation built cases; every text the run needed was translated once, and texts that
    two relations need are among them once."""
    meta = json.loads((run_dir / "run.json").read_text())
    counts = meta["counts"]
    assert all(counts["relations"][r]["cases"] > 0 for r in ("sit", "rti", "patinv")), counts["relations"]
    texts = [json.loads(x)["text"] for x in (run_dir / "translations.jsonl").read_text().splitlines()]
    assert len(texts) == len(set(texts)) == counts["translations"]
    pairs = [json.loads(x) for x in (run_dir / "pairs.jsonl").read_text().splitlines()]
    sit_texts = {p["perturbed"] for p in pairs if p["relation"] == "sit"}
    patinv_texts = {p["perturbed"] for p in pairs if p["relation"] == "patinv"}
    assert sit_texts & patinv_texts, "patinv.words=run shares sit's perturbed sentences"
    issues = [json.loads(x) for x in (run_dir / "issues.jsonl").read_text().splitlines()]
    return counts, issues


def test_relations_through_the_tiny_marian(tmp_path, tiny_marian):
    from sit.cli import main

    marian = ["--translator", "marian", "--model", str(tiny_marian)]
    assert _relations_run(main, tmp_path, "run", *marian) == 0
    counts, issues = _check_one_pass(tmp_path / "run")
    assert counts["translated"] == counts["translations"] and counts["translator_calls"] > 0
    found = {i["relation"] for i in issues}
    assert {"rti", "patinv"} <= found, found
    for i in issues:
        if i["relation"] == "patinv":
            assert i["original_translation"] == i["perturbed_translation"]
    assert _relations_run(main, tmp_path, "again", *marian) == 0
    again = json.loads((tmp_path / "again" / "run.json").read_text())["counts"]
    assert again["translator_calls"] == 0 and again["cache_hits"] == counts["translations"]
    assert (tmp_path / "again" / "issues.jsonl").read_text() == (tmp_path / "run" / "issues.jsonl").read_text()


def test_relations_through_a_fake_cloud_provider(tmp_path, serve, monkeypatch):
    from collections import Counter

    from fakes import apertium_translate, dictionary_translate, have_apertium

    from sit.cli import main

    fake = serve("google", translate=apertium_translate if have_apertium() else dictionary_translate)
    for k, v in fake.env().items():
        monkeypatch.setenv(k, v)
    assert _relations_run(main, tmp_path, "run", "--translator", "google", "--qps", "200") == 0
    counts, issues = _check_one_pass(tmp_path / "run")
    sent = Counter(fake.translated_texts)
    # each text sent once, or twice where the order check could not place its first answer
    # (the second look, docs/cloud.md)
    assert set(sent.values()) <= {1, 2} and len(sent) == counts["translations"], "each text sent at most twice"
    # every relation checked its cases on the provider's answers (Apertium's, correctly aligned,
    # give these four sentences structure findings only)
    assert all(counts["relations"][r]["compared"] > 0 for r in ("sit", "rti", "patinv")) and issues
    calls = len(fake.calls)
    assert _relations_run(main, tmp_path, "again", "--translator", "google", "--qps", "200") == 0
    assert len(fake.calls) == calls, "a re-run sends nothing"
    assert json.loads((tmp_path / "again" / "run.json").read_text())["counts"]["translator_calls"] == 0


@requires_apertium
def test_patinv_no_finding_where_the_translator_renders_the_two_words_the_same_alone(tmp_path):
    """Issue 26: "companies" -> "corporations" is no meaning change for Apertium (both
    "empresas"), "companies" -> "villages" is; the words alone are translated with the run's texts."""
    from sit.cache import Cache
    from sit.records import Pair
    from sit.relations import RunContext
    from sit.relations.patinv import PatInvRelation
    from sit.translators import get_translator

    cache = Cache(tmp_path)
    rel = PatInvRelation(RunContext(cache, "en", "es"), remove=False)
    text = "Lawmakers are pressing social media companies to do more."
    cases = [Pair(0, text, text.replace("companies", word), Edit(5, "companies", word, "contrast"), relation="patinv")
             for word in ("corporations", "villages")]
    sources = rel.sources(cases)
    assert {"companies", "corporations", "villages"} <= set(sources)
    translation = dict(zip(sources, get_translator("apertium", target_lang="es", cache=cache).translate(sources)))
    assert translation["companies"] == translation["corporations"]  # what Apertium does, alone
    same = [rel.same_alone(p, translation) for p in cases]
    assert same == [True, False]
    checked = rel.check(cases, {**translation, cases[1].perturbed: translation[text]})  # pretend: one lost change
    assert checked.counts.own["same_words_alone"] == 1
    assert [i.pair.edit.after for i in checked.issues] == ["villages"]


def test_patinv_removes_only_what_changes_the_meaning(english_tagger):
    from sit.perturb.wordnet import WordNetLexicon

    wn = WordNetLexicon().reader
    for text, kept in (("He visited places such as Paris and Rome.", set()),
                       ("It rained a little bit yesterday.", set()),
                       ("The very old bridge collapsed during the storm.", {"The bridge collapsed during the storm."})):
        doc = english_tagger.tag([text], entities=True)[0]
        variants = {p.perturbed for p in removals(doc, 0, text, wn)}
        assert kept <= variants and not any(v.endswith(("places as Paris and Rome.", "a bit yesterday.")) for v in variants)
        if not kept:
            assert variants == set(), variants


def test_patinv_ranks_by_the_meaning_an_identical_translation_lost(tmp_path):
    """Issue 26: a removal of more content words, or a substitute further away in WordNet, ranks first."""
    from sit.cache import Cache
    from sit.relations import RunContext
    from sit.relations.patinv import PatInvRelation

    rel = PatInvRelation(RunContext(Cache(tmp_path), "en", "es"), substitute=False)
    lost = lambda a, b: rel.meaning_lost(Edit(1, a, b, "contrast"))  # noqa: E731
    assert lost("in the old harbour town", "") == 3.0  # old, harbour, town
    assert lost("very", "") == 1.0  # a stop word alone still loses something
    near, far = lost("companies", "corporations"), lost("city", "border")
    assert 1.0 < near < 2.0 and 1.0 < far <= 2.0 and near < far  # corporations lie closer to companies
    assert lost("zzzq", "qqqz") == 2.0


def test_rti_evidence_keeps_the_words_as_written():
    """Issue 26: rti's missing words come lower-cased and sorted (as the bag compares them) and as
    they stand in the phrase's translation."""
    from sit.bags import as_written, missing_from, target_bag

    inner, outer = "El Dato compilado por un rastreador", "según los datos compilaron por un rastreador."
    missing = missing_from(target_bag(inner, "es"), target_bag(outer, "es"))
    assert sorted(missing.elements()) == ["compilado", "dato"]
    assert as_written(inner, missing) == ["Dato", "compilado"]
