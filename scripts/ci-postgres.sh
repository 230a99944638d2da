#!/usr/bin/env bash
# Installs PostgreSQL 15 with pgvector (built from Debian trixie's source package, since
# bookworm ships no pgvector) and starts it on 127.0.0.1:${PGPORT:-55432}, or on the next free
# port when something else holds that one (a server of another checkout or container).
# Prints the connection URL on its last line. Idempotent: safe to run twice.
# POOLER=1 also starts PgBouncer (transaction mode, like Neon's pooled endpoint) on
# ${PGBOUNCER_PORT:-56432} and prints its URL instead: every Worker request opens a new
# connection, and a fresh backend costs 25-40 ms before its first query; the benchmark uses it.
set -euo pipefail

PGPORT="${PGPORT:-55432}"
# Whether 127.0.0.1:$1 is taken: something accepts connections there, or the port cannot be
# bound. 55432 lies in Linux's ephemeral range (32768-60999), so an outgoing connection of the
# run before (the suite, schemathesis) can hold it as its local port with nothing listening:
# stop 33's local CI run saw "Address already in use" on a port no server held.
port_busy() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
  ! python3 -c 'import socket, sys; socket.socket().bind(("127.0.0.1", int(sys.argv[1])))' "$1" 2>/dev/null
}
# $1, or the first port above it that nothing listens on.
free_port_from() {
  local port=$1
  while port_busy "$port"; do port=$((port + 1)); done
  echo "$port"
}
PGDATA_DIR="${PGDATA_DIR:-/tmp/memory-service-pg}"
PG_BIN=/usr/lib/postgresql/15/bin
export DEBIAN_FRONTEND=noninteractive

log() { echo "[ci-postgres] $*" >&2; }

if [ ! -x "$PG_BIN/postgres" ] || [ ! -x "$PG_BIN/pg_config" ] && [ ! -x /usr/bin/pg_config ]; then
  log "installing postgresql-15 and build tools"
  apt-get update -qq >&2
  apt-get install -y -qq postgresql-15 postgresql-server-dev-15 dpkg-dev >/dev/null
fi
if ! dpkg -s postgresql-server-dev-15 >/dev/null 2>&1 || ! dpkg -s dpkg-dev >/dev/null 2>&1; then
  apt-get update -qq >&2
  apt-get install -y -qq postgresql-15 postgresql-server-dev-15 dpkg-dev >/dev/null
fi

if [ ! -f /usr/share/postgresql/15/extension/vector.control ]; then
  log "building pgvector from Debian trixie sources"
  work=$(mktemp -d)
  mirror=$( (grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}'; \
             grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}') | grep -E '/debian/?$' | head -n1) || true
  mirror="${mirror:-http://deb.debian.org/debian}"
  echo "deb-src ${mirror%/} trixie main" > "$work/trixie-src.list"
  apt_opts=(-o "Dir::Etc::sourcelist=$work/trixie-src.list" -o Dir::Etc::sourceparts=- -o APT::Get::List-Cleanup=0)
  apt-get "${apt_opts[@]}" update -qq >&2
  (cd "$work" && apt-get "${apt_opts[@]}" source -qq pgvector >/dev/null)
  src=$(find "$work" -maxdepth 1 -type d -name 'pgvector-*' | head -n1)
  make -s -C "$src" PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config >/dev/null
  make -s -C "$src" PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config install >&2
  # Restore the ordinary package lists, so later apt calls see only the machine's sources.
  apt-get update -qq >&2 || true
  rm -rf "$work"
fi

init_pg() {
  log "initdb in $PGDATA_DIR"
  mkdir -p "$PGDATA_DIR" && chown postgres:postgres "$PGDATA_DIR"
  su postgres -c "$PG_BIN/initdb -D $PGDATA_DIR -A trust -U postgres --no-sync" >/dev/null
}
# The socket goes in the data directory, so the server needs nothing outside it (on a machine
# restarted with an empty /run, Debian's /var/run/postgresql is gone). Clients use TCP.
start_pg() {
  log "starting postgres on 127.0.0.1:$PGPORT"
  su postgres -c "$PG_BIN/pg_ctl -D $PGDATA_DIR -l $PGDATA_DIR/server.log -w -o '-c listen_addresses=127.0.0.1 -p $PGPORT -c unix_socket_directories=$PGDATA_DIR -c fsync=off -c max_connections=200 -c shared_buffers=1GB' start" >/dev/null
}
if su postgres -c "$PG_BIN/pg_ctl -D $PGDATA_DIR status" >/dev/null 2>&1; then
  # Already running (a second call): its port is line 4 of postmaster.pid.
  PGPORT=$(sed -n 4p "$PGDATA_DIR/postmaster.pid")
