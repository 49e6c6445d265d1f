#!/usr/bin/env bash
# Random playouts per second of two builds side by side (for "no game got
# slower"): `gdlkit bench GAME --seconds S` per game, the two binaries
# interleaved, twice (the second time in the opposite order), with the load.
#
#   bash bench/before-after.sh OLD_BINARY NEW_BINARY [SECONDS]   # default 5
#
# Run it on an idle machine: under load the figures measure the scheduler.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=$1 NEW=$2 S=${3:-5}
G=${G:-../shared/games/repository}
GAMES=${GAMES:-"ticTacToe connectFour breakthrough reversi chess_200"}
pps() { "$1" bench "$G/$2.kif" --seconds "$S" | sed 's/.*"playouts_per_second":\([0-9.]*\).*/\1/'; }
echo "# $(date -u +%FT%TZ) $S s per figure; uptime:$(uptime)"
echo "| game | before (two runs) | after (two runs) | after / before |"
echo "|---|---:|---:|---:|"
for g in $GAMES; do
  o1=$(pps "$OLD" "$g"); n1=$(pps "$NEW" "$g")
  n2=$(pps "$NEW" "$g"); o2=$(pps "$OLD" "$g")
  awk -v g="$g" -v o1="$o1" -v o2="$o2" -v n1="$n1" -v n2="$n2" 'BEGIN {
    printf "| %s | %d / %d | %d / %d | %.3f / %.3f |\n", g, o1, o2, n1, n2, n1 / o1, n2 / o2 }'
done
echo "# uptime:$(uptime)"
