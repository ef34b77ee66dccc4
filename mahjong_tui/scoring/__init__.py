"""Scoring: the pattern library, the scoring schemes and settlement.

What a pattern is lives in one place, :mod:`~mahjong_tui.scoring.patterns`: named detectors
with parameters (a flush by "honours allowed", a triplet by tile class, concealment and size,
waits, situations, bonus tiles...) and the combiners.  A variant file lists its patterns
(``[scoring.patterns]``: detector, parameters, name, who it applies to, what it replaces),
values them in its value tables and names its scheme (``scoring.scheme``, ``variants/README.md``
"Scoring patterns").  The scheme modules say how a hand's arrangements are read and combined
and what makes a win legal:

- ``points_doublings`` — Classic Chinese (seed 003, classic.md "Scoring"): points then
  doublings with a limit, special hands;
- ``multiplier`` — Yuxi (seed 000, yuxi.md "Scoring table"): product of multipliers;
- ``fan`` — Yangzhou (seed 004, yangzhou.md "Fan table") and ``tai`` — Singapore (seed 001,
  singapore.md "Tai table"): a sum with a cap;
- ``classical`` — Classical Chinese as the DMJL and the BMJA play it (dmjl.md, bmja.md);
- ``fan_ladder`` — Ùzje (seed 002, uzje.md "Fan table", "From fan to points"): fan in tenths, a
  ladder from fan to points, limits.

Each scheme module exposes ``evaluate(variant, ctx) -> ScoreResult`` and
``score_loser(variant, ctx) -> ScoreResult``.  Shared machinery (arrangements of a hand, wait
shapes, hand facts) lives in ``common.py``; turning results into score changes for the four
seats lives in ``settlement.py``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from .common import won_context
from .context import HandContext, PatternScore, ScoreResult, SITUATIONS
from . import patterns_classical  # noqa: F401,E402  (registers the DMJL/BMJA detectors before any variant loads)

if TYPE_CHECKING:  # pragma: no cover
    from ..variant import Variant

_SCHEME_MODULES = {
    "points_doublings": "points_doublings",
    "multiplier": "multiplier",
    "fan": "fan",
    "tai": "tai",
    "fan_ladder": "fan_ladder",
    "classical": "classical",
}


def _scheme(name: str):
    try:
        return import_module(f".{_SCHEME_MODULES[name]}", __name__)
    except KeyError:
        raise ValueError(f"unknown scoring scheme {name!r}; known: {', '.join(_SCHEME_MODULES)}") from None


def known_pattern_ids(scheme: str, scoring=None) -> frozenset[str]:
    """The pattern ids a variant can value (used to validate variant files): the ids its
    ``scoring.patterns`` lists (:mod:`~mahjong_tui.scoring.patterns`), and those a scheme
    module still detects by itself (``PATTERN_IDS``)."""
    from .patterns import known_ids

    listed = known_ids(scoring) if scoring is not None else frozenset()
    try:
        return frozenset(vars(_scheme(scheme)).get("PATTERN_IDS", frozenset())) | listed
    except ModuleNotFoundError:
        return listed


def evaluate(variant: "Variant", ctx: HandContext) -> ScoreResult:
    """Decide whether ``ctx`` is a legal win in ``variant`` and score it.

    Returns a :class:`ScoreResult`; ``winning`` is False with a ``reason`` when the hand is
    not complete or the variant refuses the win (a chow-completing tile in Classic, under the
    minimum in Yangzhou, a basic win on a discard in Yuxi).  The scheme is given
    :func:`~mahjong_tui.scoring.common.won_context` of ``ctx``: a win on a replacement or
    bloom tile, or a heavenly hand, is a self-draw in every variant whatever ``ctx`` says.
    """
    return _scheme(variant.scoring["scheme"]).evaluate(variant, won_context(variant, ctx))


def meld_kind(variant: "Variant", tiles) -> str:
    """The meld family of three or four tiles in ``variant`` (``pung``, ``kong``, ``chow``, or a
    template of its ``[melds]`` such as Ùzje's ``arith``, ``gem``, ``power``; uzje.md "Melds and
    winning hands"); a zero read as a number is rank 0 of its suit."""
    from .fan_ladder import meld_kind as _meld_kind

    return _meld_kind(variant, tiles)


def score_loser(variant: "Variant", ctx: HandContext) -> ScoreResult:
    """Score a non-winner's hand (variants with ``scoring.score_losers``; else value 0)."""
    return _scheme(variant.scoring["scheme"]).score_loser(variant, ctx)


__all__ = [
    "HandContext", "PatternScore", "ScoreResult", "SITUATIONS",
    "evaluate", "score_loser", "known_pattern_ids", "meld_kind",
]
