"""Fake cloud translation providers on 127.0.0.1, speaking each provider's real wire format.

Each fake is a real HTTP server (``ThreadingHTTPServer`` on port 0) that

* checks every request exactly (method, path, query, headers, form or JSON fields, the signature
  recomputed from the secret, the API's per-request limits) and records what is wrong in
  :attr:`FakeProvider.problems` (the fixtures fail a test that leaves any);
* answers wrong credentials the way the provider does (an auth error, not a problem);
* translates with a small English->Spanish dictionary, or with the real offline Apertium
  (``translate=apertium_translate``), so that a pipeline can parse the output;
* plays scripted faults in the provider's own format: :func:`script` for the next requests,
  :meth:`FakeProvider.fail_at` for the n-th, :meth:`FakeProvider.fail_from` for every request from
  the n-th on (an exhausted quota);
* keeps a call log (:attr:`FakeProvider.calls`) with the texts each request carried.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Callable, Optional
from urllib.parse import parse_qs, urlsplit

from .serving import LoopbackServer, Served

# -- translations ---------------------------------------------------------------------------------
WORDS = {
    "the": "el", "a": "un", "an": "un", "bank": "banco", "raised": "subió", "interest": "interés",
    "rates": "tasas", "senator": "senador", "senators": "senadores", "rejected": "rechazó",
    "rejects": "rechaza", "budget": "presupuesto", "new": "nuevo", "proposal": "propuesta",
    "government": "gobierno", "announced": "anunció", "plan": "plan", "and": "y", "of": "de",
    "in": "en", "to": "a", "is": "es", "was": "fue", "it": "eso", "cat": "gato", "dog": "perro",
    "house": "casa", "big": "grande", "small": "pequeño", "president": "presidente", "said": "dijo",
    "on": "en", "with": "con", "for": "para", "vote": "voto", "law": "ley", "court": "tribunal",
    "don't": "no", "won't": "no", "o'neill": "O'Neill", "says": "dice",
}


def dictionary_translate(texts: list[str], source: str, target: str) -> list[str]:
    """Word by word through :data:`WORDS`, keeping punctuation and capitalisation."""
    out = []
    for text in texts:
        words = []
        for tok in re.findall(r"[\w']+|[^\w\s]", text):
            low = tok.lower()
            tr = WORDS.get(low, tok)
            if tok[:1].isupper() and tr[:1].islower():
                tr = tr[:1].upper() + tr[1:]
            words.append(tr)
        out.append(re.sub(r" ([.,;:!?])", r"\1", " ".join(words)))
    return out


def have_apertium() -> bool:
    if shutil.which("apertium") is None:
        return False
    try:
        modes = subprocess.run(["apertium", "-l"], capture_output=True, text=True, timeout=30).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return False
    return "eng-spa" in modes


_APERTIUM_MEMO: dict[str, str] = {}
_APERTIUM_LOCK = threading.Lock()


def apertium_translate(texts: list[str], source: str, target: str) -> list[str]:
    """The real offline Apertium eng-spa through sit's own adapter, which keeps each text apart
    (memoised). A plain ``apertium -u`` over one text a line runs lines without a final stop into
    each other: "president", "chancellor", "college" came back shifted by a line, which the
    cloud adapters' order check rightly took for a misordered answer."""
    from sit.translators.apertium import ApertiumTranslator

    lines = [" ".join(t.split()) for t in texts]
    with _APERTIUM_LOCK:
        todo = [line for line in dict.fromkeys(lines) if line not in _APERTIUM_MEMO]
        if todo:
            _APERTIUM_MEMO.update(zip(todo, ApertiumTranslator("en", "es").translate(todo)))
        return [_APERTIUM_MEMO[line] for line in lines]


# -- faults ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Fault:
    """A scripted misbehaviour; each provider renders it in its own format.

    kind: ``auth`` (the provider's credentials error), ``rate`` (its rate-limit answer,
    ``retry_after`` seconds in a Retry-After header where the provider uses HTTP 429), ``quota``
    (an exhausted quota or balance: not retryable), ``http`` (bare HTTP ``status``), ``code``
    (a raw provider error ``code``), ``slow`` (answer normally after ``delay`` seconds),
    ``malformed`` (HTTP 200, truncated JSON), ``short`` (one result fewer than inputs), ``missing``
    (a result without its text field), ``misorder`` (every result, in reverse order, with whatever
    proves alignment dropped where the provider's format allows: Baidu's ``src``; Youdao echoes
    another text as its ``query``), ``reorder`` (reversed, proofs kept: Baidu's ``src`` stays);
    OpenAI's batch answers also play ``swapped`` (every id kept, the values in reverse order: an
    id holds another text's translation) and ``twice`` (an id given twice)."""

    kind: str
    status: int = 500
    retry_after: Optional[str] = None
    code: Optional[str] = None
    delay: float = 0.0


