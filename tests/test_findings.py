"""What makes a `sit` finding worth reading: the surface gate (parallel translations are the
parser's noise), untranslated words on either side, collocations and usual senses of substitutes.
Real components: Apertium, the Spanish spaCy parser, WordNet, symspellpy's bigram counts."""

import random
from importlib.resources import files

import pytest
from conftest import requires_apertium

from sit.words import stop_words
from sit.cache import Cache
from sit.distance import surface_change
from sit.perturb import PERTURBERS
from sit.perturb.collocations import BIGRAM_FILE, Bigrams
from sit.records import Edit, Pair
from sit.relations.sit import untranslated
from conftest import requires_torch

ES = stop_words("es")


def toks(text):
    return tuple(text.split())


@pytest.mark.parametrize("a, b", [
    ("El abogado dijo su cliente abogaría", "El abogado dijo su paciente abogaría"),  # one word for one
    ("aliviar tensiones de comercio", "aliviar tensiones de la empresa"),  # a short block, function words
    ("la ciudad fue atacado por rebeldes", "la región fue atacada por rebeldes"),  # agreement elsewhere
    ("las acciones de la tienda cayeron", "las acciones de los centros comerciales cayeron"),  # 1 -> 2 words
    # Apertium on held-out news (issue 26): a contraction and agreement around the substitute
    ("la compra de la empresa cortada ayer", "la compra del equipo cortado ayer"),  # de la -> del, -a -> -o
    ("se refiere al dato personal", "se refiere a los casos personales"),  # al -> a los, number
    ("revisó las directrices revisadas ya", "revisó los órdenes del día revisados ya"),  # 1 -> 3 words, gender
    ("es una forma heredada rara", "es un plazo heredado raro"),  # articles and two inflections
])
def test_parallel_translations_show_no_surface_change(a, b):
    assert surface_change(toks(a), toks(b), ES) == []


@pytest.mark.parametrize("a, b, hunk", [
    ("Las apelaciones cortejan regladas 2-1", "El consejo de apelaciones gobernado 2-1", "cortejan regladas → gobernado"),
    ("abrieron dos nuevos homeless refugios", "abrieron dos recientes homeless anida", "refugios → anida"),
    ("un plazo pasando factura que mantiene", "un plazo de tributo enuncia aquello que mantiene",
     "pasando factura → de tributo enuncia aquello"),
])
def test_words_moved_dropped_or_a_second_change_are_surface_changes(a, b, hunk):
    assert hunk in surface_change(toks(a), toks(b), ES)


def test_agreement_around_a_change_is_no_licence_for_other_words():
    # a second content change stays one, and so does a long block inside the agreement
    assert surface_change(toks("la compra de la empresa cortada ayer"), toks("la compra del equipo cortado hoy"),
                          ES) == ["de la empresa cortada ayer → del equipo cortado hoy"]
    assert surface_change(toks("vio la compra de la empresa cortada"),
                          toks("vio la compra del equipo de fútbol local cortado"), ES)


def test_a_moved_word_is_a_surface_change_even_in_one_block():
    assert surface_change(toks("un poco niño juega"), toks("un niño pequeño juega"), ES)


def test_an_untranslated_word_is_found_on_either_side():
    edit = Edit(14, "unjustified", "undue", "wordnet")
    y = "para qué llamó un unjustified decisión por el gobierno"
    y2 = "para qué llamó una decisión indebida por el gobierno"
    assert untranslated(edit, y, y2, "es") == ("unjustified", "original", 1)
    assert untranslated(Edit(1, "undue", "unjustified", "wordnet"), y2, y, "es") == ("unjustified", "perturbed", 1)
    assert untranslated(Edit(3, "crisis", "conflict", "wordnet"), "la crisis", "el conflicto", "es") is None


def bigram_count(first, second):
    """The count straight from symspellpy's file (not through sit's reader)."""
    for line in files("symspellpy").joinpath(BIGRAM_FILE).read_text(encoding="utf-8").splitlines():
        if line.split()[:2] == [first, second]:
            return int(line.split()[2])
    return 0


def test_a_substitute_must_keep_a_known_collocation():
    b = Bigrams()
    assert bigram_count("video", "game") > 0 and bigram_count("motion", "game") == 0
    assert b.broken("the", "video", "motion", "game") == "video game"
    assert bigram_count("town", "council") > 0
    assert b.broken("the", "city", "town", "council") is None
    assert b.broken("of", "high", "advanced", "winds") == "high winds"
    assert b.broken(None, "lawsuit", "suit", None) is None, "no neighbour, nothing to break"


