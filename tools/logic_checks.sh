#!/usr/bin/env bash
# Issue 23's "How we will check it", re-run: one PASS/FAIL line per check, with the figure.
#
#   tools/logic_checks.sh BINDIR [REPO]
#
# BINDIR holds a release `anydoku` and the anydoku-tune bins (`coverage`); REPO (default: the
# current directory) gives puzzles/ and tools/. Environment:
#   CHECKS   comma-separated checks to run (default: all but killer_gen), from
#            rate_time, samurai_time, se5_time, timeout, logic_shipped, logic_se, logic_variants,
#            samurai_gen, killer_gen, spearman, generate_hard
#   KILLER=1 adds killer_gen to the default checks (100 generated 9x9 Killers at up to 30 s of
#            CPU each: tens of minutes on a loaded machine)
#   SHARED   the shared data (default: REPO/../shared/data)
#   THREADS  coverage threads (default 2; times are thread CPU time either way)
#   OUT      where details go (default: a new temp directory, printed at the start)
# Times: `rate_time` and `generate_hard` are user CPU of the process (/usr/bin/time -f %U), the
# coverage medians are the rating thread's CPU time, `timeout` is wall time.
set -uo pipefail

BINDIR=$(cd "${1:?usage: tools/logic_checks.sh BINDIR [REPO]}" && pwd)
REPO=$(cd "${2:-.}" && pwd)
SHARED=${SHARED:-$REPO/../shared/data}
THREADS=${THREADS:-2}
CHECKS=${CHECKS:-rate_time,samurai_time,se5_time,timeout,logic_shipped,logic_se,logic_variants,samurai_gen,spearman,generate_hard}
[ "${KILLER:-0}" = 1 ] && CHECKS=$CHECKS,killer_gen
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
BIN=$BINDIR/anydoku
COV=$BINDIR/coverage
CLASSIC=$SHARED/classic
SE5=$CLASSIC/sudoku_exchange_diabolical_SE5.0plus.txt
SE25=$CLASSIC/sudoku_exchange_hard_SE2.5-4.8_sample50k.txt
cd "$REPO" || exit 2
echo "# issue 23 checks: $BIN, $REPO at $(git -C "$REPO" log -1 --format="%h" 2>/dev/null), $(date -u +%F), load $(cut -d" " -f1 /proc/loadavg); details in $OUT"

want() { [[ ",$CHECKS," == *",$1,"* ]]; }
verdict() { # NAME OK(0/1) TEXT
    if [ "$2" = 1 ]; then echo "PASS $1: $3"; else echo "FAIL $1: $3"; fi
}
# the published variant sets as JSON lines (tools/variants_to_jsonl.py), made once
variants() {
    if [ ! -f "$OUT/variants/samurai_puzzlekit.jsonl" ]; then
        python3 tools/variants_to_jsonl.py "$SHARED/variants" "$OUT/variants" >/dev/null
    fi
}
# sums coverage's table rows (n logic search budget skip ...) of FILE: prints "logic rated pct"
cov_sum() {
    awk 'NF >= 9 && $2 ~ /^[0-9]+$/ { l += $3; r += $2 - $6 }
         END { printf "%d %d %.1f\n", l, r, (r ? 100 * l / r : 0) }' "$1"
}
# coverage's median ms of the first set row of FILE
cov_median() { awk 'NF >= 9 && $2 ~ /^[0-9]+$/ { print $(NF - 1); exit }' "$1"; }
# numeric comparisons; a missing figure (a tool failed) compares false
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a ~ /^[0-9.]+$/ && a + 0 >= b + 0) }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a ~ /^[0-9.]+$/ && a + 0 < b + 0) }'; }
# coverage of SET... as check NAME, passing at BAR % by logic: coverage_check NAME BAR SET...
coverage_check() {
    local name=$1 bar=$2 l r p ok=0
    shift 2
    "$COV" --cpu-budget 30 --threads "$THREADS" "$@" >"$OUT/$name.txt"
    read -r l r p < <(cov_sum "$OUT/$name.txt")
    ge "$p" "$bar" && ok=1
    verdict "$name" "$ok" "$l of $r by logic ($p %); bar $bar %"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "nan") }'; }

