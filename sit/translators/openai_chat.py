"""Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp server, LM Studio):
``POST {base_url}/chat/completions`` with ``Authorization: Bearer <key>`` and JSON
``{"model", "messages", "temperature"}``; the translation is ``choices[0].message.content``.

Credentials and endpoint: ``SIT_OPENAI_API_KEY`` (else ``OPENAI_API_KEY``; a local server may need
none) and ``SIT_OPENAI_BASE_URL`` (else ``OPENAI_BASE_URL``, else ``https://api.openai.com/v1``),
or ``api_key`` and ``endpoint`` (the base URL) under ``[openai]`` in the credentials file.
``--model`` is required.

A request carries one text with the prompt :data:`DEFAULT_PROMPT`, or with ``mode=batch`` up to
``batch_items`` texts as a JSON object of ids (``"1"``, ``"2"``...) to texts with
:data:`DEFAULT_BATCH_PROMPT`; the answer must be an object with exactly those ids (in any order:
each translation is placed by its id, so a reordered answer cannot put one text's translation
against another), else a numbered list ``1. ... 2. ...`` with exactly those numbers; an id given
twice refuses the answer. A model can still give an id another text's translation, so the
batch's answers also go through the order check of the APIs that prove no order
(:meth:`~sit.translators.http.HttpTranslator.ordered`).
``--translator-option prompt=FILE`` (and ``batch_prompt=FILE``) replace them with a file's text,
in which ``{source}``, ``{target}`` (language names), ``{text}`` (the text, or the JSON array of
texts) and ``{count}`` (how many texts) are filled in.
The prompt's hash, the model, the temperature and the mode key the cache and the run signature.

Answers are cleaned of what chat models wrap translations in (``<think>`` blocks, code fences,
"Here is the translation:", "Translation:", quotes, trailing notes). An empty or refused answer
(or ``finish_reason: content_filter``), or one that is not text (``[]``), leaves the text
untranslated, not cached. An answer cut off by ``finish_reason: length`` is never taken as a
translation: it is asked again (the shared answer check), then left untranslated; raise
``max_tokens``. In batch mode an answer that does not carry exactly the ids sent, each with a
string, is asked again one text at a time.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from pathlib import Path
from typing import Any, Optional

from ..options import Option
from ..errors import ConfigError, RateLimitError, ResponseMismatchError
from ..validate import check_number
from ..jsonio import JsonDamage, loads
from .http import Credential, HttpTranslator, response_json

log = logging.getLogger("sit.translators")

SYSTEM_PROMPT = "You are a professional translation engine."
DEFAULT_PROMPT = (
    "Translate the following {source} text into {target}. Answer with the translation only: "
    "no quotes, no notes, no explanations.\n\n{text}"
)
DEFAULT_BATCH_PROMPT = (
    "Translate each {source} value of the following JSON object into {target}. Answer with a JSON "
    "object with exactly the same {count} keys, each key's value the translation of that key's text, "
    "and nothing else.\n\n{text}"
)
MODES = ("single", "batch")

LANGUAGE_NAMES = {
    "ar": "Arabic", "ca": "Catalan", "cs": "Czech", "da": "Danish", "de": "German", "el": "Greek",
    "en": "English", "eo": "Esperanto", "es": "Spanish", "fa": "Persian", "fi": "Finnish", "fr": "French",
    "gl": "Galician", "he": "Hebrew", "hi": "Hindi", "hu": "Hungarian", "id": "Indonesian", "it": "Italian",
    "ja": "Japanese", "ko": "Korean", "nl": "Dutch", "no": "Norwegian", "pl": "Polish", "pt": "Portuguese",
    "ro": "Romanian", "ru": "Russian", "sv": "Swedish", "th": "Thai", "tr": "Turkish", "uk": "Ukrainian",
    "vi": "Vietnamese", "zh": "Chinese (Simplified)", "zh-CN": "Chinese (Simplified)",
    "zh-TW": "Chinese (Traditional)",
}

_THINK = re.compile(r"<think>.*?(</think>|$)", re.S | re.I)
_FENCE = re.compile(r"```[\w+-]*[ \t]*\n?(.*?)(```|$)", re.S)
_HEAD = re.compile(r"^(sure|certainly|of course|okay|ok|here(?:'s| is| are)|below is|the translation)\b|:\s*$", re.I)
_TAIL = re.compile(r"^\(?(note|notes|let me know|i hope|hope this|feel free|this translation|explanation)\b", re.I)
_LABEL = re.compile(r"^\**\s*(?:[\w ()-]{0,30} )?(?:translation|translated text)\s*:\s*\**\s*", re.I)
_REFUSAL = re.compile(r"^(i'?m sorry|i am sorry|sorry, |i cannot|i can'?t|i'm unable|i am unable|as an ai)\b", re.I)
_QUOTES = {'"': '"', "'": "'", "“": "”", "«": "»", "„": "“", "「": "」", "『": "』"}


def language_name(code: str) -> str:
    return LANGUAGE_NAMES.get(code, LANGUAGE_NAMES.get(code.split("-")[0], code))


def read_prompt(path: str, option: str) -> str:
    """The prompt in the file ``path`` (``--translator-option OPTION=PATH``); a ConfigError where
    it cannot be read or has no ``{text}``. The llm translator's ``prompt=FILE`` reads it too."""
    try:
        text = Path(path).expanduser().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"--translator-option {option}={path}: cannot read it "
                          f"({getattr(exc, 'strerror', None) or exc})") from None
    if "{text}" not in text:
        raise ConfigError(f"--translator-option {option}={path}: the prompt must contain {{text}}, where "
                          "the text to translate goes")
    return text


