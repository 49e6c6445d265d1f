#!/usr/bin/env bash
# hyperplay on every GDL-II game of the library: gdlkit match's table
# (wins, draws, losses, mean goal with its 95% interval) per game, seats
# rotated, against random players and, in games of two players, against
# the determinized baseline (hyperplay searching one sampled state per
# move: samples=1). Budgets in playouts, so the figures do not depend on
# the machine's load. A strength figure, not a test.
#
#   bash bench/hyperplay.sh [GAMES] [SPEC]   # default 40 games, hyperplay:playouts=2000
#
# Needs the CLI built (looked up in $CARGO_TARGET_DIR or target/, ci profile).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-40}
SPEC=${2:-hyperplay:playouts=2000}
BASELINE=${BASELINE:-hyperplay:samples=1,playouts=2000}
B=${B:-${CARGO_TARGET_DIR:-target}/ci/gdlkit}
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD) $N games, $SPEC"
for f in games/*.kif; do
  grep -q -E '\(role random\)|\(sees ' "$f" || continue
  g=$(basename "$f" .kif)
  # The seats: every role but random.
  seats=$(grep '^(role ' "$f" | grep -vc '(role random)')
  others=()
  for _ in $(seq 2 "$seats"); do others+=(random); done
  echo "## $g: against random"
  "$B" match "$f" --players "$SPEC" "${others[@]}" --games "$N" --seed 1 | tail -n +2
  if [ "$seats" -eq 2 ]; then
    echo "## $g: against $BASELINE"
    "$B" match "$f" --players "$SPEC" "$BASELINE" --games "$N" --seed 1 | tail -n +2
  fi
done
