#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests (and for trying the bot on PostgreSQL):
#
#   bash scripts/pg.sh start        # prints  SORTIE_TEST_PG_URL=postgresql://...  and  SORTIE_PG_DIR=...
#   bash scripts/pg.sh start --durable   # the same with PostgreSQL's durable defaults (for
#                                        # benchmarks: fsync, synchronous_commit and
#                                        # full_page_writes on, as a production server)
#   bash scripts/pg.sh stop DIR     # stops the server started in DIR and deletes DIR
#
# `start` installs Debian's postgresql package when no initdb/pg_ctl can be found (CI runs
# on a clean Debian machine), creates a data directory under /tmp, and starts a server on a
# free loopback port with trust authentication. Trust is acceptable only because the server
# listens on 127.0.0.1 and lives in a temporary directory for the length of a test run.
# initdb refuses to run as root, so as root the server runs as the `postgres` user (which
# the Debian package creates; created here if missing).
set -euo pipefail
# runuser and useradd live in sbin, which a non-login root shell may not have on its PATH.
export PATH="$PATH:/usr/sbin:/sbin"

die() { echo "pg.sh: $*" >&2; exit 1; }

find_bin() {
    # PATH first (a developer's own install), then Debian's versioned folders, newest first.
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(readlink -f "$(command -v pg_ctl)")"
        return 0
    fi
    local dir
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

install_pg() {
    [ "$(id -u)" = 0 ] || die "PostgreSQL is not installed and installing it needs root (apt-get install postgresql)"
    command -v apt-get >/dev/null 2>&1 || die "PostgreSQL is not installed and apt-get is not available"
    echo "pg.sh: installing Debian's postgresql package" >&2
    # The package may create and start its own cluster on 5432; it is not used here.
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    local durable=${1:-}
    [ -z "$durable" ] || [ "$durable" = --durable ] || die "usage: pg.sh start [--durable]"
    local bin
    bin=$(find_bin) || { install_pg; bin=$(find_bin) || die "no initdb/pg_ctl after installing postgresql"; }
    local dir port runas=""
    # Under /tmp, not under the caller's TMPDIR (pytest's, or a root-only one): the
    # postgres user must be able to reach it. SORTIE_PG_TMP overrides.
    dir=$(mktemp -d "${SORTIE_PG_TMP:-/tmp}/sortie-pg.XXXXXX")
    chmod 755 "$dir"
    port=$(free_port)
    if [ "$(id -u)" = 0 ]; then
        getent passwd postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /bin/sh postgres
        runas=postgres
        chown "$runas" "$dir"
    fi
    run() {
        if [ -n "$runas" ]; then
            runuser -u "$runas" -- "$@"
        else
            "$@"
        fi
    }
    # --no-sync and fsync=off: a test server whose data is thrown away; durability costs
    # time and buys nothing here. --durable keeps PostgreSQL's defaults, so a benchmark's
    # figures are what a production server would give. Locale C: byte order, as SQLite
    # compares text.
    local sync="--no-sync" lazy="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    if [ "$durable" = --durable ]; then
        sync="" lazy=""
    fi
    run "$bin/initdb" -D "$dir/data" -U sortie --auth=trust --encoding=UTF8 --locale=C \
        $sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; rm -rf "$dir"; die "initdb failed"; }
    run "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir $lazy -c max_connections=200" \
        start >/dev/null || { cat "$dir/server.log" >&2; rm -rf "$dir"; die "the server did not start"; }
    echo "SORTIE_TEST_PG_URL=postgresql://sortie@127.0.0.1:$port/postgres"
    echo "SORTIE_PG_DIR=$dir"
}

stop() {
    local dir=${1:-}
    [ -n "$dir" ] && [ -d "$dir/data" ] || die "usage: pg.sh stop DIR (the SORTIE_PG_DIR that start printed)"
    local bin
    bin=$(find_bin) || die "no pg_ctl found"
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    else
        "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
}

case "${1:-}" in
    start) start "${2:-}" ;;
    stop) stop "${2:-}" ;;
    *) die "usage: pg.sh start [--durable] | pg.sh stop DIR" ;;
esac
