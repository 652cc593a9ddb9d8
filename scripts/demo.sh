#!/usr/bin/env bash
# `make demo`: the engine on the rule texts' worked examples. Grows as the toolkit grows.
set -euo pipefail
Z=.venv/bin/zfrec
say() { printf '\n\033[1m$ zfrec %s\033[0m\n' "$*"; }
run() { say "$*"; "$Z" "$@" || true; }

run classify "7s 7h SJ BJ 8c"
run beats "4s 4h 5s 5h 6s 6h" "5d 5c 6d 6c 7d 7c"
run beats "5s 5h 6s 6h 7s 7h" "4d 4c 5d 5c 6d 6c 7d 7c"
run beats "8s 8h 8d" "8c SJ BJ"
run beats "9s 9h 9d As Ac" "9c SJ BJ 3h 6d"
run beats "7d 8d 9d Td Jd" "8h 9h Th Jh Qh"
run beats "8h 9h Th Jh Qh" "7c 8c 9c Tc Jc Qc"
run classify "2s 2h 3s 3h 4s 4h"
run classify "Ks Kh As Ah 2s 2h"
run beats "Qs Qh" "5d Tc Kh"
run legal "3h 5h 5s 6h Th Kd SJ" --top "4d 4c"
