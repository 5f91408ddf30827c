"""sit as a package: `python -m build` makes an sdist and a wheel (built from the sdist, as pip
does from a git URL) holding the datasets and the report's assets; the wheel, installed into a
fresh virtual environment, runs `sit run --dataset politics --translator apertium` from there.

Kept fast: the wheel goes in with --no-deps, and the environment sees the test environment's
packages (its dependencies) through a .pth line, which adds their folder but none of its .pth
files (so never the editable sit of the checkout)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from conftest import requires_apertium

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


def test_the_sdist_and_the_wheel_hold_the_datasets_and_the_report_assets(built):
    import tarfile

    wheel = next(built.glob("sit_mt-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"sit/datasets/{n}" for n in DATASETS} <= names, sorted(n for n in names if "datasets" in n)
    assert {f"sit/report/static/{n}" for n in ASSETS} <= names
    for name in DATASETS:  # the files themselves, not a link
        assert zipfile.ZipFile(wheel).read(f"sit/datasets/{name}") == (ROOT / "datasets" / name).read_bytes()
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
