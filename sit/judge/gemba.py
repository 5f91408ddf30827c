"""The LLM judge: GEMBA-MQM (Kocmi and Federmann, "GEMBA-MQM: Detecting Translation Quality Error
Spans with GPT-4", WMT 2023, arXiv:2310.13988) through any OpenAI-compatible chat endpoint.

Each translation is annotated on its own with the paper's prompt (a system message, three
annotated examples, then the source and the translation): the model lists its errors as
critical, major or minor, with the erroneous words in quotes. Its MQM score is minus the sum of
25 per critical, 5 per major and 1 per minor error (at most five errors counted, at most 25, as
the paper scores); the translation with the lower score is the worse one, and its first quoted
error is the span. Off by default: only ``--judge gemba-mqm`` asks the endpoint.

The HTTP machinery, credentials (``SIT_OPENAI_API_KEY``/``OPENAI_API_KEY``,
``SIT_OPENAI_BASE_URL``/``OPENAI_BASE_URL``, ``[openai]`` in the credentials file), retries and
error messages are the ``openai`` translator's (:mod:`sit.translators.openai_chat`); verdicts
are cached like translations. An answer with no severity heading is no annotation, and one not to
trust (:func:`untrusted`: a refusal under a heading, words quoted from neither text) is none
either: it is asked again, then the batch fails and nothing of it is cached.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass
from typing import Any, Optional

from ..options import Option
from ..errors import ConfigError
from ..translators.openai_chat import OpenAITranslator, language_name
from .base import Judge, Verdict, decide

log = logging.getLogger("sit.judge")

SYSTEM = ("You are an annotator for the quality of machine translation. Your task is to identify errors and "
          "assess the quality of the translation.")
TEMPLATE = (
    "{source_lang} source:\n```{source}```\n{target_lang} translation:\n```{translation}```\n\n"
    "Based on the source segment and machine translation surrounded with triple backticks, identify error types "
    "in the translation and classify them. The categories of errors are: accuracy (addition, mistranslation, "
    "omission, untranslated text), fluency (character encoding, grammar, inconsistency, punctuation, register, "
    "spelling), style (awkward), terminology (inappropriate for context, inconsistent use), non-translation, "
    "other, or no-error.\nEach error is classified as one of three categories: critical, major, and minor. "
    "Critical errors inhibit comprehension of the text. Major errors disrupt the flow, but what the text is "
    "trying to say is still understandable. Minor errors are technically errors, but do not disrupt the flow or "
    "hinder comprehension."
)
#: the paper's three annotated examples (en-de, en-cs, zh-en)
EXAMPLES = (
    {"source_lang": "English", "target_lang": "German",
     "source": "I do apologise about this, we must gain permission from the account holder to discuss an order "
               "with another person, I apologise if this was done previously, however, I would not be able to "
               "discuss this with yourself without the account holders permission.",
     "translation": "Ich entschuldige mich dafür, wir müssen die Erlaubnis einholen, um eine Bestellung mit einer "
                    "anderen Person zu besprechen. Ich entschuldige mich, falls dies zuvor geschehen wäre, aber "
                    "ohne die Erlaubnis des Kontoinhabers wäre ich nicht in der Lage, dies mit dir involvement.",
     "answer": 'Critical:\nno-error\nMajor:\naccuracy/mistranslation - "involvement"\naccuracy/omission - '
               '"the account holder"\nMinor:\nfluency/grammar - "wäre"\nfluency/register - "dir"\n'},
    {"source_lang": "English", "target_lang": "Czech",
     "source": "Talks have resumed in Vienna to try to revive the nuclear pact, with both sides trying to gauge "
               "the prospects of success after the latest exchanges in the stop-start negotiations.",
     "translation": "Ve Vídni se ve Vídni obnovily rozhovory o oživení jaderného paktu, přičemž obě partaje se "
                    "snaží posoudit vyhlídky na úspěch po posledních výměnách v jednáních.",
     "answer": 'Critical:\nno-error\nMajor:\naccuracy/addition - "ve Vídni"\naccuracy/omission - "the stop-start"'
               '\nMinor:\nterminology/inappropriate for context - "partaje"\n'},
    {"source_lang": "Chinese", "target_lang": "English",
     "source": "大众点评乌鲁木齐家居卖场频道为您提供高铁居然之家地址，电话，营业时间等最新商户信息，找装修公司，就上大众点评",
     "translation": "Urumqi Home Furnishing Store Channel provides you with the latest business information such "
                    "as the address, telephone number, business hours, etc., of high-speed rail, and find a "
                    "decoration company, and go to the reviews.",
     "answer": 'Critical:\naccuracy/addition - "of high-speed rail"\nMajor:\naccuracy/mistranslation - "go to the '
               'reviews"\nMinor:\nstyle/awkward - "etc.,"\n'},
)
WEIGHTS = {"critical": 25, "major": 5, "minor": 1}
#: the paper counts at most this many errors and caps the penalty at 25
MAX_ERRORS, MAX_PENALTY = 5, 25
_HEADING = re.compile(r"^\s*\**\s*(critical|major|minor)\s*\**\s*:\s*\**\s*(.*)$", re.I)
_QUOTED = re.compile(r"[\"“„«](.+?)[\"”“»]")


@dataclass(frozen=True)
class MqmError:
    """One error of an annotation: its severity, its category line and the quoted words."""

    severity: str
    category: str
    span: str


@dataclass(frozen=True)
class Annotation:
    """A model's MQM annotation of one translation and its score (minus the penalty)."""

    errors: tuple[MqmError, ...]

    @property
    def score(self) -> float:
        counted = self.errors[:MAX_ERRORS]
        return -float(min(MAX_PENALTY, sum(WEIGHTS[e.severity] for e in counted)))


