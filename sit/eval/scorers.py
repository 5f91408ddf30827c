"""TEAPOT's scorers: similarity of two sentences in [0, 1], and the relative decrease of a score.

The face is TEAPOT's, so a scorer written for TEAPOT works here unchanged: subclass
:class:`Scorer`, implement ``score_sentence(hyp, ref, lang=None)`` (or ``score_corpus`` for a
whole list at once), optionally ``add_args(parser)`` / ``from_args(args)`` for command-line
options, and register it with ``@register_scorer(keys, name)``. A file of such scorers is loaded
with :func:`load_scorers_source` (``--custom-scores-source``); inside it ``import teapot`` gives
this module's classes, so TEAPOT's own example file runs as is.

Importing this module imports no metric library; sacrebleu is imported on first use, and what
only METEOR (subprocess, tempfile) or a custom scorer file (hashlib) needs where they run.
"""

from __future__ import annotations

import logging
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

from ..errors import ConfigError, InputError, MissingDependencyError, ModelError
from ..registry import Registry
from . import fast
from .stats import looks_tokenized, relative_decrease, tokenized_line_count

log = logging.getLogger(__name__)

SCORERS = Registry("scorer")
BUILTIN_KEYS: frozenset[str] = frozenset()  # filled in below, after the built-ins register


def register_scorer(keys: str | Sequence[str], name: str):
    """Class decorator: register a :class:`Scorer` subclass under one or several ``keys``.

    ``name`` is the longer name printed in reports (e.g. ``"ChrF"``). Registering a key that
    another scorer holds is an error; registering the same class again (a file loaded twice) is not.
    """
    key_list = [keys] if isinstance(keys, str) else list(keys)

    def register(cls):
        if not (isinstance(cls, type) and issubclass(cls, Scorer)):
            raise ConfigError(
                f"{getattr(cls, '__name__', cls)!r} cannot be registered as a scorer: it must subclass "
                "sit.eval.Scorer (or teapot.Scorer)"
            )
        for key in key_list:
            if not key or any(c.isspace() for c in key):
                raise ConfigError(f"scorer key {key!r} must be a non-empty word without spaces")
            if key in SCORERS:  # the entry's target, not its class: a plugin's module registers as it imports
                old = SCORERS.entry(key).target
                if key in BUILTIN_KEYS or old != f"{cls.__module__}:{cls.__qualname__}":
                    raise ConfigError(f"scorer {key!r} already exists ({old.partition(':')[2]}); choose another key")
            SCORERS.register(key, cls, description=name)
        cls._name = name
        cls._keys = tuple(key_list)
        return cls

    return register


