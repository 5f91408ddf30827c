"""Google Cloud Translation API v2 ("Basic"): ``POST .../language/translate/v2``.

One request carries up to 128 texts as repeated ``q`` fields of a form body, with ``source``,
``target`` and ``format=text``. The API key travels in the ``X-Goog-Api-Key`` header, which Google
accepts wherever it accepts the ``key`` parameter, so that it never appears in a URL (URLs end up
in proxy logs and in ``requests``' exception messages). Google escapes some characters as HTML
entities even for ``format=text``; they are decoded.

Credentials: ``SIT_GOOGLE_API_KEY``. Endpoint override: ``SIT_GOOGLE_ENDPOINT``.
"""

from __future__ import annotations

import html
from typing import Any

from ..errors import AuthError, RateLimitError
from .http import Credential, HttpTranslator, response_json

_RATE_REASONS = {"rateLimitExceeded", "userRateLimitExceeded", "RATE_LIMIT_EXCEEDED"}
_QUOTA_REASONS = {"dailyLimitExceeded", "quotaExceeded", "dailyLimitExceededUnreg", "RESOURCE_EXHAUSTED"}
_KEY_REASONS = {"keyInvalid", "API_KEY_INVALID", "keyExpired", "API_KEY_EXPIRED", "forbidden",
                "accessNotConfigured", "SERVICE_DISABLED", "API_KEY_SERVICE_BLOCKED"}


class GoogleTranslator(HttpTranslator):
    name = "google"
    credentials_spec = (Credential("api_key", "SIT_GOOGLE_API_KEY"),)
    default_endpoint = "https://translation.googleapis.com/language/translate/v2"
    default_qps = 10.0
    default_batch_size = 64
    max_items = 128  # "no more than 128 text segments"
    max_bytes = 30_000  # Basic refuses requests over 100K bytes; URL-encoding may triple non-ASCII text
    languages = {"zh": "zh-CN", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW", "he": "iw"}
    accepts_model = True  # "nmt" or "base"
    api_version = "v2"
    promises_order = True  # a list in order, nothing proves it: the per-batch order check applies

    def _build_request(self, texts: list[str]) -> dict[str, Any]:
        data = [("q", t) for t in texts]
        data += [("source", self.api_source), ("target", self.api_target), ("format", "text")]
        if self.model:
            data.append(("model", self.model))
        return {"data": data, "headers": {"X-Goog-Api-Key": self.credential("api_key")}}

    def _parse_response(self, response, texts: list[str]) -> list[str]:
        if response.status_code != 200:
            raise self._error(response, texts)
        body = self.json_body(response, texts)
        translations = body.get("data", {}).get("translations") if isinstance(body, dict) and isinstance(body.get("data"), dict) else None
        if not isinstance(translations, list):
            raise self.mismatch(texts, "no data.translations list")
        if len(translations) != len(texts):
            raise self.mismatch(texts, f"sent {len(texts)} text(s), got {len(translations)} translation(s)")
        out = []
        for i, item in enumerate(translations):
            text = item.get("translatedText") if isinstance(item, dict) else None
            if not isinstance(text, str):
                raise self.mismatch(texts, f"translation {i + 1} has no translatedText")
            out.append(html.unescape(text))
        return out

    def _error(self, response, texts: list[str]):
        err: dict = {}
        try:
            body = response_json(response)
            if isinstance(body, dict) and isinstance(body.get("error"), dict):
                err = body["error"]
        except ValueError:
            pass
        message = str(err.get("message", "")) or response.reason or ""
        reasons = {str(e.get("reason")) for e in err.get("errors", []) if isinstance(e, dict)}
        reasons |= {str(d.get("reason")) for d in err.get("details", []) if isinstance(d, dict)}
        status = response.status_code
        code = err.get("status") or ",".join(sorted(r for r in reasons if r != "None")) or None
        if status in (400, 401, 403) and (reasons & _KEY_REASONS or "API key not valid" in message):
            return self.error(AuthError, f"{self.where(texts)}: HTTP {status} ({code}): {message}; "
                              "check SIT_GOOGLE_API_KEY and that the Cloud Translation API is enabled",
                              status=status, code=code)
        if status == 403 and reasons & _RATE_REASONS:
            return self.error(RateLimitError, f"{self.where(texts)}: HTTP 403 ({code}): {message}; try a lower --qps",
                              status=status, code=code, retryable=True)
        if status == 403 and reasons & _QUOTA_REASONS:
            return self.error(RateLimitError, f"{self.where(texts)}: HTTP 403 ({code}): {message}; the quota is used "
                              "up: run the same command again once it resets to resume", status=status, code=code)
        return self.http_error(response, texts, code=code, detail=message)
