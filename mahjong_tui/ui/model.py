"""Pure helpers that turn a seat's ``view`` (see :meth:`mahjong_tui.engine.table.Table.view`)
into what the table screen draws.  No Textual here, so every rule of the layout is testable
without a terminal.

Positions at the table (issue 3 §2): the seat whose view is shown sits at the ``bottom``; the
next player in turn order (your right) is ``right``, the opposite player ``top``, the previous
player ``left``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Sequence

from .. import tiles as T
from ..review import advisor  # noqa: F401 - the table's hint, the replay's s (one place: review.py)

POSITIONS = ("bottom", "right", "top", "left")
WIND_WORDS = {"E": "East", "S": "South", "W": "West", "N": "North"}


@lru_cache(maxsize=4096)
def parse(notation: str | None) -> tuple[int, ...]:
    """Tile codes of a notation string from a view (``'46779t2m'`` → codes); ``''`` → ()."""
    if not notation:
        return ()
    return tuple(T.parse_tiles(notation))


def seat_at(bottom: int, position: str) -> int:
    """The seat sitting at ``position`` when ``bottom`` is the seat at the bottom."""
    return (bottom + POSITIONS.index(position)) % 4


def position_of(bottom: int, seat: int) -> str:
    """Where ``seat`` sits when ``bottom`` is at the bottom."""
    return POSITIONS[(seat - bottom) % 4]


def fmt_num(x: float | int) -> str:
    """A score or value as a person writes it: ``12``, ``-4``, ``2.5``."""
    x = float(x)
    if x.is_integer():
        return str(int(x))
    return f"{x:g}"


def wind_word(letter: str) -> str:
    return WIND_WORDS.get(letter, letter)


def tile_text(tile: int | str) -> str:
    """A tile in plain words as the table's faces show it (a code or a notation string):
    ``'5s'``, ``'13s'`` (the notation's ``cs``: Uzje ranks 10-16 are written as numbers, as
    the compact faces draw them), ``'E'``, ``'Z'``, ``'h'``."""
    t = T.parse_tile(tile) if isinstance(tile, str) else tile
    if T.is_suited(t):
        return f"{T.rank_of(t)}{T.SUIT_LETTERS[T.suit_of(t)]}"
    return T.name(t)


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: ``kind`` ``human`` or ``ai``; ``level`` for bots; a display name."""

    kind: str
    name: str
    level: str = ""

    @property
    def human(self) -> bool:
        return self.kind == "human"


def seat_specs(seats: Sequence[str]) -> list[SeatSpec]:
    """Names for the four seat strings of ``--seats`` (``human``, ``ai``, ``ai:LEVEL``).

    One human is "You"; several humans are "Player N" (N = seat number, 1 = East of the first
    hand); bots are "Bot N".
    """
    humans = [i for i, s in enumerate(seats) if s.split(":", 1)[0] == "human"]
    out = []
    for i, s in enumerate(seats):
        kind, _, level = s.partition(":")
        if kind == "human":
            out.append(SeatSpec("human", "You" if len(humans) == 1 else f"Player {i + 1}"))
        else:
            out.append(SeatSpec("ai", f"Bot {i + 1}", level or "normal"))
    return out


def hand_order(hand: str, drawn: str | None) -> tuple[list[int], int | None]:
    """The concealed tiles in display order: sorted, with the tile just drawn set apart at the
    right end.  Returns (tiles, index of the drawn tile or None)."""
    tiles = list(parse(hand))
    if drawn:
        d = T.parse_tile(drawn)
        if d in tiles:
            tiles.remove(d)
            tiles.append(d)
            return tiles, len(tiles) - 1
    return tiles, None


def picked_indices(tiles: Sequence[int], picked: str | None, drawn: int | None = None) -> frozenset[int]:
    """Indices into ``tiles`` (a hand in display order, the drawn tile at ``drawn``) of the
    discards picked up into the hand (``picked``: notation, the view's ``picked_up``; Classic
    G-OX-2): for each picked tile one copy of it, the rightmost not yet marked and not the tile
    just drawn (a pick-up replaces the draw, so the drawn copy was never picked up)."""
    out: set[int] = set()
    for t in parse(picked):
        for i in range(len(tiles) - 1, -1, -1):
            if tiles[i] == t and i != drawn and i not in out:
                out.add(i)
                break
    return frozenset(out)


