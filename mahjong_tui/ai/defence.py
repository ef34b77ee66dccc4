"""Defence: how likely a discard is to hand another seat a win, from public information only.

For each opponent ``o`` the bot estimates

- ``ready(o)`` — the chance ``o`` is ready (one tile from a legal win), from exposed melds, how
  many discards ``o`` has made, and whether ``o``'s declared melds still leave a plan the
  variant lets him win with (asked of the scorer through :meth:`ValueModel.probe`: in Yangzhou
  pungs in two suits usually leave none).  Where a plain hand cannot be won on the discard
  (Yuxi's basic win is self-draw only) a seat is scaled down unless its melds look deliberate
  — or, for ``strong``, with no melds and seven pairs among the variant's forms, scaled by
  :data:`CONCEALED_PATTERN` and read as waiting on a pair (measured: 41 of the strong seat's
  48 Yuxi deal-ins at seed 1 had gone into seven pairs; tests/bench/ai_results.md);
- ``weight(o, t)`` — how likely ``t`` is among ``o``'s winning tiles, relative to an average
  tile: by kind (honours by how many copies are visible; number tiles by rank), lowered for
  tiles ``o`` discarded himself and for tiles discarded since ``o``'s last turn that ``o``
  did not win on, raised for the suit ``o`` is visibly collecting.  Where the variant refuses
  discard wins that complete a chow (``claims.win_completing_chow``), a number tile is only
  dangerous as a pung or pair wait, so it is weighted like an honour by visible copies.

A discard made right after one's own kong is judged (by ``strong``) with ``after_kong=True``:
the variant's scorer is asked about a plain hand won in the ``discard_after_kong`` situation,
so where that makes a plain hand winnable on a discard (Yuxi kong_discard_win) every
ready-looking seat is a full threat, not only those whose melds look deliberate.

``expected_loss(t)`` = Σ_o ready(o) · weight(o, t) · κ · value(o) · loss factor, in the
variant's unit — comparable with the bot's own expected gain (:mod:`mahjong_tui.ai.player`).
"""

from __future__ import annotations

from .. import tiles as T

KAPPA = 0.09          # chance an average tile is among a ready hand's waits (~3 kinds of 34)

_HONOUR_BY_VISIBLE = (0.75, 0.6, 0.3, 0.06, 0.0)
_PAIR_WAIT_BY_VISIBLE = (0.55, 0.45, 0.22, 0.05, 0.0)
_MELD_READY = (0.0, 0.12, 0.35, 0.7, 0.95)
#: share of concealed hands that can be won on a discard where plain hands cannot (seven
#: pairs and the like), as a factor on a meldless seat's readiness
CONCEALED_PATTERN = 0.3
#: a number tile with all four copies visible (the discarder's own among them): only the
#: chow-shaped waits are left of its danger (no pair or pung wait can use it)
CHOW_ONLY = 0.7


