"""Parsing (real spaCy Spanish pipeline, Stanza where present), distance and ranking tables."""

import pytest

from sit.distance import head_relation_distance, relation_diff, relation_distance
from sit.errors import ConfigError, MissingDependencyError
from sit.parse import choose_parser, get_parser
from sit.parse.base import segment_chinese
from sit.parse.stanza_parser import StanzaParser, stanza_models_present
from sit.relations.rank import rank_issues
from sit.records import Edit, Issue, Pair, Tree
from conftest import requires_torch


def tree(*rels):
    return Tree(tuple(f"w{i}" for i in range(len(rels))), tuple(0 for _ in rels), tuple(rels))


@pytest.mark.parametrize(
    "a, b, dist, diff",
    [
        (("nsubj", "root", "obj"), ("nsubj", "root", "obj"), 0, {}),
        (("nsubj", "root", "obj"), ("nsubj", "root", "obl"), 2, {"obj": (1, 0), "obl": (0, 1)}),
        (("det", "nsubj", "root"), ("det", "det", "nsubj", "nsubj", "root"), 2, {"det": (1, 2), "nsubj": (1, 2)}),
        ((), ("root",), 1, {"root": (0, 1)}),
    ],
)
def test_relation_distance_table(a, b, dist, diff):
    assert relation_distance(tree(*a), tree(*b)) == pytest.approx(dist)
    assert relation_diff(tree(*a), tree(*b)) == diff


def test_head_relation_distance_sees_reattachment():
    a = Tree(("a", "b", "c"), (2, 0, 2), ("nsubj", "root", "obj"))
    b = Tree(("a", "b", "c"), (2, 0, 1), ("nsubj", "root", "obj"))
    assert relation_distance(a, b) == 0 and head_relation_distance(a, b) == 2


def _issue(sid, dist, translation, perturbed="p"):
    return Issue(Pair(sid, "o", perturbed + translation, Edit(1, "x", "y", "t"), relation="sit"), "t", translation, dist, {})


@pytest.mark.parametrize(
    "threshold, top_k, expected, ranks",
    [
        (0, 3, [(1, 5, "short"), (1, 5, "long translation"), (1, 2, "b"), (2, 1, "c")], [1, 2, 3, 1]),
        (0, 2, [(1, 5, "short"), (1, 5, "long translation"), (2, 1, "c")], [1, 2, 1]),
        (1, 3, [(1, 5, "short"), (1, 5, "long translation"), (1, 2, "b")], [1, 2, 3]),
        (0, 0, [(1, 5, "short"), (1, 5, "long translation"), (1, 2, "b"), (1, 1, "a"), (2, 1, "c")], [1, 2, 3, 4, 1]),
    ],
)
def test_rank_threshold_topk_and_ties(threshold, top_k, expected, ranks):
    cands = [_issue(1, 1, "a"), _issue(1, 5, "long translation"), _issue(1, 5, "short"), _issue(1, 2, "b"),
             _issue(2, 1, "c"), _issue(2, 0, "zero")]
    out = rank_issues(cands, threshold=threshold, top_k=top_k)
    # the expected lists are written in rank order: per sentence, largest distance first; ties on
    # distance: the shorter translation first ("short" before "long translation", listed after it)
    got = [(i.pair.source_id, i.distance, i.perturbed_translation) for i in out]
    assert got == expected
    assert [i.rank for i in out] == ranks


def test_spacy_spanish_parse_is_a_real_dependency_tree(tmp_path):
    from sit.cache import Cache

    parser = get_parser("spacy", "es", cache=Cache(tmp_path))
    texts = ["El presidente se reunió con el embajador en la capital.", "", "Las acciones cayeron."]
    trees = parser.parse(texts)
    t = trees[0]
    assert t.relations[t.tokens.index("presidente")] == "nsubj"
    assert t.relations.count("root") == 1 and t.heads[t.relations.index("root")] == 0
    assert all(0 <= h <= len(t.tokens) for h in t.heads)
    assert trees[1] == Tree((), (), ())
    again = get_parser("spacy", "es", cache=Cache(tmp_path))
    assert again.parse(texts) == trees and again.cache_hits == 2 and again._nlp is None



