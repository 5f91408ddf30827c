"""The gemba-mqm judge through real HTTP against a fake OpenAI-compatible endpoint that checks each
request as the chat completions API documents it, and answers as an MQM annotator would, in the
format of the GEMBA-MQM paper (errors included)."""

from __future__ import annotations

import random
import re

import pytest
from fakes import AUTH, Fault, rate
from fakes.fixtures import FakeClock, _no_real_credentials  # noqa: F401 (fixtures)
from fakes.llm import FakeOpenAI

from sit.cache import Cache
from sit.errors import AuthError, ConfigError, TranslationError
from sit.judge import DEFAULT_JUDGE, JUDGES, get_judge, judge_options
from sit.judge.gemba import EXAMPLES, SYSTEM, parse_annotation, untrusted

MODEL = "qwen2.5:7b"
SOURCE = "The senator rejected the budget of 45 million dollars."
GOOD = "El senador rechazó el presupuesto de 45 millones de dólares."
BAD = "El senador aprobó el presupuesto de 45 millones de dólares."  # "aprobó": approved, a mistranslation
MINOR = "El senador rechazó el presupuesto de 45 millones de dolares."  # a spelling slip
_BLOCKS = re.compile(r"source:\n```(.*?)```\n\w.*? translation:\n```(.*?)```", re.S)


def annotate(source: str, translation: str) -> str:
    """What the fake annotator says of one translation: a major mistranslation for "aprobó", a
    minor spelling error for "dolares", else no error; in GEMBA-MQM's answer format."""
    major = ['accuracy/mistranslation - "aprobó"'] if "aprobó" in translation else ["no-error"]
    minor = ['fluency/spelling - "dolares"'] if "dolares" in translation else ["no-error"]
    return "\n".join(["Critical:", "no-error", "Major:", *major, "Minor:", *minor])


class FakeAnnotator(FakeOpenAI):
    """The chat fake, answering the judge's last user message (the source and the translation in
    triple backticks) with :func:`annotate`; ``garbage`` answers prose without any severity."""

    def __init__(self, **kw):
        super().__init__(translate=lambda texts, s, t: [self.answer(x) for x in texts], **kw)

    def check(self, call):
        reply = super().check(call)
        messages = getattr(call, "json", {}).get("messages") or [{}]
        call.texts = [messages[-1].get("content", "")]
        if [m["role"] for m in messages] != ["system"] + ["user", "assistant"] * 3 + ["user"]:
            self.problem(call, "not the GEMBA-MQM conversation (system, three examples, the question)")
        return reply

    @staticmethod
    def answer(prompt: str) -> str:
        found = _BLOCKS.search(prompt)
        return annotate(found.group(1), found.group(2)) if found else "I cannot read the prompt."

    def broken_reply(self, call, translations, kind):
        if kind == "short":  # an answer that is no annotation
            return self._answer("The translation looks fine to me overall.")
        return super().broken_reply(call, translations, kind)


def gemba(fake: FakeAnnotator, **kw):
    clock = FakeClock()
    kw.setdefault("model", MODEL)
    return get_judge("gemba-mqm", source_lang="en", target_lang="es", env=fake.env(), clock=clock,
                     sleep=clock.sleep, rng=random.Random(0), **kw)


@pytest.fixture
def annotator():
    def start(**kw) -> FakeAnnotator:
        fake = FakeAnnotator(**kw).start()
        started.append(fake)
        return fake

    started: list[FakeAnnotator] = []
    yield start
    for fake in started:
        fake.stop()
    problems = [p for fake in started for p in fake.problems]
    assert not problems, "requests the real API would refuse:\n" + "\n".join(problems)


def test_the_worse_translation_by_mqm_score_with_its_span(annotator, tmp_path):
    fake = annotator()
    with gemba(fake, cache=Cache(tmp_path / "c")) as judge:
        verdicts = judge.judge([(SOURCE, GOOD, BAD), (SOURCE, BAD, GOOD), (SOURCE, MINOR, BAD), (SOURCE, GOOD, MINOR)])
    assert [v.worse for v in verdicts] == ["b", "a", "b", "b"]
    assert (verdicts[0].score_a, verdicts[0].score_b) == (0.0, -5.0)
    assert (verdicts[2].score_a, verdicts[2].score_b) == (-1.0, -5.0)
    assert verdicts[0].span_text == "aprobó" and BAD[slice(*verdicts[0].span)] == "aprobó"
    assert verdicts[3].span_text == "dolares"
    assert len(fake.calls) == 3  # one request per distinct translation of the source
    call = fake.calls[0]
    assert call.headers["authorization"].startswith("Bearer ") and call.json["model"] == MODEL
    assert call.json["messages"][0]["content"] == SYSTEM
    assert call.json["messages"][2]["content"] == EXAMPLES[0]["answer"]
    assert "English source:\n```" + SOURCE + "```" in call.json["messages"][-1]["content"]
    assert "Spanish translation:" in call.json["messages"][-1]["content"]


def test_verdicts_are_cached_and_identical_outputs_ask_nothing(annotator, tmp_path):
    fake = annotator()
    with gemba(fake, cache=Cache(tmp_path / "c")) as judge:
        first = judge.judge([(SOURCE, GOOD, BAD)])
    with gemba(fake, cache=Cache(tmp_path / "c")) as judge:
        again = judge.judge([(SOURCE, GOOD, BAD), (SOURCE, GOOD, GOOD)])
        assert judge.stats.cache_hits == 1 and judge.stats.computed == 0
    assert again[0] == first[0] and again[1].worse == "tie" and again[1].reason == "identical"
    assert len(fake.calls) == 2  # the first judge's two translations, nothing after