class Defence:
    """Danger estimates for one decision.  ``strong`` adds pass evidence and suit reading."""

    def __init__(self, variant, kn, model, strong: bool, plans, after_kong: bool = False):
        self.variant = variant
        self.kn = kn
        self.model = model
        self.strong = strong
        self.chow_wins = bool(variant.claims.get("win_completing_chow", True))
        lo, hi = variant.tiles_rules["ranks"]
        self.lo, self.hi = lo, hi
        self.threats: list[tuple[object, float, float, dict]] = []   # (opp, ready, value, info)
        self.pair_waiters: set[int] = set()   # seats whose only legal routes wait on pairs/pungs
        self.pairs_form = "seven_pairs" in variant.win["forms"]
        #: the scoring situations of the discard being judged: a discard made after one's own
        #: kong may be won on by hands a plain discard could not feed (Yuxi kong_discard_win)
        self.situations = frozenset({"discard_after_kong"}) if after_kong else frozenset()
        for o in kn.opponents:
            r, value = self._readiness(o, plans)
            if r > 0.02:
                self.threats.append((o, r, value, self._reading(o)))

    # -- opponents -------------------------------------------------------------------------------
    def _typical(self, o, plans) -> tuple[float, float]:
        """``(typical value, plain factor)`` of opponent ``o``'s win, from its seat wind and
        its bonus tiles (public; Singapore's animals and seat flowers count toward its hand's
        value and can make a plain hand legal, singapore.md "Winning hands"), memoised per variant:

        - what a win usually costs: the cheapest plan the variant lets ``o`` win on a discard
          (probed with no melds; plain hands win far more often than limit hands);
        - how often a ready hand can be won on a discard at all: 1 where a plain hand can;
          where the variant refuses plain discard wins (Yuxi) or plain wins (Yangzhou) a
          ready hand is rarer or mostly waits for a self-draw (0.1 / 0.4)."""
        kn = self.kn
        key = ("defence:typical", o.wind, kn.prevailing, o.bonus, self.situations)
        got = self.model.memo.get(key)
        if got is None:
            probes = [self.model.probe(p, (), o.wind, kn.prevailing, o.bonus, situations=self.situations)
                      for p in plans]
            vals = [vd for _, vd in probes if vd > 0]
            fs, fd = probes[0]
            got = self.model.memo[key] = (min(vals) if vals else 1.0, 1.0 if fd > 0 else (0.1 if fs > 0 else 0.4))
        return got

    def _readiness(self, o, plans) -> tuple[float, float]:
        m = len(o.melds)
        turns = len(o.pond)
        r_turn = min(0.5, max(0.0, (turns - 6) / 16.0))
        r_meld = _MELD_READY[min(m, 4)]
        r = 1 - (1 - r_turn) * (1 - r_meld)
        value, plain_factor = self._typical(o, plans)
        if o.melds:
            # the cheapest plan o's melds still allow that wins on a discard; if every such
            # plan is pungs-and-pairs, o can only be waiting on a pair or a pung
            key = ("defence:melds", tuple(o.melds), o.wind, self.kn.prevailing, o.bonus, self.situations)
            got = self.model.memo.get(key)
            if got is None:
                cheapest = 0.0
                kinds = set()
                for p in plans:
                    vs, vd = self.model.probe(p, tuple(o.melds), o.wind, self.kn.prevailing, o.bonus,
                                              situations=self.situations)
                    if vd > 0:
                        kinds.add(p.kind)
                        if cheapest == 0.0 or vd < cheapest:
                            cheapest = vd
                if len(self.model.memo) > 20_000:
                    self.model.memo.clear()
                got = self.model.memo[key] = (cheapest, frozenset(kinds))
            cheapest, kinds = got
            if kinds and kinds <= {"triplets", "pairs"}:
                self.pair_waiters.add(o.seat)
            if cheapest <= 0:
                r *= 0.15 if self.strong else 0.4   # no plan left that wins on a discard
            else:
                value = cheapest
            if plain_factor < 1:
                # melds that all fit one special plan (one suit, pungs only) look deliberate
                focused = self._focused(o)
                r *= 1.0 if focused else plain_factor
        elif plain_factor < 1 and self.pairs_form and self.strong:
            # no melds where a plain hand cannot be won on this discard: the threat is a
            # concealed pattern hand, most often seven pairs (a single wait on a pair)
            r *= max(plain_factor, CONCEALED_PATTERN)
            self.pair_waiters.add(o.seat)
        else:
            r *= plain_factor
        if self.kn.draws_left < 3:
            r = min(1.0, r * 1.2)
        return r, value

    @staticmethod
    def _focused(o) -> bool:
        """``o``'s melds (two or more) are all pungs/kongs, or all in one suit plus honours."""
        if len(o.melds) < 2:
            return False
        if all(m.kind != "chow" for m in o.melds) and len(o.melds) >= 3:
            return True
        # a meld the view hides (Uzje's hidden concealed quads: no tiles) tells no suit
        suits = {T.suit_of(m.tiles[0]) for m in o.melds if m.tiles and T.is_suited(m.tiles[0])}
        return len(suits) <= 1

    def _reading(self, o) -> dict:
        """Facts about ``o``'s discards: own discards, recent passes, suits collected."""
        info: dict = {"own": set(o.pond), "last": o.pond[-1] if o.pond else None}
        if not self.strong:
            return info
        # tiles discarded after o's last discard and not won on by o: the last discard of
        # each seat between o and this seat in turn order (claims can shift turns: an estimate)
        me = self.kn.seat
        passed = set()
        s = (o.seat + 1) % 4
        while s != o.seat and s != me:
            p = self.kn.players[s]
            if p.pond and not p.pond_claimed[-1]:
                passed.add(p.pond[-1])
            s = (s + 1) % 4
        info["passed"] = passed
        # suits: declared melds in one suit, or a suit the pond avoids
        meld_suits = {T.suit_of(m.tiles[0]) for m in o.melds if m.tiles and T.is_suited(m.tiles[0])}
        info["meld_suits"] = meld_suits
        counts = {}
        for t in o.pond:
            if T.is_suited(t):
                counts[T.suit_of(t)] = counts.get(T.suit_of(t), 0) + 1
        info["pond_suits"] = counts
        return info

    # -- tiles ----------------------------------------------------------------------------------
    def weight(self, o, info: dict, t: int) -> float:
        """How likely ``t`` is among ``o``'s winning tiles, relative to an average tile
        (``info``: :meth:`_reading` of ``o``).  Copies visible to this seat count its own
        hand, so with all four visible ``o`` holds none: no pair or pung wait on ``t`` is
        possible, but a number tile can still complete a chow-shaped wait (``o`` holds 4-5
        and waits on 3-6 whatever the 3s) where the variant lets a discard win that way."""
        vis = self.kn.visible[t]
        if T.is_honour(t):
            w = _HONOUR_BY_VISIBLE[min(vis, 4)]
        elif not self.chow_wins or o.seat in self.pair_waiters:
            w = _PAIR_WAIT_BY_VISIBLE[min(vis, 4)]
        else:
            r = T.rank_of(t)
            w = 0.7 if r in (self.lo, self.hi) else 0.9 if r in (self.lo + 1, self.hi - 1) else 1.0
            if vis >= 4:
                w *= CHOW_ONLY
            elif vis >= 3:
                w *= 0.8
        if not w:
            return 0.0
        if t in info["own"]:
            w *= 0.2 if t == info["last"] else 0.4
        elif self.chow_wins and T.is_suited(t) and self.strong:
            # suji: the tiles three away in o's pond make a two-sided wait on t less likely
            r = T.rank_of(t)
            own = info["own"]
            lo_s = r - 3 < self.lo or (t - 3) in own
            hi_s = r + 3 > self.hi or (t + 3) in own
            if lo_s and hi_s:
                w *= 0.55
            elif lo_s or hi_s:
                w *= 0.8
        if self.strong:
            if t in info.get("passed", ()):
                w *= 0.1
            ms = info.get("meld_suits", set())
            if len(o.melds) >= 2 and len(ms) == 1:
                s = next(iter(ms))
                if T.is_suited(t):
                    w *= 1.7 if T.suit_of(t) == s else 0.15
                else:
                    w *= 1.3
            elif len(o.pond) >= 8 and T.is_suited(t):
                ps = info.get("pond_suits", {})
                share = ps.get(T.suit_of(t), 0) / max(1, len(o.pond))
                if share < 0.1:
                    w *= 1.5
                elif share > 0.4:
                    w *= 0.7
        return w

    def expected_loss(self, t: int) -> float:
        """Expected cost (variant units) of discarding ``t`` now."""
        total = 0.0
        g = self.model.g_loss
        for o, r, value, info in self.threats:
            total += r * self.weight(o, info, t) * KAPPA * value * g
        return total

    @property
    def active(self) -> bool:
        return bool(self.threats)


__all__ = ["Defence", "KAPPA"]
