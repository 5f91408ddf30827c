"""Relations declare what the core reads of them (issue 38): how their findings cluster, are
titled, ranked and weighed, whether ``sit check`` runs them, and what a case's first text is. A
relation registered in this process, and named nowhere in sit's code, is read like sit's own."""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

import pytest

from sit.check import CheckConfig, all_checks, check, usable_checks
from sit.records import Edit, Issue, Pair
from sit.relations import RELATIONS, Checked, Relation
from sit.relations.every import other_texts, text_issue
from sit.relations.rank import worst_first
from sit.report.clusters import cluster_issues, measured, severity


class ExclaimRelation(Relation):
    """A translation ends with "!" where its source does not (checked one translation at a time)."""

    name = "exclaim"
    title = "the translation exclaims where the source does not"
    kinds = {"added": "an exclamation mark was added"}
    sides = ("source", "source")
    measured = {"added": (3, 4, "labels-exclaim.jsonl")}
    severity = {"": 2.5}
    alone = 99  # after sit's own checks
    alone_needs = "none, only the two texts"

    @classmethod
    def usable(cls, source_lang: str, target_lang: str) -> str:
        return "exclaim left out: it reads no Greek" if "el" in (source_lang, target_lang) else ""

    @classmethod
    def tier(cls, issue: Issue) -> int:
        return 0 if issue.evidence.get("quiet") else 1

    @classmethod
    def cluster_keys(cls, issue: Issue, stops: frozenset[str]):
        last = issue.pair.original.split()[-1].strip(".").lower()
        return [("exclaimed", last)], ("exclaimed", "")

    @classmethod
    def cluster_title(cls, key: Sequence[str], issues: Sequence[Issue]) -> str:
        return f"sentences ending in {key[1]!r} are exclaimed" if key[0] == "exclaimed" else ""

    def cases(self, ids, texts):
        return []

    def check(self, cases: Sequence[Pair], translation: Mapping[str, Optional[str]]) -> Checked:
        found = [text_issue(self.name, x, y, origin, "added", 1.0, {"quiet": "quiet" in x})
                 for x, y, origin in other_texts(self.ctx.origins, translation, ())
                 if y.rstrip().endswith("!") and not x.rstrip().endswith("!")]
        return self.checked(found, cases=0, compared=len(translation), kinds=["added"])


@pytest.fixture
def exclaim():
    RELATIONS.register("exclaim", ExclaimRelation)
    yield ExclaimRelation
    RELATIONS.unregister("exclaim")


def test_sit_check_runs_a_relation_that_declares_it_checks_one_translation_alone(exclaim, tmp_path):
    assert all_checks()[-1] == "exclaim" and all_checks()[:5] == ("numbers", "passthrough", "language", "length",
                                                                  "punctuation")
    source = tmp_path / "pairs.tsv"
    source.write_text("The rain stopped.\tLa lluvia paró!\nThe quiet rain stopped.\tLa lluvia tranquila paró!\n"
                      "The sun rose.\tEl sol salió.\nThe wind stopped.\tEl viento paró!\n", encoding="utf-8")
    result = check(CheckConfig(str(source), target_lang="es", out=str(tmp_path / "run"), checks=("exclaim",),
                               cache_dir=str(tmp_path / "cache")))
    found = [i for i in result.issues if i.relation == "exclaim"]
    assert sorted(i.pair.source_id for i in found) == [1, 2, 4]
    assert (tmp_path / "run" / "issues.jsonl").read_text(encoding="utf-8").count('"relation": "exclaim"') == 3
    # its declared tier: the quiet sentence (tier 0) comes last in its group, whatever its distance
    assert [i.pair.source_id for i in worst_first(found)] == [1, 4, 2]
    # its declared usability: left out with its own warning
    kept, warnings = usable_checks(CheckConfig(str(source), target_lang="el", checks=("exclaim",)))
    assert kept == () and warnings == ["exclaim left out: it reads no Greek"]


def test_clusters_read_a_relations_keys_titles_precision_and_severity(exclaim):
    def finding(sid, text):
        edit = Edit(0, "", "", "exclaim", level="sentence")
        return Issue(Pair(sid, text, text, edit, relation="exclaim"), "¡Ya!", "¡Ya!", 1.0, {}, kind="added")

    issues = [finding(1, "The rain stopped."), finding(2, "The wind stopped."), finding(3, "The sun rose.")]
    clusters = cluster_issues(issues)
    assert {c.key: sorted(i.pair.source_id for i in c.issues) for c in clusters} == {
        ("exclaimed", "stopped"): [1, 2], ("exclaimed", ""): [3]}
    assert clusters[0].title == "sentences ending in 'stopped' are exclaimed"
    assert measured("exclaim.added") == (3, 4, "labels-exclaim.jsonl") and clusters[0].precision == 0.75
    assert severity("exclaim.added") == 2.5 and clusters[0].severity == 2.5
    # a relation that does not load here (a run read without its plugin): its group, unmeasured
    other = [Issue(Pair(1, "a", "a", Edit(0, "", "", "gone"), relation="gone"), "b", "b", 1.0, {}, kind="x")]
    assert [(c.key, c.precision, c.severity) for c in cluster_issues(other)] == [(("group", "gone.x"), None, 1.5)]


def test_a_report_reads_the_clusters_the_run_wrote_and_works_them_out_only_where_they_do_not_fit(tmp_path):
    """clusters.jsonl, written with the run by its relations' declarations, is what a report shows
    (no relation's code needed to render); a file that does not match the findings is worked out
    again."""
    import json

    from sample_runs import sample_relation_issues, write_sample_run

    from sit.report.clusters import run_clusters, saved_clusters
    from sit.rundir import load_run

    root = write_sample_run(tmp_path / "run", sample_relation_issues(4, seed=1))
    path = root / "clusters.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    fresh = [c.to_dict() for c in run_clusters(load_run(root))]
    assert fresh == rows  # read back as written
    rows[0]["title"] = "as the run titled it"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert run_clusters(load_run(root))[0].title == "as the run titled it"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows[1:]), encoding="utf-8")  # findings left out
    run = load_run(root)
    assert saved_clusters(run) is None and [c.to_dict() for c in run_clusters(run)] == fresh
