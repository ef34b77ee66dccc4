"""Statistics of the history, per player and variant (``mahjong-tui stats``; the menu's
History screen, Statistics).

Each finished match kept in the history (:mod:`mahjong_tui.history`) is replayed once and
summed up (:func:`match_summary`); the sums are then added up per player name and variant
(:func:`collect`):

- ``matches``, ``hands``: matches and hands the player sat in;
- ``wins`` / ``win_rate``: hands the player won (a hand won by two players on one discard
  counts for both), over ``hands``;
- ``deal_ins`` / ``deal_in_rate``: hands won on the player's discard (or on the kong robbed
  from him), over ``hands``;
- ``self_draws``: wins by self-draw;
- ``avg_value_won``: the mean value of the player's wins in the variant's unit (``unit``:
  points, fan, tai — as the scoring screen and ``sim`` count it); null with no win;
- ``biggest_hand``: the player's most valuable win: ``{"value", "unit", "patterns": [ids],
  "file", "hand"}`` (``hand`` counted from 1), null with no win;
- ``discards`` / ``same_as_strong`` / ``same_as_strong_rate``: the player's discards, and how
  many of them were the tile ``ai:strong`` would have discarded from his view at that moment
  (:func:`mahjong_tui.review.discard_agreement`, the replay's ``s``); for people only
  (``human`` and LAN seats), null for bots.

A player is his name as the history file records it (``You``, ``Player 2``, a LAN player's
name); a bot is its level (``ai:normal``, ``ai:strong``…), whatever its seat, so that players
are set against the bots they played.  A variant is its id.

The summaries are cached in the history folder (``.stats-cache.json``, 0600) by file name,
size and modification time, so only matches not seen before are replayed (judging every
discard with ``ai:strong`` takes a second or two for a match of 16 hands).  A file that
cannot be read, does not replay (its variant's rules changed since, a file that is no game
log) or holds an unfinished match is left out and named in ``skipped``.

No Textual, no asyncio here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

from .engine.log import GameLog
from .engine.table import Table
from .errors import IllegalAction, LogError, MahjongError
from .history import CACHE_NAME, matches, names_of
from .paths import open_private
from .review import discard_agreement

#: bump when a match summary's fields or their meaning change: the cache is then rebuilt
STATS_VERSION = 1
#: the largest statistics cache read (a few hundred bytes a match)
CACHE_MAX_BYTES = 16 * 2**20


def player_key(seat: str, name: str) -> str:
    """Whom a seat's results count for: a bot's level (``ai`` is ``ai:normal``), else the
    player's ``name``."""
    if seat.startswith("ai"):
        return seat if ":" in seat else "ai:normal"
    return name


def match_summary(path: str | Path) -> dict:
    """One finished match of the history, summed up per seat::

        {"variant": id, "unit": "points", "hands": 16,
         "seats": [{"player", "human", "wins", "self_draws", "deal_ins", "value_won",
                    "biggest": {"value", "unit", "patterns", "hand"} | None,
                    "discards": int | None, "same_as_strong": int | None}, ...]}

    Replays the log once, judging each person's discards with ``ai:strong`` on the way.
    Raises :class:`~mahjong_tui.errors.LogError` (a file that is not a game log, does not
    replay, or an unfinished match) or ``OSError``."""
    p = Path(path)
    log = GameLog.load(p)
    names = names_of(p, log)
    variant = log.load_variant()
    table = Table(variant, log.seed, log.hands)
    people = [s for s in range(4) if not log.seats[s].startswith("ai")]
    try:
        judged = discard_agreement(table, log.actions, people)
    except IllegalAction as exc:
        raise LogError(f"{p}: the log does not replay: {exc}") from None
    if table.phase != "match_over":
        raise LogError(f"{p}: the match is unfinished ({len(table.history)} hands played)")
    seats = []
    for s in range(4):
        discards, same = judged.get(s, (None, None))
        seats.append({"player": player_key(log.seats[s], names[s]), "human": s in people, "wins": 0,
                      "self_draws": 0, "deal_ins": 0, "value_won": 0.0, "biggest": None,
                      "discards": discards, "same_as_strong": same})
    for h in table.history:
        for w in h["winners"]:
            row = seats[w["seat"]]
            value = float(w.get("value") or 0)
            row["wins"] += 1
            row["value_won"] += value
            if h.get("self_draw"):
                row["self_draws"] += 1
            if row["biggest"] is None or value > row["biggest"]["value"]:
                row["biggest"] = {"value": value, "unit": w.get("unit") or "",
                                  "patterns": [pt["id"] for pt in w.get("patterns") or ()], "hand": h["hand"] + 1}
        if h["winners"] and h.get("discarder") is not None:
            seats[h["discarder"]]["deal_ins"] += 1
    return {"variant": variant.id, "unit": str(variant.scoring.get("unit", "")), "hands": len(table.history),
            "seats": seats}


