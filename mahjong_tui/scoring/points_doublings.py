"""Points and doublings: Classic Chinese, Oxenstierna family version.

Rule source: seed ``003_c2c3ebf1c9e04096.txt`` ("Scoring System", "Winning Hand",
"Differences to Classic Chinese Rules"), restated in classic.md "Winning hands", "Scoring" with the gap entries
G-OX-2 … G-OX-6, G-OX-9 and the special-hand rule of classic.md "Special hands".

The VALUES live in the variant file (``[scoring.points]``, ``[scoring.doublings]``,
``[scoring.special]``, ``scoring.limit``); the patterns are listed and parameterised in ``[scoring.patterns]`` and
detected by :mod:`~mahjong_tui.scoring.patterns`; this module reads the arrangements.  An id that a
house-rule file leaves out of its tables simply never scores.

Scoring (classic.md "Scoring"): every player scores his own hand.  S = points × 2^doublings, capped at
``scoring.limit`` (0 = no cap).  A winner's hand is scored on every arrangement
(:func:`~mahjong_tui.scoring.common.arrangements`) and the best one is used; a special hand
scores its fixed value and nothing else.

Decisions recorded here (not spelled out by the source):

- A special hand is preferred to normal scoring when it is worth at least as much (classic.md "Special hands"
  tie rule); only seven pairs (500) can be beaten by a normal reading of the same tiles (e.g. a
  full-suit chow hand with doublings), and then the normal reading is used (common.md "Decomposition rule").
- ``three_small_masters`` (3 doublings) adds to the two ``dragon_pung`` doublings of its pungs
  (classic.md "Scoring" lists no replacement), so it always reaches the limit; a house file that wants the
  other reading lists ``scoring.exclusions = [["three_small_masters", "dragon_pung"]]``
  (exclusions are applied to every breakdown, :func:`~mahjong_tui.scoring.common.apply_exclusions`).
- ``hidden_treasure``: four concealed pungs/kongs + pair and no picked-up discard anywhere in
  the hand (G-OX-2, G-OX-5); a discard win on the pair qualifies (the pungs stay concealed);
  a discard completing a pung does not (common.md "Melds").
- ``heavenly_blessing`` needs the winner to be East, ``earthly_blessing`` a non-dealer winner.
- ``mahjong_last_tile`` needs a self-drawn win (situation ``last_wall_tile``).
- ``robbing_kong`` doubles on situation ``robbing_kong``, or on ``kong_claimable_discard``
  when ``claims.rob_kong_concealed_pung`` is on (G-OX-4).
- Seven pairs: no declared melds; a picked-up tile does not spoil it (G-OX-2 names pungs only).
"""

from __future__ import annotations

from .. import tiles as T
from ..melds import CHOW, PUNG
from . import patterns as P
from .common import STANDARD, Arrangement, Group, apply_exclusions, arrangements, declared_groups, hand_facts
from .context import HandContext, PatternScore, ScoreResult

_NORMAL = ("points", "doublings")
_SPECIAL = ("special",)


def __getattr__(name: str):
    """``PATTERN_IDS`` (frozenset), ``DESCRIPTIONS`` (id → a player's words) and
    ``POINT_IDS`` / ``DOUBLING_IDS`` / ``SPECIAL_IDS`` (the ids of each value table): the
    patterns ``variants/classic.toml`` lists (:func:`mahjong_tui.scoring.patterns.shipped`)."""
    if name == "PATTERN_IDS":
        return P.shipped("classic", "ids")
    if name == "DESCRIPTIONS":
        return P.shipped("classic", "names")
    table = {"POINT_IDS": "points", "DOUBLING_IDS": "doublings", "SPECIAL_IDS": "special"}.get(name)
    if table is not None:
        from ..variant import load_variant

        return tuple(load_variant("classic").scoring[table])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


CHOW_REFUSAL = ("the winning tile completes a chow (Oxenstierna rule: a hand may not be completed "
                "by a chow; the last tile must complete a pung, a kong or the pair)")


# ----------------------------------------------------------------------------------------
# Detection: the pattern library, as variants/classic.toml lists it
# ----------------------------------------------------------------------------------------


def _num(x):
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def _finish(variant, found) -> tuple[float, tuple[PatternScore, ...]]:
    """Breakdown after ``scoring.exclusions`` (none in classic.toml; a house file may list e.g.
    ``["three_small_masters", "dragon_pung"]`` to make the former replace the latter) and its
    value, S = points × 2^doublings capped at ``scoring.limit`` (classic.md "Scoring")."""
    pats = tuple(apply_exclusions(variant, P.scores(variant, found, _NORMAL)))
    return P.combine_points_doublings(variant, pats), pats


def _score_standard(variant, ctx: HandContext, arr: Arrangement, facts) -> tuple[float, tuple[PatternScore, ...]]:
    """The winner's items of one standard arrangement: every player's items, then the pair,
    the way he went out and the hand's doublings (classic.md "Points", "Doublings")."""
    return _finish(variant, P.detect(variant, P.Hand(variant, ctx, arr, facts=facts), tables=_NORMAL))


