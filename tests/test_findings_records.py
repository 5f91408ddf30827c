"""Records a reader can take at their word: what a case changed, evidence as written, the
apostrophe of the curly-quotes variant, findings about no input sentence counted apart."""

from sit.records import Edit, Issue, Pair, RunCounts
from sit.relations.punctuation import curled, straightened
from sit.textcheck.compare import difference, written_difference


def _issue(before: str, after: str, change: str = "", sid: int = 0, relation: str = "x") -> Issue:
    return Issue(Pair(sid, "a", "b", Edit(0, before, after, relation, change=change), relation=relation), "y", "y2", 1.0, {})


def test_change_names_what_changed():
    assert _issue("as written", "ALL CAPS", change="case").change == "case"
    assert _issue("", "@newsdesk").change == "insertion"
    assert _issue("the new budget", "").change == "removal"
    assert _issue("Senate", "SENATE").change == "case"
    assert _issue("52", "53").change == "substitution"
    assert _issue("phrase", "phrase").change == "none"
    assert Issue.from_dict(_issue("x", "y", change="case").to_dict()).change == "case"


def test_case_and_punctuation_variants_say_what_they_change():
    from sit.relations.case import CaseRelation
    from sit.relations.punctuation import PunctuationRelation

    case = CaseRelation.__new__(CaseRelation)
    case.chosen, case.name = CaseRelation.variant_names, "case"
    assert {p.edit.note: p.edit.change for p in case.cases([1], ["The Senate voted."])} == {
        "upper": "case", "lower": "case", "title": "case"}
    punct = PunctuationRelation.__new__(PunctuationRelation)
    punct.chosen, punct.name = PunctuationRelation.variant_names, "punctuation"
    got = {p.edit.note: p.edit.change for p in punct.cases([1, 2], ["The mayor's office said.", "It rose"])}
    assert got == {"period": "insertion", "quotes": "substitution", "space": "insertion"}
    removed = [p for p in punct.cases([1], ["It fell."]) if p.edit.note == "period"]
    assert removed[0].edit.change == "removal"


def test_curly_quotes_put_u2019_for_an_apostrophe_and_u2018_only_to_open_a_quote():
    assert curled("the mayor's office") == "the mayor\u2019s office"
    assert curled("in the '90s and 'em") == "in the \u201990s and \u2019em"
    assert curled("he called it 'a disaster' today") == "he called it \u2018a disaster\u2019 today"
    assert curled('"We\'re done," she said.') == "\u201cWe\u2019re done,\u201d she said."
    assert straightened(curled("rock 'n' roll's '90s")) == "rock 'n' roll's '90s"


def test_evidence_is_written_as_in_the_text_with_the_tokens_apart():
    a, b = "Las charlas de EE.UU. siguen.", "Las charlas de ee.uu. Siguen en marcha."
    assert written_difference(a, b, str.casefold) == [["", "en marcha"]]
    assert written_difference("La reunión de la ONU.", "La reunión de U.N.", str.casefold) == [["la ONU.", "U.N."]]
    assert difference("La reunión de la ONU.".casefold(), "La reunión de U.N.".casefold()) == [["la onu", "u"], ["", "n ."]]


def test_findings_about_no_input_sentence_are_not_flagged_sentences():
    issues = [_issue("a", "b", sid=3, relation="rti"), _issue("a", "b", sid=-1, relation="rti"),
              _issue("a", "b", sid=-1, relation="length")]
    counts = RunCounts().with_findings(issues)
    assert counts.issues == 3 and counts.flagged_sentences == 1
    assert counts.groups["rti"].to_dict() == {"findings": 2, "sentences": 1, "other": 1}
    assert counts.groups["length"].to_dict() == {"findings": 1, "sentences": 0, "other": 1}
    assert RunCounts.from_dict(counts.to_dict()) == counts


def test_sides_told_in_words_are_written_as_identifiers():
    row = _issue("", "@newsdesk").to_dict(sides=("source", "token inserted"))
    assert row["token_inserted"] == "b" and row["token_inserted_translation"] == "y2"
    assert row["source"] == "a" and not any(" " in k for k in row)
