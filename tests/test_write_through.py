"""Every writer writes through what is not a regular file, never replacing it (issue 49).

As root (CI containers) ``sit export RUN -o /dev/full`` once renamed a JSONL file over the machine's
/dev/full. The nodes here are private ones made with mknod in tmp_path (the tests run as root; they
are skipped where mknod is not allowed), never the machine's own."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sit.cli import main
from sample_runs import sample_issues, write_sample_run

ROOT = Path(__file__).resolve().parent.parent


def _node(path: Path, minor: int) -> Path:
    """A character device like /dev/null (minor 3) or /dev/full (minor 7), made at ``path``."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    except PermissionError:
        pytest.skip("mknod needs root")
    return path


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    return write_sample_run(tmp_path_factory.mktemp("wt") / "run", sample_issues(3, 2, seed=1))


def _commands(run_dir: Path, tmp_path: Path) -> dict[str, list[str]]:
    for name in ("s", "a", "b"):
        (tmp_path / f"{name}.txt").write_text("The bank raised its rates.\n", encoding="utf-8")
    return {"export": ["export", str(run_dir)], "report": ["report", str(run_dir), "-f", "text"],
            "compare": ["compare", str(run_dir), str(run_dir), "-f", "markdown"],
            "judge": ["judge", "--source", str(tmp_path / "s.txt"), "--a", str(tmp_path / "a.txt"), "--b",
                      str(tmp_path / "b.txt"), "--no-cache"]}


COMMANDS = ["export", "report", "compare", "judge"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_null_device_stays_a_device(tmp_path, run_dir, command, capsys):
    node = _node(tmp_path / "null", 3)
    assert main([*_commands(run_dir, tmp_path)[command], "-o", str(node)]) == 0
    assert stat.S_ISCHR(os.lstat(node).st_mode), "the device was replaced by a file"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


@pytest.mark.parametrize("command", COMMANDS)
def test_a_full_device_fails_in_one_line(tmp_path, run_dir, command, capsys):
    node = _node(tmp_path / "full", 7)
    assert main([*_commands(run_dir, tmp_path)[command], "-o", str(node)]) == 4
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if "error:" in line]
    assert len(lines) == 1 and str(node) in lines[0] and "No space left on device" in lines[0], err
    assert stat.S_ISCHR(os.lstat(node).st_mode)


@pytest.mark.parametrize("command", ["export", "report"])
def test_a_link_to_a_file_is_kept_and_its_file_written(tmp_path, run_dir, command):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "out.txt"
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert main([*_commands(run_dir, tmp_path)[command], "-o", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() not in ("", "old\n")
    # a dangling link: its file is made, the link kept
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "real" / "new.txt")
    assert main([*_commands(run_dir, tmp_path)[command], "-o", str(dangling)]) == 0
    assert dangling.is_symlink() and (tmp_path / "real" / "new.txt").read_text()


def test_a_fifo_gets_the_bytes(tmp_path, run_dir):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert main(["export", str(run_dir), "-o", str(fifo)]) == 0
    reader.join(timeout=30)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].count(b"\n") >= 3 and got[0].startswith(b"{")


@pytest.mark.parametrize("into", ["a pipe", "a file"])
def test_a_link_to_standard_output_prints_what_sit_writes(tmp_path, run_dir, into):
    """``-o /dev/stdout`` (a link through /proc to the command's own output) prints the file. The
    link is a private one made as /dev/stdout is (the machine's own is never named: a writer that
    replaces what it is given would replace it for every process)."""
    stdout = tmp_path / "stdout"
    stdout.symlink_to("/proc/self/fd/1")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "sit.cli", "report", str(run_dir), "-f", "text", "-o", str(stdout)]
    if into == "a pipe":
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
        printed = done.stdout
    else:
        with open(tmp_path / "printed.txt", "w") as fh:
            done = subprocess.run(command, stdout=fh, stderr=subprocess.PIPE, text=True, env=env, timeout=120)
        printed = (tmp_path / "printed.txt").read_text(encoding="utf-8")
    assert done.returncode == 0, done.stderr
    assert stdout.is_symlink() and os.readlink(stdout) == "/proc/self/fd/1"
    assert main(["report", str(run_dir), "-f", "text", "-o", str(tmp_path / "report.txt")]) == 0
    assert printed and printed == (tmp_path / "report.txt").read_text(encoding="utf-8")
