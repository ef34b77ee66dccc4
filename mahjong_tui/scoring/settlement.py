"""Hand-level settlement: who pays whom after a hand, for every variant.

The mode is ``variant.settlement['mode']``:

- ``cumulative`` (Classic default, G-OX-6): every player's own score S is added to his total,
  winners and losers alike; no transfers; a drawn hand scores nothing.
- ``classical_zero_sum`` (Classic option, classic.md "Settlement"; the European practice of Harr's *Pung Chow* and Jade Dragon's rules): each winner receives his
  S from every non-winner; the non-winners then pay each other the difference of their
  scores; with ``east_pays_double`` any payment to or from East is doubled (G-OX-6).
  DMJL and BMJA play it too (dmjl.md "Settlement"); with ``settlement.dangerous_game`` a
  winner the engine names in ``liable`` (he claimed or won on a dangerous discard) is paid by
  that discarder alone all that the other three would have paid him, and the non-winners do
  not settle among themselves.
- ``winner_collects`` (yuxi.md "Settlement", yangzhou.md "Settlement", singapore.md "Settlement", uzje.md "Settlement"): V = :func:`result_value`
  — :func:`hand_value` of ``result.value``, or of ``result.points`` where the scheme turns its
  value into points (Uzje's ladder): the value × ``scoring.base``, or with ``hand_value =
  "doubling"`` ``scoring.base`` × 2^(value − 1) (Singapore: u·2^(tai − 1)).  Self-draw: each
  other player pays ``self_draw_each``·V.  Discard win: the discarder pays ``discarder``·V and
  each other loser ``discard_others``·V; with ``shooter_pays_all`` the discarder pays all of it
  alone.  Several winners on one discard (Yuxi, G-YX-5): each winner is paid separately
  (fellow winners never pay each other).
  Robbing a kong: the engine passes the robbed player as ``discarder`` (yuxi.md "Settlement", G-YZ-2);
  with ``robbed_pays_as_discarder = false`` a robbed-kong win is paid as a self-draw.
  Liability (pao / bao, yangzhou.md "Settlement", G-YZ-6, singapore.md "Settlement"): when a winner's result has a pattern with a
  liability rule (:func:`liability_rules`) and ``liable`` names a seat for him, that seat pays
  the whole payout — 3·``self_draw_each``·V on a self-draw; ``discarder``·V +
  2·``discard_others``·V on a discard — and nobody else pays that winner.  Who is liable is
  found by :func:`liable_meld` / :func:`liable_in_context` from the rule.

Amounts are in the variant's score unit; whole numbers come back as ``int``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from .. import tiles as T
from .context import HandContext, ScoreResult

WIND_LETTERS = ("E", "S", "W", "N")


def hand_value(variant, value: float) -> float:
    """V, what one unit of payment is worth for a hand of ``value`` (in the scoring unit):
    ``value`` × ``scoring.base`` (``settlement.hand_value = "linear"``), or ``scoring.base`` ×
    2^(value − 1) for ``"doubling"`` (Singapore, singapore.md "Settlement": V(t) = u·2^(min(t, 5) − 1); the
    scorer has already capped t).  A value ≤ 0 is worth 0."""
    base = variant.scoring.get("base", 1)
    if variant.settlement.get("hand_value", "linear") == "doubling":
        return base * 2 ** (value - 1) if value > 0 else 0
    return value * base


def result_value(variant, res: ScoreResult) -> float:
    """V of a scored win: :func:`hand_value` of its ``points`` where the scheme pays points
    (Uzje's ladder, uzje.md "From fan to points"), else of its ``value``."""
    return hand_value(variant, res.value if res.points is None else res.points)


def liability_rules(variant) -> dict[str, str]:
    """Pattern id → liability rule of the variant: ``settlement.liability``, plus the older
    spelling ``liability_patterns`` + ``liability_meld = N`` (each pattern → ``"meld:N"``).

    Rules (singapore.md "Settlement", yangzhou.md "Settlement"): ``"discarder"`` — the seat passed as discarder pays for all (the
    robbed player of a robbed kong, the drawer of a robbed eighth flower); ``"meld:N"`` — the
    feeder of the winner's N-th claimed meld; ``"dragon_meld:N"`` / ``"wind_meld:N"`` — the
    feeder of his N-th declared dragon / wind pung or kong, if it was claimed."""
    cfg = variant.settlement
    out: dict[str, str] = {}
    n = cfg.get("liability_meld", 0)
    if n:
        out.update({pid: f"meld:{n}" for pid in cfg.get("liability_patterns", ())})
    out.update(cfg.get("liability", {}) or {})
    return out


def liable_meld(rule: str, melds) -> int | None:
    """Index into ``melds`` (declared melds in the order they were made, each with
    ``from_seat``) of the meld whose feeder a meld rule (``"meld:N"``, ``"dragon_meld:N"``,
    ``"wind_meld:N"``) makes liable, or None when the winner has no such meld or it was not
    claimed from a discard.  ``"discarder"`` gives None (the caller knows the discarder)."""
    kind, _, n = rule.partition(":")
    if kind == "discarder" or not n:
        return None
    n = int(n)
    if kind == "meld":
        claimed = [i for i, m in enumerate(melds) if m.from_seat is not None]
        return claimed[n - 1] if len(claimed) >= n else None
    test = T.is_dragon if kind == "dragon_meld" else T.is_wind
    found = [i for i, m in enumerate(melds) if m.is_triplet and test(m.tiles[0])]
    if len(found) < n or melds[found[n - 1]].from_seat is None:
        return None
    return found[n - 1]


def _fed_melds(ctx: HandContext) -> tuple:
    """``ctx.melds`` as a hand string shows them (no ``from_seat``): each claimed meld — an
    exposed ``(…)`` meld, not a concealed kong, not the meld the winning tile completed (that
    discard is paid by its discarder in the usual way, singapore.md "Settlement") — is marked
    as fed by somebody (``from_seat = -1``: the seat is not known); the others as not fed."""
    from .common import winning_tile_location

    loc = winning_tile_location(ctx)
    out = []
    for i, m in enumerate(ctx.melds):
        fed = m.from_seat is not None or (not m.concealed and i != loc)
        out.append(replace(m, from_seat=(-1 if m.from_seat is None else m.from_seat) if fed else None))
    return tuple(out)


def held_liability_rules(variant, ctx: HandContext) -> frozenset[str]:
    """The meld rules of :func:`liability_rules` (``"meld:N"``, ``"dragon_meld:N"``,
    ``"wind_meld:N"``) whose meld the hand holds as a claimed meld (:func:`liable_meld` of the
    melds in the order written, each exposed meld counted as claimed; a concealed kong and the
    meld the winning tile completed are not).  Only with such a meld can the player named by
    the ``score`` command's ``--liable`` have fed it (Yangzhou: the third exposed meld,
    yangzhou.md "Settlement", G-YZ-6; Singapore: the 3rd dragon pung/kong, the 4th wind
    pung/kong or the 4th exposed meld, singapore.md "Settlement")."""
    melds = _fed_melds(ctx)
    out = {r for r in set(liability_rules(variant).values())
           if r != "discarder" and liable_meld(r, melds) is not None}
    if variant.settlement.get("dangerous_game") and (not ctx.self_draw or any(m.from_seat is not None for m in melds)):
        out.add("dangerous_game")   # dmjl.md "Settlement": a discard he won on or claimed was a dangerous one
    return frozenset(out)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def liability_meld_words(variant) -> str | None:
    """A player's words for the melds whose feeder pays for all in ``variant`` (for messages):
    ``"the winner's 3rd exposed meld"``; None when the variant has no meld rule (no one is
    ever liable for a meld he fed)."""
    words = []
    for rule in dict.fromkeys(liability_rules(variant).values()):
        kind, _, n = rule.partition(":")
        if kind == "meld":
            words.append(f"{_ordinal(int(n))} exposed meld")
        elif kind in ("dragon_meld", "wind_meld"):
            words.append(f"{_ordinal(int(n))} {kind.split('_')[0]} pung or kong (exposed)")
    if not words:
        if variant.settlement.get("dangerous_game"):
            return "a dangerous discard that the winner won on or claimed into an exposed meld"
        return None
    return "the winner's " + (words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1])


