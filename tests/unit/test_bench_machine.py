"""The bench's figure of the CPU time the host took (steal), beside each phase's tail."""

from __future__ import annotations

from pathlib import Path

from bot.bench.machine import CpuTimes, cpu_times, parse_cpu_line, stolen_note, stolen_percent

# /proc/stat's first line: user nice system idle iowait irq softirq steal guest guest_nice
LINE = "cpu  92336 547 20444 234823 5435 0 1329 3887 0 0\n"


def test_the_steal_is_read_from_the_machine_line_and_guest_time_is_not_counted_twice():
    assert parse_cpu_line(LINE) == CpuTimes(92336 + 547 + 20444 + 234823 + 5435 + 0 + 1329 + 3887, 3887)


def test_the_share_the_host_took_between_two_readings():
    before, after = CpuTimes(10_000, 100), CpuTimes(12_500, 290)
    assert stolen_percent(before, after) == 7.6  # 190 of 2,500 ticks
    assert stolen_note(7.6) == ", the host took 7.6% of the CPU"


def test_no_figure_where_the_kernel_says_nothing(tmp_path: Path):
    assert parse_cpu_line("cpu0 1 2 3 4 5 6 7 8") is None  # a single CPU's line, not the machine's
    assert parse_cpu_line("cpu  1 2 3") is None  # a kernel too old to count steal
    assert parse_cpu_line("") is None
    assert cpu_times(tmp_path / "missing") is None  # not Linux
    (tmp_path / "stat").write_text("intr 1 2 3\n")
    assert cpu_times(tmp_path / "stat") is None
    assert stolen_percent(None, CpuTimes(1, 0)) is None
    assert stolen_percent(CpuTimes(5, 0), CpuTimes(5, 0)) is None  # no time passed
    assert stolen_note(None) == ""
