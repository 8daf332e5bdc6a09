#!/bin/sh
# A base image for the container test where no container registry is reached: a Debian root with Python, built
# with debootstrap from Debian's packages and imported into podman as localhost/debian-python:bookworm.
# Then: ARBITRE_CONTAINER_BASE=localhost/debian-python:bookworm pytest -m container
set -eu
root=$(mktemp -d)
debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$root" \
    http://deb.debian.org/debian >/dev/null
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" -c . | podman import - localhost/debian-python:bookworm
rm -rf "$root"
