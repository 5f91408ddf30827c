"""A hostile probe of sit's fault handling (issue 11), bounded and on loopback only.

What it does, each case a real `sit` process against fake providers on 127.0.0.1 (tests/fakes:
they check requests and signatures as the providers do) and Apertium's translations:

- kill -9 at random moments of `sit run` (a slowed provider, small batches), then the same command
  to the end: the run directory must equal an uninterrupted run's, and no text the cache held
  (finished) is sent again (the batch in flight at a kill, and the texts the order check's second
  look asks again before caching them, are not finished);
- each provider fault of the issue's list (misordered answers without alignment proof, fewer
  translations than sent, 401, quota, 5xx, 429, malformed and cut-short bodies, a trickled body
  under --timeout): the documented exit code, one error line, no traceback; the same command once
  the provider heals gives the uninterrupted run's files and re-sends no finished (cached) text;
- damaged cache files (values of the wrong shape, a lost final newline, a truncated header, a crash
  fragment): the run repairs them and re-sends only what was damaged;
- two runs at once on one cache, a report with injected HTML, and bad inputs of every kind
  (numbers, files, outputs that cannot be written, damaged run directories, URLs, credentials):
  one line, the documented exit code, no traceback;
- at the end every file written and every byte printed is searched for the fakes' credentials.

Prints a table (case -> outcome) and the totals; exits 1 when a case failed.

    python3 benchmarks/probe_faults.py [--kills 4] [--limit 6] [--seed 1] [--only SECTIONS] [--keep DIR]

About 10 minutes on an idle 2-core machine (most of it `sit run` start-up); needs Apertium (eng-spa), WordNet and spaCy's pipelines
(what scripts/setup.sh installs).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fakes import (  # noqa: E402
    AUTH, FAKES, MALFORMED, MISORDER, MISSING, QUOTA, SERVER_ERROR, SHORT, UNAVAILABLE, apertium_translate,
    dictionary_translate, have_apertium, rate, slow,
)
from fakes import providers  # noqa: E402
from fakes.raw import RawServer, chunked_cut_short, trickle, whole  # noqa: E402

SECRETS = [providers.GOOGLE_KEY, providers.BING_KEY, providers.BAIDU_SECRET, providers.YOUDAO_SECRET,
           "pw-S3CRET-proxy", "qk-S3CRET-query"]
RUN_FILES = ("pairs.jsonl", "translations.jsonl", "issues.jsonl")


@dataclass
class Outcome:
    case: str
    ok: bool
    detail: str


class Probe:
    def __init__(self, work: Path, limit: int, seed: int):
        self.work = work
        self.limit = limit
        self.rng = random.Random(seed)
        self.results: list[Outcome] = []
        self.printed: list[str] = []  # every stdout/stderr, searched for secrets at the end
        self.translate = apertium_translate if have_apertium() else dictionary_translate
        self.base_env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
                         "SIT_HTTP_BACKOFF": "0.05", "HF_HUB_OFFLINE": "1"}
        for var in list(self.base_env):
            if var.startswith("SIT_") and var.endswith(("_KEY", "_SECRET", "_APPID", "_APPKEY", "_ENDPOINT")):
                del self.base_env[var]

    # -- running sit ---------------------------------------------------------------------------
    def sit(self, *args, env=None, timeout=300, cwd=None):
        start = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "sit.cli", *map(str, args)], capture_output=True, text=True,
                              env={**self.base_env, **(env or {})}, timeout=timeout, cwd=cwd or self.work)
        self.printed += [proc.stdout, proc.stderr]
        return proc, time.monotonic() - start

    def run_args(self, case: Path, translator="google", *extra):
        return ["run", "--dataset", "politics", "--limit", self.limit, "--perturber", "wordnet", "--translator",
                translator, "--target-lang", "es", "--cache-dir", case / "cache", "--out", case / "run",
                "--no-progress", *extra]

    def fake(self, name="google", **kw):
        return FAKES[name](translate=self.translate, **kw).start()

    def case_dir(self, name: str) -> Path:
        d = self.work / name
        shutil.rmtree(d, ignore_errors=True)  # a --keep directory probed again
        shutil.copytree(self.work / "prime" / "cache", d / "cache")
        return d

    def record(self, case: str, ok: bool, detail: str) -> bool:
        self.results.append(Outcome(case, ok, detail))
        print(f"{'ok  ' if ok else 'FAIL'} {case}: {detail}", file=sys.stderr, flush=True)
        return ok

    @staticmethod
    def clean(proc) -> str:
        """'' when stderr has no traceback and at most one error line, else what is wrong."""
        if "Traceback" in proc.stderr:
            return "traceback"
        errors = [l for l in proc.stderr.splitlines() if "error:" in l]
        return f"{len(errors)} error lines" if len(errors) > 1 else ""

    def same_as_base(self, case: Path) -> str:
        diff = [f for f in RUN_FILES if (case / "run" / f).read_bytes() != (self.work / "base" / "run" / f).read_bytes()]
        return f"differs from the uninterrupted run: {', '.join(diff)}" if diff else ""

    # -- setup ---------------------------------------------------------------------------------
    def prime(self):
        """Perturbations and parses cached once (Apertium), so each case costs a translation pass."""
        d = self.work / "prime"
        if not (d / "run" / "run.json").exists():  # a --keep directory keeps its primed cache
            proc, wall = self.sit(*self.run_args(d, "apertium"), timeout=900)
            if proc.returncode != 0:
                raise SystemExit(f"the priming run failed: {proc.stderr[-2000:]}")
        base = self.case_dir("base")
        with self.fake() as fake:
            proc, wall = self.sit(*self.run_args(base), env=fake.env())
        ok = proc.returncode == 0 and not self.clean(proc)
        self.base_wall = wall
        self.texts = len(set(fake.translated_texts))
        self.record("uninterrupted run (google fake)", ok, f"exit {proc.returncode}, {self.texts} texts, {wall:.1f} s")
        if not ok:
            raise SystemExit(proc.stderr[-2000:])

    # -- kill -9 -------------------------------------------------------------------------------
    def kills(self, n: int):
        for k in range(n):
            d = self.case_dir(f"kill{k}")
            fake = self.fake().fail_from(1, slow(0.15))  # ~0.15 s a request of 4 texts: kills land mid-stage
            killed_at, resent = [], 0
            for _ in range(self.rng.randint(1, 3)):
                done, asked = _finished(d, "google"), len(fake.translated_texts)
                proc = subprocess.Popen([sys.executable, "-m", "sit.cli", *map(str, self.run_args(d, "google", "--batch-size", "4"))],
                                        env={**self.base_env, **fake.env()}, cwd=self.work,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                moment = self.rng.uniform(0.5, self.base_wall + 4)
                try:
                    proc.wait(timeout=moment)
                    killed_at.append(f"finished before {moment:.1f} s")
                except subprocess.TimeoutExpired:
                    os.kill(proc.pid, signal.SIGKILL)
                    killed_at.append(f"{moment:.1f} s")
                out, err = proc.communicate()
                self.printed += [out, err]
                resent += sum(t in done for t in fake.translated_texts[asked:])
            fake.heal()
            done, asked = _finished(d, "google"), len(fake.translated_texts)
            final, _ = self.sit(*self.run_args(d, "google", "--batch-size", "4"), env=fake.env())
            fake.stop()
            resent += sum(t in done for t in fake.translated_texts[asked:])
            problem = (f"exit {final.returncode}" if final.returncode else "") or self.clean(final) or self.same_as_base(d)
            if not problem and resent:
                problem = f"{resent} texts the cache already held were sent again"
            self.record(f"kill -9 at {', '.join(killed_at)}", not problem,
                        problem or f"resumed: identical run files, no cached text sent again "
                        f"({len(fake.translated_texts)} texts asked in all)")

    # -- provider faults -----------------------------------------------------------------------
    FAULTS = [
        ("baidu answers misordered, no src (fault 1)", "baidu", lambda f: f.fail_at(1, MISORDER), 6),
        ("youdao answers misordered (fault 1)", "youdao", lambda f: f.fail_at(1, MISORDER), 6),
        ("google answers one translation short (fault 2)", "google", lambda f: f.fail_at(1, SHORT), 6),
        ("google answer without its text", "google", lambda f: f.fail_at(1, MISSING), 6),
        ("bing 401 on every request (fault 3)", "bing", lambda f: f.fail_from(1, AUTH), 6),
        ("baidu quota exhausted from request 1", "baidu", lambda f: f.fail_from(1, QUOTA), 6),
        ("google 503 on every request", "google", lambda f: f.fail_from(1, UNAVAILABLE), 6),
        ("google one 500, retried", "google", lambda f: f.fail_at(1, SERVER_ERROR), 0),
        ("bing one 429 with Retry-After 1, retried", "bing", lambda f: f.fail_at(1, rate("1")), 0),
        ("google one malformed body, retried", "google", lambda f: f.fail_at(1, MALFORMED), 0),
    ]

    def provider_faults(self):
        for label, name, script, expected in self.FAULTS:
            d = self.case_dir("fault-" + label.split()[0] + str(len(self.results)))
            extra = {"target": "spa"} if name == "baidu" else {}
            fake = script(self.fake(name, **extra))
            first, _ = self.sit(*self.run_args(d, name), env=fake.env())
            fake.heal()
            done, asked = _finished(d, name), len(fake.translated_texts)
            again, _ = self.sit(*self.run_args(d, name), env=fake.env())
            fake.stop()
            resent = sum(t in done for t in fake.translated_texts[asked:])
            problem = ((f"exit {first.returncode}, expected {expected}" if first.returncode != expected else "")
                       or self.clean(first) or (f"resumed run exit {again.returncode}" if again.returncode else "")
                       or self.clean(again) or self.same_as_base(d)
                       or (f"{resent} finished texts re-sent" if resent else "")
                       or (f"fake saw protocol problems: {fake.problems[:2]}" if fake.problems else ""))
            lines = first.stderr.splitlines()
            said = next((l for l in lines if "error:" in l), next((l for l in lines if "WARNING" in l), ""))[:90]
            self.record(label, not problem, problem or f"exit {first.returncode} ({said or 'no error'}); healed: "
                        "identical run files, nothing re-sent")

    def trickle_and_cut(self):
        body = json.dumps({"data": {"translations": [{"translatedText": "El banco."}]}}).encode()
        server = RawServer([trickle(body)])
        d = self.case_dir("trickle")
        env = {"SIT_GOOGLE_API_KEY": providers.GOOGLE_KEY, "SIT_GOOGLE_ENDPOINT": server.url, "SIT_HTTP_MAX_RETRIES": "0"}
        proc, wall = self.sit(*self.run_args(d, "google", "--timeout", "2", "--batch-size", "200"), env=env)
        server.close()
        problem = (f"exit {proc.returncode}, expected 6" if proc.returncode != 6 else "") or self.clean(proc) or (
            f"{wall:.1f} s: the 2 s deadline did not hold" if wall > self.base_wall + 10 else "")
        self.record("body trickled 1 byte/s, --timeout 2 (fault 8)", not problem, problem or f"exit 6 after {wall:.1f} s")
        # a chunked body cut short is retried (one text, through the library)
        from sit.translators import get_translator

        server = RawServer([chunked_cut_short(body), whole(body)])
        tr = get_translator("google", source_lang="en", target_lang="es",
                            env={"SIT_GOOGLE_API_KEY": providers.GOOGLE_KEY, "SIT_GOOGLE_ENDPOINT": server.url,
                                 "SIT_HTTP_BACKOFF": "0.01"})
        got = tr.translate(["The bank."], strict=False)
        server.close()
        self.record("chunked body cut short, retried (fault 8)", got == ["El banco."] and server.connections == 2,
                    f"{got}, {server.connections} connection(s)")

    # -- damaged caches ------------------------------------------------------------------------
    def damaged_caches(self):
        """The cache is one SQLite file (sit/cache/db.py): a translation whose stored value has the
        wrong shape, and a file damaged on disk. Each run must repair it, re-send only what was
        damaged and give the uninterrupted run's files; the run after it sends nothing."""
        values = {"a value that is a number": "42", "a value that is a list": '["x"]', "a null value": "null",
                  "a value that is not JSON": '{"half a wri', "a value that is invalid UTF-8": b"\xff\xfe"}
        for label, value in values.items():
            self._damaged_cache(label, lambda db, v=value: _damage_value(db, v), most=1)
        self._damaged_cache("a page of the file overwritten", _damage_page, most=None)
        self._damaged_cache("the file cut short", lambda db: os.truncate(db, db.stat().st_size // 2), most=None)

    def _damaged_cache(self, label: str, damage, most) -> None:
        d = self.work / ("cache-" + label.replace(" ", "-"))
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(self.work / "base" / "cache", d / "cache")
        db = d / "cache" / "cache.sqlite3"
        damage(db)
        with self.fake() as fake:
            proc, _ = self.sit(*self.run_args(d), env=fake.env())
            again, _ = self.sit(*self.run_args(d), env=fake.env())
        sent = len(fake.translated_texts)
        problem = (f"exit {proc.returncode}" if proc.returncode else "") or self.clean(proc) or self.same_as_base(d) or (
            f"{sent} texts re-sent (at most the damaged entry)" if most is not None and sent > most else "") or (
            "a second run still sends texts" if not _no_calls(again.stderr) else "")
        aside = len(list(db.parent.glob("*.corrupt-*")))
        self.record(f"damaged cache: {label} (fault 5)", not problem,
                    problem or f"repaired; {sent} text(s) re-sent, {aside} copy aside, next run 0 calls")

    # -- concurrency, HTML, secrets in URLs ----------------------------------------------------
    def concurrent(self):
        d = self.case_dir("concurrent")
        with self.fake() as fake:
            args = self.run_args(d)[:-3]  # without --out RUN --no-progress
            procs = [subprocess.Popen([sys.executable, "-m", "sit.cli", *map(str, args), "--out", str(d / f"run{i}"),
                                       "--no-progress", "--batch-size", "8"], env={**self.base_env, **fake.env()},
                                      cwd=self.work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in (1, 2)]
            outs = [p.communicate(timeout=300) for p in procs]
            self.printed += [x for o in outs for x in o]
            third, _ = self.sit(*self.run_args(d), env=fake.env())
        codes = [p.returncode for p in procs]
        same = all((d / f"run{i}" / "issues.jsonl").read_bytes() == (self.work / "base" / "run" / "issues.jsonl").read_bytes()
                   for i in (1, 2))
        ok = codes == [0, 0] and same and _no_calls(third.stderr) and not self.clean(third)
        self.record("two runs at once on one cache (fault 5)", ok,
                    f"exits {codes}, issues identical: {same}, third run: "
                    + ("0 translator calls" if _no_calls(third.stderr) else "sent texts again"))

    def html_injection(self):
        d = self.work / "html"
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir()
        src = d / "in.txt"
        src.write_text("The <script>alert('x')</script> bank raised its rates again.\n"
                       "Officials said the <img src=x onerror=alert(1)> budget was approved.\n", encoding="utf-8")
        with self.fake() as fake:
            proc, _ = self.sit("run", "--input", src, "--perturber", "character_swap", "--translator", "google",
                               "--cache-dir", d / "cache", "--out", d / "run", "--no-progress", env=fake.env())
        page = (d / "run" / "report.html").read_text(encoding="utf-8") if (d / "run" / "report.html").exists() else ""
        bad = [s for s in ("<script>alert('x')", "<img src=x") if s in page]
        ok = proc.returncode == 0 and page and not bad and not self.clean(proc)
        self.record("HTML in the input reaches report.html escaped", bool(ok), f"exit {proc.returncode}, live markup: {bad or 'none'}")

    def url_secrets(self):
        d = self.case_dir("url-secrets")
        with self.fake("bing") as fake:
            host = fake.url.split("//", 1)[1]
            env = {**fake.env(), "SIT_BING_ENDPOINT": f"http://proxyuser:pw-S3CRET-proxy@{host}"}
            proc, _ = self.sit(*self.run_args(d, "bing"), env=env)
            env["SIT_BING_ENDPOINT"] = f"http://{host}?key=qk-S3CRET-query"
            second, _ = self.sit(*self.run_args(d, "bing"), "--out", d / "run2", env=env)
        self.record("credentials and query strings in endpoint URLs (fault 6)",
                    not self.clean(proc) and not self.clean(second),
                    f"exits {proc.returncode}, {second.returncode}; files and output searched at the end")

    # -- bad inputs ----------------------------------------------------------------------------
    def bad_inputs(self):
        d = self.work / "bad"
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir()
        (d / "empty.txt").write_text("")
        (d / "latin1.txt").write_bytes("ok\ncaf\xe9\n".encode("latin-1"))
        (d / "long.txt").write_text("word " * 1000 + "\n")
        (d / "ok.txt").write_text("The bank raised interest rates.\n")
        (d / "afile").write_text("x")
        ro = Path("/proc/sit-probe-cannot-write")  # refuses new files even to root (a read-only dir does not)
        damaged = d / "damaged-run"
        shutil.copytree(self.work / "base" / "run", damaged)
        (damaged / "issues.jsonl").write_text('[1, 2]\n{"pair": "no"}\n')
        (d / "docs.jsonl").write_text('{"document": "One. Two. Three."}\n')
        run = ["run", "--input", d / "ok.txt", "--perturber", "character_swap", "--cache-dir", d / "cache", "--no-progress"]
        cases = [
            (["run", "--dataset", "nosuch"], 2), (["run", "--dataset", "politics", "--translator", "nosuch"], 2),
            (["run", "--dataset", "politics", "--perturber", "nosuch"], 2),
            (["run", "--dataset", "politics", "--relation", "nosuch"], 2),
            (["run", "--input", d / "missing.txt"], 2), (["run", "--input", d / "empty.txt"], 2),
            (["run", "--input", d / "latin1.txt"], 2), (["run", "--input", d / "long.txt"], 2),
            ([*run, "--out", d / "afile"], 4), ([*run, "--out", d / "afile" / "sub"], 4),
            ([*run, "--out", ro / "run"], 4),
            ([*run, "--top-k", "-1"], 2), ([*run, "--num-perturb", "0"], 2), ([*run, "--threshold", "nan"], 2),
            ([*run, "--batch-size", "0"], 2), ([*run, "--limit", "0"], 2), ([*run, "--max-line-chars", "0"], 2),
            ([*run, "--qps", "nan"], 2), ([*run, "--timeout", "inf"], 2), ([*run, "--timeout", "-1"], 2),
            ([*run, "--perturber-option", "rate=2"], 2), ([*run, "--perturber-option", "bogus=1"], 2),
            ([*run, "--perturber", "character_swap", "--perturber-option", "n"], 2),
            ([*run, "--translator", "marian", "--model", d / "no-such-model"], 3),
            (["perturb", "--input", d / "ok.txt", "--output", d / "afile" / "x", "--perturber", "homoglyph"], 4),
            (["perturb", "--input", d / "ok.txt", "--output", d / "o.txt", "--records", ro / "r.jsonl",
              "--perturber", "homoglyph"], 4),
            (["perturb", "--input", d / "ok.txt", "--output", d / "o.txt", "--perturber", "character_swap", "--n", "0"], 2),
            (["report", damaged], 2), (["report", d / "nosuch"], 2), (["report", self.work / "base" / "run", "-o", ro / "r.html"], 4),
            (["summarize", "--input", d / "docs.jsonl", "--perturber", "homoglyph", "--report", ro / "r.json"], 4),
            (["summarize", "--input", "lead_docs", "--perturber", "homoglyph", "--size", "0"], 2),
            (["summarize", "--input", "lead_docs", "--perturber", "homoglyph", "--lead-threshold", "nan"], 2),
            (["eval", "--src", d / "ok.txt", "--adv-src", d / "ok.txt", "--success-threshold", "nan"], 2),
            (["eval", "--src", d / "ok.txt", "--adv-src", d / "ok.txt", "--scale", "0"], 2),
            (["eval", "--src", d / "ok.txt", "--adv-src", d / "ok.txt", "--jobs", "-2"], 2),
            (["precision", self.work / "base" / "run", d / "ok.txt", "--top-k", "0"], 2),
        ]
        env_cases = [
            ({"SIT_HTTP_BACKOFF": "inf"}, 2), ({"SIT_HTTP_MAX_RETRIES": "2.5"}, 2),
            ({"SIT_BING_ENDPOINT": "http://[::1/translate"}, 2), ({"SIT_BING_KEY": "key\u2026pasted"}, 2),
            ({"SIT_BING_KEY": ""}, 3),
        ]
        failures = []
        for args, expected in cases:
            proc, _ = self.sit(*args, timeout=120)
            why = (f"exit {proc.returncode}, expected {expected}" if proc.returncode != expected else "") or self.clean(proc)
            if not why and proc.returncode and "error:" not in proc.stderr:
                why = "no error line"
            if why:
                failures.append(f"sit {' '.join(str(a).replace(str(d), '') for a in args[:6])}: {why}")
        for env, expected in env_cases:
            full = {"SIT_BING_KEY": providers.BING_KEY, "SIT_BING_ENDPOINT": "http://127.0.0.1:9/translate", **env}
            proc, _ = self.sit(*run, "--translator", "bing", "--out", d / "envrun", env=full, timeout=120)
            why = (f"exit {proc.returncode}, expected {expected}" if proc.returncode != expected else "") or self.clean(proc)
            if why:
                failures.append(f"{env}: {why}")
        total = len(cases) + len(env_cases)
        self.record(f"{total} bad inputs (faults 4, 7, 9; sit run numbers)", not failures,
                    "; ".join(failures) if failures else f"{total} of {total}: the documented exit code, one error line, no traceback")

    # -- edges (issue 49): writers, readers, cases, plugins, prune, the redactor -----------------
    def edges(self):
        """Each a real `sit` process: what is not a regular file is written through, never replaced
        (private mknod nodes, never the machine's own); bad input is one line, bounded in time."""
        d = self.work / "edges"
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir()
        (d / "s.txt").write_text("The bank rose 4.5 percent on Monday.\nThe plan helps.\n", encoding="utf-8")
        (d / "m.txt").write_text("El banco subió un 4,6 por ciento el lunes.\nEl plan ayuda.\n", encoding="utf-8")
        proc, _ = self.sit("check", "--source", d / "s.txt", "--translation", d / "m.txt", "--target-lang", "es",
                           "--out", d / "run", "--report", "text", "--cache-dir", d / "cache")
        if proc.returncode:
            return self.record("edges: a run to write from (sit check)", False, proc.stderr[-300:])
        self._edge_writers(d)
        self._edge_readers(d)
        self._edge_cases(d)
        self._edge_plugins(d)
        self._edge_prune_and_redactor(d)

    def _edge_commands(self, d: Path) -> dict:
        return {"export": ["export", d / "run"], "report": ["report", d / "run", "-f", "text"],
                "compare": ["compare", d / "run", d / "run", "-f", "markdown"],
                "judge": ["judge", "--source", d / "s.txt", "--a", d / "m.txt", "--b", d / "m.txt", "--no-cache"]}

    def _edge_writers(self, d: Path):
        import stat as st

        for command, args in self._edge_commands(d).items():
            for label, minor, expected in (("a null device", 3, 0), ("a full device", 7, 4)):
                node = d / f"{command}-{minor}"
                try:
                    os.mknod(node, 0o666 | st.S_IFCHR, os.makedev(1, minor))
                except PermissionError:
                    self.record(f"edges: {command} -o {label}", False, "mknod needs root: not probed")
                    continue
                proc, _ = self.sit(*args, "-o", node, timeout=120)
                kept = st.S_ISCHR(os.lstat(node).st_mode)
                problem = ((f"exit {proc.returncode}, expected {expected}" if proc.returncode != expected else "")
                           or self.clean(proc) or ("" if kept else "the device was replaced by a file")
                           or ("" if expected == 0 or "No space left" in proc.stderr else "no error line"))
                self.record(f"edges: {command} -o {label}", not problem, problem or f"exit {expected}, still a device")
            target, link = d / f"{command}-target.txt", d / f"{command}-link.txt"
            target.write_text("old\n")
            link.symlink_to(target)
            proc, _ = self.sit(*args, "-o", link, timeout=120)
            ok = proc.returncode == 0 and link.is_symlink() and target.read_text() not in ("", "old\n")
            self.record(f"edges: {command} -o a symlink", ok, f"exit {proc.returncode}, link kept: {link.is_symlink()}")
        stdout = d / "stdout"  # made as /dev/stdout is: the machine's own is never named
        stdout.symlink_to("/proc/self/fd/1")
        proc, _ = self.sit("report", d / "run", "-f", "text", "-o", stdout)
        self.record("edges: report -o a link to /proc/self/fd/1 (as /dev/stdout)",
                    proc.returncode == 0 and "numbers" in proc.stdout and stdout.is_symlink(),
                    f"exit {proc.returncode}, {len(proc.stdout)} characters printed")

    def _edge_line(self, label: str, args: list, expected: int, says: str = "", timeout: int = 120):
        try:
            proc, wall = self.sit(*args, timeout=timeout)
        except subprocess.TimeoutExpired:
            return self.record(label, False, f"still running after {timeout} s")
        problem = ((f"exit {proc.returncode}, expected {expected}" if proc.returncode != expected else "")
                   or self.clean(proc) or ("" if says in proc.stderr + proc.stdout else f"does not say {says!r}"))
        return self.record(label, not problem, problem or f"exit {expected} in {wall:.1f} s")

    def _edge_readers(self, d: Path):
        check = ["check", "--target-lang", "es", "--checks", "numbers", "--report", "text", "--cache-dir", d / "cache",
                 "--force", "--out"]
        head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset={}\\n"\n\n'
        files = {"nul.tsv": b"One.\tUno.\nT\x00wo.\tDos.\n", "nul.po": (head.format("UTF-8") + 'msgid "O\x00ne"\nmsgstr "Uno"\n').encode(),
                 "latin1.po": (head.format("ISO-8859-1") + 'msgid "The café"\nmsgstr "El café"\n').encode("latin-1"),
                 "bad.po": (head.format("UTF-8") + 'msgid "One"\nmsgstr "Uno"\n\nmsgid "The café"\nmsgstr "El café"\n'
                            ).encode("latin-1"),
                 "bom.jsonl": b'\xef\xbb\xbf{"source": "One.", "translation": "Uno."}\n',
                 "long.tsv": ("The bank rose 4.5 percent, to 2,300 pages. " * 1600 + "\t"  # 135 kB in all
                              + "El banco subió un 4,5 por ciento, a 2.300 páginas. " * 1300 + "\n").encode()}
        for name, data in files.items():
            (d / name).write_bytes(data)
        for name in ("fifo.po", "fifo.xlf", "fifo.tmx"):
            os.mkfifo(d / name)
            self._edge_line(f"edges: sit check a FIFO named .{name.split('.')[1]}", [*check, d / "o", "--source", d / name],
                            2, "is a FIFO, not a file", timeout=60)
        self._edge_line("edges: sit check NUL in TSV", [*check, d / "o", "--source", d / "nul.tsv"], 2, "line 2 holds a NUL")
        self._edge_line("edges: sit check NUL in PO", [*check, d / "o", "--source", d / "nul.po"], 2, "line 5 holds a NUL")
        (d / "nul.txt").write_bytes(b"One.\nT\x00wo.\n")
        self._edge_line("edges: sit check NUL in TXT", [*check, d / "o", "--source", d / "nul.txt", "--translation",
                                                          d / "m.txt"], 2, "line 2 holds a NUL")
        self._edge_line("edges: sit check a PO in ISO-8859-1", [*check, d / "o", "--source", d / "latin1.po"], 0, "checked 1")
        self._edge_line("edges: sit check a Latin-1 byte in a UTF-8 PO", [*check, d / "o", "--source", d / "bad.po"], 2,
                        "line 8 is not valid UTF-8")
        self._edge_line("edges: sit check a BOM in JSONL", [*check, d / "o", "--source", d / "bom.jsonl"], 0, "checked 1")
        self._edge_line("edges: sit check a 135 kB line", [*check, d / "o", "--source", d / "long.tsv"], 2,
                        "over the limit of 20,000")
        self._edge_line("edges: sit check a 135 kB line, limit raised", [*check, d / "o", "--source", d / "long.tsv",
                                                                          "--max-line-chars", "200000"], 0, "checked 1",
                        timeout=60)
        (d / "long.jsonl").write_text(json.dumps({"source": "The bank rose 4.5 percent, to 2,300 pages. " * 3200,
                                                  "translation": "El banco subió un 4,5 por ciento. " * 4000}) + "\n")
        self._edge_line("edges: sit check a 135 kB JSONL line, limit raised", [
            *check, d / "o", "--source", d / "long.jsonl", "--max-line-chars", "200000"], 0, "checked 1", timeout=60)
        (d / "long.txt").write_text("word " * 200_000 + "\n")
        self._edge_line("edges: sit judge a 1 MB line", ["judge", "--source", d / "long.txt", "--a", d / "long.txt", "--b",
                                                          d / "long.txt", "--no-cache"], 2, "over the limit of 20,000")

    def _edge_cases(self, d: Path):
        proc, _ = self.sit("export", d / "run", "-o", d / "cases.jsonl")
        row = json.loads((d / "cases.jsonl").read_text(encoding="utf-8").splitlines()[0])
        bad = {"source_id 2**70": {"source_id": 2 ** 70}, "source_id -7": {"source_id": -7},
               "relation_options a list": {"relation_options": ["x"]}, "a 1 MB source": {"source": "word " * 200_000}}
        for label, change in bad.items():
            (d / "case.jsonl").write_text(json.dumps({**row, **change}) + "\n", encoding="utf-8")
            self._edge_line(f"edges: run --cases {label}", ["run", "--cases", d / "case.jsonl", "--translator", "apertium",
                                                             "--out", d / "cases-run", "--no-progress"], 2, "case.jsonl:1")
        (d / "case.jsonl").write_text(json.dumps(row).replace('"The bank', '"\\ud800The bank', 1) + "\n")
        self._edge_line("edges: run --cases a lone surrogate", ["run", "--cases", d / "case.jsonl", "--translator", "apertium",
                                                                "--out", d / "cases-run", "--no-progress"], 2, "lone surrogate")
        base = ["run", "--input", d / "s.txt", "--perturber", "character_swap", "--relation", "numbers", "--translator",
                "apertium", "--cache-dir", d / "cache", "--no-progress"]
        proc, _ = self.sit(*base, "--out", d / "base")
        for value in ("x", 1e9):
            meta = json.loads((d / "base" / "run.json").read_text(encoding="utf-8"))
            meta["config"]["options"]["num_perturb"] = value
            shutil.rmtree(d / "base2", ignore_errors=True)
            shutil.copytree(d / "base", d / "base2")
            (d / "base2" / "run.json").write_text(json.dumps(meta), encoding="utf-8")
            self._edge_line(f"edges: run --baseline with num_perturb {value!r}", [
                "run", "--baseline", d / "base2", "--translator", "apertium", "--out", d / "again", "--no-progress"],
                2, "--num-perturb must be")

    def _edge_plugins(self, d: Path):
        site = d / "site"
        for dist, eps, module in (("sit-raiser", b"[sit.translators]\nraiser = sit_raiser:Raiser\n",
                                   "from sit.translators import Translator\n\n\nclass Raiser(Translator):\n"
                                   "    def __init__(self, **kw):\n        raise RuntimeError('no config')\n"),
                                  ("sit-latin", "[sit.translators]\ncafé = x:T\n".encode("latin-1"), "")):
            info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
            info.mkdir(parents=True)
            (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
            (info / "entry_points.txt").write_bytes(eps)
            if module:
                (site / f"{dist.replace('-', '_')}.py").write_text(module)
        env = {"PYTHONPATH": os.pathsep.join([str(ROOT), str(site)])}
        proc, _ = self.sit("list", env=env)
        ok = proc.returncode == 0 and "Traceback" not in proc.stderr and proc.stderr.count("cannot read the entry points") == 1
        self.record("edges: a plugin's entry_points.txt not in UTF-8", ok, f"exit {proc.returncode}, "
                    f"{proc.stderr.count('cannot read the entry points')} warning(s)" + (", traceback" if "Traceback" in proc.stderr else ""))
        proc, _ = self.sit("run", "--input", d / "s.txt", "--translator", "raiser", "--perturber", "character_swap",
                           "--out", d / "raiser", "--no-progress", env=env)
        problem = (f"exit {proc.returncode}, expected 2" if proc.returncode != 2 else "") or self.clean(proc) or (
            "" if "failed to start" in proc.stderr else "does not say it failed to start")
        self.record("edges: a plugin whose __init__ raises", not problem, problem or "exit 2, one line naming the plugin")

    def _edge_prune_and_redactor(self, d: Path):
        from sit.cache import Cache

        cache = Cache(d / "pcache")  # two parses to prune, and pages of translations where no DELETE goes
        cache.store("parses", {"name": "spacy", "lang": "es"}).put_many(
            [(f"Hola {n}", {"tokens": ["Hola"], "heads": [0], "relations": ["ROOT"]}) for n in range(2)])
        cache.store("translations", {"name": "apertium", "model": "eng-spa"}).put_many(
            [(f"text {n}", "texto " * 80) for n in range(400)])
        del cache
        _damage_page(d / "pcache" / "cache.sqlite3")
        proc, _ = self.sit("cache", "--cache-dir", d / "pcache", "prune", "--kind", "parses")
        said = "was damaged" in proc.stderr
        self.record("edges: cache prune over a page of garbage", proc.returncode == 0 and said and not self.clean(proc),
                    f"exit {proc.returncode}, " + ("says the file was damaged" if said else "says nothing of the damage"))
        from sit.redact import Redactor

        message = "--translator-option needs --translator NAME"
        got = Redactor(["sk-translator-abc123"])(message)
        self.record("edges: the redactor leaves ordinary words of a key", got == message, got)

    # -- secrets -------------------------------------------------------------------------------
    def secrets(self):
        found, files = [], 0
        for path in self.work.rglob("*"):
            if path.is_file():
                files += 1
                data = path.read_bytes()
                found += [f"{path.relative_to(self.work)}: {s[:4]}..." for s in SECRETS if s.encode() in data]
        printed = "\n".join(self.printed)
        found += [f"printed: {s[:4]}..." for s in SECRETS if s in printed]
        self.record("no secret written or printed (fault 6)", not found,
                    "; ".join(found[:5]) if found else f"{files} files and {len(self.printed)} outputs searched, none found")


def _finished(case: Path, provider: str) -> set[str]:
    """The texts whose ``provider`` translation the case's cache holds: finished, never to be sent
    again. (A text sent twice is not by itself a fault: the order check's second look asks a text
    it could not place again in other company, before caching it.)"""
    import sqlite3

    db = case / "cache" / "cache.sqlite3"
    if not db.exists():
        return set()
    conn = sqlite3.connect(db)
    try:
        return {k for (k,) in conn.execute("SELECT e.k FROM entries e JOIN namespaces n ON n.id = e.ns "
                                           "WHERE n.kind = 'translations' AND n.label LIKE ?", (f"{provider}-%",))}
    finally:
        conn.close()


def _no_calls(stderr: str) -> bool:
    """Whether a run's summary says the translator was not called (every text from the cache)."""
    return "0 by the translator in 0 calls" in stderr


def _damage_value(db: Path, value) -> None:
    """Overwrite one stored translation of the fake provider with ``value`` (bytes: a BLOB)."""
    import sqlite3

    conn = sqlite3.connect(db, isolation_level=None)
    try:
        ns = conn.execute("SELECT id FROM namespaces WHERE kind = 'translations' AND label LIKE '%google%'").fetchone()
        if ns is None:
            raise SystemExit("the base run cached no google translations: the probe's set-up is out of date")
        conn.execute("UPDATE entries SET v = ? WHERE rowid = (SELECT min(rowid) FROM entries WHERE ns = ?)",
                     (value, ns[0]))
    finally:
        conn.close()


def _damage_page(db: Path) -> None:
    """Garbage over the file's last page but one (a torn write): SQLite says it is malformed."""
    import sqlite3

    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    size = db.stat().st_size
    with open(db, "r+b") as f:
        f.seek(max(page, size - 2 * page))
        f.write(b"\x5a" * page)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kills", type=int, default=4, help="kill -9 series (each 1-3 kills, then a resume)")
    ap.add_argument("--limit", type=int, default=6, help="politics sentences per run")
    ap.add_argument("--seed", type=int, default=1, help="seed of the kill moments")
    ap.add_argument("--keep", help="work in this directory and keep it (default: a temporary one)")
    ap.add_argument("--only", help="comma-separated sections: kills, faults, timeouts, caches, concurrent, html, "
                    "urls, inputs, edges (default all)")
    args = ap.parse_args(argv)
    work = Path(args.keep or tempfile.mkdtemp(prefix="sit-probe-"))
    work.mkdir(parents=True, exist_ok=True)
    probe = Probe(work, args.limit, args.seed)
    start = time.monotonic()
    sections = {"kills": lambda: probe.kills(args.kills), "faults": probe.provider_faults,
                "timeouts": probe.trickle_and_cut, "caches": probe.damaged_caches, "concurrent": probe.concurrent,
                "html": probe.html_injection, "urls": probe.url_secrets, "inputs": probe.bad_inputs,
                "edges": probe.edges}
    chosen = args.only.split(",") if args.only else list(sections)
    unknown = set(chosen) - set(sections)
    if unknown:
        ap.error(f"unknown section(s) {', '.join(sorted(unknown))}; choose from {', '.join(sections)}")
    try:
        if set(chosen) != {"edges"}:  # the edges make their own runs
            probe.prime()
        for name in chosen:
            sections[name]()
        probe.secrets()
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    width = max(len(r.case) for r in probe.results)
    print(f"{'case':<{width}}  outcome")
    for r in probe.results:
        print(f"{r.case:<{width}}  {'ok  ' if r.ok else 'FAIL'}  {r.detail}")
    failed = sum(not r.ok for r in probe.results)
    print(f"\n{len(probe.results) - failed} of {len(probe.results)} cases held; {time.monotonic() - start:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
