"""What a win is worth, asked of the variant's own scorer.

Two questions, both answered by :func:`mahjong_tui.scoring.evaluate` so that every rule in the
variant files (minimum value, self-draw-only patterns, the chow rule, pattern values and their
combination) is honoured without a line of per-variant code here:

- :meth:`ValueModel.exact` — a ready 13-tile hand and one of its waits: is the win legal by
  self-draw / on a discard, and what is it worth?  (Built only from the bot's own view.)
- :meth:`ValueModel.probe` — a *plan* (:mod:`mahjong_tui.ai.plans`): the value of a plain
  finished hand of that plan around the declared melds; tells whether the plan can be won at
  all (e.g. an unrestricted hand in Yangzhou cannot reach 15 fan) and roughly for how much.

Values are in the variant's unit (fan, tai, multiplier, points), not in what the hand is paid
where payments grow faster than the unit (Singapore's 2^(tai − 1), Uzje's points ladder):
measured, a bot valuing those payments chases the steep end of the scale — one strong bot
against three easy ones won 8.9 % of Uzje hands valuing points, 17.3 % valuing fan (800
hands; tests/bench/ai_results.md, session 7).  The gains ``g_self`` /
``g_disc`` / ``g_loss`` turn them into what the seat collects (self-draw / discard) and loses
when it deals in, from ``[settlement]``.
"""

from __future__ import annotations

from .. import tiles as T
from ..melds import CHOW, KONG, PUNG, Meld
from ..scoring import HandContext, evaluate, score_loser
from ..scoring.instant import each_pays, kong_payment


