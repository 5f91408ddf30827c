"""The one redactor: no secret, nor a part of one, reaches a log, a message or a written file.

A :class:`Redactor` knows secrets (API keys, passwords, the ``user:password`` and query string of
an endpoint or proxy URL) and replaces in any text, with ``***``:

* each secret, its URL-encoded forms and its base64 forms (alone, or inside a longer base64
  string such as an ``Authorization: Basic`` header, at any of the three alignments);
* any fragment of at least :data:`MIN_FRAGMENT` characters of those forms (a key cut at 80
  characters, the first half of a password), unless the fragment is too plain to be one (fewer
  than three distinct characters, such as ``000000``) or is a whole short word of letters in
  the text (``google`` in a message about the google translator, when a key holds ``google``);
  a fragment is looked for within runs of text without spaces (a password's pieces on either
  side of its space are caught only where they are 6 characters long themselves);
* the ``user:password@`` of any URL, and the value of any query parameter whose name says it is
  a credential (``key``, ``api_key``, ``token``, ``secret``, ``password``, ``sig``, ``auth``...),
  whatever the values.

Where it applies: :class:`RedactingFilter` on every log handler (the CLI installs it, so a
library's debug line, urllib3's included, is redacted); the CLI's error messages; the cloud
adapters' messages (:class:`sit.translators.http.HttpTranslator` builds one from its credentials
and endpoint); and every file sit writes atomically (:func:`sit.rundir.write_bytes_atomic`
applies the redactor of the command that runs, :func:`active`).

:func:`from_environment` gathers what a process's environment holds: the ``SIT_*`` credential
variables, ``OPENAI_API_KEY``, every value of the credentials file, and the secret parts of the
endpoint and proxy URLs in the environment.
"""

from __future__ import annotations

import base64
import contextlib
import contextvars
import html
import json
import logging
import os
import re
from typing import Iterable, Mapping, Optional
from urllib.parse import parse_qsl, quote, quote_plus, urlsplit

from .text import printable

MASK = "***"
#: the shortest fragment of a secret that is redacted
MIN_FRAGMENT = 6
# the runs of text a fragment is looked for in (one C pass; then a set lookup per position)
_RUN = re.compile(r"\S{%d,}" % MIN_FRAGMENT)
#: the shortest value taken as a secret at all (shorter ones would mask ordinary words)
MIN_SECRET = 4

# ``scheme://user:password@host`` anywhere in a text, and a URL's query string or fragment
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/@\s\"'<>]*@")
# what follows a URL's ``://`` where it has a ``user:password@`` (the tail of _USERINFO)
_USER_PART = re.compile(r"[^/@\s\"'<>]*@")
_QUERY = re.compile(r"(?i)([?&;](?:[\w.-]*(?:key|token|secret|passw|pwd|sig|auth|appid|credential|session)"
                    r"[\w.-]*)=)[^&#;\s\"'<>]*")
_SECRET_VAR = re.compile(r"^(SIT_[A-Z0-9_]*(KEY|SECRET|APPID|APPKEY|TOKEN|PASSWORD)|OPENAI_API_KEY)$")
_URL_VAR = re.compile(r"(?i)^(SIT_[A-Z0-9_]*_(ENDPOINT|BASE_URL)|OPENAI_BASE_URL|[a-z_]*_proxy)$")


def public_url(url: str) -> str:
    """``url`` as sit may print or write it: no ``user:password@``, query string or fragment."""
    url = re.sub(r"[?#].*", "", url, flags=re.S)
    return re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*:)?//[^/]*@", lambda m: (m.group(1) or "") + "//", url)


def url_secrets(url: str) -> set[str]:
    """The parts of ``url`` that :func:`public_url` drops: user, password, ``user:password``, the
    query string and fragment and each query value."""
    try:
        parts = urlsplit(url)
        user, password = parts.username or "", parts.password or ""
    except ValueError:
        return set()
    found = {parts.query, parts.fragment, user, password, f"{user}:{password}" if password else ""}
    found |= {v for _, v in parse_qsl(parts.query, keep_blank_values=True)}
    return {v for v in found if len(v) >= MIN_SECRET}


