"""The four fakes. Signatures are recomputed here from the secret, independently of sit's code."""

from __future__ import annotations

import hashlib
import html
import json
import time
import uuid
from typing import Optional

from . import Call, Fault, FakeProvider, Reply, form_of, single

GOOGLE_KEY = "AIzaFAKE-google-key-5b1f0c93"
BING_KEY = "bingFAKEkey0c9e4d1a77"
BING_REGION = "westeurope"
BAIDU_APPID = "20269900000042"
BAIDU_SECRET = "bdSECRETq1w2e3r4"
YOUDAO_APPKEY = "ydAPPKEY3c2b1a0f"
YOUDAO_SECRET = "ydSECRETz9x8c7v6"


class _Limited(FakeProvider):
    """Optionally refuses requests closer together than ``1/qps_limit`` (by the fake's clock)."""

    def __init__(self, *, qps_limit: Optional[float] = None, **kw):
        super().__init__(**kw)
        self.qps_limit = qps_limit
        self.too_fast = 0
        self._last_t: Optional[float] = None

    def over_limit(self, call: Call) -> bool:
        last, self._last_t = self._last_t, call.t
        if self.qps_limit and last is not None and call.t - last < 1.0 / self.qps_limit - 1e-9:
            self.too_fast += 1
            return True
        return False


def _fields(self: FakeProvider, call: Call, form: dict, allowed: set[str], required: set[str]) -> None:
    extra = set(form) - allowed
    missing = required - set(form)
    if extra:
        self.problem(call, f"unexpected field(s) {sorted(extra)}")
    if missing:
        self.problem(call, f"missing field(s) {sorted(missing)}")


class FakeGoogle(_Limited):
    """Cloud Translation v2: form-encoded POST, key in X-Goog-Api-Key, q repeated (<= 128)."""

    name = "google"
    path = "/language/translate/v2"

    def __init__(self, *, key: str = GOOGLE_KEY, target: str = "es", **kw):
        super().__init__(target=target, **kw)
        self.key = key

    def env(self) -> dict[str, str]:
        return {"SIT_GOOGLE_API_KEY": self.key, "SIT_GOOGLE_ENDPOINT": self.url}

    def check(self, call: Call) -> Optional[Reply]:
        if call.query:
            self.problem(call, f"query string {sorted(call.query)}: the key must not travel in the URL")
        form = form_of(call)
        _fields(self, call, form, {"q", "source", "target", "format", "model"}, {"q", "source", "target", "format"})
        call.texts = form.get("q", [])
        if not 1 <= len(call.texts) <= 128:
            self.problem(call, f"{len(call.texts)} q segments (1..128 allowed)")
        if len(call.body) > 100_000:
            self.problem(call, f"{len(call.body)} bytes (Basic refuses more than 100K)")
        for name, want in (("source", self.source), ("target", self.target), ("format", "text")):
            if name in form and single(form, name) != want:
                self.problem(call, f"{name}={single(form, name)!r}, expected {want!r}")
        if "x-goog-api-key" not in call.headers:
            self.problem(call, "no X-Goog-Api-Key header")
        elif call.headers["x-goog-api-key"] != self.key:
            return self.fault_reply(call, Fault("auth"))
        if self.over_limit(call):
            return self.fault_reply(call, Fault("rate"))
        return None

    def ok_reply(self, call, translations):
        # Google escapes HTML special characters even for format=text ("&#39;" for an apostrophe)
        return Reply(200, {"data": {"translations": [
            {"translatedText": html.escape(t).replace("&#x27;", "&#39;")} for t in translations]}})

    def broken_reply(self, call, translations, kind):
        items = [{"translatedText": t} for t in translations]
        if kind == "short":
            items = items[:-1]
        elif kind in ("misorder", "reorder"):
            items = items[::-1]
        else:
            items[-1] = {"detectedSourceLanguage": "en"}
        return Reply(200, {"data": {"translations": items}})

    def fault_reply(self, call, fault):
        if fault.kind == "auth":
            return Reply(400, {"error": {
                "code": 400, "message": "API key not valid. Please pass a valid API key.",
                "errors": [{"message": "API key not valid. Please pass a valid API key.", "domain": "global",
                            "reason": "badRequest"}],
                "status": "INVALID_ARGUMENT",
                "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
                             "domain": "googleapis.com", "metadata": {"service": "translate.googleapis.com"}}]}})
        if fault.kind == "rate":
            return Reply(429, {"error": {
                "code": 429, "message": "Quota exceeded for quota metric 'v2 and v3 general model characters' "
                "and limit 'per minute per user'", "status": "RESOURCE_EXHAUSTED",
                "errors": [{"message": "rate limit", "domain": "global", "reason": "rateLimitExceeded"}]}},
                headers={"Retry-After": fault.retry_after} if fault.retry_after else None)
        if fault.kind == "quota":
            return Reply(403, {"error": {"code": 403, "message": "Daily Limit Exceeded", "errors": [
                {"message": "Daily Limit Exceeded", "domain": "usageLimits", "reason": "dailyLimitExceeded"}]}})
        return Reply(400, {"error": {"code": 400, "message": "Invalid Value",
                                     "errors": [{"message": "Invalid Value", "domain": "global", "reason": fault.code}]}})


