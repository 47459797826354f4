#!/usr/bin/env python3
"""Size gate: fails when a Rust source file is over 800 lines or a function over 120 lines.

    python3 tools/size_gate.py [--max-file 800] [--max-fn 120] [ROOT]

Looks at every `.rs` file under ROOT/crates (default: the repository). Tests do not count:
files under a `tests/` directory, files named `tests.rs`, and `#[cfg(test)]` modules inside a
file (their lines are left out of the file's length). Neither do generated tables: a function
or file preceded by a `// size-gate: generated` comment line. Function length is measured from
the `fn` line to its closing brace, found with a small lexer that skips comments, strings, raw
strings and character literals.

Known violations that someone is already removing can be listed in `tools/size_gate_allow.txt`
(one `path fn_name` or `path` per line, `#` comments saying who removes it): they are printed as
allowed and do not fail the gate; an entry that no longer matches a violation is reported so the
list stays short.

Prints every violation as `path:line: message` and exits 1 if there is any, else prints a
one-line summary (the longest file and function) and exits 0.
"""

import argparse
import os
import re
import sys

FN_RE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?"
                   r"(?:extern\s+\"[^\"]*\"\s+)?fn\s+([A-Za-z_][A-Za-z0-9_]*)")
MARK = "// size-gate: generated"


def code_mask(text):
    """For each character, whether it is code (not inside a comment, string or char literal)."""
    n = len(text)
    mask = bytearray(b"\x01") * n
    i = 0
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            mask[i:j] = b"\x00" * (j - i)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            mask[i:j] = b"\x00" * (j - i)
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = len(re.match(r'r(#*)"', text[i:]).group(1))
            end = text.find('"' + "#" * hashes, i + 2 + hashes)
            j = n if end < 0 else end + 1 + hashes
            mask[i:j] = b"\x00" * (j - i)
            i = j
        elif c == '"' or (c == "b" and text.startswith('b"', i)):
            j = i + (2 if c == "b" else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            mask[i:j] = b"\x00" * (j - i)
            i = j
        elif c == "'":
            # a char literal ('x', '\n', '\u{..}'), not a lifetime ('a)
            m = re.match(r"'(\\(u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'])'", text[i:i + 12])
            if m:
                j = i + m.end()
                mask[i:j] = b"\x00" * (j - i)
                i = j
            else:
                i += 1
        else:
            i += 1
    return mask


def block_end(text, mask, start):
    """The index just past the block whose `{` is the first code brace at or after `start`,
    or None when a `;` comes first (a declaration without a body)."""
    i, n = start, len(text)
    while i < n:
        if mask[i]:
            if text[i] == ";":
                return None
            if text[i] == "{":
                break
        i += 1
    depth = 0
    while i < n:
        if mask[i]:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    return i + 1
        i += 1
    return n


def check_file(path, text, max_file, max_fn, out):
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    line_of = lambda pos: next(k for k in range(len(offsets)) if offsets[k + 1] > pos) + 1
    mask = code_mask(text)
    skipped = set()  # test-module and generated lines
    k = 0
    while k < len(lines):
        stripped = lines[k].strip()
        generated = stripped == MARK
        if stripped == "#[cfg(test)]" or generated:
            # the next item (a module, a function, a table)
            j = k + 1
            while j < len(lines) and (not lines[j].strip() or lines[j].strip().startswith(("#[", "///"))):
                j += 1
            if j < len(lines) and (generated or re.match(r"\s*(pub(\([^)]*\))?\s+)?mod\s", lines[j])):
                end = block_end(text, mask, offsets[j])
                last = line_of(end - 1) if end else j + 1
                skipped.update(range(k + 1, last + 1))
                k = last
                continue
        k += 1
    longest_fn = (0, "", 0)
    for k, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if (k + 1) in skipped or not line.strip() or not mask[offsets[k] + indent]:
            continue
        m = FN_RE.match(line)
        if not m:
            continue
        end = block_end(text, mask, offsets[k] + m.end())
        if end is None:
            continue
        length = line_of(end - 1) - k
        if length > longest_fn[0]:
            longest_fn = (length, m.group(1), k + 1)
        if length > max_fn:
            out.append((f"{path} {m.group(1)}",
                        f"{path}:{k + 1}: fn {m.group(1)} is {length} lines (at most {max_fn})"))
    counted = len([1 for k in range(len(lines)) if (k + 1) not in skipped]) - (1 if text.endswith("\n") else 0)
    if counted > max_file:
        out.append((path, f"{path}:1: {counted} lines outside tests (at most {max_file})"))
    return counted, longest_fn


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root", nargs="?", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--max-file", type=int, default=800)
    ap.add_argument("--max-fn", type=int, default=120)
    ap.add_argument("--allow", help="known violations (default: tools/size_gate_allow.txt)")
    args = ap.parse_args()
    root = os.path.normpath(args.root)
    allow_path = args.allow or os.path.join(root, "tools", "size_gate_allow.txt")
    allowed = set()
    if os.path.exists(allow_path):
        with open(allow_path, encoding="utf-8") as f:
            for line in f:
                entry = " ".join(line.split("#", 1)[0].split())
                if entry:
                    allowed.add(entry)
    out, files = [], []
    for base, dirs, names in os.walk(os.path.join(root, "crates")):
        dirs[:] = sorted(d for d in dirs if d not in ("target", "node_modules", "tests"))
        for name in sorted(names):
            if not name.endswith(".rs") or name == "tests.rs":
                continue
            path = os.path.join(base, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            rel = os.path.relpath(path, root)
            if text.lstrip().startswith(MARK):
                continue
            counted, fn = check_file(rel, text, args.max_file, args.max_fn, out)
            files.append((counted, rel, fn))
    failing = [msg for key, msg in out if key not in allowed]
    for key, msg in out:
        print(msg + ("  (allowed: tools/size_gate_allow.txt)" if key in allowed else ""))
    for stale in sorted(allowed - {key for key, _ in out}):
        print(f"size gate: allowed entry '{stale}' is no longer a violation; remove it")
    if failing:
        print(f"size gate: {len(failing)} violation(s)")
        return 1
    big = max(files)
    fn = max((f[2] + (f[1],) for f in files))
    print(f"size gate: {len(files)} files; longest {big[1]} ({big[0]} lines); "
          f"longest fn {fn[1]} in {fn[3]}:{fn[2]} ({fn[0]} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
