#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests of the PostgreSQL store (and for trying
# `cuckoo-rules serve --db postgresql://...`): a cluster in a temporary directory, owned
# by an unprivileged user (`postgres` when run as root, created if missing; yourself
# otherwise), on a free port of 127.0.0.1 with its unix socket in that directory, trust
# authentication, a database `cuckoo`. Takes a couple of seconds. .ci/run uses it.
#
# Usage:
#   bash scripts/postgres.sh run CMD [ARG...]   start a cluster, run CMD with
#                                               CUCKOO_POSTGRES_URL set, then destroy it
#   eval "$(bash scripts/postgres.sh start [DIR])"
#                                   start the cluster of DIR (made if DIR is new or not
#                                   given: a new temporary directory); prints the lines
#                                   `export CUCKOO_POSTGRES_URL=...` and
#                                   `export CUCKOO_POSTGRES_DIR=...`
#   bash scripts/postgres.sh stop DIR      stop the server (the data stays: start again)
#   bash scripts/postgres.sh destroy DIR   stop the server and delete DIR
#   bash scripts/postgres.sh bindir        print the directory of initdb and pg_ctl (fails
#                                          if PostgreSQL's server is not installed)
# The server binaries are found with $PG_BINDIR, `pg_config --bindir`, Debian's
# /usr/lib/postgresql/<version>/bin (the newest), then initdb on the PATH.
set -euo pipefail

bindir() {
    local dir
    for dir in "${PG_BINDIR:-}" "$(pg_config --bindir 2>/dev/null || true)" \
        $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return 0
        fi
    done
    if command -v initdb >/dev/null 2>&1; then
        dir="$(dirname "$(readlink -f "$(command -v initdb)")")"
        if [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return 0
        fi
    fi
    echo "postgres.sh: PostgreSQL's server (initdb, pg_ctl) is not installed" >&2
    return 1
}

# The unprivileged user that owns the cluster: PostgreSQL refuses to run as root.
owner() {
    if [ "$(id -u)" -ne 0 ]; then
        id -un
    else
        if ! id postgres >/dev/null 2>&1; then
            useradd --system --user-group --home-dir /nonexistent --no-create-home \
                --shell /usr/sbin/nologin postgres
        fi
        echo postgres
    fi
}

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        (cd "$DIR" && runuser -u "$(owner)" -- "$@")
    else
        (cd "$DIR" && "$@")
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    local bin port
    bin="$(bindir)"
    DIR="${1:-}"
    if [ -z "$DIR" ]; then
        DIR="$(mktemp -d "${TMPDIR:-/tmp}/cuckoo-pg.XXXXXX")"
    fi
    mkdir -p "$DIR"
    DIR="$(cd "$DIR" && pwd)"
    if [ ! -f "$DIR/data/PG_VERSION" ]; then
        chmod 755 "$DIR"
        mkdir -p "$DIR/socket"
        [ "$(id -u)" -ne 0 ] || chown -R "$(owner):" "$DIR"
        as_owner "$bin/initdb" --pgdata="$DIR/data" --username=postgres --auth=trust \
            --encoding=UTF8 --no-locale --no-sync >"$DIR/initdb.log" 2>&1 ||
            { cat "$DIR/initdb.log" >&2; return 1; }
        port="$(free_port)"
        # A server for tests: nothing here needs to survive a crash of the machine.
        as_owner tee -a "$DIR/data/postgresql.conf" >/dev/null <<EOF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR/socket'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
        echo "$port" >"$DIR/port"
    fi
    port="$(cat "$DIR/port")"
    as_owner "$bin/pg_ctl" --pgdata="$DIR/data" --log="$DIR/server.log" --wait \
        --timeout=30 start >/dev/null ||
        { cat "$DIR/server.log" >&2; return 1; }
    if ! "$bin/psql" -h "$DIR/socket" -p "$port" -U postgres -d postgres -Atqc \
        "SELECT 1 FROM pg_database WHERE datname = 'cuckoo'" | grep -q 1; then
        "$bin/psql" -h "$DIR/socket" -p "$port" -U postgres -d postgres -qc \
            "CREATE DATABASE cuckoo" >/dev/null
    fi
    echo "export CUCKOO_POSTGRES_URL=postgresql://postgres@127.0.0.1:$port/cuckoo"
    echo "export CUCKOO_POSTGRES_DIR=$DIR"
}

stop() {
    DIR="${1:?postgres.sh stop: which directory?}"
    [ -f "$DIR/data/postmaster.pid" ] || return 0
    as_owner "$(bindir)/pg_ctl" --pgdata="$DIR/data" --mode=fast --wait stop >/dev/null
}

destroy() {
    DIR="${1:?postgres.sh destroy: which directory?}"
    [ -d "$DIR" ] || return 0
    stop "$DIR" || true
    rm -rf "$DIR"
}

run() {
    [ "$#" -gt 0 ] || { echo "postgres.sh run: which command?" >&2; return 2; }
    local exports
    exports="$(start)"
    eval "$exports"
    trap 'destroy "$CUCKOO_POSTGRES_DIR"' EXIT
    "$@"
}

command="${1:-}"
shift || true
case "$command" in
    start | stop | destroy | run | bindir) "$command" "$@" ;;
    *)
        sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
        exit 2
        ;;
esac
