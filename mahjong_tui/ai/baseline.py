"""Baseline bots: good enough to finish hands.

A bot is a seat: it is given ``view(seat)`` (a dict) and the legal actions, and returns one of
them.  It never sees the wall or other hands.  The baseline plays shanten-greedy:

- takes any legal win;
- discards the tile that leaves the lowest shanten (all discards evaluated incrementally by
  :meth:`HandShape.shanten_after_discards`), ties broken by a preference for discarding
  honours and terminals that connect with nothing (no tile-acceptance counting: that is what
  the levels in :mod:`.player` add);
- declares kongs that do not raise shanten;
- claims pung / kong / chow / pick-up when the claim lowers shanten (after its best discard).

The levels easy / normal / strong (value awareness, defence) live in
:mod:`mahjong_tui.ai.player` and implement the same :class:`Bot` interface; :func:`make_bot`
builds any of them from a seat spec.
"""

from __future__ import annotations

from .. import tiles as T
from ..engine.actions import Action
from ..variant import Variant


class Bot:
    """Interface of every automatic seat."""

    name = "bot"

    def __init__(self, variant: Variant, seat: int, seed: int | str = 0):
        self.variant = variant
        self.seat = seat
        self.seed = seed

    def choose(self, view: dict, legal: list[Action]) -> Action:  # pragma: no cover - interface
        raise NotImplementedError


class BaselineBot(Bot):
    """Shanten-greedy bot (see module doc).  Deterministic: same view ⇒ same action."""

    name = "ai:baseline"

    def __init__(self, variant: Variant, seat: int, seed: int | str = 0):
        super().__init__(variant, seat, seed)
        self.shape = variant.hand_shape
        # shanten of the 13-tile hands this bot left after its discards (its claim windows ask)
        self._claim_base: dict[tuple[tuple[int, ...], int], int] = {}
        lo, hi = variant.tiles_rules["ranks"]
        # per rank: (offset, weight) of the neighbours within the suit, and 1 if not a terminal
        self._near = [tuple((d, w) for d, w in ((-2, 2), (-1, 3), (1, 3), (2, 2)) if lo <= r + d <= hi)
                      for r in range(T.SUIT_SIZE)]
        self._inner = [1 if lo < r < hi else 0 for r in range(T.SUIT_SIZE)]

    # -- helpers -------------------------------------------------------------------------
    @staticmethod
    def _counts(view: dict) -> tuple[tuple[int, ...], int]:
        """The concealed counts and the number of declared melds: ``3 * (4 - melds) + 1`` or
        ``+ 2`` concealed tiles (common.md "Melds"), so the hand's size tells the melds."""
        counts = T.counts_of_notation(view["hand"])
        return counts, 4 - (sum(counts) - 1) // 3

    def _keep_value(self, counts: list[int], t: int) -> int:
        """How useful tile ``t`` is to keep (lower = discard first): 4 per copy, and for a
        number tile 3 per neighbour and 2 per tile two ranks away held, 1 if not a terminal."""
        v = counts[t] * 4
        if T.is_suited(t):
            r = T.rank_of(t)
            for d, w in self._near[r]:
                if counts[t + d]:
                    v += w
            v += self._inner[r]
        return v

    # -- decision ------------------------------------------------------------------------
    def choose(self, view: dict, legal: list[Action]) -> Action:
        turn, draw = False, None
        for a in legal:
            kind = a.kind
            if kind == "win":
                return a
            if kind == "discard":
                turn = True
            elif kind == "draw":
                draw = a
        held, melds = self._counts(view)
        if turn:
            return self._turn(view, legal, list(held), melds)
        if draw is not None:
            return draw
        return self._claim(view, legal, held, melds)

    def _turn(self, view: dict, legal: list[Action], counts: list[int], melds: int) -> Action:
        base = None
        for a in legal:
            if a.kind == "added_kong":
                return a
            if a.kind == "concealed_kong":
                if base is None:
                    base = self.shape.shanten(counts, melds) if sum(counts) % 3 == 2 else None
                counts[a.tile] -= 4
                sh = self.shape.shanten(counts, melds + 1) if sum(counts) % 3 == 1 else 99
                counts[a.tile] += 4
                # a kong keeps the shape; compare with the best discard's shanten
                c2 = counts[:]
                c2[a.tile] -= 1
                if base is not None and sh <= self.shape.shanten(c2, melds):
                    return a
        after = self.shape.shanten_after_discards(counts, melds)
        best_sh, tied = 99, []
        for a in legal:
            if a.kind == "discard":
                sh = after[a.tile]
                if sh < best_sh:
                    best_sh, tied = sh, [a]
                elif sh == best_sh:
                    tied.append(a)
        pick = tied[0]
        if len(tied) > 1:
            keep = self._keep_value
            pick_key = (keep(counts, pick.tile), pick.tile)
            for a in tied[1:]:
                k = (keep(counts, a.tile), a.tile)
                if k < pick_key:
                    pick, pick_key = a, k
        # remember the shanten of the hand left: the next claim windows ask for it
        counts[pick.tile] -= 1
        self._remember(tuple(counts), melds, best_sh)
        counts[pick.tile] += 1
        return pick

    def _remember(self, held: tuple[int, ...], melds: int, shanten: int) -> None:
        if len(self._claim_base) > 64:
            self._claim_base.clear()
        self._claim_base[held, melds] = shanten

    def _claim(self, view: dict, legal: list[Action], held: tuple[int, ...], melds: int) -> Action:
        now = self._claim_base.get((held, melds))  # the hand rarely changes between claim windows
        counts = list(held)
        if now is None:
            now = self.shape.shanten(counts, melds)
            self._remember(held, melds, now)
        best, best_sh = None, now
        for a in legal:
            if a.kind in ("pass", "win"):
                continue
            c = counts[:]
            if a.kind == "pung":
                c[a.tile] -= 2
                m = melds + 1
            elif a.kind == "kong":
                c[a.tile] -= 3
                sh = self.shape.shanten(c, melds + 1)
                if sh <= now:
                    return a
                continue
            elif a.kind == "chow":
                tile = T.parse_tile(view["discard"]["tile"])
                for t in a.tiles:
                    if t != tile:
                        c[t] -= 1
                m = melds + 1
            elif a.kind == "pickup":
                c[a.tile] += 1
                m = melds
            else:
                continue
            # the shanten of the hand holding one tile too many is that of its best discard
            sh = self.shape.shanten(c, m)
            if sh < best_sh:
                best, best_sh = a, sh
        if best is not None:
            return best
        return next(a for a in legal if a.kind == "pass")


def make_bot(spec: str, variant: Variant, seat: int, seed: int | str = 0) -> Bot:
    """A bot for a seat spec: ``ai`` (= ``ai:normal``), ``ai:easy``, ``ai:normal``,
    ``ai:strong``, or ``ai:baseline`` (this module's shanten-greedy bot).

    ``seed`` is the game seed: a bot that uses randomness seeds its own generator from
    (seed, seat, and the view), so the same game gives the same decisions.
    Raises ValueError for an unknown level.
    """
    level = spec.split(":", 1)[1] if ":" in spec else "normal"
    if level == "baseline":
        return BaselineBot(variant, seat, seed)
    from .player import LEVELS, LevelBot

    if level in LEVELS:
        return LevelBot(variant, seat, seed, level)
    raise ValueError(f"unknown AI level {level!r}; levels: easy, normal, strong, baseline")
