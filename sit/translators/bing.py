"""Microsoft Translator Text API v3: ``POST /translate?api-version=3.0&from=..&to=..``.

The body is a JSON array ``[{"Text": ...}, ...]`` of at most 1,000 elements and 50,000
characters; the answer is one ``{"translations": [{"text", "to"}]}`` per element. Headers:
``Ocp-Apim-Subscription-Key`` and, for a regional or multi-service resource,
``Ocp-Apim-Subscription-Region``; ``X-ClientTraceId`` identifies the request for support. Errors
are ``{"error": {"code": 401000, "message": ...}}`` (HTTP status and three more digits).
``--model`` is sent as ``category`` (a Custom Translator system).

Credentials: ``SIT_BING_KEY``, optional ``SIT_BING_REGION``. Endpoint override:
``SIT_BING_ENDPOINT`` (the full URL of the translate operation).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from ..errors import RateLimitError
from .http import Credential, HttpTranslator, response_json


class BingTranslator(HttpTranslator):
    name = "bing"
    credentials_spec = (Credential("key", "SIT_BING_KEY"), Credential("region", "SIT_BING_REGION", required=False, secret=False))
    default_endpoint = "https://api.cognitive.microsofttranslator.com/translate"
    default_qps = 10.0
    default_batch_size = 100
    max_items = 1000
    max_chars = 50_000
    languages = {"zh": "zh-Hans", "zh-CN": "zh-Hans", "zh-TW": "zh-Hant", "no": "nb", "sr": "sr-Cyrl"}
    accepts_model = True  # category
    api_version = "3.0"
    promises_order = True  # a list in order, nothing proves it: the per-batch order check applies

    def _build_request(self, texts: list[str]) -> dict[str, Any]:
        params = [("api-version", "3.0"), ("from", self.api_source), ("to", self.api_target)]
        if self.model:
            params.append(("category", self.model))
        headers = {
            "Ocp-Apim-Subscription-Key": self.credential("key"),
            "Content-Type": "application/json; charset=UTF-8",
            "X-ClientTraceId": str(uuid.UUID(int=self._rng.getrandbits(128), version=4)),
        }
        if self.credential("region"):
            headers["Ocp-Apim-Subscription-Region"] = self.credential("region")
        body = json.dumps([{"Text": t} for t in texts], ensure_ascii=False).encode("utf-8")
        return {"params": params, "headers": headers, "data": body}

    def _parse_response(self, response, texts: list[str]) -> list[str]:
        if response.status_code != 200:
            code, message = None, response.reason or ""
            try:
                err = response_json(response).get("error", {})
                code, message = err.get("code"), str(err.get("message", message))
            except (ValueError, AttributeError):
                pass
            if str(code) == "403001":
                raise self.error(RateLimitError, f"{self.where(texts)}: HTTP 403 (403001): {message}; the free "
                                 "quota is used up: run the same command again when it resets to resume",
                                 status=403, code="403001")
            raise self.http_error(response, texts, code=code, detail=message)
        body = self.json_body(response, texts)
        if not isinstance(body, list):
            raise self.mismatch(texts, "the answer is not a JSON array")
        if len(body) != len(texts):
            raise self.mismatch(texts, f"sent {len(texts)} text(s), got {len(body)} result(s)")
        out = []
        for i, item in enumerate(body):
            tr = item.get("translations") if isinstance(item, dict) else None
            first = tr[0] if isinstance(tr, list) and tr and isinstance(tr[0], dict) else {}
            if not isinstance(first.get("text"), str):
                raise self.mismatch(texts, f"result {i + 1} has no translations[0].text")
            if first.get("to") is not None and str(first["to"]).lower() != self.api_target.lower():
                raise self.mismatch(texts, f"result {i + 1} is in {first.get('to')!r}, not {self.api_target!r}")
            out.append(first["text"])
        return out
