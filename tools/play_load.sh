#!/usr/bin/env bash
# Load test of `anydoku play` on loopback: 50 concurrent clients ask for hints on the shipped
# Samurai for 30 s (wrk from Debian: apt-get install wrk). Prints wrk's report with latency
# percentiles and fails when any answer is not 200.
# Usage: tools/play_load.sh [BIN] [SECONDS] [PUZZLE]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/anydoku}
SECS=${2:-30}
PUZZLE=${3:-puzzles/samurai.toml}
LOG=$(mktemp)
"$BIN" play "$PUZZLE" --port 0 > "$LOG" &
PID=$!
trap 'kill -INT $PID 2>/dev/null; rm -f "$LOG" "$LOG.lua"' EXIT
for _ in $(seq 50); do grep -q http "$LOG" && break; sleep 0.1; done
URL=$(grep -o 'http://127.0.0.1:[0-9]*/' "$LOG")
ID=$(curl -sf "${URL}api/served" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
cat > "$LOG.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"puzzle": "$ID"}'
wrk.headers["Content-Type"] = "application/json"
local bad = 0
response = function(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("non-200 answers: %d; socket errors: connect %d, read %d, write %d, timeout %d\n",
    bad, summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
  io.write(string.format("p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
LUA
OUT=$(wrk -t2 -c50 -d"${SECS}s" --timeout 30s --latency -s "$LOG.lua" "${URL}api/hint")
echo "$OUT"
echo "$OUT" | grep -q "^non-200 answers: 0; socket errors: connect 0, read 0, write 0, timeout 0"