def clean_answer(answer: str, source: str) -> Optional[str]:
    """The translation in a chat model's ``answer`` to ``source``, or None (empty or refused)."""
    text = _THINK.sub("", answer).strip()
    fence = _FENCE.search(text)
    if fence:
        text = fence.group(1).strip()
    if "\n" not in source.strip():
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        while len(lines) > 1 and _HEAD.search(lines[0]):
            lines.pop(0)
        while len(lines) > 1 and _TAIL.search(lines[-1]):
            lines.pop()
        text = "\n".join(lines)
    text = _LABEL.sub("", text, count=1).strip()
    if len(text) >= 2 and _QUOTES.get(text[0]) == text[-1] and source.strip()[:1] != text[0]:
        text = text[1:-1].strip()
    if not text or (_REFUSAL.match(text) and not _REFUSAL.match(source.strip())):
        return None
    if text[0] in "[{" and text[-1] in "]}" and source.strip()[:1] not in ("[", "{") and _is_json(text):
        return None  # an empty list or an object: not a translation of a sentence
    return text


def _is_json(text: str) -> bool:
    try:
        loads(text, max_bytes=1 << 20)
    except JsonDamage:
        return False
    return True


def parse_list(answer: str, count: int) -> Optional[list[str]]:
    """``count`` strings from a batch answer, in the order of the ids ``"1"`` .. ``count``: a JSON
    object of those ids (in a code fence or not; keys in any order), else a numbered list
    ("1. ...", "2) ..."); None when the ids are not exactly those (an id given twice too: which of
    its values would be the text's?), or a value is not a string.
    A bare JSON array proves no alignment and is refused."""
    text = _THINK.sub("", answer).strip()
    fence = _FENCE.search(text)
    if fence:
        text = fence.group(1).strip()
    start, end = text.find("{"), text.rfind("}")
    if start >= 0 and end > start:
        try:
            items = loads(text[start:end + 1], max_bytes=1 << 22, unique_keys=True)
        except JsonDamage:
            items = None
        if isinstance(items, dict):
            ids = [str(n) for n in range(1, count + 1)]
            if sorted(items) != sorted(ids) or not all(isinstance(items[i], str) for i in ids):
                return None
            return [items[i] for i in ids]
    numbered = re.findall(r"^\s*(\d+)[.):]\s+(.*\S)", text, re.M)
    if [n for n, _ in numbered] == [str(n) for n in range(1, count + 1)]:
        return [t for _, t in numbered]
    return None