def _specials(variant, ctx: HandContext, arrs: list[Arrangement], facts) -> list[tuple[str, Arrangement]]:
    """Special hands present (id, the first arrangement showing it), in the file's order
    (``[scoring.special]`` values them).  Exempt from the chow rule (classic.md "Winning hands")."""
    first: dict[str, Arrangement] = {}
    for arr in arrs:
        for f in P.detect(variant, P.Hand(variant, ctx, arr, facts=facts), tables=_SPECIAL):
            first.setdefault(f.spec.id, arr)
    return [(s.id, first[s.id]) for s in P.patterns_of(variant) if s.id in first]


def _completes_chow(variant, arr: Arrangement) -> bool:
    if variant.claims.get("win_completing_chow", True) or arr.form != STANDARD:
        return False
    g = arr.winning_group
    return g is not None and g.kind == CHOW


def evaluate(variant, ctx: HandContext) -> ScoreResult:
    """Decide whether ``ctx`` is a legal Classic win and score it (seed 003, classic.md "Winning hands", "Scoring").

    Returns a :class:`ScoreResult` in ``variant.scoring['unit']`` (points): ``value`` = the
    best of the special hands present (fixed value, nothing else counted) and the best
    standard arrangement (points × 2^doublings, capped at ``scoring.limit``); ``patterns``
    the breakdown (kinds ``points`` / ``doublings`` / ``special``); ``payments`` from
    :func:`~mahjong_tui.scoring.settlement.payments_for_score` (None in ``cumulative``).

    ``winning`` is False, with a ``reason``, when the hand is not complete in any allowed form,
    or when (``claims.win_completing_chow`` false, classic.md "Winning hands") every complete standard reading puts the
    winning tile in a chow and no special hand applies.  A non-winner context
    (``ctx.winner`` False) is scored with :func:`score_loser`.  No exceptions for well-formed
    contexts.
    """
    if not ctx.winner:
        return score_loser(variant, ctx)
    unit = variant.scoring["unit"]
    arrs = arrangements(variant, ctx)
    if not arrs:
        forms = ", ".join(f.replace("_", " ") for f in variant.win["forms"])
        return ScoreResult(False, 0, unit, reason=f"not a complete hand (winning forms: {forms})")
    facts = hand_facts(ctx, variant.tiles_rules["ranks"][1])

    special = None
    for pid, arr in _specials(variant, ctx, arrs, facts):
        val = variant.scoring["special"][pid]
        if special is None or val > special[1]:
            special = (pid, val, arr)

    normal = None
    refused = False
    for arr in arrs:
        if arr.form != STANDARD:
            continue
        if _completes_chow(variant, arr):
            refused = True
            continue
        val, pats = _score_standard(variant, ctx, arr, facts)
        if normal is None or val > normal[0]:
            normal = (val, pats, arr)

    from .settlement import payments_for_score

    if special is not None and (normal is None or special[1] >= normal[0]):
        pid, val, arr = special
        res = ScoreResult(True, _num(val), unit, form=arr.form,
                          patterns=(PatternScore(pid, val, 1, "special", P.spec_of(variant, pid).name),),
                          decomposition=arr.notation(), winning_group=arr.winning_index())
    elif normal is not None:
        val, pats, arr = normal
        res = ScoreResult(True, val, unit, form=STANDARD, patterns=pats,
                          decomposition=arr.notation(), winning_group=arr.winning_index())
    elif refused:
        return ScoreResult(False, 0, unit, reason=CHOW_REFUSAL)
    else:
        forms = sorted({a.form for a in arrs})
        return ScoreResult(False, 0, unit,
                           reason=f"the hand ({', '.join(f.replace('_', ' ') for f in forms)}) scores nothing in this variant")
    return ScoreResult(res.winning, res.value, res.unit, res.form, res.patterns,
                       payments=payments_for_score(variant, res, ctx), decomposition=res.decomposition,
                       winning_group=res.winning_group)


# ----------------------------------------------------------------------------------------
# Losers
# ----------------------------------------------------------------------------------------


def score_loser(variant, ctx: HandContext) -> ScoreResult:
    """Score a non-winner's hand (G-OX-6; seed 003 "points are awarded … to all players").

    Counted: declared melds (claimed pungs/kongs open; declared concealed kongs hidden; chows
    0), one hidden pung for every kind with ≥ 3 concealed copies (open if a picked-up discard
    must be in it, G-OX-2), flowers/seasons, and the "all players" doublings (dragon, own and
    prevailing wind pungs, all flowers/seasons, half and full suit).  No pair, no mahjong
    points.  ``winning`` is False; ``value`` is the player's own score S (capped at the limit);
    ``payments`` None.  With ``scoring.score_losers`` false the value is 0.
    """
    unit = variant.scoring["unit"]
    if not variant.scoring.get("score_losers", False):
        return ScoreResult(False, 0, unit)
    groups = declared_groups(ctx)
    ccounts = T.counts_of(ctx.concealed)
    claimed = T.counts_of(ctx.claimed_concealed)
    for t, n in enumerate(ccounts):
        if n >= 3:
            groups.append(Group(PUNG, (t, t, t), claimed[t] <= n - 3, False, None, False))
    loser_ctx = ctx if not ctx.winner else HandContext(**{**ctx.__dict__, "winner": False})
    hand = P.Hand(variant, loser_ctx, None, groups=groups)
    value, pats = _finish(variant, P.detect(variant, hand, every_player=True, tables=_NORMAL))
    return ScoreResult(False, value, unit, patterns=pats,
                       decomposition=tuple(g.notation() for g in groups))


__all__ = ["evaluate", "score_loser", "CHOW_REFUSAL"]
