#!/usr/bin/env bash
# Reproduces the "Players" figures of BENCHMARKS.md (native build).
# Usage: bash bench/players.sh [OUT_DIR]   (default /tmp/gdlkit-players)
# Needs `cargo build --release` (target/release/gdlkit) and ../shared/games.
# Long: about an hour on 2 cores; every figure is one command, also listed
# in BENCHMARKS.md next to its number, so single figures can be rerun.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${GDLKIT:-${CARGO_TARGET_DIR:-target}/release/gdlkit}
G=../shared/games/repository
OUT=${1:-/tmp/gdlkit-players}
mkdir -p "$OUT"
run() { # name, args...
  local name=$1; shift
  echo "== $name: gdlkit $*" >&2
  "$B" "$@" --format json > "$OUT/$name.json"
}
for game in connectFour breakthrough; do
  # Against random, 100 games, 200 ms per move.
  run "$game-mcts-random" match "$G/$game.kif" --players mcts:ms=200 random --games 100 --seed 1
  run "$game-ab-fuzzy-random" match "$G/$game.kif" --players alphabeta:heuristic=fuzzy,ms=200 random --games 100 --seed 1
  # MCTS against alpha-beta with each heuristic, 20 games (10 per side).
  for h in fuzzy mobility inverse-mobility novelty; do
    run "$game-mcts-ab-$h" match "$G/$game.kif" --players mcts:ms=200 "alphabeta:heuristic=$h,ms=200" --games 20 --seed 1
  done
  # Speed: alpha-beta nodes/s and MCTS playouts/s from the initial state, 5 s.
  run "$game-ab-speed" search "$G/$game.kif" --algorithm alphabeta --budget-ms 5000
  run "$game-mcts-speed" search "$G/$game.kif" --algorithm mcts --budget-ms 5000
done
echo "results in $OUT" >&2