def batch_payload(texts: list[str]) -> str:
    """The texts of a batch as sit sends them: a JSON object of ids ``"1"``.. to texts."""
    return json.dumps({str(n): t for n, t in enumerate(texts, start=1)}, ensure_ascii=False, indent=0)


class OpenAITranslator(HttpTranslator):
    name = "openai"
    credentials_spec = (Credential("api_key", "SIT_OPENAI_API_KEY", required=False, fallbacks=("OPENAI_API_KEY",)),)
    default_endpoint = "https://api.openai.com/v1/chat/completions"
    default_batch_size = 32  # texts per cache write; requests carry one text each (or batch_items)
    default_timeout = 120.0  # a local model on a CPU takes its time
    max_items = 1
    accepts_model = True
    api_version = "chat-completions"
    option_specs = (Option("prompt", str, None, "a file holding the prompt"),
                    Option("temperature", float, 0.0, "sampling temperature", minimum=0),
                    Option("mode", str, "single", "single (a request per text) or batch (several texts a request)"),
                    Option("batch_items", int, 10, "texts per request in mode=batch", minimum=1),
                    Option("batch_prompt", str, None, "a file holding the prompt of mode=batch"),
                    Option("max_tokens", int, None, "the longest answer, in tokens", minimum=1))

    def __init__(self, source_lang: str = "en", target_lang: str = "es", *, prompt: Optional[str] = None,
                 temperature: float = 0.0, mode: str = "single", batch_items: int = 10,
                 batch_prompt: Optional[str] = None, max_tokens: Optional[int] = None, batch_size: Optional[int] = None, **kwargs):
        super().__init__(source_lang, target_lang, batch_size=batch_size, **kwargs)
        if not self.model:
            raise ConfigError("the openai translator needs --model: the model your endpoint serves "
                              "(e.g. gpt-4o-mini, or qwen2.5:7b on Ollama)")
        if mode not in MODES:
            raise ConfigError(f"--translator-option mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self.batch_independent = mode != "batch"  # in one request, the LLM reads the other texts too
        # ids place each answer, but a model can give an id another text's translation: the
        # order check reads batch answers too
        self.promises_order = mode == "batch"
        self.temperature = check_number(temperature, "--translator-option temperature", minimum=0)
        self.max_tokens = check_number(max_tokens, "--translator-option max_tokens", minimum=1, integer=True)
        items = check_number(batch_items, "--translator-option batch_items", minimum=2, integer=True)
        self.max_items = items if mode == "batch" else 1
        self.batch_size = max(batch_size or self.default_batch_size, self.max_items)
        self.template = read_prompt(prompt, "prompt") if prompt else DEFAULT_PROMPT
        self.batch_template = read_prompt(batch_prompt, "batch_prompt") if batch_prompt else DEFAULT_BATCH_PROMPT
        self.fallbacks = 0  # batch answers that did not parse, asked again one text at a time

    # -- configuration -------------------------------------------------------------------------
    def endpoint_vars(self) -> tuple[str, ...]:
        return ("SIT_OPENAI_BASE_URL", "OPENAI_BASE_URL")

    def endpoint_url(self, value: str) -> str:
        value = value.rstrip("/")
        return value if value.endswith("/chat/completions") else value + "/chat/completions"

    def options(self) -> dict[str, Any]:
        def digest(template: str) -> str:
            return hashlib.sha256(f"{SYSTEM_PROMPT}\n{template}".encode("utf-8")).hexdigest()[:12]

        opts: dict[str, Any] = {"prompt": digest(self.template), "temperature": self.temperature, "mode": self.mode}
        if self.mode == "batch":
            opts.update(batch_items=self.max_items, batch_prompt=digest(self.batch_template))
        if self.max_tokens:
            opts["max_tokens"] = self.max_tokens
        return opts

    # -- requests ------------------------------------------------------------------------------
    def prompt_for(self, texts: list[str]) -> str:
        single = len(texts) == 1
        text = texts[0] if single else batch_payload(texts)
        fill = {"{source}": language_name(self.source_lang), "{target}": language_name(self.target_lang),
                "{count}": str(len(texts))}
        out = self.template if single else self.batch_template
        for key, value in fill.items():
            out = out.replace(key, value)
        return out.replace("{text}", text)

    def messages(self, texts: list[str]) -> list[dict[str, str]]:
        """The chat messages of one request: the system prompt and the user's prompt."""
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": self.prompt_for(texts)}]

    def answer_text(self, content: str, text: str) -> Optional[str]:
        """What of a chat answer to one ``text`` is kept (:func:`clean_answer`: the translation)."""
        return clean_answer(content, text)

    def _build_request(self, texts: list[str]) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": self.messages(texts), "temperature": self.temperature}
        if self.max_tokens:
            body["max_tokens"] = self.max_tokens
        headers = {"Content-Type": "application/json"}
        if self.credential("api_key"):
            headers["Authorization"] = f"Bearer {self.credential('api_key')}"
        return {"headers": headers, "data": json.dumps(body, ensure_ascii=False).encode("utf-8")}

    def request(self, texts: list[str], check: bool = True) -> list[Optional[str]]:
        try:
            return super().request(texts, check=check)
        except ResponseMismatchError as exc:
            if len(texts) == 1:
                raise
            self.fallbacks += 1
            log.info("%s; asking again one text at a time", exc)
            return [super(OpenAITranslator, self).request([t])[0] for t in texts]

    def _parse_response(self, response, texts: list[str]) -> list[Optional[str]]:
        if response.status_code != 200:
            raise self._status_error(response, texts)
        body = self.json_body(response, texts)
        choices = body.get("choices") if isinstance(body, dict) else None
        choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
        message = choice.get("message") if isinstance(choice.get("message"), dict) else {}
        content = message.get("content")
        finish = choice.get("finish_reason")
        if finish == "content_filter":
            return [None] * len(texts)
        if content is None and not choice:
            raise self.mismatch(texts, "the answer has no choices[0].message")
        if content is not None and not isinstance(content, str):
            # not text ([] or an object): a failed answer of that text, asked again, never cached
            return [content] if len(texts) == 1 else self._batch_failed(texts, "is not a string")
        if finish == "length":  # cut off: whatever came is not the whole translation
            log.warning("%s: %s: the answer was cut off (finish_reason length); raise --translator-option "
                        "max_tokens", self.name, self.where(texts))
            return [""] * len(texts) if len(texts) == 1 else self._batch_failed(texts, "was cut off")
        if len(texts) == 1:
            return [self.answer_text(content or "", texts[0])]
        items = parse_list(content or "", len(texts))
        if items is None:
            raise self.mismatch(texts, f"the answer is not an object of the {len(texts)} ids sent, each with a translation")
        return [clean_answer(i, t) for i, t in zip(items, texts)]

    def _batch_failed(self, texts: list[str], why: str):
        raise self.mismatch(texts, f"choices[0].message.content {why}")

    def _status_error(self, response, texts: list[str]):
        code, message = None, response.reason or ""
        try:
            err = response_json(response).get("error") or {}
            code, message = err.get("code") or err.get("type"), str(err.get("message", message))
        except (ValueError, AttributeError):
            pass
        if response.status_code == 429 and code == "insufficient_quota":
            return self.error(RateLimitError, f"{self.where(texts)}: HTTP 429 (insufficient_quota): {message}; "
                              "add credit to the account, then run the same command again to resume",
                              status=429, code=code)
        if response.status_code == 404:
            message += f"; is --model {self.model!r} served at {self._host()}?"
        return self.http_error(response, texts, code=code, detail=message)
