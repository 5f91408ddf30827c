"""DeepL API v2: ``POST /v2/translate`` with ``Authorization: DeepL-Auth-Key <key>`` and JSON
``{"text": [...], "source_lang", "target_lang"}``; the answer is ``{"translations": [{"text",
"detected_source_language"}]}`` in order. At most 50 texts and 128 KiB a request. Keys ending
in ``:fx`` belong to the Free API, whose host is ``api-free.deepl.com``.

Errors: 403 (wrong key or wrong endpoint for the key), 429 (too many requests; retried, honouring
Retry-After), 456 (the character quota is used up: the run stops, the cache keeps its progress and
the same command resumes when the quota resets), 5xx (retried).

Credentials: ``SIT_DEEPL_KEY``; endpoint override ``SIT_DEEPL_ENDPOINT`` (the full URL of the
translate operation). ``--translator-option formality=more|less|prefer_more|prefer_less``.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from ..options import Option
from ..errors import ConfigError, RateLimitError
from .http import Credential, HttpTranslator, response_json

FORMALITIES = ("default", "more", "less", "prefer_more", "prefer_less")
# targets DeepL wants with a variant; sources are the bare upper-case code
TARGETS = {"en": "EN-US", "pt": "PT-PT", "zh": "ZH-HANS", "zh-CN": "ZH-HANS", "zh-TW": "ZH-HANT"}


class DeepLTranslator(HttpTranslator):
    name = "deepl"
    credentials_spec = (Credential("key", "SIT_DEEPL_KEY"),)
    default_endpoint = "https://api.deepl.com/v2/translate"
    free_endpoint = "https://api-free.deepl.com/v2/translate"
    default_batch_size = 50
    max_items = 50
    max_bytes = 128 * 1024 - 512  # the request body: the texts as JSON strings, and room for the fields
    api_version = "v2"
    promises_order = True  # a list in order, nothing proves it: the per-batch order check applies
    option_specs = (Option("formality", str, None, "DeepL's formality: more, less, prefer_more, prefer_less"),)

    def __init__(self, source_lang: str = "en", target_lang: str = "es", *, formality: Optional[str] = None, **kwargs):
        super().__init__(source_lang, target_lang, **kwargs)
        if formality is not None and formality not in FORMALITIES:
            raise ConfigError(f"--translator-option formality must be one of {', '.join(FORMALITIES)}, not {formality!r}")
        self.formality = formality
        self.api_source = source_lang.split("-")[0].upper()
        self.api_target = TARGETS.get(target_lang, target_lang.upper())

    def wire_bytes(self, text: str) -> int:
        return len(json.dumps(text, ensure_ascii=False).encode("utf-8")) + 2  # quoted, escaped, ", "

    def default_url(self) -> str:
        return self.free_endpoint if self.credential("key").endswith(":fx") else self.default_endpoint

    def options(self) -> dict[str, Any]:
        return {"formality": self.formality} if self.formality else {}

    def _build_request(self, texts: list[str]) -> dict[str, Any]:
        body: dict[str, Any] = {"text": texts, "source_lang": self.api_source, "target_lang": self.api_target}
        if self.formality:
            body["formality"] = self.formality
        headers = {"Authorization": f"DeepL-Auth-Key {self.credential('key')}", "Content-Type": "application/json"}
        return {"headers": headers, "data": json.dumps(body, ensure_ascii=False).encode("utf-8")}

    def _parse_response(self, response, texts: list[str]) -> list[str]:
        if response.status_code != 200:
            message = response.reason or ""
            try:
                message = str(response_json(response).get("message", message))
            except (ValueError, AttributeError):
                pass
            if response.status_code == 456:
                raise self.error(RateLimitError, f"{self.where(texts)}: HTTP 456: {message}; the character quota is "
                                 "used up: run the same command again when it resets to resume", status=456)
            if response.status_code == 403 and self.credential("key").endswith(":fx") != ("api-free." in self.endpoint):
                message += "; a key ending in :fx belongs to api-free.deepl.com, other keys to api.deepl.com"
            raise self.http_error(response, texts, detail=message)
        body = self.json_body(response, texts)
        items = body.get("translations") if isinstance(body, dict) else None
        if not isinstance(items, list):
            raise self.mismatch(texts, "the answer has no translations array")
        if len(items) != len(texts):
            raise self.mismatch(texts, f"sent {len(texts)} text(s), got {len(items)} translation(s)")
        out = []
        for i, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("text"), str):
                raise self.mismatch(texts, f"translation {i + 1} has no text")
            out.append(item["text"])
        return out
