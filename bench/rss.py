"""Peak memory of a command in a process of its own, as that process itself reads it.

`resource.RUSAGE_CHILDREN` keeps the largest child seen so far, and even `wait4` on one child
reports at least the memory its parent had when it forked (exec records the old mapping's peak).
A process's own `VmHWM` in /proc/self/status counts only its own mapping, so the child reads
that as it exits and writes it to a file; elsewhere than Linux, `ru_maxrss` of itself.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = """
import runpy, sys

def peak_kb():
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

report, module = sys.argv[1], sys.argv[2]
sys.argv = [module, *sys.argv[3:]]
try:
    runpy.run_module(module, run_name="__main__", alter_sys=True)
finally:
    with open(report, "w", encoding="ascii") as out:
        out.write(str(peak_kb()))
"""


def peak_rss_mb(module: str, *args: str) -> tuple[float, int]:
    """(peak resident memory in MB, exit code) of `python -m module args...`."""
    with tempfile.TemporaryDirectory(prefix="zfrec-rss-") as folder:
        report = Path(folder) / "peak"
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(report), module, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        if not report.exists():
            raise RuntimeError(f"python -m {module} {' '.join(args)} failed: {done.stderr}")
        return int(report.read_text(encoding="ascii")) / 1024, done.returncode


def own_peak_rss_mb() -> float:
    """This process's own peak memory: VmHWM on Linux (which, unlike the rusage of a child,
    does not count what the parent held when it forked), else ru_maxrss."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