def parse_annotation(answer: str) -> Optional[Annotation]:
    """The errors a GEMBA-MQM answer lists (None where it has no severity heading: no annotation).
    A non-translation error counts as critical, as in the paper; "no-error" lines list nothing."""
    level, errors, headed = None, [], False
    for line in answer.splitlines():
        heading = _HEADING.match(line)
        if heading:
            level, headed, line = heading.group(1).lower(), True, heading.group(2)
        text = line.strip().lstrip("-*• ").strip()
        if not text or level is None or re.fullmatch(r"no[- ]?errors?\.?", text, re.I):
            continue
        category = text.split(" - ")[0].strip().lower()
        quoted = _QUOTED.search(text)
        errors.append(MqmError("critical" if "non-translation" in category else level, category,
                               quoted.group(1) if quoted else ""))
    order = {"critical": 0, "major": 1, "minor": 2}
    return Annotation(tuple(sorted(errors, key=lambda e: order[e.severity]))) if headed else None


#: the error categories of the prompt (the part before "/"): a line under a severity heading that
#: names none of them ("I'm sorry, but I can't assist ...") is no annotation
CATEGORIES = ("accuracy", "fluency", "style", "terminology", "non-translation", "other", "locale convention",
              "source error")


def _folded(text: str) -> str:
    return " ".join(text.casefold().split())


def untrusted(answer: str, source: str, translation: str) -> Optional[str]:
    """Why an annotation of ``translation`` (of ``source``) is not to be trusted (None: it may be):
    no severity heading, an error line that names no category of the prompt (a refusal written
    under a heading, scored as an error on every line), or quoted words that are in neither text
    (an answer about another line). Case and spacing aside, as the paper's own examples quote."""
    annotation = parse_annotation(answer)
    if annotation is None:
        return "no severity heading"
    for error in annotation.errors:
        if error.category.split("/")[0].strip() not in CATEGORIES:
            return f"an error line names no category of the prompt ({error.category[:40]!r})"
        if error.span and _folded(error.span) not in _folded(translation) and _folded(error.span) not in _folded(source):
            return f"it quotes words that are in neither the source nor the translation ({error.span[:40]!r})"
    return None