def meld_tiles(meld: dict) -> tuple[list[int | None], set[int]]:
    """A meld of a view as (tiles, indices drawn face down): a concealed kong shows its two
    outer tiles face down (issue 3 §2), a hidden one (Uzje ``concealed_quad_mode = hidden``: no
    tiles in the view) all four; a zero in a sequence meld is shown as the number it is read
    as, rank 0 of the meld's suit, first (seed 002: ``0s``)."""
    if not meld["tiles"] and meld.get("kong_type") == "concealed":
        return [None] * 4, {0, 1, 2, 3}
    tiles = list(T.zero_as_number(parse(meld["tiles"])))
    down: set[int] = set()
    if meld.get("kong_type") == "concealed":
        down = {0, len(tiles) - 1}
    return tiles, down


def latest_discarder(prev: dict | None, view: dict, previous: int | None) -> int | None:
    """Seat whose pond got the latest discard, by comparing two successive views.

    A pond that grew holds the newest discard; if none grew the previous answer stands (a claim
    marks the tile, it does not move it); a fresh hand (all ponds empty) has none.
    """
    ponds = [len(p["pond"]) for p in view["players"]]
    if not any(ponds):
        return None
    if view.get("discard"):
        return view["discard"]["seat"]
    if prev is not None and prev.get("hand_number") == view.get("hand_number"):
        before = [len(p["pond"]) for p in prev["players"]]
        grown = [s for s in range(4) if ponds[s] > before[s]]
        if grown:
            return grown[-1]
        return previous
    return previous


def transfers(deltas: Sequence[float]) -> list[tuple[int, int, float]]:
    """Who pays whom, from a hand's net score changes: ``[(payer, payee, amount)]``.

    Losers are matched to winners largest first, so a single winner is paid by each loser
    exactly what that loser lost, and a discarder paying several winners pays each one.
    """
    debt = [[s, -d] for s, d in enumerate(deltas) if d < 0]
    credit = [[s, d] for s, d in enumerate(deltas) if d > 0]
    debt.sort(key=lambda x: -x[1])
    credit.sort(key=lambda x: -x[1])
    out: list[tuple[int, int, float]] = []
    i = j = 0
    while i < len(debt) and j < len(credit):
        amount = min(debt[i][1], credit[j][1])
        if amount > 1e-9:
            out.append((debt[i][0], credit[j][0], amount))
        debt[i][1] -= amount
        credit[j][1] -= amount
        if debt[i][1] <= 1e-9:
            i += 1
        if credit[j][1] <= 1e-9:
            j += 1
    return out


def standings(scores: Sequence[float]) -> list[tuple[int, int, float]]:
    """(rank, seat, score), best first; equal scores share a rank."""
    order = sorted(range(4), key=lambda s: (-scores[s], s))
    out = []
    for i, s in enumerate(order):
        rank = i + 1
        if i and scores[s] == scores[order[i - 1]]:
            rank = out[-1][0]
        out.append((rank, s, scores[s]))
    return out


def pattern_words(p: dict) -> str:
    """A scoring pattern in words: its description, else its id spelled out."""
    desc = (p.get("description") or "").strip()
    if desc:
        return desc[0].upper() + desc[1:]
    return p["id"].replace("_", " ").capitalize()


def visible_counts(view: dict) -> list[int]:
    """How many copies of each tile kind the seat can see: own hand, every pond, every meld,
    every seat's bonus tiles, face-up bloom tiles and indicators.  A claimed discard is
    counted once, in the meld it went to (the view still lists it in the pond, marked)."""
    seen = [0] * T.NUM_KINDS
    for t in parse(view["hand"]):
        seen[t] += 1
    for p in view["players"]:
        for tile, claimed in p["pond"]:
            if not claimed:
                seen[T.parse_tile(tile)] += 1
        for m in p["melds"]:
            for t in parse(m["tiles"]):
                seen[t] += 1
        for t in parse(p.get("bonus")):
            seen[t] += 1
    for t in view["wall"].get("bloom", []) + view["wall"].get("indicators", []):
        seen[T.parse_tile(t)] += 1
    return seen


def unseen(variant, view: dict, tile: int) -> int:
    """Copies of ``tile`` the seat has not seen (the tile tracker): the variant's copies less
    those in its view (:func:`visible_counts`)."""
    return max(0, variant.copies_of(tile) - visible_counts(view)[tile])


