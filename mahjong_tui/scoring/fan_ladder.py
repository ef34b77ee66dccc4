"""The ``fan_ladder`` scoring scheme: Ùzje mahjong (seed 002, uzje.md "Melds and winning hands", "Fan table", "From fan to points", G-UZ-5…14).

Fan is counted in tenths: every pattern of the variant's ``[scoring.fan]`` table adds its value
(``count`` times for the "each" patterns), and a few patterns add ``scoring.extra_fan`` more on
their special tile (``[scoring.lucky_tiles]``: ``sea_scoop`` on ``1t`` …).  A win needs at
least ``win.minimum`` fan (2.5, G-UZ-5).  Patterns of ``[scoring.limits]`` are limit hands: if
any applies no fan counts and the hand is worth ``limit_points`` × the sum of their limit
counts.  Otherwise the points come from the ladder (uzje.md "From fan to points", made exact)::

    s = (F10 - T10) div 10          F10 = fan x 10, T10 = minimum x 10
    P = ladder[s]                   for s < len(ladder)
    P = limit_points x (1 + (s - len(ladder)) div limit_step)   beyond it

The result's ``value`` is the fan (for a limit hand: the fan it counted before the limit
replaced it) and ``points`` is P, which the settlement pays (``winner_collects``: the
discarder pays P, or each other player ``self_draw_each`` × P on a self-draw).

The zero tile (G-UZ-11) is read group by group, whichever scores best: a zero inside an arith
or power is rank 0 of that suit (``0s``); a group made only of zeros (a trip, quad or pair) is
read as the honour ``Z`` or as rank 0 of the hand's number suit, and every arrangement is
scored under each reading (common.md "Decomposition rule").

Pattern definitions: uzje.md "Fan table" (ids exactly as there).  Flower wins (G-UZ-14) are declared on a
flower (the winning tile is a bonus tile), need no hand form and count no other fan:
``six_flowers`` (situation ``sixth_flower``: the sixth flower was just received) is worth
exactly the minimum; ``ivies_on_the_wall`` (situation ``robbing_the_eighth``: another player
exposed the eighth flower while the winner holds the other seven) its fan alone;
``crossing_the_sea`` (all eight flowers held) its limit.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product
from typing import TYPE_CHECKING, Iterable, Sequence

from .. import tiles as T
from ..melds import CHOW, KONG, PUNG
from . import patterns as P
from .common import SEVEN_PAIRS, STANDARD, Arrangement, Group, not_complete_reason, plain_number, win_arrangements
from .context import HandContext, PatternScore, ScoreResult

if TYPE_CHECKING:  # pragma: no cover
    from ..variant import Variant

UNIT = "fan"

_TABLES = ("fan", "limits")


def __getattr__(name: str):
    """``PATTERN_IDS`` (frozenset) and ``DESCRIPTIONS`` (id → a player's words): the patterns
    ``variants/uzje.toml`` lists (:func:`mahjong_tui.scoring.patterns.shipped`)."""
    if name == "PATTERN_IDS":
        return P.shipped("uzje", "ids")
    if name == "DESCRIPTIONS":
        return P.shipped("uzje", "names")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


FLOWER_FORM = "flowers"
"""``ScoreResult.form`` of a flower win (G-UZ-14)."""

_FLOWER_SETS = (T.SEASONS, T.FLOWERS)
_SEAT_WINDS = (T.EAST, T.SOUTH, T.WEST, T.NORTH)


def tenths(x: float) -> int:
    """A fan value in whole tenths (fan is counted in steps of 0.1 at most, G-UZ-8)."""
    return round(x * 10)


def points_for(variant: "Variant", fan10: int, limits: float = 0) -> float:
    """Points of a hand of ``fan10`` tenths of fan, or of ``limits`` limit hands (uzje.md "From fan to points").

    Raises ``ValueError`` for a hand under the minimum (not a win).  Check values (uzje.md "From fan to points"):
    2.6 → 2, 3 → 2, 4 → 5, 7 → 50, 12 → 2000, 13 → 5000, 16 → 10000, 24 → 20000.
    """
    sc = variant.scoring
    if limits:
        return plain_number(sc["limit_points"] * limits)
    s, _ = divmod(fan10 - tenths(variant.win["minimum"]), 10)
    if s < 0:
        raise ValueError(f"{fan10 / 10:g} fan is under the minimum of {variant.win['minimum']:g}")
    ladder = sc["ladder"]
    if s < len(ladder):
        return ladder[s]
    return plain_number(sc["limit_points"] * (1 + (s - len(ladder)) // int(sc["limit_step"])))


# ----------------------------------------------------------------------------------------
# Readings of the hand
# ----------------------------------------------------------------------------------------

def meld_kind(variant: "Variant", tiles: Sequence[int]) -> str:
    """The meld family of three or four tiles read as numbers where they are (``arith``,
    ``gem``, ``power``, ``pung``, ``kong``), by the variant's meld templates; ``"chow"`` if
    no template has the ranks.  Codes are readings (rank 0 = the zero, uzje.md "Melds and winning hands")."""
    if len(set(tiles)) == 1:
        return KONG if len(tiles) == 4 else PUNG
    ranks = tuple(sorted(T.rank_of(t) for t in tiles))
    for tpl in variant.meld_templates:
        if ranks in tpl.rank_sets:
            return tpl.kind
    return CHOW


def _read_groups(variant: "Variant", arr: Arrangement) -> list[Group]:
    """The arrangement's groups with declared sequence melds read as numbers and their meld
    family named (a claimed ``chow`` becomes ``arith``/``gem``/``power``)."""
    out = []
    for g in arr.groups:
        if g.kind == CHOW:
            ts = T.zero_as_number(g.tiles)
            g = replace(g, kind=meld_kind(variant, ts), tiles=ts)
        out.append(g)
    return out


def _zero_group(variant: "Variant", g: Group) -> bool:
    return variant.zero is not None and all(t == variant.zero for t in g.tiles)


def readings(variant: "Variant", groups: list[Group]) -> Iterable[list[Group]]:
    """Every reading of the zero-only groups: the honour, or rank 0 of a suit the zero can be
    read in (``ZeroShape.zero_readings``) that the hand holds (any such suit when it holds no
    number tile)."""
    flexible = [i for i, g in enumerate(groups) if _zero_group(variant, g)]
    if not flexible:
        yield groups
        return
    readable = sorted({T.suit_of(r) for r in variant.hand_shape.zero_readings if T.is_suited(r)})
    present = {T.suit_of(t) for g in groups for t in g.tiles if T.is_suited(t)}
    suits = [s for s in readable if s in present] if present else readable
    options = [None] + suits
    for choice in product(options, repeat=len(flexible)):
        out = list(groups)
        for i, s in zip(flexible, choice):
            if s is not None:
                out[i] = replace(out[i], tiles=(s * T.SUIT_SIZE,) * len(out[i].tiles))
        yield out


# ----------------------------------------------------------------------------------------
# Detectors
# ----------------------------------------------------------------------------------------

class _Tally:
    """Fan items (in tenths) and limit items of one reading."""

    def __init__(self, variant: "Variant"):
        self.variant = variant
        self.fan_table = variant.scoring["fan"]
        self.limit_table = variant.scoring["limits"]
        self.extra10 = tenths(variant.scoring.get("extra_fan", 0))
        self.items: list[PatternScore] = []
        self.fan10 = 0
        self.limits = 0.0

    def fan(self, pid: str, count: int = 1, extra: int = 0) -> None:
        """Add ``pid`` ``count`` times, plus ``extra`` × ``scoring.extra_fan`` (once)."""
        if count <= 0 or pid not in self.fan_table:
            return
        each10 = tenths(self.fan_table[pid])
        total10 = each10 * count + self.extra10 * extra
        desc = self.name(pid)
        if extra:
            desc += f" (+{plain_number(self.extra10 * extra / 10)} extra)"
            # one item whose value carries the extra fan: "sea_scoop 4.8" on its special tile
            self.items.append(PatternScore(pid, plain_number(total10 / 10), 1, UNIT, desc))
        else:
            self.items.append(PatternScore(pid, plain_number(each10 / 10), count, UNIT, desc))
        self.fan10 += total10

    def limit(self, pid: str) -> None:
        if pid in self.limit_table:
            n = self.limit_table[pid]
            self.items.append(PatternScore(pid, n, 1, "limits", self.name(pid)))
            self.limits += n

    def name(self, pid: str) -> str:
        spec = P.spec_of(self.variant, pid)
        return spec.name if spec is not None else pid

    def add(self, found: "list[P.Found]") -> "_Tally":
        """Add the detected patterns: each hit as a fan item (with its extra fan) where the
        fan table values it, and a limit item where the limits table does."""
        for f in found:
            for hit in f.hits:
                self.fan(f.spec.id, hit.count, hit.extra)
            self.limit(f.spec.id)
        return self


def bonus_kind(variant: "Variant", indicator: int) -> int:
    """The bonus tile an indicator names (G-UZ-6): itself (``options.bonus_tile_mode =
    identity``) or the next kind of its suit or honour group, cyclically (``successor``, the
    Riichi way: 16 → 1, N → E, P → C; the zero names itself)."""
    if variant.options.get("bonus_tile_mode", "identity") == "identity":
        return indicator
    kinds = variant.kinds
    if T.is_suited(indicator):
        group = [k for k in kinds if T.suit_of(k) == T.suit_of(indicator)]
    elif T.is_wind(indicator):
        group = [k for k in kinds if T.is_wind(k)]
    elif T.is_dragon(indicator):
        group = [k for k in kinds if T.is_dragon(k)]
    else:
        return indicator
    return group[(group.index(indicator) + 1) % len(group)] if indicator in group else indicator


def _score_reading(variant: "Variant", ctx: HandContext, arr: Arrangement, groups: list[Group]) -> _Tally:
    """The fan and limits of one reading of one arrangement: the variant's patterns
    (``[scoring.patterns]``, :mod:`~mahjong_tui.scoring.patterns`) over the reading's groups and
    tiles (uzje.md "Fan table")."""
    if arr.form in (STANDARD, SEVEN_PAIRS):
        tiles = [t for g in groups for t in g.tiles]
    else:
        tiles = list(ctx.concealed) + [t for m in ctx.melds for t in m.tiles]
    hand = P.Hand(variant, ctx, arr, groups=groups, tiles=tiles)
    return _Tally(variant).add(P.detect(variant, hand, tables=_TABLES))


# ----------------------------------------------------------------------------------------
# Flower wins (G-UZ-14)
# ----------------------------------------------------------------------------------------

def _flower_win(variant: "Variant", ctx: HandContext) -> _Tally | None:
    """The flower win declared on flower ``ctx.winning_tile``, if it is one: the variant's
    patterns with ``applies_to = "flower_win"`` (``ivies_on_the_wall``: seven held and the
    winning tile is the eighth, exposed by another player; ``crossing_the_sea``: all eight held,
    none robbed; ``six_flowers``: six held, the last just received).  G-UZ-14."""
    tally = _Tally(variant).add(P.detect(variant, P.Hand(variant, ctx), flower_win=True, tables=_TABLES))
    return tally if tally.items else None


# ----------------------------------------------------------------------------------------
# Scheme API
# ----------------------------------------------------------------------------------------

def _result(variant: "Variant", ctx: HandContext, form: str, tally: _Tally, decomposition=()) -> ScoreResult:
    minimum10 = tenths(variant.win["minimum"])
    value = plain_number(tally.fan10 / 10)
    if not tally.limits and tally.fan10 < minimum10:
        return ScoreResult(winning=False, value=value, unit=UNIT, form=form, patterns=tuple(tally.items),
                           reason=f"{value} fan: a win needs at least {plain_number(variant.win['minimum'])}",
                           decomposition=decomposition)
    items = [p for p in tally.items if p.kind == "limits"] if tally.limits else tally.items
    res = ScoreResult(winning=True, value=value, unit=UNIT, form=form, patterns=tuple(items),
                      decomposition=decomposition, points=points_for(variant, tally.fan10, tally.limits))
    from .settlement import payments_for_score

    return replace(res, payments=payments_for_score(variant, res, ctx))


def evaluate(variant: "Variant", ctx: HandContext) -> ScoreResult:
    """Decide whether ``ctx`` is a legal Ùzje win and score it (seed 002; uzje.md "Melds and winning hands", "Fan table", "From fan to points").

    Every arrangement of the hand (:func:`mahjong_tui.scoring.common.win_arrangements`) under
    every reading of its zero-only groups is scored; the one with the most points, then the
    most fan, is reported (common.md "Decomposition rule").  ``value`` = fan, ``points`` = the ladder's points
    (:func:`points_for`).  Under ``win.minimum`` the result has ``winning`` False and a reason
    such as ``"2.4 fan: a win needs at least 2.5"``.  Flower wins (G-UZ-14) are answered
    first; they need no hand form.
    """
    if ctx.winner and ctx.winning_tile is not None and T.is_bonus(ctx.winning_tile):
        flower = _flower_win(variant, ctx)
        if flower is None:
            return ScoreResult(winning=False, unit=UNIT, form=FLOWER_FORM,
                               reason="no flower win: six flowers just received, seven and the eighth "
                                      "exposed by another player, or all eight")
        return _result(variant, ctx, FLOWER_FORM, flower)
    best: tuple | None = None
    for arr in win_arrangements(variant, ctx) if ctx.winner else ():
        for groups in readings(variant, _read_groups(variant, arr)):
            tally = _score_reading(variant, ctx, arr, groups)
            key = (tally.limits, tally.fan10)
            if best is None or key > best[0]:
                best = (key, arr, groups, tally)
    if best is None:
        return ScoreResult(winning=False, unit=UNIT, reason=not_complete_reason(variant))
    _, arr, groups, tally = best
    decomposition = tuple(g.notation() for g in groups) if arr.form in (STANDARD, SEVEN_PAIRS) else ()
    won = next((i for i, g in enumerate(groups) if g.has_winning_tile), None) if decomposition else None
    return replace(_result(variant, ctx, arr.form, tally, decomposition), winning_group=won)


def score_loser(variant: "Variant", ctx: HandContext) -> ScoreResult:
    """A non-winner's hand scores nothing in Ùzje (uzje.md "Settlement": only the winner is paid)."""
    return ScoreResult(winning=False, value=0, unit=UNIT, reason="only the winner scores in this variant")


__all__ = ["evaluate", "score_loser", "points_for", "meld_kind", "bonus_kind",
           "readings", "tenths"]
