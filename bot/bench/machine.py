"""How much of the machine the bench had: the CPU time its host took while a phase ran.

On a virtual machine the hypervisor runs other guests on the same cores, and the time a vCPU
waits for that counts as "steal" in /proc/stat. A vCPU held back a few milliseconds stalls
whatever ran on it, and the slowest acknowledgements with it. Five runs of one offered-rate
phase on one machine, minutes apart, had ack p99 from 10 to 93 ms while the host took 0.5% to
7.5% of the CPU time (the two near 10 ms with 0.5 and 0.8%). It is one cause among others, so
the bench prints it beside the tail: a reader can tell a run on a busy host. None where the
kernel does not say (not Linux).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PROC_STAT = Path("/proc/stat")
STEAL = 7  # the field's index after "cpu": user nice system idle iowait irq softirq steal


@dataclass(frozen=True)
class CpuTimes:
    """The machine's CPU time so far, in clock ticks: all of it, and what the host took."""

    total: int
    stolen: int


def parse_cpu_line(line: str) -> CpuTimes | None:
    """The first line of /proc/stat ("cpu  user nice system idle iowait irq softirq steal ...")."""
    name, *fields = line.split() or [""]
    if name != "cpu" or len(fields) <= STEAL or not all(f.isdigit() for f in fields):
        return None
    ticks = [int(f) for f in fields[: STEAL + 1]]  # guest time is counted in user time already
    return CpuTimes(sum(ticks), ticks[STEAL])


def cpu_times(source: Path = PROC_STAT) -> CpuTimes | None:
    try:
        with source.open(encoding="ascii") as stat:
            return parse_cpu_line(stat.readline())
    except (OSError, UnicodeDecodeError):
        return None


def stolen_percent(before: CpuTimes | None, after: CpuTimes | None) -> float | None:
    """The share of the machine's CPU time between the two the host took, in percent."""
    if before is None or after is None or after.total <= before.total:
        return None
    return round(100 * (after.stolen - before.stolen) / (after.total - before.total), 1)


def stolen_note(percent: float | None) -> str:
    """The figure as the bench's tables add it to a phase's note ("" where unknown)."""
    return "" if percent is None else f", the host took {percent:g}% of the CPU"
