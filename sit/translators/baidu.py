"""Baidu Fanyi general translation (``/api/trans/vip/translate``).

Fields ``q``, ``from``, ``to``, ``appid``, ``salt`` and ``sign = md5(appid + q + salt + secret)``
(32 lower-case hex digits, over the UTF-8 text before URL-encoding), sent as a POST form. A batch
is one ``q`` of newline-joined texts (newlines inside a text become spaces), kept under 6,000
bytes; the answer's ``trans_result`` has one ``{"src", "dst"}`` per line, each paired with its
text by its ``src`` (an answer without ``src`` is refused).
Errors come back with HTTP 200 as ``{"error_code", "error_msg"}``. The standard tier allows one
query per second, hence ``default_qps = 1``; ask for more with ``--qps`` on a higher tier.

Credentials: ``SIT_BAIDU_APPID``, ``SIT_BAIDU_SECRET``. Endpoint override: ``SIT_BAIDU_ENDPOINT``.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from ..errors import AuthError, ProviderError, RateLimitError
from .http import Credential, HttpTranslator
from ..text import squeeze

# error_code -> (exception, retryable, what it means and what to do)
ERRORS: dict[str, tuple[type, bool, str]] = {
    "52001": (ProviderError, True, "request timed out at Baidu"),
    "52002": (ProviderError, True, "Baidu system error"),
    "52003": (AuthError, False, "unauthorised user: check SIT_BAIDU_APPID and that the general translation service is enabled"),
    "54000": (ProviderError, False, "a required parameter is empty"),
    "54001": (AuthError, False, "invalid signature: check SIT_BAIDU_SECRET"),
    "54003": (RateLimitError, True, "access frequency limited: lower --qps (the standard tier allows 1 query per second)"),
    "54004": (RateLimitError, False, "account balance insufficient: top it up, then run the same command again to resume"),
    "54005": (RateLimitError, True, "long queries sent too often: wait and retry"),
    "58000": (AuthError, False, "client IP not allowed: add it to the IP list in the Baidu console"),
    "58001": (ProviderError, False, "this translation direction is not supported"),
    "58002": (ProviderError, False, "the service is closed: enable it in the Baidu console"),
    "90107": (AuthError, False, "developer certification not passed or expired"),
    "20003": (ProviderError, False, "the content was refused by Baidu's safety check"),
}
_OK = {"0", "52000"}


def baidu_sign(appid: str, q: str, salt: str, secret: str) -> str:
    return hashlib.md5((appid + q + salt + secret).encode("utf-8")).hexdigest()


def _line(text: str) -> str:
    return re.sub(r"[\r\n]+", " ", text)


def _norm(text: str) -> str:
    return squeeze(text)


class BaiduTranslator(HttpTranslator):
    name = "baidu"
    credentials_spec = (Credential("appid", "SIT_BAIDU_APPID"), Credential("secret", "SIT_BAIDU_SECRET"))
    default_endpoint = "https://fanyi-api.baidu.com/api/trans/vip/translate"
    default_qps = 1.0
    default_batch_size = 50
    max_items = 200
    max_bytes = 6000
    separator_size = 1
    languages = {
        "zh-CN": "zh", "zh-Hans": "zh", "zh-TW": "cht", "zh-Hant": "cht", "es": "spa", "fr": "fra",
        "ja": "jp", "ko": "kor", "ar": "ara", "et": "est", "bg": "bul", "da": "dan", "fi": "fin",
        "ro": "rom", "sl": "slo", "sv": "swe", "vi": "vie",
    }
    api_version = "vip"

    def _build_request(self, texts: list[str]) -> dict[str, Any]:
        q = "\n".join(_line(t) for t in texts)
        salt = str(self._rng.randint(32768, 2**31 - 1))
        appid = self.credential("appid")
        data = {"q": q, "from": self.api_source, "to": self.api_target, "appid": appid, "salt": salt,
                "sign": baidu_sign(appid, q, salt, self.credential("secret"))}
        return {"data": data}

    def _parse_response(self, response, texts: list[str]) -> list[str]:
        if response.status_code != 200:
            raise self.http_error(response, texts)
        body = self.json_body(response, texts)
        if not isinstance(body, dict):
            raise self.mismatch(texts, "the answer is not a JSON object")
        code = body.get("error_code")
        if code is not None and str(code) not in _OK:
            code = str(code)
            cls, retryable, what = ERRORS.get(code, (ProviderError, False, "unknown error code"))
            msg = body.get("error_msg", "")
            raise self.error(cls, f"{self.where(texts)}: error {code} ({msg}): {what}", code=code,
                             retryable=retryable, retry_after=3.0 if code == "54005" else None)
        result = body.get("trans_result")
        if not isinstance(result, list):
            raise self.mismatch(texts, "no trans_result list")
        return self._align(result, texts)

    def _align(self, result: list, texts: list[str]) -> list[str]:
        """Each translation paired with its text by the ``src`` Baidu echoes on every line: lines
        in another order are put back in order; a line without ``src``, or a text no line answers,
        refuses the whole answer (Baidu does not document the order of ``trans_result``)."""
        if len(result) != len(texts):
            raise self.mismatch(texts, f"sent {len(texts)} line(s), got {len(result)} translation(s)")
        by_src: dict[str, list[str]] = {}
        for i, item in enumerate(result):
            if not isinstance(item, dict) or not isinstance(item.get("dst"), str):
                raise self.mismatch(texts, f"line {i + 1} has no dst")
            if not isinstance(item.get("src"), str):
                raise self.mismatch(texts, f"line {i + 1} has no src, so nothing proves which text it translates")
            by_src.setdefault(_norm(item["src"]), []).append(item["dst"])
        out = []
        for text in texts:
            answers = by_src.get(_norm(_line(text)))
            if not answers:
                raise self.mismatch(texts, f"no line answers {text[:40]!r}")
            out.append(answers.pop(0))
        return out
