"""Engines without a cluster: the engine protocol of the cached batch loop (stages rebuilt from
their pickled Factory, answers taken in by the driver, which alone writes the cache), and the
command line's engine options. The Ray engine itself: tests/test_engine_ray.py."""

from __future__ import annotations

import pickle
import subprocess
import re
import sys

import pytest
from conftest import requires_apertium
from fakes.fixtures import _no_real_credentials, serve  # noqa: F401 (fixtures)

from sit.cache import Cache


class RebuildingEngine:
    """Runs each batch on a stage rebuilt from its Factory after a pickle round trip, as an
    engine's worker does (no cache, no progress), in this process."""

    remote = True

    def __init__(self):
        self.built = []

    def attach(self, stage):
        stage.engine = self
        return stage

    def run(self, remote, batches):
        stage = pickle.loads(pickle.dumps(remote.factory)).build()
        self.built.append(stage)
        return iter([self._answer(stage, remote.method, batch) for batch in batches])

    @staticmethod
    def _answer(stage, method, batch):
        try:
            return pickle.loads(pickle.dumps(getattr(stage, method)(batch)))
        except Exception as exc:  # handed back to the batch loop, as a worker's error is
            return exc


TEXTS = ["The senator criticized the governor.", "The bank raised interest rates.",
         "The company opened a new factory.", "The senator criticized the governor."]


@requires_apertium
def test_a_translator_rebuilt_in_a_worker_answers_and_the_driver_writes_the_cache(tmp_path):
    from sit.translators import TRANSLATORS

    engine = RebuildingEngine()
    cache = Cache(tmp_path / "cache")
    translator = engine.attach(TRANSLATORS.create("apertium", cache=cache, batch_size=2, progress=False))
    out = translator.translate(TEXTS)
    assert out == TRANSLATORS.create("apertium").translate(TEXTS)
    assert out[0] == "El senador criticó el gobernador."
    worker = engine.built[0]
    assert worker is not translator and worker.cache is None and worker.batch_size == 2
    assert translator.stats.calls == 2 and translator.stats.translated == 3
    again = engine.attach(TRANSLATORS.create("apertium", cache=Cache(tmp_path / "cache"), batch_size=2))
    assert again.translate(TEXTS) == out and again.stats.calls == 0 and len(engine.built) == 1


def test_a_wordnet_perturber_rebuilt_in_a_worker_brings_its_drop_counts_back(tmp_path):
    from sit.perturb import PERTURBERS

    sentences = ["The angry farmers blocked the main road near the capital.",
                 "The central bank raised its interest rates again."]
    opts = dict(num_perturb=4, encoder="none")
    local = PERTURBERS.create("wordnet", cache=Cache(tmp_path / "a"), **opts)
    engine = RebuildingEngine()
    remote = engine.attach(PERTURBERS.create("wordnet", cache=Cache(tmp_path / "b"), **opts))
    pairs = remote.perturb(sentences)
    assert pairs == local.perturb(sentences) and len(pairs) > 4
    assert remote.dropped == local.dropped and sum(remote.dropped.values()) > 0
    assert engine.built and engine.built[0].cache is None
    cached = PERTURBERS.create("wordnet", cache=Cache(tmp_path / "b"), **opts)
    assert cached.perturb(sentences) == pairs and cached.dropped == local.dropped and cached.computed == 0


