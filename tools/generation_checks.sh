#!/usr/bin/env bash
# Issue 29's "How we will check it", re-run: one PASS/FAIL line per check, with the figure.
#
#   tools/generation_checks.sh BINDIR [REPO]
#
# BINDIR holds a release `anydoku` and the anydoku-tune bin `killer_times`; REPO (default: the
# current directory) gives the benches and tools. Needs python3 with `ortools` (CP-SAT) and
# `python-sat` (the referee). Environment:
#   CHECKS  comma-separated checks to run (default: all), from
#           michael404, hardsums, classic25, classic36, killer9, samurai_killer, difficulty,
#           timeout
#   SHARED  the shared data (default: REPO/../shared/data)
#   OUT     where details go (default: a new temp directory, printed at the start)
# Times are CPU seconds of one thread (user + system of the process, or the generating thread's
# for `killer_times`), except `timeout`, which is wall time. About 25 minutes in all, most of it
# CP-SAT's side of michael404's minimal5 and the 36x36 generation.
set -uo pipefail

BINDIR=$(cd "${1:?usage: tools/generation_checks.sh BINDIR [REPO]}" && pwd)
REPO=$(cd "${2:-.}" && pwd)
SHARED=${SHARED:-$REPO/../shared/data}
CHECKS=${CHECKS:-michael404,hardsums,classic25,classic36,killer9,samurai_killer,difficulty,timeout}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
BIN=$BINDIR/anydoku
cd "$REPO" || exit 2
echo "# issue 29 checks: $BIN, $REPO at $(git -C "$REPO" log -1 --format="%h" 2>/dev/null), $(date -u +%F), load $(cut -d" " -f1 /proc/loadavg); details in $OUT"

want() { [[ ",$CHECKS," == *",$1,"* ]]; }
verdict() { # NAME OK(0/1) TEXT
    if [ "$2" = 1 ]; then echo "PASS $1: $3"; else echo "FAIL $1: $3"; fi
}
# user + system CPU seconds of a command (its output to the files given)
cpu_of() { # OUTFILE ERRFILE CMD...
    local out=$1 err=$2
    shift 2
    /usr/bin/time -f "%U %S" -o "$OUT/time" "$@" > "$out" 2> "$err"
    local rc=$?
    awk '{printf "%.2f", $1 + $2}' "$OUT/time"
    return $rc
}
# a JSON model's field, by a Python expression on `d`
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

if want michael404; then
    # michael404's six 36x36 puzzles, one file each, from the shared corpus
    python3 tools/variants_to_jsonl.py "$SHARED/variants" "$OUT/variants" > "$OUT/variants.log" 2>&1
    python3 - "$OUT/variants/symbols_michael404.jsonl" "$OUT" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    name = json.loads(line)["name"]
    if "36x36" in name and "michael404" in name:
        open(f"{sys.argv[2]}/m36_{name.split()[-1]}.jsonl", "w").write(line)
EOF
    for f in "$OUT"/m36_*.jsonl; do
        name=$(basename "$f" .jsonl)
        # the hard two once (minutes for CP-SAT), the others as the median of five
        repeats=5
        case $name in *minimal4 | *minimal5) repeats=1 ;; esac
        line=$(python3 crates/anydoku/benches/cpsat/compare.py --anydoku "$BIN" --repeats $repeats "$f" 2>&1 | tee "$OUT/$name.compare" | grep "ratio" | tail -1)
        ratio=$(sed -n 's/.*ratio \([0-9.]*\)x.*/\1/p' <<< "$line")
        agree=$(grep -c " 1/1$" "$OUT/$name.compare")
        ok=$(python3 -c "print(int(${ratio:-0} >= 5 and $agree == 1))")
        verdict "michael404_${name#m36_}" "$ok" "anydoku ${line#*anydoku }; bar 5x CP-SAT"
    done
fi

if want hardsums; then
    python3 crates/anydoku/benches/hardsums/run.py --anydoku "$BIN" > "$OUT/hardsums.txt" 2>&1
    for set in generated_killers little_killers published_killers; do
        decided=$(grep "^$set.jsonl: " "$OUT/hardsums.txt")
        line=$(grep "^$set.jsonl .*ratio" "$OUT/hardsums.txt")
        ratio=$(sed -n 's/.*ratio \([0-9.]*\)x.*/\1/p' <<< "$line")
        ok=$(python3 -c "print(int(${ratio:-0} >= 3 and 'unique within 10 s' in '''$decided'''))")
        verdict "hardsums_$set" "$ok" "${decided#*: }; anydoku ${line#*anydoku }; bars: all within 10 s, 3x CP-SAT"
    done
fi