else
  [ -f "$PGDATA_DIR/PG_VERSION" ] || init_pg
  # pg_ctl (as the server's own user) says no server runs on this directory: a postmaster.pid
  # left is a killed server's (a machine reused after a stop, the fault run's SIGKILL).
  rm -f "$PGDATA_DIR/postmaster.pid"
  wanted=$PGPORT
  PGPORT=$(free_port_from "$PGPORT")
  [ "$PGPORT" = "$wanted" ] || log "port $wanted is taken by another server; using $PGPORT"
  if ! start_pg; then
    log "postgres did not start; the end of its log:"
    tail -n 20 "$PGDATA_DIR/server.log" >&2 || true
    # A data directory of its own, never a delete: the directory may be another live server's
    # (a container whose processes this one cannot see, so pg_ctl status could not either).
    PGDATA_DIR=$(mktemp -d /tmp/memory-service-pg.XXXXXX)
    PGPORT=$(free_port_from $((PGPORT + 1)))
    log "starting over in a new data directory, $PGDATA_DIR (this script's data is disposable)"
    init_pg
    start_pg || { tail -n 20 "$PGDATA_DIR/server.log" >&2; exit 1; }
  fi
fi
if [ "${POOLER:-}" = "1" ]; then
  PGBOUNCER_PORT="${PGBOUNCER_PORT:-56432}"
  PGBOUNCER_DIR="${PGBOUNCER_DIR:-/tmp/memory-service-pgbouncer}"
  if ! command -v pgbouncer >/dev/null && [ ! -x /usr/sbin/pgbouncer ]; then
    log "installing pgbouncer"
    apt-get install -y -qq pgbouncer >/dev/null || { apt-get update -qq >&2 && apt-get install -y -qq pgbouncer >/dev/null; }
  fi
  pooled_port=$(sed -n 's/^\* = host=127.0.0.1 port=//p' "$PGBOUNCER_DIR/pgbouncer.ini" 2>/dev/null || true)
  bouncer_pid=$(cat "$PGBOUNCER_DIR/pgbouncer.pid" 2>/dev/null || true)
  if [ -n "$bouncer_pid" ] && kill -0 "$bouncer_pid" 2>/dev/null && [ "$pooled_port" = "$PGPORT" ]; then
    PGBOUNCER_PORT=$(sed -n 's/^listen_port = //p' "$PGBOUNCER_DIR/pgbouncer.ini")
  else
    # Ours is not running, or pools another server: stop it and start one for this server.
    if [ -n "$bouncer_pid" ]; then kill "$bouncer_pid" 2>/dev/null || true; sleep 0.5; fi
    PGBOUNCER_PORT=$(free_port_from "$PGBOUNCER_PORT")
    mkdir -p "$PGBOUNCER_DIR" && chown postgres:postgres "$PGBOUNCER_DIR"
    cat > "$PGBOUNCER_DIR/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$PGPORT
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PGBOUNCER_PORT
unix_socket_dir =
auth_type = trust
auth_file = $PGBOUNCER_DIR/users.txt
pool_mode = transaction
max_client_conn = 500
default_pool_size = 20
ignore_startup_parameters = extra_float_digits,options
logfile = $PGBOUNCER_DIR/pgbouncer.log
pidfile = $PGBOUNCER_DIR/pgbouncer.pid
INI
    echo '"postgres" ""' > "$PGBOUNCER_DIR/users.txt"
    chown postgres:postgres "$PGBOUNCER_DIR"/*
    log "starting pgbouncer on 127.0.0.1:$PGBOUNCER_PORT"
    su postgres -c "/usr/sbin/pgbouncer -d $PGBOUNCER_DIR/pgbouncer.ini" >&2
  fi
  echo "postgres://postgres:postgres@127.0.0.1:$PGBOUNCER_PORT/postgres"
else
  echo "postgres://postgres:postgres@127.0.0.1:$PGPORT/postgres"
fi
