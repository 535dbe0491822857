#!/usr/bin/env bash
# The Rust tests' own PostgreSQL: a throwaway cluster of the machine's PostgreSQL in memory
# (/dev/shm), its commits and checkpoints never waiting for a disk. Each test copies a migrated
# template database (about 1,000 files); on the machine's server, a checkpoint synced 80,000 to
# 120,000 such files at a time and stalled every running test for up to a minute. A test's
# database need not outlive a crash, so this one skips fsync altogether.
#
#   harness/test-pg.sh start DIR   starts it under DIR (made here), prints its URL
#   harness/test-pg.sh stop DIR    stops it and removes DIR
#
# Exits 1 with the reason on stderr when it cannot be had (no initdb); harness/run-rust.sh then
# uses the machine's server instead.
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
[ -n "$bin" ] && [ -x "$bin/initdb" ] || { echo "test-pg: no initdb under /usr/lib/postgresql" >&2; exit 1; }
# initdb refuses root: the cluster runs as nobody in a directory it owns.
as=()
if [ "$(id -u)" = 0 ]; then as=(runuser -u nobody --); fi

case "${1:-}" in
start)
    dir=$2
    # clusters left by a runner that was killed (named .<its pid> by harness/run-rust.sh)
    for old in /dev/shm/portal-test-pg.*; do
        [ -d "$old" ] && ! kill -0 "${old##*.}" 2>/dev/null || continue
        "${as[@]}" "$bin/pg_ctl" -D "$old/data" -m immediate stop >/dev/null 2>&1 || true
        rm -rf "$old"
    done
    mkdir -p "$dir"
    chmod 755 "$dir"
    [ ${#as[@]} -eq 0 ] || chown nobody "$dir"
    "${as[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # 200 connections: three test processes of two tests each, a store holding up to ten, and
    # the replica tests' own servers beside them.
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -w -l "$dir/pg.log" -o "-p $port -k $dir \
        -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off \
        -c full_page_writes=off -c wal_level=minimal -c max_wal_senders=0 \
        -c max_connections=200 -c shared_buffers=256MB -c max_wal_size=1GB" start >/dev/null ||
        { cat "$dir/pg.log" >&2; exit 1; }
    psql -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c "CREATE DATABASE test" >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/test"
    ;;
stop)
    dir=$2
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start DIR | stop DIR" >&2
    exit 2
    ;;
esac
