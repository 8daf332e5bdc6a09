# The Arbitre bot in a container: `docker build -t arbitre .` (or podman), then compose.yaml runs it with
# PostgreSQL. The base is any Debian-like image with Python 3.11 or newer and its venv module; the default
# is the public Python image (`--build-arg BASE=...` for another, such as a base built in-house).
ARG BASE=python:3.11-slim-bookworm

FROM ${BASE} AS build
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE CHANGELOG.md ./
COPY core core
COPY bot bot
COPY lexicons lexicons
# A C compiler (and Python's headers where the base lacks them) for the top search's C walk, in this stage only:
# the final image gets the built walk, not the compiler. Without them the package installs on Python alone.
RUN (apt-get update -qq \
     && apt-get install -y -qq --no-install-recommends gcc libc6-dev \
     && (python3 -c 'import os, sysconfig; raise SystemExit(not os.path.exists(sysconfig.get_paths()["include"] + "/Python.h"))' \
         || apt-get install -y -qq --no-install-recommends python3-dev)) >/dev/null \
 || echo "no C compiler: the top search runs in Python alone"
# The package and what it runs on, in a virtual environment copied whole into the final image.
RUN python3 -m venv /opt/arbitre \
 && /opt/arbitre/bin/python -m pip install --no-cache-dir --disable-pip-version-check --quiet . \
 && /opt/arbitre/bin/python -m pip uninstall --yes --quiet pip

FROM ${BASE}
# The lists compiled at build time (a start then never waits for them); others are compiled at first use.
ARG LISTS="fr en"
COPY --from=build /opt/arbitre /opt/arbitre
# Its own user, no shell, no password; /data holds the SQLite database and the images the console writes.
RUN useradd --system --user-group --uid 10001 --home-dir /data --no-create-home --shell /usr/sbin/nologin arbitre \
 && mkdir -p /data /opt/arbitre/cache \
 && ARBITRE_CACHE=/opt/arbitre/cache /opt/arbitre/bin/arbitre lexicon build ${LISTS} \
 && chown -R arbitre:arbitre /data /opt/arbitre/cache
ENV PATH=/opt/arbitre/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    ARBITRE_DATA=/data \
    ARBITRE_CACHE=/opt/arbitre/cache \
    ARBITRE_HTTP_PORT=8080 \
    ARBITRE_HTTP_ADDRESS=0.0.0.0 \
    ARBITRE_LOG_FORMAT=json
USER arbitre
WORKDIR /data
VOLUME ["/data"]
# One port: /healthz (200 once the database answers and the platform is connected), /metrics, the live pages
# (with ARBITRE_WEB_URL, their public address) and Telegram's webhook (arbitre telegram --webhook URL).
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["arbitre", "health"]
ENTRYPOINT ["arbitre"]
# The token comes from ARBITRE_DISCORD_TOKEN, or from a file: ARBITRE_DISCORD_TOKEN_FILE=/run/secrets/...
CMD ["discord"]
