"""Memory that follows the work, not the input (issue 36): the sit relation compares its cases a
window at a time, and the trees parsed beside the perturber are read back from the parser's cache
instead of being held. Real Apertium, the real Spanish spaCy pipeline, a real cache."""

import random

import pytest
from conftest import requires_apertium

from sit.cache import Cache

SENTENCES = [
    "The senator criticized the governor over the new budget proposal.",
    "The angry voters rejected the tax plan in the election.",
    "The president met the foreign minister at the embassy.",
    "Local officials praised the new hospital in the city.",
    "Shares of the company fell sharply after the earnings report.",
    "The court rejected the appeal of the former mayor on Monday.",
    "Farmers protested against the new rules on water use.",
    "The central bank raised interest rates for the third time this year.",
]


@pytest.fixture(scope="module")
def translated(tmp_path_factory):
    """Character-swap pairs of SENTENCES (five per sentence) and Apertium's translation of every text."""
    from conftest import have_apertium_pair

    if not have_apertium_pair():
        pytest.skip("Apertium eng-spa is not installed")
    from sit.perturb import PERTURBERS
    from sit.translators import get_translator

    pairs = PERTURBERS.create("character_swap", num_perturb=5).perturb(SENTENCES, random.Random(0))
    pairs = [p for p in pairs if p.perturbed != p.original]
    texts = list(dict.fromkeys(t for p in pairs for t in (p.original, p.perturbed)))
    cache = Cache(tmp_path_factory.mktemp("cache"))
    translation = dict(zip(texts, get_translator("apertium", target_lang="es", cache=cache).translate(texts)))
    return pairs, translation, cache


def sit_check(pairs, translation, cache, window, monkeypatch, top_k=2):
    import sit.relations.sit as sit_relation
    from sit.parse import get_parser
    from sit.relations import RunContext, create_relation

    monkeypatch.setattr(sit_relation, "WINDOW", window)
    ctx = RunContext(cache, "en", "es", top_k=top_k, make_perturber=lambda: (None, ""),
                     make_parser=lambda: (get_parser("spacy", "es", cache=cache), "spacy", ""))
    return create_relation("sit", ctx, {}).check(pairs, translation)


@requires_apertium
@pytest.mark.parametrize("window", [1, 3, 7])
def test_the_sit_check_in_windows_finds_what_one_pass_finds(translated, window, monkeypatch):
    # windows that cut sentences anywhere (1, 3, 7 cases) against one window over every case: the
    # same issues with the same ranks and TEAPOT scores, the same counts and TEAPOT's summary
    pairs, translation, cache = translated
    whole = sit_check(pairs, translation, cache, len(pairs), monkeypatch)
    parts = sit_check(pairs, translation, cache, window, monkeypatch)
    assert len(pairs) > 3 * window and whole.issues  # several windows, and something to find
    assert [i.to_dict() for i in parts.issues] == [i.to_dict() for i in whole.issues]
    assert parts.counts == whole.counts and parts.extra == whole.extra
    assert whole.extra["teapot"]["n"] == whole.counts.compared > 0
    assert max(i.rank for i in whole.issues) == 2  # top-k per sentence applied


@requires_apertium
def test_early_trees_are_read_back_from_the_parsers_cache(translated):
    from sit.parse import get_parser
    from sit.parse.base import EarlyTrees

    _, translation, cache = translated
    texts = list(dict.fromkeys(translation.values()))[:6]
    parser = get_parser("spacy", "es", cache=cache)
    early = EarlyTrees(parser)
    early.add(texts, parser.parse(texts))
    assert early.held == {} and set(early) == set(texts) and len(early) == 6  # texts held, not trees
    fresh = get_parser("spacy", "es", cache=None)
    assert [early[t] for t in texts] == fresh.parse(texts)
    assert early.many(texts[::-1]) == dict(zip(texts, fresh.parse(texts)))  # one read of the cache
    assert "not parsed" not in early
    with pytest.raises(KeyError):
        early["not parsed"]
    without = EarlyTrees(fresh)  # a parser without a cache: the trees themselves are held
    without.add(texts[:2], fresh.parse(texts[:2]))
    assert list(without.held) == texts[:2] and without[texts[0]] == early[texts[0]]


@requires_apertium
def test_a_tree_the_cache_does_not_give_is_parsed_again(tmp_path):
    from sit.parse import get_parser
    from sit.parse.base import EarlyTrees

    parser = get_parser("spacy", "es", cache=Cache(tmp_path))
    other = get_parser("spacy", "es", cache=None)
    text = "El senador criticó al gobernador."
    early = EarlyTrees(parser)
    early.add([text], other.parse([text]))  # said parsed, but not through this parser's cache
    assert parser.computed == 0
    assert early[text] == other.parse([text])[0]
    assert parser.computed == 1  # parsed again, and now in the cache
    assert early[text] == other.parse([text])[0] and parser.computed == 1


@requires_apertium
def test_what_the_cache_holds_is_not_read_early_and_counts_as_its_hits(tmp_path):
    # a re-run: the early parse finds every translation in the parser's cache and reads none of
    # them (the check stage reads each window's once); they count as the parser's cache hits
    from sit.parse import get_parser
    from sit.parse.base import EarlyTrees

    cache = Cache(tmp_path)
    texts = ["El senador criticó al gobernador.", "Los votantes rechazaron el plan.", "La ciudad abrió un hospital."]
    first = get_parser("spacy", "es", cache=cache)
    trees = first.parse(texts)
    assert cache.store("parses", first.signature()).keys_in([*texts, "otra cosa"]) == set(texts)
    again = get_parser("spacy", "es", cache=cache)
    early = EarlyTrees(again, hold=2)  # past two trees: read back from the cache
    early.parse([*texts, "Otra frase nueva."])
    assert (again.cache_hits, again.computed) == (3, 1) and early.held == {}
    assert early.many(texts) == dict(zip(texts, trees))
    held = EarlyTrees(get_parser("spacy", "es", cache=cache))  # a few hundred sentences: held, read once
    held.parse(texts)
    assert list(held.held) == texts and held.parser.cache_hits == 3 and held[texts[0]] == trees[0]
