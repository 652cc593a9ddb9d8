#!/usr/bin/env bash
# `make demo`: the main job on the sample games. The engine settles a few disputes from the rule
# texts, then every sample is validated (the broken ones show their findings), imported into a
# fresh SQLite store, and published as a static site; publish prints the path to open last.
set -euo pipefail
Z=.venv/bin/zfrec
say() { printf '\n\033[1m$ zfrec %s\033[0m\n' "$*"; }
run() { say "$*"; "$Z" "$@" || true; }   # findings exit 1 by design; the demo goes on

run classify "7s 7h SJ BJ 8c"
run beats "4s 4h 5s 5h 6s 6h" "5d 5c 6d 6c 7d 7c"
run beats "8s 8h 8d" "8c SJ BJ"
run beats "7d 8d 9d Td Jd" "8h 9h Th Jh Qh"
run beats "Qs Qh" "5d Tc Kh"

run validate sample_games
run audit sample_games/broken/does-not-beat.zfn

rm -rf out/demo.db out/demo.db-* site
mkdir -p out
run import sample_games --db out/demo.db
run unreadable --db out/demo.db
run stats --db out/demo.db
say "publish --db out/demo.db --out site"
"$Z" publish --db out/demo.db --out site
