"""A relation in two parts (issue 47), as evaluate's ``_info()`` / ``_compute()``: what it declares
for its readers (:class:`sit.relations.base.RelationInfo`, :meth:`Relation.info`) and what checks
(``cases``, ``check``). The readers (the clusters, the reports' telling, the severities, ``sit
check``'s list of checks) read the declaration only: a relation that declares through ``_info()``
alone, with none of the class attributes, is read as it declares."""

from __future__ import annotations

import pytest

from sit.records import Edit, Issue, Pair
from sit.relations import RELATIONS, Relation, RelationInfo, alone_checks, declared_info
from sit.report.clusters import cluster_issues, measured, severity
from sit.severity import severity_of


class EchoRelation(Relation):
    """Declares everything readers read in :meth:`_info`, nothing as a class attribute."""

    name = "echo"

    @classmethod
    def _info(cls) -> RelationInfo:
        return RelationInfo("echo", title="the translation echoes the source",
                            kinds={"loud": "the echo is louder"}, kind="echo", sides=("source", "echo"),
                            measured={"loud": (7, 8, "labels-echo.jsonl")}, severity={"": 1.0, "loud": 2.75},
                            mqm={"loud": ("critical", "Accuracy/Untranslated")}, alone=10_000)

    def cases(self, ids, texts):
        return []

    def check(self, cases, translation):
        return self.checked([], cases=0, compared=0)


@pytest.fixture
def echo():
    RELATIONS.register("echo", EchoRelation)
    yield EchoRelation
    RELATIONS.unregister("echo")


def finding(sid: int, kind: str) -> Issue:
    edit = Edit(0, "", "", "echo", level="sentence")
    return Issue(Pair(sid, "The rain stopped.", "The rain stopped.", edit, relation="echo"), "x", "x", 1.0, {}, kind=kind)


def test_readers_read_what_a_relation_declares_in_its_info_alone(echo):
    assert EchoRelation.title == "" and EchoRelation.measured == {}  # no class attribute says it
    assert measured("echo.loud") == (7, 8, "labels-echo.jsonl") and measured("echo") is None
    assert severity("echo.loud") == 2.75 and severity("echo") == 1.0
    [cluster] = cluster_issues([finding(1, "loud"), finding(2, "loud")])
    assert (cluster.precision, cluster.severity) == (0.875, 2.75)
    told = EchoRelation.telling()
    assert (told.title, dict(told.kinds), told.sides, told.kind) == (
        "the translation echoes the source", {"loud": "the echo is louder"}, ("source", "echo"), "echo")
    loud = severity_of(finding(1, "loud"))
    assert (loud.level, loud.category) == ("critical", "Accuracy/Untranslated")
    assert severity_of(finding(1, "")).level == "major"  # a kind it declares nothing of: the default
    assert alone_checks()[-1] == "echo"  # sit check's checks of one translation by itself, in its declared place (last)


def test_a_relation_of_class_attributes_declares_them_as_its_info():
    """Every relation of sit (and a plugin of old) declares by class attributes: its info is them."""
    for name in RELATIONS.names():
        cls = RELATIONS.get(name)
        info = declared_info(name)
        assert (info.name, info.title, dict(info.kinds), info.kind, info.sides) == (
            name, cls.title, dict(cls.kinds), cls.kind, tuple(cls.sides))
        assert (dict(info.measured), dict(info.severity), dict(info.mqm)) == (
            dict(cls.measured), dict(cls.severity), dict(cls.mqm))
        assert (info.alone, info.alone_default, info.alone_needs, info.first_is_sentence) == (
            cls.alone, cls.alone_default, cls.alone_needs, cls.first_is_sentence)
    assert declared_info("numbers").measured_of("format") == (23, 23, "production-news.jsonl")
    assert declared_info("no-such-relation") is None
