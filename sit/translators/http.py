"""The shared base of the cloud adapters: one ``requests.Session``, a rate limiter, retries with
exponential backoff and jitter, request splitting within each API's limits, credentials.

An adapter declares its credentials, endpoint, limits and language codes, and implements two
methods: :meth:`HttpTranslator._build_request` (texts -> keyword arguments of
``Session.request``) and :meth:`HttpTranslator._parse_response` (response -> translations, or a
:mod:`sit.errors` exception). Everything else lives here:

* credentials come from ``SIT_*`` environment variables, else from the credentials file
  (:mod:`sit.credentials`); missing ones raise :class:`MissingCredentialsError` in
  ``__init__``, before any work, naming the variables. Secret values are redacted from every
  message this module raises or logs, and are never part of the cache namespace.
* ``SIT_<NAME>_ENDPOINT`` (or ``endpoint`` in the file) replaces the provider's URL; it is printed
  only without its ``user:password@``, query string and fragment (:func:`public_url`), which are
  redacted like the credentials (:mod:`sit.redact`: their forms and fragments too). Its
  ``user:password@`` never replaces the adapter's own ``Authorization`` header; where the adapter
  sends none, it goes as basic auth.
* every answer is checked before anything of it is cached (:meth:`HttpTranslator.checked`):
  empty or non-text answers are asked again, then left untranslated; a batch of an API that
  promises order (:attr:`HttpTranslator.promises_order`) whose answers look misaligned is asked
  again one text at a time. Bodies are read by :mod:`sit.jsonio` (depth and size limits) and
  never quoted unredacted.
* every HTTP attempt, retries included, waits for the rate limiter (``qps``), and ends within about
  ``timeout`` seconds: a server that trickles its answer is cut off at that deadline.
* with ``concurrency`` N above 1, the requests of a batch run on N threads; the rate limiter and
  the counters hold across them, and the batch's answers keep their order.
* 429, 5xx, timeouts, connection errors, bodies cut short, invalid JSON and provider "busy" codes are retried up to
  ``max_retries`` times, waiting ``Retry-After`` where the provider sends it, else an exponential
  backoff with jitter; authentication errors are never retried.
* a batch from :meth:`Translator.translate` is split further by the API's item/character/byte
  limits; when a later request of a batch fails, the requests that succeeded are written to the
  cache before the error propagates, so a resumed run never pays for them twice.
"""

from __future__ import annotations

import email.utils
import logging
import os
import random
import re
import threading
import time
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence
from urllib.parse import urlsplit

from .. import __version__
from ..errors import (
    AuthError,
    ConfigError,
    MissingCredentialsError,
    ProviderError,
    RateLimitError,
    ResponseMismatchError,
    TranslationError,
)
from ..jsonio import JsonDamage, loads
from ..redact import Redactor, active, public_url  # noqa: F401 - public_url is re-exported
from ..validate import check_number
from .answers import moved, suspect_order, unplaced
from .base import Translator
from .company import mark
from ..credentials import config_path, load_section
from ..text import squeeze

log = logging.getLogger("sit.translators")

DEFAULT_TIMEOUT = 30.0  # seconds per HTTP request
DEFAULT_MAX_RETRIES = 5
DEFAULT_BACKOFF = 1.0  # first backoff, seconds; doubles each retry
DEFAULT_BACKOFF_MAX = 60.0
DEFAULT_MAX_RETRY_AFTER = 300.0  # a longer Retry-After stops the run (the cache keeps the progress)
MAX_MESSAGE = 600  # characters of an error message built from a provider's answer
#: how many times a request's empty or non-text answers are asked again before they are left
#: untranslated
ANSWER_RETRIES = 2


@dataclass(frozen=True)
class Credential:
    """One credential of an adapter: its key in the file's table and its environment variable."""

    field: str
    env: str
    required: bool = True
    #: variables read when ``env`` is unset (the ecosystem's own, e.g. ``OPENAI_API_KEY``)
    fallbacks: tuple[str, ...] = ()
    #: whether the value is a secret (redacted everywhere); a region is not
    secret: bool = True