# -- the cache ---------------------------------------------------------------------------------
def _stamp(p: Path) -> list[int] | None:
    try:
        st = p.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def _read_cache(folder: Path) -> dict:
    p = folder / CACHE_NAME
    try:
        if p.stat().st_size > CACHE_MAX_BYTES:
            return {}
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != STATS_VERSION or not isinstance(data.get("matches"), dict):
        return {}
    return data["matches"]


def _write_cache(folder: Path, entries: dict) -> None:
    p = folder / CACHE_NAME
    import threading

    tmp = folder / f"{CACHE_NAME}.{os.getpid()}.{threading.get_ident()}.tmp"  # two counts at once: two files
    try:
        with open_private(tmp, "w") as fh:
            json.dump({"version": STATS_VERSION, "matches": entries}, fh)
        os.replace(tmp, p)
    except OSError:  # a read-only history still gives its statistics
        tmp.unlink(missing_ok=True)


def _cached_summary(entry: object, stamp: list[int] | None) -> dict | None:
    if not isinstance(entry, dict) or stamp is None or entry.get("stamp") != stamp:
        return None
    s = entry.get("summary")
    if not isinstance(s, dict) or not isinstance(s.get("seats"), list) or len(s["seats"]) != 4:
        return None
    return s


def summaries(folder: str | Path, *, use_cache: bool = True,
              progress: Callable[[int, int], None] | None = None) -> tuple[list[tuple[Path, dict]], list[dict]]:
    """The summary (:func:`match_summary`) of every match kept in ``folder``, oldest first,
    and the files left out: ``([(path, summary)], [{"file", "reason"}])``.  With
    ``use_cache`` the cache in the folder is read and brought up to date.  ``progress(done,
    total)`` is called after each file."""
    d = Path(folder)
    files = matches(d)[::-1]
    cache = _read_cache(d) if use_cache else {}
    fresh, out, skipped = {}, [], []
    changed = False
    for i, p in enumerate(files):
        stamp = _stamp(p)
        summary = _cached_summary(cache.get(p.name), stamp)
        if summary is None:
            changed = True
            try:
                summary = match_summary(p)
            except (MahjongError, OSError) as exc:
                reason = str(getattr(exc, "strerror", None) or exc)
                skipped.append({"file": p.name, "reason": reason.removeprefix(f"{p}: ")})
                summary = None
        if summary is not None:
            fresh[p.name] = {"stamp": stamp, "summary": summary}
            out.append((p, summary))
        if progress is not None:
            progress(i + 1, len(files))
    if use_cache and (changed or set(fresh) != set(cache)) and d.is_dir():
        _write_cache(d, fresh)
    return out, skipped


def _rate(n: int, of: int) -> float | None:
    return round(n / of, 4) if of else None


