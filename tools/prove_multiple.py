#!/usr/bin/env python3
"""Proof that puzzles marked "expect": "multiple" really have two solutions.

Usage: python3 tools/prove_multiple.py ANYDOKU_BINARY MODEL.jsonl [MODEL.jsonl ...]

For every model line whose `expect` is "multiple", runs `anydoku solve MODEL --format json`, takes
the two solutions it prints, and checks each independently with tools/check_batch.py's checker
(cells, shapes, givens only; the published solution is not required). Prints the puzzle name and the
two solutions as strings in cell order. Exit status 1 if any proof fails.
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import check_batch  # noqa: E402


def main() -> int:
    binary, files = sys.argv[1], sys.argv[2:]
    failed = 0
    for path in files:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            obj = json.loads(line)
            if obj.get("expect") != "multiple":
                continue
            model = check_batch.Model(obj)
            model.solution = None
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                f.write(line)
            out = subprocess.run([binary, "solve", f.name, "--format", "json"],
                                 capture_output=True, text=True)
            Path(f.name).unlink()
            res = json.loads(out.stdout)
            sols = [res.get("solution"), res.get("other_solution")]
            problem = None
            if res.get("status") != "multiple" or None in sols:
                problem = f"status {res.get('status')}"
            else:
                grids = [[s[c] for c in model.cells] for s in sols]
                problem = check_batch.check_solution(model, grids[0]) or \
                    check_batch.check_solution(model, grids[1]) or \
                    ("the two solutions are equal" if grids[0] == grids[1] else None)
            if problem:
                failed += 1
                print(f"FAILED {obj['name']}: {problem}")
            else:
                print(f"{obj['name']}: {''.join(grids[0])} {''.join(grids[1])}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
