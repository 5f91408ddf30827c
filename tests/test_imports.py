"""What a process loads: only the libraries of the stages that run (issue 36).

Each check runs a real command in a fresh interpreter (this checkout's sit) and lists the heavy
packages left in ``sys.modules`` when it is done.
"""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import requires_apertium

ROOT = Path(__file__).resolve().parent.parent

#: model libraries, the scientific stack, wordfreq's lists (the word frequencies are cached) and
#: sacrebleu (chrF's scores and its signature are cached): what a re-run answered from the cache
#: never needs
HEAVY = ("torch", "transformers", "sentence_transformers", "sklearn", "scipy", "pandas", "numpy", "nltk",
         "spacy", "stanza", "py3langid", "jieba", "ray", "ctranslate2", "wordfreq", "sacrebleu")

#: runs ``sit.cli.main(argv)`` and prints its exit code and the heavy packages loaded
PROBE = ("import json, sys\nfrom sit.cli import main\ncode = main(sys.argv[1:])\n"
         "print(json.dumps([code, sorted({m.split('.')[0] for m in sys.modules} & set(%r))]))" % (HEAVY,))


def loaded_by(*argv: str, env=None) -> list[str]:
    """The heavy packages a fresh interpreter holds after ``sit ARGV`` (which must succeed)."""
    proc = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=600,
                          cwd=os.getcwd(), env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    assert proc.returncode == 0, proc.stderr
    code, heavy = json.loads(proc.stdout.strip().splitlines()[-1])
    assert code == 0, proc.stderr
    return heavy


@requires_apertium
def test_a_rerun_from_the_cache_loads_no_model_library(tmp_path):
    # the default relations (sit, numbers, passthrough, case, language) on four news sentences:
    # the cold run loads its stages' models; the re-run reads every perturbation, translation,
    # parse and language identification from the cache, and loads none of them
    args = ["run", "--dataset", "news", "--limit", "4", "--translator", "apertium", "--no-progress",
            "--cache-dir", str(tmp_path / "cache")]
    cold = loaded_by(*args, "--out", str(tmp_path / "cold"))
    assert {"nltk", "spacy", "py3langid", "wordfreq", "sacrebleu"} <= set(cold)  # the stages ran, with their libraries
    cached = loaded_by(*args, "--out", str(tmp_path / "cached"))
    counts = json.loads((tmp_path / "cached" / "run.json").read_text())["counts"]
    assert counts["translator_calls"] == 0 and counts["cache_hits"] > 0  # a re-run indeed
    assert cached == []
    assert (tmp_path / "cached" / "issues.jsonl").read_bytes() == (tmp_path / "cold" / "issues.jsonl").read_bytes()


@pytest.mark.skipif(importlib.util.find_spec("sklearn") is None,
                    reason="scikit-learn is not installed (the test set-up installs it with sentence-transformers)")
def test_wordnet_loads_without_the_scientific_packages_nltk_would_import():
    # `import nltk` imports scikit-learn (and SciPy) whenever they are installed; sit's WordNet
    # reader and stemmer load NLTK without them, and they import as usual afterwards
    code = ("import json, sys\nfrom sit.models.wordnetdb import nltk_module, wordnet\n"
            "wn = wordnet()\nstem = nltk_module('nltk.stem').PorterStemmer().stem('running')\n"
            "lemmas = [l.name() for l in wn.synset('dog.n.01').lemmas()][:2]\n"
            "before = sorted(m for m in ('sklearn', 'scipy') if m in sys.modules)\n"
            "import sklearn\nprint(json.dumps([lemmas, stem, before, 'sklearn' in sys.modules]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    lemmas, stem, before, after = json.loads(proc.stdout.strip().splitlines()[-1])
    assert lemmas == ["dog", "domestic_dog"] and stem == "run"
    assert before == [] and after is True


def test_sit_eval_loads_only_what_scoring_needs(tmp_path):
    # `sit eval` builds the options of its own sub-command only: none of `sit run`'s or `sit
    # compare`'s modules, nor the cached pair scorer
    files = {}
    for name, lines in (("src", ["the cat sat", "a dog ran"]), ("adv", ["the cta sat", "a dgo ran"]),
                        ("out", ["el gato", "un perro"]), ("adv_out", ["el cta", "un dgo"]), ("ref", ["el gato", "un perro"])):
        files[name] = tmp_path / name
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = ("import json, sys\nfrom sit.cli import main\ncode = main(sys.argv[1:])\n"
            "print(json.dumps([code, sorted(m for m in sys.modules if m.startswith('sit.'))]))")
    proc = subprocess.run([sys.executable, "-c", code, "eval", "--src", str(files["src"]), "--adv-src", str(files["adv"]),
                           "--out", str(files["out"]), "--adv-out", str(files["adv_out"]), "--ref", str(files["ref"])],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    code, modules = json.loads(proc.stdout.strip().splitlines()[-1])
    assert code == 0 and "Success percentage" in proc.stdout
    assert "sit.eval.core" in modules
    assert not {"sit.commands.run", "sit.pipeline", "sit.relations", "sit.eval.pairs", "sit.compare.core"} & set(modules)
    # the redactor reads the credentials file (sit.credentials) without the
    # translators' base class, the cache or the batching, which scoring files never needs
    assert "sit.credentials" in modules
    assert not {"sit.translators.base", "sit.cache", "sit.batching", "sit.stage"} & set(modules)


#: runs ``sit.cli.main(argv)`` and prints its exit code and the entry-point groups it read (selected
#: from the installed entry points: sit.registry reads them all once and selects each group)
ENTRY_POINTS_PROBE = (
    "import json, sys\nimport importlib.metadata as md\nread = []\nreal = md.EntryPoints.select\n"
    "md.EntryPoints.select = lambda self, **kw: (kw and read.append(kw.get('group'))) or real(self, **kw)\n"
    "from sit.cli import main\ntry:\n    code = main(sys.argv[1:])\nexcept SystemExit as exc:\n    code = exc.code\n"
    "print(json.dumps([code, read]))")


def test_sit_eval_reads_the_plugins_entry_points_only_to_list_the_scorers(tmp_path):
    # reading every installed package's entry points costs 10-15 ms of a 0.2 s `sit eval`: sit's
    # own chrF needs none of them; the help, which lists the scorers, reads them when it is printed
    # (and so lists the scorers of a --custom-scores-source file too)
    examples = ROOT / "examples"
    mt = [str(examples / "mt" / name) for name in ("src.en", "adv.charswap.en", "out.es", "adv.charswap.es", "ref.es")]

    def run(*argv):
        proc = subprocess.run([sys.executable, "-c", ENTRY_POINTS_PROBE, "eval", *argv], capture_output=True,
                              text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
        code, read = json.loads(proc.stdout.strip().splitlines()[-1])
        assert code == 0, proc.stderr
        return proc.stdout, read

    stdout, read = run(*[a for pair in zip(("--src", "--adv-src", "--out", "--adv-out", "--ref"), mt) for a in pair])
    assert "Success percentage" in stdout and "sit.scorers" not in read
    stdout, read = run("--custom-scores-source", str(examples / "custom_scorers.py"), "--help")
    assert "sit.scorers" in read
    listed = " ".join(stdout.split()).split("similarity of the inputs (default chrf; choose from: ")[1]
    assert listed.startswith("bleu, chrf, constant, exact_match, f1, meteor, zero_one, or a custom scorer)")
