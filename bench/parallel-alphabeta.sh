#!/usr/bin/env bash
# Parallel alpha-beta (lazy SMP) against the one-core player at equal wall
# time per move: `alphabeta:threads=T` against `alphabeta:threads=1`, roles
# rotated, one `gdlkit match` per game, so both players' nodes per second
# and completed depths come from the same minutes. Prints one line per
# player with the load before and after (BENCHMARKS.md, "Parallel
# search").
# Usage: bash bench/parallel-alphabeta.sh [OUT_DIR]   (default /tmp/gdlkit-smp)
# Environment (defaults in brackets):
#   GDLKIT [target/ci/gdlkit]   the binary (`cargo build --profile ci -p gdlkit-cli`)
#   GAMES_LIST [connectFour breakthrough]  ../shared/games/repository names
#   GAMES [40]   games per match     MS [200]   ms per move
#   THREADS [2]  threads of the parallel player   SEED [31]
#   HEURISTIC [mobility]  (any heuristic: all are `Send`)
#   BUDGET [ms=$MS]  the budget of both players; `nodes=N` gives each worker
#                N nodes: what equal time gives on free cores, whatever the load
set -euo pipefail
cd "$(dirname "$0")/.."
B=${GDLKIT:-${CARGO_TARGET_DIR:-target}/ci/gdlkit}
G=../shared/games/repository
OUT=${1:-/tmp/gdlkit-smp}
GAMES=${GAMES:-40}
MS=${MS:-200}
THREADS=${THREADS:-2}
SEED=${SEED:-31}
HEURISTIC=${HEURISTIC:-mobility}
BUDGET=${BUDGET:-ms=$MS}
mkdir -p "$OUT"
for game in ${GAMES_LIST:-connectFour breakthrough}; do
  par="alphabeta:$BUDGET,threads=$THREADS,heuristic=$HEURISTIC"
  one="alphabeta:$BUDGET,threads=1,heuristic=$HEURISTIC"
  before=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date -u +%H:%M)
  echo "== $game: $B match $G/$game.kif --players $par $one --games $GAMES --seed $SEED --format json" >&2
  "$B" match "$G/$game.kif" --players "$par" "$one" --games "$GAMES" --seed "$SEED" --format json > "$OUT/$game.json"
  after=$(cut -d' ' -f1 /proc/loadavg)
  node -e '
    const [file, game, start, end, before, after] = process.argv.slice(1);
    const r = JSON.parse(require("fs").readFileSync(file, "utf8"));
    const [p, q] = r.players;
    const f = (x) => Math.round(x).toLocaleString("en");
    console.log(`${game} ${start}-${end} load ${before} -> ${after}, ${p.games} games, engine ${r.engine}`);
    for (const x of [p, q]) {
      console.log(`  ${x.spec}: ${f(x.nodes_per_second)} nodes/s (${(x.nodes_per_second / q.nodes_per_second).toFixed(2)}x), depth ${x.mean_depth}, ${x.ms_per_move} ms/move, W/D/L ${x.wins}/${x.draws}/${x.losses}, mean goal ${x.mean_goal.toFixed(1)} [${x.ci95.map((v) => v.toFixed(1)).join(", ")}]`);
    }' "$OUT/$game.json" "$game" "$start" "$(date -u +%H:%M)" "$before" "$after"
done
