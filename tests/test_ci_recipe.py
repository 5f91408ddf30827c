"""examples/ci/sit.yml works as written: every `run:` step of it (all but the checkout, cache,
upload and comment actions) runs in order, with GitHub's shell (bash -eo pipefail), in a clean
folder and a fresh virtual environment, installing sit from a copy of this checkout; the gate's
verdict is the last step's status.

Kept fast and offline: the runs test the dataset's first 20 sentences (``--limit 20`` added to
``SIT_BASE_ARGS``; the candidate takes them from the baseline); pip installs sit itself (--no-deps, PIP_NO_DEPS) and finds every other
package already satisfied in the test environment, which the fresh environment sees through a .pth
line (its folder only, never its .pth files: not the editable sit of the checkout)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
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


def _clean_env(work: Path, recipe: dict, source: Path) -> dict[str, str]:
    keep = ("PATH", "LANG", "LC_ALL", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "PIP_CERT", "PIP_FIND_LINKS",
            "PIP_DEFAULT_TIMEOUT", "PIP_DISABLE_PIP_VERSION_CHECK", "XDG_CONFIG_HOME", "HF_HUB_OFFLINE",
            "STANZA_RESOURCES_DIR", "NLTK_DATA", "XDG_CACHE_HOME", "HF_HOME", "HF_HUB_CACHE")
    env = {k: os.environ[k] for k in keep if k in os.environ}  # the test run's own caches, no PYTHONPATH
    shims = work / ".shims"
    shims.mkdir()
    (shims / "python3").symlink_to(sys._base_executable)  # the interpreter of the test environment
    env.update(HOME=str(work / ".home"), PATH=f"{shims}{os.pathsep}{env['PATH']}", PIP_NO_DEPS="1",
               GITHUB_PATH=str(work / ".github_path"), GITHUB_STEP_SUMMARY=str(work / ".step_summary"),
               GITHUB_OUTPUT=str(work / ".github_output"))
    for key, value in recipe.get("env", {}).items():
        env[key] = str(value).replace("${{ github.workspace }}", str(work))
    env["SIT_SOURCE"] = str(source)
    env["SIT_BASE_ARGS"] += " --limit 20"  # the first 20 sentences of the dataset: the same steps, a fifth of the work
    assert not any("${{" in v for v in env.values())
    return env


def _prepared_venv(work: Path) -> None:
    """.sit-venv made beforehand as the recipe makes it, seeing the test environment's packages."""
    venv = work / ".sit-venv"
    subprocess.run([sys._base_executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    site = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "test-environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")


def test_the_recipes_steps_run_in_a_clean_environment_and_give_the_gates_verdict(tmp_path):
    from test_package import checkout_copy

    recipe = _recipe()
    work = tmp_path / "workspace"
    (work / ".home").mkdir(parents=True)
    env = _clean_env(work, recipe, checkout_copy(tmp_path / "sit-source"))
    _prepared_venv(work)
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
    sit_bin = work / ".sit-venv" / "bin" / "sit"
    assert sit_bin.is_file() and str(work / ".sit-venv" / "bin") in Path(env["GITHUB_PATH"]).read_text()
    for run in ("base", "new"):
        assert (work / "runs" / run / "report.html").is_file()
    summary = (work / "compare.md").read_text(encoding="utf-8")
    assert len(summary) <= 60_000 and re.search(r"sit compare: 0 new", summary)
    assert Path(env["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8") == summary
    import xml.etree.ElementTree as ET

    junit = ET.parse(work / "compare.xml").getroot()
    assert junit.tag == "testsuites" and junit.get("failures") == "0" and int(junit.get("tests")) > 0
