"""``arbitre replay``: replay a GCG record and check every recorded score against the board."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:  # imported when the command runs
    from core.gcg import GcgRecord
    from core.gcg_model import GcgEntry


def record_to_json(record: GcgRecord) -> dict[str, Any]:
    """The ``--json`` document: players, the events replayed, the mismatch count, final scores."""
    return {
        "players": [p.nick for p in record.players],
        "events": [
            {
                "line": e.line,
                "player": e.player,
                "type": e.type,
                "move": e.move,
                "recorded": e.recorded,
                "computed": e.computed,
                "cumulative": e.cumulative if e.cumulative is not None else 0,
            }
            for e in record.replayed
        ],
        "mismatches": len(record.mismatches),
        "final": record.final(),
    }


def _number(value: int | None, signed: bool) -> str:
    if value is None:
        return "-"
    return f"{value:+d}" if signed else str(value)


def _row(entry: GcgEntry) -> str:
    signed = entry.type != "play"
    flag = {"mismatch": "!", "rejected": "X"}.get(entry.status, " ")
    line = "" if entry.synthetic else str(entry.line)
    return (
        f"{flag}{line:>5}  {entry.player:<12} {entry.label:<20} "
        f"{_number(entry.recorded, signed):>8} {_number(entry.computed, signed):>8} "
        f"{_number(entry.recorded_cumulative, False):>10} {_number(entry.cumulative, False):>6}"
    )


def print_record(record: GcgRecord, name: str, out: TextIO) -> None:
    """The replay as a table: recorded and recomputed scores, running totals, final scores, mismatches."""
    players = " vs ".join(str(p) for p in record.players)
    lexicon = f"lexicon {record.lexicon}, " if record.lexicon else ""
    print(f"{name}: {players} ({lexicon}rules {record.rules.code})", file=out)
    if record.title:
        print(f"title: {record.title}", file=out)
    print(
        f"{' line':<6}  {'player':<12} {'event':<20} {'recorded':>8} {'computed':>8} {'file total':>10} {'total':>6}",
        file=out,
    )
    for entry in record.replayed:
        print(_row(entry), file=out)
    final = ", ".join(f"{nick} {score}" for nick, score in record.final().items())
    print(f"final: {final}", file=out)
    mismatches = record.mismatches
    if not mismatches:
        print("mismatches: none", file=out)
        return
    print(f"mismatches: {len(mismatches)}", file=out)
    for entry in mismatches:
        where = f"after line {entry.line}" if entry.synthetic else f"line {entry.line}"
        if entry.status == "rejected":
            detail = "refused by the engine"
        else:
            detail = f"recorded {_number(entry.recorded, True)}, computed {_number(entry.computed, True)}"
        print(f"  {where}: {entry.player} {entry.label}: {detail}", file=out)


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    import json

    from core.errors_records import GcgError
    from core.gcg import read_gcg
    from core.rules import rule_set_by_code

    try:
        data = Path(args.file).read_bytes()
    except OSError as error:
        print(f"arbitre replay: {args.file}: {error.strerror or error}", file=err)
        return 1
    rules = rule_set_by_code(args.rules) if args.rules else None
    try:
        record = read_gcg(data, rules=rules)
    except GcgError as error:
        print(f"arbitre replay: {args.file}: {error}", file=err)
        return 1
    if args.json:
        print(json.dumps(record_to_json(record), ensure_ascii=False), file=out)
    else:
        print_record(record, args.file, out)
    if record.error is not None:
        print(f"arbitre replay: {args.file}: {record.error} (replay stopped there)", file=err)
    return 0 if not record.mismatches and record.error is None else 1


def register(sub: Any) -> None:
    from core.rules import RULE_SETS  # the choices of --rules (a small module)

    parser = sub.add_parser(
        "replay",
        help="replay a GCG record and check every recorded score",
        description="Replay a GCG game record, recompute every play from the board and show each recorded "
        "score beside the recomputed one; exit status 1 when a line disagrees.",
    )
    parser.add_argument("file", metavar="FILE.gcg", help="the game record")
    parser.add_argument("--json", action="store_true", help="print a JSON document")
    parser.add_argument(
        "--rules",
        choices=sorted(RULE_SETS),
        help="rule set for the end of game and challenges (default: wespa for CSW lexicons, else naspa)",
    )
    parser.set_defaults(handler=run)
