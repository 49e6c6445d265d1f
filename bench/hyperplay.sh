#!/usr/bin/env bash
# hyperplay against random on the library's GDL-II games with hidden
# state: gdlkit match's table (wins, draws, losses, mean goal with its 95%
# interval) per game, seats rotated. A strength figure, not a test.
#
#   bash bench/hyperplay.sh [GAMES] [SPEC]   # default 100 games, hyperplay:ms=200
#
# Needs the CLI built (looked up in $CARGO_TARGET_DIR or target/, ci profile).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100}
SPEC=${2:-hyperplay:ms=200}
B=${B:-${CARGO_TARGET_DIR:-target}/ci/gdlkit}
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD) $N games, $SPEC vs random"
for g in kuhnPoker blindTicTacToe; do
  echo "## $g"
  "$B" match "games/$g.kif" --players "$SPEC" random --games "$N" --seed 1
done
