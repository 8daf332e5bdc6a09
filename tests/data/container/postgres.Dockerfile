# A stand-in for the public postgres image, for the container test on machines that reach Debian's packages but
# no container registry: Debian's PostgreSQL, started as that image starts (POSTGRES_USER, POSTGRES_PASSWORD,
# POSTGRES_DB; data in /var/lib/postgresql/data; pg_isready for the health check).
ARG BASE
FROM ${BASE}
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \
 && rm -rf /var/lib/apt/lists/* && install -d -o postgres -g postgres /var/run/postgresql
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
USER postgres
ENTRYPOINT ["sh", "/usr/local/bin/postgres-entrypoint.sh"]
