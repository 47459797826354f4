#!/usr/bin/env python3
"""The hard-sum bench: every puzzle decided within the time limit, and the set against CP-SAT.

Three sets, each a .jsonl file of anydoku's JSON models (see README.md beside this file):
generated_killers.jsonl and little_killers.jsonl (made by anydoku, kept here), and the hardest
published Killers of ../shared, picked by key and converted from the corpus at run time (they
are not copied into the repository).

    pip install ortools
    python3 crates/anydoku/benches/hardsums/run.py --anydoku target/release/anydoku

Per puzzle: `anydoku count --limit 2` (one thread, process start included) must answer 1
within T seconds of its own CPU time (default 10). Per set: `benches/cpsat/compare.py --repeats 1` (both sides proving uniqueness).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "../../../.."))

# The slowest 9x9 Killers of the puzzlekit (janko.at) set for anydoku, and the two
# ConstraintSolver.jl Killers (every 9x9 Killer of ../shared was timed; KrazyDad's are easier).
PUBLISHED = {
    "killer_puzzlekit.jsonl": ["487_9x9", "157_9x9", "740_9x9", "378_9x9", "22_9x9", "809_9x9",
                               "370_9x9", "440_9x9", "376_9x9", "807_9x9"],
    "killer_csjl.jsonl": None,
}


def published(shared, out_dir):
    """Writes published_killers.jsonl from the corpus; returns its path (None without it)."""
    if not os.path.isdir(shared):
        print(f"{shared} not found: the published set is skipped", file=sys.stderr)
        return None
    conv = os.path.join(out_dir, "corpus")
    subprocess.run([sys.executable, os.path.join(ROOT, "tools/variants_to_jsonl.py"), shared, conv],
                   check=True, capture_output=True)
    path = os.path.join(out_dir, "published_killers.jsonl")
    with open(path, "w") as out:
        for name, keys in PUBLISHED.items():
            with open(os.path.join(conv, name)) as f:
                for line in f:
                    m = json.loads(line)
                    if keys is None or m["source"].get("key") in keys:
                        out.write(line)
    return path


def decide_each(anydoku, path, timeout):
    """Times every puzzle of a set alone; returns (decided within `timeout` seconds of CPU
    time, n, slowest wall-clock s, slowest CPU s). The CPU time is the process's own (user and
    system), so a machine shared with other work does not count against it; the wall-clock
    budget given to anydoku is three times as long."""
    decided, n, slowest, slowest_cpu = 0, 0, 0.0, 0.0
    with open(path) as f:
        lines = [l for l in f if l.strip()]
    for line in lines:
        with tempfile.NamedTemporaryFile("w", suffix=".json") as t:
            t.write(line)
            t.flush()
            start = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            out = subprocess.run([anydoku, "count", t.name, "--limit", "2", "--timeout",
                                  str(3 * timeout)], capture_output=True, text=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            dt = time.perf_counter() - start
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        n += 1
        slowest = max(slowest, dt)
        slowest_cpu = max(slowest_cpu, cpu)
        decided += out.stdout.strip() == "1" and cpu <= timeout
    return decided, n, slowest, slowest_cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--anydoku", default=os.path.join(ROOT, "target/release/anydoku"))
    shared = os.environ.get("ANYDOKU_SHARED", os.path.join(ROOT, "../shared/data"))
    ap.add_argument("--shared", default=os.path.join(shared, "variants"),
                    help="the variant corpus (default: $ANYDOKU_SHARED/variants)")
    ap.add_argument("--timeout", type=int, default=10, help="seconds per puzzle")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sets = [os.path.join(HERE, "generated_killers.jsonl"),
                os.path.join(HERE, "little_killers.jsonl")]
        pub = published(args.shared, tmp)
        if pub:
            sets.append(pub)
        for s in sets:
            decided, n, slowest, cpu = decide_each(args.anydoku, s, args.timeout)
            print(f"{os.path.basename(s)}: {decided}/{n} unique within {args.timeout} s of CPU "
                  f"each; slowest {cpu:.2f} s CPU, {slowest:.2f} s wall-clock")
        sys.stdout.flush()
        subprocess.run([sys.executable, os.path.join(ROOT, "crates/anydoku/benches/cpsat/compare.py"),
                        "--anydoku", args.anydoku, "--repeats", "1", "--limit", "1000", *sets],
                       check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
