"""Top-k precision from triage labels (`sit precision`), and reading labels.jsonl."""

import json

import pytest

from sit.cli import main
from sit.errors import InputError
from sit.records import Edit, Issue, Pair
from sit.report.labels import Label, load_labels, match_labels, normalize_category, parse_labels
from sit.report.precision import compute_precision, precision_by_relation
from sample_runs import sample_issues, sample_relation_issues, write_sample_run
from sit.rundir import load_run


def _issues(ranks_per_source):
    """Issues for sources 0..n-1 with the given number of ranked issues each."""
    out = []
    for sid, n in enumerate(ranks_per_source):
        for rank in range(1, n + 1):
            pair = Pair(sid, f"src {sid}", f"src {sid} v{rank}", Edit(1, "src", "x", "test"), relation="sit")
            out.append(Issue(pair, "t", f"t {rank}", float(10 - rank), {"nsubj": (1, 2)}, rank))
    return out


def _labels(spec):
    """{(sid, rank): "bug"|"not_bug"|("bug", category)} -> Label objects."""
    out = {}
    for (sid, rank), value in spec.items():
        label, category = value if isinstance(value, tuple) else (value, None)
        out[("sit", sid, rank)] = Label(sid, rank, label, category)
    return out


@pytest.mark.parametrize(
    "ranks, spec, top_k, want_hits, want_judged, want_unlabelled",
    [
        # the paper's measure: a sentence counts at k when any of its top-k issues is a bug
        ([3, 3], {(0, 1): "bug", (1, 2): "bug"}, 3, [1, 2, 2], [1, 2, 2], [1, 2, 4]),
        ([3, 3], {(0, 1): "not_bug", (0, 2): "not_bug", (0, 3): "bug", (1, 1): "not_bug"}, 3,
         [0, 0, 1], [2, 1, 1], [0, 1, 2]),
        # fewer issues than k: the sentence's top-k is all it has
        ([1, 2], {(0, 1): "not_bug", (1, 1): "not_bug", (1, 2): "not_bug"}, 3, [0, 0, 0], [2, 2, 2], [0, 0, 0]),
        ([2], {}, 2, [0, 0], [0, 0], [1, 2]),
        ([1, 1, 1, 1], {(0, 1): "bug", (1, 1): "bug", (2, 1): "not_bug"}, 1, [2], [3], [1]),
    ],
)
def test_top_k_precision(ranks, spec, top_k, want_hits, want_judged, want_unlabelled):
    result = compute_precision(_issues(ranks), _labels(spec), top_k, strict=False)
    assert [p.k for p in result.at_k] == list(range(1, top_k + 1))
    assert [p.hits for p in result.at_k] == want_hits
    assert [p.judged for p in result.at_k] == want_judged
    assert [p.unlabelled for p in result.at_k] == want_unlabelled
    assert all(p.sentences == len(ranks) for p in result.at_k)
    assert [p.precision for p in result.at_k] == [h / len(ranks) for h in want_hits]


def test_categories_and_counts():
    spec = {(0, 1): ("bug", "under-translation"), (1, 1): ("bug", "under-translation"),
            (2, 1): ("bug", "unclear-logic"), (3, 1): "bug", (4, 1): "not_bug"}
    result = compute_precision(_issues([1] * 6), _labels(spec), 1)
    assert result.categories == {"under-translation": 2, "unclear-logic": 1, "uncategorised": 1}
    assert (result.bugs, result.not_bugs, result.labelled, result.issues) == (4, 1, 5, 6)
    assert result.at_k[0].precision == pytest.approx(4 / 6)
    text = result.format()
    assert "under-translation" in text and "66.7%" in text and "unlabelled" in text


def test_top_k_defaults_to_the_largest_sentence():
    result = compute_precision(_issues([2, 4]), {}, None, strict=False)
    assert len(result.at_k) == 4