if want classic25; then
    times=()
    bad=0
    for s in 1 2 3 4 5 6 7 8 9 10; do
        p=$OUT/classic25_$s.json
        t=$(cpu_of /dev/null "$OUT/classic25_$s.err" "$BIN" generate -g classic25 --seed $s --format json -o "$p") || bad=1
        times+=("$t")
        python3 crates/anydoku/benches/sat/referee.py "$p" > "$OUT/classic25_$s.referee" 2>&1 || bad=1
        [ "$(field "$p" "d['source']['minimal']")" = True ] || bad=1
    done
    median=$(printf "%s\n" "${times[@]}" | sort -g | awk '{a[NR]=$1} END{printf "%.2f", (a[5]+a[6])/2}')
    ok=$(python3 -c "print(int($median < 10 and $bad == 0))")
    verdict classic25 "$ok" "median $median s over seeds 1-10 (${times[*]}), each minimal and checked by referee.py; bar 10 s"
fi

if want classic36; then
    p=$OUT/classic36_1.json
    t=$(cpu_of /dev/null "$OUT/classic36.err" "$BIN" generate -g classic36 --seed 1 --timeout 600 --format json -o "$p")
    rc=$?
    python3 crates/anydoku/benches/sat/referee.py "$p" > "$OUT/classic36.referee" 2>&1
    checked=$?
    givens=$( [ -s "$p" ] && field "$p" "len(d['givens']), d['source']['minimal']")
    ok=$(python3 -c "print(int($t < 300 and $rc == 0 and $checked == 0))")
    verdict classic36 "$ok" "seed 1 in $t s ((givens, minimal) $givens; referee.py $( [ $checked = 0 ] && echo ok || echo failed)); bar 300 s"
fi

if want killer9; then
    "$BINDIR/killer_times" classic9 1 0 100 > "$OUT/killer9.txt" 2>&1
    summary=$(tail -1 "$OUT/killer9.txt")
    ok=$(python3 - "$summary" <<'EOF'
import re, sys
m = re.search(r"(\d+) puzzles, (\d+) minimal: CPU median (\d+) ms", sys.argv[1])
print(int(bool(m) and m[1] == m[2] == "100" and int(m[3]) < 1000))
EOF
)
    verdict killer9 "$ok" "$summary; bars: 100 of 100 minimal, median 1 s (certificates: corpus_generate_100 in .ci/run)"
fi

if want samurai_killer; then
    times=()
    minimal=0
    for s in 1 2 3 4 5 6 7 8 9 10; do
        p=$OUT/samurai_killer_$s.json
        times+=("$(cpu_of /dev/null "$OUT/samurai_killer_$s.err" "$BIN" generate -g samurai --killer --seed $s --format json -o "$p")")
        [ "$(field "$p" "d['source']['minimal'] and len(d['certificates']) == sum(s.get('rule') == 'sum' for s in d['shapes'])")" = True ] && minimal=$((minimal + 1))
    done
    median=$(printf "%s\n" "${times[@]}" | sort -g | awk '{a[NR]=$1} END{printf "%.2f", (a[5]+a[6])/2}')
    ok=$(python3 -c "print(int($median < 60 and $minimal == 10))")
    verdict samurai_killer "$ok" "$minimal of 10 minimal with a certificate per cage, median $median s (${times[*]}); bar 60 s"
fi

if want difficulty; then
    for run in "classic9 expert 100" "samurai hard 10"; do
        read -r g level n <<< "$run"
        p=$OUT/difficulty_$g.jsonl
        t=$(cpu_of /dev/null "$OUT/difficulty_$g.err" "$BIN" generate -g "$g" --difficulty "$level" --count "$n" --seed 1 --format json -o "$p")
        rated=$("$BIN" rate "$p" --threads 1 --format json 2> /dev/null | grep -c "\"level\":\"$level\"")
        ok=$(python3 -c "print(int($t < 60 and $rated == $n))")
        verdict "difficulty_$g" "$ok" "$n puzzles in $t s, $rated re-rated $level; bar 60 s"
    done
fi

if want timeout; then
    worst=0
    for args in "-g classic25 --seed 5" "-g classic36 --seed 5" "-g samurai --killer --seed 4" \
        "-g classic9 --killer --count 100 --seed 1" "-g samurai --difficulty master --count 10 --seed 1"; do
        start=$(date +%s.%N)
        # shellcheck disable=SC2086
        "$BIN" generate $args --timeout 1 > /dev/null 2>> "$OUT/timeout.err"
        end=$(date +%s.%N)
        wall=$(python3 -c "print(f'{$end - $start:.3f}')")
        echo "generate $args --timeout 1: $wall s" >> "$OUT/timeout.txt"
        worst=$(python3 -c "print(max($worst, $wall))")
    done
    ok=$(python3 -c "print(int($worst <= 1.1))")
    verdict timeout "$ok" "the slowest of five generate runs stopped at $worst s wall; bar 1.1 s"
fi
