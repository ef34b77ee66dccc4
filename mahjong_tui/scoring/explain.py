"""A scored hand's arithmetic in lines a player can check by hand.

The one place that turns a :class:`~mahjong_tui.scoring.context.ScoreResult` into the
arithmetic behind its value and behind the payments it makes; the scoring screen shows these
lines (``mahjong_tui/ui/screens/results.py``).  Nothing here decides a value: every number is
the scorer's (``result.value``, ``result.points``) or the settlement's
(:func:`~mahjong_tui.scoring.settlement.result_value`, the factors of ``[settlement]``); this
module only writes down how they came about, scheme by scheme (``scoring.scheme`` of the
variant file):

- ``points_doublings`` (Classic, ``assets/rules/classic.md``): ``(4 + 4 + 22) × 2 × 2 = 120
  points``, the doublings one ``× 2`` each, over ``scoring.limit`` the limit; a special hand
  its fixed value;
- ``multiplier`` (Yuxi, ``assets/rules/yuxi.md``): the product of the multipliers, ``2 × 4 =
  ×8``, capped at ``scoring.limit``;
- ``tai`` (Singapore, ``assets/rules/singapore.md``): the sum of the tai, capped at the limit;
  paid as V = u × 2^(tai − 1);
- ``fan`` (Yangzhou, ``assets/rules/yangzhou.md``): the sum of the fan, against the minimum;
- ``fan_ladder`` (Ùzje, ``assets/rules/uzje.md``): the sum of the fan, then the ladder step
  (whole fan above the minimum) and its points, or the limit hands' points.

Payments (:func:`win_payments`, :func:`zero_sum_payments`) are who pays whom, how much, and
the product that makes it (``2 × 8``); :func:`~mahjong_tui.scoring.settlement.settle` adds
them up, so the screen and the scores cannot disagree.  ``cumulative`` (Classic) has no payments.

Numbers are written as a person writes them (``12``, ``2.5``); units as in the variant files
(``points``, ``doublings``, ``multiplier``, ``tai``, ``fan``).  Pure functions, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Collection, Sequence

from .context import PatternScore, ScoreResult
from .settlement import result_value

if TYPE_CHECKING:  # pragma: no cover
    from ..variant import Variant

#: more doublings than this are written ``× 2^n`` instead of one ``× 2`` each
MAX_SPELLED_DOUBLINGS = 4


def num(x: float) -> str:
    """A value as a person writes it: ``12``, ``-4``, ``2.5``, ``0.6``."""
    x = float(x)
    return str(int(x)) if x.is_integer() else f"{x:g}"


def unit_value(value: float, unit: str) -> str:
    """``'68 points'``, ``'1 doubling'``, ``'×4'`` (multipliers), ``'3 fan'``, ``'5 tai'``,
    ``'1 limit hand'`` / ``'2 limit hands'`` (Ùzje's limits)."""
    v = num(value)
    if unit.startswith("multiplier"):
        return f"×{v}"
    if unit == "limits":
        return f"{v} limit hand" + ("" if v == "1" else "s")
    if unit in ("points", "doublings") and v == "1":
        unit = unit[:-1]
    return f"{v} {unit}"


def pattern_amount(p: PatternScore, unit: str) -> str:
    """What one breakdown item is worth, said so that a count cannot be misread:
    ``'4 points'``, ``'2 × 4 points = 8 points'`` (a pattern counted twice), ``'×2'``,
    ``'5 tai (limit)'`` (a Singapore limit hand, valued in ``[scoring.special]``),
    ``'500 points (special hand)'`` (Classic's fixed scores), ``'1 limit hand'`` (Ùzje); a
    pattern worth nothing ``'0 points'`` however often it counts (Classic's chows)."""
    kind = p.kind or unit
    if kind == "limit":
        return unit_value(p.value, unit) + " (limit)"
    if kind == "special":
        return unit_value(p.value, unit) + " (special hand)"
    if kind not in ("points", "doublings", "multipliers", "limits"):
        kind = unit
    one = unit_value(p.value, kind)
    if p.count == 1 or not p.value:
        return one
    if kind.startswith("multiplier"):
        return f"{one} {p.count} times = ×{num(p.value ** p.count)}"
    return f"{p.count} × {one} = {unit_value(p.value * p.count, kind)}"


def _terms(patterns: Sequence[PatternScore], kinds: Collection[str]) -> list[str]:
    """The non-zero values of ``patterns`` of ``kinds``, one term per count."""
    return [num(p.value) for p in patterns if p.kind in kinds and p.value for _ in range(p.count)]


def _sum(terms: Sequence[str]) -> str:
    return " + ".join(terms) if terms else "0"


def _over(raw: float, limit: float, unit: str) -> str:
    return f": over the limit, {unit_value(limit, unit)}" if limit and raw > limit else ""


def arithmetic(variant: "Variant", result: ScoreResult) -> list[str]:
    """The lines of arithmetic that make ``result.value`` (and ``result.points``), for a
    winner's result or a non-winner's own score (Classic, where every player scores his hand).

    Examples (Classic, limit 800): ``['(4 + 4) × 2 × 2 = 32 points']``,
    ``['(32 + 22) × 2^5 = 1728 points: over the limit, 800 points']``, ``['22 points']``; a
    special hand ``['Seven pairs: a special hand, 500 points; nothing else counts']``.
    Yuxi: ``['2 × 4 = ×8']``; Singapore: ``['1 + 1 + 2 = 4 tai']``; Yangzhou:
    ``['10 + 1 + 30 = 41 fan (a win needs 15)']``; Ùzje: ``['1 + 1.6 = 2.6 fan',
    '2.6 − 2.5 = 0.1 fan above the minimum, 0 whole: ladder 2, 5, … → 2 points']``.
    An empty breakdown gives ``[]``.  Raises nothing for results the schemes produce."""
    scheme = variant.scoring.get("scheme")
    pats = list(result.patterns)
    unit = result.unit
    limit = variant.scoring.get("limit", 0) or 0
    if not pats:
        return []
    if scheme == "classical":
        # dmjl.md, bmja.md "Scoring": a limit hand scores its fraction of the limit; the roof
        # off lifts the cap on everything else
        lims = [p for p in pats if p.kind == "limits"]
        if lims:
            p = lims[0]
            share = "the limit" if p.value == 1 else f"{num(p.value)} of the limit"
            return [f"{p.description or p.id}: {share}, {unit_value(result.value, unit)}"]
        if variant.scoring.get("roof_off"):
            limit = 0
        scheme = "points_doublings"
    if scheme == "points_doublings":
        special = [p for p in pats if p.kind == "special"]
        if special:
            p = special[0]
            name = (p.description.split(":")[0] or p.id).strip()
            return [f"{name[0].upper() + name[1:]}: a special hand, {unit_value(p.value, unit)}; nothing else counts"]
        terms = _terms(pats, ("points",))
        points = sum(p.value * p.count for p in pats if p.kind == "points")
        n = int(sum(p.value * p.count for p in pats if p.kind == "doublings"))
        raw = points * 2 ** n
        expr = _sum(terms)
        if n:
            if len(terms) > 1:
                expr = f"({expr})"
            expr += " × 2" * n if n <= MAX_SPELLED_DOUBLINGS else f" × 2^{n}"
        elif len(terms) <= 1:
            return [unit_value(raw, unit) + _over(raw, limit, unit)]
        return [f"{expr} = {unit_value(raw, unit)}{_over(raw, limit, unit)}"]
    if scheme == "multiplier":
        factors = [num(p.value) for p in pats for _ in range(p.count)]
        raw = 1.0
        for p in pats:
            raw *= p.value ** p.count
        if len(factors) == 1:
            return [unit_value(raw, unit) + _over(raw, limit, unit)]
        return [f"{' × '.join(factors)} = {unit_value(raw, unit)}{_over(raw, limit, unit)}"]
    if scheme == "fan_ladder":
        return _ladder_lines(variant, result)
    # tai, fan: a sum
    terms = [num(p.value) for p in pats for _ in range(p.count)]
    raw = sum(p.value * p.count for p in pats)
    line = (f"{_sum(terms)} = " if len(terms) > 1 else "") + unit_value(raw, unit) + _over(raw, limit, unit)
    minimum = variant.win.get("minimum", 0) or 0
    if scheme == "fan" and minimum:
        line += f" (a win needs {num(minimum)})"
    return [line]


def _ladder_lines(variant: "Variant", result: ScoreResult) -> list[str]:
    """Ùzje: the fan, then its points (uzje.md "From fan to points": s = whole fan above the minimum;
    ladder[s], or beyond the ladder ``limit_points`` × (1 + (s − len(ladder)) div
    ``limit_step``); a limit hand ``limit_points`` × its limits)."""
    from .fan_ladder import tenths

    sc = variant.scoring
    pats = list(result.patterns)
    limits = [p for p in pats if p.kind == "limits"]
    lp = sc["limit_points"]
    if limits:
        n = sum(p.value * p.count for p in limits)
        names = " + ".join((p.description.split(":")[0] or p.id) for p in limits)
        if n == 1:
            return [f"{names}: a limit hand, {num(lp)} points; no fan counts"]
        return [f"{names}: {num(n)} limit hands, {num(n)} × {num(lp)} = {num(n * lp)} points; no fan counts"]
    terms = [num(p.value) for p in pats for _ in range(p.count)]
    fan10 = sum(tenths(p.value) * p.count for p in pats)
    fan = fan10 / 10
    lines = [(f"{_sum(terms)} = " if len(terms) > 1 else "") + unit_value(fan, "fan")]
    minimum = variant.win["minimum"]
    s, _ = divmod(fan10 - tenths(minimum), 10)
    if s < 0:
        lines.append(f"under the minimum of {num(minimum)} fan: not a win")
        return lines
    ladder = sc["ladder"]
    above = f"{num(fan)} − {num(minimum)} = {num((fan10 - tenths(minimum)) / 10)} fan above the minimum, {s} whole"
    if s < len(ladder):
        steps = ", ".join(num(x) for x in ladder[:min(len(ladder), s + 2)])
        more = ", …" if s + 2 < len(ladder) else ""
        lines.append(f"{above}: ladder {steps}{more} → {num(ladder[s])} points")
    else:
        step = int(sc["limit_step"])
        k = 1 + (s - len(ladder)) // step
        lines.append(f"{above}: past the ladder's {len(ladder)} steps, {num(lp)} × (1 + ({s} − {len(ladder)}) "
                     f"÷ {step}, rounded down) = {num(lp * k)} points")
    return lines


# ----------------------------------------------------------------------------------------
# Payments
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Payment:
    """One payment of a win: ``payer`` pays ``payee`` ``amount`` (score units).  ``how``: the
    product that makes the amount from V (``'2 × 8'``, ``'half of 2'``; ``''`` when it is V
    itself); ``why``: ``'discarder'``, ``'self-draw'``, ``'pays for all'`` or ``''``."""

    payer: int
    payee: int
    amount: float
    how: str = ""
    why: str = ""


def value_line(variant: "Variant", result: ScoreResult) -> str:
    """How V, the unit of payment, comes from the hand's value (``[settlement]``
    ``hand_value``, ``scoring.base``): ``'V = 2^(4 − 1) = 8'`` (Singapore, base 1),
    ``'V = 3 × 2^(4 − 1) = 24'`` (base 3), ``'V = base 1 × 8 = 8'`` (Yuxi: the base score
    times the multiplier), ``'V = 43'`` (Yangzhou: the fan), ``'V = 2'`` (Ùzje: the ladder's
    points), ``'V = 8 × base 2 = 16'`` (another linear scheme with a base other than 1)."""
    base = variant.scoring.get("base", 1)
    v = result_value(variant, result)
    x = result.value if result.points is None else result.points
    if variant.settlement.get("hand_value", "linear") == "doubling":
        b = "" if base == 1 else f"{num(base)} × "
        return f"V = {b}2^({num(x)} − 1) = {num(v)}"
    if result.unit.startswith("multiplier"):   # Yuxi: the base score times the multiplier
        return f"V = base {num(base)} × {num(x)} = {num(v)}"
    if base == 1:
        return f"V = {num(v)}"
    return f"V = {num(x)} × base {num(base)} = {num(v)}"


def _times(k: float, v: float) -> str:
    if k == 1:
        return ""
    if k == 0.5:
        return f"half of {num(v)}"
    return f"{num(k)} × {num(v)}"


def win_payments(variant: "Variant", result: ScoreResult, *, winner: int, self_draw: bool,
                 discarder: int | None, liable: int | None = None, winners: Collection[int] = (),
                 situations: Collection[str] = ()) -> list[Payment]:
    """The payments one winner receives (``settlement.mode = "winner_collects"``), seat by seat,
    exactly as :func:`~mahjong_tui.scoring.settlement.settle` makes them: a self-draw, each
    other player ``self_draw_each`` × V; a discard win, the discarder ``discarder`` × V and
    each other loser ``discard_others`` × V (none where that factor is 0; fellow winners
    ``winners`` never pay); ``liable`` (or ``shooter_pays_all`` on a discard) pays all of it
    alone.  A robbed kong is paid as a self-draw where ``robbed_pays_as_discarder`` is off
    (``situations`` holds ``robbing_kong``).  Seats 0–3 as the table numbers them.

    Returns [] in the other modes (``cumulative``: nobody pays; ``classical_zero_sum``: the
    screen shows the net transfers) and for a value worth nothing.  Raises ValueError for a
    discard win without a discarder that nobody pays for all, as :func:`settle` does."""
    cfg = variant.settlement
    if cfg.get("mode") != "winner_collects":
        return []
    v = result_value(variant, result)
    if not v:
        return []
    each = cfg.get("self_draw_each", 1)
    f_disc = cfg.get("discarder", 1)
    f_other = cfg.get("discard_others", 0)
    as_self_draw = self_draw or ("robbing_kong" in situations and not cfg.get("robbed_pays_as_discarder", True))
    out: list[Payment] = []
    if as_self_draw:
        losers = [s for s in range(4) if s != winner]
        if liable is not None:
            k = each * len(losers)
            return [Payment(liable, winner, k * v, _times(k, v), "pays for all")]
        return [Payment(s, winner, each * v, _times(each, v), "self-draw") for s in losers]
    payer = liable
    if payer is None and cfg.get("shooter_pays_all", False):
        payer = discarder
    if payer is not None:   # he pays it all: who discarded changes nothing
        k = f_disc + f_other * 2
        return [Payment(payer, winner, k * v, _times(k, v), "pays for all")]
    if discarder is None:
        raise ValueError("a discard win needs the discarder's seat to settle (or a liable seat)")
    out.append(Payment(discarder, winner, f_disc * v, _times(f_disc, v), "discarder"))
    if f_other:
        for s in range(4):
            if s not in (winner, discarder) and s not in winners:
                out.append(Payment(s, winner, f_other * v, _times(f_other, v), ""))
    return out


def zero_sum_payments(variant: "Variant", *, seat_winds: Sequence[str], winners: Sequence[tuple[int, float]],
                      loser_scores: dict[int, float]) -> list[Payment]:
    """The payments of ``settlement.mode = "classical_zero_sum"`` (Classic's option,
    classic.md "Settlement"), exactly as :func:`~mahjong_tui.scoring.settlement.settle` makes
    them: each non-winner pays each winner his hand value S; then the non-winners pay each
    other the difference of their own scores (``'24 − 8'``); with ``east_pays_double`` every
    payment to or from East is doubled (``why`` ``'East pays double'`` / ``'East receives
    double'``).  ``seat_winds``: each seat's wind letter (``'E'`` …); ``winners``: (seat,
    S); ``loser_scores``: a non-winner's own score (0 where missing).  [] in other modes."""
    cfg = variant.settlement
    if cfg.get("mode") != "classical_zero_sum" or not winners:
        return []
    east = next((i for i, w in enumerate(seat_winds) if w == "E"), None)
    double = bool(cfg.get("east_pays_double", False))
    out: list[Payment] = []

    def pay(frm: int, to: int, amount: float, how: str) -> None:
        why = ""
        if double and east in (frm, to):
            why = "East pays double" if frm == east else "East receives double"
            how = f"2 × {how}" if how else f"2 × {num(amount)}"
            amount *= 2
        out.append(Payment(frm, to, amount, how, why))

    win_seats = [s for s, _ in winners]
    others = [s for s in range(4) if s not in win_seats]
    for seat, value in winners:
        for o in others:
            pay(o, seat, value, "")
    scores = {s: loser_scores.get(s, 0) for s in others}
    for i, a in enumerate(others):
        for b in others[i + 1:]:
            hi, lo = (a, b) if scores[a] >= scores[b] else (b, a)
            diff = scores[hi] - scores[lo]
            if diff > 0:
                pay(lo, hi, diff, f"({num(scores[hi])} − {num(scores[lo])})")
    return out


def meld_label(variant: "Variant", notation: str) -> str:
    """A player's name for one group of a decomposition (:attr:`ScoreResult.decomposition`):
    ``'(777s)'`` → ``'exposed pung'``, ``'[CCCC]'`` → ``'concealed kong'``, ``'123m'`` →
    ``'chow'`` (Uzje: ``'arith'``, ``'gem'``, ``'power'``, by the variant's meld templates),
    ``'55m'`` → ``'pair'``, ``'EEE'`` → ``'pung'``.  A group formed in hand is named by its
    shape alone: whether it scores as concealed is the breakdown's to say (a pung completed
    by the winning discard is exposed, common.md "Melds").  Raises
    NotationError for a string that is not tiles."""
    from .. import tiles as T

    tiles = T.parse_tiles(notation.strip("()[]"))
    if len(tiles) == 2:
        kind = "pair"
    elif len(set(tiles)) == 1:
        kind = "kong" if len(tiles) == 4 else "pung"
    else:
        ranks = tuple(sorted(T.rank_of(t) for t in tiles))
        kind = next((tpl.kind for tpl in variant.meld_templates if ranks in tpl.rank_sets), "chow")
    if notation.startswith("("):
        return f"exposed {kind}"
    if notation.startswith("["):
        return f"concealed {kind}"
    return kind


def result_from_summary(winner: dict) -> ScoreResult:
    """A :class:`ScoreResult` rebuilt from one winner of the engine's hand summary (or a
    non-winner's breakdown ``{"value", "unit", "patterns"}``), enough for :func:`arithmetic`,
    :func:`value_line` and :func:`win_payments`: ``value``, ``unit``, ``form``, ``points``,
    ``patterns`` (id, value, count, kind, description), ``melds`` → ``decomposition``,
    ``winning_group``."""
    pats = tuple(PatternScore(p["id"], p["value"], p.get("count", 1), p.get("kind", "points"),
                              p.get("description", "")) for p in winner.get("patterns", ()))
    return ScoreResult(True, winner.get("value", 0), winner.get("unit", "points"), form=winner.get("form"),
                       patterns=pats, decomposition=tuple(winner.get("melds") or ()),
                       points=winner.get("points"), winning_group=winner.get("winning_group"))


__all__ = ["Payment", "arithmetic", "pattern_amount", "unit_value", "value_line", "win_payments",
           "result_from_summary", "num"]