class ValueModel:
    """Cached scorer queries for one variant (shared by every bot of that variant)."""

    def __init__(self, variant):
        self.variant = variant
        self._exact: dict = {}
        self._probe: dict = {}
        #: free memo for derived facts other modules compute from probes (defence)
        self.memo: dict = {}
        s = variant.settlement
        mode = s.get("mode", "winner_collects")
        base = variant.scoring.get("base", 1) or 1
        if mode == "winner_collects":
            self.g_self = 3.0 * s.get("self_draw_each", 1) * base
            self.g_disc = (s.get("discarder", 1) + 2 * s.get("discard_others", 0)) * base
            # what dealing in costs beyond what the seat pays anyway when another wins on a
            # discard (Singapore: the discarder pays 2V, each other seat V: a deal-in costs V more)
            self.g_loss = (s.get("discarder", 1) - s.get("discard_others", 0)) * base
        elif mode == "classical_zero_sum":
            self.g_self = self.g_disc = 3.0
            self.g_loss = 1.0
        else:  # cumulative and unknown modes: the winner adds his value, nobody pays
            self.g_self = self.g_disc = 1.0
            self.g_loss = 0.5     # a deal-in only hurts by letting a rival score sooner
        #: every player's hand is scored, the winner's or not (``scoring.score_losers``: Classic,
        #: DMJL, BMJA; classic.md "Scoring"): what a non-winner's hand would settle counts too
        self.losers_score = bool(variant.scoring.get("score_losers", False))
        self._loser: dict = {}
        self.lo, self.hi = variant.tiles_rules["ranks"]
        self.suits = list(variant.suit_indices)
        self.honours = [k for k in variant.kinds if T.is_honour(k)]
        #: a run of another shape than 1-2-3 where the variant's meld templates have one (Uzje's
        #: ariths of difference 2 and up, gems, powers), as ranks: a plain filler hand holds one,
        #: so its four runs do not all share a difference (Uzje's single_differences would make
        #: every plain hand look 1.4 fan richer than it is)
        self.other_run = next((rs for tpl in variant.meld_templates for rs in sorted(tpl.rank_sets)
                               if (rs[1] - rs[0], rs[2] - rs[1]) != (1, 1) and self.lo <= rs[0] and rs[2] <= self.hi),
                              None)

    def kong_instant(self, kong_type: str) -> float:
        """What a kong of ``kong_type`` (``exposed``, ``added``, ``concealed``) brings its
        declarer the moment it stands, in settlement points: each of the other three pays
        :func:`~mahjong_tui.scoring.instant.each_pays` (singapore.md "Settlement":
        ``kong_exposed`` 1, ``kong_concealed`` 2); 0 in variants without instant payments."""
        return 3.0 * each_pays(self.variant, kong_payment(kong_type))[0]

    # -- exact ---------------------------------------------------------------------------------
    def exact(self, concealed13: tuple[int, ...], melds: tuple[Meld, ...], wait: int, seat_wind: int,
              prevailing: int, bonus: tuple[int, ...] = (), situations: frozenset = frozenset(),
              fed_third: int | None = None, discarder: int | None = None,
              indicators: tuple[int, ...] = ()) -> tuple[float, float]:
        """``(self-draw value, discard value)`` of winning on ``wait`` (0 where not a legal win);
        ``indicators``: the face-up bonus tile indicators the hand's bonus tiles score by."""
        key = (concealed13, melds, wait, seat_wind, prevailing, bonus, situations, fed_third, indicators)
        got = self._exact.get(key)
        if got is not None:
            return got
        concealed = tuple(sorted(concealed13 + (wait,)))
        v_disc = self._value(HandContext(
            concealed=concealed, melds=melds, bonus=bonus, winning_tile=wait, self_draw=False,
            seat_wind=seat_wind, prevailing_wind=prevailing, situations=situations,
            discarder=discarder, fed_third_meld=fed_third, indicators=indicators))
        if v_disc > 0:
            # a hand that may be won on a discard may be self-drawn too, for about as much;
            # one scorer call instead of two (bots ask this thousands of times a hand)
            v_self = v_disc
        else:
            v_self = self._value(HandContext(
                concealed=concealed, melds=melds, bonus=bonus, winning_tile=wait, self_draw=True,
                seat_wind=seat_wind, prevailing_wind=prevailing, situations=situations,
                fed_third_meld=fed_third, indicators=indicators))
        got = (v_self, v_disc)
        if len(self._exact) > 50_000:
            self._exact.clear()
        self._exact[key] = got
        return got

    def loser(self, concealed: tuple[int, ...], melds: tuple[Meld, ...], seat_wind: int, prevailing: int,
              bonus: tuple[int, ...] = ()) -> float:
        """What the hand ``concealed`` (sorted tile kinds) with the declared ``melds`` would
        score if the hand ended now and the seat did not win, in the variant's unit: the
        scorer's :func:`~mahjong_tui.scoring.score_loser` (its concealed pungs, declared melds,
        bonus tiles and the doublings that apply to every player, classic.md "Scoring"); 0
        where the variant scores only the winner (``scoring.score_losers`` false)."""
        if not self.losers_score:
            return 0.0
        key = (concealed, melds, seat_wind, prevailing, bonus)
        got = self._loser.get(key)
        if got is None:
            try:
                got = float(score_loser(self.variant, HandContext(
                    concealed=concealed, melds=melds, bonus=bonus, seat_wind=seat_wind,
                    prevailing_wind=prevailing, winner=False)).value)
            except Exception:  # noqa: BLE001 - an impossible hand scores nothing
                got = 0.0
            if len(self._loser) > 50_000:
                self._loser.clear()
            self._loser[key] = got
        return got

    def _value(self, ctx: HandContext) -> float:
        try:
            res = evaluate(self.variant, ctx)
        except Exception:  # noqa: BLE001 - an impossible probe is simply not a win
            return 0.0
        if not res.winning:
            return 0.0
        return max(float(res.value), 1e-3)

    # -- probes --------------------------------------------------------------------------------
    def probe(self, plan, melds: tuple[Meld, ...], seat_wind: int, prevailing: int,
              bonus: tuple[int, ...] = (), situations: frozenset = frozenset()) -> tuple[float, float]:
        """``(self-draw value, discard value)`` of a plain finished hand of ``plan`` holding the
        declared ``melds`` (0 where the scorer refuses it or the plan cannot be built), won in
        ``situations`` (scoring/context.py names, e.g. ``discard_after_kong``)."""
        key = (plan.name, melds, seat_wind, prevailing, bonus, situations)
        got = self._probe.get(key)
        if got is not None:
            return got
        got = (0.0, 0.0)
        if plan.feasible(melds):
            tiles = self._filler(plan, melds, seat_wind, prevailing)
            if tiles is not None:
                wait = tiles[-1]
                all_melds = melds
                if plan.kind == "triplets":
                    # a pung hand is usually built with claims: score its filler pungs as exposed
                    # (else four concealed pungs would make it look like a limit hand)
                    n = len(tiles) - 2
                    exposed = tuple(Meld(PUNG, tuple(tiles[i:i + 3]), declared=True, concealed=False)
                                    for i in range(0, n, 3))
                    all_melds = melds + exposed
                    tiles = tiles[n:]
                concealed13 = tuple(sorted(tiles[:-1]))
                got = self.exact(concealed13, all_melds, wait, seat_wind, prevailing, bonus, situations)
        self._remember(key, got)
        return got

    def claim_ok(self, plan, melds: tuple[Meld, ...], seat_wind: int, prevailing: int,
                 bonus: tuple[int, ...] = ()) -> bool:
        """Can a plain finished hand of ``plan`` still be won with one more meld claimed (its
        first group exposed)?  Not where a plain hand is legal only concealed: Uzje's closed
        hand (2.6 fan against a 2.5 minimum, uzje.md "Fan table"), Singapore's fully concealed tai for a
        seat with no other (singapore.md "Tai table").  There a claim is no speed-up of the plan."""
        key = ("claim_ok", plan.name, melds, seat_wind, prevailing, bonus)
        got = self._probe.get(key)
        if got is None:
            got = False
            tiles = (self._filler(plan, melds, seat_wind, prevailing)
                     if plan.kind in ("mask", "fixed", "triplets") else None)
            if tiles is not None and len(tiles) >= 5:
                first = tuple(sorted(tiles[:3]))
                kind = PUNG if len(set(first)) == 1 else CHOW
                claimed = melds + (Meld(kind, first, declared=True, concealed=False),)
                vs, vd = self.exact(tuple(sorted(tiles[3:-1])), claimed, tiles[-1], seat_wind, prevailing, bonus)
                got = vs > 0 or vd > 0
            self._remember(key, got)
        return got

    def chow_wait_ok(self, plan, seat_wind: int, prevailing: int) -> bool:
        """Can a plain finished hand of ``plan`` be won on a tile that completes a chow?
        (Classic refuses it, classic.md "Winning hands"; a ready hand then only waits on pairs and pungs.)"""
        key = ("chow_wait", plan.name, seat_wind, prevailing)
        got = self._probe.get(key)
        if got is None:
            got = False
            tiles = self._filler(plan, (), seat_wind, prevailing) if plan.kind in ("mask", "fixed") else None
            if tiles is not None:
                # the first group is a chow for free / suit plans: win on its top tile
                first = tiles[:3]
                if len(set(first)) == 3:
                    wait = first[2]
                    concealed = list(tiles)
                    concealed.remove(wait)
                    vs, vd = self.exact(tuple(sorted(concealed)), (), wait, seat_wind, prevailing)
                    got = vs > 0 or vd > 0
            self._remember(key, got)
        return got

    def _remember(self, key, got) -> None:
        """Keep a probe's answer; the memo is dropped whole past 50,000 entries (keys hold the
        declared melds, so a long match or server would otherwise grow it without end)."""
        if len(self._probe) > 50_000:
            self._probe.clear()
        self._probe[key] = got

    def _tile(self, suit_pos: int, off: int) -> int:
        s = self.suits[suit_pos % len(self.suits)]
        return s * T.SUIT_SIZE + self.lo + off

    def _filler(self, plan, melds, seat_wind, prevailing) -> list[int] | None:
        """Concealed tiles of a plain finished hand of ``plan`` around ``melds``; the last tile
        is the winning tile (it completes the pair, a wait every variant accepts)."""
        used = [0] * T.NUM_KINDS
        for m in melds:
            for t in m.tiles:
                used[t] += 1
        need = 4 - len(melds)
        out: list[int] = []
        span = self.hi - self.lo

        def fits(ts) -> bool:
            c = {}
            for t in ts:
                c[t] = c.get(t, 0) + 1
            return all(used[t] + n <= 4 and t in plan.kinds for t, n in c.items())

        def take(ts) -> None:
            for t in ts:
                used[t] += 1
            out.extend(ts)

        plain_honours = ([h for h in self.honours if T.is_wind(h) and h not in (seat_wind, prevailing)]
                         + [h for h in self.honours if T.is_wind(h) and h in (seat_wind, prevailing)]
                         + [h for h in self.honours if not T.is_wind(h)])
        n_suits = len(self.suits)
        if plan.kind == "pairs":
            if melds:
                return None
            cands = [self._tile(i, off) for i, off in ((0, 0), (0, 3), (1, 1), (1, 5), (2, 2), (2, 6), (0, span))]
            cands = [t for t in cands if t in plan.kinds]
            cands = list(dict.fromkeys(cands))[:7]
            if len(cands) < 7:
                return None
            tiles = [t for t in cands for _ in range(2)]
            return tiles[:-1] + [tiles[-1]]
        if plan.kind == "orphans":
            if melds:
                return None
            orphans = sorted({s * T.SUIT_SIZE + r for s in self.suits for r in (max(self.lo, 1), self.hi)}
                             | set(self.honours))
            return orphans[1:] + [orphans[0], orphans[0]]
        groups: list[tuple[int, ...]] = []
        pairs: list[int] = []
        if plan.kind == "fixed":
            have = {tuple(sorted(m.tiles[:3])) for m in melds}
            groups = [f for f in plan.fixed if f not in have]
            other = [i for i in range(n_suits) if self.suits[i] != plan.suit] or [0]
            groups += [(self._tile(other[0], 4),) * 3, (self._tile(other[-1], 1),) * 3]
            pairs = [self._tile(other[-1], span), self._tile(other[0], 0)]
            # fixed chows first, fillers after
            fixed_groups = [g for g in groups if g in plan.fixed]
            for g in fixed_groups:
                if not fits(g):
                    return None
                take(g)
            need -= len(fixed_groups)
            groups = [g for g in groups if g not in plan.fixed]
        elif plan.kind == "triplets":
            if plan.suit >= 0:
                pos = self.suits.index(plan.suit)
                groups = [(self._tile(pos, off),) * 3 for off in (1, 3, 5, 7, 0, 2)]
                pairs = [self._tile(pos, span), self._tile(pos, 4)]
            else:
                groups = [(self._tile(i, off),) * 3 for off in (1, 4, 7) for i in range(n_suits)]
                pairs = [self._tile(1, 2), self._tile(2, 5)]
        elif plan.name == "honours":
            groups = [(h,) * 3 for h in plain_honours]
            pairs = list(reversed(plain_honours))
        elif plan.suit >= 0:   # suit / suit_honours masks
            pos = self.suits.index(plan.suit)
            groups = [tuple(self._tile(pos, off + i) for i in range(3)) for off in (1, 4, 2, 5, 0, 6)]
            if self.other_run is not None:
                groups = [tuple(self._tile(pos, r - self.lo) for r in self.other_run)] + groups
            if plan.needs_honour:
                pairs = plain_honours[:]
            else:
                pairs = [self._tile(pos, span), self._tile(pos, 0)]
        else:                  # free
            groups = [tuple(self._tile(i, off + j) for j in range(3))
                      for off, i in ((1, 0), (4, 1), (2, 2), (5, 0), (1, 1), (5, 2))]
            if self.other_run is not None:
                groups = [tuple(self._tile(i, r - self.lo) for r in self.other_run) for i in (1, 2)] + groups
            pairs = [self._tile(2, span - 1), self._tile(1, span), self._tile(0, 0)]
        for g in groups:
            if need == 0:
                break
            if fits(g):
                take(g)
                need -= 1
        if need:
            return None
        for p in pairs:
            if fits((p, p)):
                take((p, p))
                return out
        return None

    def clear(self) -> None:
        self._exact.clear()
        self._probe.clear()
        self.memo.clear()


_MODELS: dict[int, ValueModel] = {}


def model_for(variant) -> ValueModel:
    """The shared :class:`ValueModel` of a variant object."""
    got = _MODELS.get(id(variant))
    if got is None or got.variant is not variant:
        got = _MODELS[id(variant)] = ValueModel(variant)
    return got


__all__ = ["ValueModel", "model_for", "CHOW", "PUNG", "KONG"]