def test_labels_for_another_run_are_refused():
    issues = _issues([2])
    foreign = {("sit", 0, 1): Label(0, 1, "bug", None, "a different sentence"), ("sit", 9, 1): Label(9, 1, "bug")}
    with pytest.raises(InputError, match="none of the 2 labels"):
        compute_precision(issues, foreign, 2)
    mixed = {**foreign, ("sit", 0, 2): Label(0, 2, "bug", None, "src 0 v2")}
    match = match_labels(issues, mixed)
    assert set(match.labels) == {("sit", 0, 2)} and match.unknown == (("sit", 9, 1),) and match.mismatched == (("sit", 0, 1),)
    result = compute_precision(issues, mixed, 2)
    assert (result.unknown_labels, result.mismatched_labels, result.bugs) == (1, 1, 1)


@pytest.mark.parametrize(
    "row, want",
    [
        ({"source_id": 1, "rank": 2, "label": "bug"}, Label(1, 2, "bug")),
        ({"issue_id": "12-3", "label": "not_bug"}, Label(12, 3, "not_bug")),
        ({"source_id": "4", "rank": "1", "label": "not a bug"}, Label(4, 1, "not_bug")),
        ({"source_id": 4, "rank": 1, "label": True, "category": "Under translation"},
         Label(4, 1, "bug", "under-translation")),
        ({"source_id": 4, "rank": 1, "label": "bug", "category": "word/phrase mistranslation"},
         Label(4, 1, "bug", "mistranslation")),
    ],
)
def test_parse_labels(row, want):
    assert parse_labels([row]) == {want.key: want}


def test_a_cleared_mark_and_a_later_line_win():
    rows = [{"source_id": 1, "rank": 1, "label": "bug"}, {"source_id": 1, "rank": 1, "label": "not_bug"},
            {"source_id": 2, "rank": 1, "label": None}]
    assert parse_labels(rows) == {("sit", 1, 1): Label(1, 1, "not_bug")}


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"source_id": 1, "rank": 1, "label": "maybe"}\n', "neither"),
        ('{"source_id": 1, "rank": 1, "label": "bug", "category": "typo"}\n', "unknown error category"),
        ('{"label": "bug"}\n', "needs integer"),
        ("not json\n", ":1: not valid JSON"),
        ("[1, 2]\n", "must be a JSON object"),
    ],
)
def test_load_labels_errors(tmp_path, content, message):
    path = tmp_path / "labels.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_labels(path)


def test_load_labels_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such labels file"):
        load_labels(tmp_path / "nope.jsonl")


@pytest.mark.parametrize("value, want", [("over-translation", "over-translation"), ("Incorrect modification", "incorrect-modification"), ("word", "mistranslation"),
                                         ("unclear_logic", "unclear-logic"), ("", None), ("nonsense", None)])
def test_normalize_category(value, want):
    assert normalize_category(value) == want


@pytest.fixture
def labelled_run(tmp_path):
    run_dir = write_sample_run(tmp_path / "run", sample_issues(5, 3, seed=3))
    run = load_run(run_dir)
    first = {}
    for issue in run.issues:
        first.setdefault(issue.pair.source_id, issue)
    ids = sorted(first)
    rows = [
        {"source_id": ids[0], "rank": 1, "label": "bug", "category": "under-translation", "perturbed": first[ids[0]].pair.perturbed},
        {"source_id": ids[1], "rank": 1, "label": "not_bug"},
        {"source_id": ids[1], "rank": 2, "label": "bug"},
    ]
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return run_dir, labels


def test_cli_precision(labelled_run, capsys):
    run_dir, labels = labelled_run
    assert main(["precision", str(run_dir), str(labels)]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line.split() for line in out.splitlines() if line.strip()[:1].isdigit()}
    assert lines["1"][1] == "20.0%" and lines["2"][1] == "40.0%" and lines["3"][1] == "40.0%"
    assert "under-translation" in out
    assert main(["precision", str(run_dir), str(labels), "--json", "--top-k", "2"]) == 0
    result = json.loads(capsys.readouterr().out)["relations"]["sit"]
    assert [p["hits"] for p in result["precision"]] == [1, 2]
    assert result["categories"] == {"under-translation": 1, "uncategorised": 1}