class FakeBing(_Limited):
    """Translator v3: POST /translate?api-version=3.0&from=&to=, JSON [{"Text"}], <= 1000 / 50,000."""

    name = "bing"
    path = "/translate"

    def __init__(self, *, key: str = BING_KEY, region: Optional[str] = BING_REGION, **kw):
        super().__init__(**kw)
        self.key = key
        self.region = region

    def env(self) -> dict[str, str]:
        env = {"SIT_BING_KEY": self.key, "SIT_BING_ENDPOINT": self.url}
        if self.region:
            env["SIT_BING_REGION"] = self.region
        return env

    def check(self, call: Call) -> Optional[Reply]:
        q = call.query
        extra = set(q) - {"api-version", "from", "to", "category"}
        if extra:
            self.problem(call, f"unexpected query parameter(s) {sorted(extra)}")
        for name, want in (("api-version", "3.0"), ("from", self.source), ("to", self.target)):
            if q.get(name) != [want]:
                self.problem(call, f"{name}={q.get(name)}, expected [{want!r}]")
        if not call.headers.get("content-type", "").startswith("application/json"):
            self.problem(call, f"Content-Type {call.headers.get('content-type')!r}")
        try:
            uuid.UUID(call.headers.get("x-clienttraceid", ""))
        except ValueError:
            self.problem(call, "X-ClientTraceId is not a GUID")
        body = json.loads(call.body.decode("utf-8"))
        if not isinstance(body, list) or not all(isinstance(e, dict) and set(e) == {"Text"} and isinstance(e["Text"], str) for e in body):
            self.problem(call, "body is not [{\"Text\": ...}, ...]")
            body = []
        call.texts = [e["Text"] for e in body]
        if not 1 <= len(body) <= 1000:
            self.problem(call, f"{len(body)} elements (1..1000 allowed)")
        if sum(len(t) for t in call.texts) > 50_000:
            self.problem(call, "more than 50,000 characters")
        if "ocp-apim-subscription-key" not in call.headers:
            self.problem(call, "no Ocp-Apim-Subscription-Key header")
        elif call.headers["ocp-apim-subscription-key"] != self.key:
            return self.fault_reply(call, Fault("auth"))
        if self.region and call.headers.get("ocp-apim-subscription-region") != self.region:
            return self.fault_reply(call, Fault("auth"))
        if self.over_limit(call):
            return self.fault_reply(call, Fault("rate"))
        return None

    def bad_request(self, call):
        return Reply(400, {"error": {"code": 400000, "message": "One of the request inputs is not valid."}})

    def ok_reply(self, call, translations):
        return Reply(200, [{"translations": [{"text": t, "to": self.target}]} for t in translations],
                     headers={"X-RequestId": str(uuid.uuid4())})

    def broken_reply(self, call, translations, kind):
        items = [{"translations": [{"text": t, "to": self.target}]} for t in translations]
        if kind == "short":
            items = items[:-1]
        elif kind in ("misorder", "reorder"):
            items = items[::-1]
        else:
            items[-1] = {"translations": []}
        return Reply(200, items)

    def fault_reply(self, call, fault):
        if fault.kind == "auth":
            return Reply(401, {"error": {"code": 401000, "message": "The request is not authorized because credentials are missing or invalid."}})
        if fault.kind == "rate":
            return Reply(429, {"error": {"code": 429001, "message": "The server rejected the request because the client has exceeded request limits."}},
                         headers={"Retry-After": fault.retry_after} if fault.retry_after else None)
        if fault.kind == "quota":
            return Reply(403, {"error": {"code": 403001, "message": "The operation is not allowed because the subscription has exceeded its free quota."}})
        return Reply(int(str(fault.code)[:3]), {"error": {"code": int(fault.code), "message": "error"}})


def _md5(s: str) -> str:
    return hashlib.md5(s.encode("utf-8")).hexdigest()


