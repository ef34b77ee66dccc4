"""The ``mahjong-tui`` command line (``CLI.md``).

Headless commands (``sim``, ``score``, ``analyze``, ``variants``, ``--help``) never import
Textual; the table commands import the UI lazily.  Errors a user can cause print one line on
stderr and exit 2.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any, Sequence

from . import __version__
from . import tiles as T
from .errors import HandError, MahjongError
from .net.args import add_net_arguments, bot_delay  # argparse only: no asyncio, no Textual
from .scoring.context import SITUATIONS
from .seats import seat_problem

WIND_BY_LETTER = {"E": T.EAST, "S": T.SOUTH, "W": T.WEST, "N": T.NORTH}


class CliError(MahjongError):
    """A bad command-line value."""


def _wind(value: str) -> int:
    v = value.strip().upper()[:1]
    if v not in WIND_BY_LETTER:
        raise argparse.ArgumentTypeError(f"{value!r} is not a wind; use E, S, W or N")
    return WIND_BY_LETTER[v]


def _tile(value: str) -> int:
    """One tile (``--indicator``): its code.  ArgumentTypeError says what a tile looks like."""
    from .errors import NotationError

    try:
        return T.parse_tile(value.strip())
    except NotationError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a tile; a tile is written like 5t, 9s, E, C or Z") from None


def _seats(value: str) -> list[str]:
    parts = [p.strip() for p in value.split(",")]
    if len(parts) != 4:
        raise argparse.ArgumentTypeError(f"--seats needs 4 comma-separated seats, got {len(parts)}")
    for p in parts:
        problem = seat_problem(p)  # the rule of every seat list (mahjong_tui.seats)
        if problem:
            raise argparse.ArgumentTypeError(problem)
    return parts


def _jobs(value: str) -> int:
    """``--jobs N``: worker processes, 0 = every core."""
    try:
        n = int(value)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of worker processes; give 1 or more, or 0 for every core")
    return n


def _bot_seats(value: str) -> list[str]:
    """``sim --seats``: four bots (``ai``, ``ai:LEVEL``); nobody sits at a headless table."""
    parts = _seats(value)
    for p in parts:
        if p.split(":", 1)[0] != "ai":
            raise argparse.ArgumentTypeError(f"seat {p!r}: sim plays bots only: ai or ai:LEVEL "
                                             f"(easy, normal, strong, baseline)")
    return parts


def seat_names(text: str | None, seats: Sequence[str]) -> list[str | None] | None:
    """``play --names A,B``: the names of the human seats of ``seats``, in seat order (seat 1
    first); a blank entry keeps that seat's usual name (You, Player N).  Returns four entries
    by seat (None where no name is given), or None without ``--names``.  Raises
    :class:`CliError` for more names than human seats, or a name over 40 characters or with
    control characters in it."""
    if text is None:
        return None
    from .history import NAME_CHARS

    humans = [i for i, s in enumerate(seats) if s.split(":", 1)[0] == "human"]
    given = [n.strip() for n in text.split(",")]
    if len(given) > len(humans):
        raise CliError(f"--names {text!r}: {len(given)} names for {len(humans)} human seat"
                       f"{'' if len(humans) == 1 else 's'}; give one name for each human seat of --seats, "
                       "in seat order (a blank one keeps the usual name)")
    out: list[str | None] = [None] * 4
    for seat, name in zip(humans, given):
        if len(name) > NAME_CHARS or not name.isprintable():
            raise CliError(f"--names: {name[:50]!r} is not a name: at most {NAME_CHARS} printable characters, "
                           "no commas")
        out[seat] = name or None
    return out


def build_parser(parser_class: type[argparse.ArgumentParser] = argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The whole command line; ``parser_class`` builds the parser and its subcommands'."""
    p = parser_class(prog="mahjong-tui", description="A four-seat mahjong table for the terminal.")
    p.add_argument("--version", action="version", version=f"mahjong-tui {__version__}")
    p.add_argument("--ascii", action="store_true", help="pure-ASCII tiles, no colour dependence")
    p.add_argument("--faces", default=None, help="tile faces: compact, cjk, ascii, unicode (one line a tile), or large, large-ascii (boxed tiles wherever they fit); default: the settings' face set, else by the terminal (boxed where it has room)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def table_opts(sp: argparse.ArgumentParser, seats_default: str) -> None:
        sp.add_argument("--variant", default="classic", help="variant id or path to a variant TOML")
        sp.add_argument("--seats", type=_seats, default=_seats(seats_default),
                        help="four seats: human, ai, ai:LEVEL, remote (seat 1 is East of the first hand, unless the variant rolls for the first dealer)")
        sp.add_argument("--seed", type=int, default=None, help="game seed (default: random)")
        sp.add_argument("--hands", type=int, default=None, help="number of hands (default: the variant's match)")
        add_option_argument(sp)

    sp = sub.add_parser("play", help="start a table at once")
    table_opts(sp, "human,ai,ai,ai")
    sp.add_argument("--bot-delay", type=bot_delay, default=None, metavar="S",
                    help="seconds a bot pauses before acting (0 to 10; default: the settings' bot pause, 0.4)")
    sp.add_argument("--names", default=None, metavar="A,B,...",
                    help="names of the human seats in seat order, shown at the table and kept in the "
                         "history and stats (a blank one keeps the usual name: You, Player N)")
    for name, helptext in (("host", "serve a LAN table and play at it"), ("serve", "serve a LAN table headless")):
        sp = sub.add_parser(name, help=helptext)
        table_opts(sp, "human,remote,remote,remote" if name == "host" else "remote,remote,remote,remote")
        sp.add_argument("--port", type=int, default=7777)
        sp.add_argument("--bind", default="127.0.0.1")
        sp.add_argument("--password", default=None)
        add_net_arguments(sp, name)
    sp = sub.add_parser("join", help="join a LAN table")
    sp.add_argument("address", metavar="HOST:PORT")
    sp.add_argument("--name", default=None)
    sp.add_argument("--password", default=None)
    sp.add_argument("--bot", default=None, metavar="LEVEL")
    add_net_arguments(sp, "join")

    sp = sub.add_parser("sim", help="play hands headless between bots and print statistics")
    sp.add_argument("--variant", default="classic")
    sp.add_argument("--hands", type=int, default=100)
    sp.add_argument("--seed", type=int, default=None)
    sp.add_argument("--seats", type=_bot_seats, default=["ai", "ai", "ai", "ai"],
                    help="four bots: ai, ai:LEVEL (easy, normal, strong, baseline)")
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--log", default=None, metavar="FILE", help="write the game log to FILE")
    sp.add_argument("--duplicate", action="store_true",
                    help="duplicate play: --hands K deals, each played four times with the seats rotated "
                         "(every level at every seat on the same wall); adds by_level and paired")
    sp.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                    help="worker processes for --duplicate (default 1; 0 = every core); the results do not depend on it")
    add_option_argument(sp)

    sp = sub.add_parser("lab", help="the rule designer's lab: sweep variant options, seats and seeds; "
                                    "a report with charts, JSON and CSV")
    sp.add_argument("--variant", default="classic", help="variant id or path to a variant TOML")
    sp.add_argument("--sweep", action="append", default=[], metavar="KEY=V1,V2,...",
                    help="an option (named, or SECTION.KEY) and the values to try, e.g. win.minimum=2.5,3,4; "
                         "repeatable: the grid is every combination")
    sp.add_argument("--seats", type=_bot_seats, action="append", default=None,
                    help="four bots (ai, ai:LEVEL); repeatable: each list is a value of the grid (default ai,ai,ai,ai)")
    sp.add_argument("--seed", type=int, action="append", default=None,
                    help="game seed; repeatable: each seed is a value of the grid (default 1)")
    sp.add_argument("--hands", type=int, default=200, help="hands a cell (default 200)")
    sp.add_argument("--game-hands", type=int, default=16, metavar="G",
                    help="hands a game: a cell's hands are played as tables of G hands (default 16)")
    sp.add_argument("--jobs", type=_jobs, default=0, metavar="N",
                    help="local worker processes (default 0 = every core; 1 = in this process); the results do not depend on it")
    sp.add_argument("--cluster", default=None, metavar="ADDRESS",
                    help="run on the Dask scheduler at ADDRESS (tcp://HOST:8786) instead; "
                         "needs pip install 'mahjong-tui[cluster]'")
    sp.add_argument("--out", default="lab-report", metavar="DIR",
                    help="folder of the report: report.md, its SVG charts, cells.json, cells.csv (default lab-report)")
    sp.add_argument("--json", action="store_true", help="also print the cells' JSON on standard output")
    add_option_argument(sp)

    sp = sub.add_parser("score", help="score a finished hand")
    sp.add_argument("--variant", default="classic")
    sp.add_argument("--seat-wind", type=_wind, default=T.EAST)
    sp.add_argument("--prevailing-wind", type=_wind, default=T.EAST)
    sp.add_argument("--by", choices=("self-draw", "discard"), default="discard",
                    help="how the winning tile was obtained (default discard); a win on a kong or flower "
                         "replacement, a bloom tile or a heavenly hand is a self-draw whatever this says")
    sp.add_argument("--situation", action="append", default=[], choices=[s for s in SITUATIONS if s != "kong_claimable_discard"],
                    help="how the hand was won (repeatable). Refused (exit 2) when the hand cannot have got there: "
                         "kong_replacement and bloom_tile need a kong in the hand, double_kong_replacement two, "
                         "flower_replacement a bonus tile, last_wall_replacement a kong or a bonus tile; "
                         "robbing_kong of T: the robbed player holds three other copies of T, so the hand holds T "
                         "once, the robbed tile included, and it is no self-draw; heavenly: the winner is East; "
                         "earthly: the winner is not East, won on East's discard")
    sp.add_argument("--indicator", action="append", default=[], type=_tile, metavar="T",
                    help="a face-up indicator tile (Uzje; repeatable): a tile of the set, no copy beyond those the "
                         "hand leaves, at most as many as the dead wall holds")
    add_option_argument(sp)
    sp.add_argument("--discarder", type=_wind, default=None)
    sp.add_argument("--fed-third-meld", "--liable", dest="fed_third_meld", type=_wind, default=None,
                    help="seat wind of the player who fed the meld that makes him pay for all "
                         "(Yangzhou: the third exposed meld; Singapore: the 3rd dragon pung, 4th wind pung "
                         "or 4th exposed meld, in the order written). Refused (exit 2) when the hand has "
                         "no such meld; with it, he pays the whole payout (no --discarder needed) when the "
                         "hand scores that meld's pattern (Yangzhou: full_flush, pure_all_triplets, "
                         "pure_dragon, all_honours; Singapore: big_three_dragons, big_four_winds, "
                         "full_flush, all_honours), else the hand settles as usual")
    sp.add_argument("--json", action="store_true")
    sp.add_argument("hand", metavar="HAND", help="hand string, or - to read one per line from stdin")

    sp = sub.add_parser("analyze", help="shanten and waits (13 tiles) or best discards (14 tiles)")
    sp.add_argument("--variant", default="classic")
    sp.add_argument("--json", action="store_true")
    sp.add_argument("hand", metavar="HAND", help="hand string, or - to read one per line from stdin")

    sp = sub.add_parser("resume", help="continue a saved match")
    sp.add_argument("file", nargs="?", default=None,
                    help="the saved game (default: the most recent unfinished game in the saves folder)")
    sp = sub.add_parser("replay", help="step through a saved game")
    sp.add_argument("file")
    sp = sub.add_parser("variants", help="list the variants")
    sp.add_argument("--json", action="store_true")
    sp = sub.add_parser("stats", help="statistics of the finished matches kept in the history, per player and variant")
    sp.add_argument("--json", action="store_true", help="print one JSON object (CLI.md) instead of the table")
    sp.add_argument("--variant", default=None, metavar="V", help="only the matches of variant V")
    sp.add_argument("--player", default=None, metavar="NAME", help="only the player NAME (any case)")
    return p


