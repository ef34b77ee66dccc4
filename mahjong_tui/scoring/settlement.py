"""Hand-level settlement: who pays whom after a hand, for every variant.

The mode is ``variant.settlement['mode']``:

- ``cumulative`` (Classic default, G-OX-6): every player's own score S is added to his total,
  winners and losers alike; no transfers; a drawn hand scores nothing.
- ``classical_zero_sum`` (Classic option, GAPS §5e, [HARR], [JD-EU]): each winner receives his
  S from every non-winner; the non-winners then pay each other the difference of their
  scores; with ``east_pays_double`` any payment to or from East is doubled (G-OX-6).
- ``winner_collects`` (Yuxi §2e, Yangzhou §6e, Uzje §4e): V = ``result.value`` (or
  ``result.points`` where the scheme turns its value into points, Uzje's ladder) × ``scoring.base``.
  Self-draw: each other player pays ``self_draw_each``·V.  Discard win: the discarder pays
  ``discarder``·V and each other loser ``discard_others``·V.  Several winners on one discard
  (Yuxi, G-YX-5): each winner is paid separately (fellow winners never pay each other).
  Robbing a kong: the engine passes the robbed player as ``discarder`` (GAPS §2e, G-YZ-2);
  with ``robbed_pays_as_discarder = false`` a robbed-kong win is paid as a self-draw.
  Liability (pao, GAPS §6e, G-YZ-6): when a winner's result has a pattern listed in
  ``liability_patterns`` and ``liable`` names a seat for him, that seat pays the whole payout —
  3·``self_draw_each``·V on a self-draw; ``discarder``·V + 2·``discard_others``·V on a discard —
  and nobody else pays that winner.

Amounts are in the variant's score unit; whole numbers come back as ``int``.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from .. import tiles as T
from .context import HandContext, ScoreResult

WIND_LETTERS = ("E", "S", "W", "N")


def _num(x):
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def settle(
    variant,
    *,
    seat_winds: Sequence[int],
    winners: Sequence[tuple[int, ScoreResult, HandContext]],
    losers: Mapping[int, ScoreResult],
    self_draw: bool,
    discarder: int | None,
    liable: Mapping[int, int] | None = None,
) -> list[float]:
    """Score changes of the 4 seats (index = seat) for one finished hand.

    - ``seat_winds``: wind tile code of each seat (tiles.EAST … NORTH); East is the dealer;
    - ``winners``: ``(seat, result, ctx)`` per winner (empty for an exhaustive draw);
    - ``losers``: seat → the non-winner's own :class:`ScoreResult` (Classic; a missing seat
      scores 0);
    - ``self_draw``: the winning tile came from the wall;
    - ``discarder``: seat whose discard won (the robbed player for a robbed kong); None on a
      self-draw;
    - ``liable``: winner seat → seat that pays for him (pao), or None.

    Raises ValueError for an unknown mode, fewer/more than 4 seats, or a discard win without a
    ``discarder`` in ``winner_collects`` mode.  A drawn hand (no winners) gives zeros in every
    mode.  Rule sources: GAPS §2e, §5e, §6e (see the module docstring).
    """
    if len(seat_winds) != 4:
        raise ValueError(f"settle needs the seat winds of 4 seats, got {len(seat_winds)}")
    delta = [0.0] * 4
    if not winners:
        return [0] * 4
    mode = variant.settlement["mode"]
    cfg = variant.settlement
    if mode == "cumulative":
        for seat, res, _ in winners:
            delta[seat] += res.value
        win_seats = {w[0] for w in winners}
        for seat, res in losers.items():
            if seat not in win_seats:
                delta[seat] += res.value
        return [_num(d) for d in delta]

    if mode == "classical_zero_sum":
        east = next((i for i, w in enumerate(seat_winds) if w == T.EAST), None)
        double = bool(cfg.get("east_pays_double", False))

        def pay(frm: int, to: int, amount: float) -> None:
            if double and east in (frm, to):
                amount *= 2
            delta[frm] -= amount
            delta[to] += amount

        win_seats = [w[0] for w in winners]
        others = [s for s in range(4) if s not in win_seats]
        for seat, res, _ in winners:
            for o in others:
                pay(o, seat, res.value)
        scores = {s: (losers[s].value if s in losers else 0) for s in others}
        for i, a in enumerate(others):
            for b in others[i + 1:]:
                diff = scores[a] - scores[b]
                if diff > 0:
                    pay(b, a, diff)
                elif diff < 0:
                    pay(a, b, -diff)
        return [_num(d) for d in delta]

    if mode == "winner_collects":
        base = variant.scoring.get("base", 1)
        each = cfg.get("self_draw_each", 1)
        f_disc = cfg.get("discarder", 1)
        f_other = cfg.get("discard_others", 0)
        patterns = set(cfg.get("liability_patterns", ()))
        win_seats = {w[0] for w in winners}
        for seat, res, ctx in winners:
            v = (res.value if res.points is None else res.points) * base   # Uzje: the ladder's points
            as_self_draw = self_draw
            if (not self_draw and ctx is not None and "robbing_kong" in ctx.situations
                    and not cfg.get("robbed_pays_as_discarder", True)):
                as_self_draw = True
            payer = None
            if liable and seat in liable and liable[seat] != seat and any(p.id in patterns for p in res.patterns):
                payer = liable[seat]
            if as_self_draw:
                losers_ = [s for s in range(4) if s != seat]
                if payer is not None:
                    amount = each * v * len(losers_)
                    delta[payer] -= amount
                    delta[seat] += amount
                else:
                    for s in losers_:
                        delta[s] -= each * v
                        delta[seat] += each * v
            else:
                if discarder is None:
                    raise ValueError("a discard win needs the discarder's seat to settle")
                rest = [s for s in range(4) if s != seat and s != discarder and s not in win_seats]
                if payer is not None:
                    amount = f_disc * v + f_other * v * (4 - 2)
                    delta[payer] -= amount
                    delta[seat] += amount
                else:
                    delta[discarder] -= f_disc * v
                    delta[seat] += f_disc * v
                    for s in rest:
                        delta[s] -= f_other * v
                        delta[seat] += f_other * v
        return [_num(d) for d in delta]

    raise ValueError(f"unknown settlement mode {mode!r}; known: cumulative, classical_zero_sum, winner_collects")


def payments_for_score(variant, result: ScoreResult, ctx: HandContext) -> dict[str, float] | None:
    """Payments of one win for the ``score`` command (spec/cli.md): seat wind letter → amount.

    The winner sits at ``ctx.seat_wind``, the discarder at ``ctx.discarder`` (or East for the
    ``earthly`` situation when no discarder is given); liability from ``ctx.fed_third_meld``.
    In ``classical_zero_sum`` the winner receives his S from each of the other three (losers'
    scores are unknown to ``score``), doubled to or from East with ``east_pays_double``.

    Returns None when the hand is not a win, the mode is ``cumulative`` (no transfers), or a
    ``winner_collects`` discard win has no known discarder (or names the winner himself).
    """
    if not result.winning:
        return None
    mode = variant.settlement["mode"]
    if mode == "cumulative":
        return None
    seat_winds = [T.EAST, T.SOUTH, T.WEST, T.NORTH]
    if ctx.seat_wind not in seat_winds:
        return None
    winner = seat_winds.index(ctx.seat_wind)
    discarder = None
    if not ctx.self_draw:
        d = ctx.discarder
        if d is None and "earthly" in ctx.situations:
            d = T.EAST
        if d is not None and d in seat_winds and d != ctx.seat_wind:
            discarder = seat_winds.index(d)
        elif mode == "winner_collects":
            return None
    liable = None
    if ctx.fed_third_meld is not None and ctx.fed_third_meld in seat_winds and ctx.fed_third_meld != ctx.seat_wind:
        liable = {winner: seat_winds.index(ctx.fed_third_meld)}
    delta = settle(variant, seat_winds=seat_winds, winners=[(winner, result, ctx)], losers={},
                   self_draw=ctx.self_draw, discarder=discarder, liable=liable)
    return {WIND_LETTERS[i]: delta[i] for i in range(4)}


__all__ = ["settle", "payments_for_score"]
