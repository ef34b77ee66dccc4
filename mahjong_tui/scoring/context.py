"""What the scorer is told about a hand, and what it answers.

The engine builds a :class:`HandContext` for a would-be winner (to decide whether a win is
legal and what it is worth) and for every other player at the end of a hand (variants whose
losers score, classic.md "Scoring").  The ``score`` CLI builds the same object from a hand string
and its context flags (``CLI.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..melds import Meld

# Situations, as named by CLI.md "Context flags".
SITUATIONS = (
    "kong_replacement", "double_kong_replacement", "robbing_kong", "discard_after_kong",
    "last_wall_tile", "last_discard", "heavenly", "earthly", "ten_honour_discards",
    "bloom_tile", "robbing_the_eighth", "flower_replacement",
    # the winning tile is a replacement drawn in the turn of the last ordinary draw (Singapore
    # last_tile "or its replacements", singapore.md "Tai table")
    "last_wall_replacement",
    # Uzje six_flowers (G-UZ-14): the sixth flower was just received
    "sixth_flower",
    # DMJL/BMJA: the winner declared Original Call with his first discard (dmjl.md, bmja.md)
    "original_call",
    # engine-only detail (G-OX-4 second reading): the winning discard is a tile another player
    # held a concealed pung of and could have claimed for a kong.
    "kong_claimable_discard",
)


@dataclass(frozen=True)
class HandContext:
    """One player's hand at the moment it is scored.

    - ``concealed``: tile codes held concealed, INCLUDING the winning tile when it sits in the
      concealed part (self-draw, or a discard win not completing a declared meld);
      13 − 3·len(melds) or 14 − 3·len(melds) tiles;
    - ``melds``: declared melds (claimed pungs/chows/kongs, declared concealed kongs), in the
      order they were made; a claimed meld's ``from_seat`` names its feeder counted from the
      dealer (East 0, South 1, West 2, North 3 — the seat whose wind is
      ``(EAST, SOUTH, WEST, NORTH)[from_seat]``), the numbering of ``discarder`` and
      ``fed_third_meld`` below; None where the feeder is unknown (hand strings);
    - ``bonus``: flowers/seasons/animals held;
    - ``winning_tile``: the tile that completed the hand (None for a non-winner);
    - ``self_draw``: True when the winning tile came from the wall (incl. replacements);
    - ``seat_wind`` / ``prevailing_wind``: wind tile codes (tiles.EAST …);
    - ``situations``: names from :data:`SITUATIONS`;
    - ``claimed_concealed``: tiles in ``concealed`` that were picked up from discards without
      melding (Oxenstierna pick-up, G-OX-2): a pung containing one is open;
    - ``discarder``: seat wind code of the player whose discard won (None for self-draw or unknown);
    - ``fed_third_meld``: seat wind code of the player whose discard formed the meld that makes
      him pay for all (burdened payment, yangzhou.md "Settlement", singapore.md "Settlement"), for a context whose melds do not name
      their feeders (the ``score`` command's ``--liable``); he pays for all only when the hand
      holds that meld (:func:`~mahjong_tui.scoring.settlement.held_liability_rules`); the
      engine's contexts leave it None;
    - ``indicators``: face-up indicator tiles (Uzje bonus tiles);
    - ``winner``: False when scoring a non-winner's hand (Classic losers);
    - ``kong_chain``: the kong types (``"concealed"`` / ``"exposed"`` / ``"added"``) declared in
      the winner's turn before the winning replacement tile, in order (Uzje multi_quad_draw);
      () when none or unknown.
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    bonus: tuple[int, ...] = ()
    winning_tile: int | None = None
    self_draw: bool = False
    seat_wind: int = 52
    prevailing_wind: int = 52
    situations: frozenset[str] = frozenset()
    claimed_concealed: tuple[int, ...] = ()
    discarder: int | None = None
    fed_third_meld: int | None = None
    indicators: tuple[int, ...] = ()
    winner: bool = True
    kong_chain: tuple[str, ...] = ()

    @property
    def is_dealer(self) -> bool:
        """East is the dealer (common.md "Seats and turn order")."""
        return self.seat_wind == 52


@dataclass(frozen=True)
class PatternScore:
    """One scoring item of a breakdown.

    ``kind`` is the table it comes from (``points``, ``doublings``, ``special``,
    ``multipliers``, ``fan``, ``tai``), or ``limit`` for a limit hand of the ``tai`` scheme
    (valued in ``[scoring.special]``, singapore.md "Winning hands"); ``value`` is the per-item value from the
    variant file; ``count`` how many times it applies; ``description`` a player's words for it.
    """

    id: str
    value: float
    count: int = 1
    kind: str = "points"
    description: str = ""

    @property
    def total(self) -> float:
        return self.value * self.count


@dataclass(frozen=True)
class ScoreResult:
    """The scorer's answer.

    - ``winning``: the hand is a legal win in this variant (for a winner context);
    - ``reason``: why not, in a player's words, when ``winning`` is False;
    - ``form``: ``standard`` / ``seven_pairs`` / ``thirteen_orphans`` (None for a non-win);
    - ``patterns``: the breakdown of the best decomposition;
    - ``value``: the hand's value in ``unit`` (points after doublings and limit; multiplier;
      fan; tai); for a non-winner's hand in Classic, his own score;
    - ``payments``: seat wind letter → amount for this win alone (positive = receives), or None
      where the payer is unknown or the settlement makes no transfers (CLI.md);
    - ``decomposition``: the melds and pair used (notation strings) for display: the
      declared melds, then the melds formed in hand, then the pair (seven pairs: the pairs;
      empty for the forms without groups, thirteen orphans, flower wins);
    - ``winning_group``: index into ``decomposition`` of the group the scorer put the winning
      tile in (None: no such group, or unknown);
    - ``points``: the points a ladder scheme pays for ``value`` (Ùzje), else None.
    """

    winning: bool
    value: float = 0
    unit: str = "points"
    form: str | None = None
    patterns: tuple[PatternScore, ...] = ()
    reason: str | None = None
    payments: Mapping[str, float] | None = None
    decomposition: tuple[str, ...] = ()
    points: float | None = None
    winning_group: int | None = None