# --------------------------------------------------------------------------------------
# score / analyze
# --------------------------------------------------------------------------------------
def _hand_context(variant, text: str, args: argparse.Namespace):
    """Build the HandContext of ``score`` (CLI.md "Context flags") on top of
    :func:`mahjong_tui.scoring.common.context_from_notation`, and check that the hand is a
    possible finished hand of ``variant`` (common.md "Possible hands"), won in situations it can
    have been won in, with the indicators and the liable player the table could show
    (:func:`~mahjong_tui.scoring.common.check_situations`, :func:`_check_liable`).  Raises
    NotationError / HandError."""
    from .scoring.common import check_situations, context_from_notation

    spec = T.parse_hand(text)
    for b in spec.bonus:
        if b not in variant.bonus_kinds:
            raise HandError(f"bonus tile {T.name(b)} is not used in the {variant.name} variant")
    # robbing the eighth flower (Singapore, singapore.md "Tai table") is won holding 13 tiles
    sizes = (13, 14) if "robbing_the_eighth" in args.situation else (14,)
    if spec.tile_count() not in sizes:
        robbing = "; 13 when robbing the eighth flower" if variant.win.get("bonus_wins") else ""
        raise HandError(f"a finished hand has 14 tiles (melds count 3, kongs too{robbing}); "
                        f"this one has {spec.tile_count()}")
    for flag, seat in (("--discarder", args.discarder), ("--fed-third-meld", args.fed_third_meld)):
        if seat is not None and seat == args.seat_wind:
            raise CliError(f"{flag} {T.name(seat)} is the winner's own seat (--seat-wind); name another seat")
    # --discarder is passed whatever --by says: the scorer decides (scoring.common.won_context)
    # whether the win was on a discard (robbing the eighth flower is; a replacement is not).
    # No --discarder: unknown, except that an earthly win is on East's discard (payments_for_score)
    ctx = context_from_notation(
        text, self_draw=args.by == "self-draw", seat_wind=args.seat_wind, prevailing_wind=args.prevailing_wind,
        situations=args.situation, discarder=args.discarder,
        fed_third_meld=args.fed_third_meld, indicators=tuple(args.indicator),
        variant=variant,
    )
    check_situations(variant, ctx)   # a replacement needs a kong, a robbed tile is no fifth copy, ...
    if args.fed_third_meld is not None:
        _check_liable(variant, ctx, args.fed_third_meld)
    return ctx