class Scorer:
    """Base class of scorers: per-line similarity of hypotheses to references, in [0, 1]."""

    _name = "base"
    _keys: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self._name

    @property
    def key(self) -> str:
        return self._keys[0] if self._keys else self._name

    # -- what subclasses implement ----------------------------------------------------------

    def score_sentence(self, hyp: str, ref: str, lang: Optional[str] = None) -> float:
        raise NotImplementedError(f"{type(self).__name__} implements neither score_sentence nor score_corpus")

    def score_corpus(self, hyps: Sequence[str], refs: Sequence[str], lang: Optional[str] = None) -> list[float]:
        return [self.score_sentence(hyp, ref, lang=lang) for hyp, ref in zip(hyps, refs)]

    @classmethod
    def add_args(cls, parser) -> None:
        """Add this scorer's command-line options (an argparse parser or group)."""

    @classmethod
    def from_args(cls, args) -> "Scorer":
        return cls()

    def signature(self) -> Optional[str]:
        """A reproducibility signature (sacrebleu's for sacrebleu metrics), or None."""
        return None

    # -- what callers use -------------------------------------------------------------------

    def score(self, hyps: Sequence[str], refs: Sequence[str], lang: Optional[str] = None,
              check_tok: bool = True) -> list[float]:
        """Per-line scores of ``hyps`` against ``refs`` (same length), in [0, 1]."""
        hyps, refs = list(hyps), list(refs)
        if len(hyps) != len(refs):
            raise InputError(f"mismatched input lengths: {len(hyps)} hypotheses but {len(refs)} references")
        if check_tok:
            warn_tokenized(hyps=hyps, refs=refs)
        return [float(s) for s in self.score_corpus(hyps, refs, lang=lang)]

    def rd_score(self, hyps: Sequence[str], bases: Sequence[str], refs: Sequence[str],
                 lang: Optional[str] = None, check_tok: bool = True) -> list[float]:
        """Per-line relative decrease of the score of ``hyps`` from that of ``bases`` (against ``refs``)."""
        hyps, bases, refs = list(hyps), list(bases), list(refs)
        if not (len(hyps) == len(bases) == len(refs)):
            raise InputError(
                f"mismatched input lengths: {len(hyps)} hypotheses, {len(bases)} base outputs, {len(refs)} references"
            )
        if check_tok:
            warn_tokenized(hyps=hyps, bases=bases, refs=refs)
        base_scores, hyp_scores = self.score_columns([bases, hyps], refs, lang=lang)
        return [relative_decrease(b, h) for b, h in zip(base_scores, hyp_scores)]

    def score_columns(self, columns: Sequence[Sequence[str]], refs: Sequence[str],
                      lang: Optional[str] = None) -> list[list[float]]:
        """Several columns of hypotheses against the same references (sacrebleu scorers read each
        reference once)."""
        return [[float(s) for s in self.score_corpus(list(c), list(refs), lang=lang)] for c in columns]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def warn_tokenized(**named: list[str]) -> None:
    for what, lines in named.items():
        if looks_tokenized(lines):
            log.warning(
                "%d of %d %s end in a detached period (' .'): the text looks tokenized, which changes the "
                "scores and makes them hard to compare; detokenize it (e.g. sacremoses detokenize)",
                tokenized_line_count(lines), len(lines), what,
            )


class SacreBLEUScorer(Scorer):
    """A sacrebleu sentence metric, computed fast (see :mod:`sit.eval.fast`) with identical figures."""

    kind = ""

    def __init__(self, jobs: Optional[int] = None):
        self.jobs = jobs

    def score_sentence(self, hyp: str, ref: str, lang: Optional[str] = None) -> float:
        return fast.plain_score(self.kind, hyp, ref)

    def score_corpus(self, hyps, refs, lang=None) -> list[float]:
        return fast.score_columns(self.kind, [hyps], refs, jobs=self.jobs)[0]

    def score_columns(self, columns, refs, lang=None) -> list[list[float]]:
        return fast.score_columns(self.kind, columns, refs, jobs=self.jobs)

    def signature(self) -> str:
        return fast.signature(self.kind)

    @classmethod
    def from_args(cls, args) -> "SacreBLEUScorer":
        return cls(jobs=getattr(args, "jobs", None))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(jobs={self.jobs!r})"


@register_scorer(["zero_one", "exact_match"], "accuracy")
class ZeroOne(Scorer):
    """1 when the two strings are equal, else 0 (for classifiers: the label is kept or not)."""

    def score_sentence(self, hyp, ref, lang=None) -> float:
        return float(hyp == ref)


@register_scorer("bleu", "BLEU")
class BLEU(SacreBLEUScorer):
    """sacrebleu ``sentence_bleu(hyp, [ref], smooth_method="floor", smooth_value=0.01)`` / 100."""

    kind = "bleu"


@register_scorer("chrf", "ChrF")
class ChrF(SacreBLEUScorer):
    """sacrebleu ``sentence_chrf(hyp, [ref])`` (its defaults) / 100."""

    kind = "chrf"


METEOR_LANGUAGES = ("en", "cz", "de", "es", "fr", "ar", "da", "fi", "hu", "it", "nl", "no", "pt", "ro", "ru",
                    "se", "tr")
DEFAULT_JAVA_COMMAND = "java -Xmx2G -jar"
METEOR_HINT = (
    "download METEOR 1.5 (http://www.cs.cmu.edu/~alavie/METEOR/download/meteor-1.5.tar.gz, unpack it) "
    "and pass --meteor-jar meteor-1.5/meteor-1.5.jar"
)
_SEGMENT_SCORE = re.compile(r"^Segment ([0-9]+) score:[^0-9]*([.0-9]+)\s*$")