def liable_in_context(variant, result: ScoreResult, ctx: HandContext, discarder: int | None) -> int | None:
    """The seat that pays for all for this win, or None: the first pattern of ``result``'s
    breakdown with a liability rule whose liable seat is known.  ``discarder``: the discarder's
    seat (or the robbed player's); a meld rule names the ``from_seat`` of one of ``ctx.melds``.
    Seats are counted from the dealer, as :class:`HandContext` numbers them; the winner himself
    is never liable (None).  This is the one place that decides liability: :func:`settle`
    applies what it is given."""
    rules = liability_rules(variant)
    own = T.WINDS.index(ctx.seat_wind) if ctx.seat_wind in T.WINDS else None
    for p in result.patterns:
        rule = rules.get(p.id)
        if rule is None:
            continue
        if rule == "discarder":
            seat = discarder
        else:
            i = liable_meld(rule, ctx.melds)
            seat = ctx.melds[i].from_seat if i is not None else None
        if seat is not None:
            return seat if seat != own else None
    return None


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
    - ``liable``: winner seat → seat that pays for him (pao), or None; decided by
      :func:`liable_in_context` (only a hand with a liability pattern has one).

    Raises ValueError for an unknown mode, fewer/more than 4 seats, or a discard win without a
    ``discarder`` in ``winner_collects`` mode.  A drawn hand (no winners) gives zeros in every
    mode.  Rule sources: yuxi.md "Settlement", classic.md "Settlement", yangzhou.md "Settlement" (see the module docstring).
    """
    if len(seat_winds) != 4:
        raise ValueError(f"settle needs the seat winds of 4 seats, got {len(seat_winds)}")
    delta = [0.0] * 4
    if not winners:
        return [0] * 4
    mode = variant.settlement["mode"]
    if mode == "cumulative":
        for seat, res, _ in winners:
            delta[seat] += res.value
        win_seats = {w[0] for w in winners}
        for seat, res in losers.items():
            if seat not in win_seats:
                delta[seat] += res.value
        return [_num(d) for d in delta]

    # who pays whom is written once, as payments the scoring screen also lists
    # (explain.py imports this module, hence the import here)
    from .explain import win_payments, zero_sum_payments

    if mode == "classical_zero_sum" and liable and any(liable.get(seat) is not None for seat, _, _ in winners):
        # a dangerous discard that made somebody win (dmjl.md "Settlement"): its discarder pays
        # the winner all that the three others would have paid him, and nobody else pays
        for seat, res, _ in winners:
            payer = liable.get(seat)
            if payer is None:
                continue
            whole = sum(p.amount for p in zero_sum_payments(
                variant, seat_winds=[T.name(w) for w in seat_winds], winners=[(seat, res.value)], loser_scores={})
                if p.payee == seat)
            delta[payer] -= whole
            delta[seat] += whole
        return [_num(d) for d in delta]
    if mode == "classical_zero_sum":
        pays = zero_sum_payments(variant, seat_winds=[T.name(w) for w in seat_winds],
                                 winners=[(seat, res.value) for seat, res, _ in winners],
                                 loser_scores={s: r.value for s, r in losers.items()})
    elif mode == "winner_collects":
        win_seats = {w[0] for w in winners}
        pays = [p for seat, res, ctx in winners
                for p in win_payments(variant, res, winner=seat, self_draw=self_draw, discarder=discarder,
                                      liable=liable.get(seat) if liable else None, winners=win_seats,
                                      situations=ctx.situations if ctx is not None else ())]
    else:
        pays = None
    if pays is not None:
        for p in pays:
            delta[p.payer] -= p.amount
            delta[p.payee] += p.amount
        return [_num(d) for d in delta]

    raise ValueError(f"unknown settlement mode {mode!r}; known: cumulative, classical_zero_sum, winner_collects")


def payments_for_score(variant, result: ScoreResult, ctx: HandContext) -> dict[str, float] | None:
    """Payments of one win for the ``score`` command (CLI.md): seat wind letter → amount.

    The winner sits at ``ctx.seat_wind``, the discarder at ``ctx.discarder`` (or East for the
    ``earthly`` situation when no discarder is given).  Liability (:func:`liability_rules`):
    a ``"discarder"`` rule makes the discarder (the robbed player) pay for all; a meld rule
    makes the ``from_seat`` of the meld it names pay for all (counted from East, E 0 … N 3, as
    :class:`HandContext` numbers seats, and so does this function), else
    ``ctx.fed_third_meld`` (``--fed-third-meld`` / ``--liable``: the player who fed that meld).
    For a context built by the engine this is the settlement the engine makes for a single
    winner, by seat wind.
    In ``classical_zero_sum`` the winner receives his S from each of the other three (losers'
    scores are unknown to ``score``), doubled to or from East with ``east_pays_double``.

    A player named by ``ctx.fed_third_meld`` pays for all only when the hand holds the meld he
    fed (:func:`held_liability_rules`: e.g. a third exposed meld in Yangzhou) and scores a
    pattern of that meld's rule; otherwise the hand settles as usual.  A discard win that one
    player pays for all needs no discarder: he pays the whole payout, the discarder nothing.

    Returns None when the hand is not a win, the mode is ``cumulative`` (no transfers), or a
    ``winner_collects`` discard win that nobody pays for all has no known discarder (or names
    the winner himself as the discarder).
    """
    if not result.winning:
        return None
    mode = variant.settlement["mode"]
    if mode == "cumulative":
        return None
    seat_winds = list(T.WINDS)
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
        elif d is not None and mode == "winner_collects":
            return None
    liable = None
    payer = liable_in_context(variant, result, ctx, discarder)
    fed = ctx.fed_third_meld
    if payer is None and fed in seat_winds and fed != ctx.seat_wind:
        # the caller named the feeder of a meld; he pays for all when the hand holds that meld
        # (held_liability_rules) and scores a pattern of that rule
        rules = liability_rules(variant)
        held = held_liability_rules(variant, ctx)
        if any(rules.get(p.id) in held for p in result.patterns) or "dangerous_game" in held:
            payer = seat_winds.index(fed)
    if payer is not None:
        liable = {winner: payer}
    elif not ctx.self_draw and discarder is None and mode == "winner_collects":
        return None   # somebody's discard won, nobody pays for all: who pays is not known
    delta = settle(variant, seat_winds=seat_winds, winners=[(winner, result, ctx)], losers={},
                   self_draw=ctx.self_draw, discarder=discarder, liable=liable)
    return {WIND_LETTERS[i]: delta[i] for i in range(4)}


__all__ = ["settle", "payments_for_score", "hand_value", "result_value", "liability_rules", "liable_meld", "liable_in_context",
           "held_liability_rules", "liability_meld_words"]