def _base64_forms(secret: str) -> set[str]:
    """The base64 of ``secret`` alone and as it reads inside a longer base64 string (three
    alignments; the characters that depend on its neighbours dropped)."""
    raw = secret.encode("utf-8")
    forms = set()
    for k in range(3):
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            enc = encode(b"\0" * k + raw).decode("ascii").rstrip("=")
            forms.add(enc if k == 0 else enc[4:])
            forms.add(enc[4 if k else 0: max(len(enc) - 3, 0)])
    return {f for f in forms if len(f) >= MIN_FRAGMENT}


def forms(secret: str) -> set[str]:
    """Every form of ``secret`` the redactor looks for."""
    out = {secret, quote(secret, safe=""), quote_plus(secret), quote(secret), json.dumps(secret)[1:-1],
           html.escape(secret)} | _base64_forms(secret)
    return {f for f in out if len(f) >= MIN_SECRET}


def _has_userinfo(text: str) -> bool:
    """Whether some ``://`` of ``text`` is followed by a user part and ``@``: what a match of
    ``_USERINFO`` needs (a file of thousands of URLs without one is not searched through)."""
    at = text.find("://")
    while at >= 0:
        if _USER_PART.match(text, at + 3):
            return True
        at = text.find("://", at + 3)
    return False


