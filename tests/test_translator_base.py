"""The Translator face with a fake backend: batching, de-duplication, cache, resume."""

import pytest

from sit.cache import Cache
from sit.errors import ResponseMismatchError, TranslationError
from sit.translators.base import Translator


class Upper(Translator):
    """Translates by upper-casing; can fail on a chosen call or return the wrong count."""

    name = "upper"

    def __init__(self, *, fail_on_call=None, drop_one=False, **kw):
        super().__init__(**kw)
        self.sent: list[list[str]] = []
        self.fail_on_call = fail_on_call
        self.drop_one = drop_one

    def _translate_batch(self, texts):
        self.sent.append(list(texts))
        if self.fail_on_call == len(self.sent):
            raise TranslationError("quota exceeded", translator=self.name)
        out = [t.upper() for t in texts]
        return out[:-1] if self.drop_one else out


def test_batches_dedupes_and_keeps_order(tmp_path):
    t = Upper(cache=Cache(tmp_path), batch_size=2)
    out = t.translate(["a", "b", "a", "", "c", "  "])
    assert out == ["A", "B", "A", "", "C", "  "]
    assert t.sent == [["a", "b"], ["c"]]  # blank texts never reach the backend
    assert t.stats.calls == 2 and t.stats.translated == 3


def test_rerun_makes_no_call(tmp_path):
    Upper(cache=Cache(tmp_path)).translate(["x", "y"])
    t = Upper(cache=Cache(tmp_path))
    assert t.translate(["y", "x"]) == ["Y", "X"]
    assert t.sent == [] and t.stats.cache_hits == 2


def test_failure_half_way_keeps_finished_batches_and_resumes(tmp_path):
    texts = [f"s{i}" for i in range(10)]
    t = Upper(cache=Cache(tmp_path), batch_size=3, fail_on_call=3)
    out = t.translate(texts, strict=False)
    assert out[:6] == [s.upper() for s in texts[:6]] and out[6:] == [None] * 4
    assert t.stats.failed == 4 and "quota" in t.stats.errors[0]
    again = Upper(cache=Cache(tmp_path), batch_size=3)
    assert again.translate(texts) == [s.upper() for s in texts]
    assert again.sent == [["s6", "s7", "s8"], ["s9"]], "only the untranslated texts are sent again"


def test_strict_failure_raises_after_caching(tmp_path):
    t = Upper(cache=Cache(tmp_path), batch_size=1, fail_on_call=2)
    with pytest.raises(TranslationError):
        t.translate(["a", "b"])
    assert Cache(tmp_path).store("translations", t.signature()).get("a") == "A"


def test_count_mismatch_is_an_error_naming_adapter_and_batch(tmp_path):
    t = Upper(cache=Cache(tmp_path), drop_one=True, batch_size=2)
    with pytest.raises(ResponseMismatchError, match=r"upper: batch 1 of 2 sent 2 text\(s\) and got 1"):
        t.translate(["a", "b", "c"])


class SplitsInside(Upper):
    """Splits each batch into two requests, like the cloud adapters, and fails on the second."""

    def _translate_batch(self, texts):
        half = len(texts) // 2
        first = [t.upper() for t in texts[:half]]
        exc = TranslationError("503 on the second request", translator=self.name)
        exc.partial.update(zip(texts[:half], first))
        raise exc


def test_partial_batch_results_are_cached_and_returned(tmp_path):
    t = SplitsInside(cache=Cache(tmp_path), batch_size=4)
    out = t.translate(["a", "b", "c", "d"], strict=False)
    assert out == ["A", "B", None, None]
    assert t.stats.translated == 2 and t.stats.failed == 2
    again = Upper(cache=Cache(tmp_path), batch_size=4)
    again.translate(["a", "b", "c", "d"])
    assert again.sent == [["c", "d"]]


class DropsOnCall(Upper):
    """Answers one translation too few on a chosen call."""

    def __init__(self, *, drop_on_call, **kw):
        super().__init__(**kw)
        self.drop_on_call = drop_on_call

    def _translate_batch(self, texts):
        out = super()._translate_batch(texts)
        return out[:-1] if self.drop_on_call == len(self.sent) else out


def test_count_mismatch_under_strict_false_leaves_texts_untranslated(tmp_path):
    """A batch answered with fewer translations than sent is an error like any other: with
    strict=False it leaves its texts (and those after it) untranslated instead of aborting."""
    t = DropsOnCall(cache=Cache(tmp_path), batch_size=2, drop_on_call=2)
    out = t.translate(["a", "b", "c", "d", "e"], strict=False)
    assert out == ["A", "B", None, None, None]
    assert t.stats.failed == 3 and t.stats.translated == 2
    assert "batch 2 of 3 sent 2 text(s) and got 1" in t.stats.errors[0]
    again = Upper(cache=Cache(tmp_path), batch_size=2)
    assert again.translate(["a", "b", "c", "d", "e"]) == ["A", "B", "C", "D", "E"]
    assert again.sent == [["c", "d"], ["e"]]


def test_a_non_text_translation_is_refused(tmp_path):
    class Numbers(Upper):
        def _translate_batch(self, texts):
            return [1 for _ in texts]

    t = Numbers(cache=Cache(tmp_path))
    assert t.translate(["a"], strict=False) == [None]
    assert t.stats.failed == 1 and len(Cache(tmp_path).store("translations", t.signature())) == 0