# 1. rate under 1 s (user CPU) on every puzzles/**/*.toml
if want rate_time; then
    : >"$OUT/rate_time.tsv"
    while read -r f; do
        /usr/bin/time -f '%U' -o "$OUT/rate.time" "$BIN" rate "$f" >"$OUT/rate.out" 2>/dev/null
        cpu=$(tail -1 "$OUT/rate.time")
        printf '%s\t%s\t%s\n' "$cpu" "$f" "$(head -1 "$OUT/rate.out")" >>"$OUT/rate_time.tsv"
    done < <(find puzzles -name '*.toml' | sort)
    n=$(wc -l <"$OUT/rate_time.tsv")
    slow=$(awk -F'\t' '$1 >= 1.0' "$OUT/rate_time.tsv" | wc -l)
    worst=$(sort -gr "$OUT/rate_time.tsv" | head -1 | cut -f1,2 | tr '\t' ' ')
    verdict rate_time "$([ "$slow" = 0 ] && echo 1)" \
        "$n files, $slow at 1 s or more; slowest ${worst%% *} s (${worst#* })"
fi

# 2. published Samurai (puzzlekit, SudoQ): median rating time under 200 ms
if want samurai_time; then
    variants
    "$COV" --cpu-budget 30 --threads "$THREADS" \
        "jsonl:$OUT/variants/samurai_puzzlekit.jsonl:1" \
        "jsonl:$OUT/variants/samurai_sudoq.jsonl:1" >"$OUT/samurai_time.txt"
    m1=$(awk 'NF >= 9 && $2 ~ /^[0-9]+$/ { print $(NF - 1) }' "$OUT/samurai_time.txt" | sed -n 1p)
    m2=$(awk 'NF >= 9 && $2 ~ /^[0-9]+$/ { print $(NF - 1) }' "$OUT/samurai_time.txt" | sed -n 2p)
    ok=0; lt "$m1" 200 && lt "$m2" 200 && ok=1
    verdict samurai_time "$ok" "median ${m1} ms (puzzlekit), ${m2} ms (SudoQ); bar 200 ms"
fi

# 3. SE 5.0+ (every 240th line): median under 5 ms
if want se5_time; then
    "$COV" --cpu-budget 30 --threads "$THREADS" "lines:$SE5:classic9:240" >"$OUT/se5_time.txt"
    m=$(cov_median "$OUT/se5_time.txt")
    ok=0; lt "$m" 5 && ok=1
    verdict se5_time "$ok" "median $m ms over $(awk 'NF >= 9 && $2 ~ /^[0-9]+$/ { print $2; exit }' "$OUT/se5_time.txt") puzzles; bar 5 ms"
fi

# 4. --timeout 2 stops rate / solve --steps / hint / generate --difficulty within 3 s (wall) on
# every shipped example (puzzles/ and puzzles/kinds/, as the test in tests/logic.rs)
if want timeout; then
    : >"$OUT/timeout.tsv"
    for f in $(find puzzles -maxdepth 1 -name '*.toml'; find puzzles/kinds -maxdepth 1 -name '*.toml'); do
        g=$(sed -n 's/^geometry = "\(.*\)"$/\1/p' "$f" | head -1)
        case "$g" in *.toml | *.json) g=$(dirname "$f")/$g ;; esac
        cmds=("rate $f" "solve --steps $f" "hint $f")
        if [ -n "$g" ]; then
            k=""; grep -q '^\[\[cage\]\]' "$f" && k=" --killer"
            cmds+=("generate -g $g --difficulty master --seed 1$k")
        fi
        for c in "${cmds[@]}"; do
            t0=$(date +%s.%N)
            # shellcheck disable=SC2086
            "$BIN" $c --timeout 2 >/dev/null 2>&1
            code=$?
            t1=$(date +%s.%N)
            printf '%.2f\t%s\t%s\n' "$(echo "$t1 - $t0" | bc)" "$code" "$c" >>"$OUT/timeout.tsv"
        done
    done
    n=$(wc -l <"$OUT/timeout.tsv")
    late=$(awk -F'\t' '$1 >= 3.0 || ($2 != 0 && $2 != 1)' "$OUT/timeout.tsv" | wc -l)
    worst=$(sort -gr "$OUT/timeout.tsv" | head -1 | awk -F'\t' '{ print $1 " s (" $3 ")" }')
    stopped=$(awk -F'\t' '$1 >= 1.9' "$OUT/timeout.tsv" | wc -l)
    verdict timeout "$([ "$late" = 0 ] && echo 1)" \
        "$n commands, $late over 3 s or failed, $stopped ran into the budget; longest $worst"
fi

# 5. solved without search: every shipped example
if want logic_shipped; then
    "$COV" --cpu-budget 30 --threads "$THREADS" files:puzzles files:puzzles/kinds >"$OUT/logic_shipped.txt"
    read -r l r p < <(cov_sum "$OUT/logic_shipped.txt")
    verdict logic_shipped "$([ "$r" -gt 0 ] && [ "$l" = "$r" ] && echo 1)" "$l of $r by logic ($p %); bar 100 %"
fi

