"""Catalan typed the usual way (issue 42): ``COL.LEGI``, ``COL-LEGI`` and ``COL·LEGI`` are the same tiles (L·L one
tile) in the chat's commands (a move scored, played and challenged, a word looked up) and in the offline tools
(``arbitre score``, ``arbitre check``, ``arbitre top``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from bot.cli import main
from core.edition import edition_by_code
from tests.paths import REPO_ROOT
from tests.transcripts import run_console

ROOT = REPO_ROOT / "lexicons"
WORDS = ["COL·LEGI", "COL·LEGIS", "COL", "ESTAR", "ESTEL", "LLEI", "SOL"]
CATALAN = edition_by_code("ca")
# H8 from C: C 2, O 1, L·L 10, E 1, G 3 on H12 (double letter), I 1; doubled on the star
COLLEGI = (2 + 1 + 10 + 1 + 3 * 2 + 1) * 2


@pytest.fixture
def catalan_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of bundled lists whose Catalan list is ``WORDS`` (French and English as shipped), read by the
    tools and the referee."""
    folder = tmp_path / "lexicons"
    folder.mkdir()
    sources = json.loads((ROOT / "SOURCES.json").read_text(encoding="utf-8"))
    kept = {code: sources[code] for code in ("fr", "en", "ca")}
    kept["ca"]["words"] = len(WORDS)
    (folder / "SOURCES.json").write_text(json.dumps(kept, ensure_ascii=False), encoding="utf-8")
    for code, entry in kept.items():
        (folder / f"{code}.LICENSE").write_bytes((ROOT / f"{code}.LICENSE").read_bytes())
        if code != "ca":
            (folder / str(entry["file"])).symlink_to(ROOT / str(entry["file"]))
    (folder / str(kept["ca"]["file"])).write_bytes(gzip.compress("".join(w + "\n" for w in WORDS).encode(), mtime=0))
    monkeypatch.setenv("ARBITRE_LEXICONS", str(folder))
    return folder


@pytest.mark.parametrize("typed", ["COL.LEGI", "COL-LEGI", "COL·LEGI", "col.legi"])
def test_arbitre_score_reads_the_dot_as_l_l(typed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--edition", "ca", "--json", f"H8 {typed}"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert [(s["words"][0]["word"], s["score"]) for s in scored] == [("COL·LEGI", COLLEGI)]


def test_arbitre_check_and_top_read_the_dot_as_l_l(catalan_list: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typed = ["COL.LEGI", "COL-LEGI", "COL·LEGI", "col.legis", "COL.LEGA"]
    assert main(["check", "--lexicon", "ca", "--json", *typed]) == 1  # one invalid word
    verdicts = json.loads(capsys.readouterr().out)
    assert verdicts["words"] == {"COL·LEGI": True, "COL·LEGIS": True, "COL·LEGA": False}, verdicts
    assert main(["top", "--edition", "ca", "--rack", "COL.LEGI", "--json", "--count", "1"]) == 0
    best = json.loads(capsys.readouterr().out)["plays"][0]
    assert (best["word"], best["score"]) == ("COL·LEGI", COLLEGI)


def test_the_chat_scores_plays_and_challenges_col_legi(catalan_list: Path, tmp_path: Path) -> None:
    script = "\n".join(
        [
            "Ana: /reglages edition ca",
            "Ana: /calcul H8 COL.LEGI",
            "Ana: /calcul H8 COL-LEGI",
            "Ana: /nouvelle Ana Ben",
            "Ana: /coup H8 col.legi",
            "Ben: /conteste",
            "Ana: /verif COL.LEGI COL-LEGI",
        ]
    )
    out = run_console(script + "\n", tmp_path / "ca.sqlite", "--admin", "Ana")
    assert out.count("Calcul (non enregistré) : H8 COL·LEGI\n") == 2, out
    assert out.count(f"= {COLLEGI}") >= 2, out
    assert "Ana : H8 COL·LEGI" in out, out
    assert "Contestation : COL·LEGI valable." in out, out
    assert "COL·LEGI valable, COL·LEGI valable (liste : ca)" in out, out