class FakeBaidu(_Limited):
    """Fanyi general translation: form POST, sign = md5(appid+q+salt+secret), errors with HTTP 200."""

    name = "baidu"
    path = "/api/trans/vip/translate"

    def __init__(self, *, appid: str = BAIDU_APPID, secret: str = BAIDU_SECRET, target: str = "spa", **kw):
        super().__init__(target=target, **kw)
        self.appid = appid
        self.secret = secret

    def env(self) -> dict[str, str]:
        return {"SIT_BAIDU_APPID": self.appid, "SIT_BAIDU_SECRET": self.secret, "SIT_BAIDU_ENDPOINT": self.url}

    def check(self, call: Call) -> Optional[Reply]:
        form = form_of(call)
        names = {"q", "from", "to", "appid", "salt", "sign"}
        _fields(self, call, form, names, names)
        f = {k: single(form, k) for k in names if k in form}
        q = f.get("q", "")
        call.texts = q.split("\n")
        if len(q.encode("utf-8")) > 6000:
            self.problem(call, f"q is {len(q.encode('utf-8'))} bytes (keep under 6000)")
        if not f.get("salt", "").isdigit():
            self.problem(call, f"salt {f.get('salt')!r} is not a number")
        for name, want in (("from", self.source), ("to", self.target)):
            if f.get(name) != want:
                self.problem(call, f"{name}={f.get(name)!r}, expected {want!r}")
        if f.get("appid") != self.appid:
            return Reply(200, {"error_code": "52003", "error_msg": "UNAUTHORIZED USER"})
        if f.get("sign") != _md5(self.appid + q + f.get("salt", "") + self.secret):
            return Reply(200, {"error_code": "54001", "error_msg": "Invalid Sign"})
        if self.over_limit(call):
            return self.fault_reply(call, Fault("rate"))
        return None

    def bad_request(self, call):
        return Reply(200, {"error_code": "54000", "error_msg": "PARAM_FROM_TO_OR_Q_EMPTY"})

    def _result(self, call, translations):
        return [{"src": s, "dst": t} for s, t in zip(call.texts, translations)]

    def ok_reply(self, call, translations):
        return Reply(200, {"from": self.source, "to": self.target, "trans_result": self._result(call, translations)})

    def broken_reply(self, call, translations, kind):
        items = self._result(call, translations)
        if kind == "short":
            items = items[:-1]
        elif kind == "misorder":
            items = [{"dst": item["dst"]} for item in items[::-1]]
        elif kind == "reorder":
            items = items[::-1]
        else:
            del items[-1]["dst"]
        return Reply(200, {"from": self.source, "to": self.target, "trans_result": items})

    def fault_reply(self, call, fault):
        c = {"auth": "52003", "rate": "54003", "quota": "54004"}.get(fault.kind, fault.code)
        msg = {"52003": "UNAUTHORIZED USER", "54003": "Invalid Access Limit", "54004": "Please recharge",
               "52001": "TIMEOUT", "52002": "SYSTEM ERROR"}.get(c, "error")
        return Reply(200, {"error_code": c, "error_msg": msg})


def _youdao_input(q: str) -> str:
    n = len(q)
    return q if n <= 20 else q[:10] + str(n) + q[n - 10:]


class FakeYoudao(_Limited):
    """Zhiyun text translation: form POST, signType v3 = sha256(appKey+input+salt+curtime+secret)."""

    name = "youdao"
    path = "/api"

    def __init__(self, *, appkey: str = YOUDAO_APPKEY, secret: str = YOUDAO_SECRET, **kw):
        super().__init__(**kw)
        self.appkey = appkey
        self.secret = secret
        self.salts: set[str] = set()

    def env(self) -> dict[str, str]:
        return {"SIT_YOUDAO_APPKEY": self.appkey, "SIT_YOUDAO_SECRET": self.secret, "SIT_YOUDAO_ENDPOINT": self.url}

    def check(self, call: Call) -> Optional[Reply]:
        form = form_of(call)
        names = {"q", "from", "to", "appKey", "salt", "sign", "signType", "curtime"}
        _fields(self, call, form, names | {"strict", "vocabId"}, names)
        f = {k: single(form, k) for k in names if k in form}
        q = f.get("q", "")
        call.texts = [q]
        for name, want in (("from", self.source), ("to", self.target), ("signType", "v3")):
            if f.get(name) != want:
                self.problem(call, f"{name}={f.get(name)!r}, expected {want!r}")
        if f.get("appKey") != self.appkey:
            return Reply(200, {"errorCode": "108"})
        salt, curtime = f.get("salt", ""), f.get("curtime", "")
        want = hashlib.sha256((self.appkey + _youdao_input(q) + salt + curtime + self.secret).encode("utf-8")).hexdigest()
        if f.get("sign") != want:
            return Reply(200, {"errorCode": "202"})
        if not curtime.isdigit() or abs(int(curtime) - time.time()) > 300:
            return Reply(200, {"errorCode": "206"})
        if salt in self.salts:
            return Reply(200, {"errorCode": "207"})
        self.salts.add(salt)
        if self.over_limit(call):
            return self.fault_reply(call, Fault("rate"))
        return None

    def bad_request(self, call):
        return Reply(200, {"errorCode": "101"})

    def ok_reply(self, call, translations):
        return Reply(200, {"errorCode": "0", "query": call.texts[0], "translation": translations[:1],
                           "l": f"{self.source}2{self.target}", "isWord": False,
                           "requestId": str(uuid.uuid4())})

    def broken_reply(self, call, translations, kind):
        body = {"errorCode": "0", "query": call.texts[0], "l": f"{self.source}2{self.target}"}
        if kind == "short":
            body["translation"] = []
        elif kind in ("misorder", "reorder"):  # the answer to another request
            body.update(query="A text of another request.", translation=["Un texto de otra petición."])
        return Reply(200, body)

    def fault_reply(self, call, fault):
        c = {"auth": "108", "rate": "411", "quota": "401"}.get(fault.kind, fault.code)
        return Reply(200, {"errorCode": c})
