#!/usr/bin/env bash
# Renders every built-in geometry and every example puzzle (puzzles/*.toml) to SVG and PNG, to look
# at by eye. Needs rsvg-convert (Debian: apt-get install librsvg2-bin). Not part of the test suite.
#   tools/render_pngs.sh [OUT_DIR] [--solution]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-target/pictures}"
EXTRA="${2:-}"
mkdir -p "$OUT"
cargo build --quiet
BIN=target/debug/anydoku
command -v rsvg-convert >/dev/null || { echo "rsvg-convert missing: apt-get install librsvg2-bin" >&2; exit 1; }
render() { # name input
  "$BIN" render "$2" -o "$OUT/$1.svg" $EXTRA || echo "warning: $2 did not render cleanly (exit $?)" >&2
  rsvg-convert -z 1.5 "$OUT/$1.svg" -o "$OUT/$1.png"
  echo "$OUT/$1.png"
}
for g in $("$BIN" geometries | tail -n +2 | awk '{print $1}'); do
  render "geometry-$g" "$g"
done
shopt -s nullglob
for f in puzzles/*.toml; do
  render "puzzle-$(basename "$f" .toml)" "$f"
done
