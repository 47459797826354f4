#!/usr/bin/env bash
# Formats every Rust source file of the project (`tools/fmt.sh`), or checks them
# (`tools/fmt.sh --check`, as CI does). `cargo fmt` alone is not enough here: it follows
# `mod x;` declarations, but not the modules the library declares through its
# `internal_mod!` macro, so rustfmt is given every file itself.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all "$@"
find crates fuzz -name '*.rs' -not -path '*/target/*' -print0 |
  xargs -0 rustfmt --edition 2021 "$@"
