#!/usr/bin/env bash
# Issue 8's playout table: the fast engine and the interpreter, natively and
# as wasm in Node, game by game in one run (JSON per figure in $OUT).
#
#   bash bench/fast.sh [SECONDS]          # default 20 s per figure
#
# Needs `cargo build --release -p gdlkit-cli` and `npm run build` first (the
# binary is looked up in $CARGO_TARGET_DIR or target/).
set -euo pipefail
cd "$(dirname "$0")/.."
S=${1:-20}
G=${G:-../shared/games/repository}
B=${B:-${CARGO_TARGET_DIR:-target}/release/gdlkit}
OUT=${OUT:-/tmp/gdlkit-fast}
mkdir -p "$OUT"
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD) $S s per figure; uptime:$(uptime)"
for g in ticTacToe connectFour breakthrough reversi chess_200; do
  for e in fast interpreter; do
    # user+system CPU seconds of the process next to the JSON: on a loaded
    # machine playouts per CPU second is the one-thread speed.
    /usr/bin/time -f "cpu %U %S" -o "$OUT/$g-$e-native.cpu" nice -n 5 "$B" bench "$G/$g.kif" --engine "$e" --seconds "$S" | tee "$OUT/$g-$e-native.json"
    cat "$OUT/$g-$e-native.cpu"
    /usr/bin/time -f "cpu %U %S" -o "$OUT/$g-$e-wasm.cpu" nice -n 5 node scripts/bench-wasm.mjs "$G/$g.kif" --engine "$e" --seconds "$S" | tee "$OUT/$g-$e-wasm.json"
    cat "$OUT/$g-$e-wasm.cpu"
  done
  echo "# after $g: uptime:$(uptime)"
done
