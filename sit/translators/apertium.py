"""Apertium: rule-based machine translation, local and offline (Debian packages).

A batch is one paragraph per text through the stages of ``apertium -u <pair>`` (``-u`` drops the
``*`` that marks unknown words). Where the pair's mode allows (eng-spa, spa-eng), every stage ends
each text at a NUL (null flush) and its tagger sees one text at a time (:mod:`.apertium_stages`),
so each text translates as it does alone; otherwise
(eng-cat: a constraint grammar, anaphora resolution) one ``apertium`` process takes the batch.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from functools import lru_cache
from typing import Optional

from .. import hints
from ..errors import MissingDependencyError, TranslationError
from . import apertium_stages
from .base import Translator
from ..text import squeeze

# ISO 639-1 -> the three-letter codes Apertium's English pairs use
_ISO3 = {"en": "eng", "es": "spa", "ca": "cat", "gl": "glg", "eo": "epo", "hbs": "hbs", "fr": "fra",
         "pt": "por", "it": "ita", "de": "deu", "oc": "oci", "sh": "hbs"}


def installed_pairs() -> tuple[str, ...]:
    """Pairs (modes) the local Apertium knows, e.g. ``('eng-cat', 'eng-spa', ...)``: those of the
    ``apertium`` that ``PATH`` finds now (asked once per executable)."""
    exe = shutil.which("apertium")
    return _pairs_of(exe) if exe is not None else ()


@lru_cache(maxsize=8)
def _pairs_of(exe: str) -> tuple[str, ...]:
    try:
        out = subprocess.run([exe, "-l"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return ()
    return tuple(sorted(line.strip() for line in out.splitlines() if line.strip()))


@lru_cache(maxsize=8)
def _package_version(package: str) -> str:
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, timeout=10)
        return out.stdout.strip() if out.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        return ""


#: texts per call where each text is translated apart (null flush: :mod:`.apertium_stages`), so
#: that a batch's company changes no translation: a call starts some fourteen processes (bash, the
#: deformatter, the stages, a tagger), about 0.18 s of CPU whatever the batch holds, against about
#: 1 ms a text (eng-spa): the news set's 5,203 texts cost 8.8 s of CPU in calls of 256, 6.0 s in
#: calls of 1,024 and 5.5 s in one (docs/performance.md, stop 43)
APART_BATCH_SIZE = 4096


class ApertiumTranslator(Translator):
    """Apertium's ``apertium -u <pair>``. Its batches (``--batch-size``) hold 256 texts where one
    ``apertium`` process takes the batch (a text's translation there depends on the texts before
    it), :data:`APART_BATCH_SIZE` where each text is translated apart."""

    name = "apertium"
    default_batch_size = 256

    def __init__(self, source_lang: str = "en", target_lang: str = "es", *, model: Optional[str] = None, **kwargs):
        super().__init__(source_lang, target_lang, model=model, **kwargs)
        if shutil.which("apertium") is None:
            raise MissingDependencyError(f"the apertium translator needs the `apertium` program: {hints.APERTIUM}")
        self.pair = model or self._default_pair(source_lang, target_lang)
        pairs = installed_pairs()
        if self.pair not in pairs:
            raise MissingDependencyError(
                f"Apertium has no {self.pair!r} pair installed (installed: {', '.join(pairs) or 'none'}); "
                + hints.apertium_pair(self.pair)
            )
        self._stages = apertium_stages.read_mode(self.pair)
        #: True where each text is tagged apart; a whole-mode run lets the texts before a text
        #: change its translation (see :mod:`.apertium_stages`)
        self.batch_independent = self._stages is not None
        if self.batch_independent and not kwargs.get("batch_size"):
            self.batch_size = APART_BATCH_SIZE  # the processes a call starts cost more than its texts

    @staticmethod
    def _default_pair(src: str, tgt: str) -> str:
        s, t = _ISO3.get(src, src), _ISO3.get(tgt, tgt)
        candidates = [f"{s}-{t}", f"{src}-{tgt}", f"{s}-{tgt}", f"{src}-{t}"]
        pairs = installed_pairs()
        for c in candidates:
            if c in pairs:
                return c
        # not installed: the spelling of the mode Debian ships (en-gl, not eng-glg), for the hint
        return next((c for c in candidates if hints.apertium_package(c)), candidates[0])

    def model_id(self) -> str:
        return self.pair

    def version(self) -> str:
        package = hints.apertium_package(self.pair)
        return "+".join(v for v in (_package_version("apertium"), _package_version(package) if package else "") if v)

    def signature(self) -> dict[str, str]:
        # how a batch is made: "null-flush" (the mode stage by stage, every stage ending each text
        # at a NUL, the tagger fed one text at a time: see apertium_stages) or "paragraphs" (one
        # apertium process for the batch, as for eng-cat). eng-spa entries made as "paragraphs"
        # may hold another text's tagging, as "tagged-apart" (before -z) a transfer rule matched
        # across two texts ("no saben" after "... press@example.org"), and older ones (one text
        # per line) words of a neighbouring text: none is reused.
        return {**super().signature(), "batching": "null-flush" if self._stages else "paragraphs"}

    def _translate_batch(self, texts: list[str]) -> list[str]:
        # One text per paragraph: a blank line between texts is a sentence end that Apertium's
        # transfer never crosses. With one text per line, words of a text that does not end a
        # sentence (a noun phrase, a headline) move into the next line's translation. A newline
        # inside a text would shift every later text, so whitespace is normalised first.
        lines = [squeeze(t.replace("\0", " ")) for t in texts]
        env = dict(os.environ, LC_ALL="C.UTF-8")
        source = "\n\n".join(lines) + "\n"
        timeout = self.timeout or max(60.0, 0.05 * len(lines))
        if self._stages is None:
            return self._paragraphs(self._whole(source, len(lines), env, timeout), len(lines))
        out = apertium_stages.translate_apart(self._stages, source.encode("utf-8"), len(lines), timeout, env)
        return self._paragraphs(out.decode("utf-8"), len(lines))

    def _whole(self, source: str, n: int, env: dict[str, str], timeout: float) -> str:
        """The batch (``n`` texts, one per paragraph) through one ``apertium -u`` process."""
        try:
            proc = subprocess.run(["apertium", "-u", self.pair], input=source, capture_output=True,
                                  text=True, encoding="utf-8", timeout=timeout, env=env)
        except subprocess.TimeoutExpired as exc:
            raise TranslationError(f"apertium {self.pair} timed out on a batch of {n} lines", translator=self.name) from exc
        except OSError as exc:
            raise TranslationError(f"cannot run apertium: {exc}", translator=self.name) from exc
        if proc.returncode != 0:
            raise TranslationError(
                f"apertium {self.pair} failed (exit {proc.returncode}): {proc.stderr.strip()[:300]}",
                translator=self.name,
            )
        return proc.stdout

    def _paragraphs(self, stdout: str, n: int) -> list[str]:
        """The ``n`` translations of a batch, one per paragraph; any other shape is refused (a
        misaligned answer must never reach the cache)."""
        out = stdout.split("\n")
        if out and out[-1] == "":
            out.pop()
        texts, gaps = out[0::2], out[1::2]
        if len(texts) != n or any(g.strip() for g in gaps):
            raise TranslationError(
                f"apertium {self.pair} answered {len(out)} line(s) for {n} text(s) separated by blank "
                "lines; the batch was not cached", translator=self.name,
            )
        return [line.strip() for line in texts]