@dataclass
class Readiness:
    """Shanten and waits of the hand on display (issue 3 §4: waits shown when ready)."""

    shanten: int | None = None
    waits: list[int] = field(default_factory=list)
    left: dict[int, int] = field(default_factory=dict)  # unseen copies per wait
    worth: dict[int, str] = field(default_factory=dict)  # what a win on each wait is worth


def readiness(variant, view: dict, discard: int | None = None) -> Readiness:
    """Shanten and waits of the seat's hand, after discarding ``discard`` if the hand holds
    one tile too many (its own turn).  ``variant.hand_shape`` does the work."""
    shape = variant.hand_shape
    me = view["players"][view["seat"]]
    melds = len(me["melds"])
    counts = [0] * T.NUM_KINDS
    for t in parse(view["hand"]):
        counts[t] += 1
    n = sum(counts) + 3 * melds
    if n == 14:
        if discard is None or not counts[discard]:
            return Readiness()
        counts[discard] -= 1
    elif n != 13:
        return Readiness()
    try:
        sh = shape.shanten(counts, melds)
        waits = shape.waits(counts, melds) if sh == 0 else []
        runs = shape.straight_waits(counts, [parse(m["tiles"]) for m in me["melds"]]) if melds else []
    except ValueError:
        return Readiness()
    if runs:   # the ultra-long straight with exposed runs (Uzje G-UZ-13)
        sh, waits = 0, sorted(set(waits) | set(runs))
    seen = visible_counts(view)
    left = {w: max(0, variant.copies_of(w) - seen[w]) for w in waits}
    return Readiness(sh, waits, left, wait_worth(variant, view, counts, waits))


def wait_worth(variant, view: dict, counts: list[int], waits: list[int]) -> dict[int, str]:
    """For each wait, what a win on it would be worth, from the seat's own view only:
    ``'61 fan'``, ``'2.6 fan = 2 pt'``, ``'self-draw only: 1 multiplier'`` or
    ``'no win: 14/15 fan'`` (yangzhou.md "Winning hands": a Yangzhou player must see whether his hand reaches
    15 fan; Yuxi's basic win, yuxi.md "Winning hands")."""
    from ..melds import Meld
    from ..scoring import HandContext, evaluate

    players = view["players"]
    me = players[view["seat"]]

    def feeder(seat):  # a HandContext counts seats from the dealer (East 0 … North 3)
        return None if seat is None else "ESWN".index(players[seat]["wind"])

    melds = tuple(
        Meld(m["kind"], tuple(T.parse_tiles(m["tiles"])), declared=True,
             concealed=m.get("kong_type") == "concealed", kong_type=m.get("kong_type"),
             from_seat=feeder(m.get("from_seat")))
        for m in me["melds"]
    )
    base = T.tiles_of(counts)
    # the seat's own picked-up discards still in hand (G-OX-2: a pung on one is open)
    claimed, left = [], list(counts)
    for t in parse(view.get("picked_up")):
        if left[t] > 0:
            left[t] -= 1
            claimed.append(t)
    out: dict[int, str] = {}
    for w in waits:
        results = []
        for self_draw in (False, True):
            ctx = HandContext(
                concealed=tuple(sorted(base + [w])), melds=melds, bonus=tuple(T.parse_tiles(me.get("bonus", ""))),
                winning_tile=w, self_draw=self_draw, claimed_concealed=tuple(claimed), seat_wind=T.parse_tile(me.get("wind", "E")),
                prevailing_wind=T.parse_tile(view.get("prevailing_wind", "E")),
                indicators=tuple(T.parse_tile(t) for t in view["wall"].get("indicators", [])),
            )
            try:
                results.append(evaluate(variant, ctx))
            except ValueError:
                results.append(None)
        on_discard, drawn = results
        if on_discard is not None and on_discard.winning:
            out[w] = _worth(on_discard)
        elif drawn is not None and drawn.winning:
            out[w] = f"self-draw only: {_worth(drawn)}"
        else:
            out[w] = "no win" + _short_of(variant, on_discard or drawn)
    return out