def collect(folder: str | Path, *, variant: str | None = None, player: str | None = None,
            use_cache: bool = True, progress: Callable[[int, int], None] | None = None) -> dict:
    """The statistics of the history in ``folder`` (the ``stats --json`` object, CLI.md)::

        {"history": folder, "matches": N, "skipped": [{"file", "reason"}],
         "players": [{"player", "variant", "unit", "matches", "hands", "wins", "win_rate",
                      "self_draws", "deal_ins", "deal_in_rate", "avg_value_won", "biggest_hand",
                      "discards", "same_as_strong", "same_as_strong_rate"}, ...]}

    ``variant``: only matches of that variant id; ``player``: only that player's rows (the name
    compared without case) and the matches he sat in.  Rates are in 0..1 (4 decimals), null
    where there is nothing to divide by.  Rows are sorted by variant, then most matches first,
    then name."""
    rows: dict[tuple[str, str], dict] = {}
    counted = 0
    found, skipped = summaries(folder, use_cache=use_cache, progress=progress)
    want = player.casefold() if player else None
    for path, m in found:
        if variant is not None and m["variant"] != variant:
            continue
        seats = [s for s in m["seats"] if want is None or s["player"].casefold() == want]
        if not seats:
            continue
        counted += 1
        for s in seats:
            key = (m["variant"], s["player"])
            r = rows.get(key)
            if r is None:
                r = rows[key] = {"player": s["player"], "variant": m["variant"], "unit": m["unit"], "matches": 0,
                                 "hands": 0, "wins": 0, "self_draws": 0, "deal_ins": 0, "value_won": 0.0,
                                 "biggest_hand": None, "discards": None, "same_as_strong": None}
            r["matches"] += 1
            r["hands"] += m["hands"]
            for k in ("wins", "self_draws", "deal_ins"):
                r[k] += s[k]
            r["value_won"] += s["value_won"]
            b = s["biggest"]
            if b is not None and (r["biggest_hand"] is None or b["value"] > r["biggest_hand"]["value"]):
                r["biggest_hand"] = {**b, "file": path.name}
            if s["discards"] is not None:
                r["discards"] = (r["discards"] or 0) + s["discards"]
                r["same_as_strong"] = (r["same_as_strong"] or 0) + s["same_as_strong"]
    players = []
    for r in sorted(rows.values(), key=lambda r: (r["variant"], -r["matches"], r["player"].casefold())):
        value_won = r.pop("value_won")
        r["win_rate"] = _rate(r["wins"], r["hands"])
        r["deal_in_rate"] = _rate(r["deal_ins"], r["hands"])
        r["avg_value_won"] = round(value_won / r["wins"], 3) if r["wins"] else None
        r["same_as_strong_rate"] = _rate(r["same_as_strong"], r["discards"]) if r["discards"] is not None else None
        players.append(r)
    return {"history": str(folder), "matches": counted, "skipped": skipped, "players": players}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def _num(x: float) -> str:
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def format_stats(report: dict) -> str:
    """:func:`collect`'s report as the text ``mahjong-tui stats`` prints: a line on the
    history, then one row per player and variant, then the files left out."""
    n, skipped = report["matches"], report["skipped"]
    head = f"History: {report['history']} ({n} match{'es' if n != 1 else ''}"
    head += f"; {len(skipped)} file{'s' if len(skipped) != 1 else ''} left out)" if skipped else ")"
    lines = [head]
    if report["players"]:
        lines.append(f"  {'player':<16}{'variant':<11}{'matches':>8}{'hands':>7}{'win %':>7}{'deal-in %':>10}"
                     f"{'avg won':>9}  {'biggest hand':<16}{'as ai:strong':>14}")
        for r in report["players"]:
            avg = "-" if r["avg_value_won"] is None else _num(r["avg_value_won"])
            b = r["biggest_hand"]
            big = "-" if b is None else f"{_num(b['value'])} {b['unit']}".strip()
            same = "-" if r["discards"] is None else f"{_pct(r['same_as_strong_rate'])}% of {r['discards']}"
            lines.append(f"  {r['player'][:15]:<16}{r['variant'][:10]:<11}{r['matches']:>8}{r['hands']:>7}"
                         f"{_pct(r['win_rate']):>7}{_pct(r['deal_in_rate']):>10}{avg:>9}  {big[:15]:<16}{same:>14}")
    else:
        lines.append("  (no finished match kept yet: every match played here or hosted is kept when it ends)")
    for s in skipped:
        lines.append(f"  left out {s['file']}: {s['reason']}")
    return "\n".join(lines)