def _check_liable(variant, ctx, seat: int) -> None:
    """``--liable`` names the player who fed the meld that makes him pay for all: the hand must
    hold such a meld (:func:`~mahjong_tui.scoring.settlement.held_liability_rules`), else
    HandError saying which meld that is.  With the meld held he pays for all only when the hand
    scores that rule's pattern; otherwise the hand settles as usual."""
    from .scoring.settlement import held_liability_rules, liability_meld_words

    words = liability_meld_words(variant)
    if words is None:
        raise HandError(f"--liable {T.name(seat)}: nobody pays for all in {variant.name}; leave --liable out")
    if not held_liability_rules(variant, ctx):
        raise HandError(f"--liable {T.name(seat)}: in {variant.name} the player who pays for all fed {words}, "
                        f"and this hand has no such meld (exposed melds are written (...), in the order they were "
                        f"made; the meld the winning tile completed does not count); leave --liable out")


def add_option_argument(sp: argparse.ArgumentParser) -> None:
    """``--option KEY=VALUE`` (repeatable): a named option of the variant (``flowers=true``)
    or any ``SECTION.KEY`` of its file; read by :func:`variant_from_args`."""
    sp.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="set a variant option, e.g. flowers=true (Uzje), or SECTION.KEY=VALUE; repeatable")


