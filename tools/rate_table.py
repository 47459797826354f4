#!/usr/bin/env python3
"""Prints the README's table of `anydoku rate` on the shipped examples, to paste in as it is.

    python3 tools/rate_table.py [BIN] [--runs N]

BIN defaults to target/release/anydoku. Every example of puzzles/ and puzzles/kinds/ is rated N
times (default 3); its time is the fastest run's user CPU time (other work on the machine
inflates CPU time less than wall time, and the fastest run least). The table has a row for each
puzzle of issue 23's table (with the figures it was filed with, wall time on a release build,
one thread) and for each other example that takes 0.1 s or more; one last row sums up the rest.
A caption line says the commit, the date and the machine's load.
"""

import datetime
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# issue 23's table, as filed (`anydoku rate` wall time, result)
THEN = {
    "samurai.toml": "55 s, search (129 steps)",
    "windmill.toml": "93 s, search",
    "samurai_killer.toml": "86 s, search",
    "gattai8.toml": "25 s, expert (AIC)",
    "butterfly.toml": "2.3 s, search",
    "x.toml": "< 0.2 s, search",
    "jigsaw.toml": "< 0.2 s, search",
    "toroidal.toml": "< 0.2 s, search",
    "killer.toml": "< 0.2 s, search",
    "classic12.toml": "< 0.2 s, search",
    "classic16.toml": "< 0.2 s, search",
}
SHOWN = 0.1  # seconds: an example this slow gets a row of its own


def rate(binary, path, runs):
    """The fastest run's user CPU seconds and the first line `rate` printed."""
    best, line = None, ""
    for _ in range(runs):
        proc = subprocess.Popen(
            [binary, "rate", str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)  # reaped here, for its own rusage
        proc.returncode = os.waitstatus_to_exitcode(status)
        best = usage.ru_utime if best is None else min(best, usage.ru_utime)
        line = out.splitlines()[0] if out else ""
    return best, line


def result(line):
    """`8.30 master (Region forcing chains)` from rate's line."""
    m = re.match(r"score ([\d.]+), level (\w+) \(hardest rule: ([^;]+);", line)
    if not m:
        return line
    score, level, rule = m.groups()
    return "search" if level == "search" else f"{score} {level} ({rule})"


def main():
    args = sys.argv[1:]
    runs = 3
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i : i + 2]
    binary = args[0] if args else str(ROOT / "target/release/anydoku")
    files = sorted((ROOT / "puzzles").glob("*.toml")) + sorted(
        (ROOT / "puzzles/kinds").glob("*.toml")
    )
    rows = [(f, *rate(binary, f, runs)) for f in files]
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "log", "-1", "--format=%h"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    today = datetime.date.today().isoformat()
    load = os.getloadavg()[0]
    fastest = f"fastest of {runs} runs" if runs > 1 else "one run"
    print(
        f"`anydoku rate`, user CPU seconds ({fastest}), commit {commit}, "
        f"{today}, load {load:.1f} (`python3 tools/rate_table.py`):\n"
    )
    print("| puzzle | rate now | result now | when issue 23 was filed (wall time) |")
    print("|---|---:|---|---|")
    rest = []
    for f, secs, line in rows:
        name = str(f.relative_to(ROOT / "puzzles"))
        if name in THEN or secs >= SHOWN:
            then = THEN.get(name, "—")
            print(f"| {name} | {secs:.2f} s | {result(line)} | {then} |")
        else:
            rest.append((secs, line))
    if rest:
        searched = sum(1 for _, line in rest if "level search" in line)
        most = max(s for s, _ in rest)
        print(
            f"| the {len(rest)} others | ≤ {most:.2f} s | "
            f"{len(rest) - searched} by logic, {searched} search | |"
        )


if __name__ == "__main__":
    main()
