"""Run a command in a process group that ends when the process that started it ends.

``python orphan_guard.py PARENT_PID -- COMMAND ...`` starts COMMAND as its child (in the guard's own
process group: start the guard with ``start_new_session=True``) and watches PARENT_PID. When the parent
is gone (a test run killed with SIGKILL, or ended by SIGTERM before its fixtures' teardown ran), when
the guard is told to stop (SIGTERM, SIGINT, SIGHUP) or when the command ends, the guard stops the
whole group: SIGTERM (``ray start --block`` then stops the Ray processes it ran), and SIGKILL to
whatever is left after ``--grace`` seconds (default 10). The test suite's Ray cluster runs under it,
so an interrupted test run leaves no Ray process behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def guard(parent: int, command: list[str], grace: float = 10.0, poll: float = 0.5) -> int:
    """Run ``command`` until it ends, ``parent`` ends or a stop signal comes; then end the group."""
    stop = []
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: stop.append(signum))
    child = subprocess.Popen(command)
    while not stop and child.poll() is None and _alive(parent) and os.getppid() == parent:
        time.sleep(poll)
    code = child.poll()
    group = os.getpgrp()
    if code is None:
        os.killpg(group, signal.SIGTERM)  # the guard's own handler only notes it
        try:
            code = child.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            code = -signal.SIGKILL
    if group == os.getpid():  # the guard leads its group: nothing of it may outlive the guard
        os.killpg(group, signal.SIGKILL)
    return code if code >= 0 else 128 - code


def main(argv: list[str]) -> int:
    args = argv[1:]
    grace = 10.0
    if args[:1] == ["--grace"]:
        grace, args = float(args[1]), args[2:]
    if len(args) < 3 or args[1] != "--":
        print("usage: orphan_guard.py [--grace SECONDS] PARENT_PID -- COMMAND ...", file=sys.stderr)
        return 2
    return guard(int(args[0]), args[2:], grace)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