def test_an_answer_that_is_no_annotation_is_asked_again_then_fails_uncached(annotator, tmp_path):
    fake = annotator()
    fake.script(Fault("short"), Fault("short"), Fault("short"), Fault("short"), Fault("short"), Fault("short"))
    with gemba(fake, cache=Cache(tmp_path / "c")) as judge:
        with pytest.raises(TranslationError, match="empty or refused"):
            judge.judge([(SOURCE, GOOD, BAD)])
    fake.heal()
    with gemba(fake, cache=Cache(tmp_path / "c")) as judge:
        assert judge.judge([(SOURCE, GOOD, BAD)])[0].worse == "b"
        assert judge.stats.cache_hits == 0  # nothing of the failed batch was cached


def test_rate_limits_are_retried_and_a_wrong_key_is_not(annotator):
    fake = annotator()
    fake.script(rate("2"))
    with gemba(fake) as judge:
        assert judge.judge([(SOURCE, BAD, GOOD)])[0].worse == "a"
    assert [c.status for c in fake.calls][:2] == [429, 200]
    wrong = annotator()
    wrong.script(AUTH)
    with gemba(wrong) as judge:
        with pytest.raises(AuthError, match="HTTP 401"):
            judge.judge([(SOURCE, BAD, GOOD)])
    assert len(wrong.calls) == 1


def test_off_by_default_and_a_model_is_required(annotator):
    assert DEFAULT_JUDGE == "use" and "gemba-mqm" in JUDGES.names()
    with pytest.raises(ConfigError, match="needs a model"):
        gemba(annotator(), model=None)
    with pytest.raises(ConfigError, match="has no option 'beam'"):
        judge_options("gemba-mqm", {"beam": 4})


def test_the_paper_s_answers_parse_to_its_scores():
    # en-de: 2 major + 2 minor; en-cs: 2 major + 1 minor; zh-en: 1 critical + 1 major + 1 minor, capped at 25
    for example, score in zip(EXAMPLES, (-12.0, -11.0, -25.0)):
        assert parse_annotation(example["answer"]).score == score
    assert parse_annotation("Critical:\nno-error\nMajor:\nno-error\nMinor:\nno-error").score == 0.0
    assert parse_annotation('Major:\nnon-translation - "all of it"').score == -25.0  # counted as critical
    assert parse_annotation("The translation is good.") is None


REFUSAL = "Critical:\nI'm sorry, but I can't assist with that request."


def _about_another_line(source: str, translation: str) -> str:
    """An annotation of another translation: it quotes words this one does not contain."""
    return 'Critical:\nno-error\nMajor:\naccuracy/mistranslation - "rechazó la ley de aguas"\nMinor:\nno-error'


@pytest.mark.parametrize("answer", [lambda s, t: REFUSAL, _about_another_line], ids=["refusal", "another line"])
def test_an_annotation_not_to_trust_is_asked_again_then_fails_and_nothing_is_cached(annotator, answer, tmp_path,
                                                                                     monkeypatch):
    """A refusal under a severity heading scored a critical error, and an annotation of another
    line was taken; both were cached and outlived the endpoint's recovery."""
    fake = annotator()
    monkeypatch.setattr(fake, "answer", lambda prompt: answer(*_BLOCKS.search(prompt).groups()))
    with gemba(fake, cache=Cache(tmp_path / "c")) as judge:
        with pytest.raises(TranslationError, match="empty or refused"):
            judge.judge([(SOURCE, GOOD, BAD)])
    assert len(fake.calls) > 2  # asked again
    monkeypatch.setattr(fake, "answer", FakeAnnotator.answer)  # the endpoint recovers
    with gemba(fake, cache=Cache(tmp_path / "c")) as judge:
        verdict = judge.judge([(SOURCE, GOOD, BAD)])[0]
        assert judge.stats.cache_hits == 0  # nothing of the untrusted answers was cached
    assert (verdict.worse, verdict.score_a, verdict.score_b) == ("b", 0.0, -5.0)


def test_the_paper_s_own_answers_are_trusted_and_words_of_neither_text_are_not():
    for example in EXAMPLES:  # "ve Vídni" quotes "Ve Vídni": case aside; "the account holder" is the source's
        assert untrusted(example["answer"], example["source"], example["translation"]) is None
    assert "no category" in untrusted(REFUSAL, SOURCE, BAD)
    assert "neither" in untrusted(_about_another_line(SOURCE, BAD), SOURCE, BAD)
    assert untrusted(annotate(SOURCE, BAD), SOURCE, BAD) is None


def test_sit_judge_exits_with_one_error_line_on_a_refusal_and_caches_nothing(annotator, tmp_path, monkeypatch, capsys):
    from sit.cli import main

    fake = annotator()
    monkeypatch.setattr(fake, "answer", lambda prompt: REFUSAL)
    for var, value in fake.env().items():
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("SIT_HTTP_BACKOFF", "0.01")
    for name, text in (("src", SOURCE), ("a", GOOD), ("b", BAD)):
        (tmp_path / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
    args = ["judge", "--source", str(tmp_path / "src.txt"), "--a", str(tmp_path / "a.txt"), "--b", str(tmp_path / "b.txt"),
            "--judge", "gemba-mqm", "--judge-option", f"model={MODEL}", "--cache-dir", str(tmp_path / "c"),
            "-o", str(tmp_path / "v.jsonl")]
    assert main(args) != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "error:" in err and not (tmp_path / "v.jsonl").exists()
    monkeypatch.setattr(fake, "answer", FakeAnnotator.answer)  # recovered: judged afresh, b the worse
    assert main(args) == 0 and '"worse": "b"' in (tmp_path / "v.jsonl").read_text(encoding="utf-8")