def test_engine_ray_without_ray_is_one_line_with_the_install_command(tmp_path):
    code = ("import sys; sys.modules['ray'] = None; from sit.cli import main; "
            f"sys.exit(main(['run', '--dataset', 'politics', '--engine', 'ray', '--out', {str(tmp_path / 'r')!r}]))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 3, p.stderr
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    assert lines == [lines[0]] and lines[0].startswith("sit: error: the engine 'ray' needs a package")
    assert lines[0].endswith('install it with: pip install "ray[data]==2.60.0"')


@pytest.mark.parametrize("option", [["--ray-address", "10.0.0.1:6379"], ["--gpus-per-worker", "1"], ["--workers", "2"]])
def test_ray_options_need_the_ray_engine(tmp_path, option):
    from sit.cli import main

    assert main(["run", "--dataset", "politics", "--out", str(tmp_path / "r"), *option]) == 2


def test_ray_engine_checks_its_numbers(tmp_path):
    pytest.importorskip("ray")
    from sit.errors import ConfigError
    from sit.engine import create_engine

    with pytest.raises(ConfigError, match="--gpus-per-worker"):
        create_engine("ray", gpus_per_worker=float("nan"))
    with pytest.raises(ConfigError, match="--workers"):
        create_engine("ray", workers=0)
    with pytest.raises(ConfigError, match="--jobs is for --engine local"):
        create_engine("ray", jobs=2)


def test_jobs_is_checked_and_is_for_the_local_engine(tmp_path, capsys):
    from sit.cli import main
    from sit.engine import create_engine

    assert main(["run", "--dataset", "politics", "--out", str(tmp_path / "r"), "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err
    assert create_engine("local", jobs=1).describe() == {"name": "local", "jobs": 1}
    assert create_engine("local").jobs >= 1


POLITICS = ["The senator criticized the governor over the new budget proposal.",
            "The angry voters rejected the tax plan in the election.",
            "The president met the foreign minister at the embassy.",
            "Local officials praised the new hospital in the city.",
            "The committee approved the education bill after a long debate.",
            "The mayor promised cheaper housing for young families.",
            "The court blocked the controversial law on Tuesday.",
            "Opposition leaders criticized the defence budget."]


def test_translation_runs_beside_the_perturber_batch_by_batch(tmp_path, serve):
    """With two jobs, the perturber's first batches are being translated (real HTTP to a fake
    DeepL) while it perturbs the next; every text is asked for once and gets the translation a
    pass of its own gives."""
    import time
    from collections import Counter

    from fakes import dictionary_translate
    from fakes.fixtures import make

    from sit.engine.local import LocalEngine
    from sit.perturb import PERTURBERS
    from sit.pipeline import Prefetch

    fake = serve("deepl", translate=dictionary_translate)
    translator = make(fake, cache=Cache(tmp_path / "a"))
    perturber = PERTURBERS.create("wordnet", num_perturb=3)
    perturber.batch_size = 2
    events = []
    translate_batch, perturb_keys = translator._translate_batch, perturber._perturb_keys
    translator._translate_batch = lambda texts, **kw: (events.append(("translate", time.monotonic())),
                                                       translate_batch(texts, **kw))[1]
    perturber._perturb_keys = lambda keys: (perturb_keys(keys), events.append(("perturbed", time.monotonic())))[0]
    engine = LocalEngine(jobs=2)
    try:
        early = Prefetch(translator, engine)
        pairs = perturber.perturb(POLITICS, on_texts=early.feed)
        got = early.results()
    finally:
        engine.close()
    first_translation = min(t for what, t in events if what == "translate")
    last_batch = max(t for what, t in events if what == "perturbed")
    assert first_translation < last_batch  # translating began before the perturber was done
    texts = list(dict.fromkeys(t for p in pairs for t in (p.original, p.perturbed)))
    assert len(pairs) > 10 and set(got) == set(texts)
    sent = Counter(t for call in fake.calls for t in call.texts)
    # each text asked for once, or twice where the order check could not place its first answer
    # (the second look, docs/cloud.md)
    assert set(sent) == set(texts) and max(sent.values()) <= 2
    assert [got[t] for t in texts] == dictionary_translate(texts, "EN", "ES")


def test_early_translations_are_parsed_after_the_perturber_and_the_check_stage_takes_the_trees(tmp_path, serve):
    """With a parser, the early batches' translations are parsed in the background too (the real
    Spanish spaCy pipeline), each once, but only once perturbing is done (parse_all), so that the
    parser's model never loads beside the perturber's; the run's context hands those trees to the
    check stage instead of parsing again, and parses only what it lacks."""
    from fakes import dictionary_translate
    from fakes.fixtures import make

    from sit.engine.local import LocalEngine
    from sit.parse import get_parser
    from sit.perturb import PERTURBERS
    from sit.pipeline import Prefetch
    from sit.relations import RunContext

    fake = serve("deepl", translate=dictionary_translate)
    translator = make(fake, cache=Cache(tmp_path / "a"))
    perturber = PERTURBERS.create("wordnet", num_perturb=3)
    perturber.batch_size = 2
    parser = get_parser("spacy", "es", cache=None)
    engine = LocalEngine(jobs=2)
    try:
        early = Prefetch(translator, engine, parser=parser)
        pairs = perturber.perturb(POLITICS, on_texts=early.feed)
        got = early.results()
        assert parser.computed == 0  # nothing parsed beside the perturber: its models and the parser's never together
        early.parse_all()  # once perturbing is done (a run: once its models are let go)
        early.parsed()
    finally:
        engine.close()
    texts = list(dict.fromkeys(t for p in pairs for t in (p.original, p.perturbed)))
    translations = list(dict.fromkeys(got[t] for t in texts))
    assert sorted(early.trees) == sorted(translations)
    assert parser.computed == len(translations)  # each translation parsed once
    fresh = get_parser("spacy", "es", cache=None)
    assert [early.trees[t] for t in translations] == fresh.parse(translations)
    ctx = RunContext(Cache(tmp_path / "b"), "en", "es", make_parser=lambda: (fresh, "spacy", "test"))
    ctx.early_trees = early.trees
    other = "El senador criticó al gobernador."
    before = fresh.computed
    trees = ctx.parse([translations[0], other])
    assert fresh.computed == before + 1  # only the text it lacked was parsed
    assert trees[0] is early.trees[translations[0]] and trees[1] == fresh.parse([other])[0]


def test_a_run_with_jobs_gives_the_files_of_a_run_without(tmp_path, serve, monkeypatch):
    from fakes import dictionary_translate

    from sit.pipeline import RunConfig, run

    fake = serve("deepl", translate=dictionary_translate)
    for k, v in fake.env().items():
        monkeypatch.setenv(k, v)
    text = tmp_path / "in.txt"
    text.write_text("\n".join(POLITICS) + "\n")
    results = {}
    for jobs in (1, 2):
        results[jobs] = run(RunConfig(input=str(text), translator="deepl", target_lang="es", jobs=jobs, relations=("sit",),
                                      cache_dir=str(tmp_path / f"c{jobs}"), out=str(tmp_path / f"r{jobs}"),
                                      progress=False))
    assert results[1].counts.translated == results[2].counts.translated == results[2].counts.translations
    assert len(fake.calls) > results[1].counts.translator_calls  # the second run sent batches as they came
    for name in ("pairs.jsonl", "translations.jsonl", "issues.jsonl"):
        assert (tmp_path / "r1" / name).read_bytes() == (tmp_path / "r2" / name).read_bytes(), name
    # the report too, but for how many calls the texts took: the second run sends the substitutions
    # as the perturber finishes them, so where its batches break depends on how many there are
    calls = re.compile(r"\d+ calls?\b|\bcalls \d+")
    r1, r2 = ((tmp_path / r / "report.txt").read_text(encoding="utf-8") for r in ("r1", "r2"))
    assert calls.search(r1) and calls.sub("", r1) == calls.sub("", r2)


@requires_apertium
def test_apertium_eng_spa_may_be_translated_early_eng_cat_may_not():
    """eng-spa tags each text apart, so a text translates the same in any batch (see
    tests/test_apertium.py); eng-cat's mode (a constraint grammar, anaphora resolution) is run
    whole, and its stages are not known to keep lines apart."""
    from sit.translators import TRANSLATORS

    assert TRANSLATORS.create("apertium", target_lang="es").batch_independent is True
    assert TRANSLATORS.create("apertium", target_lang="ca").batch_independent is False
    assert TRANSLATORS.create("deepl", env={"SIT_DEEPL_KEY": "k"}).batch_independent is True