def response_json(response) -> Any:
    """A response's body through :func:`sit.jsonio.loads` (depth and size limits): a
    :class:`~sit.jsonio.JsonDamage` for anything else."""
    content = getattr(response, "content", None)
    if isinstance(content, (bytes, bytearray)):
        return loads(content)
    try:
        return response.json()  # a session of the caller's
    except RecursionError:
        raise JsonDamage("nested too deeply") from None


def _split_userinfo(url: str) -> tuple[str, Optional[tuple[str, str]]]:
    """``url`` without its ``user:password@`` and that pair (None where there is none).
    requests would turn the pair into an ``Authorization: Basic`` header that replaces the
    adapter's own (an API key's), so the adapter decides (:meth:`HttpTranslator._attempt`)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url, None
    from urllib.parse import unquote

    userinfo, _, host = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    return parts._replace(netloc=host).geturl(), (unquote(user), unquote(password))


class RateLimiter:
    """At most ``qps`` acquisitions per second: a token bucket of capacity one, i.e. a minimum
    interval of ``1/qps`` between the start of two requests.

    Thread-safe: each caller reserves the next free slot under a lock, then sleeps outside it
    until that slot. ``clock`` and ``sleep`` are injectable so tests need not wait.
    :meth:`acquire` returns the slot (a ``clock()`` time) the caller was given."""

    def __init__(
        self,
        qps: Optional[float],
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ):
        qps = check_number(qps, "--qps", above=0, what="requests per second")
        self.qps = qps
        self.interval = 1.0 / qps if qps else 0.0
        self._clock = clock
        self._sleep = sleep
        self._next: Optional[float] = None
        self._lock = threading.Lock()

    def acquire(self) -> float:
        with self._lock:
            now = self._clock()
            if not self.interval:
                return now
            slot = now if self._next is None or now >= self._next else self._next
            self._next = slot + self.interval
        if slot > now:
            self._sleep(slot - now)
        return slot


def parse_retry_after(value: Optional[str], *, now: Optional[float] = None) -> Optional[float]:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date; None if absent
    or unreadable."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if seconds != seconds:  # NaN
        return None
    return max(0.0, seconds)


class HttpTranslator(Translator):
    """Base of the cloud adapters (see the module documentation)."""

    batch_independent = True  # each text of a request is translated on its own

    name = "http"
    #: the credentials this adapter needs, in the order the error message lists them
    credentials_spec: tuple[Credential, ...] = ()
    #: the provider's URL of the translate operation
    default_endpoint: str = ""
    #: requests per second when --qps is not given (None: no limit)
    default_qps: Optional[float] = None
    #: the API's limits per request: texts, characters (code points), UTF-8 bytes
    max_items: int = 100
    max_chars: Optional[int] = None
    max_bytes: Optional[int] = None
    #: bytes/characters a separator adds per text (Baidu joins texts with newlines)
    separator_size: int = 0
    #: sit language code -> the provider's code; codes not listed are sent as they are
    languages: Mapping[str, str] = {}
    #: whether --model means something to this provider (Google's model, Bing's category)
    accepts_model: bool = False
    #: the API version, recorded in signatures and cache keys
    api_version: str = ""
    #: whether the API answers a batch as a list in the order sent without proving it (no ids,
    #: no echo of the source): its answers go through the per-batch order check
    promises_order: bool = False
    #: seconds per request when --timeout is not given (an LLM on a CPU needs more)
    default_timeout: float = DEFAULT_TIMEOUT

    def __init__(
        self,
        source_lang: str = "en",
        target_lang: str = "es",
        *,
        credentials: Optional[Mapping[str, str]] = None,
        endpoint: Optional[str] = None,
        session=None,
        clock: Optional[Callable[[], float]] = None,
        sleep: Optional[Callable[[float], None]] = None,
        rng: Optional[random.Random] = None,
        max_retries: Optional[int] = None,
        backoff: Optional[float] = None,
        backoff_max: Optional[float] = None,
        max_retry_after: Optional[float] = None,
        env: Optional[Mapping[str, str]] = None,
        **base: Any,
    ):
        """``base``: the options every translator takes (:class:`~sit.translators.base.Translator`:
        model, cache, batch_size, qps, timeout, concurrency ...); the rest are this transport's
        (``credentials``/``endpoint``/``env`` override the environment; ``session``, ``clock``,
        ``sleep`` and ``rng`` are for tests)."""
        super().__init__(source_lang, target_lang, **base)
        env = os.environ if env is None else env
        # credentials first: a missing one is the first thing the user hears, before any work
        self._credentials = self._load_credentials(credentials, env)
        if self.model and not self.accepts_model:
            raise ConfigError(f"the {self.name} translator has no models to choose from; drop --model")
        self._set_endpoint(endpoint, env)
        self._set_pacing(clock, sleep, rng)
        self._set_retries(env, max_retries, backoff, backoff_max, max_retry_after)
        self.api_source = self.map_language(source_lang)
        self.api_target = self.map_language(target_lang)
        self.requests_sent = 0  # logical requests (a request retried three times counts once)
        self.attempts = 0  # HTTP attempts, retries included
        self.retries = 0
        self.order_reasks = 0  # batches whose answers looked out of order, asked again text by text
        #: whether a batch's answers were found moved (:meth:`ordered`): no batch is trusted after
        self.order_broken = False
        self._count_lock = threading.Lock()  # the counters above, under --concurrency
        self._local = threading.local()  # the number of the request this thread is sending
        self.session = session if session is not None else self._new_session()

    def _set_endpoint(self, endpoint: Optional[str], env: Mapping[str, str]) -> None:
        """The endpoint (its ``user:password@`` kept apart) and the redactor of every secret it,
        the credentials and the process's proxies hold."""
        self.endpoint = self._resolve_endpoint(endpoint, env)
        self.redactor = Redactor(self._credentials[s.field] for s in self.credentials_spec
                                 if s.secret and s.field in self._credentials)
        proxies = [v for source in (env, os.environ) for k, v in source.items() if k.lower().endswith("_proxy")]
        for url in [self.endpoint] + proxies:  # requests takes proxies from the process's environment
            self.redactor.add_url(url)
        active().add(*self.redactor.secrets())  # the files and logs of the command that runs
        self.endpoint, self._url_auth = _split_userinfo(self.endpoint)

    def _set_pacing(self, clock, sleep, rng) -> None:
        """Batch size, timeout, requests per second and in flight: the provider's defaults where
        the base options left them unset."""
        self.batch_size = max(1, min(self.batch_size, self.max_items))
        self.timeout = self.timeout if self.timeout is not None else self.default_timeout
        self.qps = self.qps if self.qps is not None else self.default_qps
        self.concurrency = self.concurrency or 1
        self._clock = clock or time.monotonic
        self._sleep = sleep or time.sleep
        self.limiter = RateLimiter(self.qps, clock=self._clock, sleep=self._sleep)
        self._rng = rng if rng is not None else random.Random()

    def _set_retries(self, env, max_retries, backoff, backoff_max, max_retry_after) -> None:
        self.max_retries = self._number(max_retries, env, "SIT_HTTP_MAX_RETRIES", DEFAULT_MAX_RETRIES, int)
        self.backoff = self._number(backoff, env, "SIT_HTTP_BACKOFF", DEFAULT_BACKOFF, float)
        backoff_max = check_number(backoff_max, "backoff_max", minimum=0)
        self.backoff_max = backoff_max if backoff_max is not None else max(DEFAULT_BACKOFF_MAX, self.backoff)
        max_retry_after = check_number(max_retry_after, "max_retry_after", minimum=0)
        self.max_retry_after = max_retry_after if max_retry_after is not None else DEFAULT_MAX_RETRY_AFTER

    @staticmethod
    def _new_session():
        import requests

        session = requests.Session()
        session.headers["User-Agent"] = f"sit/{__version__} (+structure-invariant testing)"
        return session

    # -- configuration -------------------------------------------------------------------------
    @classmethod
    def env_prefix(cls) -> str:
        return f"SIT_{cls.name.upper()}"

    def _load_credentials(self, given: Optional[Mapping[str, str]], env: Mapping[str, str]) -> dict[str, str]:
        if given is not None:
            values = {k: str(v) for k, v in given.items() if v not in (None, "")}
            self._file_section: dict[str, str] = {}
        else:
            values = {}
            for spec in self.credentials_spec:
                v = next((x for x in (env.get(e, "").strip() for e in (spec.env, *spec.fallbacks)) if x), "")
                if v:
                    values[spec.field] = v
            missing = [s for s in self.credentials_spec if s.field not in values]
            self._file_section = load_section(self.name, env) if missing or not any(
                env.get(v) for v in self.endpoint_vars()) else {}
            for spec in missing:
                v = self._file_section.get(spec.field, "").strip()
                if v:
                    values[spec.field] = v
        for spec in self.credentials_spec:
            bad = next((i for i, c in enumerate(values.get(spec.field, "")) if not (c.isascii() and c.isprintable())
                        or c.isspace()), None)
            if bad is not None:  # a pasted quote, ellipsis or zero-width space: never sent, never shown
                raise ConfigError(f"{spec.env} (or {spec.field} under [{self.name}] in {config_path(env)}) has a "
                                  f"character that is not printable ASCII at position {bad + 1}; copy the "
                                  "credential again from the provider's console")
        missing = [s for s in self.credentials_spec if s.required and s.field not in values]
        if missing:
            names = " and ".join(s.env for s in missing)
            fields = " and ".join(s.field for s in missing)
            raise MissingCredentialsError(
                f"the {self.name} translator needs credentials: set {names} "
                f"(or {fields} under [{self.name}] in {config_path(env)})"
            )
        return values

    def endpoint_vars(self) -> tuple[str, ...]:
        """The environment variables that replace the endpoint, first found wins."""
        return (f"{self.env_prefix()}_ENDPOINT",)

    def default_url(self) -> str:
        """The provider's URL when nothing replaces it (DeepL's depends on the key)."""
        return self.default_endpoint

    def endpoint_url(self, value: str) -> str:
        """The request URL for a configured endpoint value (an OpenAI base URL gains its path)."""
        return value

    def _resolve_endpoint(self, given: Optional[str], env: Mapping[str, str]) -> str:
        var = self.endpoint_vars()[0]
        url = given or next((env.get(v, "").strip() for v in self.endpoint_vars() if env.get(v, "").strip()), "")
        url = url or getattr(self, "_file_section", {}).get("endpoint", "")
        url = self.endpoint_url(url) if url else self.default_url()
        try:
            parts = urlsplit(url)
            valid = parts.scheme in ("http", "https") and bool(parts.hostname) and (parts.port or 1) > 0
        except ValueError:  # an unclosed [IPv6], a port out of range
            valid = False
        if not valid or any(c.isspace() or not c.isprintable() for c in url):
            raise ConfigError(f"{var} must be an http(s) URL such as {self.default_url()}, not {public_url(url)!r}")
        if parts.scheme == "http" and parts.hostname not in ("127.0.0.1", "localhost", "::1"):
            log.warning("%s: %s is plain http; credentials and texts travel unencrypted", self.name, public_url(url))
        return url

    @staticmethod
    def _number(given, env: Mapping[str, str], var: str, default, kind):
        value = given if given is not None else (env.get(var, "").strip() or None)
        value = check_number(value, var, minimum=0, integer=kind is int)
        return default if value is None else value

    def map_language(self, code: str) -> str:
        return self.languages.get(code, code)

    def version(self) -> str:
        return self.api_version

    def credential(self, field: str) -> str:
        return self._credentials.get(field, "")

    def __repr__(self) -> str:  # never shows credentials
        return f"<{type(self).__name__} {self.source_lang}->{self.target_lang} endpoint={public_url(self.endpoint)!r}>"

    # -- errors --------------------------------------------------------------------------------
    def redact(self, text: str) -> str:
        """``text`` without this adapter's secrets, their forms and fragments (:mod:`sit.redact`)."""
        return self.redactor(text)

    def quote(self, text: Any, limit: int = 200) -> str:
        """A piece of a provider's answer as a message may show it: one line, at most ``limit``
        characters, redacted (before and after the cut, so a cut secret is caught as a fragment)."""
        text = squeeze(self.redact(str(text)))
        return self.redact(text if len(text) <= limit else text[: limit - 3] + "...")

    def where(self, texts: Sequence[str]) -> str:
        """Names the request in messages: its number in this run, size and first text."""
        first = texts[0] if texts else ""
        first = first if len(first) <= 40 else first[:37] + "..."
        n = getattr(self._local, "n", self.requests_sent)
        return f"batch #{n} ({len(texts)} text(s), first {first!r})"

    def error(self, cls=ProviderError, message: str = "", **kwargs) -> TranslationError:
        """An exception of ``cls`` naming this adapter, with secrets redacted."""
        text = self.redact(f"{self.name}: {message}")
        if len(text) > MAX_MESSAGE:  # a provider's message of a megabyte
            text = text[: MAX_MESSAGE - 3] + "..."
        return cls(text, translator=self.name, **kwargs)

    def mismatch(self, texts: Sequence[str], what: str) -> ResponseMismatchError:
        return self.error(ResponseMismatchError, f"{self.where(texts)}: response does not match the request: {what}")

    def json_body(self, response, texts: Sequence[str]) -> Any:
        """The response's JSON; invalid JSON (a truncated or proxy-mangled answer) is retryable."""
        try:
            return response_json(response)
        except JsonDamage as exc:  # the body is never quoted: it may hold anything
            ctype = self.quote(response.headers.get("Content-Type", "") or "none", 60)
            raise self.error(
                ProviderError, f"{self.where(texts)}: HTTP {response.status_code} with an answer that is {exc} "
                f"(Content-Type {ctype})", status=response.status_code, retryable=True,
            ) from None

    def http_error(self, response, texts: Sequence[str], *, code: Any = None, detail: str = "") -> TranslationError:
        """The exception for a non-2xx answer: 401/403 auth (never retried), 429 rate limit and
        408/5xx retryable (both honouring Retry-After), any other 4xx not retryable."""
        status = response.status_code
        retry_after = parse_retry_after(response.headers.get("Retry-After"))
        code = None if code in (None, "") else self.quote(code, 60)
        what = f"{self.where(texts)}: HTTP {status}" + (f" ({code})" if code else "") + (
            f": {self.quote(detail)}" if detail else "")
        kw = dict(status=status, code=None if code is None else str(code), retry_after=retry_after)
        if status in (401, 403):
            return self.error(AuthError, f"{what}; check {', '.join(s.env for s in self.credentials_spec)}", **kw)
        if status == 429:
            return self.error(RateLimitError, f"{what}; the provider asks us to slow down (try a lower --qps)", retryable=True, **kw)
        if status == 408 or status >= 500:
            return self.error(ProviderError, what, retryable=True, **kw)
        return self.error(ProviderError, what, **kw)

    # -- requests ------------------------------------------------------------------------------
    def plan(self, texts: Sequence[str]) -> list[list[str]]:
        """Split a batch into requests within ``max_items``, ``max_chars`` and ``max_bytes``.
        A single text over a limit goes alone (the provider then says what it thinks of it)."""
        chunks: list[list[str]] = []
        cur: list[str] = []
        chars = size = 0
        for text in texts:
            c = len(text) + self.separator_size
            b = self.wire_bytes(text)
            if cur and (
                len(cur) >= self.max_items
                or (self.max_chars is not None and chars + c > self.max_chars)
                or (self.max_bytes is not None and size + b > self.max_bytes)
            ):
                chunks.append(cur)
                cur, chars, size = [], 0, 0
            cur.append(text)
            chars += c
            size += b
        if cur:
            chunks.append(cur)
        return chunks

    def wire_bytes(self, text: str) -> int:
        """The bytes ``text`` adds to a request, as :attr:`max_bytes` counts them."""
        return len(text.encode("utf-8")) + self.separator_size

    def _translate_batch(self, texts: list[str], check: bool = True) -> list[Optional[str]]:
        chunks = self.plan(texts)
        if self.concurrency > 1 and len(chunks) > 1:
            return self._concurrent(chunks, check)
        done_src: list[str] = []
        done_out: list[Optional[str]] = []
        for chunk in chunks:
            try:
                out = self.request(chunk, check=check)
            except TranslationError as exc:
                # hand back what this batch already paid for: Translator.translate caches it
                exc.partial.update(zip(done_src, done_out))
                raise
            done_src.extend(chunk)
            done_out.extend(out)
        return done_out

    def _translate_again(self, texts: list[str]) -> list[Optional[str]]:
        """The second look's requests (:mod:`sit.translators.company`), without the order check:
        each answer there is kept only where it is the one its text got in its first batch, and
        any other sends its text alone, so a doubt of the check would only re-ask, one text at a
        time, what the comparison settles anyway (held texts are the ones the evidence reads
        least, and put together they drew false doubts: 50 requests more in 2 of 4 orders of the
        benchmark's texts at batch size 50)."""
        return self._translate_batch(texts, check=False)

    def _concurrent(self, chunks: list[list[str]], check: bool = True) -> list[Optional[str]]:
        """The requests of one batch on ``concurrency`` threads, answers in order. After the first
        failure no new request starts; the answers that came back travel on the error."""
        with ThreadPoolExecutor(self.concurrency, thread_name_prefix=f"sit-{self.name}") as pool:
            futures = [pool.submit(self.request, chunk, check=check) for chunk in chunks]
            wait(futures, return_when=FIRST_EXCEPTION)
            for f in futures:
                f.cancel()
        errors = [f.exception() for f in futures if not f.cancelled() and f.exception() is not None]
        if errors:
            exc = errors[0]
            if not isinstance(exc, TranslationError):
                raise exc
            for chunk, f in zip(chunks, futures):
                if not f.cancelled() and f.exception() is None:
                    exc.partial.update((t, o) for t, o in zip(chunk, f.result()) if o is not None)
            raise exc
        return [out for f in futures for out in f.result()]

    def request(self, texts: list[str], check: bool = True) -> list[Optional[str]]:
        """One logical request and the check of its answer (:meth:`checked`; without the order
        check where ``check`` is false); once the provider has answered a batch out of order
        (:attr:`order_broken`), one request per text. Thread-safe."""
        if self.order_broken and len(texts) > 1:
            with self._count_lock:
                self.order_reasks += 1
            return [self.checked([t], self.send([t]))[0] for t in texts]
        return self.checked(texts, self.send(texts), check=check)

    def checked(self, texts: list[str], out: list[Any], check: bool = True) -> list[Optional[str]]:
        """The answers to ``texts`` once checked, in order; ``None`` for a text left untranslated.

        Where the API promises order but proves nothing (:attr:`promises_order`), a batch whose
        answers the order check doubts (:func:`~sit.translators.answers.suspect_order`) is asked
        again one text at a time (:meth:`ordered`): nothing of the doubted answer is kept. An
        answer that fails the per-text check (not text, or empty:
        :meth:`~sit.translators.base.Translator.answer_fault`) is asked again up to :data:`ANSWER_RETRIES`
        times, then left untranslated (``None``: not cached, a re-run asks again). When a re-ask
        fails, the answers already checked travel on the error (``partial``)."""
        out = list(out)
        try:
            if self.promises_order and len(texts) > 1 and check:
                out = self.ordered(texts, out)
            for _ in range(ANSWER_RETRIES):
                bad = [i for i, (t, o) in enumerate(zip(texts, out)) if self.answer_fault(t, o)]
                if not bad:
                    break
                log.warning("%s: %s: %d answer(s) empty, not text or echoing the credentials; asking again", self.name, self.where(texts), len(bad))
                for i, again in zip(bad, self.send([texts[i] for i in bad])):
                    out[i] = again
        except TranslationError as exc:
            exc.partial.update((t, o) for t, o in zip(texts, out) if isinstance(o, str) and not self.answer_fault(t, o))
            raise
        return [None if self.answer_fault(t, o) else o for t, o in zip(texts, out)]

    def _answer_fault(self, answer: Any) -> Optional[str]:
        """An answer that echoes a secret of this adapter (its key, a fragment of it, the
        endpoint's password) is no translation: asked again, then left untranslated, never
        cached, so no file or report a later run writes without the key holds it."""
        return "an echo of the credentials" if self.redactor.holds(answer) else None

    def ordered(self, texts: list[str], out: list[Any]) -> list[Any]:
        """The answers of a batch whose order nothing proves: ``out`` where the order check finds
        nothing to doubt, else each text asked again alone (one text cannot be misordered). When
        the texts asked alone show that the batch's answers had been moved (a text's own answer is
        another text's batch answer), the provider is known to reorder: it is no longer trusted
        with any batch (:attr:`order_broken`), and every later batch is sent one text at a time
        (:meth:`request`), since a check of one batch at a time cannot see every misorder of a
        consistent one. Answers of a batch the check does not doubt but cannot place either
        (:func:`~sit.translators.answers.unplaced`) come back marked
        (:class:`~sit.translators.company.Unplaced`): the translator asks their texts again in
        other company before anything of them is cached."""
        why = suspect_order(texts, out)
        if not why:
            return mark(texts, out, unplaced(texts, out))
        with self._count_lock:
            self.order_reasks += 1
        where = self.where(texts)
        log.warning("%s: %s: the answers look out of order (%s); asking again one text at a time", self.name, where, why)
        alone = [self.send([t])[0] for t in texts]
        if not self.order_broken and moved(out, alone):
            self.order_broken = True
            log.warning("%s: the answers of %s were out of order (the texts asked alone got answers the batch gave "
                        "to other texts); from now on every batch is asked one text at a time", self.name, where)
        return alone

    def _plan(self, texts: list[str]) -> Optional[list[list[str]]]:
        """Where the order check reads the answers, batches of the usual sizes (full ones, then the
        rest) dealt the texts in turn, one to each: a sentence and its perturbations (near copies,
        side by side in a run) then travel in other batches, where the evidence tells each from its
        neighbours."""
        if not self.promises_order or len(texts) <= self.batch_size:
            return None
        sizes = [len(texts[i:i + self.batch_size]) for i in range(0, len(texts), self.batch_size)]
        batches: list[list[str]] = [[] for _ in sizes]
        dealt = iter(texts)
        for turn in range(self.batch_size):
            for batch, size in zip(batches, sizes):
                if turn < size:
                    batch.append(next(dealt))
        return batches

    def _answers_moved(self) -> None:
        if not self.order_broken:
            self.order_broken = True
            log.warning("%s: texts asked alone got answers their batch had given other texts; from now on every "
                        "batch is asked one text at a time", self.name)

    def send(self, texts: list[str]) -> list[Any]:
        """One logical request, retried on retryable errors with backoff; one answer per text
        (not yet checked). Thread-safe."""
        with self._count_lock:
            self.requests_sent += 1
            self._local.n = self.requests_sent
        attempt = 0
        while True:
            try:
                out = self._attempt(texts)
            except TranslationError as exc:
                exc.args = (self.redact(str(exc)),)
                if not exc.retryable or isinstance(exc, AuthError) or attempt >= self.max_retries:
                    if attempt:
                        exc.args = (f"{exc} (gave up after {attempt + 1} attempts)",)
                    raise
                delay = self._delay(attempt, getattr(exc, "retry_after", None))
                if delay is None:
                    exc.args = (f"{exc}; it asks us to wait {exc.retry_after:.0f} s, longer than "  # type: ignore[attr-defined]
                                f"{self.max_retry_after:.0f} s: run again later to resume",)
                    raise
                attempt += 1
                with self._count_lock:
                    self.retries += 1
                log.warning("%s; retry %d of %d in %.1f s", exc, attempt, self.max_retries, delay)
                self._sleep(delay)
                continue
            if not isinstance(out, list) or len(out) != len(texts):
                n = len(out) if isinstance(out, list) else type(out).__name__
                raise self.mismatch(texts, f"sent {len(texts)} text(s), got {n} translation(s)")
            return out

    def _delay(self, attempt: int, retry_after: Optional[float]) -> Optional[float]:
        if retry_after is not None:
            if retry_after > self.max_retry_after:
                return None
            return retry_after + self._rng.uniform(0, min(1.0, self.backoff))
        cap = min(self.backoff_max, self.backoff * (2 ** attempt))
        return cap / 2 + self._rng.uniform(0, cap / 2)  # "equal jitter": never less than half the step

    def _attempt(self, texts: list[str]) -> list[str]:
        import requests
        import urllib3

        kwargs = self._build_request(texts)
        kwargs.setdefault("method", "POST")
        kwargs.setdefault("url", self.endpoint)
        self._url_credentials(kwargs)
        self.limiter.acquire()
        with self._count_lock:
            self.attempts += 1
        log.debug("%s: %s: %d character(s)", self.name, self.where(texts), sum(map(len, texts)))
        deadline = time.monotonic() + self.timeout
        try:
            response = self.session.request(timeout=self.timeout, allow_redirects=False, stream=True, **kwargs)
            try:
                self._read_body(response, deadline)
            except BaseException:
                response.close()
                raise
        except (requests.Timeout, TimeoutError, urllib3.exceptions.ReadTimeoutError):
            raise self.error(ProviderError, f"{self.where(texts)}: no answer within {self.timeout:g} s (--timeout)", retryable=True) from None
        except requests.ConnectionError as exc:
            reason = re.search(r"\[Errno -?\d+\][^'\")]*", str(exc))
            raise self.error(ProviderError, f"{self.where(texts)}: cannot reach {self._host()}: "
                             f"{reason.group(0) if reason else type(exc).__name__}", retryable=True) from None
        except (requests.exceptions.ChunkedEncodingError, requests.exceptions.ContentDecodingError,
                urllib3.exceptions.ProtocolError, urllib3.exceptions.DecodeError):
            raise self.error(ProviderError, f"{self.where(texts)}: the answer was cut short", retryable=True) from None
        except requests.RequestException as exc:
            raise self.error(ProviderError, f"{self.where(texts)}: request failed: {type(exc).__name__}") from None
        try:
            return self._parse_response(response, texts)
        finally:
            response.close()

    def _url_credentials(self, kwargs: dict[str, Any]) -> None:
        """The endpoint's ``user:password@`` as HTTP basic auth, unless the adapter authenticates
        with its own Authorization header (an API key), which it must not replace."""
        if self._url_auth is None:
            return
        headers = kwargs.setdefault("headers", {})
        if not any(k.lower() == "authorization" for k in headers):
            import base64

            pair = ":".join(self._url_auth).encode("utf-8")
            headers["Authorization"] = "Basic " + base64.b64encode(pair).decode("ascii")

    def _read_body(self, response, deadline: float) -> None:
        """Read the body by pieces as they arrive, each socket wait no longer than the time left:
        the whole request, trickled answers included, ends near ``--timeout``."""
        raw, body = getattr(response, "raw", None), bytearray()
        if raw is None:  # a session of the caller's (``session=``) that answers in one piece
            return
        sock = getattr(getattr(raw, "connection", None), "sock", None)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            if sock is not None:
                sock.settimeout(min(self.timeout, left))
            chunk = raw.read1(1 << 16, decode_content=True)  # what has arrived, up to 64 KiB
            if not chunk:
                break
            body += chunk
        response._content = bytes(body)  # what response.json() and .text read

    def _host(self) -> str:
        parts = urlsplit(public_url(self.endpoint))
        return f"{parts.scheme}://{parts.netloc}"

    # -- adapter hooks -------------------------------------------------------------------------
    def _build_request(self, texts: list[str]) -> dict[str, Any]:
        """Keyword arguments of ``Session.request`` (method and url default to POST endpoint)."""
        raise NotImplementedError

    def _parse_response(self, response, texts: list[str]) -> list[str]:
        """Translations in order, or raise a :mod:`sit.errors` exception (use :meth:`error`,
        :meth:`http_error`, :meth:`mismatch`, :meth:`json_body`)."""
        raise NotImplementedError

    def close(self) -> None:
        self.session.close()