def parse_meteor_output(output: str) -> list[float]:
    """The per-segment scores in METEOR's output (``Segment N score:\\tS`` lines), in order."""
    scores = []
    for line in output.splitlines():
        match = _SEGMENT_SCORE.match(line.strip())
        if match:
            scores.append(float(match.group(2)))
    return scores


@register_scorer("meteor", "METEOR")
class METEOR(Scorer):
    """METEOR 1.5, by running its jar with Java: ``JAVA_COMMAND JAR HYPS REFS -norm -l LANG``."""

    def __init__(self, meteor_jar: Optional[str] = None, java_command: str = DEFAULT_JAVA_COMMAND,
                 timeout: Optional[float] = None):
        self.meteor_jar = meteor_jar
        self.java_command = java_command
        self.timeout = timeout

    def command(self, hyp_file: str, ref_file: str, lang: str) -> list[str]:
        return shlex.split(self.java_command) + [str(self.meteor_jar), hyp_file, ref_file, "-norm", "-l", lang]

    def check(self, lang: Optional[str]) -> None:
        """Raise a clear error when the language, Java or the jar is missing."""
        if not lang:
            raise ConfigError(
                "METEOR needs the language of the text it scores: pass --src-lang (for --s-src meteor) "
                f"or --tgt-lang (for --s-tgt meteor), one of {', '.join(METEOR_LANGUAGES)}"
            )
        if lang not in METEOR_LANGUAGES:
            raise ConfigError(f"METEOR does not know the language {lang!r}; choose one of: {', '.join(METEOR_LANGUAGES)}")
        if not self.meteor_jar:
            raise MissingDependencyError(f"METEOR needs its jar: {METEOR_HINT}")
        if not Path(self.meteor_jar).is_file():
            raise MissingDependencyError(f"the METEOR jar {self.meteor_jar} does not exist; {METEOR_HINT}")
        import shutil

        parts = shlex.split(self.java_command or "")
        if not parts:
            raise ConfigError("--java-command is empty; the default is " + repr(DEFAULT_JAVA_COMMAND))
        if shutil.which(parts[0]) is None:
            raise MissingDependencyError(
                f"METEOR needs Java, but {parts[0]!r} (from --java-command {self.java_command!r}) is not installed "
                "or not on PATH; install a Java runtime (e.g. apt-get install default-jre-headless) or pass "
                "--java-command with the full path"
            )

    def score_sentence(self, hyp, ref, lang=None) -> float:
        return self.score_corpus([hyp], [ref], lang=lang)[0]

    def score_corpus(self, hyps, refs, lang=None) -> list[float]:
        import subprocess
        import tempfile

        self.check(lang)
        if not hyps:
            return []
        with tempfile.TemporaryDirectory(prefix="sit-meteor-") as tmp:
            hyp_file, ref_file = os.path.join(tmp, "hyp.txt"), os.path.join(tmp, "ref.txt")
            for path, lines in ((hyp_file, hyps), (ref_file, refs)):
                with open(path, "w", encoding="utf-8") as f:
                    f.writelines(line.replace("\n", " ") + "\n" for line in lines)
            cmd = self.command(hyp_file, ref_file, lang)
            try:
                proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, encoding="utf-8",
                                      errors="replace", timeout=self.timeout)
            except OSError as exc:
                raise MissingDependencyError(f"cannot run METEOR ({' '.join(cmd)}): {exc}") from exc
            except subprocess.TimeoutExpired as exc:
                raise ModelError(f"METEOR ({' '.join(cmd)}) ran over {self.timeout} s") from exc
        tail = "\n".join(proc.stdout.splitlines()[-10:])
        if proc.returncode != 0:
            raise ModelError(f"METEOR command `{' '.join(cmd)}` failed (exit {proc.returncode}); last lines:\n{tail}")
        scores = parse_meteor_output(proc.stdout)
        if len(scores) != len(hyps):
            raise ModelError(
                f"METEOR printed {len(scores)} segment scores for {len(hyps)} lines; last lines of its output:\n{tail}"
            )
        return scores

    @classmethod
    def add_args(cls, parser) -> None:
        group = parser.add_argument_group("METEOR (--s-src meteor / --s-tgt meteor)")
        group.add_argument("--meteor-jar", metavar="JAR", default=None, help="path to the METEOR 1.5 jar")
        group.add_argument("--java-command", metavar="CMD", default=DEFAULT_JAVA_COMMAND,
                           help=f"command that runs the jar (default: {DEFAULT_JAVA_COMMAND!r}); METEOR's language "
                           "is --src-lang or --tgt-lang")

    @classmethod
    def from_args(cls, args) -> "METEOR":
        return cls(getattr(args, "meteor_jar", None), java_command=getattr(args, "java_command", DEFAULT_JAVA_COMMAND))

    def __repr__(self) -> str:
        return f"METEOR({self.meteor_jar!r}, java_command={self.java_command!r})"