def test_kept_candidates_keep_the_collocation_and_drop_counts_say_why(english_tagger):
    text = "Workers at the video game studio voted to form a union."
    p = PERTURBERS.create("wordnet", tagger=english_tagger, collocations=True, lm="none")  # the n-gram check alone drops most
    pairs = p.perturb([text], random.Random(0))
    video = [x.edit.after.lower() for x in pairs if x.edit.before == "video"]
    assert all(bigram_count(w, "game") > 0 for w in video)
    assert p.dropped["collocation"] > 0
    off = PERTURBERS.create("wordnet", tagger=english_tagger, per_slot=0, lm="none")  # no collocation check
    loose = [x.edit.after.lower() for x in off.perturb([text], random.Random(0)) if x.edit.before == "video"]
    assert any(bigram_count(w, "game") == 0 for w in loose), "without the check, broken collocations come back"


def test_neighbours_come_in_their_usual_sense_and_part_of_speech():
    usual = PERTURBERS.create("wordnet", encoder="none")  # the default: usual senses only
    every = PERTURBERS.create("wordnet", encoder="none", usual_senses=False)
    # 'cast' (a verb first) and 'set' are WordNet neighbours of 'meeting' and 'group' in rare senses
    assert "set" in every.neighbours("group", "NOUN") and "set" not in usual.neighbours("group", "NOUN")
    assert "senate" in usual.neighbours("parliament", "NOUN")
    assert usual.options()["usual_senses"] is True and every.options()["usual_senses"] is False


@requires_torch
def test_unrelated_words_go_under_the_word_similarity_floor(english_tagger):
    text = "Senior government officials met with union leaders on Tuesday."
    p = PERTURBERS.create("wordnet", tagger=english_tagger, min_word_similarity=0.4)
    pairs = p.perturb([text], random.Random(0))
    assert p.dropped["unrelated"] > 0
    sims = p.quality.encoder.similarity([(x.edit.before.lower(), x.edit.after.lower()) for x in pairs])
    assert all(s >= 0.4 for s in sims)


@requires_apertium
def test_parallel_translations_are_no_structure_finding(tmp_path):
    """Apertium translates both sentences word for word; the Spanish parser labels them apart."""
    from sit.relations import RunContext, create_relation
    from sit.translators import TRANSLATORS

    a = "The singer's lawyer said his client would plead not guilty to all charges."
    b = a.replace("client", "patient")
    pair = Pair(0, a, b, Edit(6, "client", "patient", "wordnet"), relation="sit")
    cache = Cache(tmp_path)
    translation = dict(zip([a, b], TRANSLATORS.create("apertium", target_lang="es", cache=cache).translate([a, b])))
    assert surface_change(toks(translation[a]), toks(translation[b]), ES) == []

    def check(surface):
        from sit.parse import get_parser

        ctx = RunContext(cache, "en", "es", make_perturber=lambda: (None, ""),
                         make_parser=lambda: (get_parser("spacy", "es", cache=cache), "spacy", ""))
        return create_relation("sit", ctx, {"surface": surface}).check([pair], translation)

    gated, plain = check(True), check(False)
    assert plain.issues and plain.issues[0].distance > 0, "the parser does see a difference"
    assert gated.issues == [] and gated.counts.own["parallel_pairs"] == 1


@requires_torch
def test_wsd_draws_neighbours_from_the_sense_in_the_sentence(english_tagger):
    text = "The national team's coach named a new squad for the World Cup on Thursday."
    doc = english_tagger.tag([text], entities=True)[0]
    p = PERTURBERS.create("wordnet", tagger=english_tagger, wsd=True)
    from sit.perturb.substitution import slots

    row = [s for s in slots(doc) if s.text == "coach"]
    senses = p._disambiguate([doc], [row])[0][0]
    assert [s.name() for s in senses] == ["coach.n.01"], "the sports coach, not a railway coach"
    every = PERTURBERS.create("wordnet", tagger=english_tagger)._disambiguate([doc], [row])[0][0]
    assert len(every) > 1


@requires_apertium
def test_the_text_report_shows_how_the_translations_differ(tmp_path):
    import json

    from sit.pipeline import RunConfig, run

    text = tmp_path / "in.txt"
    text.write_text("The governor ordered state agencies on Tuesday to cut energy use by 15 percent by 2030.\n")
    r = run(RunConfig(input=str(text), translator="apertium", cache_dir=str(tmp_path / "c"), out=str(tmp_path / "r"),
                      progress=False))
    issues = [json.loads(line) for line in (r.run_dir / "issues.jsonl").read_text().splitlines()]
    structure = [i for i in issues if i["kind"] == "structure"]
    assert structure and all(i["evidence"]["surface"] for i in structure)
    report = (r.run_dir / "report.txt").read_text()
    for issue in structure:
        assert f"     differs:     {'; '.join(issue['evidence']['surface'])}" in report
