#!/usr/bin/env bash
# Instructions per random playout (cachegrind), for comparing builds of the
# engines on a loaded machine where wall-clock figures are noise:
# (I(2N) - I(N)) / N, so grounding and start-up cancel out. Same seed, so
# both binaries play the same playouts.
#
#   bash bench/instructions.sh OLD_BINARY NEW_BINARY ...
#
# Needs valgrind. GAMES="ticTacToe:2000 ..." overrides the games and N,
# ENGINE=interpreter measures the interpreter instead.
# `--engine fast` by default: with `auto`, a large network (chess_200) first
# runs a timed trial against the interpreter, whose instructions depend on
# the load.
set -euo pipefail
cd "$(dirname "$0")/.."
G=${G:-../shared/games/repository}
GAMES=${GAMES:-"ticTacToe:2000 connectFour:1000 breakthrough:200 reversi:20"}
ENGINE=${ENGINE:-fast}
irefs() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/I *refs:/ { gsub(",", "", $NF); print $NF }'
}
echo "# $(date -u +%FT%TZ) instructions per playout; uptime:$(uptime)"
printf "%-13s" game; for b in "$@"; do printf " %14s" "$(basename "$b")"; done; echo
for gn in $GAMES; do
  g=${gn%%:*}; n=${gn##*:}
  printf "%-13s" "$g"
  for b in "$@"; do
    a=$(irefs "$b" bench "$G/$g.kif" --playouts "$n" --seed 3 --engine "$ENGINE")
    c=$(irefs "$b" bench "$G/$g.kif" --playouts $((2 * n)) --seed 3 --engine "$ENGINE")
    printf " %14d" $(((c - a) / n))
  done
  echo
done
