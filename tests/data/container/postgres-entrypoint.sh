# The public postgres image's start, in short: a cluster made once with the user, password and database asked for,
# then the server in the foreground, on every address, password logins (PGPORT: its port, 5432 by default).
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/password
    initdb --username="$POSTGRES_USER" --pwfile=/tmp/password --encoding=UTF8 --locale=C.UTF-8 --auth-host=scram-sha-256 --auth-local=trust \
        -D "$PGDATA" >/dev/null
    rm -f /tmp/password
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -k /tmp" -w start >/dev/null
    createdb -h /tmp -U "$POSTGRES_USER" "$POSTGRES_DB"
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/var/run/postgresql,/tmp -p "${PGPORT:-5432}"