def _short_of(variant, res) -> str:
    """Why a ready hand's wait is no win, briefly: ``': 3/15 fan'`` (the value under the
    variant's ``win.minimum``; yangzhou.md "Winning hands"), ``': ×1/×2'``, else the scorer's reason cut short
    in brackets (:func:`brief_reason`: ``' (completes a chow)'``, classic.md "Winning hands"; the whole rule is
    in the variant's rules, ``h``), or ``''``.  Brief, so that the readiness line keeps every
    wait in view at 80 columns (play-test pt4 item 1)."""
    if res is None:
        return ""
    minimum = variant.win.get("minimum") or 0
    if res.value < minimum and res.unit in ("fan", "tai"):
        return f": {fmt_num(res.value)}/{fmt_num(minimum)} {res.unit}"
    if res.value < minimum and res.unit.startswith("multiplier"):
        return f": ×{fmt_num(res.value)}/×{fmt_num(minimum)}"
    brief = brief_reason(res.reason or "")
    return f" ({brief})" if brief else ""


def brief_reason(reason: str) -> str:
    """A scorer's reason for no win, short enough for the readiness line: its bracketed
    explanations left out, and ``'the winning tile '`` before what that tile does —
    ``'the winning tile completes a chow (Oxenstierna rule: …)'`` → ``'completes a chow'``."""
    text = reason
    while True:  # innermost brackets first, so nested ones go too
        cut = re.sub(r"\s*\([^()]*\)", "", text)
        if cut == text:
            break
        text = cut
    text = text.strip()
    return text[len("the winning tile "):] if text.startswith("the winning tile ") else text


def payment_words(ev: dict) -> str:
    """What an instant payment (singapore.md "Settlement"; an ``instant_payment`` event or record) was for:
    ``'Cat + Rat, hidden'``, ``'Summer + Orchid'``, ``'all four seasons'``, ``'all four
    animals'``, ``'concealed kong of E'``."""
    pid = str(ev.get("id", ""))
    tiles = parse(ev.get("tiles") or "")
    if pid.startswith("kong_") and tiles:
        what = f"{pid[5:]} kong of {tile_text(tiles[0])}"
    elif len(tiles) == 4 and all(T.is_bonus(t) for t in tiles):
        kind = "animals" if T.is_animal(tiles[0]) else "seasons" if tiles[0] in T.SEASONS else "flowers"
        what = f"all four {kind}"
    elif tiles:
        what = " + ".join(T.long_name(t) for t in tiles)
    else:
        what = pid.replace("_", " ")
    return what + (", hidden" if ev.get("hidden") else "")


def _worth(res) -> str:
    """``'4.6 fan'``; with a points ladder (Uzje) ``'4.6 fan = 10 pt'``."""
    text = f"{res.value:g} {res.unit}"
    return text if res.points is None else f"{text} = {fmt_num(res.points)} pt"


def _does(name, seat: int, verbs: str) -> str:
    """``'Bot 2 discards'`` / ``'You discard'``: the seat's name and ``verbs`` (third person,
    every verb of it ending in ``s``: ``'sets aside … and draws'``) agreeing with it."""
    who = name(seat)
    if who == "You":
        verbs = " ".join(w[:-1] if w in _THIRD_PERSON else w for w in verbs.split(" "))
    return f"{who} {verbs}"


#: the status line's third-person verbs (:func:`_does` turns them to ``You …``)
_THIRD_PERSON = frozenset({"collects", "discards", "takes", "pungs", "kongs", "chows", "declares", "adds",
                           "sets", "draws", "deals", "makes"})