# 6. solved without search: SE 5.0+ (every 240th) and SE 2.5-4.8 (every 10th) at least 99 %
if want logic_se; then
    for s in "se5 $SE5 240" "se25 $SE25 10"; do
        set -- $s
        coverage_check "logic_$1" 99 "lines:$2:classic9:$3"
    done
fi

# 7. solved without search: published Samurai, jigsaw, X, windoku, Killer at least 99 % each
# (the sets of corpus_logic_variants in tests/logic.rs; Killer every 10th line)
if want logic_variants; then
    variants
    V=$OUT/variants
    for s in "samurai:samurai_puzzlekit,samurai_sudoq:1" \
        "jigsaw:jigsaw_puzzlekit,jigsaw_sudoq,jigsaw_andoku:1" \
        "x:x_sudoq,x_andoku:1" "windoku:windoku_sudoq,windoku_andoku:1" \
        "killer:killer_puzzlekit,killer_krazydad:10"; do
        IFS=: read -r name files every <<<"$s"
        sets=()
        for f in ${files//,/ }; do sets+=("jsonl:$V/$f.jsonl:$every"); done
        coverage_check "logic_$name" 99 "${sets[@]}"
    done
fi

# 8. solved without search: generated minimal Samurai (seeds 1-100), 9x9 Killer (optional)
for s in "samurai_gen generate:samurai:1-100" "killer_gen killer:classic9:1-100"; do
    set -- $s
    if want "$1"; then
        coverage_check "$1" 90 "$2"
    fi
done

# 9. Spearman of `anydoku rate`'s scores against SE's ratings: >= 0.95 (SE 2.5-4.8, every 10th
# line) and >= 0.90 (SE 5.0+, every 240th line); ties get their average rank
if want spearman; then
    for s in "se25 $SE25 10 0.95" "se5 $SE5 240 0.90"; do
        set -- $s
        awk -v e="$3" '(NR - 1) % e == 0' "$2" >"$OUT/spearman_$1.txt"
        "$BIN" rate "$OUT/spearman_$1.txt" -g classic9 --threads "$THREADS" >"$OUT/spearman_$1.out"
        rho=$(python3 - "$OUT/spearman_$1.txt" "$OUT/spearman_$1.out" <<'EOF'
import sys
se = [float(l.split()[1]) for l in open(sys.argv[1])]
ours = [float(l.split()[0]) for l in open(sys.argv[2])]
assert len(se) == len(ours), (len(se), len(ours))
def ranks(v):
    idx = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(idx):
        j = i
        while j + 1 < len(idx) and v[idx[j + 1]] == v[idx[i]]:
            j += 1
        for k in idx[i:j + 1]:
            r[k] = (i + j) / 2 + 1
        i = j + 1
    return r
rx, ry = ranks(ours), ranks(se)
n = len(rx)
mx, my = sum(rx) / n, sum(ry) / n
cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
vx = sum((a - mx) ** 2 for a in rx)
vy = sum((b - my) ** 2 for b in ry)
print(f"{cov / (vx * vy) ** 0.5:.3f} {n}")
EOF
)
        ok=0; ge "${rho% *}" "$4" && ok=1
        verdict "spearman_$1" "$ok" "${rho% *} over ${rho#* } puzzles; bar $4"
    done
fi

# 10. generate --difficulty hard, seeds 1-10, on Samurai and on puzzles/layouts/cross.toml:
# median under 5 s (user CPU) and every puzzle re-rated hard
if want generate_hard; then
    for g in samurai puzzles/layouts/cross.toml; do
        name=$(basename "$g" .toml)
        : >"$OUT/gen_$name.tsv"
        for seed in $(seq 1 10); do
            o=$OUT/gen_${name}_$seed.json
            /usr/bin/time -f '%U' -o "$OUT/gen.time" "$BIN" generate -g "$g" --difficulty hard \
                --seed "$seed" --format json -o "$o" >/dev/null 2>"$OUT/gen.err"
            code=$?
            level=none
            [ "$code" = 0 ] && level=$("$BIN" rate "$o" 2>/dev/null | sed -n 's/.*level \([a-z]*\).*/\1/p')
            printf '%s\t%s\t%s\t%s\n' "$(tail -1 "$OUT/gen.time")" "$seed" "$code" "$level" >>"$OUT/gen_$name.tsv"
        done
        m=$(cut -f1 "$OUT/gen_$name.tsv" | median)
        hard=$(awk -F'\t' '$4 == "hard"' "$OUT/gen_$name.tsv" | wc -l)
        mx=$(cut -f1 "$OUT/gen_$name.tsv" | sort -g | tail -1)
        ok=0; lt "$m" 5 && [ "$hard" = 10 ] && ok=1
        verdict "generate_hard_$name" "$ok" "median $m s (max $mx s) user CPU; $hard of 10 re-rated hard; bar 5 s"
    done
fi