def variant_from_args(args):
    """The variant of ``--variant`` with the ``--option`` overrides applied (every command
    that takes ``--option``).  Raises :class:`~mahjong_tui.errors.VariantError` saying what
    is wrong and what is allowed."""
    from .variant import load_variant, parse_option_assignments

    return load_variant(args.variant, parse_option_assignments(getattr(args, "option", None) or []))


def _score_waiting_hand(variant, text: str, args) -> dict:
    """DMJL and BMJA score every player's hand (dmjl.md "Scoring"): a 13-tile hand with no
    ``+T`` is scored as a non-winner's hand (``winning`` false, ``value`` its own score)."""
    from .scoring import score_loser
    from .scoring.common import context_from_notation

    ctx = context_from_notation(text, seat_wind=args.seat_wind, prevailing_wind=args.prevailing_wind,
                                winner=False, variant=variant)
    res = score_loser(variant, ctx)
    return {"variant": variant.id, "winning": False, "form": None,
            "patterns": [{"id": p.id, "value": p.value, "count": p.count} for p in res.patterns],
            "value": res.value, "unit": res.unit, "payments": None,
            "reason": "a waiting hand of 13 tiles, scored as a non-winner's hand", "_breakdown": res}


def score_hand(variant, text: str, args) -> dict:
    """Score one hand string; returns the ``score --json`` object."""
    from .scoring import evaluate
    from .scoring.common import chows_claimed_only_to_win

    spec = T.parse_hand(text)
    if spec.tile_count() == 13 and spec.winning is None and variant.scoring.get("scheme") == "classical":
        return _score_waiting_hand(variant, text, args)
    if spec.winning is not None:
        texts = [text]
    else:
        # no +T: the calculator tries each concealed kind as the winning tile, best first (and,
        # where chows are claimed only to win, each tile of an exposed chow: it was the winning one)
        kinds = set(spec.concealed)
        if chows_claimed_only_to_win(variant):
            kinds.update(t for m in spec.melds if not m.concealed and len(set(m.tiles)) == 3 for t in m.tiles)
        texts = [f"{text} +{T.name(t)}" for t in sorted(kinds)] or [text]
    best = None
    refused = None
    for cand in texts:
        try:
            ctx = _hand_context(variant, cand, args)
        except HandError as exc:
            if len(texts) == 1:
                raise
            refused = refused or exc   # this tile cannot be the winning one; another may
            continue
        res = evaluate(variant, ctx)
        key = (res.winning, res.points if res.points is not None else res.value)
        if best is None or key > best[0]:
            best = (key, res)
    if best is None:
        raise refused
    res = best[1]
    out: dict[str, Any] = {"variant": variant.id, "winning": res.winning, "form": res.form,
                           "patterns": [{"id": p.id, "value": p.value, "count": p.count} for p in res.patterns],
                           "value": res.value, "unit": res.unit,
                           "payments": dict(res.payments) if res.payments is not None else None}
    if res.points is not None:
        out["points"] = res.points
    if not res.winning:
        out["reason"] = res.reason or "not a winning hand"
    out["_breakdown"] = res
    return out


