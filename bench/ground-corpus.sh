#!/usr/bin/env bash
# Grounds every corpus game with the default budget and prints one JSON line
# per game (ground time, grounder memory estimate and peak RSS, network size, or the fallback
# reason); a game still running after DEADLINE seconds (default 60) is
# killed and reported as such.
#
#   bash bench/ground-corpus.sh [DIR] > /tmp/ground-corpus.jsonl
#
# Needs `cargo build --release --example ground_stats`.
set -uo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-../shared/games/repository}
DEADLINE=${DEADLINE:-60}
X=${X:-${CARGO_TARGET_DIR:-target}/release/examples/ground_stats}
for f in "$DIR"/*.kif; do
  out=$(nice -n 10 /usr/bin/time -f "rss_kb %M" -o /tmp/ground-corpus.rss timeout "$DEADLINE" "$X" "$f" 2>/dev/null)
  rc=$?
  rss=$(awk '/rss_kb/ {print $2}' /tmp/ground-corpus.rss 2>/dev/null)
  if [ $rc -eq 124 ]; then
    echo "{\"game\":\"$f\",\"killed_after_s\":$DEADLINE}"
  elif [ -z "$out" ]; then
    echo "{\"game\":\"$f\",\"crashed\":$rc}"
  else
    # the process's peak resident memory (parse + interpreter + grounder)
    echo "${out%\}},\"rss_mb\":$(( ${rss:-0} / 1024 ))}"
  fi
done
