"""Fake OpenAI-compatible chat endpoint and fake DeepL API, checked as the real APIs document
their requests, answering in their real formats (errors included)."""

from __future__ import annotations

import json
import re
import uuid
from typing import Optional

from . import Call, Fault, FakeProvider, Reply

OPENAI_KEY = "sk-FAKEopenai0a1b2c3d4e5f"
DEEPL_KEY = "5c2f1e0a-FAKE-deepl-key-8d7c6b5a4f3e"
DEEPL_FREE_KEY = DEEPL_KEY + ":fx"

_PROMPT_TEXT = re.compile(r"\n\n(.*)\Z", re.S)  # sit's prompts end with a blank line and the text(s)


class FakeOpenAI(FakeProvider):
    """``POST /v1/chat/completions``: JSON ``{"model", "messages", "temperature"}``, bearer key
    (``key=None``: a local server that needs none). The user message's last paragraph is the text,
    or a JSON array of texts (sit's batch prompt). Extra fault kinds: ``chatter`` (the translation
    wrapped in an LLM's preamble, label, quotes and a note), ``refuse`` (a refusal), ``empty``,
    ``filtered`` (finish_reason content_filter), ``prose`` (a batch answered as prose), ``cut``
(finish_reason length, the answer cut in half), ``nontext`` (a message content of ``[]``).
A batch (sit's JSON object of ids to texts) is answered as an object of the same ids;
``reorder`` answers the ids in reverse order, ``misorder`` a bare array in reverse order,
``swapped`` the ids in order with the values reversed, ``twice`` the last id twice (a text alone
is answered normally under the last two)."""

    name = "openai"
    path = "/v1/chat/completions"

    def __init__(self, *, key: Optional[str] = OPENAI_KEY, model: str = "qwen2.5:7b", latency: float = 0.0, **kw):
        super().__init__(**kw)
        self.key = key
        self.model = model
        self.latency = latency
        self.batches = 0  # requests that carried a JSON array of texts
        self.batch_calls: set[int] = set()
        self.in_flight = 0
        self.max_in_flight = 0

    def env(self) -> dict[str, str]:
        env = {"SIT_OPENAI_BASE_URL": self.url[: -len("/chat/completions")]}
        if self.key:
            env["SIT_OPENAI_API_KEY"] = self.key
        return env

    def check(self, call: Call) -> Optional[Reply]:
        if not call.headers.get("content-type", "").startswith("application/json"):
            self.problem(call, f"Content-Type {call.headers.get('content-type')!r}")
        body = call.json = json.loads(call.body.decode("utf-8"))
        if not isinstance(body, dict) or not {"model", "messages"} <= set(body):
            self.problem(call, "body has no model and messages")
            return None
        extra = set(body) - {"model", "messages", "temperature", "max_tokens"}
        if extra:
            self.problem(call, f"unexpected field(s) {sorted(extra)}")
        messages = body["messages"]
        if not (isinstance(messages, list) and messages and all(
                isinstance(m, dict) and m.get("role") in ("system", "user", "assistant")
                and isinstance(m.get("content"), str) for m in messages) and messages[-1]["role"] == "user"):
            self.problem(call, "messages are not [{role, content}, ...] ending with the user's")
            return None
        temperature = body.get("temperature", 1)
        if not (isinstance(temperature, (int, float)) and 0 <= temperature <= 2):
            self.problem(call, f"temperature {temperature!r} (0..2)")
        match = _PROMPT_TEXT.search(messages[-1]["content"])
        text = match.group(1) if match else messages[-1]["content"]
        try:
            texts = json.loads(text) if text.lstrip().startswith(("[", "{")) else None
        except ValueError:
            texts = None
        if isinstance(texts, dict):  # sit's batch prompt: ids "1".."n" to texts
            if list(texts) != [str(n) for n in range(1, len(texts) + 1)]:
                self.problem(call, f"batch ids {list(texts)[:5]}..., expected 1..n")
            texts = list(texts.values())
        if isinstance(texts, list):
            self.batches += 1
            self.batch_calls.add(call.n)
            call.texts = texts
        else:
            call.texts = [text]
        if self.key is not None and call.headers.get("authorization") != f"Bearer {self.key}":
            return self.fault_reply(call, Fault("auth"))
        if body["model"] != self.model:
            return Reply(404, {"error": {"message": f"model '{body['model']}' not found", "type": "invalid_request_error",
                                         "param": None, "code": "model_not_found"}})
        return None

    def _dispatch(self, method, raw_path, headers, body):
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.latency:
                import time

                time.sleep(self.latency)
            return super()._dispatch(method, raw_path, headers, body)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _answer(self, content: str, finish: str = "stop") -> Reply:
        return Reply(200, {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "object": "chat.completion", "created": 1763900000,
            "model": self.model, "system_fingerprint": "fp_fake",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "logprobs": None,
                         "finish_reason": finish}],
            "usage": {"prompt_tokens": 40, "completion_tokens": 12, "total_tokens": 52}})

    @staticmethod
    def _ids(translations: list[str]) -> dict[str, str]:
        return {str(n): t for n, t in enumerate(translations, start=1)}

    def ok_reply(self, call, translations):
        if call.n in self.batch_calls:
            return self._answer("```json\n" + json.dumps(self._ids(translations), ensure_ascii=False) + "\n```")
        return self._answer(translations[0])

    def broken_reply(self, call, translations, kind):
        if kind == "short":  # a batch answered with one item too few
            return self._answer(json.dumps(dict(list(self._ids(translations).items())[:-1]), ensure_ascii=False))
        if kind == "reorder":  # every id with its own translation, in reverse order
            return self._answer(json.dumps(dict(reversed(self._ids(translations).items())), ensure_ascii=False))
        if kind in ("swapped", "twice") and call.n not in self.batch_calls:  # a text alone cannot be swapped
            return self.ok_reply(call, translations)
        if kind == "swapped":  # the ids in order, each with another text's translation (the values reversed)
            return self._answer(json.dumps(self._ids(translations[::-1]), ensure_ascii=False))
        if kind == "twice":  # the last id given twice, the second time with the first text's translation
            body = json.dumps(self._ids(translations), ensure_ascii=False)
            return self._answer(body[:-1] + f', "{len(translations)}": ' + json.dumps(translations[0], ensure_ascii=False) + "}")
        if kind == "misorder":  # the translations in reverse order, without ids (a bare array)
            return self._answer(json.dumps(translations[::-1], ensure_ascii=False))
        return self._answer("")

    def fault_reply(self, call, fault):
        tr = self.translate(call.texts, self.source, self.target)
        if fault.kind == "auth":
            return Reply(401, {"error": {"message": "Incorrect API key provided: sk-FAKE***. You can find your API "
                                         "key at https://platform.openai.com/account/api-keys.",
                                         "type": "invalid_request_error", "param": None, "code": "invalid_api_key"}})
        if fault.kind == "rate":
            return Reply(429, {"error": {"message": "Rate limit reached for requests", "type": "requests",
                                         "param": None, "code": "rate_limit_exceeded"}},
                         headers={"Retry-After": fault.retry_after} if fault.retry_after else None)
        if fault.kind == "quota":
            return Reply(429, {"error": {"message": "You exceeded your current quota, please check your plan and "
                                         "billing details.", "type": "insufficient_quota", "param": None,
                                         "code": "insufficient_quota"}})
        if fault.kind == "chatter":
            return self._answer(f"Sure! Here is the translation:\n\nTranslation: \"{tr[0]}\"\n\n"
                                "Note: I kept the original word order.")
        if fault.kind == "think":
            return self._answer(f"<think>\nThe user wants Spanish.\n</think>\n\n{tr[0]}")
        if fault.kind == "refuse":
            return self._answer("I'm sorry, but I can't help with that request.")
        if fault.kind == "filtered":
            return self._answer("", finish="content_filter")
        if fault.kind == "cut":
            return self._answer(tr[0][: len(tr[0]) // 2], finish="length")
        if fault.kind == "nontext":
            answer = self._answer("")
            body = json.loads(answer.body)
            body["choices"][0]["message"]["content"] = []
            return Reply(200, body)
        if fault.kind == "prose":
            return self._answer("Here are the translations: " + "; ".join(tr))
        return Reply(400, {"error": {"message": "bad", "type": "invalid_request_error", "code": fault.code}})


class FakeDeepL(FakeProvider):
    """``POST /v2/translate``: ``Authorization: DeepL-Auth-Key <key>``, JSON ``{"text": [...],
    "source_lang", "target_lang"}``; at most 50 texts and 128 KiB a request. A ``:fx`` key is
    refused unless the request came to the Free API's host (``free=True`` stands for it)."""

    name = "deepl"
    path = "/v2/translate"

    def __init__(self, *, key: str = DEEPL_KEY, free: bool = False, source: str = "EN", target: str = "ES", **kw):
        super().__init__(source=source, target=target, **kw)
        self.key = key
        self.free = free

    def env(self) -> dict[str, str]:
        return {"SIT_DEEPL_KEY": self.key, "SIT_DEEPL_ENDPOINT": self.url}

    def check(self, call: Call) -> Optional[Reply]:
        if not call.headers.get("content-type", "").startswith("application/json"):
            self.problem(call, f"Content-Type {call.headers.get('content-type')!r}")
        if len(call.body) > 128 * 1024:
            self.problem(call, f"{len(call.body)} bytes (128 KiB allowed)")
        if call.query:
            self.problem(call, f"query string {sorted(call.query)}: the key must not travel in the URL")
        body = call.json = json.loads(call.body.decode("utf-8"))
        extra = set(body) - {"text", "source_lang", "target_lang", "formality", "model_type"}
        if extra:
            self.problem(call, f"unexpected field(s) {sorted(extra)}")
        texts = body.get("text")
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            self.problem(call, "text is not an array of strings")
            texts = []
        call.texts = texts
        if not 1 <= len(texts) <= 50:
            self.problem(call, f"{len(texts)} texts (1..50 allowed)")
        for name, want in (("source_lang", self.source), ("target_lang", self.target)):
            if body.get(name) != want:
                self.problem(call, f"{name}={body.get(name)!r}, expected {want!r}")
        auth = call.headers.get("authorization", "")
        if not auth.startswith("DeepL-Auth-Key "):
            self.problem(call, f"Authorization {auth[:16]!r}..., expected DeepL-Auth-Key")
        elif auth != f"DeepL-Auth-Key {self.key}" or self.key.endswith(":fx") != self.free:
            return self.fault_reply(call, Fault("auth"))
        return None

    def bad_request(self, call):
        return Reply(400, {"message": "Bad request. Reason: Value for 'target_lang' not supported."})

    def ok_reply(self, call, translations):
        return Reply(200, {"translations": [{"detected_source_language": self.source, "text": t} for t in translations]})

    def broken_reply(self, call, translations, kind):
        items = [{"detected_source_language": self.source, "text": t} for t in translations]
        if kind == "short":
            items = items[:-1]
        elif kind in ("misorder", "reorder"):
            items = items[::-1]
        else:
            items[-1] = {"detected_source_language": self.source}
        return Reply(200, {"translations": items})

    def fault_reply(self, call, fault):
        if fault.kind == "auth":
            return Reply(403, {"message": "Wrong endpoint. Use https://api-free.deepl.com" if self.key.endswith(":fx")
                               and not self.free else "Authorization failure, check auth_key"})
        if fault.kind == "rate":
            return Reply(429, {"message": "Too many requests, please wait and resend your request."},
                         headers={"Retry-After": fault.retry_after} if fault.retry_after else None)
        if fault.kind == "quota":
            return Reply(456, {"message": "Quota exceeded"})
        return Reply(400, {"message": f"Bad request. Reason: {fault.code}"})
