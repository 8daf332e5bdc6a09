"""Reading the pinned inputs of ``build_lists``: the packages' archives (a ``.deb``, an sdist, a wheel) and their
checksums."""

from __future__ import annotations

import hashlib
import io
import tarfile
import zipfile


def sha256(data: bytes) -> str:
    """The SHA-256 of ``data``, in hexadecimal."""
    return hashlib.sha256(data).hexdigest()


class InputError(RuntimeError):
    """An input of the build is missing, damaged or not the pinned one."""


def check_sha(label: str, data: bytes, expected: str) -> None:
    actual = sha256(data)
    if actual != expected:
        raise InputError(f"{label}: sha256 {actual} does not match pinned {expected}")


def read_ar_members(data: bytes) -> dict[str, bytes]:
    """Members of a Unix ``ar`` archive (the container format of ``.deb``)."""
    if not data.startswith(b"!<arch>\n"):
        raise InputError("not an ar archive")
    members = {}
    pos = 8
    while pos + 60 <= len(data):
        header = data[pos : pos + 60]
        name = header[:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        pos += 60
        members[name] = data[pos : pos + size]
        pos += size + (size & 1)
    return members


def read_deb_files(deb: bytes, wanted: list[str]) -> dict[str, bytes]:
    """Extract ``wanted`` paths from the data archive of a ``.deb``."""
    members = read_ar_members(deb)
    data_name = next((n for n in members if n.startswith("data.tar")), None)
    if data_name is None:
        raise InputError("no data.tar member in .deb")
    found: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(members[data_name]), mode="r:*") as tar:
        for info in tar:
            path = info.name[2:] if info.name.startswith("./") else info.name.lstrip("/")
            if path in wanted and info.isfile():
                handle = tar.extractfile(info)
                assert handle is not None
                found[path] = handle.read()
    missing = set(wanted) - set(found)
    if missing:
        raise InputError(f".deb lacks {sorted(missing)}")
    return found


def read_sdist_file(sdist: bytes, wanted: str) -> bytes:
    """One file of a source distribution (a tar archive)."""
    with tarfile.open(fileobj=io.BytesIO(sdist), mode="r:*") as tar:
        handle = tar.extractfile(wanted)
        if handle is None:
            raise InputError(f"{wanted} missing from sdist")
        return handle.read()


def read_wheel_file(wheel: bytes, wanted: str) -> bytes:
    """One file of a wheel (a zip archive)."""
    try:
        with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
            return archive.read(wanted)
    except (KeyError, zipfile.BadZipFile) as exc:
        raise InputError(f"{wanted} missing from wheel: {exc}") from exc
