"""`sit run --engine ray` on a real local Ray cluster (2 CPUs, one per session): the same run
directory as the local engine, no work on a re-run, resume after the driver is killed, a worker
killed mid-batch retried by Ray, a batch that keeps killing its worker left untranslated, one
--qps for the cluster. Every Ray driver runs in a subprocess (see the ray_cluster fixture)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import requires_apertium
from fakes.fixtures import _no_real_credentials, serve  # noqa: F401 (fixtures)

from sit.cli import main

pytestmark = [requires_apertium, pytest.mark.slow]

# a noise perturber (seeded, no model) keeps these runs short; the model stages take the same path
RUN = ["run", "--dataset", "politics", "--perturber", "character_swap", "--num-perturb", "4", "--no-progress"]


TESTS = Path(__file__).parent


def _env() -> dict:
    path = [str(TESTS.parent), str(TESTS)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(path))


def _run(tmp: Path, name: str, *extra: str) -> tuple[int, Path]:
    """`sit run` with the local engine here, with ray in a subprocess."""
    out = tmp / name
    args = [*RUN, "--out", str(out), *extra]
    if "ray" not in extra:
        return main(args), out
    p = subprocess.run([sys.executable, "-m", "sit.cli", *args], capture_output=True, text=True, env=_env())
    assert p.returncode in (0, 6), p.stderr[-3000:]
    return p.returncode, out


def _driver(code: str) -> dict:
    """Run ``code`` in a fresh Python (a Ray driver); the JSON it printed after ``RESULT ``."""
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=_env())
    assert p.returncode == 0, p.stderr[-3000:]
    results = [line[7:] for line in p.stdout.splitlines() if line.startswith("RESULT ")]
    assert results, p.stdout[-3000:]
    return json.loads(results[-1])


def _files(out: Path) -> dict[str, bytes]:
    return {n: (out / n).read_bytes() for n in ("pairs.jsonl", "issues.jsonl", "translations.jsonl")}


def _counts(out: Path) -> dict:
    return json.loads((out / "run.json").read_text())["counts"]


@pytest.fixture(scope="module")
def both(tmp_path_factory, ray_cluster):
    """The same run with the local engine and with ray (separate caches), then ray again."""
    tmp = tmp_path_factory.mktemp("engines")
    local = _run(tmp, "local", "--limit", "6", "--cache-dir", str(tmp / "cache-local"))
    ray_run = _run(tmp, "ray", "--limit", "6", "--cache-dir", str(tmp / "cache-ray"), "--engine", "ray",
                   "--batch-size", "5")
    again = _run(tmp, "again", "--limit", "6", "--cache-dir", str(tmp / "cache-ray"), "--engine", "ray")
    return local, ray_run, again


def test_ray_engine_writes_the_same_run_as_the_local_engine(both):
    (code_local, local), (code_ray, ray_out), _ = both
    assert code_local == 0 and code_ray == 0
    assert _files(ray_out) == _files(local)
    assert json.loads((ray_out / "issues.jsonl").read_text().splitlines()[0])  # there is something to compare
    counts = _counts(ray_out)
    assert counts["translated"] == counts["translations"] > 20
    assert counts["translator_calls"] >= 5  # batches of 5 went out to the workers
    meta = json.loads((ray_out / "run.json").read_text())
    assert meta["engine"]["name"] == "ray"
    assert meta["signature"] == json.loads((local / "run.json").read_text())["signature"]


def test_a_rerun_on_ray_is_answered_from_the_cache(both):
    _, (_, ray_out), (code, again) = both
    assert code == 0
    counts = _counts(again)
    assert counts["translator_calls"] == 0 and counts["translated"] == 0
    assert counts["cache_hits"] == _counts(ray_out)["translations"]
    assert _files(again) == _files(ray_out)


DYING = """
    import json, os
    from engine_fakes import DyingApertium
    from sit.engine.ray import RayEngine
    from sit.registry import Factory

    texts = {texts!r}
    kwargs = dict(marker_dir={marker!r}, die_on=texts[{die_on}], times={times}, driver_pid=os.getpid(),
                  batch_size={batch})
    translator = DyingApertium(**kwargs)
    translator.factory = Factory("engine_fakes:DyingApertium", kwargs)
    RayEngine(retries={retries}, workers={workers}).attach(translator)
    out = translator.translate(texts, strict=False)
    print("RESULT " + json.dumps({{"out": out, "stats": translator.stats.to_dict()}}))
