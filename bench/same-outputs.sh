#!/usr/bin/env bash
# Do two gdlkit binaries give users the same answers? Runs a battery of
# deterministic CLI commands (seeded playouts and matches, searches to a
# fixed depth or node count, traces, structure, checks, solving, analysis)
# with OLD and NEW and compares their outputs byte for byte, after dropping
# the fields that measure time (keys naming ms, seconds, rates or times).
#
#   bash bench/same-outputs.sh OLD_BINARY NEW_BINARY [GAME.kif ...]
#
# Prints one line per command (same / DIFFERENT, with the first differing
# line) and a count; exits 1 if any output differs. IGNORE=key,key drops
# more keys (fields one side added on purpose).
set -u
old=$1
new=$2
shift 2
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(games/ticTacToe.kif games/connectFour.kif games/breakthrough.kif games/nim.kif games/hanoi.kif)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# JSON without its timing fields, keys sorted; other text as it is.
normalise() {
  python3 -c '
import json, re, sys
import os
IGNORE = set(k for k in os.environ.get("IGNORE", "").split(",") if k)
TIMING = re.compile(r"(^|_)(ms|millis|seconds|secs|elapsed|time|rate|per_second|per_sec|nanos|us)($|_)|Ms$|Seconds$|PerSecond$|Time$", re.I)
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if not TIMING.search(k) and k not in IGNORE}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
text = sys.stdin.read()
try:
    print(json.dumps(strip(json.loads(text)), indent=1, sort_keys=True))
except ValueError:
    sys.stdout.write(text)
'
}

commands=()
for g in "${games[@]}"; do
  commands+=(
    "check $g --format json"
    "fmt $g"
    "structure $g --format json"
    "play $g --seed 3 --format json"
    "play $g --seed 3 --engine interpreter --format json"
    "bench $g --playouts 300 --seed 3 --format json"
    "search $g --algorithm alphabeta --depth 2 --format json"
    "search $g --algorithm minimax --depth 2 --trace --format json"
    "search $g --algorithm mcts --nodes 200 --seed 2 --format json"
    "explain $g --format json"
    "match $g --players random random --seed 4 --format json"
  )
done
commands+=(
  "search --tree ((3 12 8) (2 4 6) (14 5 2)) --trace --format json"
  "solve games/ticTacToe.kif --format json"
  "analyze games/ticTacToe.kif --format json"
)

same=0
differ=0
for c in "${commands[@]}"; do
  # shellcheck disable=SC2086 # the command's words are meant to split; the tree is one word
  if [[ $c == search\ --tree* ]]; then
    args=(search --tree "((3 12 8) (2 4 6) (14 5 2))" --trace --format json)
  else
    read -r -a args <<<"$c"
  fi
  "$old" "${args[@]}" 2>"$tmp/old.err" | normalise >"$tmp/old.out"
  "$new" "${args[@]}" 2>"$tmp/new.err" | normalise >"$tmp/new.out"
  if cmp -s "$tmp/old.out" "$tmp/new.out"; then
    same=$((same + 1))
    echo "same       gdlkit $c"
  else
    differ=$((differ + 1))
    echo "DIFFERENT  gdlkit $c"
    diff "$tmp/old.out" "$tmp/new.out" | head -6 | sed 's/^/    /'
  fi
done
echo "$same of $((same + differ)) commands give the same output"
[ "$differ" -eq 0 ]
