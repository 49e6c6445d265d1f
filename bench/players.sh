#!/usr/bin/env bash
# Reproduces the figures of BENCHMARKS.md, "Search speed" and "gdlkit's
# players against each other".
# Usage: bash bench/players.sh [OUT_DIR]   (default /tmp/gdlkit-players)
# Needs `cargo build --release` (target/release/gdlkit) and ../shared/games;
# the wasm speed figures also need `npm run build` (pkg/) and Node.
# Environment (defaults in brackets):
#   ENGINE [auto]        engine of the matches: auto, interpreter or fast
#   RANDOM_GAMES [100]   games against random, in chunks of 25 (seeds 1, 2, ...)
#   VS_GAMES [20]        games of MCTS against alpha-beta per heuristic, in
#                        chunks of 10 (seeds 1, 2, ...); chunks keep partial
#                        results usable and each is one reproducible command
#   PARTS [speed random vs]  which tables to measure
# About 35 minutes per engine (connectFour 13, breakthrough 21, speed 2;
# measured 2026-11-22 on 2 loaded cores); the
# commands are listed in BENCHMARKS.md next to the figures. Summarise the
# JSON with `node bench/players-summary.mjs OUT_DIR`.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${GDLKIT:-${CARGO_TARGET_DIR:-target}/release/gdlkit}
G=../shared/games/repository
OUT=${1:-/tmp/gdlkit-players}
ENGINE=${ENGINE:-auto}
RANDOM_GAMES=${RANDOM_GAMES:-100}
VS_GAMES=${VS_GAMES:-20}
PARTS=${PARTS:-speed random vs}
mkdir -p "$OUT"
{ date -u; git rev-parse --short HEAD; uptime; } > "$OUT/context.txt"
run() { # name, args...
  local name=$1; shift
  echo "== $name: gdlkit $*" >&2
  nice "$B" "$@" --format json > "$OUT/$name.json"
}
# Speed: one 5 s search from the initial state; CPU seconds (user+system)
# next to the JSON, as the machine may be shared.
speed() { # name, command...
  local name=$1; shift
  echo "== $name: $*" >&2
  /usr/bin/time -f "%U %S" -o "$OUT/$name.cpu" nice "$@" --format json > "$OUT/$name.json"
}
for game in connectFour breakthrough; do
  case " $PARTS " in *" speed "*)
    for engine in fast interpreter; do
      for alg in alphabeta mcts; do
        speed "$game-$alg-speed-$engine-native" "$B" search "$G/$game.kif" --algorithm $alg --budget-ms 5000 --engine $engine
        if [ -f pkg/gdlkit_bg.wasm ]; then
          speed "$game-$alg-speed-$engine-wasm" node bench/cli-wasm.mjs search "$G/$game.kif" --algorithm $alg --budget-ms 5000 --engine $engine
        fi
      done
    done ;;
  esac
  case " $PARTS " in *" random "*)
    # Against random, 200 ms per move.
    for seed in $(seq 1 $((RANDOM_GAMES / 25))); do
      run "$game-mcts-random-s$seed" match "$G/$game.kif" --players mcts:ms=200 random --games 25 --seed "$seed" --engine "$ENGINE"
      run "$game-ab-fuzzy-random-s$seed" match "$G/$game.kif" --players alphabeta:heuristic=fuzzy,ms=200 random --games 25 --seed "$seed" --engine "$ENGINE"
    done ;;
  esac
  case " $PARTS " in *" vs "*)
    # MCTS against alpha-beta with each heuristic (half the games per side).
    for seed in $(seq 1 $((VS_GAMES / 10))); do
      for h in fuzzy mobility inverse-mobility novelty; do
        run "$game-mcts-ab-$h-s$seed" match "$G/$game.kif" --players mcts:ms=200 "alphabeta:heuristic=$h,ms=200" --games 10 --seed "$seed" --engine "$ENGINE"
      done
    done ;;
  esac
done
echo "results in $OUT" >&2
