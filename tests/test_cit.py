"""The ``cit`` relation (issue 45): optional constituents cut from spaCy's parse, the comparison
of the two translations, and a real Apertium run that finds a structure error."""

import json
import os
import subprocess
import sys

from conftest import requires_apertium

from sit.perturb.prune import cut_text, cuts
from sit.relations.cit import agreeing, changes


def _cuts(tagger, text):
    return {c.role: c for c in cuts(tagger.tag([text], entities=True)[0], limit=20)}, \
        [c.reduced for c in cuts(tagger.tag([text], entities=True)[0], limit=20)]


def test_a_relative_clause_goes_with_its_commas(english_tagger):
    roles, reduced = _cuts(english_tagger, "The bill, which passed the lower house with broad support, now goes to the Senate.")
    assert "The bill now goes to the Senate." in reduced
    assert roles["relcl"].words == "which passed the lower house with broad support"


def test_a_subject_becomes_a_pronoun_of_its_number(english_tagger):
    _, reduced = _cuts(english_tagger, "The committee voted along party lines to subpoena four former officials.")
    assert "It voted along party lines to subpoena four former officials." in reduced
    assert "The committee voted to subpoena four former officials." in reduced
    _, reduced = _cuts(english_tagger, "Young women disliked the overfamiliar tone he took with them.")
    assert "They disliked the overfamiliar tone he took with them." in reduced


def test_no_cut_makes_a_prepositional_verb_a_name_or_an_article_wrong(english_tagger):
    _, reduced = _cuts(english_tagger, "The company is looking for stability after years of musical chairs with directors.")
    assert not any("looking after" in r for r in reduced), reduced
    _, reduced = _cuts(english_tagger, "Koine was the lingua franca of the empire of Alexander the Great in those times.")
    assert reduced and all("Alexander the Great" in r for r in reduced), reduced
    _, reduced = _cuts(english_tagger, "It was what they called an unjustified decision by the neighboring government.")
    assert "It was what they called a decision by the neighboring government." in reduced


def test_no_particle_focus_adverb_or_half_of_a_coordination_goes(english_tagger):
    _, reduced = _cuts(english_tagger, "When she came back Sophie and Esther were sitting dejectedly in the kitchen.")
    assert not any("came Sophie" in r for r in reduced), reduced
    assert "When she came back Sophie and Esther were sitting in the kitchen." in reduced
    _, reduced = _cuts(english_tagger, "Roads are slickest when rain has just started and has not washed the oil away.")
    assert not any("has started" in r for r in reduced), reduced
    _, reduced = _cuts(english_tagger, "Most of the cast hurriedly and shamefacedly handed over their parts to understudies.")
    assert not any("hurriedly and handed" in r or "and shamefacedly" in r and "hurriedly" not in r for r in reduced), reduced


def test_a_pronoun_that_only_changes_the_verbs_number_counts_where_the_original_disagreed():
    """"they" for "the secret police" makes the verb plural; "La policía secreta suspendió" agrees,
    "los padres protestó" does not."""
    agrees = changes("La policía secreta suspendió sus víctimas.", "Suspendieron sus víctimas.", "La policía secreta", "es")
    assert len(agrees) == 1 and agreeing(agrees, "La policía secreta", "es") == []
    clash = changes("Dijo que los padres protestó.", "Dijo que protestaron.", "los padres", "es")
    assert agreeing(clash, "los padres", "es") == clash and clash[0].original_words == ("protestó",)
    assert agreeing(changes("Young mujeres desagradó el tono.", "Desagradaron el tono.", "Young mujeres", "es"),
                    "Young mujeres", "es"), "no determiner: a word in -s makes the phrase plural"


def test_cut_text_leaves_no_stray_space_or_comma():
    text = "The bill, which passed, now goes."
    assert cut_text(text, text.index(", which"), text.index(", now")) == "The bill, now goes."
    assert cut_text(text, text.index(", which"), text.index(" now")) == "The bill now goes."


def test_the_rest_changed_names_the_original_words_and_leaves_the_cut_ones_out():
    found = changes("El comité votado a lo largo de líneas de fiesta a subpoena.", "El comité votó a subpoena.",
                    "a lo largo de líneas de fiesta", "es")
    assert [(c.original_words, c.reduced_words) for c in found] == [(("votado",), ("votó",))]
    assert changes("El comité votó a lo largo de líneas de fiesta.", "El comité votó.", "a lo largo de líneas de fiesta",
                   "es") == [], "only the constituent's own words went"


def test_a_clitic_or_a_gender_ending_is_no_change():
    assert changes("Estamos viendo esta película demasiado tarde.", "Estamos viéndolo demasiado tarde.",
                   "esta película", "es") == []
    assert changes("La evidencia clave fue obtenida ayer.", "Fue obtenido ayer.", "La evidencia clave", "es") == []
    assert changes("El profesor dijo que los padres protestó.", "El profesor dijo que protestaron.",
                   "los padres", "es")[0].original_words == ("protestó",)


@requires_apertium
def test_a_run_finds_the_participle_apertium_took_for_a_finite_verb(tmp_path):
    """Apertium reads "voted" after "The committee" as a participle ("El comité votado"); without
    "along party lines" it writes the verb ("votó"): the finding names "votado"."""
    src = tmp_path / "in.txt"
    src.write_text("The committee voted along party lines to subpoena four former administration officials.\n"
                   "The dog sleeps.\n")
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "sit.cli", "run", "--input", str(src), "--translator", "apertium",
                           "--target-lang", "es", "--relation", "cit", "--out", str(out), "--cache-dir",
                           str(tmp_path / "cache"), "--no-progress"], capture_output=True, text=True,
                          env=dict(os.environ), timeout=600)
    assert proc.returncode == 0, proc.stderr
    issues = [json.loads(line) for line in open(out / "issues.jsonl")]
    named = {w for i in issues for w in i["evidence"]["original_words"]}
    assert "votado" in named and all(i["original"].startswith("The committee") for i in issues)
    assert {i["kind"] for i in issues} <= {"rest-changed", "pronoun"}  # no np cut unless asked for
    meta = json.loads((out / "run.json").read_text())
    assert meta["signature"]["relations"]["cit"] == {"limit": 8, "noun_phrases": False, "pronouns": True}


def test_noun_phrase_cuts_are_asked_for_and_pronouns_can_be_left_out(english_tagger):
    # blind labels (stop 46): cit.np 10/15, cit.pronoun 20/20: np cuts only with noun_phrases=true
    from sit.perturb.prune import cuts
    from sit.relations.cit import CitRelation

    doc = english_tagger.tag(["The young doctor quickly wrote a long report about the strange case."], entities=True)[0]
    roles = lambda **kw: {c.role for c in cuts(doc, **kw)}
    assert "np" in roles(noun_phrases=True) and "pronoun" in roles(noun_phrases=True)
    assert "np" not in roles(noun_phrases=False) and "pronoun" in roles(noun_phrases=False)
    assert "pronoun" not in roles(noun_phrases=False, pronouns=False)
    import inspect
    defaults = {k: v.default for k, v in inspect.signature(CitRelation.__init__).parameters.items() if k != "ctx"}
    assert defaults["noun_phrases"] is False and defaults["pronouns"] is True
