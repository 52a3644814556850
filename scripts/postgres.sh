#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and for trying the schema by hand.
#
#   postgres.sh start DIR   make a cluster in DIR (once) and start it on 127.0.0.1 at a free port, with a role and a
#                           database for the tests
#   postgres.sh stop DIR    stop it; nothing to do when it is not running
#   postgres.sh env DIR     print SG_TEST_POSTGRES_URL=... and PGPASSFILE=... for the running cluster:
#                             set -a; eval "$(scripts/postgres.sh env DIR)"; set +a
#
# Installs postgresql (Debian) when initdb is missing. As root the server runs as the `postgres` user (DIR is handed
# to it); as anyone else it runs as that user. It listens on 127.0.0.1 and on a unix socket in DIR only. fsync is off:
# a crash of the machine may lose the cluster, which is fine for throwaway test data and never for a real one.
# The tests' role `sg_test` (password in DIR/pgpass, a PGPASSFILE, mode 0600) owns the database `sg_test` and may
# create more (CREATEDB). The cluster sorts text bytewise (locale C), as SQLite's BINARY collation does.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
role=sg_test
database=sg_test

die() { echo "postgres.sh: $*" >&2; exit 1; }

usage() { die "usage: postgres.sh start|stop|env DIR"; }

# The directory of initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/VERSION/bin (newest first).
bin_dir() {
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(readlink -f "$(command -v initdb)")"
        return 0
    fi
    local candidate
    for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV); do
        [ -x "$candidate/initdb" ] && { echo "$candidate"; return 0; }
    done
    return 1
}

find_binaries() {
    if ! bin=$(bin_dir); then
        "$here/install-deps.sh" postgresql || die "could not install postgresql (apt-get install postgresql)"
        bin=$(bin_dir) || die "postgresql is installed but initdb was not found in /usr/lib/postgresql/*/bin"
    fi
    psql=$(command -v psql 2>/dev/null || echo "$bin/psql")
}

# Runs a server program as the cluster's owner: `postgres` under root, else the caller.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

running() { [ -f "$data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; }

# psql as the cluster's superuser over the unix socket in DIR (trusted there).
superuser_psql() {
    "$psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$(cat "$dir/port")" -U postgres -d postgres "$@"
}

init_cluster() {
    [ -f "$data/PG_VERSION" ] && return 0
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || die "no user 'postgres' to run the server as (it comes with the postgresql package)"
        chown postgres: "$dir"
        as_owner test -w "$dir" || die "the user postgres cannot write in $dir: every folder above it must be searchable (chmod o+x)"
    fi
    as_owner "$bin/initdb" -D "$data" -U postgres --encoding=UTF8 --locale=C \
        --auth-local=trust --auth-host=scram-sha-256 >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; die "initdb failed (log above)"; }
    cat >>"$data/postgresql.conf" <<EOF

# scripts/postgres.sh: a throwaway cluster for tests.
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
password_encryption = 'scram-sha-256'
EOF
}

start() {
    find_binaries
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    data=$dir/data
    init_cluster
    if running; then
        echo "postgres.sh: already running on port $(cat "$dir/port")" >&2
    else
        local attempt port started=0
        for attempt in 1 2 3 4 5; do
            port=$(free_port)
            echo "$port" >"$dir/port"
            # Another program may take the port between the pick and the bind: then pick again.
            if as_owner "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -o "-p $port" -w -t 30 start >/dev/null 2>&1; then
                started=1
                break
            fi
            grep -q "could not bind\|Address already in use" "$dir/server.log" 2>/dev/null || break
        done
        [ "$started" -eq 1 ] || { tail -20 "$dir/server.log" >&2 2>/dev/null; die "the server did not start (log above: $dir/server.log)"; }
    fi
    if [ ! -s "$dir/pgpass" ]; then
        local password
        password=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
        superuser_psql -v password="$password" <<'EOF' || die "could not create the role and database for the tests"
SELECT format('CREATE ROLE sg_test LOGIN CREATEDB PASSWORD %L', :'password') \gexec
CREATE DATABASE sg_test OWNER sg_test;
EOF
        (umask 077 && echo "127.0.0.1:*:*:$role:$password" >"$dir/pgpass.new" && mv "$dir/pgpass.new" "$dir/pgpass")
    fi
    echo "postgres.sh: running on 127.0.0.1:$(cat "$dir/port"), socket in $dir" >&2
}

stop() {
    [ -d "$dir" ] || return 0
    dir=$(cd "$dir" && pwd)
    data=$dir/data
    [ -f "$data/postmaster.pid" ] || return 0
    find_binaries
    running || return 0
    as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t 30 stop >/dev/null || die "the server in $data did not stop within 30 s"
}

print_env() {
    [ -d "$dir" ] || die "no cluster in $dir (postgres.sh start $dir)"
    dir=$(cd "$dir" && pwd)
    [ -s "$dir/port" ] && [ -s "$dir/pgpass" ] || die "no cluster in $dir (postgres.sh start $dir)"
    printf 'SG_TEST_POSTGRES_URL=%q\n' "postgres://$role@127.0.0.1:$(cat "$dir/port")/$database"
    printf 'PGPASSFILE=%q\n' "$dir/pgpass"
}

[ $# -eq 2 ] || usage
dir=$2
case $1 in
    start) start ;;
    stop) stop ;;
    env) print_env ;;
    *) usage ;;
esac