def _print_score(out: dict, variant=None) -> None:
    """``score``'s text: the decomposition, the breakdown, the arithmetic of the total
    (:func:`mahjong_tui.scoring.explain.arithmetic`, where ``variant`` is given), the total,
    points and payments."""
    res = out.pop("_breakdown")
    if not out["winning"]:
        print(f"Not a win: {out['reason']}")
        if not res.patterns:
            return
    else:
        print(f"{out['variant']}: {out['form']} hand")
    if res.decomposition:
        print("  " + "  ".join(res.decomposition))
    for p in res.patterns:
        kind = f"{out['unit']} (limit)" if p.kind == "limit" else p.kind
        kind = kind[:-1] if p.value == 1 and kind.endswith("s") else kind   # 1 doubling, 1 point
        count = f"x{p.count}" if p.count != 1 else ""
        print(f"  {p.id:<32}{_fmt(p.value):>6} {kind:<12}{count:<4}{p.description or ''}".rstrip())
    if variant is not None and out["winning"]:
        from .scoring.explain import arithmetic

        for line in arithmetic(variant, res):   # the one place the arithmetic is written down
            print(f"  = {line}")
    print(f"  {'total':<32}{_fmt(out['value']):>6} {out['unit']}")
    if out.get("points") is not None:
        print(f"  points: {_fmt(out['points'])}")
    if out["payments"]:
        print("  payments: " + ", ".join(f"{k} {'+' if v > 0 else ''}{_fmt(v)}" for k, v in out["payments"].items()))


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def analyze_hand(variant, text: str) -> dict:
    """The ``analyze --json`` object for a 13- or 14-tile hand (CLI.md)."""
    from .hand import HandShape

    spec = T.parse_hand(text)
    if spec.melds:   # the melds read and checked as score reads them
        from .scoring.common import context_from_notation

        melds = context_from_notation(text, variant=variant).melds
    else:   # concealed tiles only: the same checks without parsing the hand a second time
        _check_concealed(variant, spec)
        melds = ()
    n = spec.tile_count()
    shape = variant.hand_shape
    counts = T.counts_of(spec.concealed)
    k = len(melds)
    runs = [m.tiles for m in melds]
    if n == 13:
        forms = shape.shanten_by_form(counts, k)
        sh = min(forms.values(), default=None)
        # a plain shape waits only when ready (exact 4-copy shanten); the zero's readings and
        # the straight with declared runs are asked in every case
        waits = (shape.waits(counts, k) if sh is None or sh <= 0 or type(shape) is not HandShape else [])
        if runs:
            waits = sorted(set(waits) | set(shape.straight_waits(counts, runs)))
        return {"tiles": 13, "shanten": 0 if waits else shape.shanten(counts, k) if sh is None else sh,
                "forms": forms, "waits": [T.name(t) for t in waits]}
    if n == 14:
        discards = []
        for t in sorted(set(spec.concealed)):
            counts[t] -= 1
            sh = shape.shanten(counts, k)
            waits = sorted(set(shape.waits(counts, k) if sh == 0 else ()) | set(shape.straight_waits(counts, runs)))
            sh = 0 if waits else sh
            # unseen copies of each wait: not in the hand, its melds, nor the pond (the tile just discarded)
            accepting = sum(max(0, variant.copies_of(w) - counts[w] - sum(m.tiles.count(w) for m in melds)
                                - (w == t)) for w in waits)
            counts[t] += 1
            discards.append({"tile": T.name(t), "shanten": sh, "waits": [T.name(w) for w in waits], "accepting": accepting})
        discards.sort(key=lambda d: (d["shanten"], -d["accepting"]))
        winning = shape.is_complete(counts, k) or shape.straight_with_melds(counts, runs)
        out = {"tiles": 14, "winning": winning, "shanten": -1 if winning else shape.shanten(counts, k),
               "discards": discards}
        if winning:
            out["scored"] = _scored_both_ways(variant, text)
        return out
    raise HandError(f"analyze takes 13 or 14 tiles (melds count 3); this hand has {n}")


def _check_concealed(variant, spec) -> None:
    """The checks ``context_from_notation`` makes of a hand with no meld: the winning tile
    ``+T`` is among the concealed tiles, and the variant has every tile that many times
    (:meth:`Variant.check_hand`).  Raises :class:`HandError`."""
    physical = variant.physical
    win = spec.winning
    if win is not None and not T.is_bonus(win) and physical(win) not in map(physical, spec.concealed):
        raise HandError(f"the winning tile {T.name(physical(win))} is not in the hand")
    variant.check_hand(spec.concealed, (), spec.bonus)


def _scored_both_ways(variant, text: str) -> dict:
    """A complete 14-tile hand scored by ``score`` (East seat, East round, no situation) when
    self-drawn and when won on a discard: ``{"self-draw": {"winning", "value", "unit"[,
    "reason"]}, "discard": {...}}``.  ``winning`` of ``analyze`` is the shape alone (common.md "Wait set");
    this says whether that shape is a legal win as it stands (Yangzhou's 15 fan, Singapore's
    1 tai, Uzje's 2.5 fan, Yuxi's self-draw-only basic win)."""
    out = {}
    for by in ("self-draw", "discard"):
        # score's own defaults (one place: its parser), only --by set
        ns = build_parser().parse_args(["score", "--variant", variant.id, "--by", by, text])
        res = score_hand(variant, text, ns)
        out[by] = {k: res[k] for k in ("winning", "value", "unit", "reason") if k in res}
    return out


