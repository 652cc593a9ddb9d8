#!/usr/bin/env bash
# The fresh-machine lane (README.md, "Running the tests"): `make quick` as on a machine without
# Chromium, without a CJK font and without PostgreSQL, and not under CI. Every test that needs
# one of them must skip and say why; everything else must pass. `.ci/run` runs this after
# `make test`; it also runs on its own.
set -euo pipefail
cd "$(dirname "$0")/.."
bare=$(mktemp -d /tmp/zfrec-bare.XXXXXX)
trap 'rm -rf "$bare"' EXIT
# fontconfig sees only DejaVu (none of its faces draws 王), with a cache of its own; matplotlib
# starts from an empty config dir, so no font list cached before brings the others back.
cat >"$bare/fonts.conf" <<CONF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts/truetype/dejavu</dir>
  <cachedir>$bare/fontconfig</cachedir>
</fontconfig>
CONF
export FONTCONFIG_FILE="$bare/fonts.conf" MPLCONFIGDIR="$bare/matplotlib"
export ZFREC_CHROMIUM=/nonexistent
unset CI ZFREC_TEST_PG_URL
make --no-print-directory setup
# The renderer must find no font for 王 (through fontconfig, or matplotlib's own font list).
if ! .venv/bin/python -c 'from zfrec.render.fonts import font_plan; assert font_plan("王").missing'; then
  echo "bare lane: the renderer still finds a CJK font" >&2
  exit 1
fi
make quick 2>&1 | tee "$bare/log"
# It must really have been bare: the browser, font and PostgreSQL tests skipped, saying why.
for why in "no browser at /nonexistent" "PostgreSQL store tests skipped" "CJK font"; do
  grep -q "SKIPPED.*$why" "$bare/log" || { echo "bare lane: nothing skipped for: $why" >&2; exit 1; }
done