"""


def test_a_worker_killed_mid_batch_is_retried_by_ray(tmp_path, ray_cluster):
    from sit.translators.apertium import ApertiumTranslator

    texts = [f"The minister met {n} farmers in the capital." for n in range(12)]
    got = _driver(DYING.format(texts=texts, marker=str(tmp_path), die_on=7, times=1, batch=4, retries=3,
                               workers=None))
    assert len(list(tmp_path.glob("death-*"))) == 1  # a worker died mid-batch ...
    assert got["out"] == ApertiumTranslator(batch_size=4).translate(texts)  # ... and its batch was done again
    assert got["stats"]["failed"] == 0 and got["stats"]["calls"] == 3


def test_a_batch_that_keeps_killing_its_workers_is_left_untranslated(tmp_path, ray_cluster):
    texts = [f"The bank lent {n} million to the farmers." for n in range(6)]
    got = _driver(DYING.format(texts=texts, marker=str(tmp_path), die_on=3, times=99, batch=3, retries=1,
                               workers=1))
    out = got["out"]
    assert all(isinstance(t, str) and t for t in out[:3]) and out[3:] == [None, None, None]
    assert len(list(tmp_path.glob("death-*"))) == 2  # the first try and one retry
    assert got["stats"]["failed"] == 3
    assert "batch 2 of 2 failed on every Ray worker" in got["stats"]["errors"][-1]


def _cached_translations(root) -> int:
    """How many translations the cache at ``root`` holds, read as another program would."""
    import sqlite3

    if not (root / "cache.sqlite3").exists():
        return 0
    conn = sqlite3.connect(root / "cache.sqlite3", timeout=60)
    try:
        return conn.execute("SELECT count(*) FROM entries JOIN namespaces ON entries.ns = namespaces.id "
                            "WHERE namespaces.kind = 'translations'").fetchone()[0]
    except sqlite3.OperationalError:  # created, its tables not yet
        return 0
    finally:
        conn.close()


def test_a_driver_killed_half_way_resumes_from_the_cache(tmp_path, ray_cluster):
    """kill -9 of `sit run --engine ray` while its translations come back; the same command then
    sends only what is missing, and the run equals the local engine's."""
    cache = tmp_path / "cache"
    args = [*RUN, "--limit", "20", "--cache-dir", str(cache), "--engine", "ray", "--batch-size", "1"]
    proc = subprocess.Popen([sys.executable, "-m", "sit.cli", *args, "--out", str(tmp_path / "killed")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env())
    entries = 0
    deadline = time.monotonic() + 240
    while entries < 6 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
        entries = _cached_translations(cache)
    assert proc.poll() is None, "the run ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = _cached_translations(cache)
    code, resumed = _run(tmp_path, "resumed", "--limit", "20", "--cache-dir", str(cache), "--engine", "ray")
    assert code == 0
    counts = _counts(resumed)
    total = counts["translations"]
    assert 6 <= done < total
    assert counts["cache_hits"] >= done and counts["translated"] == counts["translations"] - counts["cache_hits"]
    assert counts["translated"] <= total - done
    _, local = _run(tmp_path, "local", "--limit", "20", "--cache-dir", str(tmp_path / "cache-local"))
    assert _files(resumed) == _files(local)


def test_qps_holds_for_the_whole_cluster(serve, ray_cluster):
    """Two workers send requests to a fake Google on 127.0.0.1; the token-bucket actor spaces the
    starts of all their requests by 1/qps, not per worker."""
    from sit.translators import get_translator

    fake = serve("google")
    texts = [f"The senator rejected budget proposal {n}." for n in range(8)]
    got = _driver(f"""
        import json
        from sit.engine.ray import RayEngine
        from sit.translators import get_translator

        translator = get_translator("google", source_lang="en", target_lang="es", env={fake.env()!r}, qps=4.0,
                                    batch_size=1)
        RayEngine(workers=2).attach(translator)
        print("RESULT " + json.dumps({{"out": translator.translate({texts!r}), "calls": translator.stats.calls}}))
    """)
    starts = sorted(c.t for c in fake.calls)
    assert len(starts) == 8 and got["calls"] == 8
    assert got["out"] == get_translator("google", source_lang="en", target_lang="es", env=fake.env()).translate(texts)
    # no burst: the k-th request starts at least k/qps after the first (less a margin for one
    # request's late arrival, which shortens the gap after it but not the sum)
    assert all(t - starts[0] >= k * 0.25 - 0.1 for k, t in enumerate(starts))


def test_model_stages_on_ray_workers_give_the_local_run(tmp_path, ray_cluster, tiny_bert, tiny_marian):
    """The masked LM (with the quality stage's encoder) and MarianMT run in Ray actors: the run
    directory is the local engine's, byte for byte."""
    f = tmp_path / "in.txt"
    f.write_text("The angry senators rejected the new budget proposal.\nThe bank raised interest rates.\n")
    args = ["--input", str(f), "--translator", "marian", "--model", str(tiny_marian), "--target-lang", "es",
            "--perturber", "mlm", "--mlm-model", str(tiny_bert), "--no-progress"]
    outs = {}
    for engine in ("local", "ray"):
        out = tmp_path / engine
        p = subprocess.run([sys.executable, "-m", "sit.cli", "run", *args, "--engine", engine, "--out", str(out),
                            "--cache-dir", str(tmp_path / f"cache-{engine}")], capture_output=True, text=True,
                           env=_env())
        assert p.returncode == 0, p.stderr[-3000:]
        outs[engine] = out
    assert _files(outs["ray"]) == _files(outs["local"])
    assert _counts(outs["ray"])["translated"] == _counts(outs["local"])["translated"] > 0
    assert json.loads((outs["ray"] / "run.json").read_text())["engine"]["name"] == "ray"