BROKEN = ("short", "missing", "misorder", "reorder", "swapped", "twice")  # answered with translations, but wrongly
AUTH = Fault("auth")
QUOTA = Fault("quota")
SERVER_ERROR = Fault("http", status=500)
UNAVAILABLE = Fault("http", status=503)
MALFORMED = Fault("malformed")
SHORT = Fault("short")
MISSING = Fault("missing")
MISORDER = Fault("misorder")
REORDER = Fault("reorder")


def rate(retry_after: Optional[str] = "1") -> Fault:
    return Fault("rate", status=429, retry_after=retry_after)


def slow(delay: float) -> Fault:
    return Fault("slow", delay=delay)


def code(c: str) -> Fault:
    return Fault("code", code=c)


@dataclass
class Call:
    """One request as the fake received it."""

    n: int
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]  # lower-case names
    body: bytes
    form: dict[str, list[str]] = field(default_factory=dict)
    json: Any = None
    texts: list[str] = field(default_factory=list)
    status: int = 0
    fault: Optional[str] = None
    translated: bool = False  # answered with translations
    t: float = 0.0


class Reply:
    def __init__(self, status: int = 200, body: Any = None, headers: Optional[dict[str, str]] = None, raw: Optional[bytes] = None):
        self.status = status
        self.headers = dict(headers or {})
        if raw is not None:
            self.body = raw
        else:
            self.body = json.dumps(body, ensure_ascii=False).encode("utf-8")
            self.headers.setdefault("Content-Type", "application/json; charset=utf-8")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as requests' Session expects
    disable_nagle_algorithm = True  # headers and body go in two writes: no 40 ms delayed-ACK stall
    server: "LoopbackServer"

    def log_message(self, *args):  # quiet
        pass

    def _serve(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        reply = self.server.fake._dispatch(self.command, self.path, self.headers, body)
        try:
            self.send_response(reply.status)
            for k, v in reply.headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
            self.close_connection = True

    do_GET = do_POST = do_PUT = _serve


class FakeProvider(Served):
    """Base of the fakes: the server, the call log, the fault script."""

    name = "fake"
    path = "/"
    handler = _Handler

    def __init__(self, *, translate: Callable[[list[str], str, str], list[str]] = dictionary_translate,
                 source: str = "en", target: str = "es", clock: Optional[Callable[[], float]] = None):
        self.translate = translate
        self.source = source  # the provider's codes the adapter must send
        self.target = target
        self.clock = clock or time.monotonic
        self.calls: list[Call] = []
        self.problems: list[str] = []
        self._faults: deque = deque()
        self._at: dict[int, Fault] = {}
        self._from: Optional[tuple[int, Fault]] = None
        self._lock = threading.Lock()

    # -- scripting -----------------------------------------------------------------------------
    def script(self, *faults: Optional[Fault]) -> "FakeProvider":
        """The next requests misbehave in this order (None: answer normally)."""
        self._faults.extend(faults)
        return self

    def fail_at(self, n: int, fault: Fault) -> "FakeProvider":
        """The n-th request (1-based, counting every request received) misbehaves."""
        self._at[n] = fault
        return self

    def fail_from(self, n: int, fault: Fault) -> "FakeProvider":
        """Every request from the n-th on misbehaves (an outage, an exhausted quota)."""
        self._from = (n, fault)
        return self

    def heal(self) -> None:
        self._faults.clear()
        self._at.clear()
        self._from = None

    # -- the log -------------------------------------------------------------------------------
    @property
    def translated_texts(self) -> list[str]:
        """Every text the fake answered with a translation, in order, repeats included."""
        return [t for c in self.calls if c.translated for t in c.texts]

    def env(self) -> dict[str, str]:
        raise NotImplementedError

    # -- serving -------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return self.address + self.path

    def problem(self, call: Call, what: str) -> None:
        self.problems.append(f"{self.name} request {call.n}: {what}")

    def _dispatch(self, method: str, raw_path: str, headers, body: bytes) -> Reply:
        parts = urlsplit(raw_path)
        with self._lock:
            call = Call(n=len(self.calls) + 1, method=method, path=parts.path,
                        query=parse_qs(parts.query, keep_blank_values=True),
                        headers={k.lower(): v for k, v in headers.items()}, body=body, t=self.clock())
            self.calls.append(call)
            fault = self._faults.popleft() if self._faults else None
            fault = self._at.pop(call.n, fault)
            if self._from is not None and call.n >= self._from[0]:
                fault = self._from[1]
        if method != "POST":
            self.problem(call, f"method {method}, expected POST")
        if call.path != self.path:
            self.problem(call, f"path {call.path!r}, expected {self.path!r}")
        before = len(self.problems)
        try:
            reply = self.check(call)  # parses texts, checks the request; a Reply for wrong credentials
        except Exception as exc:  # noqa: BLE001 - a request the fake cannot even parse
            self.problem(call, f"unparseable request: {exc!r}")
            reply = Reply(400, {"error": "bad request"})
        if reply is None and len(self.problems) > before:
            reply = self.bad_request(call)
        if reply is None and fault is not None:
            call.fault = fault.kind
            if fault.kind == "slow":
                time.sleep(fault.delay)
            elif fault.kind == "malformed":
                reply = Reply(200, raw=b'{"data": {"translations": [{"translatedText": "tru',
                              headers={"Content-Type": "application/json; charset=utf-8"})
            elif fault.kind == "http":
                reply = Reply(fault.status, raw=b"<html><body>Server Error</body></html>",
                              headers={"Content-Type": "text/html", **({"Retry-After": fault.retry_after} if fault.retry_after else {})})
            elif fault.kind not in BROKEN:
                reply = self.fault_reply(call, fault)
        if reply is None:
            translations = self.translate(call.texts, self.source, self.target)
            if fault is not None and fault.kind in BROKEN:
                reply = self.broken_reply(call, translations, fault.kind)
            else:
                reply = self.ok_reply(call, translations)
                call.translated = True
        call.status = reply.status
        return reply

    # -- provider hooks ------------------------------------------------------------------------
    def check(self, call: Call) -> Optional[Reply]:
        """Parse ``call.texts``; record problems; return a Reply for wrong credentials."""
        raise NotImplementedError

    def bad_request(self, call: Call) -> Reply:
        return Reply(400, {"error": "bad request"})

    def ok_reply(self, call: Call, translations: list[str]) -> Reply:
        raise NotImplementedError

    def broken_reply(self, call: Call, translations: list[str], kind: str) -> Reply:
        raise NotImplementedError

    def fault_reply(self, call: Call, fault: Fault) -> Reply:
        raise NotImplementedError


def form_of(call: Call) -> dict[str, list[str]]:
    ctype = call.headers.get("content-type", "")
    if not ctype.startswith("application/x-www-form-urlencoded"):
        raise ValueError(f"Content-Type {ctype!r}, expected a form")
    return parse_qs(call.body.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(call.body))


def single(form: dict[str, list[str]], name: str) -> str:
    values = form.get(name, [])
    if len(values) != 1:
        raise ValueError(f"field {name!r} given {len(values)} times")
    return values[0]


from .llm import FakeDeepL, FakeOpenAI  # noqa: E402
from .providers import FakeBaidu, FakeBing, FakeGoogle, FakeYoudao  # noqa: E402

FAKES = {"google": FakeGoogle, "bing": FakeBing, "baidu": FakeBaidu, "youdao": FakeYoudao, "openai": FakeOpenAI,
         "deepl": FakeDeepL}

__all__ = [
    "AUTH", "Call", "FAKES", "Fault", "FakeBaidu", "FakeDeepL", "FakeOpenAI", "FakeBing", "FakeGoogle", "FakeProvider", "FakeYoudao",
    "MALFORMED", "MISORDER", "MISSING", "REORDER", "QUOTA", "SERVER_ERROR", "SHORT", "UNAVAILABLE", "apertium_translate", "code",
    "dictionary_translate", "have_apertium", "rate", "slow",
]
