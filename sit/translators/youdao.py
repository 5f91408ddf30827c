"""Youdao Zhiyun text translation (``https://openapi.youdao.com/api``), signType v3.

Fields ``q``, ``from``, ``to``, ``appKey``, ``salt`` (a UUID), ``curtime`` (UTC seconds),
``signType=v3`` and ``sign = sha256(appKey + input + salt + curtime + secret)``, where ``input``
is ``q`` when ``len(q) <= 20``, else ``q[:10] + str(len(q)) + q[-10:]``. The text API takes one
``q`` per request, so each request is one text (and is cached as soon as it returns). Errors come
back with HTTP 200 as ``{"errorCode": "202", ...}``; ``"0"`` is success, with ``translation`` a
list of strings.

Credentials: ``SIT_YOUDAO_APPKEY``, ``SIT_YOUDAO_SECRET``. Endpoint override: ``SIT_YOUDAO_ENDPOINT``.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from typing import Any

from ..errors import AuthError, ProviderError, RateLimitError
from .http import Credential, HttpTranslator
from ..text import squeeze

# errorCode -> (exception, retryable, what it means and what to do)
ERRORS: dict[str, tuple[type, bool, str]] = {
    "101": (ProviderError, False, "a required parameter is missing"),
    "102": (ProviderError, False, "language not supported"),
    "103": (ProviderError, False, "text too long"),
    "104": (ProviderError, False, "API type not supported"),
    "105": (ProviderError, False, "signature type not supported"),
    "106": (ProviderError, False, "response type not supported"),
    "107": (ProviderError, False, "transport encryption type not supported"),
    "108": (AuthError, False, "invalid application ID: check SIT_YOUDAO_APPKEY"),
    "110": (AuthError, False, "no service instance bound to this application: bind text translation in the Youdao console"),
    "111": (AuthError, False, "developer account invalid"),
    "112": (ProviderError, False, "invalid service request"),
    "113": (ProviderError, False, "q is empty"),
    "116": (ProviderError, False, "invalid strict value"),
    "201": (AuthError, False, "decryption failed"),
    "202": (AuthError, False, "signature check failed: check SIT_YOUDAO_SECRET"),
    "203": (AuthError, False, "client IP not in the allow list"),
    "205": (AuthError, False, "request does not match the application's platform type"),
    "206": (AuthError, False, "invalid timestamp: check the system clock"),
    "207": (ProviderError, True, "replayed request"),
    "301": (ProviderError, True, "dictionary lookup failed"),
    "302": (ProviderError, True, "translation query failed"),
    "303": (ProviderError, True, "server error"),
    "401": (RateLimitError, False, "account overdue: top it up, then run the same command again to resume"),
    "411": (RateLimitError, True, "access frequency limited: lower --qps"),
    "412": (RateLimitError, True, "long requests sent too often"),
}


def youdao_input(q: str) -> str:
    return q if len(q) <= 20 else q[:10] + str(len(q)) + q[-10:]


def youdao_sign(app_key: str, q: str, salt: str, curtime: str, secret: str) -> str:
    return hashlib.sha256((app_key + youdao_input(q) + salt + curtime + secret).encode("utf-8")).hexdigest()


class YoudaoTranslator(HttpTranslator):
    name = "youdao"
    credentials_spec = (Credential("appkey", "SIT_YOUDAO_APPKEY"), Credential("secret", "SIT_YOUDAO_SECRET"))
    default_endpoint = "https://openapi.youdao.com/api"
    default_qps = 5.0
    default_batch_size = 1
    max_items = 1  # one q per request
    languages = {"zh": "zh-CHS", "zh-CN": "zh-CHS", "zh-Hans": "zh-CHS", "zh-TW": "zh-CHT", "zh-Hant": "zh-CHT"}
    api_version = "v3"
    wallclock = staticmethod(time.time)

    def _build_request(self, texts: list[str]) -> dict[str, Any]:
        (q,) = texts
        salt = str(uuid.UUID(int=self._rng.getrandbits(128), version=4))
        curtime = str(int(self.wallclock()))
        app_key = self.credential("appkey")
        data = {"q": q, "from": self.api_source, "to": self.api_target, "appKey": app_key, "salt": salt,
                "sign": youdao_sign(app_key, q, salt, curtime, self.credential("secret")),
                "signType": "v3", "curtime": curtime}
        return {"data": data}

    def _parse_response(self, response, texts: list[str]) -> list[str]:
        if response.status_code != 200:
            raise self.http_error(response, texts)
        body = self.json_body(response, texts)
        if not isinstance(body, dict) or "errorCode" not in body:
            raise self.mismatch(texts, "no errorCode in the answer")
        code = str(body["errorCode"])
        if code != "0":
            cls, retryable, what = ERRORS.get(code, (ProviderError, False, "unknown error code"))
            raise self.error(cls, f"{self.where(texts)}: errorCode {code}: {what}", code=code, retryable=retryable)
        tr = body.get("translation")
        if not isinstance(tr, list) or not tr or not all(isinstance(t, str) for t in tr):
            raise self.mismatch(texts, "no translation list")
        query = body.get("query")
        if isinstance(query, str) and squeeze(query) != squeeze(texts[0]):
            raise self.mismatch(texts, f"the answer is for {query[:40]!r}")
        return ["\n".join(tr)]
