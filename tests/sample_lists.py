"""A folder of bundled lists for tests that play every edition: French and English as shipped (compiled at
install), each other list a sample of the shipped one (every n-th word, about ``SAMPLE_WORDS`` of them).

Compiling every shipped list costs minutes and memory (Polish alone: 2.9 million words, about a minute and
nearly 1 GB); a sample holds the same tiles, compiles in about a second and plays the same commands. Point
``ARBITRE_LEXICONS`` at the folder while loading (the cache is keyed by each file's checksum, so a sample never
stands for the shipped list).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "lexicons"
AS_SHIPPED = ("fr", "en")  # compiled by ``make`` at install: read from the cache
SAMPLE_WORDS = 40_000


def sample_folder(folder: Path) -> Path:
    """``folder`` filled with the bundled lists (samples but French and English), their records and licences."""
    sources = json.loads((ROOT / "SOURCES.json").read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    for path in ROOT.glob("*.LICENSE"):
        (folder / path.name).write_bytes(path.read_bytes())
    for code, entry in sources.items():
        shipped = ROOT / str(entry["file"])
        if code in AS_SHIPPED:
            (folder / shipped.name).symlink_to(shipped)
            continue
        words = gzip.decompress(shipped.read_bytes()).decode("utf-8").splitlines()
        sample = words[:: max(1, len(words) // SAMPLE_WORDS)]
        # mtime 0: the same bytes in every test process, so one compiled cache serves them all
        (folder / shipped.name).write_bytes(gzip.compress("".join(w + "\n" for w in sample).encode("utf-8"), mtime=0))
        entry["words"] = len(sample)
    (folder / "SOURCES.json").write_text(json.dumps(sources, ensure_ascii=False, indent=1), encoding="utf-8")
    return folder
