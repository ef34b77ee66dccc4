"""The table: one pure, deterministic game-state machine for a whole match.

``Table(variant, seed)`` deals the first hand.  Seats then act through

- :meth:`Table.legal_actions` ``(seat) -> list[Action]`` — what that seat may do now;
- :meth:`Table.apply` ``(action) -> list[dict]`` — applies one legal action, returns the events
  it caused (raise :class:`~mahjong_tui.errors.IllegalAction`, state unchanged, otherwise);
- :meth:`Table.view` ``(seat) -> dict`` — everything that seat may know, nothing more.

Everything forced (dealing, flower replacement, ordinary draws, kong replacements, instant
payments, the end of a hand, settlement, dealer and wind rotation, the next deal) happens inside
``apply``; seats only make decisions.

Instant payments (``[instant_payments]`` of the variant, singapore.md "Settlement"): the moment a bonus tile set
aside completes a bite (:func:`mahjong_tui.scoring.instant.bites`) or a kong stands (after its
robbing window), each other seat pays the amount × ``scoring.base`` to that seat: the scores
move at once and an ``instant_payment`` event says who, why and how much.

The machine does no I/O, reads no clock and draws randomness only from
:func:`~mahjong_tui.engine.wall.hand_rng` (seed + hand number), so the same variant, seed and
actions give the same states on every machine (:mod:`mahjong_tui.engine.log`).

Phases (``view()['phase']``):

- ``turn`` — ``current`` holds 14 tiles (counting melds as 3) and discards, declares a kong or
  a self-drawn win (common.md "Melds");
- ``claim`` — a discard lies (after EVERY discard); every other seat answers (``pass`` or a
  claim); when all have answered the highest claim wins: win > pung/kong > chow/pick-up, ties to
  the seat nearest after the discarder, or every winner if ``claims.multiple_winners``;
- ``rob`` — an added kong was declared (where ``claims.rob_kong = "added"``; every one), or a
  concealed one (every one, where ``claims.rob_kong_forms`` lets those forms rob it), or a
  flower or season was set aside while another seat's face-up bonus tiles hold the seven
  others (``win.bonus_wins``: Singapore's robbing the eighth, Uzje's ivies on the wall); the
  seats that may rob under the rules answer, a win where they can win on the tile;
- ``after_kong`` — (bloom tiles, G-YX-3) after every kong while bloom tiles lie face up: the
  kong player may win on a face-up bloom tile or take the replacement (``draw``; its only
  choice, a forced one, when no bloom tile wins);
- ``match_over`` — the match has ended.

Secrecy of the windows (issue 20): whether a ``claim`` or ``rob`` window (or, beside bloom
tiles, the ``after_kong`` choice) opens, who is asked and every event and view field of it
depend on public information only, never on what any seat holds: a seat that cannot claim is
asked too, and its only legal action is ``pass`` (a *forced pass*, :meth:`Table.forced_passes`;
after a kong no bloom tile wins, the kong player's only action is ``draw``, forced the same
way).  Answers are private; ``seq`` does not move until
the window closes.  A driver may apply forced passes at once without asking anybody
(:meth:`Table.pass_forced`); they are not decisions, so :attr:`Table.actions` and the game log
leave them out and :meth:`Table.apply_decision` fills them in on replay (logs written before
every window was opened replay exactly).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from itertools import compress
from operator import itemgetter

from .. import tiles as T
from ..errors import IllegalAction
from ..melds import ADDED_KONG, CHOW, CONCEALED_KONG, EXPOSED_KONG, KONG, PUNG, Meld
from ..scoring import HandContext, ScoreResult, evaluate, score_loser
from ..scoring import instant
from ..scoring.settlement import liable_in_context, settle
from ..variant import Variant
from .actions import Action
from .wall import Wall, hand_rng

WIND_CODES = (T.EAST, T.SOUTH, T.WEST, T.NORTH)
WIND_LETTERS = "ESWN"


class Table:
    """A match at one table of four seats (seat 0 is East of the first hand unless the variant
    rolls for the first dealer; CLI.md, yuxi.md "Setting up", yangzhou.md "Setting up").

    ``hands`` overrides the variant's match length with an exact number of hands (``sim``,
    ``play --hands``).  ``first_dealer`` fixes the first dealer (tests that rig a hand)
    instead of the variant's rule.  Raises ValueError for a ``first_dealer`` outside 0..3.
    """

    def __init__(self, variant: Variant, seed: int | str, hands: int | None = None,
                 first_dealer: int | None = None):
        self.variant = variant
        self.seed = seed
        self.hands_limit = hands
        self.scores: list[float] = [variant.match["start_score"]] * 4
        self.hand_index = 0
        #: the first-dealer roll (``first_dealer = "highest_roll"``): one list per round of
        #: rolling, each ``[seat, die, die]`` for the seats still in it; [] otherwise
        self.first_roll: list[list[list[int]]] = []
        # uzje.md "Setting up": the starter's roll picks the breaker, who deals the first hand
        self._dealer_from_break = first_dealer is None and variant.deal["first_dealer"] == "breaker"
        if first_dealer is None:
            first_dealer = self._choose_first_dealer()
        elif not 0 <= first_dealer <= 3:
            raise ValueError(f"first_dealer must be a seat 0..3, got {first_dealer!r}")
        self.dealer = first_dealer
        self.dealer_changes = 0
        self.every_hand_wind = variant.match["prevailing_wind"] == "every_hand"
        self.history: list[dict] = []  # one summary per finished hand
        #: the decisions applied, in order: what a game log holds.  A forced pass (a seat whose
        #: only legal action was ``pass``, :meth:`forced_passes`) is not one: a log replays
        #: without it (:meth:`apply_decision` fills it in)
        self.actions: list[Action] = []
        self._applied = 0  # actions applied, forced passes too (the moment caches are kept for)
        #: the events of the hand in play, from its ``hand_start`` (each action's events are also
        #: what :meth:`apply` returns); a finished match keeps its last hand's.  Earlier hands
        #: are not kept: a long ``sim`` would hold every event of every hand (~75 kB a hand).
        self.events: list[dict] = []
        self.phase = "turn"
        # public decision counter (view()['seq']): advances with every action except an
        # answer inside a claim window that leaves it open, so nobody can count who answered
        self.seq = 0
        self._legal_cache: dict[int, list[Action]] = {}  # seat -> legal actions, after _legal_at actions
        self._legal_at = 0
        self._public_cache: tuple | None = None
        self._seat_cache: list[tuple | None] = [None] * 4
        self._dirty_seats: set[int] = set()  # seats changed since the public view was built
        self._wall_static: tuple | None = None  # (wall, bloom tiles, the wall's unchanging view)
        self._shape = variant.hand_shape
        self._straight_melds = "ultra_long_straight" in variant.win["forms"]  # G-UZ-13
        self._bonus_wins = bool(variant.win["bonus_wins"])                    # G-UZ-14
        self._hidden_kongs = variant.options["concealed_quad_mode"] == "hidden"
        c = variant.claims  # claims a discard allows (yuxi.md "How a hand goes", classic.md "How a hand goes", yangzhou.md "How a hand goes"), looked up once
        self._claim_rules = (bool(c["pung"]), bool(c["exposed_kong"]), c["chow"] == "next",
                             bool(c["next_player_pickup"]))
        self._keep_picked_up = not c["discard_picked_up"]
        self._kinds = variant.kinds
        self._held = itemgetter(*self._kinds)  # counts of the variant's kinds, in ``_kinds`` order
        # discard and claim actions by seat and tile (looked up, not built, on every turn)
        self._discards = [[Action.of(s, "discard", t) for t in range(T.NUM_KINDS)] for s in range(4)]
        self._pungs, self._kongs, self._pickups = (
            [[Action.of(s, kind, t) for t in range(T.NUM_KINDS)] for s in range(4)] for kind in ("pung", "kong", "pickup"))
        self._passes = [Action.of(s, "pass") for s in range(4)]
        self._pass_only = [[a] for a in self._passes]  # the options of a seat that cannot claim
        self._chows = claimable_sequences(variant)
        # dmjl.md / bmja.md mechanisms, switched on by the variant file
        self._original_call = bool(variant.win.get("original_call", False))
        self._dangerous_game = bool(variant.settlement.get("dangerous_game", False))
        self._start_hand()

    # ==================================================================================
    # hand set-up
    # ==================================================================================
    def _choose_first_dealer(self) -> int:
        """Seat of the first dealer.  ``first_dealer = "highest_roll"`` (yuxi.md "Setting up", yangzhou.md "Setting up"):
        every seat rolls two dice, the highest total deals, the tied re-roll among themselves;
        the dice come from the game seed, so a replay rolls the same.  ``"random"`` (classic.md "Setting up",
        wind markers drawn face down): the draw is the seating, and seat 0 (seat 1 of
        ``--seats``) is East of the first hand (CLI.md)."""
        if self.variant.deal.get("first_dealer", "random") != "highest_roll":
            return 0
        rng = random.Random(f"mahjong-tui/{self.seed}/first-dealer")
        rolling = [0, 1, 2, 3]
        while True:
            rolls = [[s, rng.randint(1, 6), rng.randint(1, 6)] for s in rolling]
            self.first_roll.append(rolls)
            top = max(a + b for _, a, b in rolls)
            rolling = [s for s, a, b in rolls if a + b == top]
            if len(rolling) == 1:
                return rolling[0]

    @property
    def prevailing_wind(self) -> int:
        """Wind code of the round: every hand (classic.md "End of a hand") or per cycle of the deal."""
        if self.every_hand_wind:
            return WIND_CODES[self.hand_index % 4]
        return WIND_CODES[(self.dealer_changes // 4) % 4]

    def seat_wind(self, seat: int) -> int:
        """Seat winds follow turn order from the dealer (common.md "Seats and turn order")."""
        return WIND_CODES[(seat - self.dealer) % 4]

    def _from_east(self, seat: int) -> int:
        """``seat`` counted from the dealer (East 0, South 1, West 2, North 3): the seat
        numbering of a :class:`HandContext` (its melds' ``from_seat``).  :meth:`_from_dealer`
        turns it back."""
        return (seat - self.dealer) % 4

    def _from_dealer(self, n: int) -> int:
        """The table seat that is ``n`` seats after the dealer (inverse of :meth:`_from_east`)."""
        return (n + self.dealer) % 4

    def _emit(self, ev: dict) -> None:
        self.events.append(ev)
        self._new_events.append(ev)

    def _start_hand(self) -> None:
        v = self.variant
        self._new_events: list[dict] = getattr(self, "_new_events", [])
        self.events = []
        rng = hand_rng(self.seed, self.hand_index)
        self._rng = rng
        w = v.wall
        stacks = tuple(v.stacks[(i - self.dealer) % 4] for i in range(4))
        self.wall = Wall.build(v.all_tiles(), rng, stacks, self.dealer, w["dice"], w["tail"], w["dead_wall"],
                               w["bloom_tiles"], indicators=w["indicators"], sides=w["die_sides"])
        if self.hand_index == 0 and self._dealer_from_break:
            self.dealer = self.wall.brk.wall_seat  # uzje.md "Setting up": the player the roll picked breaks and deals
        self.hands: list[list[int]] = [[0] * T.NUM_KINDS for _ in range(4)]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.bonus: list[list[int]] = [[] for _ in range(4)]
        # every discard in order, as [tile, claimed]; a claimed one has left the pond (it is
        # kept for the record: Ten Old Men, G-YX-8, and the table's display)
        self.ponds: list[list[list]] = [[] for _ in range(4)]
        self.claimed_concealed: list[list[int]] = [[] for _ in range(4)]
        self.discards_made = 0
        self.claims_made = 0
        self.just_picked: int | None = None  # tile picked up this turn (Oxenstierna, G-OX-2)
        self.last_drawn: int | None = None
        self.drawn_from: str | None = None  # "wall", "replacement", "deal", None (after a claim)
        self.kongs_this_turn = 0
        self.kong_chain: list[str] = []  # kong types declared this turn, in order (Uzje multi_quad_draw)
        self.bonus_seen = [0] * 4  # bonus tiles each seat held at its last turn decision (G-UZ-14)
        self.last_wall_tile_drawn = False
        self.discard: tuple[int, int] | None = None  # (seat, tile) lying in the claim window
        #: bonus tiles each seat set aside during the deal (a bite of these is "hidden", singapore.md "Settlement")
        self.dealt_bonus: list[set[int]] = [set() for _ in range(4)]
        #: the hand's instant payments so far (the ``instant_payment`` events' public parts)
        self.instant_log: list[dict] = []
        #: Original Call (dmjl.md "Play"): the seats that announced it this hand
        self.called = [False] * 4
        #: Dangerous game (dmjl.md "Settlement"): seat -> the seat whose dangerous discard it
        #: claimed or won on (that seat pays for all if it wins); whether the discard in the
        #: claim window is a dangerous one
        self.dangerous_from: list[int | None] = [None] * 4
        self._discard_dangerous = False
        self._dealing = True
        self._claim_options: dict[int, list[Action]] = {}
        self._responses: dict[int, Action] = {}
        self._rob: tuple[int, int, str] | None = None  # (declarer, tile, "added"/"concealed"/"bonus")
        self._scored: dict[HandContext, ScoreResult] = {}  # see _evaluate
        self.phase = "turn"
        self.current = self.dealer
        self._emit({"type": "hand_start", "hand": self.hand_index, "dealer": self.dealer,
                    "prevailing_wind": T.name(self.prevailing_wind), "dice": list(self.wall.brk.dice),
                    "break_seat": self.wall.brk.wall_seat, "break_stack": self.wall.brk.stack,
                    "bloom": [T.name(t) for t in self.wall.bloom],
                    **({"first_dealer_roll": self.first_roll} if self.hand_index == 0 and self.first_roll else {})})
        # deal: 4 at a time to 12, then 1 each; dealer one more (seed 003; classic.md "Setting up", yuxi.md "Setting up")
        order = [(self.dealer + i) % 4 for i in range(4)]
        for _ in range(3):
            for s in order:
                for _ in range(4):
                    self._give(s, self.wall.draw_front())
        for s in order:
            self._give(s, self.wall.draw_front())
        self._give(self.dealer, self.wall.draw_front())
        self._emit({"type": "deal", "private": {s: {"tiles": T.format_tiles(T.tiles_of(self.hands[s]))} for s in range(4)}})
        # bonus tiles: every seat declares his, then takes replacements, dealer first; bonus
        # tiles drawn as replacements wait for the next pass, again from the dealer (classic.md "Setting up", singapore.md "Setting up")
        if v.deal["bonus_replacement"] and v.bonus_kinds:
            changed = True
            while changed:
                changed = False
                for s in order:
                    for b in [t for t in v.bonus_kinds if self.hands[s][t]]:
                        self._set_aside(s, b)
                        self._bonus_replacement(s, b)
                        changed = True
        self._dealing = False
        self.drawn_from = "deal"
        self.last_drawn = None

    def _give(self, seat: int, t: int) -> None:
        self.hands[seat][t] += 1

    def _set_aside(self, seat: int, b: int) -> None:
        """Bonus tile ``b`` leaves ``seat``'s hand for his bonus tiles (declared: public)."""
        self.hands[seat][b] -= 1
        self.bonus[seat].append(b)
        if self._dealing:
            self.dealt_bonus[seat].add(b)
        self._emit({"type": "bonus", "seat": seat, "tile": T.name(b)})

    def _bonus_replacement(self, seat: int, b: int) -> int | None:
        """The bites bonus tile ``b`` (just set aside) completes are paid (``[instant_payments]``,
        singapore.md "Settlement"), then ``seat`` draws its replacement from the tail.  Returns the new tile
        (possibly another bonus tile, handled by the caller) or None if none is left."""
        for pid, hidden, tiles in instant.bites(self.bonus[seat], b, T.seat_number(self.seat_wind(seat)),
                                                self.dealt_bonus[seat]):
            self._pay_instant(seat, pid, hidden, tiles)
        if not self.wall.can_replace():
            return None
        t = self.wall.draw_back()
        self.hands[seat][t] += 1
        self._emit({"type": "draw", "seat": seat, "source": "replacement", "private": {seat: {"tile": T.name(t)}}})
        return t

    def _pay_instant(self, seat: int, pid: str, hidden: bool = False, tiles=()) -> None:
        """Instant payment ``pid`` to ``seat`` from each other seat, if the variant's
        ``[instant_payments]`` lists it (singapore.md "Settlement"): the scores move now and an
        ``instant_payment`` event tells everyone (``deltas`` by seat)."""
        amount, hidden = instant.each_pays(self.variant, pid, hidden)  # "hidden" = paid at the hidden rate
        if not amount:
            return
        deltas = [-amount] * 4
        deltas[seat] = 3 * amount
        for s in range(4):
            self.scores[s] += deltas[s]
        record = {"id": pid, "seat": seat, "amount": amount, "hidden": hidden,
                  "tiles": T.format_tiles(tiles), "deltas": deltas}
        self.instant_log.append(record)
        self._dirty_seats.update(range(4))  # every score changed
        self._emit({"type": "instant_payment", **record})

    # ==================================================================================
    # queries
    # ==================================================================================
    def concealed_tiles(self, seat: int) -> list[int]:
        return T.tiles_of(self.hands[seat])

    def tile_count(self, seat: int) -> int:
        """Concealed tiles + 3 per meld (a kong's fourth tile is outside the count)."""
        return sum(self.hands[seat]) + 3 * len(self.melds[seat])

    def _ordinary_draw_allowed(self) -> bool:
        return self.wall.live_count > self.variant.wall["reserve"]

    def _can_kong(self) -> bool:
        return self.wall.can_replace()

    def _situations_for_turn(self, seat: int) -> set[str]:
        s: set[str] = set()
        if self.drawn_from == "replacement" and self.kongs_this_turn:
            s.add("kong_replacement")
            if self.kongs_this_turn >= 2:
                s.add("double_kong_replacement")
        if self.drawn_from == "flower":
            s.add("flower_replacement")
        if self.drawn_from in ("deal",) and seat == self.dealer and self.discards_made == 0 and self.claims_made == 0:
            s.add("heavenly")
        if self.last_wall_tile_drawn and self.drawn_from == "wall":
            s.add("last_wall_tile")
        elif self.last_wall_tile_drawn and self.drawn_from in ("flower", "replacement"):
            s.add("last_wall_replacement")
        elif (self.drawn_from in ("replacement", "flower") and self.wall.tail == "live_wall"
              and self.wall.live_count == self.variant.wall["reserve"]):
            s.add("last_wall_tile")  # Uzje sea_scoop: a replacement from the live wall can be its last tile
        return s | self._common_situations(seat)

    def _common_situations(self, seat: int) -> set[str]:
        pond = self.ponds[seat]
        if len(pond) >= 10 and all(T.is_honour(t) and not c for t, c in pond[:10]):
            return {"ten_honour_discards"}
        if self.called[seat]:
            return {"original_call"}
        return set()

    def context(self, seat: int, winning_tile: int | None, self_draw: bool, situations=(),
                discarder: int | None = None, extra: int | None = None) -> HandContext:
        """The :class:`HandContext` of ``seat``'s hand, with ``extra`` (a claimed discard or
        robbed tile) added to the concealed tiles.  Other seats are named in the context's
        numbering, from the dealer: ``discarder`` by seat wind, the melds' ``from_seat`` counted
        from East (:meth:`_from_east`); ``fed_third_meld`` is left None, as the melds name
        every feeder."""
        concealed = T.tiles_of(self.hands[seat])
        if extra is not None and not T.is_bonus(extra):
            concealed = sorted(concealed + [extra])
        melds = self.melds[seat]
        if self.dealer:
            melds = [m if m.from_seat is None else replace(m, from_seat=self._from_east(m.from_seat)) for m in melds]
        on_replacement = self_draw and seat == self.current and self.drawn_from == "replacement"
        return HandContext(
            concealed=tuple(concealed),
            melds=tuple(melds),
            bonus=tuple(sorted(self.bonus[seat])),
            winning_tile=winning_tile,
            self_draw=self_draw,
            seat_wind=self.seat_wind(seat),
            prevailing_wind=self.prevailing_wind,
            situations=frozenset(situations),
            claimed_concealed=tuple(self.claimed_concealed[seat]),
            discarder=self.seat_wind(discarder) if discarder is not None else None,
            indicators=tuple(self.wall.indicators),
            winner=winning_tile is not None,
            kong_chain=tuple(self.kong_chain) if on_replacement else (),
        )

    def _win_result(self, seat: int, tile: int, self_draw: bool, situations, discarder=None,
                    extra=None) -> ScoreResult | None:
        """The score of a win if it is legal, else None.  Cheap shape test first."""
        counts = self.hands[seat]
        if extra is not None:
            counts = counts[:]
            counts[extra] += 1
        if not self._complete(seat, counts):
            return None
        res = self._evaluate(self.context(seat, tile, self_draw, situations, discarder, extra))
        return res if res.winning else None

    def _complete(self, seat: int, counts: list[int]) -> bool:
        """The shape test of a win: the concealed ``counts`` with the seat's declared melds
        complete a form (the ultra-long straight with declared runs too, G-UZ-13)."""
        melds = self.melds[seat]
        if self._shape.is_complete(counts, len(melds)):
            return True
        return bool(melds) and self._straight_melds and self._shape.straight_with_melds(
            counts, [m.tiles for m in melds])

    def _bonus_win(self, seat: int) -> tuple[int, set[str]] | None:
        """A win by bonus tiles open to ``seat`` at its turn (``win.bonus_wins``, G-UZ-14): the
        bonus tile it is declared on (the last one received) and its situations, when the seat
        has received bonus tiles since its last turn decision and the scorer accepts the win."""
        bonus = self.bonus[seat]
        seen = self.bonus_seen[seat]
        if not self._bonus_wins or len(bonus) <= seen:
            return None
        flowers_before = sum(1 for b in bonus[:seen] if T.is_flower_or_season(b))
        flowers_now = sum(1 for b in bonus if T.is_flower_or_season(b))
        sit = {"sixth_flower"} if flowers_before < 6 <= flowers_now else set()
        res = self._evaluate(self.context(seat, bonus[-1], True, sit))
        return (bonus[-1], sit) if res.winning else None

    def _evaluate(self, ctx: HandContext) -> ScoreResult:
        """:func:`mahjong_tui.scoring.evaluate`, remembered for the hand: the legality check
        of a win and the win itself score the same context."""
        res = self._scored.get(ctx)
        if res is None:
            res = self._scored[ctx] = evaluate(self.variant, ctx)
        return res

    # ==================================================================================
    # legal actions
    # ==================================================================================
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not that seat's decision).

        Rule sources: turn actions common.md "Melds" (kongs), claims per ``variant.claims`` (yuxi.md "How a hand goes",
        classic.md "How a hand goes", yangzhou.md "How a hand goes"), wins per :func:`mahjong_tui.scoring.evaluate` (forms, minimums, the
        the Oxenstierna chow rule, classic.md "Winning hands"; Yuxi's self-draw-only basic win, yuxi.md "Winning hands").
        """
        return list(self._legal_entry(seat))

    def _legal_entry(self, seat: int) -> list[Action]:
        """``legal_actions(seat)``, cached for the current state (do not modify)."""
        n = self._applied
        if self._legal_at != n:
            self._legal_at = n
            self._legal_cache = {}
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self._legal_cache[seat] = self._legal(seat)
        return cached

    def _legal(self, seat: int) -> list[Action]:
        if self.phase == "turn":
            return self._turn_actions(seat) if seat == self.current else []
        if self.phase in ("claim", "rob"):
            if seat in self._claim_options and seat not in self._responses:
                return list(self._claim_options[seat])
            return []
        if self.phase == "after_kong":
            return list(self._claim_options.get(seat, [])) if seat == self.current else []
        return []

    def _turn_actions(self, seat: int) -> list[Action]:
        h = self.hands[seat]
        out: list[Action] = []
        claimed_turn = self.drawn_from is None  # the turn began with a claim: discard only
        if not claimed_turn and self.last_drawn is not None or self.drawn_from == "deal":
            tile = self.last_drawn
            if self.drawn_from == "deal":
                tile = None
            wt = tile if tile is not None else self._any_winning_tile(seat)
            if (wt is not None and not T.is_bonus(wt) and self._complete(seat, h)
                    and self._win_result(seat, wt, True, self._situations_for_turn(seat)) is not None):
                out.append(Action.of(seat, "win", wt))
        bonus_win = self._bonus_win(seat)
        if bonus_win is not None:
            out.append(Action.of(seat, "win", bonus_win[0]))
        held_counts = self._held(h)
        held = list(compress(self._kinds, held_counts))
        if not claimed_turn and self._can_kong():
            picked = self.claimed_concealed[seat]
            if 4 in held_counts:
                for t in held:
                    if h[t] >= 4 and h[t] - picked.count(t) >= 4:
                        out.append(Action.of(seat, "concealed_kong", t))
            for m in self.melds[seat]:
                if m.kind == PUNG and h[m.tile] and m.tile not in picked:
                    out.append(Action.of(seat, "added_kong", m.tile))
        discards = self._discards[seat]
        # claims.discard_picked_up = false: a picked-up discard is not thrown straight back
        barred = self.just_picked if self._keep_picked_up and claimed_turn else None
        if barred is not None and h[barred] == 1:
            out += [discards[t] for t in held if t != barred]
        else:
            out += [discards[t] for t in held]
        if self._original_call:
            out = self._original_call_actions(seat, out)
        return out

    def _original_call_actions(self, seat: int, out: list[Action]) -> list[Action]:
        """Original Call (dmjl.md "Play"): with his first discard a player whose hand is then
        ready may announce it (action ``original_call`` TILE: discard TILE and announce); once
        announced he may not change his hand: on his turn he wins or discards the tile he
        drew, and claims nothing but a win."""
        if self.called[seat]:
            drawn = self.last_drawn if self.drawn_from in ("wall", "replacement", "flower") else None
            return [a for a in out if a.kind == "win" or (a.kind == "discard" and a.tile == drawn)] or out
        if self.ponds[seat]:
            return out
        h = self.hands[seat]
        extra = []
        for a in out:
            if a.kind != "discard":
                continue
            h[a.tile] -= 1
            ready = any(self._ready_with(seat, h, w) for w in self._kinds if not T.is_bonus(w))
            h[a.tile] += 1
            if ready:
                extra.append(Action.of(seat, "original_call", a.tile))
        return out + extra

    def _ready_with(self, seat: int, h: list[int], w: int) -> bool:
        if h[w] >= 4:
            return False
        h[w] += 1
        try:
            return self._complete(seat, h)
        finally:
            h[w] -= 1

    def _any_winning_tile(self, seat: int) -> int | None:
        """For a dealt (heavenly) hand: name some tile of the hand as the winning tile."""
        h = self.hands[seat]
        for t in self._kinds:
            if h[t]:
                return t
        return None

    def _discard_win_situations(self, seat: int, discarder: int, tile: int) -> set[str]:
        """Situations of a win by ``seat`` on ``discarder``'s discard ``tile``."""
        sit = set(self._common_situations(seat))
        if self.discards_made == 1 and discarder == self.dealer and self.claims_made == 0:
            sit.add("earthly")  # on the dealer's first discard, no claim before it
        if self.kongs_this_turn:
            sit.add("discard_after_kong")  # Yuxi kong_discard_win
        if not self._ordinary_draw_allowed():
            sit.add("last_discard")  # the discard after the last wall tile (G-UZ-9)
        if self.variant.claims["rob_kong_concealed_pung"] and any(
            self.hands[o][tile] >= 3 for o in range(4) if o not in (seat, discarder)
        ):
            sit.add("kong_claimable_discard")  # G-OX-4, second reading
        return sit

    def _claim_actions(self, seat: int, discarder: int, tile: int) -> list[Action]:
        pung, kong, chow, pickup = self._claim_rules
        h = self.hands[seat]
        out: list[Action] = []
        is_next = seat == (discarder + 1) % 4
        h[tile] += 1  # cheap shape test before the situations and the scoring
        complete = self._complete(seat, h)
        h[tile] -= 1
        if complete:
            sit = self._discard_win_situations(seat, discarder, tile)
            if self._win_result(seat, tile, False, sit, discarder, extra=tile) is not None:
                out.append(Action.of(seat, "win", tile))
        n = h[tile]
        if n >= 2 and pung:
            out.append(self._pungs[seat][tile])
        if n >= 3 and kong and self._can_kong():
            out.append(self._kongs[seat][tile])
        if is_next:
            if chow or pickup:
                for a, b, tiles in self._chows[tile]:
                    if h[a] and h[b]:
                        out.append(Action.of(seat, "chow", tiles=tiles))
            if pickup:
                out.append(self._pickups[seat][tile])
        if self.called[seat]:
            out = [a for a in out if a.kind == "win"]
        if out:
            out.append(self._passes[seat])
        return out

    # ==================================================================================
    # apply
    # ==================================================================================
    def apply(self, action: Action) -> list[dict]:
        """Apply one action of ``legal_actions(action.seat)``; returns the events it caused.

        Raises :class:`IllegalAction` (state unchanged) with the list of what is allowed.
        """
        legal = self._legal_entry(action.seat) if 0 <= action.seat <= 3 else []
        if not any(a is action for a in legal) and action not in legal:  # pooled: identity first
            if not legal:
                raise IllegalAction(
                    f"seat {action.seat} has no decision to make now (phase {self.phase}, "
                    f"waiting for {self.waiting_for()})"
                )
            raise IllegalAction(
                f"{action.describe()} is not allowed for seat {action.seat} now; allowed: "
                + ", ".join(a.describe() for a in legal)
            )
        self._new_events = []
        self._applied += 1
        kind = action.kind
        if kind not in ("pass", "draw") or len(self._claim_options.get(action.seat, ())) != 1:
            self.actions.append(action)  # a decision (a forced pass is not: forced_passes)
        hand_before, phase_before = self.hand_index, self.phase
        discarder = self.discard[0] if self.discard is not None else None
        if self.phase == "turn":
            if kind == "win" and T.is_bonus(action.tile):
                self._bonus_win_declared(action.seat, action.tile)
            else:  # bonus tiles received after this decision are new (G-UZ-14)
                self.bonus_seen[action.seat] = len(self.bonus[action.seat])
            if kind == "discard":
                self._do_discard(action.seat, action.tile)
            elif kind == "original_call":
                self.called[action.seat] = True
                self._emit({"type": "original_call", "seat": action.seat})
                self._do_discard(action.seat, action.tile)
            elif kind == "win" and not T.is_bonus(action.tile):
                self._self_draw_win(action.seat, action.tile)
            elif kind == "concealed_kong":
                self._do_concealed_kong(action.seat, action.tile)
            elif kind == "added_kong":
                self._do_added_kong(action.seat, action.tile)
        elif self.phase in ("claim", "rob"):
            self._responses[action.seat] = action
            if len(self._responses) < len(self._claim_options):
                return self._new_events  # the window stays open: seq does not move
            if self.phase == "claim":
                self._resolve_claims()
            else:
                self._resolve_rob()
        elif self.phase == "after_kong":
            if kind == "win":
                self._bloom_win(action.seat, action.tile)
            else:
                self._claim_options = {}
                self.phase = "turn"
                self._replacement_draw(action.seat)
        # seats whose public information changed (the public view rebuilds only those): the
        # seat that acted on its turn, the seat to move now (it drew or claimed), a discarder
        # whose tile was claimed; everybody when a hand ends
        dirty = self._dirty_seats
        dirty.add(self.current)
        if phase_before in ("turn", "after_kong"):
            dirty.add(action.seat)
        if discarder is not None and self.ponds[discarder] and self.ponds[discarder][-1][1]:
            dirty.add(discarder)
        if self.hand_index != hand_before or self.phase == "match_over":
            dirty.update(range(4))
        self.seq += 1
        return self._new_events

    def waiting_for(self) -> list[int]:
        """Seats whose decision the table waits for."""
        if self.phase in ("turn", "after_kong"):
            return [self.current]
        if self.phase in ("claim", "rob"):
            return [s for s in self._claim_options if s not in self._responses]
        return []

    # --- turn ------------------------------------------------------------------------------
    def _remove_from_hand(self, seat: int, t: int, n: int = 1) -> None:
        self.hands[seat][t] -= n
        picked = self.claimed_concealed[seat]
        while picked.count(t) > self.hands[seat][t]:
            picked.remove(t)

    def _do_discard(self, seat: int, t: int) -> None:
        self.just_picked = None
        if self._dangerous_game:
            self._discard_dangerous = self._dangerous(seat, t) and not all(
                self._dangerous(seat, x) for x in self._kinds if self.hands[seat][x])
        self._remove_from_hand(seat, t)
        self.ponds[seat].append([t, False])
        self.discards_made += 1
        self.discard = (seat, t)
        self._emit({"type": "discard", "seat": seat, "tile": T.name(t)})
        # the window opens after EVERY discard and asks every other seat, in turn order: one
        # that cannot claim has only ``pass`` (a forced pass), so whether the window opens, and
        # who is asked, tells nobody who holds what
        self._responses = {}
        self._claim_options = {s: self._claim_actions(s, seat, t) or self._pass_only[s]
                               for s in ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)}
        self.phase = "claim"
        self._emit_claim_window()

    def _dangerous(self, seat: int, t: int) -> bool:
        """Whether discarding ``t`` is dangerous for ``seat`` (dmjl.md "Settlement"): another
        player's exposed melds show he may be going for a hand ``t`` would complete, or the live
        wall is nearly used up and ``t`` has not been seen."""
        for o in range(4):
            if o == seat or len(self.melds[o]) < 2:
                continue
            seen = [x for m in self.melds[o] for x in m.tiles]
            n = len(self.melds[o])
            if n >= 3:
                if all(x in _GREEN for x in seen) and t in _GREEN:
                    return True
                suits = {T.suit_of(x) if T.is_suited(x) else -1 for x in seen}
                if len(suits) == 1 and -1 not in suits:
                    if T.is_suited(t) and T.suit_of(t) in suits and len(seen) >= 9:
                        return True
                elif all(T.is_suited(x) and T.is_terminal(x) for x in seen) and T.is_suited(t) and T.is_terminal(t):
                    return True
            winds = sum(1 for w in T.WINDS if seen.count(w) >= 3)
            dragons = sum(1 for d in T.DRAGONS if seen.count(d) >= 3)
            honours_only = winds + dragons == n and n >= 3
            if T.is_wind(t) and (honours_only or winds >= 3) and t not in seen:
                return True
            if T.is_dragon(t) and (honours_only or dragons >= 2) and t not in seen:
                return True
        if self.wall.live_count - self.variant.wall["reserve"] <= 5:
            seen_anywhere = {x for o in range(4) for m in self.melds[o] for x in m.tiles}
            seen_anywhere |= {x for o in range(4) for x, _ in self.ponds[o]}
            if t not in seen_anywhere:
                return True
        return False

    def _emit_claim_window(self) -> None:
        # every seat the rules let claim is asked (forced passes included), so the event is
        # the same whatever anyone holds; each asked seat's own part says it is asked
        self._emit({"type": "claim_window", "rob": self.phase == "rob",
                    "private": {s: {"asked": True} for s in self._claim_options}})

    def forced_passes(self) -> list[Action]:
        """The ``pass`` of every seat the table waits for whose only legal action is ``pass``
        (it cannot claim or rob the tile of the open window), in turn order; ``[]`` outside a
        claim or rob window.  After a kong while bloom tiles lie face up (``after_kong``), the
        kong player's ``draw`` when no bloom tile wins for it (its pass on the bloom tiles).  A driver may apply them at once without asking anybody; they are
        not decisions (:attr:`actions` leaves them out, and a game log does not hold them:
        :meth:`apply_decision`)."""
        if self.phase == "after_kong":  # no bloom tile wins: the replacement is the only choice
            opts = self._claim_options.get(self.current, ())
            return list(opts) if len(opts) == 1 else []
        if self.phase not in ("claim", "rob"):
            return []
        responses = self._responses
        return [opts[0] for s, opts in self._claim_options.items() if len(opts) == 1 and s not in responses]

    def pass_forced(self) -> list[dict]:
        """Apply :meth:`forced_passes` until none is left (a window they close may lead to
        another, e.g. a bonus tile drawn next); returns the events they caused, all together
        (a driver that tells seats what happened window by window applies them one by one, as
        :class:`~mahjong_tui.runner.TableRunner` does)."""
        events: list[dict] = []
        while True:
            forced = self.forced_passes()
            if not forced:
                return events
            for a in forced[:-1]:  # answers that leave the window open: nothing else changes
                self._responses[a.seat] = a
                self._applied += 1
            events += self.apply(forced[-1])

    def apply_decision(self, action: Action) -> list[dict]:
        """Apply one decision (``action``, as :meth:`apply`), then the forced passes that
        follow it (:meth:`pass_forced`); returns the events of both.  This is how a game log
        replays: it holds decisions only (:attr:`actions`), and logs written before every
        window was opened hold no forced pass either.  Raises :class:`IllegalAction` (state
        unchanged) as :meth:`apply` does."""
        events = self.apply(action)
        return events + self.pass_forced()

    def _next_turn(self, seat: int) -> None:
        self.discard = None
        self._claim_options = {}
        self._responses = {}
        self.kongs_this_turn = 0
        self.kong_chain = []
        if not self._ordinary_draw_allowed():
            self._end_hand([], None, False)
            return
        self.current = seat
        self.phase = "turn"
        t = self.wall.draw_front()
        self.last_wall_tile_drawn = self.wall.live_count == self.variant.wall["reserve"]
        self.drawn_from = "wall"
        self._receive(seat, t, "wall")

    def _receive(self, seat: int, t: int, source: str) -> None:
        """A drawn tile reaches ``seat``; bonus tiles are set aside and replaced at once."""
        self.hands[seat][t] += 1
        self.last_drawn = t
        self._emit({"type": "draw", "seat": seat, "source": source, "private": {seat: {"tile": T.name(t)}}})
        self._expose_bonus(seat)

    def _expose_bonus(self, seat: int) -> None:
        """While the tile just drawn is a bonus tile: set it aside and draw its replacement
        (a robbing window may come between, G-UZ-14)."""
        while (self.last_drawn is not None and T.is_bonus(self.last_drawn)
               and self.variant.deal["bonus_replacement"]):
            self._set_aside(seat, self.last_drawn)
            if self._bonus_wins and self._open_bonus_rob(seat, self.last_drawn):
                return  # the replacement comes after the robbing window (_resolve_rob)
            hand = self.hand_index
            self._after_bonus(seat)
            if self.hand_index != hand or self.phase == "match_over":
                return   # no replacement was left: the hand is over

    def _after_bonus(self, seat: int) -> None:
        """The replacement draw of a bonus tile just set aside (``last_drawn`` = the new tile).
        With no tile left to replace it (a flower was the last tile of the wall) the hand ends
        in an exhaustive draw."""
        nt = self._bonus_replacement(seat, self.bonus[seat][-1])
        self.last_drawn = nt
        if nt is None:
            self._end_hand([], None, False)
            return
        self.drawn_from = "flower" if self.drawn_from != "replacement" else "replacement"

    def _open_bonus_rob(self, seat: int, b: int) -> bool:
        """G-UZ-14 Ivies on the wall, Singapore's robbing the eighth: the flower or season
        ``b`` that ``seat`` just exposed may be robbed by another seat whose face-up bonus
        tiles hold the seven others.  That is public, so the robbing window opens whenever
        some seat's bonus tiles do, and asks exactly those seats (:meth:`_ask_robbers`: a win
        where the scorer accepts it, else only ``pass``); returns True if it opened."""
        if b not in T.SEASONS_AND_FLOWERS:
            return False
        robbers = [s for s in ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)
                   if set(self.bonus[s]) | {b} >= T.SEASONS_AND_FLOWERS]
        if not robbers:
            return False
        self._ask_robbers(seat, b, lambda s: self._evaluate(
            self.context(s, b, False, {"robbing_the_eighth"}, seat)).winning, robbers)
        self._open_rob(seat, b, "bonus")
        return True

    def _ask_robbers(self, seat: int, tile: int, may_win: Callable[[int], bool],
                     seats: list[int] | None = None) -> None:
        """Ask every seat of ``seats`` (default: every other seat, in turn order after
        ``seat``) in the robbing window on ``tile``: a win (or a pass) where ``may_win(s)``,
        else only ``pass`` (a forced pass).  Who is asked is public; who may win is not."""
        self._responses = {}
        if seats is None:
            seats = [(seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4]
        self._claim_options = {s: [Action.of(s, "win", tile), self._passes[s]] if may_win(s) else self._pass_only[s]
                               for s in seats}

    def _open_rob(self, seat: int, tile: int, what: str) -> None:
        """The robbing window on ``seat``'s ``tile`` (``what``: ``"added"``, ``"concealed"``
        kong, or ``"bonus"`` tile), for the seats :meth:`_ask_robbers` asked."""
        self._rob = (seat, tile, what)
        self.phase = "rob"
        self._emit_claim_window()

    def _replacement_draw(self, seat: int) -> None:
        t = self.wall.draw_back()
        self.drawn_from = "replacement"
        self._receive(seat, t, "replacement")

    def _after_kong(self, seat: int, kong_type: str) -> None:
        """Kong declared and standing: bloom-tile win option (G-YX-3) or replacement draw (while
        bloom tiles lie face up the choice is offered after every kong, a ``draw`` only where
        no bloom tile wins: the phase tells nobody whether one would); with
        ``wall.kong_indicator`` the next indicator is turned up first (uzje.md "How a game goes"; the order of
        the two changes no decision)."""
        self.kongs_this_turn += 1
        self.kong_chain.append(kong_type)
        self.current = seat
        if self.variant.wall["kong_indicator"]:
            t = self.wall.reveal_indicator()
            if t is not None:
                self._emit({"type": "indicator", "tile": T.name(t)})
        opts: list[Action] = []
        for bt in dict.fromkeys(self.wall.bloom):
            sit = {"kong_replacement", "bloom_tile"} | self._common_situations(seat)
            if self.kongs_this_turn >= 2:
                sit.add("double_kong_replacement")
            if self._win_result(seat, bt, True, sit, extra=bt) is not None:
                opts.append(Action.of(seat, "win", bt))
        if opts or self.wall.bloom:
            opts.append(Action.of(seat, "draw"))
            self._claim_options = {seat: opts}
            self._responses = {}
            self.phase = "after_kong"
            return
        self.phase = "turn"
        self._replacement_draw(seat)

    def _do_concealed_kong(self, seat: int, t: int) -> None:
        # claims.rob_kong_forms (uzje.md "How a game goes"): a hand of those forms may rob even a concealed kong
        forms = self.variant.claims["rob_kong_forms"]

        def robs(s: int) -> bool:
            res = self._win_result(s, t, False, {"robbing_kong"} | self._common_situations(s), seat, extra=t)
            return res is not None and res.form in forms

        if forms:  # every concealed kong gets its window: who could rob it is secret
            self._ask_robbers(seat, t, robs)
            self._emit({"type": "concealed_kong_declared", "seat": seat,
                        **({} if self._hidden_kongs else {"tile": T.name(t)})})
            self._open_rob(seat, t, CONCEALED_KONG)
            return
        self._complete_concealed_kong(seat, t)

    def _complete_concealed_kong(self, seat: int, t: int) -> None:
        self._remove_from_hand(seat, t, 4)
        self.melds[seat].append(Meld(KONG, (t,) * 4, declared=True, concealed=True, kong_type=CONCEALED_KONG))
        ev = {"type": "kong", "seat": seat, "tile": T.name(t), "kong_type": CONCEALED_KONG}
        if self._hidden_kongs:  # options.concealed_quad_mode = "hidden": only the declarer sees it
            ev = {"type": "kong", "seat": seat, "kong_type": CONCEALED_KONG, "private": {seat: {"tile": T.name(t)}}}
        self._emit(ev)
        self._pay_instant(seat, instant.kong_payment(CONCEALED_KONG), tiles=() if self._hidden_kongs else (t,) * 4)
        self._after_kong(seat, CONCEALED_KONG)

    def _do_added_kong(self, seat: int, t: int) -> None:
        # robbing window first (common.md "Claim window"; G-YX-4): it opens after every added
        # kong the variant lets be robbed and asks every other seat (a win where it can win)
        robbable = self.variant.claims["rob_kong"] == "added"
        if robbable:
            self._ask_robbers(seat, t, lambda s: self._win_result(
                s, t, False, {"robbing_kong"} | self._common_situations(s), seat, extra=t) is not None)
        else:
            self._claim_options, self._responses = {}, {}
        self._emit({"type": "add_kong_declared", "seat": seat, "tile": T.name(t)})
        if robbable:
            self._open_rob(seat, t, ADDED_KONG)
            return
        self._complete_added_kong(seat, t)

    def _complete_added_kong(self, seat: int, t: int) -> None:
        self._remove_from_hand(seat, t)
        ms = self.melds[seat]
        for i, m in enumerate(ms):
            if m.kind == PUNG and m.tile == t:
                ms[i] = Meld(KONG, (t,) * 4, declared=True, concealed=False, kong_type=ADDED_KONG, from_seat=m.from_seat,
                             claimed=m.claimed)
                break
        self._emit({"type": "kong", "seat": seat, "tile": T.name(t), "kong_type": ADDED_KONG})
        self._pay_instant(seat, instant.kong_payment(ADDED_KONG), tiles=(t,) * 4)  # it stood the robbing
        self._after_kong(seat, ADDED_KONG)

    # --- claims ----------------------------------------------------------------------------
    _PRIORITY = {"win": 3, "pung": 2, "kong": 2, "chow": 1, "pickup": 1, "pass": 0}

    def _resolve_claims(self) -> None:
        discarder, tile = self.discard
        responses = self._responses
        if all(a.kind == "pass" for a in responses.values()):
            best = 0
        else:
            order = [(discarder + o) % 4 for o in range(1, 4)]
            answers = [responses[s] for s in order if s in responses]
            best = max(self._PRIORITY[a.kind] for a in answers)
        if best == 0:
            self._emit({"type": "no_claim"})
            self._next_turn((discarder + 1) % 4)
            return
        top = [a for a in answers if self._PRIORITY[a.kind] == best]
        self.ponds[discarder][-1][1] = True
        if best == 3:
            winners = top if self.variant.claims["multiple_winners"] else top[:1]
            self._discard_wins([a.seat for a in winners], discarder, tile)
            return
        a = top[0]
        seat = a.seat
        if self._discard_dangerous and a.kind != "kong":
            self.dangerous_from[seat] = discarder   # dmjl.md "Settlement": claimed a dangerous discard
        self.claims_made += 1
        self.last_wall_tile_drawn = False  # the claimer's turn is not the last draw's
        self.current = seat
        self.kongs_this_turn = 0
        self.kong_chain = []
        self.discard = None
        self._claim_options = {}
        self._responses = {}
        self._emit({"type": "claim", "seat": seat, "kind": a.kind, "tile": T.name(tile), "from": discarder,
                    # a chow's meld (public: it is exposed), named by its kind (Uzje arith/gem/power)
                    **({"tiles": T.format_tiles(a.tiles)} if a.kind == "chow" else {})})
        if a.kind == "pickup":
            self.hands[seat][tile] += 1
            self.claimed_concealed[seat].append(tile)
            self.phase = "turn"
            self.drawn_from = None
            self.last_drawn = None
            self.just_picked = tile
            return
        if a.kind == "chow":
            for t in a.tiles:
                if t != tile:
                    self.hands[seat][t] -= 1
            meld = Meld(CHOW, a.tiles, declared=True, concealed=False, from_seat=discarder, claimed=tile)
        elif a.kind == "pung":
            self._remove_from_hand(seat, tile, 2)
            meld = Meld(PUNG, (tile,) * 3, declared=True, concealed=False, from_seat=discarder, claimed=tile)
        else:
            self._remove_from_hand(seat, tile, 3)
            meld = Meld(KONG, (tile,) * 4, declared=True, concealed=False, kong_type=EXPOSED_KONG, from_seat=discarder, claimed=tile)
        self.melds[seat].append(meld)
        if a.kind == "kong":
            self._emit({"type": "kong", "seat": seat, "tile": T.name(tile), "kong_type": EXPOSED_KONG})
            self._pay_instant(seat, instant.kong_payment(EXPOSED_KONG), tiles=(tile,) * 4)
            self._after_kong(seat, EXPOSED_KONG)
            return
        self.phase = "turn"
        self.drawn_from = None
        self.last_drawn = None

    def _resolve_rob(self) -> None:
        seat, tile, what = self._rob
        order = [(seat + o) % 4 for o in range(1, 4)]
        winners = [s for s in order if s in self._responses and self._responses[s].kind == "win"]
        self._rob = None
        if not winners:
            self._claim_options = {}
            self._responses = {}
            self.phase = "turn"
            self.current = seat
            if what == "bonus":
                hand = self.hand_index
                self._after_bonus(seat)
                if self.hand_index == hand and self.phase != "match_over":
                    self._expose_bonus(seat)
            elif what == CONCEALED_KONG:
                self._complete_concealed_kong(seat, tile)
            else:
                self._complete_added_kong(seat, tile)
            return
        if not self.variant.claims["multiple_winners"]:
            winners = winners[:1]
        if what == "bonus":
            self._bonus_robbed(winners, seat, tile)
            return
        self._remove_from_hand(seat, tile)  # the robbed tile leaves the declarer's hand
        results = []
        for w in winners:
            sit = {"robbing_kong"} | self._common_situations(w)
            res = self._win_result(w, tile, False, sit, seat, extra=tile)
            results.append((w, res, self.context(w, tile, False, sit, seat, extra=tile)))
        # one physical tile: it joins the nearest winner's hand; every winner is scored with it
        self.hands[results[0][0]][tile] += 1
        self._end_hand(results, seat, False, robbed=True)

    # --- wins ------------------------------------------------------------------------------
    def _bonus_win_declared(self, seat: int, tile: int) -> None:
        """A win by bonus tiles on one's own turn (Singapore's all eight flowers, singapore.md "Tai table";
        Uzje's six flowers and crossing the sea, G-UZ-14): paid as a self-draw."""
        _, sit = self._bonus_win(seat)
        ctx = self.context(seat, tile, True, sit)
        self._end_hand([(seat, self._evaluate(ctx), ctx)], None, True)

    def _bonus_robbed(self, winners: list[int], seat: int, tile: int) -> None:
        """Wins on a bonus tile ``seat`` exposed (Singapore's robbing the eighth, singapore.md "Tai table";
        Uzje's ivies on the wall, G-UZ-14): ``seat`` pays as the discarder (or for all, where
        the variant's liability rules say so).  The tile joins the nearest winner's bonus tiles;
        every winner is scored as he stood when he robbed it."""
        results = []
        for w in winners:
            ctx = self.context(w, tile, False, {"robbing_the_eighth"}, seat)
            results.append((w, self._evaluate(ctx), ctx))
        self.bonus[seat].remove(tile)
        self.bonus[winners[0]].append(tile)
        self._end_hand(results, seat, False, robbed=True)

    def _self_draw_win(self, seat: int, tile: int) -> None:
        sit = self._situations_for_turn(seat)
        res = self._win_result(seat, tile, True, sit)
        self._end_hand([(seat, res, self.context(seat, tile, True, sit))], None, True)

    def _bloom_win(self, seat: int, tile: int) -> None:
        idx = self.wall.bloom.index(tile)
        self.wall.take_bloom(idx)
        sit = {"kong_replacement", "bloom_tile"} | self._common_situations(seat)
        if self.kongs_this_turn >= 2:
            sit.add("double_kong_replacement")
        ctx = self.context(seat, tile, True, sit, extra=tile)
        res = self._evaluate(ctx)
        self.hands[seat][tile] += 1
        self._end_hand([(seat, res, ctx)], None, True)

    def _discard_wins(self, seats: list[int], discarder: int, tile: int) -> None:
        if self._discard_dangerous:
            for s in seats:
                self.dangerous_from[s] = discarder   # won on a dangerous discard
        results = []
        for s in seats:
            sit = self._discard_win_situations(s, discarder, tile)
            ctx = self.context(s, tile, False, sit, discarder, extra=tile)
            results.append((s, self._evaluate(ctx), ctx))
        # one physical tile: it joins the nearest winner's hand; every winner is scored with it
        self.hands[results[0][0]][tile] += 1
        self._end_hand(results, discarder, False)

    # ==================================================================================
    # end of hand, settlement, rotation
    # ==================================================================================
    def _end_hand(self, winners: list[tuple[int, ScoreResult, HandContext]], discarder: int | None,
                  self_draw: bool, robbed: bool = False) -> None:
        v = self.variant
        win_seats = [w for w, _, _ in winners]
        losers: dict[int, ScoreResult] = {}
        if winners and v.scoring["score_losers"]:
            for s in range(4):
                if s not in win_seats:
                    losers[s] = score_loser(v, self.context(s, None, False))
        liable = {}  # pay for all (singapore.md "Settlement", yangzhou.md "Settlement"): winner -> the seat that pays for him
        for w, res, ctx in winners:
            # in the context's numbering (from East: see context), then back to table seats
            payer = liable_in_context(v, res, ctx, self._from_east(discarder) if discarder is not None else None)
            if payer is not None:
                liable[w] = self._from_dealer(payer)
            elif self._dangerous_game and self.dangerous_from[w] is not None and self.dangerous_from[w] != w:
                liable[w] = self.dangerous_from[w]   # dmjl.md "Settlement": the dangerous discarder pays for all
        deltas = settle(v, seat_winds=[self.seat_wind(s) for s in range(4)], winners=winners, losers=losers,
                        self_draw=self_draw, discarder=discarder, liable=liable) if winners else [0.0] * 4
        for s in range(4):
            self.scores[s] += deltas[s]
        # seats that also declared a win on the discard (or the robbed tile) but lost it to a
        # nearer seat (claims.multiple_winners false: one winner per discard), nearest first
        beaten = [s for s in ((discarder + o) % 4 for o in range(1, 4))
                  if s not in win_seats and getattr(self._responses.get(s), "kind", None) == "win"
                  ] if winners and discarder is not None else []
        summary = {
            "hand": self.hand_index,
            "dealer": self.dealer,
            "prevailing_wind": T.name(self.prevailing_wind),
            "seat_winds": [T.name(self.seat_wind(s)) for s in range(4)],
            "result": "win" if winners else "draw",
            "self_draw": self_draw,
            "discarder": discarder,
            "robbed": robbed,
            "winners": [
                {"seat": w, "value": res.value, "unit": res.unit, "form": res.form,
                 **({"points": res.points} if res.points is not None else {}),
                 "patterns": _pattern_dicts(res),
                 "tile": T.name(ctx.winning_tile),
                 # the melds the scorer read the hand in (notation; the group holding the
                 # winning tile at winning_group), how the tile came, who paid for all
                 "melds": list(res.decomposition), "winning_group": res.winning_group,
                 "situations": sorted(ctx.situations),
                 **({"paid_by": liable[w]} if w in liable else {})}
                for w, res, ctx in winners
            ],
            "beaten": beaten,
            "loser_scores": {s: r.value for s, r in losers.items()},
            # each non-winner's own breakdown where every player scores his hand (G-OX-6)
            "loser_patterns": {s: _pattern_dicts(r) for s, r in losers.items()},
            # the hand's instant payments (singapore.md "Settlement"), already in the scores; ``deltas`` above
            # are the win's settlement only
            "instant_payments": list(self.instant_log),
            "instant_deltas": [sum(p["deltas"][s] for p in self.instant_log) for s in range(4)],
            "hands": [self._reveal(s) for s in range(4)],
            "deltas": deltas,
            "scores": list(self.scores),
        }
        self.history.append(summary)
        self._emit({"type": "hand_end", **summary})
        # dealer and wind rotation (yuxi.md "Setting up", classic.md "Setting up", yangzhou.md "Setting up")
        stays = v.match["dealer_stays_on"]
        if (self.dealer in win_seats and "dealer_win" in stays) or (not winners and "draw" in stays):
            new_dealer = self.dealer
        elif winners and v.match["new_dealer"] == "winner":
            # G-YX-5: the winner nearest in turn after the discarder (or the self-drawer)
            start = discarder if discarder is not None else win_seats[0] - 1
            new_dealer = min(win_seats, key=lambda s: (s - start - 1) % 4)
        else:
            new_dealer = (self.dealer + 1) % 4
        if new_dealer != self.dealer:
            self.dealer_changes += 1
        self.dealer = new_dealer
        self.hand_index += 1
        if self._match_over():
            self.phase = "match_over"
            self._claim_options = {}
            self._emit({"type": "match_end", "scores": list(self.scores)})
            return
        self._start_hand()

    def _reveal(self, seat: int) -> dict:
        return {
            "concealed": T.format_tiles(T.tiles_of(self.hands[seat])),
            # of them, the discards picked up into the hand (G-OX-2: they score as open)
            "picked_up": T.format_tiles(self.claimed_concealed[seat]),
            "melds": [m.notation() for m in self.melds[seat]],
            # for each meld, the discard claimed into it and the seat it came from (None: none)
            "claims": [{"claimed": T.name(m.claimed), "from_seat": m.from_seat} if m.claimed is not None else None
                       for m in self.melds[seat]],
            "bonus": T.format_tiles(self.bonus[seat]),
        }

    def _match_over(self) -> bool:
        if self.hands_limit is not None:
            return self.hand_index >= self.hands_limit
        rounds = self.variant.match["rounds"]
        if rounds:
            return self.dealer_changes >= 4 * rounds
        return self.hand_index >= self.variant.match["hands"]

    # ==================================================================================
    # views
    # ==================================================================================
    def view(self, seat: int) -> dict:
        """What ``seat`` may know (DESIGN.md): its own concealed tiles, and public information
        only — ponds, melds, bonus tiles, wall counts, face-up bloom tiles, scores, whose
        decision it is.  Never another seat's concealed tiles, the wall order or the seed.
        JSON- and msgpack-serialisable (ints, strings, lists, dicts).  The public parts are
        shared between the views of one moment: treat a view as read-only.  Keys and how each
        is built: :data:`VIEW_FIELDS`."""
        return {key: field(self, seat) for key, field in VIEW_FIELDS.items()}

    def lazy_view(self, seat: int) -> "LazyView":
        """:meth:`view` as a read-only mapping whose fields are built on first read (a bot
        that reads three fields does not pay for twenty).  Same keys and values as
        :meth:`view`; valid until the next action is applied, after which reading a field
        not yet read raises ``RuntimeError`` (``dict(lazy)`` keeps a copy)."""
        return LazyView(self, seat)

    def _public_view(self) -> tuple[list[dict], dict]:
        """The seats' public information and the wall counts, built once per state."""
        key = self.seq  # answers inside an open claim window change nothing public
        if self._public_cache is not None and self._public_cache[0] == key:
            return self._public_cache[1]
        players = []
        dirty = self._dirty_seats
        for s in range(4):
            hit = self._seat_cache[s]
            if hit is None or s in dirty:
                pond, melds = self.ponds[s], self.melds[s]
                # within a hand a pond only grows at the end or has its last tile claimed
                old = hit[1]["pond"] if hit is not None and hit[0] == self.hand_index else None
                n = len(pond)
                if old is not None and len(old) == n - 1 and (n == 1 or old[-1][1] == pond[-2][1]):
                    names = old + [[T.name(pond[-1][0]), pond[-1][1]]]
                elif old is not None and len(old) == n and n:
                    names = old if old[-1][1] == pond[-1][1] else old[:-1] + [[T.name(pond[-1][0]), pond[-1][1]]]
                else:
                    names = [[T.name(t), c] for t, c in pond]
                hit = (self.hand_index, {
                    "seat": s,
                    "wind": T.name(self.seat_wind(s)),
                    "dealer": s == self.dealer,
                    "score": self.scores[s],
                    "concealed_count": sum(self.hands[s]),
                    "melds": [_meld_dict(m, self._hidden_kongs) for m in melds],
                    "bonus": (hit[1]["bonus"] if old is not None and len(hit[2]) == len(self.bonus[s])
                              else T.format_tiles(self.bonus[s])),
                    "pond": names,
                    # Original Call announced (dmjl.md "Play"); only where it was
                    **({"original_call": True} if self.called[s] else {}),
                }, tuple(self.bonus[s]))
                self._seat_cache[s] = hit
            players.append(hit[1])
        dirty.clear()
        bloom = self.wall.bloom
        if self._wall_static is None or self._wall_static[0] is not self.wall or self._wall_static[1] != bloom:
            self._wall_static = (self.wall, list(bloom), {
                "bloom": [T.name(t) for t in bloom], "reserve": self.variant.wall["reserve"],
                "dice": list(self.wall.brk.dice), "break_seat": self.wall.brk.wall_seat,
                "break_stack": self.wall.brk.stack, "stacks": list(self.wall.stacks)})
        wall = {"live": self.wall.live_count, "dead": self.wall.dead_count,
                "front": self.wall.drawn_front, "back": self.wall.drawn_back,
                "indicators": [T.name(t) for t in self.wall.indicators], **self._wall_static[2]}
        self._public_cache = (key, (players, wall))
        return players, wall

    def invalidate_caches(self) -> None:
        """Forget cached legal actions and public views (only for code that edits the state
        directly, such as tests that rig a hand)."""
        self._legal_cache = {}
        self._legal_at = -1
        self._public_cache = None
        self._wall_static = None
        self._seat_cache = [None] * 4

    def snapshot(self) -> tuple:
        """The complete state as a hashable value (replay tests compare these)."""
        return (
            self.hand_index, self.dealer, self.dealer_changes, tuple(self.scores), self.phase, self.current,
            tuple(tuple(h) for h in self.hands), tuple(tuple(m) for m in self.melds),
            tuple(tuple(b) for b in self.bonus), tuple(tuple(tuple(x) for x in p) for p in self.ponds),
            self.wall.snapshot(), self.discard, tuple(sorted(self._responses.items())), len(self.actions), self.seq,
        ) + ((tuple(self.called), tuple(self.dangerous_from)) if self._original_call or self._dangerous_game else ())

    def all_tiles_accounted(self) -> list[int]:
        """Every tile at the table: hands, melds, bonus, ponds, wall (conservation tests)."""
        out = self.wall.all_tiles()
        for s in range(4):
            out += T.tiles_of(self.hands[s])
            out += [t for m in self.melds[s] for t in m.tiles]
            out += self.bonus[s]
            out += [t for t, claimed in self.ponds[s] if not claimed]
        return out


#: the green tiles (dmjl.md "Scoring": imperial jade): bamboo 2, 3, 4, 6, 8 and the green dragon
_GREEN = frozenset({T.tile("s", r) for r in (2, 3, 4, 6, 8)} | {T.GREEN})


def _meld_dict(m: Meld, hidden: bool = False) -> dict:
    """A meld as views show it, kept on the (immutable) meld: do not modify.  ``hidden``
    (``options.concealed_quad_mode = "hidden"``): a concealed kong shows no tiles.  A meld
    made with a claimed discard also names that tile (``"claimed": "5t"``: which tile of a
    chow came from ``from_seat``)."""
    key = "_view_hidden" if hidden and m.kong_type == CONCEALED_KONG else "_view"
    d = m.__dict__.get(key)
    if d is None:
        tiles = "" if key == "_view_hidden" else T.format_tiles(m.tiles)
        d = {"kind": m.kind, "tiles": tiles, "kong_type": m.kong_type, "from_seat": m.from_seat}
        if m.claimed is not None:
            d["claimed"] = T.name(m.claimed)
        m.__dict__[key] = d
    return d


def _pattern_dicts(res: ScoreResult) -> list[dict]:
    """A score's breakdown as the hand summary holds it: one dict per pattern (id, value,
    count, kind, description)."""
    return [{"id": p.id, "value": p.value, "count": p.count, "kind": p.kind, "description": p.description}
            for p in res.patterns]


def _view_players(table: Table, seat: int) -> list[dict]:
    """The seats' public information; with hidden concealed kongs the seat's own entry shows
    its own kongs' tiles."""
    players = table._public_view()[0]
    if table._hidden_kongs and 0 <= seat <= 3 and any(m.kong_type == CONCEALED_KONG for m in table.melds[seat]):
        own = dict(players[seat])
        own["melds"] = [_meld_dict(m) for m in table.melds[seat]]
        players = players[:seat] + [own] + players[seat + 1:]
    return players


def claimable_sequences(variant: Variant) -> list[list[tuple[int, int, tuple[int, ...]]]]:
    """Per tile code: the sequence melds of the variant's meld templates that a discard of it
    completes (common.md "Melds": chows; Uzje's ariths, gems and powers, uzje.md "How a game goes", G-UZ-3), each as ``(the two
    other tiles, the meld's tiles sorted)``, every tile a physical kind of the variant (rank 0
    is the zero tile).  Per tile, melds are in suit order, then by their ranks."""
    kinds = set(variant.kinds)
    rank_sets = sorted({rs for tpl in variant.meld_templates for rs in tpl.rank_sets})
    out: list[list[tuple[int, int, tuple[int, ...]]]] = [[] for _ in range(T.NUM_KINDS)]
    for si in variant.suit_indices:
        for rs in rank_sets:
            ts = [variant.physical(si * T.SUIT_SIZE + r) for r in rs]
            if not all(t in kinds for t in ts):
                continue
            for i, tile in enumerate(ts):
                a, b = (ts[j] for j in range(3) if j != i)
                out[tile].append((a, b, tuple(sorted(ts))))
    return out


def _view_waiting_for(table: Table, seat: int) -> list[int]:
    # in a claim window only the seat's own duty is shown (who may claim is secret)
    if table.phase in ("turn", "after_kong"):
        return table.waiting_for()
    return [w for w in table.waiting_for() if w == seat]


def _view_picked_up(table: Table, seat: int) -> str:
    """Notation of ``seat``'s own picked-up concealed tiles (``'55t'``; ``''`` without any)."""
    if not 0 <= seat <= 3:
        return ""
    return T.format_tiles(table.claimed_concealed[seat])


def _view_drawn(table: Table, seat: int) -> str | None:
    if table.phase == "turn" and seat == table.current and table.last_drawn is not None:
        return T.name(table.last_drawn)
    return None


#: The fields of :meth:`Table.view`, in order: key -> ``field(table, seat)``.
VIEW_FIELDS: dict[str, Callable[[Table, int], object]] = {
    "seat": lambda table, seat: seat,
    "variant": lambda table, seat: table.variant.id,
    "rules_hash": lambda table, seat: table.variant.rules_hash,
    "seq": lambda table, seat: table.seq,
    "hand_number": lambda table, seat: table.hand_index,
    "hands_limit": lambda table, seat: table.hands_limit,
    "phase": lambda table, seat: table.phase,
    "current": lambda table, seat: table.current,
    # kongs the seat to move has made this turn (declared or claimed, each with its replacement
    # draw): public, and the discard that follows may be won on differently (Yuxi G-YX-3)
    "kongs_this_turn": lambda table, seat: table.kongs_this_turn,
    "waiting_for": _view_waiting_for,
    "dealer": lambda table, seat: table.dealer,
    "prevailing_wind": lambda table, seat: T.name(table.prevailing_wind),
    "players": _view_players,
    "hand": lambda table, seat: T.format_counts(table.hands[seat]),
    # the seat's OWN concealed tiles that it picked up from discards (classic.md "How a hand goes", G-OX-2): they
    # are in "hand" but count as open in scoring; never in another seat's view
    "picked_up": _view_picked_up,
    "drawn": _view_drawn,
    "discard": lambda table, seat: ({"seat": table.discard[0], "tile": T.name(table.discard[1])}
                                    if table.discard else None),
    "wall": lambda table, seat: table._public_view()[1],
    "legal": lambda table, seat: [a.shared_dict() for a in table._legal_entry(seat)],
    "last_hand": lambda table, seat: table.history[-1] if table.history else None,
    # the instant payments of the hand in play so far (singapore.md "Settlement"; empty without [instant_payments]):
    # a seat that joins (or rejoins) mid-hand learns the bites it did not see happen
    "instant_payments": lambda table, seat: list(table.instant_log),
}

_ABSENT = object()


class LazyView(Mapping):
    """:meth:`Table.view` built field by field on first read (:meth:`Table.lazy_view`).

    A read-only mapping with the keys of :data:`VIEW_FIELDS`; each value, once read, is the
    one :meth:`Table.view` would hold at the moment the lazy view was made.  Reading a field
    not read before after the table has applied another action raises ``RuntimeError``
    (the moment is gone): copy with ``dict(view)`` to keep a view."""

    __slots__ = ("_table", "_seat", "_at", "_got")

    def __init__(self, table: Table, seat: int):
        self._table = table
        self._seat = seat
        self._at = table._applied
        self._got: dict[str, object] = {}

    def __getitem__(self, key: str) -> object:
        value = self._got.get(key, _ABSENT)
        if value is _ABSENT:
            field = VIEW_FIELDS.get(key)
            if field is None:
                raise KeyError(key)
            if self._table._applied != self._at:
                raise RuntimeError(f"view field {key!r} read after the table moved on; "
                                   f"keep a view with dict(view)")
            value = self._got[key] = field(self._table, self._seat)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(VIEW_FIELDS)

    def __len__(self) -> int:
        return len(VIEW_FIELDS)


def event_for(event: dict, seat: int | None) -> dict:
    """The event as ``seat`` may see it: its own ``private`` part merged in, other seats'
    private parts dropped (``seat=None``: a spectator's public view)."""
    priv = event.get("private")
    if priv is None:
        return event
    out = {k: v for k, v in event.items() if k != "private"}
    if seat is not None and seat in priv:
        out.update(priv[seat])
    return out
