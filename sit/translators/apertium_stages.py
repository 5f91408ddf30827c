"""An Apertium mode run stage by stage, so that no text of a batch changes another's translation.

Why: the HMM part-of-speech tagger (``apertium-tagger -g``) carries state from one text to the
next. When a word's set of possible tags (its ambiguity class) is one the tagger was not trained
on, ``find_similar_ambiguity_class`` (apertium's tagger_utils.cc, unchanged from 2016 to 3.9)
picks the smallest trained class that contains it and writes it, through a reference, over the
tagger's *open class*: the tags an unknown word may take. From then on, every unknown word in the
process is tagged from that smaller class, so "free tuition" ("tuition" is unknown) comes out
"libre" or "gratis" depending on which text before it had such a word. Null flush (``-z``) does
not restore the open class; nothing in the input can.

Why, too: the structural transfer matches patterns of chunks across the blank line between two
texts wherever the first does not end in a sentence mark of its own (the full stop the
deformatter adds to a paragraph is swallowed by a web address, an e-mail address or a handle:
"... press@example.org." is one word). Then the rule that drops a subject pronoun and moves its
capital to the next word no longer matches, and "They do not know" after such a text comes out
"no saben" rather than "No saben".

How: the deformatter runs once for the batch; its output is cut at the blank line between texts,
and from there on every stage runs in null-flush mode (``-z``): a NUL ends each text, and a stage
finishes (flushes, and forgets its pending matches) at each NUL, as at the end of its input. The
analyser and the stages after the tagger (transfer, generation) run once a batch; they keep
nothing across a NUL. The tagger gets the texts one at a time and reports, with ``-d``, each new
ambiguity class it meets; after a text that had one, the next text goes to a fresh tagger
process. A text is therefore always translated by stages in the state a process of its own would
be in, and a batch costs one tagger start-up (about 7 ms) per text that had a new ambiguity
class, plus one. (``benchmarks/bench_isolation.py`` re-translates every text of a run alone.)
"""

from __future__ import annotations

import os
import selectors
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Generator, Iterable, Iterator, Optional

from ..errors import TranslationError
from ..text import squeeze

#: programs that translate each text of their input on its own (checked against a process per
#: text on 200 news sentences and their perturbations, eng-spa); a mode with any other stage
#: (a constraint grammar, anaphora resolution, another tagger) is run the old way, whole.
TEXT_LOCAL = frozenset({"lt-proc", "apertium-wblank-attach", "apertium-wblank-detach", "apertium-pretransfer",
                        "apertium-transfer", "lrx-proc", "apertium-interchunk", "apertium-postchunk"})
#: what ``apertium -u`` passes a mode as $1 (generation: drop the unknown-word mark) and $2 (tagger)
_MODE_ARGS = {"$1": ["-n"], "$2": []}
#: the separator between texts: a blank line, which the deformatter turns into this superblank
#: (a text has no newline, so it holds no other); from the analyser on, a NUL follows it
SEPARATOR = b"[\n\n]"
#: the programs of :data:`TEXT_LOCAL` that take ``-z`` (null flush); the wblank ones pass a NUL on
NULL_FLUSH = frozenset({"lt-proc", "apertium-pretransfer", "apertium-transfer", "lrx-proc", "apertium-interchunk",
                        "apertium-postchunk"})
#: what ``apertium-tagger -d`` writes when a word has an ambiguity class it was not trained on
_NEW_CLASS = b"new ambiguity class"


@dataclass(frozen=True)
class Stages:
    """A mode split at its HMM tagger: ``front`` (after the deformatter) and ``back`` run once a
    batch, ``tagger`` per text; every stage in null-flush mode where it has one."""

    front: tuple[tuple[str, ...], ...]
    tagger: tuple[str, ...]
    back: tuple[tuple[str, ...], ...]