def _word(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is a whole short word of letters, cased as words are (``google``,
    ``Option``, ``NAME``: a fake key may contain one; a cut real key hardly is one). Letters cased
    as no word is (``AIzaFAKE``, a Google key's start) are a key's, and masked."""
    run = text[start:end]
    cased = run.islower() or run.isupper() or run.istitle()
    return (run.isalpha() and cased and len(run) < 12 and (start == 0 or not text[start - 1].isalnum())
            and (end == len(text) or not text[end].isalnum()))


def _ordinary(text: str, start: int, end: int) -> bool:
    """Whether the masked run ``text[start:end]`` is an ordinary word, left as it is: one whole
    short word of letters (:func:`_word`) and the punctuation around it (``-translator-`` of
    ``--translator-option`` where a key holds ``-translator-``). A run with a digit, a word cut
    short or a second word (``sk-translato``: a key cut short) is masked."""
    pieces = list(_PIECE.finditer(text, start, end))
    return len(pieces) == 1 and _word(text, pieces[0].start(), pieces[0].end())


_PIECE = re.compile(r"[^\W_]+")


def _plain(fragment: str) -> bool:
    return len(set(fragment)) < 3


class Redactor:
    """Replaces secrets, their forms and fragments, and URL credentials (module documentation).
    ``redactor(text)`` is the redacted text; :meth:`add` learns more secrets."""

    def __init__(self, secrets: Iterable[str] = ()):
        self._secrets: list[str] = []
        self._forms: set[str] = set()
        self._grams: set[str] = set()
        self.add(*secrets)

    def add(self, *secrets: Optional[str]) -> "Redactor":
        for secret in secrets:
            if not secret or len(secret) < MIN_SECRET or secret in self._secrets:
                continue
            self._secrets.append(secret)
            for form in forms(secret):
                self._forms.add(form)
                self._grams |= {form[i:i + MIN_FRAGMENT] for i in range(len(form) - MIN_FRAGMENT + 1)}
        self._grams = {g for g in self._grams if not _plain(g)}
        return self

    def secrets(self) -> tuple[str, ...]:
        """The secrets it knows (to hand to another redactor; never to show)."""
        return tuple(self._secrets)

    def add_url(self, url: Optional[str]) -> "Redactor":
        """Learn the secret parts of ``url`` (:func:`url_secrets`)."""
        return self.add(*url_secrets(url)) if url else self

    def __bool__(self) -> bool:
        return bool(self._forms)

    def __call__(self, text: str) -> str:
        if not isinstance(text, str) or not text:
            return text
        if _has_userinfo(text):  # the one pattern costly over a long text: run where it can match
            text = _USERINFO.sub(lambda m: m.group(1) + MASK + "@", text)
        text = _QUERY.sub(lambda m: m.group(1) + MASK, text)
        if not self._forms:
            return text
        for form in sorted(self._forms, key=len, reverse=True):
            text = text.replace(form, MASK)
        return self._fragments(text)

    def holds(self, text: str) -> bool:
        """Whether ``text`` holds one of the secrets, a form or a fragment of one (what
        :meth:`__call__` masks of them; URL credentials of unknown value are not asked about): a
        provider's answer that echoes its key is no translation (:meth:`sit.translators.http.
        HttpTranslator.answer_fault`)."""
        if not self._forms or not isinstance(text, str):
            return False
        return any(form in text for form in self._forms) or self._fragments(text) != text

    def _fragments(self, text: str) -> str:
        """Mask every run of text covered by fragments of :data:`MIN_FRAGMENT` characters."""
        grams, n = self._grams, MIN_FRAGMENT
        hits = []
        for run in _RUN.finditer(text):
            word, base = run.group(), run.start()
            hits.extend(base + i for i in range(len(word) - n + 1) if word[i:i + n] in grams)
        if not hits:
            return text
        masked = bytearray(len(text))
        for start in hits:
            masked[start:start + n] = b"\1" * n
        out, i = [], 0
        while i < len(text):
            if masked[i]:
                start = i
                while i < len(text) and masked[i]:
                    i += 1
                out.append(text[start:i] if _ordinary(text, start, i) else MASK)
            else:
                out.append(text[i])
                i += 1
        return "".join(out)

    def text(self, text: str) -> str:
        """``text`` redacted as :meth:`bytes` redacts its UTF-8 bytes (a file's text about to be
        written), without encoding it first."""
        if not self._forms and "://" not in text:
            return text
        return self(text)

    def bytes(self, data: bytes) -> bytes:
        """``data`` redacted where it is UTF-8 text (a file about to be written)."""
        if not self._forms and b"://" not in data:
            return data
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return data
        redacted = self(text)
        return data if redacted == text else redacted.encode("utf-8")


def from_environment(env: Optional[Mapping[str, str]] = None) -> Redactor:
    """A redactor of every secret the environment gives sit (module documentation)."""
    env = os.environ if env is None else env
    redactor = Redactor()
    for name, value in env.items():
        if _SECRET_VAR.match(name):
            redactor.add(value.strip())
        elif _URL_VAR.match(name):
            redactor.add_url(value.strip())
    redactor.add(*_file_values(env))
    return redactor


def _file_values(env: Mapping[str, str]) -> list[str]:
    """Every value of the credentials file (endpoints: their secret parts), or none when it
    cannot be read (the adapter that needs it says why)."""
    from .credentials import read_all

    values: list[str] = []
    try:
        sections = read_all(env, warn=False)
    except Exception:  # noqa: BLE001 - an unreadable file is reported where it is used
        return values
    for section in sections.values():
        if not isinstance(section, dict):  # `deepl = "..."` where a table belongs: maybe a key all the same
            values.extend([str(section)] if isinstance(section, str) else [])
            continue
        for key, value in section.items():
            values.extend(url_secrets(value) if key == "endpoint" else [value])
    return values


class RedactingFilter(logging.Filter):
    """A logging filter that redacts each record's message (its arguments formatted first) and
    its exception text."""

    def __init__(self, redactor: Redactor):
        super().__init__()
        self.redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string: keep what there is
            message = str(record.msg)
        record.msg, record.args = printable(self.redactor(message)), ()  # no ESC or BEL reaches a terminal
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redactor(record.exc_text)
        return True


_ACTIVE: contextvars.ContextVar[Redactor] = contextvars.ContextVar("sit_redactor")


def active() -> Redactor:
    """The redactor of the command running in this context (an empty one outside a command:
    it still masks URL credentials). Threads a command starts do not inherit it (a ContextVar):
what they write goes through the redactor the adapters and the log handlers hold."""
    redactor = _ACTIVE.get(None)
    return redactor if redactor is not None else Redactor()


@contextlib.contextmanager
def scope(redactor: Redactor):
    """Make ``redactor`` the :func:`active` one while the block runs (the CLI, around a command)."""
    token = _ACTIVE.set(redactor)
    try:
        yield redactor
    finally:
        _ACTIVE.reset(token)
