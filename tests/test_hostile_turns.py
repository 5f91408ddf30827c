"""Issue 38, the reordering provider's last holes, against the real adapters and fake providers on
127.0.0.1: a provider that swaps the answers of two texts of fewer than three words (which the
order check does not read), and one that turns the answers of three sentences round (each two of
them told apart by the check, the three together not). Nothing wrong is cached; a clean provider
pays few requests more (benchmarks/bench_order_check.py gives the figures)."""

from __future__ import annotations

from collections import Counter

import pytest
from fakes import apertium_translate, dictionary_translate, have_apertium
from fakes.fixtures import _no_real_credentials, clock, make, serve  # noqa: F401 (fixtures)

from sit.cache import Cache
from sit.cache.ops import stores
from sit.translators.answers import suspect_order

SENTENCES = ["NASA launched 3 rockets in 2019.", "The senator rejected the budget.", "Apple sold 1200 phones to Google."]
WORDS = ["dog", "cat", "the house", "bank"]


def _cached(cache_dir) -> dict[str, str]:
    return {k: v for store in stores(Cache(cache_dir), "translations") for k, v in store.items()}


def _swap_dog_and_cat(texts, source, target):
    """A provider that gives "dog" the answer of "cat" and "cat" that of "dog" whenever both are
    in one request (wherever they stand), the rest as it should."""
    out = dictionary_translate(texts, source, target)
    if "dog" in texts and "cat" in texts:
        i, j = texts.index("dog"), texts.index("cat")
        out[i], out[j] = out[j], out[i]
    return out


@pytest.mark.parametrize("texts", [SENTENCES + WORDS, WORDS, ["dog", "cat"], ["The senator rejected the budget.", "dog", "cat"]],
                         ids=["mixed", "words", "two words", "one sentence"])
@pytest.mark.parametrize("size", [2, 4, 9])
def test_a_provider_that_swaps_two_short_texts_gets_nothing_wrong_cached(serve, texts, size, clock, tmp_path):
    """Before, texts of fewer than three words took no part in the check or the second look:
    "dog" and "cat" swapped in one request were cached as each other's ("gato" for "dog")."""
    truth = dictionary_translate(texts, "en", "es")
    fake = serve("google", translate=_swap_dog_and_cat)
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=size)
    assert tr.translate(texts) == truth
    cached = _cached(tmp_path / "c")
    assert cached == dict(zip(texts, truth))  # every text cached, and each with its own answer
    again = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=size)
    assert again.translate(texts) == truth and again.stats.cache_hits == len(texts)


@pytest.mark.parametrize("texts", [SENTENCES + WORDS, WORDS], ids=["mixed", "words"])
def test_a_clean_provider_asks_short_texts_again_once_at_most(serve, texts, clock, tmp_path):
    """Short texts are confirmed in other company: no text is sent more than twice, none is asked
    alone, and everything is cached."""
    truth = dictionary_translate(texts, "en", "es")
    fake = serve("deepl")
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=len(texts))
    assert tr.translate(texts) == truth
    sent = Counter(t for c in fake.calls for t in c.texts)
    assert max(sent.values()) == 2 and sum(n == 2 for n in sent.values()) <= len(WORDS)
    assert tr.order_reasks == 0 and not tr.order_broken and len(_cached(tmp_path / "c")) == len(texts)


# three news sentences (each fourth line of datasets/news.txt from the first, as the adapter deals
# 200 lines to four requests of 50) whose Apertium answers, turned round, the check does not doubt
TURNS = {
    0: ("Authorities have charged three people in connection with a string of burglaries that targeted jewelry "
        "stores across the region last year.",
        "The streaming platform said it would start charging users an extra fee for sharing passwords with people "
        "outside their household.",
        "Advocates for people with disabilities said the new regulations did not go far enough to ensure access to "
        "public transportation."),
    2: ("Bird flu has been detected on dairy farms in at least nine states, prompting new federal restrictions on "
        "the movement of cattle.",
        "The two countries agreed to restore full diplomatic relations, ending a six-year rift that began over a "
        "disputed border crossing.",
        "The drought has left reservoirs at less than a third of their capacity, forcing officials to impose water "
        "restrictions in three provinces."),
}


def _news_request(first: int) -> list[str]:
    from sit.inputs import dataset_path

    lines = [line.strip() for line in dataset_path("news").read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines[first::4]


def _turner(three):
    """A provider that, wherever the three texts share a request, gives each the next one's answer."""
    def translate(texts, source, target):
        out = apertium_translate(texts, source, target)
        if all(t in texts for t in three):
            at = [texts.index(t) for t in three]
            moved = [out[at[1]], out[at[2]], out[at[0]]]
            for i, answer in zip(at, moved):
                out[i] = answer
        return out
    return translate


@pytest.mark.skipif(not have_apertium(), reason="needs Apertium eng-spa")
@pytest.mark.parametrize("first", list(TURNS))
def test_a_provider_that_turns_three_answers_round_gets_nothing_wrong_cached(serve, first, clock, tmp_path):
    texts, three = _news_request(first), TURNS[first]
    truth = apertium_translate(texts, "en", "es")
    turned = _turner(three)(texts, "en", "es")
    assert suspect_order(texts, turned) is None  # the check of the batch does not see the turn
    at = [texts.index(t) for t in three]
    for a, b in ((0, 1), (1, 2), (0, 2)):  # but it sees any two of them swapped
        swapped = list(truth)
        swapped[at[a]], swapped[at[b]] = truth[at[b]], truth[at[a]]
        assert suspect_order(texts, swapped) is not None
    fake = serve("deepl", translate=_turner(three))
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=len(texts))
    assert tr.translate(texts) == truth
    assert _cached(tmp_path / "c") == dict(zip(texts, truth))
    # the three were asked again apart and came back changed: asked alone, the answers showed the move
    assert tr.order_broken and all(sum(c.texts == [t] for c in fake.calls) == 1 for t in three)


NUMBERED = ["Route 66", "Room 101", "Gate 7"]


def _swap_routes(texts, source, target):
    out = dictionary_translate(texts, source, target)
    if {"Route 66", "Room 101"} <= set(texts):
        i, j = texts.index("Route 66"), texts.index("Room 101")
        out[i], out[j] = out[j], out[i]
    return out


def test_short_texts_told_apart_by_their_numbers_are_not_asked_again_and_their_swap_is_doubted(serve, clock, tmp_path):
    """What translation keeps (digits, tokens) is read on short texts too: clean answers that it
    places are cached at once, and two of them swapped make the batch doubted and asked alone."""
    truth = dictionary_translate(NUMBERED, "en", "es")
    clean = serve("deepl")
    assert make(clean, clock=clock, batch_size=3).translate(NUMBERED) == truth
    assert [c.texts for c in clean.calls] == [NUMBERED]
    fake = serve("deepl", translate=_swap_routes)
    tr = make(fake, clock=clock, cache=Cache(tmp_path / "c"), batch_size=3)
    assert tr.translate(NUMBERED) == truth and _cached(tmp_path / "c") == dict(zip(NUMBERED, truth))
    assert tr.order_reasks == 1 and tr.order_broken and [c.texts for c in fake.calls[1:]] == [[t] for t in NUMBERED]