def test_spacy_trees_are_those_of_the_whole_pipeline(tmp_path):
    # the parse leaves out the taggers and the attribute ruler (TREE_NEEDS_NOT); the parser
    # reads the shared token vectors alone, so the trees are those the whole pipeline makes
    from sit.models import find_spacy_model, load_spacy
    from sit.parse.spacy_parser import doc_to_tree

    parser = get_parser("spacy", "es")
    assert "morphologizer" not in parser.nlp.pipe_names and "parser" in parser.nlp.pipe_names
    whole = load_spacy("es", find_spacy_model("es"))
    texts = ["El presidente se reunió con el embajador en la capital.", "Las acciones cayeron bruscamente.",
             "Pantano de Linda del gobernador dijo el lunes que no buscaría un tercer plazo.",
             "El Senado votó 52-48 el jueves para aprobar un $1.2 billones."]
    assert parser.parse(texts) == [doc_to_tree(d) for d in whole.pipe(texts)]


@requires_torch
def test_auto_parser_prefers_stanza_models_then_spacy(tiny_stanza_dir, monkeypatch, tmp_path):
    monkeypatch.setenv("STANZA_RESOURCES_DIR", str(tiny_stanza_dir))
    assert stanza_models_present("es")
    assert choose_parser("es")[0] == "stanza"
    monkeypatch.setenv("STANZA_RESOURCES_DIR", str(tmp_path))  # none here, and offline: spaCy's
    assert choose_parser("es")[0] == "spacy"
    with pytest.raises(MissingDependencyError, match=r"no dependency parser for 'xx' is installed; fetch one .*"
                       r"`sit download --target-lang xx` \(Stanza's models, where Stanza has the language\)$"):
        choose_parser("xx")


def test_chinese_is_segmented_by_jieba():
    assert segment_chinese("我们在北京开会。") == ["我们", "在", "北京", "开会", "。"]


@pytest.fixture
def stanza_models(tiny_stanza_dir, monkeypatch):
    """Stanza's directory holding the tiny zh and es pipelines the tests train."""
    monkeypatch.setenv("STANZA_RESOURCES_DIR", str(tiny_stanza_dir))
    return tiny_stanza_dir


@requires_torch
def test_stanza_spanish_parse(stanza_models):
    t = get_parser("stanza", "es").parse(["El presidente se reunió con el embajador."])[0]
    assert t.tokens[:2] == ("El", "presidente")
    assert t.relations[1] == "nsubj"


@requires_torch
@pytest.mark.parametrize("device", ["nonsense", "cuda:99"])
def test_stanza_parser_checks_its_device_first(device):
    with pytest.raises(ConfigError, match="--device") as err:
        StanzaParser("es", device=device)
    assert "\n" not in str(err.value)


def test_every_parser_takes_the_device_option():
    assert get_parser("spacy", "es", device="cpu").parse(["El perro come."])[0].tokens


@requires_torch
def test_stanza_runs_on_the_device_named(stanza_models):
    parser = get_parser("stanza", "es", device="cpu")
    assert str(parser.nlp.device) == "cpu"


def test_only_same_length_replacements_count_as_substitutions():
    from sit.distance import substituted

    def tree(words):
        return Tree(tuple(words), tuple([0] * len(words)), tuple(["dep"] * len(words)))

    # one word for one word: both tokens are the substitute's
    assert substituted(tree(["el", "gato", "duerme"]), tree(["el", "perro", "duerme"])) == (
        frozenset({1}), frozenset({1}))
    # two words for one ("gato negro" -> "perra"): a rewrite, not a one-for-one substitution
    assert substituted(tree(["el", "gato", "negro", "duerme"]), tree(["el", "perra", "duerme"])) == (
        frozenset(), frozenset())
