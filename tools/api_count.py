#!/usr/bin/env python3
"""Counts the public items rustdoc lists for the library and fails above a limit.

    RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p anydoku
    python3 tools/api_count.py [--max 60] [--list] [target/doc/anydoku/all.html]

Reads rustdoc's list of every item (`all.html`: structs, enums, traits, functions, type
aliases, constants, statics, macros; modules and items inside `#[doc(hidden)]` modules are not
listed, nor are methods, fields and variants) and prints the count by kind.
"""

import argparse
import collections
import os
import re
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("page", nargs="?", default=os.path.join(
        os.path.dirname(__file__), "..", "target", "doc", "anydoku", "all.html"))
    ap.add_argument("--max", type=int, default=60)
    ap.add_argument("--list", action="store_true", help="print every item")
    args = ap.parse_args()
    with open(args.page, encoding="utf-8") as f:
        items = re.findall(r'<li><a href="([^"]+)">([^<]+)</a></li>', f.read())
    kinds = collections.Counter(href.split("/")[-1].split(".")[0] for href, _ in items)
    if args.list:
        for _, name in sorted(items, key=lambda i: i[1]):
            print(name)
    summary = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
    print(f"public API: {len(items)} items ({summary}); at most {args.max}")
    return 0 if 0 < len(items) <= args.max else 1


if __name__ == "__main__":
    sys.exit(main())