def _print_analysis(out: dict) -> None:
    if out["tiles"] == 13:
        state = "ready (tenpai)" if out["shanten"] == 0 else f"{out['shanten']} from ready"
        print(f"13 tiles, shanten {out['shanten']}: {state}")
        print("  by form: " + ", ".join(f"{f} {s}" for f, s in out["forms"].items()))
        if out["waits"]:
            print("  waits: " + " ".join(out["waits"]))
        return
    if not out["winning"]:
        print(f"14 tiles: not complete; shanten {out['shanten']}")
    else:
        print("14 tiles: a complete hand; as scored for East in the East round with no situation:")
        for by, r in out["scored"].items():
            verdict = (f"a win, {_fmt(r['value'])} {r['unit']}" if r["winning"]
                       else f"not a win ({r.get('reason', 'not a winning hand')})")
            print(f"  {'self-drawn' if by == 'self-draw' else 'on a discard'}: {verdict}")
    for d in out["discards"][:8]:
        waits = (" waits " + " ".join(d["waits"]) + f" ({d['accepting']} tiles)") if d["waits"] else ""
        print(f"  discard {d['tile']:<3} -> shanten {d['shanten']}{waits}")


class _LineParser(argparse.ArgumentParser):
    """The parser of one batch line's ``"flags"``: an error raises :class:`CliError` with
    argparse's message instead of printing the usage and exiting (the batch goes on)."""

    def error(self, message: str):
        raise CliError(message)

    def print_help(self, file=None):
        raise CliError("--help is not allowed in a batch line")

    def exit(self, status: int = 0, message: str | None = None):
        raise CliError((message or "").strip() or "flags that exit are not allowed in a batch line")


def _batch_line(args, line: str) -> tuple[argparse.Namespace, str]:
    """``(flags, hand string)`` of one batch line (CLI.md "Batch mode"): a hand string, or a
    JSON object ``{"hand": "...", "flags": ["--by", "self-draw"]}`` whose flags replace the
    command's (the variant stays).  Raises :class:`CliError` saying what the line lacks."""
    if not line.startswith("{"):
        return args, line
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise CliError(f"a line starting with '{{' must be a JSON object: {exc}") from None
    if not isinstance(obj, dict):
        raise CliError('a JSON line must be an object {"hand": "...", "flags": [...]}')
    text = obj.get("hand")
    if not isinstance(text, str):
        raise CliError(f'a JSON line needs "hand": a hand string, got {json.dumps(text)}')
    flags = obj.get("flags") or []
    if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
        raise CliError(f'"flags" must be a list of strings, e.g. ["--by", "self-draw"], got {json.dumps(flags)}')
    if not flags:
        return args, text
    parser = build_parser(parser_class=_LineParser)
    return parser.parse_args([args.command, "--variant", args.variant, *flags, text]), text


def _stdin_chunks():
    """Standard input as lists of lines, each list the lines that had arrived when it was read
    (a program that writes one line and waits gets its answer at once; a file or a long pipe
    is read in large chunks).  A ``sys.stdin`` without a file descriptor (a test's StringIO)
    yields a line at a time."""
    import os

    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        for line in sys.stdin:
            yield [line]
        return
    rest = b""
    while True:
        data = os.read(fd, 1 << 16)
        if not data:
            break
        lines = (rest + data).split(b"\n")
        rest = lines.pop()
        if lines:
            yield [x.decode("utf-8", "replace") for x in lines]
    if rest:
        yield [rest.decode("utf-8", "replace")]


def _batch(args, fn) -> int:
    """Batch mode: one result (or ``{"error": ...}``) per line of standard input, written out
    each time the lines that have arrived are answered."""
    for chunk in _stdin_chunks():
        answers: list[str] = []
        write = answers.append
        for line in chunk:
            line = line.strip()
            if not line:
                continue
            try:
                sub_args, text = _batch_line(args, line)
                out = fn(sub_args, text)
                out.pop("_breakdown", None)
                write(json.dumps(out) + "\n")
            except (MahjongError, ValueError) as exc:
                write(json.dumps({"error": str(exc) or "bad line"}) + "\n")
        sys.stdout.write("".join(answers))
        sys.stdout.flush()
    return 0


def cmd_score(args) -> int:
    variant = variant_from_args(args)
    if args.hand == "-":
        return _batch(args, lambda a, text: score_hand(variant_from_args(a), text, a))
    out = score_hand(variant, args.hand, args)
    if args.json:
        out.pop("_breakdown")
        print(json.dumps(out))
    else:
        _print_score(out, variant)
    return 0