@pytest.mark.parametrize("extra, message", [(["--top-k", "0"], "at least 1")])
def test_cli_precision_errors(labelled_run, capsys, extra, message):
    run_dir, labels = labelled_run
    assert main(["precision", str(run_dir), str(labels), *extra]) == 2
    assert message in capsys.readouterr().err


def test_labels_name_their_relation_and_old_files_load_as_sit():
    rows = [{"source_id": 3, "rank": 1, "label": "bug"},  # written before relations: sit
            {"issue_id": "rti:3-1", "label": "not_bug"},  # the page's id names the relation
            {"source_id": 3, "rank": 1, "relation": "patinv", "label": "bug"},
            {"source_id": 3, "rank": 1, "relation": "sit", "kind": "untranslated", "label": "bug"}]
    labels = parse_labels(rows)
    assert set(labels) == {("sit", 3, 1), ("rti", 3, 1), ("patinv", 3, 1), ("sit.untranslated", 3, 1)}
    assert labels[("rti", 3, 1)].label == "not_bug" and labels[("sit", 3, 1)].label == "bug"
    assert labels[("rti", 3, 1)].to_dict()["issue_id"] == "rti:3-1"
    assert labels[("sit.untranslated", 3, 1)].to_dict()["relation"] == "sit"
    assert parse_labels([labels[("sit.untranslated", 3, 1)].to_dict()]) == {("sit.untranslated", 3, 1): labels[("sit.untranslated", 3, 1)]}


@pytest.fixture
def relations_run(tmp_path):
    """A run with sit, rti, patinv and sit.untranslated findings on the same sentences, and one
    labels file judging three of the groups (same source ids and ranks in each)."""
    run_dir = write_sample_run(tmp_path / "run", sample_relation_issues(4, seed=1))
    rows = [{"source_id": 0, "rank": 1, "relation": "rti", "label": "bug", "category": "mistranslation"},
            {"source_id": 1, "rank": 1, "relation": "rti", "label": "not_bug"},
            {"source_id": 1, "rank": 2, "relation": "rti", "label": "bug"},
            {"source_id": 0, "rank": 1, "relation": "patinv", "label": "not_bug"},
            {"source_id": 0, "rank": 1, "label": "not_bug"}]  # an old line: sit
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return run_dir, labels


def test_one_labels_file_gives_precision_per_relation(relations_run, capsys):
    run_dir, labels = relations_run
    results = precision_by_relation(load_run(run_dir), load_labels(labels))
    assert list(results) == ["sit", "rti", "patinv"]  # the run's order; sit.untranslated has no labels
    assert [p.hits for p in results["rti"].at_k] == [1, 2, 2] and results["rti"].at_k[0].sentences == 4
    assert [p.hits for p in results["patinv"].at_k] == [0, 0, 0] and results["patinv"].not_bugs == 1
    assert results["sit"].bugs == 0 and results["sit"].labelled == 1
    assert results["rti"].categories == {"mistranslation": 1, "uncategorised": 1}
    assert main(["precision", str(run_dir), str(labels)]) == 0
    out = capsys.readouterr().out
    assert out.index("== sit:") < out.index("== rti:") < out.index("== patinv:") and "sit.untranslated" not in out
    assert main(["precision", str(run_dir), str(labels), "--relation", "rti", "--json"]) == 0
    only = json.loads(capsys.readouterr().out)["relations"]
    assert list(only) == ["rti"] and [p["hits"] for p in only["rti"]["precision"]] == [1, 2, 2]
    assert main(["precision", str(run_dir), str(labels), "--relation", "rti,nosuch"]) == 2
    assert "no 'nosuch' findings; its groups: sit, rti, patinv, sit.untranslated" in capsys.readouterr().err


def test_labels_of_no_group_of_the_run_are_refused(relations_run, tmp_path, capsys):
    run_dir, _ = relations_run
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"source_id": 0, "rank": 1, "relation": "purity", "label": "bug"}) + "\n")
    assert main(["precision", str(run_dir), str(other)]) == 2
    assert "none of the 1 labels judges a finding of this run" in capsys.readouterr().err