class MqmChat(OpenAITranslator):
    """The chat client of the judge: one request per (source, translation) prompt, the paper's
    messages, the answer kept whole where it parses as an annotation."""

    def messages(self, texts: list[str]) -> list[dict[str, str]]:
        shots = []
        for example in EXAMPLES:
            shots += [{"role": "user", "content": TEMPLATE.format(**example)},
                      {"role": "assistant", "content": example["answer"]}]
        return [{"role": "system", "content": SYSTEM}, *shots, {"role": "user", "content": texts[0]}]

    def answer_text(self, content: str, text: str) -> Optional[str]:
        """The answer whole where it is an annotation to trust (:func:`untrusted`), else None: asked
        again, then the batch fails and nothing of it is cached."""
        found = self._blocks().fullmatch(text)
        why = untrusted(content, found.group("s"), found.group("t")) if found else "not the judge's prompt"
        if why:
            log.warning("%s: an annotation is not trusted (%s); asking again", self.name, why)
            return None
        return content.strip()

    def _blocks(self) -> "re.Pattern[str]":
        """The pattern of this judge's prompt, the source and the translation as groups ``s`` and
        ``t`` (the answer is read against the very texts it was asked about)."""
        marked = re.escape(self.prompt("\0S\0", "\0T\0"))
        return re.compile(marked.replace(re.escape("\0S\0"), "(?P<s>.*)").replace(re.escape("\0T\0"), "(?P<t>.*)"), re.S)

    def options(self) -> dict[str, Any]:
        prompt = json.dumps([SYSTEM, TEMPLATE, EXAMPLES], ensure_ascii=False)
        opts: dict[str, Any] = {"prompt": "gemba-mqm-" + hashlib.sha256(prompt.encode("utf-8")).hexdigest()[:12],
                                "temperature": self.temperature}
        if self.max_tokens:
            opts["max_tokens"] = self.max_tokens
        return opts

    def prompt(self, source: str, translation: str) -> str:
        return TEMPLATE.format(source_lang=language_name(self.source_lang), target_lang=language_name(self.target_lang),
                               source=source, translation=translation)


class GembaJudge(Judge):
    """GEMBA-MQM through an OpenAI-compatible endpoint (see the module)."""

    name = "gemba-mqm"
    batch_size = 16
    option_specs = (Option("model", str, None, "the model the OpenAI-compatible endpoint serves"),
                    Option("temperature", float, None, "sampling temperature", minimum=0),
                    Option("max_tokens", int, None, "the longest answer, in tokens", minimum=1),
                    Option("timeout", float, None, "seconds per request"),
                    Option("qps", float, None, "requests per second"),
                    Option("concurrency", int, None, "requests in flight", minimum=1))

    def __init__(self, source_lang: str = "en", target_lang: str = "es", *, model: Optional[str] = None,
                 cache=None, progress: bool = False, abstain: bool = True, **client: Any):
        super().__init__(source_lang, target_lang, cache=cache, progress=progress, abstain=abstain)
        if not model:
            raise ConfigError("the gemba-mqm judge needs a model: --judge-option model=NAME (the model your "
                              "OpenAI-compatible endpoint serves, e.g. gpt-4o)")
        self.client = MqmChat(source_lang, target_lang, model=model, **client)

    def model_id(self) -> str:
        return self.client.model_id()

    def version(self) -> str:
        return self.client.version()

    def options(self) -> dict[str, Any]:
        return self.client.options()

    def describe(self) -> str:
        return f"{self.name}: {self.client.model_id()} at {self.client!r}"

    def _judge_batch(self, triples: list[tuple[str, str, str]]) -> list[Verdict]:
        prompts = {(s, t): self.client.prompt(s, t) for s, a, b in triples for t in (a, b)}
        answers = dict(zip(prompts, self.client.translate(list(prompts.values()))))
        out = []
        for source, a, b in triples:
            ann_a, ann_b = (parse_annotation(answers[(source, t)]) for t in (a, b))
            worse = decide(ann_a.score, ann_b.score)
            span, text = None, ""
            if worse != "tie":
                bad, translation = (ann_a, a) if worse == "a" else (ann_b, b)
                text = next((e.span for e in bad.errors if e.span and e.span in translation), "")
                span = (translation.index(text), translation.index(text) + len(text)) if text else None
            out.append(Verdict(worse, ann_a.score, ann_b.score, span, text, judge=self.name, basis="mqm"))
        return out

    def close(self) -> None:
        self.client.close()