BUILTIN_KEYS = frozenset(SCORERS.names())
_OWN = SCORERS
#: the built-in scorers, and those other packages add through the entry-point group ``sit.scorers``
#: (a class decorated with :func:`register_scorer`, named by its key: docs/plugins.md); read once
#: the built-ins are in, so that a plugin never takes a built-in's key. The built-ins are
#: registered as the classes they are, so looking one up (``sit eval``'s default chrF) reads no
#: entry points (every installed package's, 10-15 ms); a plugin that names one is refused, with
#: its warning, where the plugins are read (a plugin's or an unknown key, ``sit list scorers``)
SCORERS = Registry("scorer", group="sit.scorers", base=f"{__name__}:Scorer")
for _key in sorted(BUILTIN_KEYS):
    SCORERS.register(_key, _OWN.get(_key), description=_OWN.entry(_key).description)


def scorer_names() -> list[str]:
    return SCORERS.names()


def get_scorer_class(key: str) -> type:
    """The class registered under ``key``; ConfigError listing the valid names otherwise."""
    return SCORERS.get(key)


# -- custom scorer files ------------------------------------------------------------------------

_LOADED_SOURCES: dict[str, Any] = {}


def _teapot_builtins() -> dict[str, Any]:
    """Builtins for a custom scorer file whose ``import teapot`` (or ``teapot.scorers``) gives
    sit's modules: only that file's imports are redirected, ``sys.modules`` is left alone."""
    import builtins

    import sit.eval as sit_eval

    aliases = {"teapot": sit_eval, "teapot.scorers": sys.modules[__name__]}
    real_import = builtins.__import__

    def teapot_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name in aliases:
            return aliases[name] if fromlist or name == "teapot" else sit_eval
        return real_import(name, globals, locals, fromlist, level)

    return {**vars(builtins), "__import__": teapot_import}


def load_scorers_source(path: str | os.PathLike) -> Any:
    """Run a Python file that registers scorers (once per file per process); returns its module.

    Inside the file, ``import teapot`` (and ``from teapot import Scorer, register_scorer``) gives
    sit's classes, so files written for TEAPOT load unchanged.
    """
    import hashlib
    import importlib.util

    p = Path(path).expanduser()
    if not p.is_file():
        raise InputError(f"custom scorer source {p} does not exist (or is not a file)")
    real = str(p.resolve())
    if real in _LOADED_SOURCES:
        return _LOADED_SOURCES[real]
    module_name = "sit_custom_scorers_" + hashlib.sha256(real.encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(module_name, real)
    if spec is None or spec.loader is None:
        raise InputError(f"custom scorer source {p} is not a Python file")
    module = importlib.util.module_from_spec(spec)

    module.__builtins__ = _teapot_builtins()
    sys.modules[module_name] = module  # as any import does (dataclasses in the file need it)
    try:
        spec.loader.exec_module(module)
    except ConfigError as exc:
        sys.modules.pop(module_name, None)
        raise ConfigError(f"custom scorer source {p}: {exc}") from exc
    except Exception as exc:
        sys.modules.pop(module_name, None)
        raise ConfigError(f"custom scorer source {p} failed to load: {type(exc).__name__}: {exc}") from exc
    _LOADED_SOURCES[real] = module
    return module
