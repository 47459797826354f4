#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (fuzz/corpus/TARGET/seed-*) from the shipped puzzles/
geometries/ and puzzles/layouts/, using the release binary for the conversions:

    cargo build --release && python3 fuzz/seed.py

The seeds are committed; run this again when the formats change. Files over 16 kB are left out
(libFuzzer sizes its inputs to the largest seed, and small inputs mutate faster)."""
import json
import pathlib
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = ROOT / "target/release/anydoku"
CORPUS = ROOT / "fuzz/corpus"
MAX = 16 * 1024


def run(*args):
    out = subprocess.run([str(BIN), *args], capture_output=True, text=True, cwd=ROOT)
    return out.stdout if out.returncode in (0, 1) else None


def put(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    if data is None or len(data) > MAX:
        return
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / f"seed-{name}").write_bytes(data)


def main():
    if not BIN.exists():
        sys.exit(f"build {BIN} first (cargo build --release)")
    names = [l.split()[0] for l in run("geometries").splitlines()[1:]]
    puzzles = sorted((ROOT / "puzzles").glob("*.toml"))
    for f in sorted((ROOT / "geometries").glob("*.toml")) + sorted((ROOT / "puzzles/layouts").glob("*.toml")):
        put("geometry_toml", f.stem, f.read_bytes())
    models = {}
    for f in puzzles:
        put("puzzle_toml", f.stem, f.read_bytes())
        text = run("export", str(f))
        if text:
            models[f.stem] = json.dumps(json.loads(text), separators=(",", ":"))
            put("json_model", f.stem, text)
            put("json_model", f.stem + "-compact", models[f.stem])
        for fmt in ("fpuzzles", "fpuzzles-json"):
            link = run("export", str(f), "--format", fmt)
            if link:
                put("fpuzzles", f"{f.stem}-{fmt}", link.strip())
        line = run("export", str(f), "--format", "json")
        geometry = tomllib.loads(f.read_text()).get("geometry")
        if isinstance(geometry, str) and geometry in names:
            givens = tomllib.loads(f.read_text()).get("givens", "")
            grid = "".join(givens.split())
            if grid:
                put("text_lines", f.stem, bytes([names.index(geometry)]) + (grid + "\n").encode())
    for stem in ("classic4", "killer6", "x", "windoku"):
        if stem in models:
            put("jsonl_lines", stem, models[stem] + "\n" + models[stem] + "\n")
    if "classic4" in models and "killer6" in models:
        put("jsonl_lines", "mixed", models["classic4"] + "\n" + models["killer6"] + "\n" + models["classic4"] + "\n")
    killers(models)
    for i in range(8):
        put("model_mutate", f"puzzle{i}", bytes([i]))


def killers(models):
    """The shipped Killers in the three import formats."""
    for stem in ("killer", "killer6"):
        m = json.loads(models[stem])
        size = int(len(m["cells"]) ** 0.5)
        cages = [s for s in m["shapes"] if s["rule"] == "sum"]
        rc = lambda name: tuple(int(x) for x in name[1:].split("c"))
        solved = json.loads(run("solve", f"puzzles/{stem}.toml", "--format", "json"))["solution"]
        digits = "".join(solved[f"r{r}c{c}"] for r in range(1, size + 1) for c in range(1, size + 1))
        put("import", f"{stem}-cage-json", bytes([2]) + json.dumps(
            [{"result": s["sum"], "indices": [list(rc(c)) for c in s["cells"]]} for s in cages]).encode())
        label = {}
        for k, s in enumerate(cages):
            for c in s["cells"]:
                label[rc(c)] = k
        ids = "\n".join(" ".join(str(label[(r, c)]) for c in range(1, size + 1)) for r in range(1, size + 1))
        clue = {}
        for k, s in enumerate(cages):
            clue[min(rc(c) for c in s["cells"])] = s["sum"]
        clues = "\n".join(" ".join(str(clue.get((r, c), "-")) for c in range(1, size + 1))
                          for r in range(1, size + 1))
        problem = f"{size} {size}\n{clues}\n{ids}\n"
        solution = f"{size} {size}\n" + "\n".join(" ".join(digits[r * size:(r + 1) * size]) for r in range(size))
        put("import", f"{stem}-puzzlekit", bytes([1]) + json.dumps(
            {"data": {f"1_{size}x{size}": {"problem": problem, "solution": solution}}}).encode())
        if size == 9 and len(cages) <= 52:
            letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
            color = "K" + "".join(letters[label[(r, c)]] for r in range(1, 10) for c in range(1, 10))
            hint = ",".join(str(s["sum"]) for s in cages)
            csv = (",index,ptitle,vol,book,puzzle,puzz_color,puzz_hint,solved,sOrder\n"
                   f'0,1,{stem},1,1,1,{color},"{hint}",{digits},\n')
            put("import", f"{stem}-krazydad", bytes([0]) + csv.encode())


main()
