"""The word-level diff behind the report's highlights."""

import pytest

from sit.report.diff import edit_spans, segments, tokenize, word_diff


def _words(text, spans):
    return [text[s:e] for s, e in spans]


@pytest.mark.parametrize(
    "a, b, removed, added",
    [
        ("El gato come pescado.", "El perro come pescado.", ["gato"], ["perro"]),
        ("El gato come pescado.", "El gato come pescado rápido.", [], ["rápido"]),
        ("El gato negro come.", "El gato come.", ["negro"], []),
        ("same text", "same   text", [], []),  # whitespace alone is no difference
        ("a b c d", "a x y d", ["b c"], ["x y"]),  # adjacent changed words merge into one span
        ("Hello, world!", "Hello; world!", [","], [";"]),  # punctuation is a word of its own
        ("我爱北京", "我爱上海", ["北京"], ["上海"]),  # CJK: one word per character
        ("東京に行きます", "大阪に行きます", ["東京"], ["大阪"]),
        ("مرحبا بالعالم", "مرحبا بالجميع", ["بالعالم"], ["بالجميع"]),  # right-to-left
        ("हिन्दी भाषा", "हिन्दी बोली", ["भाषा"], ["बोली"]),  # combining vowel signs stay in the word
        ("", "new words", [], ["new words"]),
        ("old words", "", ["old words"], []),
    ],
)
def test_word_diff(a, b, removed, added):
    diff = word_diff(a, b)
    assert _words(a, diff.a) == removed
    assert _words(b, diff.b) == added
    assert diff.changed == bool(removed or added)


def test_tokenize_keeps_spans_and_splits_cjk():
    text = "Hi 你好, José!"
    tokens = tokenize(text)
    assert [t.text for t in tokens] == ["Hi", "你", "好", ",", "José", "!"]
    assert all(text[t.start:t.end] == t.text for t in tokens)


@pytest.mark.parametrize(
    "original, perturbed, before, after, start, end, want_a, want_b",
    [
        # offsets known and consistent: used as they are
        ("The cat sat.", "The dog sat.", "cat", "dog", 4, 7, ["cat"], ["dog"]),
        # the same word twice: the offset picks the right occurrence
        ("a cat saw a cat", "a cat saw a dog", "cat", "dog", 12, 15, ["cat"], ["dog"]),
        # unknown offsets: fall back to the diff
        ("The cat sat.", "The dog sat.", "cat", "dog", -1, -1, ["cat"], ["dog"]),
        # inconsistent offsets (text there is not `after`): fall back to the diff
        ("The cat sat.", "The dog sat.", "cat", "dog", 0, 3, ["cat"], ["dog"]),
        # a longer replacement
        ("The cat sat.", "The big dog sat.", "cat", "big dog", 4, 11, ["cat"], ["big dog"]),
    ],
)
def test_edit_spans(original, perturbed, before, after, start, end, want_a, want_b):
    spans = edit_spans(original, perturbed, before, after, start, end)
    assert _words(original, spans.a) == want_a
    assert _words(perturbed, spans.b) == want_b
    if start == 12:
        assert spans.a == [(12, 15)] and spans.b == [(12, 15)]


@pytest.mark.parametrize(
    "text, spans, want",
    [
        ("abcdef", [(1, 3)], [("a", False), ("bc", True), ("def", False)]),
        ("abcdef", [], [("abcdef", False)]),
        ("abcdef", [(0, 6)], [("abcdef", True)]),
        ("abcdef", [(4, 5), (0, 1)], [("a", True), ("bcd", False), ("e", True), ("f", False)]),
        ("abc", [(1, 99)], [("a", False), ("bc", True)]),  # clipped to the text
        ("abc", [(0, 2), (1, 3)], [("ab", True), ("c", True)]),  # overlaps do not repeat text
    ],
)
def test_segments(text, spans, want):
    got = segments(text, spans)
    assert got == want
    assert "".join(piece for piece, _ in got) == text