def read_mode(pair: str, datadir: str = "/usr/share/apertium") -> Optional[Stages]:
    """The stages ``apertium -u <pair>`` runs on text, split at the HMM tagger; ``None`` where the
    mode has no such tagger, or a stage not known to keep texts apart (:data:`TEXT_LOCAL`)."""
    mode = Path(os.environ.get("APERTIUM_DATADIR", datadir)) / "modes" / f"{pair}.mode"
    exe = shutil.which("apertium-wblank-mode")
    if exe is None or not mode.is_file():
        return None
    try:
        script = subprocess.run([exe, str(mode)], capture_output=True, text=True, timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return split_mode(script)


def split_mode(script: str) -> Optional[Stages]:
    """:func:`read_mode` on the text of a mode's pipeline (``prog args | prog args | ...``)."""
    lexer = shlex.shlex(script, posix=True, punctuation_chars="|")
    lexer.whitespace_split = True
    stages: list[list[str]] = [[]]
    for token in lexer:
        if token == "|":
            stages.append([])
        elif token in _MODE_ARGS:
            stages[-1].extend(_MODE_ARGS[token])
        else:
            stages[-1].append(token)
    taggers = [i for i, s in enumerate(stages) if s[:1] == ["apertium-tagger"]]
    if len(taggers) != 1 or "-g" not in stages[taggers[0]][1:-1]:
        return None  # no tagger, two, or not the HMM one (-gx is the perceptron)
    if any(not s or s[0] not in TEXT_LOCAL or "$" in " ".join(s) for i, s in enumerate(stages) if i != taggers[0]):
        return None
    t = taggers[0]
    tagger = stages[t]
    return Stages(front=tuple(map(_null_flush, stages[:t])),
                  tagger=(tagger[0], "-z", "-d", *tagger[1:]),
                  back=(*map(_null_flush, stages[t + 1:]), ("apertium-retxt",)))


def _null_flush(stage: list[str]) -> tuple[str, ...]:
    """``stage`` with ``-z`` where its program has it (:data:`NULL_FLUSH`)."""
    return (stage[0], "-z", *stage[1:]) if stage[0] in NULL_FLUSH and "-z" not in stage else tuple(stage)


def deformat(source: bytes, n: int, timeout: float, env: dict[str, str]) -> bytes:
    """``source`` (``n`` texts, one per paragraph) through ``apertium-destxt``, with a NUL after
    each text (the null-flush input of the stages after it)."""
    try:
        proc = subprocess.run(["apertium-destxt"], input=source, capture_output=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as exc:
        raise TranslationError(f"apertium-destxt timed out after {timeout:.0f} s", translator="apertium") from exc
    except OSError as exc:
        raise TranslationError(f"cannot run apertium: {exc}", translator="apertium") from exc
    if proc.returncode != 0:
        raise TranslationError(f"apertium-destxt failed (exit {proc.returncode}): {_line(proc.stderr)}",
                               translator="apertium")
    texts = proc.stdout.split(SEPARATOR)
    if len(texts) != n:
        raise TranslationError(f"apertium analysed {len(texts)} text(s) for {n}; the batch was not cached",
                               translator="apertium")
    return (SEPARATOR + b"\0").join(texts) + b"\0"


def translate_apart(stages: Stages, source: bytes, n: int, timeout: float, env: dict[str, str]) -> bytes:
    """``source`` (``n`` texts, one per paragraph) through ``stages``: the front and the back
    each one pipeline for the batch, the tagger fed one text at a time (:func:`tag_apart`); the
    three run side by side, as the stages of ``apertium`` do. Returns the reformatted output."""
    start = time.monotonic()
    deformatted = deformat(source, n, timeout, env)
    timeout = max(1.0, timeout - (time.monotonic() - start))
    with tempfile.TemporaryFile() as source_file, tempfile.TemporaryFile() as errors:
        source_file.write(deformatted)
        source_file.seek(0)
        with _pipeline(stages.front, source_file, errors, env) as front, \
                _pipeline(stages.back, subprocess.PIPE, errors, env) as back:
            expired = threading.Event()
            timer = threading.Timer(timeout, lambda: (expired.set(), _kill(front), _kill(back)))
            timer.start()
            try:
                out = _feed(back, tag_apart(stages.tagger, _texts(front.stdout, n), time.monotonic() + timeout, env))
                codes = front.wait(), back.wait()
            except BaseException as exc:
                _kill(front)
                _kill(back)
                if expired.is_set():
                    raise TranslationError(f"apertium timed out after {timeout:.0f} s", translator="apertium") from exc
                raise
            finally:
                timer.cancel()
        if expired.is_set():
            raise TranslationError(f"apertium timed out after {timeout:.0f} s", translator="apertium")
        if any(codes):
            errors.seek(0)
            raise TranslationError(f"apertium failed (exit {max(codes)}): {_line(errors.read())}", translator="apertium")
    return out


def _feed(back: subprocess.Popen, texts: Generator[bytes, None, None]) -> bytes:
    """Write ``texts`` into ``back`` while a thread reads its output; that output."""
    with ThreadPoolExecutor(1) as pool, closing(texts):
        answer = pool.submit(back.stdout.read)
        try:
            for text in texts:
                back.stdin.write(text)
        except BrokenPipeError:
            pass  # the back stopped early: its exit status says why
        finally:
            back.stdin.close()  # so that the answer ends, also when the texts stop with an error
        return answer.result()


def _pipeline(stages: tuple[tuple[str, ...], ...], stdin, stderr, env: dict[str, str]) -> subprocess.Popen:
    """``stage | stage | ...`` in a process group of its own (so that :func:`_kill` ends every stage)."""
    script = "set -o pipefail; " + " | ".join(shlex.join(s) for s in stages)
    try:
        return subprocess.Popen(["bash", "-c", script], stdin=stdin, stdout=subprocess.PIPE, stderr=stderr, env=env, bufsize=0,
                                start_new_session=True)
    except OSError as exc:
        raise TranslationError(f"cannot run apertium: {exc}", translator="apertium") from exc


def _line(message: bytes) -> str:
    """A program's error output as the tail of a one-line message."""
    return squeeze(message.decode("utf-8", "replace"))[:300]


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _texts(stream, n: int) -> Iterator[bytes]:
    """The ``n`` analysed texts of ``stream`` (each ended by a NUL), without the NUL, as they come.
    (A stage in null-flush mode may add an empty text at the end of its input: it is dropped.)"""
    buffer, count = b"", 0
    for data in iter(lambda: stream.read(1 << 16), b""):
        *done, buffer = (buffer + data).split(b"\0")
        for text in done:
            if count == n and not text.strip():
                continue
            count += 1
            yield text
    if count != n or buffer.strip():
        raise TranslationError(f"apertium analysed {count} text(s) for {n}; the batch was not cached",
                               translator="apertium")


def tag_apart(argv: tuple[str, ...], texts: Iterable[bytes], deadline: float, env: dict[str, str]) -> Iterator[bytes]:
    """Each of ``texts`` (analysed, one text each) through the tagger ``argv`` as a process of its
    own would tag it: one process for as long as no text meets a new ambiguity class. Each tagged
    text comes with a NUL after it."""
    tagger: Optional[_Tagger] = None
    try:
        for text in texts:
            tagger = tagger or _Tagger(argv, env)
            out, err = tagger.exchange(text, deadline)
            yield out + b"\0"  # the NUL that ends the text for the null-flush stages after the tagger
            if _NEW_CLASS in err:  # its open class is no longer what a fresh process starts with
                tagger.close()
                tagger = None
    finally:
        if tagger is not None:
            tagger.close()


class _Tagger:
    """One ``apertium-tagger -z -d`` process, asked one text at a time."""

    def __init__(self, argv: tuple[str, ...], env: dict[str, str]):
        self.argv = argv
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, bufsize=0, env=env)
        except OSError as exc:
            raise TranslationError(f"cannot run {argv[0]}: {exc}", translator="apertium") from exc
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            os.set_blocking(pipe.fileno(), False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)
        self.selector.register(self.proc.stderr, selectors.EVENT_READ)

    def exchange(self, text: bytes, deadline: float) -> tuple[bytes, bytes]:
        """Send ``text`` and a NUL; the tagged text (up to the tagger's NUL) and what the tagger
        wrote on stderr meanwhile (written before that NUL, so all of it is in the pipe by then)."""
        pending = memoryview(text + b"\0")
        out, err = bytearray(), bytearray()
        self.selector.register(self.proc.stdin, selectors.EVENT_WRITE)
        while not out.endswith(b"\0"):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TranslationError(f"{self.argv[0]} timed out", translator="apertium")
            for key, _ in self.selector.select(remaining):
                if key.fileobj is self.proc.stdin:
                    pending = pending[self._write(pending):]
                    if not pending:
                        self.selector.unregister(self.proc.stdin)
                    continue
                data = os.read(key.fd, 1 << 16)
                if key.fileobj is self.proc.stdout and not data:
                    raise TranslationError(f"{self.argv[0]} stopped: {_line(self._drain(err))}", translator="apertium")
                if not data:
                    self.selector.unregister(key.fileobj)
                (out if key.fileobj is self.proc.stdout else err).extend(data)
        if pending or out.count(b"\0") != 1:
            raise TranslationError(f"{self.argv[0]} answered before reading the whole text", translator="apertium")
        return bytes(out[:-1]), self._drain(err)

    def _write(self, data: memoryview) -> int:
        try:
            return os.write(self.proc.stdin.fileno(), data)
        except BlockingIOError:
            return 0
        except BrokenPipeError as exc:
            raise TranslationError(f"{self.argv[0]} stopped reading: {_line(self._drain(bytearray()))}",
                                   translator="apertium") from exc

    def _drain(self, err: bytearray) -> bytes:
        """``err`` and whatever stderr holds now."""
        while True:
            try:
                data = os.read(self.proc.stderr.fileno(), 1 << 16)
            except BlockingIOError:
                break
            if not data:
                break
            err.extend(data)
        return bytes(err)

    def close(self) -> None:
        self.selector.close()
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()