def cmd_analyze(args) -> int:
    from .variant import load_variant

    variant = load_variant(args.variant)
    if args.hand == "-":
        return _batch(args, lambda a, text: analyze_hand(variant, text))
    out = analyze_hand(variant, args.hand)
    if args.json:
        print(json.dumps(out))
    else:
        _print_analysis(out)
    return 0


def cmd_variants(args) -> int:
    from .variant import available_variants, load_variant

    rows = []
    for vid in available_variants():
        v = load_variant(vid)
        rows.append({"id": v.id, "name": v.name, "tiles": v.tile_count, "summary": v.summary})
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            count = f"{r['tiles']} tiles"
            summary = r["summary"] if r["summary"].startswith(count) else f"{count}; {r['summary']}"
            print(f"{r['id']:<10} {r['name']:<32} {summary}")
    return 0


def _sim_progress(label: str, hands: int, command: str = "sim"):
    """A rich progress bar on standard error and the callback that moves it:
    ``(progress(n), bar)``, ``n`` = hands played so far (redrawn every 10 hands and at the
    last); the caller starts and stops ``bar``.  ``(None, None)`` when standard error is not a
    terminal (nothing to draw on)."""
    import time

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        return None, None
    bar = Progress(TextColumn(f"[bold]{command}[/] {{task.description}}"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("{task.fields[rate]} hands/s"), TimeRemainingColumn(), transient=True,
                   console=console)
    task = bar.add_task(label, total=hands, rate="-")
    t0 = time.perf_counter()

    shown = [0]

    def progress(n: int) -> None:
        if n // 10 > shown[0] // 10 or n == hands:   # every 10 hands (work done in pieces: when one is passed)
            shown[0] = n
            dt = time.perf_counter() - t0
            bar.update(task, completed=n, rate=f"{n / dt:.0f}" if dt > 0 else "-")

    return progress, bar


def cmd_sim(args) -> int:
    from .sim import format_seat_table, simulate
    from .variant import option_assignments

    variant = variant_from_args(args)
    if args.hands < 1:
        raise CliError("--hands must be at least 1")
    if args.log is not None:  # before the simulation, not after it (the log is written at the end)
        from .paths import check_writable

        try:
            check_writable(args.log)
        except OSError as exc:
            raise CliError(f"--log {args.log}: cannot be written ({exc.strerror or exc}); "
                           "give a file in a folder you can write to") from None
    if args.duplicate and args.log is not None:
        raise CliError("--log writes one match; --duplicate plays every deal at four one-hand tables: "
                       "leave one of them out")
    if args.jobs != 1 and not args.duplicate:
        raise CliError(f"--jobs {args.jobs} needs --duplicate: without it the hands are one match, each hand "
                       "dealt by the last one's dealer, so they are played one after another")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if args.duplicate:
        return _sim_duplicate(args, variant, seed)
    progress, prog_ctx = _sim_progress(variant.id, args.hands) if args.hands >= 50 else (None, None)
    if prog_ctx is not None:
        prog_ctx.start()
    try:
        res = simulate(variant, args.hands, seed, args.seats, progress, log_path=args.log, variant_ref=args.variant)
    except OSError as exc:  # the log could not be written after all (the disk filled up, ...)
        if args.log is None or isinstance(exc, BrokenPipeError):
            raise
        raise CliError(f"--log {args.log}: cannot be written ({exc.strerror or exc})") from None
    finally:
        if prog_ctx is not None:
            prog_ctx.stop()
    if args.json:
        print(json.dumps(res.to_json()))
        return 0
    opts = "".join(f", {a}" for a in option_assignments(res.options))
    print(f"{variant.name}: {res.hands} hands, seed {seed}, seats {','.join(args.seats)}{opts}")
    print(_wins_line(res))
    print(format_seat_table(res))  # wins, deal-ins, final score by seat; exhaustive draws
    _print_patterns(res)
    print(f"  {res.hands_per_s:.1f} hands/s ({res.elapsed_s:.2f} s)")
    return 0


def _wins_line(res) -> str:
    """The text summary's line of how ``sim`` hands were won (a :class:`~.sim.SimResult`)."""
    return (f"  self-draw wins {res.self_draw_wins}, discard wins {res.discard_wins}"
            + (f", multiple-winner hands {res.multiple_winner_hands}" if res.multiple_winner_hands else ""))


def _print_patterns(res) -> None:
    """The text summary's pattern frequencies, most frequent first."""
    if res.patterns:
        print("  patterns:")
        for pid, n in sorted(res.patterns.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"    {pid:<34}{n:>7}")


def _sim_duplicate(args, variant, seed: int) -> int:
    """``sim --duplicate``: ``--hands`` deals, each played four times (CLI.md)."""
    from .sim import format_level_table, format_seat_table, simulate_duplicate
    from .variant import option_assignments
    from .workers import resolve_jobs

    jobs = resolve_jobs(args.jobs)
    progress, bar = _sim_progress(variant.id, 4 * args.hands) if 4 * args.hands >= 50 else (None, None)
    try:
        dup = simulate_duplicate(variant, args.hands, seed, args.seats, jobs=jobs, progress=progress,
                                 start=bar.start if bar is not None else None)
    finally:
        if bar is not None:
            bar.stop()
    res = dup.sim
    if args.json:
        print(json.dumps(dup.to_json()))
        return 0
    opts = "".join(f", {a}" for a in option_assignments(res.options))
    print(f"{variant.name}: duplicate, {dup.deals} deals x 4 rotations = {res.hands} hands, seed {seed}, "
          f"seats {','.join(args.seats)}{opts}")
    print(_wins_line(res))
    print("  by level (points per hand in the variant's settled unit):")
    print(format_level_table(dup))
    print("  by table seat:")
    print(format_seat_table(res))
    _print_patterns(res)
    print(f"  {res.hands_per_s:.1f} hands/s ({res.elapsed_s:.2f} s, {jobs} job{'s' if jobs != 1 else ''})")
    return 0


def cmd_stats(args) -> int:
    from .paths import history_dir
    from .stats import collect, format_stats

    variant = None
    if args.variant is not None:
        from .variant import load_variant

        variant = load_variant(args.variant).id  # an unknown variant: one line saying which exist
    report = collect(history_dir(), variant=variant, player=args.player)
    print(json.dumps(report) if args.json else format_stats(report))
    return 0


def cmd_lab(args) -> int:
    """``lab``: play the grid, write the report, print the headline table (CLI.md "lab")."""
    import shlex

    from .lab import parse_sweep, run_lab
    from .lab_report import text_table, write_report
    from .variant import load_variant, parse_option_assignments
    from .workers import resolve_jobs

    if args.hands < 1:
        raise CliError("--hands must be at least 1")
    if args.game_hands < 1:
        raise CliError("--game-hands must be at least 1")
    fixed = parse_option_assignments(args.option)
    load_variant(args.variant, fixed)          # the variant and its fixed options, before the sweeps
    sweeps = [parse_sweep(t) for t in args.sweep]
    seats = args.seats or [["ai"] * 4]
    seeds = args.seed or [1]
    jobs = resolve_jobs(args.jobs)
    from .lab import build_grid

    cells = build_grid(args.variant, sweeps, fixed, seats, seeds)   # every cell checked before any is played
    from pathlib import Path

    try:
        Path(args.out).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"--out {args.out}: cannot be made ({exc.strerror or exc}); give a folder you can write to") from None
    total = len(cells) * args.hands
    progress, bar = _sim_progress(f"{args.variant}: {len(cells)} cells", total, "lab")
    try:
        res = run_lab(args.variant, sweeps, fixed, seats, seeds, args.hands, args.game_hands, jobs=jobs,
                      cluster=args.cluster, progress=progress, start=bar.start if bar is not None else None)
    finally:
        if bar is not None:
            bar.stop()
    command = "mahjong-tui " + shlex.join(getattr(args, "argv", None) or sys.argv[1:])
    try:
        written = write_report(res, args.out, command)
    except OSError as exc:
        raise CliError(f"--out {args.out}: cannot be written ({exc.strerror or exc}); "
                       "give a folder you can write to") from None
    if args.json:
        print(json.dumps(res.to_json()))
        return 0
    print(f"{res.variant_name}: {len(res.cells)} cells x {res.hands} hands; 95 % intervals in parentheses")
    print(text_table(res))
    print(f"report: {written[-3]} (charts, cells.json, cells.csv beside it); "
          f"{res.total_hands / res.elapsed_s if res.elapsed_s else 0:.1f} hands/s")
    return 0


def cmd_ui(args) -> int:
    try:
        from .ui.app import run_app
    except ImportError as exc:
        raise CliError(f"the table is not available in this build yet ({exc})") from None
    return run_app(args)


def cmd_serve(args) -> int:
    from .net.commands import cmd_serve as run

    return run(args)


def cmd_join(args) -> int:
    if args.bot is not None:
        from .net.commands import cmd_join_bot

        return cmd_join_bot(args)
    return cmd_ui(args)


COMMANDS = {"score": cmd_score, "analyze": cmd_analyze, "variants": cmd_variants, "sim": cmd_sim, "lab": cmd_lab,
            "serve": cmd_serve, "stats": cmd_stats, "join": cmd_join}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(argv) if argv is not None else sys.argv[1:]   # lab's report quotes its command
    try:
        fn = COMMANDS.get(args.command, cmd_ui)
        return fn(args)
    except MahjongError as exc:
        print(f"mahjong-tui: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover
        return 0
    except KeyboardInterrupt:  # pragma: no cover
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
