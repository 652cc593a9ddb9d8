# Sourced by .ci/run: install and start what the tests need beyond Python packages.
# - PostgreSQL: a throwaway cluster on a private port, owned by the postgres user
#   (PostgreSQL refuses to run as root). The URL goes to the tests in ZFREC_TEST_PG_URL.
# - Chromium: Debian's package, driven by Playwright with executable_path=/usr/bin/chromium.
need=()
command -v pg_ctlcluster >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)
# The PNG charts pick fonts by what they cover, asking fontconfig; the tests draw Chinese names.
command -v fc-list >/dev/null 2>&1 || need+=(fontconfig)
fc-list ':charset=738b' 2>/dev/null | grep -q . || need+=(fonts-noto-cjk)
if [ "${#need[@]}" -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" fonts-noto-cjk >/dev/null
fi

PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
PGDATA=$(mktemp -d /tmp/zfrec-pg.XXXXXX)
PGPORT=55432
chown postgres "$PGDATA"
su postgres -c "$PGBIN/initdb -D $PGDATA -U postgres -A trust" >/dev/null
su postgres -c "$PGBIN/pg_ctl -D $PGDATA -o '-p $PGPORT -k /tmp -c listen_addresses=127.0.0.1' -l $PGDATA/log -w start" >/dev/null
su postgres -c "$PGBIN/psql -h 127.0.0.1 -p $PGPORT -U postgres -c 'CREATE DATABASE zfrec_test'" >/dev/null
export ZFREC_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$PGPORT/zfrec_test"
trap 'su postgres -c "$PGBIN/pg_ctl -D $PGDATA -m fast stop" >/dev/null 2>&1 || true' EXIT