def describe_event(ev: dict, name, variant=None) -> str | None:
    """One line for the status bar about a public event, or None.  ``name(seat)`` names a seat
    (``'You'`` for the viewer: the verbs agree).  A claimed sequence is named by its meld kind
    in ``variant`` (:func:`~mahjong_tui.ui.choices.meld_word`, as the claim prompt names it):
    ``'Bot 2 chows 4s from You'``, Uzje ``'Bot 2 makes an arith with 12s from You'``."""
    kind = ev.get("type")
    if kind == "instant_payment":
        return f"{_does(name, ev['seat'], 'collects')} {fmt_num(ev['amount'])} from each: {payment_words(ev)}"
    if kind == "discard":
        return f"{_does(name, ev['seat'], 'discards')} {tile_text(ev['tile'])}"
    if kind == "claim":
        if ev["kind"] == "chow" and ev.get("tiles"):
            from .choices import meld_word

            word = meld_word(T.zero_as_number(parse(ev["tiles"])), variant)
            if word != "chow":
                article = "an" if word[:1] in "aeiou" else "a"
                return (f"{_does(name, ev['seat'], 'makes')} {article} {word} with {tile_text(ev['tile'])} "
                        f"from {name(ev['from'])}")
        what = {"pickup": "takes"}.get(ev["kind"], ev["kind"] + "s")
        return f"{_does(name, ev['seat'], what)} {tile_text(ev['tile'])} from {name(ev['from'])}"
    if kind == "kong":
        kt = ev.get("kong_type") or ""
        article = "an" if kt[:1] in ("a", "e") else "a"
        of = f" of {tile_text(ev['tile'])}" if ev.get("tile") else ""   # a hidden concealed kong (Uzje)
        return f"{_does(name, ev['seat'], 'declares')} {article} {kt} kong{of}"
    if kind == "add_kong_declared":
        return f"{_does(name, ev['seat'], 'adds')} {tile_text(ev['tile'])} to a pung"
    if kind == "concealed_kong_declared":
        of = f" of {tile_text(ev['tile'])}" if ev.get("tile") else ""
        return f"{_does(name, ev['seat'], 'declares')} a concealed kong{of}"
    if kind == "indicator":
        return f"New bonus tile indicator: {tile_text(ev['tile'])}"
    if kind == "bonus":
        return _does(name, ev["seat"], f"sets aside {T.long_name(T.parse_tile(ev['tile']))} and draws a replacement")
    if kind == "hand_start":
        roll = ev.get("first_dealer_roll")
        if roll:  # the first dealer rolled highest (yuxi.md "Setting up", yangzhou.md "Setting up")
            total = next(a + b for s, a, b in roll[-1] if s == ev["dealer"])
            again = f" after {len(roll) - 1} re-roll{'s' if len(roll) > 2 else ''}" if len(roll) > 1 else ""
            return f"Hand {ev['hand'] + 1}: {_does(name, ev['dealer'], f'rolled {total}{again} and deals')}"
        return f"Hand {ev['hand'] + 1}: {_does(name, ev['dealer'], 'deals')}"
    return None


def needs(variant_match: dict, hands_limit: int | None) -> str:
    """The match length in words for the header: ``'of 16'`` or ``'(4 rounds)'``."""
    if hands_limit is not None:
        return f"of {hands_limit}"
    if variant_match.get("rounds"):
        r = variant_match["rounds"]
        return f"({r} round{'s' if r != 1 else ''})"
    return f"of {variant_match.get('hands')}"


def saved_game_summary(path) -> str:
    """One line about a saved game (a game log) for the list of saved games: the variant and
    its options, where the match stands (``Hand 3 of 16, in progress`` or ``finished``), the
    scores, the seats and when it was last written.  A file that is not a game that replays
    says why, in the same line.  Replays the log (a few ms a hand)."""
    return saved_game_summaries(path)[0]


def saved_game_summaries(path) -> tuple[str, str]:
    """``(line, brief)``: :func:`saved_game_summary`'s line, and a brief one — the variant,
    where the match stands and when (the menu's Resume note) — from one replay of the log."""
    from datetime import datetime
    from pathlib import Path

    from ..engine.log import GameLog
    from ..errors import MahjongError
    from ..variant import option_assignments

    p = Path(path)
    try:
        log = GameLog.load(p)
        table = log.replay()
        when = datetime.fromtimestamp(p.stat().st_mtime).strftime("%d %b %H:%M")
    except (MahjongError, OSError) as exc:
        return (f"Cannot be opened: {exc}",) * 2
    v = table.variant
    name = ", ".join([v.name, *option_assignments(log.options)])
    if table.phase == "match_over":
        label, where = "finished", "finished (replay it)"
    else:
        from .frame import hand_label

        label = hand_label({"hand_number": table.hand_index, "hands_limit": log.hands}, needs(dict(v.match), None))
        where = f"{label}, in progress (resume or replay it)"
    scores = " / ".join(fmt_num(x) for x in table.scores)
    return (f"{name} · {where} · scores {scores} · seats {', '.join(log.seats)} · saved {when}",
            f"{name} · {label} · {when}")


def flatten(groups: Iterable[Iterable[int]]) -> list[int]:
    return [t for g in groups for t in g]
