"""The AI levels ``ai:easy``, ``ai:normal`` (the default ``ai``) and ``ai:strong``.

Every level is one :class:`LevelBot` with different settings (:data:`LEVELS`).  A decision
reads only the view (:class:`~mahjong_tui.ai.knowledge.Knowledge`) and the legal actions.

How a hand is judged (normal / strong)
--------------------------------------
For each *plan* the variant's patterns call for (:mod:`mahjong_tui.ai.plans`: free, one suit
plus honours, one suit, pungs only, seven pairs, pure straight, …) the bot knows

- whether the variant lets it win that plan, and for how much — by self-draw and on a discard
  — asked of the variant's scorer (:meth:`ValueModel.probe`);
- the hand's *distance* to the plan (shanten restricted to the plan) and its *acceptance*:
  the copies, **not visible to this seat**, of tiles that would lower that distance.

It turns them into an expected gain ``P(win) · u(value)``:

- ``P`` comes from an Erlang model: ``distance`` improving draws at the acceptance rate, then
  the winning tile at a rate set by how many waits there are and whether they may be won on a
  discard (the other seats' discards in a round count as one more draw), within the seat's
  remaining draws;
- ``u(v) = v ** alpha`` (by default ``alpha`` 0.5) damps huge limit hands so a bot does not
  chase a 500 point seven pairs with a 3 % chance over a likely plain win; ``v`` is the hand's
  value in the variant's unit (:mod:`mahjong_tui.ai.value`), counting the seat's bonus tiles.
  A variant file may set the exponent per level (``[ai]`` ``strong_alpha``): Classic's
  ``ai:strong`` weighs hands by their points (1), which is what a player takes home there;
- where every player's hand is scored (``scoring.score_losers``: Classic, DMJL, BMJA),
  ``strong`` also adds ``loser_weight · u(what the hand would score without winning)``
  (:meth:`LevelBot._loser_u`) to each discard, claim and kong it weighs;
- a discard win comes at ``DISCARD_RATE`` times the self-draw rate (scaling it by the suits
  the other seats throw away gained nothing against easy opponents over 2,400 Yuxi and
  3,600 Yangzhou hands: tests/bench/ai_results.md);
- a ready hand (distance 0) is judged exactly: every wait is scored by the variant's scorer
  from the bot's own tiles and melds (and the face-up bonus tile indicators: Uzje's bonus
  tiles score), so an illegal wait (Yangzhou under 15 fan, a Yuxi basic
  win on a discard, a Classic chow-completing discard) is worth nothing by that route;
  ``kong_reads`` (``strong``) adds the route of a set that can still become a kong where a
  face-up bloom tile would then win (Yuxi kong on flower, :meth:`LevelBot._bloom_route`);
- claims speed up a plan's middle steps only where a claimed meld leaves it winnable (not a
  plain hand that is legal only concealed: Uzje's closed hand, Singapore's fully concealed
  tai; :meth:`LevelBot._claim_boost`);
- the acceptance of each step shrinks as the hand closes in, and a discard that breaks a plan's
  best shape is judged one step farther with a little less than the best shape's acceptance
  (so "wider but farther" never beats "closer");
- only the :data:`MAX_PLANS` nearest plans are judged at each decision (a fixed-chow plan whose
  missing tiles alone put it out of reach is not even measured);
- ``look_ahead`` (``strong``) looks two steps ahead from one-from-ready hands: for every draw that makes it
  ready it finds the best discard and values those waits, and scales the model's estimates of
  the farther plans by how optimistic the model proved on this hand.  The waits are valued
  from the plans (:meth:`LevelBot._estimate`: the best plan the finished hand fits — its
  kinds and shape —, else the plain hand), not by the scorer, which would be called
  thousands of times a hand (measured: scoring them exactly was no stronger).  A hand's look-ahead tree depends on the hand only and is
  memoised, so a hand that stays one from ready costs nothing the next turn.  It runs only
  where a plain hand's waits are restricted in a way the plans' typical waits do not see
  (:meth:`LevelBot._waits_restricted`: no discard win — Yuxi — or no chow-completing win —
  Classic): where the variant refuses a plain hand (Yangzhou's minimum) plain waits are
  worthless and the plans alone steer (measured: the look-ahead only blurred them), and where
  any wait may be won on a discard (Singapore with a tai in hand, Uzje) it cost wins.

A discard's worth is the best plan's expected gain minus its expected deal-in loss
(:mod:`mahjong_tui.ai.defence`; normal and strong).  Claims compare the best position after
the claim with the position after passing, by the plan model alone (no look-ahead), after two
cheap filters: the tiles that would bring a plan within reach closer are memoised per hand,
and a discarded tile outside them ends the decision at once (a pung or chow never beats
holding its tiles concealed); then only claims that bring a near plan closer are judged.
The floor-valued plain plan of a variant that refuses plain hands never justifies a claim
(:meth:`LevelBot._floor_plan`).  ``normal`` claims only what looks clearly better than
passing; ``strong`` claims unless it looks clearly worse, and counts pung claims as a bigger
speed-up of the plans that can use them (:data:`STRONG_CLAIM_MARGIN`,
:data:`STRONG_CLAIM_BOOST`) — except a claim that gives up a plain hand legal only concealed,
which every level makes only when it looks clearly better.
Kongs: a declared kong is made unless it takes the hand farther from its plans or its worth,
less the extra risk of the discard that follows it, falls well below the best discard's; a
discard is claimed for a kong when that is clearly better than passing, the same risk
deducted, and always when a face-up bloom tile completes the hand it leaves (yuxi.md
G-YX-3: the kong wins at once).  The extra risk (:meth:`LevelBot._kong_risk`, ``kong_reads``:
``strong`` only, like the seven-pairs reading of meldless seats in :mod:`.defence`) is the variant's:
where a discard made after a kong may be won by any ready hand (Yuxi, kong_discard_win:
scoring situation ``discard_after_kong``), the plain ready hands that an
ordinary discard cannot feed become threats too; elsewhere it is 0.  The discard right after
one's own kong, declared or claimed, is judged the same way (the view's
``kongs_this_turn``).  Where a kong is paid the moment it stands (``[instant_payments]``:
Singapore's ``kong_exposed`` and ``kong_concealed``), ``kong_payments`` (``strong``) adds
u(that payment) to the kong's worth (:meth:`LevelBot._instant_u`): it declares and claims kongs that ``normal``
passes to keep its hand concealed.  Once the wall is used up no claim but a win is made, and
a Classic pick-up is only taken to keep the tile (a tile passed round the table and thrown back would
never end the hand; see the engine note in ``tests/bench/ai_results.md``).  Which
tiles may be discarded is the engine's business (the legal actions: e.g. a picked-up discard
may not be thrown straight back, ``claims.discard_picked_up``).

The zero tile (Uzje's ``Z``, uzje.md "Melds and winning hands" G-UZ-11: read group by group as an honour or as rank 0
of a number suit): where the hand shape has zero readings and the hand holds zeros, every
distance, discard, draw and acceptance above is taken with the zeros placed at their best
readings (:meth:`LevelBot._tables`, :class:`~mahjong_tui.ai.shapeops.ZeroHandTables`), rank
0 of a suit counting for that suit's one-suit plans; the actions name the physical tile.  So a
zero that completes 0-1-2 of a suit is kept and a hand ready through a zero reading is judged
as ready (its waits come from the shape, which reads the zeros too).  Other hands are read on
the physical shape's tables, where a zero is only an honour.

``easy`` steers by distance only (the nearest plan the variant lets it win), counts acceptance
by tile kinds rather than unseen copies, plays no defence, and picks a random one of its
nearly-best discards a quarter of the time.  It still never breaks a rule: every level only
returns an action from ``legal``.

What ``strong`` adds to ``normal`` is a list of features (:data:`AI_FLAGS`: the defence reads,
the kong-turn reads, the look-ahead, the kong payments; and its claim settings), and a
variant file's ``[ai]`` section turns off the ones that measured no gain there: each feature
was added to ``ai:normal`` alone and played on the same walls as four ``ai:normal``
(``tests/bench/ai_feature_screen.py``); a feature that only moves decisions without winning
points adds noise and costs a little.  Yuxi's
``ai:strong`` is ``ai:normal`` with the kong-turn reads, Singapore's with the kong payments,
Uzje's with the defence reads and a hand kept closed (its claim margin: a claim costs the
closed hand's 2.6 fan, most of what a flush pays on the ladder; uzje.md "Fan table") —
figures in the variant files' comments and ``tests/bench/ai_results.md``.

Determinism: no global state is read; the only randomness is a ``random.Random`` seeded from
(game seed, seat, hand number, decision number) — all in the view — so the same view gives the
same action and replays reproduce the bots.
"""

from __future__ import annotations

import math
import random

from .. import tiles as T
from ..engine.actions import Action
from ..melds import CHOW, KONG, PUNG, Meld
from ..variant import AI_FLAGS, AI_NUMBERS
from .baseline import Bot
from .defence import KAPPA, Defence
from .knowledge import WIND_CODE, Knowledge, bonus_of, meld_of, parse, tile_code
from .plans import Plan, histogram, orphans_distance, pairs_from_hist, plans_for, triplets_from_hist
from .shapeops import HandTables, ZeroHandTables, ops_for, zero_ops_for
from .value import model_for

DISCARD_RATE = 1.0      # the other seats' discards, per turn, as a share of one own draw
CLAIM_BOOST = 1.25      # pung claims speed up the middle steps (easy, normal)
CLAIM_MARGIN = 1.05     # how much better than passing a pung, chow or pick-up must look (easy, normal)
#: ``strong``'s claim settings: pung claims speed up a plan's middle steps more (1.6) and a claim
#: is made unless it looks clearly worse than passing (0.7).  One strong against three easy,
#: 1,600 hands per group of seeds, before -> after: Yangzhou 22.0 -> 24.4 % (seeds 2-5),
#: 21.2 -> 22.2 % (6-9), 21.8 -> 24.2 % (10-13), share of deal-ins lower in each; Classic
#: 29.8 -> 32.0 % (2-3), Yuxi 22.3 -> 24.9 % (2-5).  ``normal`` keeps the old pair (its
#: four-bot figures — Yangzhou draws, Yuxi multiple winners — are unchanged).
STRONG_CLAIM_BOOST = 1.6
STRONG_CLAIM_MARGIN = 0.7
TWO_STEP_OPTIONS = 4    # strong: one-from-ready discards scored two steps ahead
MAX_PLANS = 5           # plans judged per decision (the nearest ones)
FLOOR = 0.03            # share of a plan's value kept when the variant refuses it (lucky patterns)
TYPICAL_WAITS = 6.0     # unseen copies of the waits a hand will have once ready
PAIR_WAITS = 3.5        # the same where only pair and pung waits may win (classic.md "Winning hands")
BREAKING_SHARE = 0.8    # a plan-breaking discard: this share of the best discards' acceptance
#: strong: weight of the extra risk of the discard after a kong (:meth:`LevelBot._kong_risk`).
#: Measured (Yuxi, 900 hands, seeds 2-4): at the strong seat's kong turns its candidate
#: discards dealt in 1.6 times as often as the defence predicted (39 against 24.7 expected);
#: weight 2 over 12,000 hands (seeds 2-31): deal-ins 262 -> 227, win rate 23.6 % both
KONG_RISK_WEIGHT = 2.0

#: strong: weight of the utility of what the hand would score without winning, where the
#: variant scores every player's hand (``scoring.score_losers``; :meth:`LevelBot._loser_u`)
LOSER_WEIGHT = 0.75

#: Settings of each level: ``ev`` judge by expected gain (else nearest plan, easy);
#: ``unseen`` count acceptance in unseen copies (else kinds); ``defence`` weigh deal-in risk;
#: ``reads`` read passes, suji, suits and meldless seven-pairs threats in defence
#: (:mod:`.defence`); ``kong_reads`` judge the discard after one's own kong by its own risk
#: and count the kongs a face-up bloom tile would make win (:meth:`LevelBot._kong_risk`,
#: :meth:`LevelBot._bloom_route`; Yuxi); ``look_ahead`` score one-from-ready hands two draws
#: ahead (:meth:`LevelBot._two_step`); ``noise`` share of easy's random nearly-best discards;
#: ``alpha`` the value utility exponent; ``kong_payments`` count what a kong is paid the moment
#: it stands (:meth:`LevelBot._instant_u`); ``loser_weight`` see :data:`LOSER_WEIGHT`;
#: ``danger_weight`` the weight of a discard's expected deal-in loss; ``claim_boost`` /
#: ``claim_margin`` see :data:`CLAIM_BOOST`, :data:`CLAIM_MARGIN` and the strong values below
#: them.  A variant file's ``[ai]`` section may set any of :data:`AI_KEYS` (numbers) and
#: :data:`AI_FLAGS` (true/false) for ``normal`` and ``strong``.
LEVELS: dict[str, dict] = {
    "easy": {"ev": False, "unseen": False, "defence": False, "reads": False, "kong_reads": False, "look_ahead": False, "noise": 0.25,
             "alpha": 0.5, "kong_payments": False, "loser_weight": 0.0,
             "danger_weight": 1.0, "scorer_budget": 0,
             "claim_boost": CLAIM_BOOST, "claim_margin": CLAIM_MARGIN},
    "normal": {"ev": True, "unseen": True, "defence": True, "reads": False, "kong_reads": False, "look_ahead": False, "noise": 0.0,
               "alpha": 0.5, "kong_payments": False, "loser_weight": 0.0,
               "danger_weight": 1.0, "scorer_budget": 0,
               "claim_boost": CLAIM_BOOST, "claim_margin": CLAIM_MARGIN},
    "strong": {"ev": True, "unseen": True, "defence": True, "reads": True, "kong_reads": True, "look_ahead": True, "noise": 0.0,
               "alpha": 0.5, "kong_payments": True, "loser_weight": LOSER_WEIGHT,
               "danger_weight": 1.0, "scorer_budget": 0,
               "claim_boost": STRONG_CLAIM_BOOST, "claim_margin": STRONG_CLAIM_MARGIN},
}


#: the numbers a variant file's ``[ai]`` section may set for ``normal`` and ``strong``, as
#: ``<level>_<key>`` (e.g. ``strong_alpha``; variants/README.md "[ai]"); the features it may
#: turn on or off are :data:`~mahjong_tui.variant.AI_FLAGS` (e.g. ``strong_look_ahead = false``)
AI_KEYS = tuple(key for key, _, _ in AI_NUMBERS)


def erlang_win(dist: int, rate_mid: float, rate_last: float, draws: float) -> float:
    """P(``dist`` improving draws and then the winning tile, within ``draws`` turns).

    ``rate_mid`` is the chance per turn of an improving tile now; acceptance shrinks as a
    hand closes in (roughly in proportion to distance + 1), so the step from distance ``j``
    is taken at ``rate_mid · (j + 1) / (dist + 1)``.  The last step goes at ``rate_last``.
    The stages are folded into one Erlang law of the same mean."""
    if rate_last <= 0 or draws <= 0:
        return 0.0
    if dist <= 0:
        return 1.0 - math.exp(-draws * rate_last)
    if rate_mid <= 0:
        return 0.0
    mean = (dist + 1) / rate_mid * (_HARMONIC[min(dist + 1, 20)] - 1.0) + 1.0 / rate_last
    n = dist + 1
    lam = draws * n / mean
    term = math.exp(-lam)
    acc = term
    for i in range(1, n):
        term *= lam / i
        acc += term
    return max(0.0, 1.0 - acc)


_HARMONIC = [0.0]
for _i in range(1, 22):
    _HARMONIC.append(_HARMONIC[-1] + 1.0 / _i)


def _ready_gain(waits, unseen, U: int, draws: float) -> tuple[float, float, float]:
    """``(P(win) · utility, winning rate per draw, mean utility)`` of a ready hand whose
    ``waits`` are ``(wait, rate weight, utility weight)`` per unseen copy
    (:meth:`LevelBot._wait_weights`), with ``unseen`` copies of each kind out of ``U`` and
    ``draws`` draws left: the waits win at ``Σ copies · rate weight / U`` a draw.  All 0 when
    no unseen wait wins anything."""
    rate = 0.0
    val = 0.0
    for w, a, b in waits:
        c = unseen[w]
        if c:
            rate += c * a
            val += c * b
    if rate <= 0:
        return 0.0, 0.0, 0.0
    value = val / rate
    rate /= U
    return (1.0 - math.exp(-draws * rate)) * value, rate, value


class _Decision:
    """Everything one decision needs, computed once."""

    def __init__(self, bot: "LevelBot", view: dict):
        self.bot = bot
        v = bot.variant
        self.kn = kn = Knowledge(v, view)
        self.model = bot.model
        self.unseen = kn.unseen
        self.U = max(1, sum(kn.unseen))
        self.L = max(0.5, kn.draws_left)
        self.melds = tuple(kn.melds)
        fed = kn.melds[2].from_seat if len(kn.melds) >= 3 else None
        self.fed_third = kn.players[fed].wind if fed is not None else None
        sit = set()
        pond = kn.players[kn.seat]
        if len(pond.pond) >= 10 and all(T.is_honour(t) and not c for t, c in zip(pond.pond[:10], pond.pond_claimed[:10])):
            sit.add("ten_honour_discards")
        self.situations = frozenset(sit)
        #: this decision's discard follows the seat's own kong, declared or claimed (the view's
        #: ``kongs_this_turn``; :meth:`LevelBot._kong_risk` weighs that discard when the kong
        #: is chosen)
        self.after_kong = bot.settings["kong_reads"] and kn.phase == "turn" and kn.kongs_this_turn > 0
        #: scorer questions this decision may still ask in :meth:`LevelBot._ev_ready` (the
        #: level's ``scorer_budget``; 0 there: no limit)
        self.scorer_left = bot.settings["scorer_budget"] or math.inf
        self._defences: dict[bool, Defence | None] = {}
        self._danger: dict[tuple[int, bool], float] = {}
        self._threats: dict[bool, list] = {}

    def defence_for(self, after_kong: bool) -> Defence | None:
        """The deal-in estimates (normal / strong) for a discard made after one's own kong or
        not, or None when nobody looks threatening; built on first use (a claim that is
        dismissed at once never needs them)."""
        d = self._defences.get(after_kong, False)
        if d is False:
            d = None
            bot = self.bot
            if bot.settings["defence"]:
                got = Defence(bot.variant, self.kn, self.model, bot.settings["reads"], bot.plans, after_kong)
                if got.active:
                    d = got
            self._defences[after_kong] = d
        return d

    @property
    def defence(self) -> Defence | None:
        """:meth:`defence_for` this decision's own discard."""
        return self.defence_for(self.after_kong)

    def danger(self, t: int, after_kong: bool | None = None) -> float:
        """Expected deal-in loss of discarding ``t`` now (``after_kong``: as the discard that
        follows one's own kong; default: as this decision's discard), in utility units:
        Σ_o ready · weight · κ · u(value · loss factor)."""
        ak = self.after_kong if after_kong is None else after_kong
        got = self._danger.get((t, ak))
        if got is None:
            d = self.defence_for(ak)
            if d is None:
                return 0.0
            threats = self._threats.get(ak)
            if threats is None:
                # each threat's utility of its value is the same for every tile
                g = self.model.g_loss
                u = self.bot.u
                threats = self._threats[ak] = [(o, r, info, u(value * g)) for o, r, value, info in d.threats]
            total = 0.0
            weight = d.weight
            for o, r, info, loss in threats:
                w = weight(o, info, t)
                if w:
                    total += r * w * KAPPA * loss
            got = self._danger[(t, ak)] = total * self.bot.settings["danger_weight"]
        return got


class _PlanJudge:
    """One plan's estimates over the discards of one :meth:`LevelBot._hand_ev` call.

    ``acc(o, dist)``: the plan's acceptance after discard ``o`` (memoised); ``ev(dist, acc)``:
    :meth:`LevelBot._ev_plan` (memoised).  ``upper(o, dist, options)`` is an upper bound of
    the estimate :meth:`LevelBot._hand_ev` gives discard ``o`` by this plan, from the
    acceptance of the hand *before* any discard: the hand minus ``o`` plus ``k`` is within the
    hand plus ``k``, so it is never nearer the plan, and the estimate grows with
    acceptance.  A discard whose bound falls (by more than rounding) below what another
    plan already gives it is not judged: the result is the same as judging it.  The bound
    does not hold for a fixed plan's chow tile the residual hand holds no spare of
    (``bounded``: the residual counts; such a discard makes its kind a missing one), so
    those discards are always judged.
    """

    __slots__ = ("bot", "dec", "terms", "dd", "dmin", "_acc_of", "bounded", "draws", "_accs", "_evs",
                 "_before", "_breaking_ok")

    def __init__(self, bot, dec, terms, dd: dict, dmin: int, acc_of, bounded, draws: float):
        self.bot = bot
        self.dec = dec
        self.terms = terms
        self.dd = dd
        self.dmin = dmin
        self._acc_of = acc_of
        self.bounded = bounded
        self.draws = draws
        self._accs: dict = {}
        self._evs: dict = {}
        self._before: dict = {}
        self._breaking_ok: bool | None = None    # the bound holds for the plan-breaking discards

    def acc(self, o, dist: int) -> float:
        if o is None:
            return self._acc_before(dist)
        got = self._accs.get(o)
        if got is None:
            got = self._accs[o] = self._acc_of(o, dist)
        return got

    def ev(self, dist: int, acc: float) -> float:
        k = (dist, acc)
        got = self._evs.get(k)
        if got is None:
            got = self._evs[k] = self.bot._ev_plan(self.dec, self.terms, dist, acc, self.draws)
        return got

    def _acc_before(self, dist: int) -> float:
        """Acceptance of the hand before any discard, against distance ``dist``."""
        got = self._before.get(dist)
        if got is None:
            got = self._before[dist] = self._acc_of(None, dist)
        return got

    def _holds(self, o) -> bool:
        """Does the bound hold for discard ``o``?"""
        return o is None or self.bounded is None or self.bounded[o] > 0

    def upper(self, o, dist: int, options) -> float:
        """Upper bound of the estimate of discard ``o`` at ``dist`` (``dmin`` or ``dmin + 1``,
        the plan-breaking one), or infinity where no bound holds."""
        if dist > self.dmin:
            if self._breaking_ok is None:
                self._breaking_ok = all(self._holds(x) for x in options if self.dd.get(x, 99) == self.dmin)
            if not self._breaking_ok:
                return math.inf
            return self.ev(dist, BREAKING_SHARE * self._acc_before(self.dmin))
        if not self._holds(o):
            return math.inf
        return self.ev(dist, self._acc_before(dist))

    def top(self) -> float:
        """The plan's estimate for its best discards, at most (ordering only)."""
        if self.dmin <= 0 or self.dmin >= 20:
            return 0.0
        return self.ev(self.dmin, self._acc_before(self.dmin))


class _UsefulKinds:
    """The kinds of :meth:`LevelBot._useful_kinds` of one hand, each decided on first ask
    (``k in useful``; :meth:`LevelBot._useful_kind`) and remembered."""

    __slots__ = ("bot", "counts", "melds", "ht", "rows", "_known")

    def __init__(self, bot, counts, melds, ht, rows):
        self.bot = bot
        self.counts = counts
        self.melds = melds
        self.ht = ht
        self.rows = rows         # (plan, distance now, most distance a useful tile leaves, extra)
        self._known: dict[int, bool] = {}

    def __contains__(self, k: int) -> bool:
        got = self._known.get(k)
        if got is None:
            got = self._known[k] = self.bot._useful_kind(self, k)
        return got


class LevelBot(Bot):
    """A bot of one level (see the module docstring)."""

    def __init__(self, variant, seat: int, seed: int | str = 0, level: str = "normal"):
        super().__init__(variant, seat, seed)
        if level not in LEVELS:
            raise ValueError(f"unknown AI level {level!r}; levels: {', '.join(LEVELS)}")
        self.level = level
        self.name = f"ai:{level}"
        self.settings = dict(LEVELS[level])
        # the variant file's [ai] section, where it sets them (variants/README.md "[ai]")
        ai = variant.rules.get("ai", {})
        for key in AI_KEYS:
            if ai.get(f"{level}_{key}") is not None:
                self.settings[key] = float(ai[f"{level}_{key}"])
        for key in AI_FLAGS:
            if ai.get(f"{level}_{key}") is not None:
                self.settings[key] = bool(ai[f"{level}_{key}"])
        self.shape = variant.hand_shape
        self.ops = ops_for(self.shape)
        #: the zero tile's readings (G-UZ-11) when the shape has a zero, else None: a hand that
        #: holds zeros is judged with them read as numbers too (:meth:`_tables`)
        self.zops = zero_ops_for(self.shape)
        self.model = model_for(variant)
        self.plans: list[Plan] = plans_for(variant, self.ops)
        self.full_mask = tuple(True for _ in range(self.ops.n))
        self.kinds = tuple(k for k in variant.kinds if k in self.ops.unit_of)
        self._kind_set = frozenset(self.kinds)
        self.forms = set(variant.win["forms"])
        self.allow_quads = bool(variant.win.get("seven_pairs_allow_quads", False))
        lo, hi = variant.tiles_rules["ranks"]
        self.lo, self.hi = lo, hi
        self.orphan_kinds = tuple(sorted({s * T.SUIT_SIZE + r for s in variant.suit_indices for r in (max(lo, 1), hi)}
                                         | {k for k in variant.kinds if T.is_honour(k)}))
        self.pung_claims = bool(variant.claims.get("pung", False))
        self.chow_claims = variant.claims.get("chow", "none") != "none"
        # bmja.md "Winning hands": a winning hand holds at most scoring.max_chows chows
        self.max_chows = int(variant.scoring.get("max_chows", 4))
        self.alpha = self.settings["alpha"]
        self._pv_cache: dict = {}
        self._terms_cache: dict = {}
        self._fx_spec: dict = {}
        self._fx_unit: dict = {}
        self._useful_cache: dict = {}
        self._tree_cache: dict = {}
        self._ready_cache: dict = {}
        self._fixed_need: dict[str, tuple[tuple[int, int], ...]] = {}
        for p in self.plans:
            need: dict[int, int] = {}
            for g in p.fixed:
                for t in g:
                    need[t] = need.get(t, 0) + 1
            self._fixed_need[p.name] = tuple(sorted(need.items()))
        self._honour_mask = sum(1 << k for k in variant.kinds if T.is_honour(k))
        self._suited_mask = sum(1 << k for k in variant.kinds if T.is_suited(k))

    def u(self, x: float) -> float:
        return x ** self.alpha if x > 0 else 0.0

    def _tables(self, counts, declared: int) -> HandTables | ZeroHandTables:
        """The unit tables the bot judges the concealed hand ``counts`` by.  Where the shape
        has a zero tile (``zero_readings``; G-UZ-11) and the hand holds zeros, each zero may be
        read as the honour or as rank 0 of a suit: :class:`ZeroHandTables` places the zeros at
        their best readings, per plan (rank 0 of a suit counts for a one-suit plan of it), per
        discard and per draw, and maps the readings back to the physical tile — so the bot
        keeps a zero that completes 0-1-2 of a suit, sees a hand ready through a zero reading,
        discards and claims the physical ``Z`` and counts the unseen zeros once.  Every other
        hand is read exactly as before (the physical shape's tables)."""
        zops = self.zops
        if zops is not None and counts[zops.zero]:
            return ZeroHandTables(zops, counts, declared)
        return HandTables(self.ops, counts, declared)

    # ==========================================================================================
    # entry point
    # ==========================================================================================
    def choose(self, view: dict, legal: list[Action]) -> Action:
        for a in legal:
            if a.kind == "win":
                return a
        if not legal:
            raise ValueError("choose() needs at least one legal action")
        if self.max_chows < 4 and any(a.kind == "chow" for a in legal):
            # no chow claim past the variant's chow limit (BMJA: one chow)
            mine = view["players"][view["seat"]]["melds"]
            if sum(1 for m in mine if m["kind"] == "chow") >= self.max_chows:
                legal = [a for a in legal if a.kind != "chow"]
        kinds = {a.kind for a in legal}
        if "discard" in kinds:
            act = self._turn(view, legal)
            # Original Call (dmjl.md "Play"): announced with the discard whenever the engine
            # offers it (the discard leaves the hand ready)
            if act.kind == "discard":
                call = Action.of(act.seat, "original_call", act.tile)
                if call in legal:
                    return call
            return act
        if kinds <= {"draw", "pass"}:
            return next(a for a in legal if a.kind in ("draw", "pass"))
        return self._claim(view, legal)

    def _rng(self, kn: Knowledge) -> random.Random:
        return random.Random(f"{self.seed}:{self.seat}:{kn.hand_number}:{kn.seq}")

    # ==========================================================================================
    # plans and distances
    # ==========================================================================================
    def _plan_values(self, dec: _Decision, melds: tuple[Meld, ...]) -> list[tuple[Plan, float, float]]:
        """Feasible plans with their (self-draw, discard) values.  When the variant refuses
        the free plan it is kept at a small floor value: a lucky pattern may still make the
        hand legal, and the exact scoring of ready hands will tell."""
        return self._plan_values_for(melds, dec.kn.seat_wind, dec.kn.prevailing, dec.kn.bonus)

    def _plan_values_for(self, melds: tuple[Meld, ...], seat_wind: int, prevailing: int,
                         bonus: tuple[int, ...]):
        """:meth:`_plan_values` from the melds, winds and bonus tiles alone (a seat's bonus
        tiles count in its hand's value: Singapore's animals and seat flowers can make a plain
        hand legal, singapore.md "Winning hands")."""
        key = (melds, seat_wind, prevailing, bonus)
        got = self._pv_cache.get(key)
        if got is not None:
            return got
        out = []
        cheapest = 0.0
        for p in self.plans:
            if not p.feasible(melds):
                continue
            vs, vd = self.model.probe(p, melds, seat_wind, prevailing, bonus)
            if vs > 0 or vd > 0:
                v = max(vs, vd)
                cheapest = v if cheapest == 0.0 else min(cheapest, v)
                out.append((p, vs, vd))
        if not any(p.name == "free" for p, _, _ in out):
            floor = FLOOR * (cheapest or 1.0)
            out.insert(0, (self.plans[0], floor, floor))
        if len(self._pv_cache) > 4096:
            self._pv_cache.clear()
        self._pv_cache[key] = out
        return out

    def _dist(self, p: Plan, counts, declared: int, ht: HandTables | None, melds=()) -> int:
        """Distance of the hand (3n+1 or 3n+2 concealed tiles) to plan ``p``."""
        if p.kind == "mask":
            return ht.distance(p.mask)
        if p.kind == "triplets":
            return triplets_from_hist(histogram(counts, p.kinds), 4 - declared)
        if p.kind == "pairs":
            return pairs_from_hist(histogram(counts, self.kinds), self.allow_quads) if declared == 0 else 99
        if p.kind == "orphans":
            return orphans_distance(counts, self.orphan_kinds) if declared == 0 else 99
        return self._fixed_dist(p, counts, declared, melds, ht)

    def _gate_distances(self, pv, counts, declared: int, ht: HandTables, melds, ignore: str | None):
        """``[(plan, vs, vd, distance, None)]`` for the plans ``pv`` (the last place is for
        a fixed plan's :meth:`_fixed_state`, built when the plan is judged).  A fixed plan whose
        missing chow tiles alone put it more than two steps beyond the nearest plan measured
        so far (not counting plan ``ignore``) gets distance 99 without building its residual
        hand: its distance is at least the missing tiles minus one, so the gate of
        :meth:`_hand_ev` would drop it anyway.  Fixed plans are measured in order of those
        lower bounds, each measured one tightening the bound for the next."""
        out = []
        bound = 99
        fixed = []
        for p, vs, vd in pv:
            if p.kind != "fixed":
                d = self._dist(p, counts, declared, ht, melds)
                if p.name != ignore and d < bound:
                    bound = d
                out.append((p, vs, vd, d, None))
            else:
                lb = -1
                if not melds:
                    for t, n in self._fixed_need[p.name]:
                        if counts[t] < n:
                            lb += n - counts[t]
                fixed.append((lb, len(out)))
                out.append(None)
        fixed.sort()
        for lb, i in fixed:
            p, vs, vd = pv[i]
            if lb > bound + 2:
                out[i] = (p, vs, vd, 99, None)
                continue
            d = self._fixed_dist(p, counts, declared, melds, ht)
            if p.name != ignore and d < bound:
                bound = d
            out[i] = (p, vs, vd, d, None)
        return out

    def _fixed_dist(self, p: Plan, counts, declared: int, melds=(), ht: HandTables | None = None) -> int:
        """Distance to the plan's fixed chows (those not yet declared) plus anything: tiles of
        the chows still missing, plus the distance of the other tiles to the other melds
        (the residual hand of :meth:`_fixed_state`, merged here without building it).
        ``ht``: the tables of ``counts``, if the caller has them."""
        spec = self._fixed_spec(p, melds, declared)
        if spec is None:
            return 99
        res_declared, parts = spec
        if ht is None or isinstance(ht, ZeroHandTables):
            # fixed chows read the physical hand (a zero only an honour; see :meth:`_tables`)
            ht = HandTables(self.ops, counts, declared)
        keys = ht.keys
        tids = list(ht.tids)
        missing = 0
        for u, positions in parts:
            got = self._fixed_unit(u, positions, keys[u])
            tids[u] = got[1]
            missing += len(got[3])
        return missing + self.ops.distance_of(self.ops.merge_all(tids), 4 - res_declared)

    def _fixed_state(self, p: Plan, counts, declared: int, melds=(), ht: HandTables | None = None):
        """``(missing {kind: copies}, residual counts, residual HandTables)`` or None when
        the declared melds leave too few melds for the fixed chows.  Held tiles fill the
        fixed chows first (never worse than using them elsewhere).  ``ht``: the tables of
        ``counts``, if the caller has them.  The result is not to be changed by callers."""
        spec = self._fixed_spec(p, melds, declared)
        if spec is None:
            return None
        res_declared, parts = spec
        if ht is None or isinstance(ht, ZeroHandTables):
            # fixed chows read the physical hand (a zero only an honour; see :meth:`_tables`)
            ht = HandTables(self.ops, counts, declared)
        keys = ht.keys
        c = list(counts)
        missing: dict[int, int] = {}
        units = {}
        for u, positions in parts:
            key, tid, taken, miss = self._fixed_unit(u, positions, keys[u])
            units[u] = (key, tid)
            for t in taken:
                c[t] -= 1
            for t in miss:
                missing[t] = missing.get(t, 0) + 1
        return missing, c, ht.replaced(units, res_declared)

    def _fixed_spec(self, p: Plan, melds, declared: int):
        """What a fixed plan asks of the concealed hand around ``melds``: ``(melds the
        residual hand counts as declared, ((unit, positions of the chow tiles still to
        hold, with repeats), …))``, or None when the declared melds leave too few melds for
        the fixed chows.  Memoised per plan and melds."""
        key = (p.name, melds)
        if key in self._fx_spec:
            return self._fx_spec[key]
        groups = list(p.fixed)
        for m in melds:
            tt = tuple(sorted(m.tiles[:3]))
            if tt in groups:
                groups.remove(tt)
        rest_need = 4 - declared - len(groups)
        got = None
        if rest_need >= 0:
            by_unit: dict[int, list[int]] = {}
            for g in groups:
                for t in g:
                    u, j = self.ops.unit_of[t]
                    by_unit.setdefault(u, []).append(j)
            got = (4 - rest_need, tuple((u, tuple(js)) for u, js in sorted(by_unit.items())))
        if len(self._fx_spec) > 4096:
            self._fx_spec.clear()
        self._fx_spec[key] = got
        return got

    def _fixed_unit(self, u: int, positions: tuple[int, ...], key: tuple[int, ...]):
        """Unit ``u`` holding ``key`` with the chow tiles at ``positions`` taken out where
        held: ``(residual key, its table id, kinds taken, kinds missing)``; memoised per bot."""
        mk = (u, positions, key)
        got = self._fx_unit.get(mk)
        if got is not None:
            return got
        codes = self.ops.codes[u]
        left = list(key)
        taken = []
        miss = []
        for j in positions:
            if left[j]:
                left[j] -= 1
                taken.append(codes[j])
            else:
                miss.append(codes[j])
        left = tuple(left)
        if len(self._fx_unit) > 100_000:
            self._fx_unit.clear()
        got = self._fx_unit[mk] = (left, self.ops.tid(u, left), tuple(taken), tuple(miss))
        return got

    def _fixed_discard_dists(self, st, counts) -> dict[int, int]:
        """``{tile: distance after discarding it}`` over the held kinds of ``counts``, for a
        fixed plan whose :meth:`_fixed_state` for ``counts`` is ``st``."""
        out = {}
        if st is None:
            return {d: 99 for d in self.kinds if counts[d]}
        missing, residual, ht_res = st
        nm = sum(missing.values())
        res_dd = ht_res.discard_distances(self.full_mask)
        res_now = ht_res.distance(self.full_mask)
        for d in self.kinds:
            if counts[d]:
                out[d] = nm + (res_dd[d] if residual[d] else 1 + res_now)
        return out

    def _fixed_weights(self, st, unseen, use_unseen: bool) -> list:
        """Per-kind weights of the residual hand's acceptance for a fixed plan of state ``st``
        (:meth:`_fixed_state`): unseen copies (or 1 per unseen kind), 0 for the chow tiles
        still missing (they are counted apart)."""
        weights = list(unseen) if use_unseen else [1 if x else 0 for x in unseen]
        if st is not None:
            for k in st[0]:
                weights[k] = 0
        return weights

    def _fixed_acceptance(self, st, discard, dist: int, unseen, use_unseen: bool, weights=None) -> float:
        """Acceptance of a fixed plan after ``discard``, from the plan's :meth:`_fixed_state`
        ``st`` of the hand before it: a discarded tile the fixed chows do not use leaves the
        residual hand, else one more chow tile is missing (the greedy fill of
        :meth:`_fixed_state`).  ``weights``: :meth:`_fixed_weights` if the caller has them."""
        if st is None:
            return 0.0
        missing, residual, ht_res = st
        if weights is None:
            weights = self._fixed_weights(st, unseen, use_unseen)
        res_discard = None
        if discard is not None:
            if residual[discard]:
                res_discard = discard
            else:
                missing = dict(missing)
                missing[discard] = missing.get(discard, 0) + 1
                weights = list(weights)
                weights[discard] = 0
        total = 0.0
        for k in missing:
            if unseen[k]:
                total += unseen[k] if use_unseen else 1
        res_dist = dist - sum(missing.values())
        return total + ht_res.acceptance(self.full_mask, res_discard, res_dist, weights)

    def _formula(self, p: Plan, h, declared: int) -> int:
        if p.kind == "triplets":
            return triplets_from_hist(h, 4 - declared)
        return pairs_from_hist(h, self.allow_quads) if declared == 0 else 99

    def _discard_dists(self, p: Plan, counts, declared: int, ht: HandTables, melds) -> dict[int, int]:
        """``{tile: distance after discarding it}`` over the held kinds."""
        if p.kind == "mask":
            return ht.discard_distances(p.mask)
        if p.kind == "fixed":
            return self._fixed_discard_dists(self._fixed_state(p, counts, declared, melds, ht), counts)
        out = {}
        if p.kind in ("triplets", "pairs"):
            kinds = p.kinds if p.kind == "triplets" else self.kinds
            h = histogram(counts, kinds)
            by_class = {}
            for c in range(1, 5):
                if h[c]:
                    h[c] -= 1
                    h[c - 1] += 1
                    by_class[c] = self._formula(p, h, declared)
                    h[c] += 1
                    h[c - 1] -= 1
            same = self._formula(p, h, declared)
            for d in self.kinds:
                c = counts[d]
                if c:
                    out[d] = by_class[c] if d in kinds else same
            return out
        for d in self.kinds:
            if counts[d]:
                counts[d] -= 1
                out[d] = self._dist(p, counts, declared, None, melds)
                counts[d] += 1
        return out

    def _acceptance(self, p: Plan, counts, declared: int, ht: HandTables, discard: int | None,
                    dist: int, unseen, melds) -> float:
        """Unseen copies (easy: kinds) of tiles that lower the plan distance after ``discard``
        (``ht`` is the table of ``counts``, before the discard)."""
        use_unseen = self.settings["unseen"]
        total = 0.0
        if p.kind == "mask":
            weights = unseen if use_unseen else [1 if x else 0 for x in unseen]
            return ht.acceptance(p.mask, discard, dist, weights)
        if p.kind == "fixed":
            return self._fixed_acceptance(self._fixed_state(p, counts, declared, melds, ht), discard, dist, unseen,
                                          use_unseen)
        if discard is not None:
            counts[discard] -= 1
        try:
            if p.kind in ("triplets", "pairs"):
                kinds = p.kinds if p.kind == "triplets" else self.kinds
                h = histogram(counts, kinds)
                better = [False] * 5
                for c in range(4):
                    if h[c]:
                        h[c] -= 1
                        h[c + 1] += 1
                        better[c] = self._formula(p, h, declared) < dist
                        h[c] += 1
                        h[c + 1] -= 1
                for k in kinds:
                    if unseen[k] and better[counts[k]]:
                        total += unseen[k] if use_unseen else 1
                return total
            if p.kind == "orphans" and declared == 0:
                for k in self.orphan_kinds:
                    if unseen[k] and counts[k] < 4:
                        counts[k] += 1
                        if orphans_distance(counts, self.orphan_kinds) < dist:
                            total += unseen[k] if use_unseen else 1
                        counts[k] -= 1
        finally:
            if discard is not None:
                counts[discard] += 1
        return total

    # ==========================================================================================
    # expected gains
    # ==========================================================================================
    def _ev_terms(self, dec: _Decision, p: Plan, vs: float, vd: float, melds: tuple[Meld, ...]):
        """What :meth:`_ev_plan` needs of a plan besides distance and acceptance:
        ``(value, pairs-like, middle-step boost, typical waits, ws + wd)``, or None when
        the plan wins nothing.  Memoised per bot (it depends on the plan, its values, the
        declared melds, the winds and the bonus tiles only)."""
        kn = dec.kn
        key = (p.name, vs, vd, melds, kn.seat_wind, kn.prevailing, kn.bonus)
        got = self._terms_cache.get(key, False)
        if got is False:
            if len(self._terms_cache) > 4096:
                self._terms_cache.clear()
            got = self._terms_cache[key] = self._ev_terms_of(p, vs, vd, melds, kn.seat_wind, kn.prevailing,
                                                             kn.bonus)
        return got

    def _claim_boost(self, p: Plan, melds, seat_wind: int, prevailing: int, bonus: tuple[int, ...]) -> float:
        """How much claims speed up the middle steps of plan ``p``: the level's claim boost
        where pungs may be claimed, the plan can use a claimed meld (fixed chows only where
        chows may be claimed) and a claimed meld leaves it winnable
        (:meth:`ValueModel.claim_ok`: not a plain hand that is legal only concealed), else 1."""
        if not self.pung_claims or (p.kind == "fixed" and not self.chow_claims):
            return 1.0
        if not self.model.claim_ok(p, melds, seat_wind, prevailing, bonus):
            return 1.0
        return self.settings["claim_boost"]

    def _ev_terms_of(self, p: Plan, vs: float, vd: float, melds, seat_wind: int, prevailing: int,
                     bonus: tuple[int, ...]):
        """:meth:`_ev_terms` from the melds, winds and bonus tiles."""
        ws = 1.0 if vs > 0 else 0.0
        wd = DISCARD_RATE if vd > 0 else 0.0
        if ws + wd == 0:
            return None
        m = self.model
        value = (ws * self.u(vs * m.g_self) + wd * self.u(vd * m.g_disc)) / (ws + wd)
        if p.kind in ("pairs", "orphans"):
            return value, True, 1.0, 0.0, ws + wd
        boost = self._claim_boost(p, melds, seat_wind, prevailing, bonus)
        typical = TYPICAL_WAITS if self.model.chow_wait_ok(p, seat_wind, prevailing) else PAIR_WAITS
        return value, False, boost, typical, ws + wd

    def _ev_plan(self, dec: _Decision, terms, dist: int, acc: float, draws: float) -> float:
        """``P(win) · u(value)`` of a plan at ``dist`` with acceptance ``acc`` (unseen copies),
        ``terms`` from :meth:`_ev_terms`."""
        if dist >= 20 or acc <= 0 or terms is None:
            return 0.0
        value, special, boost, typical, wsum = terms
        U = dec.U
        if special:
            # claims cannot help; a ready hand waits on the last copies of one kind
            rate_mid = acc / U
            rate_last = min(acc, 2.5) / U * wsum
        else:
            rate_mid = acc / U * boost
            rate_last = min(acc, typical) / U * wsum
        return erlang_win(dist, rate_mid, rate_last, draws) * value

    def _waits(self, counts13, declared: int) -> list[int]:
        """Every tile kind completing the 13-tile hand in an allowed form."""
        out = set()
        if "standard" in self.forms:
            out.update(self.shape.standard_waits(counts13, declared))
        if declared == 0:
            if "seven_pairs" in self.forms and pairs_from_hist(histogram(counts13, self.kinds), self.allow_quads) == 0:
                for k in self.kinds:
                    if counts13[k] and counts13[k] < 4:
                        counts13[k] += 1
                        if pairs_from_hist(histogram(counts13, self.kinds), self.allow_quads) < 0:
                            out.add(k)
                        counts13[k] -= 1
            if "thirteen_orphans" in self.forms and orphans_distance(counts13, self.orphan_kinds) == 0:
                for k in self.orphan_kinds:
                    if counts13[k] < 4:
                        counts13[k] += 1
                        if orphans_distance(counts13, self.orphan_kinds) < 0:
                            out.add(k)
                        counts13[k] -= 1
        return sorted(out)

    def _ev_ready(self, dec: _Decision, counts13, melds: tuple[Meld, ...], waits, draws: float) -> float:
        """Expected gain of a ready hand, every wait scored exactly by the variant's scorer —
        up to the decision's ``scorer_budget`` (the level's setting, a variant file's ``[ai]``
        ``strong_scorer_budget``: Uzje's scorer takes about a millisecond a hand): past it the
        waits are valued from the plans (:meth:`_estimate`).  The budget counts every
        question, answered from the memo or not, so a decision does not depend on what the
        process has seen before."""
        unseen = dec.unseen
        kn = dec.kn
        m = self.model
        concealed = tuple(T.tiles_of(counts13))
        weighed = []
        fit = None
        for w in waits:
            if not unseen[w]:
                continue
            if dec.scorer_left > 0:
                dec.scorer_left -= 1
                vs, vd = m.exact(concealed, melds, w, kn.seat_wind, kn.prevailing, kn.bonus,
                                 dec.situations, dec.fed_third, indicators=kn.indicators)
            else:
                # the decision's scorer budget is spent: the wait is valued from the plans
                if fit is None:
                    fit = self._fit_info(melds, kn.seat_wind, kn.prevailing, kn.bonus)
                    hmask = sum(1 << t for t in self.kinds if counts13[t])
                vs, vd = self._estimate(fit, counts13, hmask, w, len(melds))
            got = self._wait_weights(vs, vd)
            if got is not None:
                weighed.append((w, got[0], got[1]))
        if kn.bloom and self.settings["kong_reads"]:
            weighed.extend(self._bloom_route(dec, counts13, melds))
        return _ready_gain(weighed, unseen, dec.U, draws)[0]

    def _wait_weights(self, vs: float, vd: float) -> tuple[float, float] | None:
        """A wait worth ``vs`` by self-draw and ``vd`` on a discard (0: not a legal win that
        way), per unseen copy: ``(rate weight, utility weight)`` — its share of the winning
        rate (1 for self-draw plus :data:`DISCARD_RATE` where a discard may be won) and that
        times the utility of its value; None when it wins nothing."""
        ws = 1.0 if vs > 0 else 0.0
        wd = DISCARD_RATE if vd > 0 else 0.0
        if ws + wd == 0:
            return None
        m = self.model
        return ws + wd, ws * self.u(vs * m.g_self) + wd * self.u(vd * m.g_disc)

    def _bloom_route(self, dec: _Decision, counts13, melds: tuple[Meld, ...]) -> list[tuple[int, float, float]]:
        """The ready hand's extra winning routes through a face-up bloom tile (yuxi.md G-YX-3:
        after a kong the kong player may win on a bloom tile, kong on flower): a set that can
        still become a kong — a concealed triplet whose fourth copy is unseen (drawn, or
        claimed from any seat's discard at ``DISCARD_RATE``) or an exposed pung whose fourth
        copy is unseen (added kong: drawn only) — wins at once when it does if a bloom tile
        completes the hand the kong leaves (:meth:`_bloom_win`).  Returns entries
        ``(kind, rate weight, utility weight)`` per unseen copy of the kong's fourth tile,
        in the units of :meth:`_wait_weights` (they join the waits in :func:`_ready_gain`)."""
        unseen = dec.unseen
        out = []
        for k in self.kinds:
            if counts13[k] != 3 or not unseen[k]:
                continue
            # judged as a claimed kong (the fourth copy drawn makes a concealed one: Yuxi
            # scores them alike)
            c = counts13[:]
            c[k] -= 3
            nm = melds + (Meld(KONG, (k,) * 4, declared=True, concealed=False, kong_type="exposed"),)
            u = self._bloom_win(dec, c, nm)
            if u > 0:
                out.append((k, 1.0 + DISCARD_RATE, (1.0 + DISCARD_RATE) * u))
        for i, mm in enumerate(melds):
            k = mm.tiles[0]
            if mm.kind != PUNG or not unseen[k]:
                continue
            nm = melds[:i] + (Meld(KONG, (k,) * 4, declared=True, concealed=False, kong_type="added",
                                   from_seat=mm.from_seat),) + melds[i + 1:]
            u = self._bloom_win(dec, counts13, nm)
            if u > 0:
                out.append((k, 1.0, u))
        return out

    def _fit_info(self, melds: tuple[Meld, ...], seat_wind: int, prevailing: int, bonus: tuple[int, ...]):
        """What :meth:`_estimate` needs about the plans the melds leave open: per valued plan
        ``(plan, self-draw value, discard value, chow wait ok, kinds bit mask)``, the free
        plan first with its unfloored values; and the bit masks of the melds' kinds."""
        key = ("fit", melds, seat_wind, prevailing, bonus)
        got = self._pv_cache.get(key)
        if got is None:
            m = self.model
            fs, fd = m.probe(self.plans[0], melds, seat_wind, prevailing, bonus)
            rows = [(self.plans[0], fs, fd, m.chow_wait_ok(self.plans[0], seat_wind, prevailing), -1)]
            for p, vs, vd in self._plan_values_for(melds, seat_wind, prevailing, bonus):
                if p.name == "free":
                    continue
                kmask = 0
                for k in p.kinds:
                    kmask |= 1 << k
                rows.append((p, vs, vd, m.chow_wait_ok(p, seat_wind, prevailing), kmask))
            meld_mask = 0
            for mm in melds:
                for t in mm.tiles:
                    meld_mask |= 1 << t
            got = self._pv_cache[key] = (rows, meld_mask)
        return got

    def _estimate(self, fit, counts13, hmask: int, w: int, declared: int) -> tuple[float, float]:
        """``(self-draw, discard)`` value of winning ready hand ``counts13`` on ``w``, from the
        plans alone: the best plan the finished hand fits (all its kinds allowed, the shape
        the plan needs), else the plain hand's value — which is 0 where the variant refuses a
        plain hand.  A plan that cannot be won on a chow-completing tile is not won on a
        discard of a kind the hand does not hold (that tile would complete a chow).  Used by
        strong's look-ahead, where the scorer would be called thousands of times a hand; it
        ignores the small patterns that depend on the exact hand and the situation."""
        rows, meld_mask = fit
        full = hmask | (1 << w) | meld_mask
        held_w = counts13[w] > 0
        best_s = best_d = 0.0
        counts13[w] += 1
        try:
            for p, vs, vd, chow_ok, kmask in rows:
                if kmask != -1:
                    if full & ~kmask:
                        continue
                    if vs <= best_s and vd <= best_d:
                        continue
                    if not self._fits(p, counts13, full, declared):
                        continue
                if vs > best_s:
                    best_s = vs
                if vd > best_d and (chow_ok or held_w):
                    best_d = vd
        finally:
            counts13[w] -= 1
        return best_s, best_d

    def _fits(self, p: Plan, counts, full: int, declared: int) -> bool:
        """Does the finished hand ``counts`` (concealed, 3n+2) with kinds ``full`` (a bit mask,
        melds included) have the shape plan ``p`` needs?  Kinds are checked by the caller."""
        if p.needs_honour and not full & self._honour_mask:
            return False
        if p.needs_suit and not full & self._suited_mask:
            return False
        kind = p.kind
        if kind == "mask":
            return True
        if kind == "triplets":
            pairs = 0
            for k in self.kinds:
                c = counts[k]
                if c == 2:
                    pairs += 1
                elif c and c != 3:
                    return False
            return pairs == 1
        if kind == "pairs":
            return declared == 0 and pairs_from_hist(histogram(counts, self.kinds), self.allow_quads) < 0
        if kind == "orphans":
            return declared == 0 and orphans_distance(counts, self.orphan_kinds) < 0
        if kind == "fixed":
            for t, n in self._fixed_need[p.name]:
                if counts[t] < n:
                    return False
            return True
        return False

    def _gate(self, dec: _Decision, counts, melds: tuple[Meld, ...], ht: HandTables) -> tuple[str | None, list]:
        """``(floor plan, rows)``: the plans worth judging for the hand ``counts`` (tables
        ``ht``) — those within 2 of the nearest plan the variant really lets the hand win, by
        the distance of the hand as it is; the floor plan (:meth:`_floor_plan`) is kept.
        Rows as :meth:`_gate_distances` gives them."""
        floor = self._floor_plan(melds, dec.kn.seat_wind, dec.kn.prevailing, dec.kn.bonus)
        now = self._gate_distances(self._plan_values(dec, melds), counts, len(melds), ht, melds, floor)
        real = [row[3] for row in now if row[0].name != floor]
        best = min(real) if real else min(row[3] for row in now)
        return floor, [row for row in now if not (row[3] >= 20 or (row[3] > best + 2 and row[0].name != floor))]

    def _hand_ev(self, dec: _Decision, counts, melds: tuple[Meld, ...], draws: float,
                 discards=None, look_ahead: bool = True) -> dict:
        """Expected gain of the hand after each discard in ``discards`` (a 3n+2 hand), or of
        the hand itself (``discards=None``, a 3n+1 hand).  Returns ``{discard: ev}`` (key
        ``None`` for the hand itself).  ``look_ahead=False`` skips strong's look-ahead (claim
        decisions compare both sides by the plan model alone, which is much cheaper)."""
        declared = len(melds)
        ht = self._tables(counts, declared)
        unseen = dec.unseen
        options = [None] if discards is None else list(discards)
        floor, gated = self._gate(dec, counts, melds, ht)
        active = self._nearest_plans(gated, counts, declared, ht, melds, discards)
        free_dd = next((row[3] for row in active if row[0].name == "free"), None)
        specials = [row[3] for row in active if row[0].kind in ("pairs", "orphans")]
        evs: dict = {}
        near: dict = {}   # best plan estimate at distance 1, per option (strong re-scores it)
        far: dict = {}    # best plan estimate at distance 2 or more, per option
        # a ready hand is judged exactly, wait by wait
        for o in options:
            ev = 0.0
            if (free_dd is not None and free_dd.get(o, 99) == 0) or any(dd.get(o, 99) == 0 for dd in specials):
                if o is not None:
                    counts[o] -= 1
                ev = self._ev_ready(dec, counts, melds, self._waits(counts, declared), draws)
                if o is not None:
                    counts[o] += 1
            evs[o] = ev
        use_unseen = self.settings["unseen"]
        weights = unseen if use_unseen else [1 if x else 0 for x in unseen]
        # the look-ahead reads the best estimates at distance 1 and farther apart
        ahead = self.settings["look_ahead"] and look_ahead and floor is None and self._waits_restricted(dec, melds)
        judged = []
        for p, vs, vd, dd, dmin, st in active:
            terms = self._ev_terms(dec, p, vs, vd, melds)
            if terms is None:
                continue     # the plan wins nothing
            if p.kind == "mask":
                def acc_of(o, dist, mask=p.mask):
                    return ht.acceptance(mask, o, dist, weights)
                bounded = None
            elif p.kind == "fixed":
                def acc_of(o, dist, st=st, base=self._fixed_weights(st, unseen, use_unseen)):
                    return self._fixed_acceptance(st, o, dist, unseen, use_unseen, base)
                # a discarded chow tile the hand holds no spare of adds a missing kind
                bounded = st[1]
            else:
                def acc_of(o, dist, p=p):
                    return self._acceptance(p, counts, declared, ht, o, dist, unseen, melds)
                bounded = None
            judged.append(_PlanJudge(self, dec, terms, dd, dmin, acc_of, bounded, draws))
        # the most promising plans first: their estimates let the others skip the discards
        # they cannot win (see _PlanJudge)
        judged.sort(key=lambda j: -j.top())
        idle = None     # no defence: plan-breaking discards do not matter (built on first need)
        for j in judged:
            dd = j.dd
            dmin = j.dmin
            reach = dmin + 1
            best_acc = None
            for o in options:
                dist = dd.get(o, 99)
                if dist <= 0 or dist > reach or dist >= 20:
                    continue
                if dist > dmin and discards is not None:
                    if idle is None:
                        idle = dec.defence is None
                    if idle:
                        continue   # a plan-breaking discard only matters when defending
                if ahead:
                    bar = (near if dist == 1 else far).get(o, 0.0)
                else:
                    bar = evs[o]
                if bar > 0 and j.upper(o, dist, options) < bar * (1.0 - 1e-9):
                    continue   # cannot beat what another plan already gives this discard
                if dist > dmin:
                    # a plan-breaking discard: never worth more than keeping the plan's best
                    # shape (a wider but farther hand is not a faster one), so judge it at one
                    # step more with a little less than the best discards' acceptance
                    if best_acc is None:
                        best_acc = max((j.acc(x, dmin) for x in options if dd.get(x, 99) == dmin), default=0.0)
                    acc = BREAKING_SHARE * best_acc
                else:
                    acc = j.acc(o, dist)
                ev = j.ev(dist, acc)
                if ev > 0:
                    if ev > evs[o]:
                        evs[o] = ev
                    if dist >= 2 and ev > far.get(o, 0.0):
                        far[o] = ev
                    elif dist == 1 and ev > near.get(o, 0.0):
                        near[o] = ev
        if ahead:
            # the look-ahead follows plain hands to their waits; where the variant refuses a
            # plain hand (a minimum value) the plans alone steer (measured: the look-ahead
            # there only blurs the plan estimates), and so they do where any wait of a plain
            # hand may be won on a discard (see _waits_restricted)
            self._two_step(dec, counts, melds, draws, options, free_dd, evs, near, far, ht)
        return evs

    def _waits_restricted(self, dec: _Decision, melds: tuple[Meld, ...]) -> bool:
        """Are a plain hand's waits restricted in a way the plan model's typical waits do not
        see — it may not be won on a discard (Yuxi's basic win, yuxi.md "Winning hands"; Singapore's fully concealed
        tai for a seat with no other), or not on a tile that completes a chow (Classic, classic.md "Winning hands")?
        Only there does strong's look-ahead, which follows plain hands to their exact waits,
        pay: measured (one strong against three easy), off where no such restriction holds,
        Uzje 25.5 -> 30.3 % wins, Singapore 22.5 -> 25.3 % (tests/bench/ai_results.md)."""
        kn = dec.kn
        free = self.plans[0]
        _, vd = self.model.probe(free, melds, kn.seat_wind, kn.prevailing, kn.bonus)
        return vd <= 0 or not self.model.chow_wait_ok(free, kn.seat_wind, kn.prevailing)

    def _nearest_plans(self, rows, counts, declared: int, ht: HandTables, melds, discards) -> list:
        """The plans :meth:`_hand_ev` judges after each of ``discards`` (None: of the hand as
        it is), from the gated ``rows`` (``(plan, vs, vd, distance, fixed state)``):
        ``[(plan, vs, vd, {discard: distance}, best distance over discards, fixed state)]``
        (the key ``None`` and the distance now when ``discards`` is None).  At most
        :data:`MAX_PLANS`: then the nearest after the best discard (the free plan always kept;
        ties: the more valuable, then by name).  A discard never brings a plan closer, so a plan's distance now is a
        lower bound of its best: the discard distances of plans farther now than the last
        of the kept ones are never computed (the result is the same as measuring them all)."""
        def measured(row):
            p, vs, vd, d0, st = row
            if p.kind == "fixed" and st is None:
                st = self._fixed_state(p, counts, declared, melds, ht)
            if discards is None:
                return p, vs, vd, {None: d0}, d0, st
            if p.kind == "fixed":
                dd = self._fixed_discard_dists(st, counts)
            else:
                dd = self._discard_dists(p, counts, declared, ht, melds)
            return p, vs, vd, dd, min(dd.get(o, 99) for o in discards), st

        def rank(x):
            return x[0].name != "free", x[4], -max(x[1], x[2]), x[0].name

        if len(rows) <= MAX_PLANS:
            return [measured(row) for row in rows]
        out = []
        for row in sorted(rows, key=lambda r: (r[0].name != "free", r[3])):
            if len(out) >= MAX_PLANS:
                last = sorted(out, key=rank)[MAX_PLANS - 1]
                # this plan and every one after it are at least row[3] away after any discard
                if last[4] < row[3]:
                    break
                # its rank is at best that of its distance now: if that already ranks after
                # the last kept plan it can never be kept
                if (row[0].name != "free", row[3], -max(row[1], row[2]), row[0].name) > rank(last):
                    continue
            out.append(measured(row))
        out.sort(key=rank)
        return out[:MAX_PLANS]

    def _two_step(self, dec: _Decision, counts, melds, draws: float, options, free_dd, evs: dict,
                  near: dict, far: dict, ht: HandTables | None = None) -> None:
        """Strong: replace the estimate of the most promising one-from-ready options by the
        look-ahead: for each draw that makes the hand ready, the best resulting wait set,
        valued by :meth:`_look_ahead_tree` (memoised per hand).  ``ht``: the tables of
        ``counts``, if the caller has them."""
        if free_dd is None:
            return
        unseen = dec.unseen
        U = dec.U
        ahead: dict = {}
        # only the most promising one-from-ready options (by the model) are worth the look-ahead
        ones = sorted((o for o in options if free_dd.get(o, 99) == 1),
                      key=lambda o: (-evs.get(o, 0.0), -1 if o is None else o))[:TWO_STEP_OPTIONS]
        d2 = max(0.5, draws - 1)
        kn = dec.kn
        boost = self._claim_boost(self.plans[0], melds, kn.seat_wind, kn.prevailing, kn.bonus)
        for o in ones:
            if o is not None:
                counts[o] -= 1
            try:
                tree = self._look_ahead_tree(dec, counts, melds, ht, o)
            finally:
                if o is not None:
                    counts[o] += 1
            w_sum = 0.0
            rate_sum = 0.0
            val_sum = 0.0
            for k, readies in tree:
                n = unseen[k]
                if not n:
                    continue
                best_rate, best_val, best_ev = 0.0, 0.0, -1.0
                for waits in readies:
                    ev, rate, value = _ready_gain(waits, unseen, U, d2)
                    if ev > best_ev:
                        best_ev, best_rate, best_val = ev, rate, value
                w_sum += n
                rate_sum += n * best_rate
                val_sum += n * best_rate * best_val
            if w_sum <= 0 or rate_sum <= 0:
                ev2 = 0.0
            else:
                rate_last = rate_sum / w_sum
                value = val_sum / rate_sum
                rate_mid = w_sum / U * boost
                ev2 = erlang_win(1, rate_mid, rate_last, draws) * value
            ahead[o] = ev2
        if not ahead:
            return
        # the plan model's optimism about one-from-ready hands, measured on this hand: its
        # estimates of the farther plans are scaled alike (never up by much)
        model_sum = sum(near.get(o, 0.0) for o in ahead)
        exact_sum = sum(ahead.values())
        k = min(1.25, max(0.25, exact_sum / model_sum)) if model_sum > 0 else 1.0
        for o in options:
            if o in ahead:
                evs[o] = max(ahead[o], k * far.get(o, 0.0))
            elif free_dd.get(o, 99) >= 1:
                evs[o] = k * evs.get(o, 0.0)

    def _look_ahead_tree(self, dec: _Decision, counts13, melds, ht: HandTables | None = None,
                         dropped: int | None = None) -> list:
        """For a one-from-ready 13-tile hand: ``[(k, [waits, …])]`` for every kind ``k`` whose
        draw makes it ready, one ``waits`` per discard that leaves it ready, each a tuple of
        ``(wait, rate weight, utility weight)`` (:meth:`_wait_weights`).  Depends on the hand only (not on what is
        unseen), so it is memoised: a hand that stays one from ready keeps its tree.  ``ht``:
        the tables of the hand before tile ``dropped`` was taken out of it (None: of
        ``counts13`` itself), if the caller has them."""
        kn = dec.kn
        key = (tuple(counts13), melds, kn.seat_wind, kn.prevailing, kn.bonus)
        got = self._tree_cache.get(key)
        if got is not None:
            return got
        declared = len(melds)
        fit = self._fit_info(melds, kn.seat_wind, kn.prevailing, kn.bonus)
        mask = self.full_mask
        if ht is None or (isinstance(ht, ZeroHandTables) and not counts13[ht.zops.zero]):
            # (the last zero dropped: read the hand as _tables does, since the memo key is the
            # hand alone and a tree must not depend on the route to it)
            ht13 = self._tables(counts13, declared)
        elif dropped is None:
            ht13 = ht
        else:
            ht13 = ht.minus(dropped, mask)
        tkey = key[1:]
        ready_cache = self._ready_cache
        if len(ready_cache) > 50_000:
            ready_cache.clear()
        got = []
        hmask13 = 0
        for t in self.kinds:
            if counts13[t]:
                hmask13 |= 1 << t
        for k in ht13.draws_within(mask, self.kinds, 0):
            counts13[k] += 1
            readies = []
            for x in ht13.plus_drops_at(mask, k, 0):
                counts13[x] -= 1
                # the same ready hand turns up in the trees of several discards and turns
                rkey = (tuple(counts13), tkey)
                waits = ready_cache.get(rkey)
                if waits is None:
                    hmask = hmask13 | (1 << k)
                    if not counts13[x]:
                        hmask &= ~(1 << x)
                    waits = []
                    for w in self._waits(counts13, declared):
                        ww = self._wait_weights(*self._estimate(fit, counts13, hmask, w, declared))
                        if ww is not None:
                            waits.append((w, ww[0], ww[1]))
                    waits = ready_cache[rkey] = tuple(waits)
                readies.append(waits)
                counts13[x] += 1
            counts13[k] -= 1
            got.append((k, tuple(readies)))
        if len(self._tree_cache) > 4000:
            self._tree_cache.clear()
        self._tree_cache[key] = got
        return got

    # ==========================================================================================
    # turn
    # ==========================================================================================
    def _turn(self, view: dict, legal: list[Action]) -> Action:
        if not self.settings["ev"]:
            return self._easy_turn(view, legal)
        dec = _Decision(self, view)
        kn = dec.kn
        counts = kn.hand[:]
        melds = dec.melds
        discards = self._discard_candidates(legal)
        evs = self._hand_ev(dec, counts, melds, dec.L, discards)
        utils = [(evs.get(d, 0.0) - dec.danger(d) + self._loser_u(dec, counts, melds, d), d) for d in discards]
        best_util = max(u for u, _ in utils)
        # ties: the more isolated tile, then the lower kind
        best_d = -max((-self._isolation(counts, d), -d) for u, d in utils if u == best_util)[1]
        # kongs: keep the shape and gain a replacement draw
        kong = self._kong_choice(dec, legal, counts, melds, max(evs.values(), default=0.0))
        if kong is not None:
            return kong
        return Action(self.seat, "discard", best_d)

    @staticmethod
    def _discard_candidates(legal: list[Action]) -> list[int]:
        """The legal discards' tile kinds, sorted.  (The engine already leaves out a tile the
        variant forbids to throw — e.g. Classic's picked-up discard, ``claims.discard_picked_up``.)"""
        return sorted({a.tile for a in legal if a.kind == "discard"})

    def _kong_choice(self, dec, legal, counts, melds, best_ev: float):
        """A kong keeps the shape and brings a replacement draw (and, in most variants, value):
        declare it unless it takes the hand farther from its plans than the best discard (a
        kong paid at once, :meth:`_instant_u`, is weighed whatever it does to the distance)."""
        if not any(a.kind in ("concealed_kong", "added_kong") for a in legal):
            return None
        declared = len(melds)
        ht = self._tables(counts, declared)
        pv = self._plan_values(dec, melds)
        before = min(min(self._discard_dists(p, counts, declared, ht, melds).values(), default=99)
                     for p, _, _ in pv)
        for a in legal:
            if a.kind not in ("concealed_kong", "added_kong"):
                continue
            c = counts[:]
            if a.kind == "concealed_kong":
                c[a.tile] -= 4
                new_melds = melds + (Meld(KONG, (a.tile,) * 4, declared=True, concealed=True, kong_type="concealed"),)
            else:
                c[a.tile] -= 1
                new_melds = tuple(Meld(KONG, (a.tile,) * 4, declared=True, concealed=False, kong_type="added",
                                       from_seat=m.from_seat) if m.kind == PUNG and m.tiles[0] == a.tile else m
                                  for m in melds)
            gain = self._instant_u(a.kind)
            ht2 = self._tables(c, len(new_melds))
            after = min((self._dist(p, c, len(new_melds), ht2, new_melds) for p, _, _ in self._plan_values(dec, new_melds)),
                        default=99)
            if after > before and not gain:
                continue
            ev = self._kong_ev(dec, c, new_melds, dec.L) + self._loser_u(dec, c, new_melds) + gain
            if ev - self._kong_risk(dec, c, new_melds) >= best_ev * 0.8 + self._loser_u(dec, counts, melds):
                return a
        return None

    def _instant_u(self, kind: str) -> float:
        """u(what a kong of action ``kind`` — ``kong`` (claimed: exposed), ``added_kong``,
        ``concealed_kong`` — is paid the moment it stands, :meth:`ValueModel.kong_instant`),
        at levels with the ``kong_payments`` setting; else 0."""
        if not self.settings["kong_payments"]:
            return 0.0
        kong_type = {"kong": "exposed", "added_kong": "added", "concealed_kong": "concealed"}[kind]
        return self.u(self.model.kong_instant(kong_type))

    def _loser_u(self, dec, counts, melds, discard: int | None = None) -> float:
        """``loser_weight`` × u(what the hand would score if it ended now without a win), for
        the concealed ``counts`` (less ``discard``) and the declared ``melds``: where the
        variant scores every player's hand (``scoring.score_losers``; classic.md "Scoring":
        pungs, kongs, bonus tiles and the doublings of every player), a pung claimed, a kong
        declared or a concealed pung kept is worth something even when the hand is lost.  0 at
        levels without the setting (``ai:strong`` only) and where only the winner scores."""
        w = self.settings["loser_weight"]
        if not w or not self.model.losers_score:
            return 0.0
        if discard is not None:
            counts[discard] -= 1
        concealed = tuple(T.tiles_of(counts))
        if discard is not None:
            counts[discard] += 1
        kn = dec.kn
        return w * self.u(self.model.loser(concealed, melds, kn.seat_wind, kn.prevailing, kn.bonus))

    def _kong_risk(self, dec, counts13, melds) -> float:
        """The extra expected deal-in loss of the discard that follows a kong, over an ordinary
        discard: where the variant lets any ready hand win on it (Yuxi kong_discard_win,
        scoring situation ``discard_after_kong``) plain ready hands become threats too.  The
        safest tile of the hand the kong leaves, judged both ways, times
        :data:`KONG_RISK_WEIGHT`; 0 in other variants and when the kong itself wins (see
        :meth:`_bloom_win`: no discard follows).  ``counts13`` and ``melds``: the hand the kong
        leaves."""
        held = [t for t in self.kinds if counts13[t]]
        if not self.settings["kong_reads"] or not held or dec.defence_for(True) is None:
            return 0.0
        if self._bloom_win(dec, counts13, melds) > 0:
            return 0.0
        after = min(dec.danger(t, True) for t in held)
        plain = min(dec.danger(t, False) for t in held)
        return KONG_RISK_WEIGHT * max(0.0, after - plain)

    def _kong_ev(self, dec, counts13, melds, draws: float, look_ahead: bool = True) -> float:
        """Expected gain of the 3n+1 hand a kong leaves before its replacement draw: the hand's
        gain with a quarter draw more (the replacement comes at once and skips the seats in
        between), or, where the variant turns bloom tiles face up (``wall.bloom_tiles``;
        yuxi.md G-YX-3), the certain win when a bloom tile completes the hand legally."""
        ev = self._hand_ev(dec, counts13, melds, draws + 0.25, None, look_ahead=look_ahead)[None]
        return max(ev, self._bloom_win(dec, counts13, melds))

    def _bloom_win(self, dec, counts13, melds) -> float:
        """Utility of the certain win a kong brings when a face-up bloom tile completes the
        3n+1 hand it leaves legally (yuxi.md G-YX-3: kong on flower), else 0."""
        bloom = dec.kn.bloom
        if not bloom:
            return 0.0
        hits = sorted(set(bloom) & set(self._waits(counts13, len(melds))))
        best = 0.0
        if hits:
            kn = dec.kn
            m = self.model
            concealed = tuple(T.tiles_of(counts13))
            sit = dec.situations | {"kong_replacement", "bloom_tile"}
            for b in hits:
                vs, _ = m.exact(concealed, melds, b, kn.seat_wind, kn.prevailing, kn.bonus, sit, dec.fed_third,
                                indicators=kn.indicators)
                if vs > 0:
                    best = max(best, self.u(vs * m.g_self))
        return best

    def _isolation(self, counts, t: int) -> int:
        """How connected tile ``t`` is to the rest of the hand (lower = more isolated)."""
        v = (counts[t] - 1) * 4
        if T.is_suited(t):
            r = T.rank_of(t)
            for d in (-2, -1, 1, 2):
                if self.lo <= r + d <= self.hi and counts[t + d]:
                    v += 3 if abs(d) == 1 else 2
            v += 1 if self.lo < r < self.hi else 0
        elif self.zops is not None and t == self.zops.zero:
            # the zero read as rank 0 of a suit (G-UZ-11): its neighbours there
            v += max((3 if counts[r + 1] else 0) + (2 if counts[r + 2] else 0) for r, _ in self.zops.suit_readings)
        return v

    # ==========================================================================================
    # claims
    # ==========================================================================================
    def _claim(self, view: dict, legal: list[Action]) -> Action:
        pass_action = next((a for a in legal if a.kind == "pass"), legal[0])
        wall = view.get("wall") or {}
        if wall.get("live", 1) <= wall.get("reserve", 0):
            # the wall is used up: only a win can still come of a claim (and pick-ups passed
            # round the table would never end the hand)
            return pass_action
        if not self.settings["ev"]:
            return self._easy_claim(view, legal)
        if self._no_claim_helps(view, legal):
            return pass_action
        dec = _Decision(self, view)
        kn = dec.kn
        counts = kn.hand[:]
        melds = dec.melds
        if kn.discard is None:
            return pass_action
        discarder, tile = kn.discard
        # cheap filter: a claim is worth judging only if it brings some nearby plan closer
        # (a kong: keeps it as close)
        declared = len(melds)
        ht0 = self._tables(counts, declared)
        now = {p.name: self._dist(p, counts, declared, ht0, melds) for p, _, _ in self._plan_values(dec, melds)}
        ignore = self._floor_plan(melds, kn.seat_wind, kn.prevailing, kn.bonus)
        best_now = min((d for name, d in now.items() if name != ignore), default=min(now.values()))
        options = []
        for a in legal:
            got = self._claim_result(a, counts, melds, tile, discarder)
            if got is None:
                continue
            c, nm = got
            ht1 = self._tables(c, len(nm))
            for p, vs, vd in self._plan_values(dec, nm):
                if p.name == ignore:
                    continue
                d0 = now.get(p.name, 99)
                d1 = self._dist(p, c, len(nm), ht1, nm)
                if d1 <= best_now + 1 and (d1 < d0 or (a.kind == "kong" and d1 <= d0)):
                    options.append((a, c, nm))
                    break
        if not options:
            return pass_action
        base_ev = self._hand_ev(dec, counts, melds, dec.L, None, look_ahead=False)[None]
        held = [t for t in self.kinds if counts[t]]
        base_danger = min((dec.danger(t) for t in held), default=0.0)
        u_pass = base_ev - base_danger + self._loser_u(dec, counts, melds)
        best, best_u = pass_action, -math.inf
        for a, c, nm in options:
            # the level's claim margin; but a claim that gives up a plain hand's legality (it was
            # legal only concealed: Uzje's closed hand, Singapore's fully concealed tai) must
            # look clearly better than passing at every level (CLAIM_MARGIN): measured, Uzje
            # one strong against three easy 30 -> 34 % wins (tests/bench/ai_results.md)
            margin = self.settings["claim_margin"]
            if ignore is None and self._floor_plan(nm, kn.seat_wind, kn.prevailing, kn.bonus) is not None:
                margin = max(margin, CLAIM_MARGIN)
            bar = u_pass * margin + 1e-9
            if a.kind == "kong":
                # a kong keeps the shape, so it only has to be no worse than passing
                u = (self._kong_ev(dec, c, nm, dec.L, look_ahead=False) - base_danger - self._kong_risk(dec, c, nm)
                     + self._loser_u(dec, c, nm) + self._instant_u("kong"))
                if best is pass_action and self._bloom_win(dec, c, nm) > 0:
                    # a face-up bloom tile completes the hand: the kong wins at once
                    best, best_u = a, max(u, best_u)
                    continue
            elif a.kind == "pickup":
                # a pick-up is worth taking only to keep the tile (else tiles passed round
                # the table would be picked up and thrown back for ever)
                u = self._best_after(dec, c, nm, max(0.5, dec.L - 1), keep=tile) + self._loser_u(dec, c, nm)
            else:
                u = self._best_after(dec, c, nm, dec.L) + self._loser_u(dec, c, nm)
            if u > bar and u > best_u:
                best, best_u = a, u
        return best

    def _no_claim_helps(self, view: dict, legal: list[Action]) -> bool:
        """Cheap test before a claim decision: True when the discarded tile would bring no
        plan within reach closer even if it were simply added to the hand.  A pung or chow
        never does better than holding its tiles concealed (the concealed hand can read the
        same meld), so no such claim could pass the filter of :meth:`_claim`; kongs (judged
        on keeping the distance) always go the full way.  The useful tiles are memoised per
        hand: every claim decision between two turns of the seat shares them."""
        if any(a.kind in ("kong", "win") for a in legal):
            return False
        d = view.get("discard")
        if not d:
            return False
        me = view["players"][self.seat]
        key = (view["hand"], tuple((m["kind"], m["tiles"], m.get("kong_type"), m.get("from_seat"))
                                   for m in me["melds"]), me.get("wind"), view.get("prevailing_wind"), me.get("bonus", ""))
        useful = self._useful_cache.get(key)
        if useful is None:
            counts = [0] * T.NUM_KINDS
            for t in parse(view["hand"]):
                counts[t] += 1
            melds = tuple(meld_of(m["kind"], m["tiles"], m.get("kong_type"), m.get("from_seat")) for m in me["melds"])
            useful = self._useful_kinds(counts, melds, WIND_CODE.get(me.get("wind", "E"), T.EAST),
                                        WIND_CODE.get(view.get("prevailing_wind", "E"), T.EAST),
                                        bonus_of(me))
            if len(self._useful_cache) > 2048:
                self._useful_cache.clear()
            self._useful_cache[key] = useful
        return tile_code(d["tile"]) not in useful

    def _useful_kinds(self, counts, melds, seat_wind: int, prevailing: int,
                      bonus: tuple[int, ...]) -> "_UsefulKinds":
        """Kinds ``k`` such that for some feasible plan ``p`` the hand plus ``k`` is at most one
        step farther than the nearest valued plan and nearer ``p`` than the hand is (a plan
        the variant does not value yet counts as infinitely far now: a claimed meld may make
        it valuable).  Returned as a container that decides each kind when first asked (a
        claim decision asks about its one discarded tile); ``counts`` is kept, not copied."""
        pv = self._plan_values_for(melds, seat_wind, prevailing, bonus)
        ignore = self._floor_plan(melds, seat_wind, prevailing, bonus)
        valued = {p.name for p, _, _ in pv}
        declared = len(melds)
        ht = self._tables(counts, declared)
        dists = {}
        for p in self.plans:
            if p.feasible(melds) and p.name != ignore:
                dists[p.name] = (p, self._dist(p, counts, declared, ht, melds))
        best = min((dists[p.name][1] for p, _, _ in pv if p.name in dists), default=99)
        rows = []
        for name, (p, d0) in dists.items():
            if d0 - 1 > best + 1 or d0 >= 20:
                continue   # one more tile lowers a distance by one at most
            base = d0 if name in valued else 99
            # a useful tile leaves the plan at most `limit` away
            limit = min(best + 1, base - 1)
            extra = None
            if p.kind == "fixed":
                st = self._fixed_state(p, counts, declared, melds, ht)
                if st is None:
                    continue
                missing, residual, ht_res = st
                extra = (missing, ht_res, sum(missing.values()), ht_res.distance(self.full_mask))
            elif p.kind in ("triplets", "pairs"):
                # closed formulas on the histogram: one more copy moves a kind up one class
                pk = p.kinds if p.kind == "triplets" else self.kinds
                h = histogram(counts, pk)
                by_class = {}
                for c in range(4):
                    if h[c]:
                        h[c] -= 1
                        h[c + 1] += 1
                        by_class[c] = self._formula(p, h, declared)
                        h[c] += 1
                        h[c + 1] -= 1
                extra = (pk, by_class)
            rows.append((p, d0, limit, extra))
        return _UsefulKinds(self, counts, melds, ht, rows)

    def _useful_kind(self, got: "_UsefulKinds", k: int) -> bool:
        """Is ``k`` among the kinds of :meth:`_useful_kinds` (``got``, built there)?"""
        counts = got.counts
        if k not in self._kind_set or counts[k] >= 4:
            return False
        ht = got.ht
        for p, d0, limit, extra in got.rows:
            if p.kind == "mask":
                d1 = ht.draw_distance(p.mask, k)
                if d1 is None:
                    continue
            elif p.kind == "fixed":
                missing, ht_res, nm, res_now = extra
                # a missing chow tile fills its chow; any other tile joins the residual hand
                if k in missing:
                    d1 = nm - 1 + res_now
                else:
                    d = ht_res.draw_distance(self.full_mask, k)
                    d1 = nm + (res_now if d is None else d)
            elif extra is not None:
                pk, by_class = extra
                d1 = by_class[counts[k]] if k in pk else d0
            else:
                counts[k] += 1
                d1 = self._dist(p, counts, len(got.melds), None, got.melds)
                counts[k] -= 1
            if d1 <= limit:
                return True
        return False

    @staticmethod
    def _claim_result(a: Action, counts, melds, tile: int, discarder: int):
        """(concealed counts, melds) after claim ``a``; None for pass/win/unknown kinds."""
        c = counts[:]
        if a.kind == "pung":
            c[tile] -= 2
            return c, melds + (Meld(PUNG, (tile,) * 3, declared=True, concealed=False, from_seat=discarder),)
        if a.kind == "kong":
            c[tile] -= 3
            return c, melds + (Meld(KONG, (tile,) * 4, declared=True, concealed=False, kong_type="exposed",
                                    from_seat=discarder),)
        if a.kind == "chow":
            for t in a.tiles:
                if t != tile:
                    c[t] -= 1
            return c, melds + (Meld(CHOW, tuple(a.tiles), declared=True, concealed=False, from_seat=discarder),)
        if a.kind == "pickup":
            c[tile] += 1
            return c, melds
        return None

    def _best_after(self, dec, counts, melds, draws: float, keep: int | None = None) -> float:
        """Best (gain − danger) over the discards of a 3n+2 hand (never discarding ``keep``)."""
        discards = [t for t in self.kinds if counts[t] and t != keep]
        evs = self._hand_ev(dec, counts, melds, draws, discards, look_ahead=False)
        return max((evs.get(d, 0.0) - dec.danger(d) for d in discards), default=0.0)

    # ==========================================================================================
    # easy
    # ==========================================================================================
    def _easy_plan(self, dec, counts, melds, ht) -> tuple[Plan, int]:
        """The nearest plan the variant lets the hand win (ties: the more valuable)."""
        declared = len(melds)
        floor = self._floor_plan(melds, dec.kn.seat_wind, dec.kn.prevailing, dec.kn.bonus)
        best = None
        for p, vs, vd in self._plan_values(dec, melds):
            d = self._dist(p, counts, declared, ht, melds)
            penalty = 3 if p.name == floor else 0
            key = (d + penalty, -(vs + vd), p.name)
            if best is None or key < best[0]:
                best = (key, p, d)
        return best[1], best[2]

    def _floor_plan(self, melds, seat_wind: int, prevailing: int, bonus: tuple[int, ...]) -> str | None:
        """``"free"`` when the variant refuses a plain hand with these melds, by self-draw and
        on a discard (Yangzhou's 15-fan minimum), else None.

        That plan is kept in :meth:`_plan_values` at a floor value only (a lucky pattern may
        still make a ready hand legal, and ready hands are scored exactly), so it is *ignored*
        wherever distances steer: it never sets the nearest-plan bar of :meth:`_hand_ev`'s
        gate (it would hide every real plan), never justifies a claim (:meth:`_claim`), never
        makes a tile useful (:meth:`_useful_kinds`), and there is no plain-hand look-ahead;
        easy treats it as three steps farther than it is."""
        vs, vd = self.model.probe(self.plans[0], melds, seat_wind, prevailing, bonus)
        return "free" if vs <= 0 and vd <= 0 else None

    def _easy_turn(self, view: dict, legal: list[Action]) -> Action:
        dec = _Decision(self, view)
        kn = dec.kn
        counts = kn.hand[:]
        melds = dec.melds
        declared = len(melds)
        ht = self._tables(counts, declared)
        plan, _ = self._easy_plan(dec, counts, melds, ht)
        discards = self._discard_candidates(legal)
        dd = self._discard_dists(plan, counts, declared, ht, melds)
        dmin = min(dd.get(d, 99) for d in discards)
        tied = [d for d in discards if dd.get(d, 99) == dmin]
        rng = self._rng(kn)
        for a in legal:
            if a.kind in ("concealed_kong", "added_kong"):
                c = counts[:]
                c[a.tile] -= 4 if a.kind == "concealed_kong" else 1
                nd = declared + (1 if a.kind == "concealed_kong" else 0)
                if self._tables(c, nd).distance(self.full_mask) <= min(ht.discard_distances(self.full_mask).values()):
                    return a
        if len(tied) > 1 and rng.random() < self.settings["noise"]:
            keyed = sorted(tied, key=lambda t: (self._isolation(counts, t), t))
            return Action(self.seat, "discard", rng.choice(keyed[:3]))
        keyed = []
        for d in tied:
            acc = self._acceptance(plan, counts, declared, ht, d, dmin, kn.unseen, melds) if len(tied) > 1 else 0
            keyed.append((-acc, self._isolation(counts, d), d))
        keyed.sort()
        return Action(self.seat, "discard", keyed[0][2])

    def _easy_claim(self, view: dict, legal: list[Action]) -> Action:
        dec = _Decision(self, view)
        kn = dec.kn
        pass_action = next((a for a in legal if a.kind == "pass"), legal[0])
        if kn.discard is None:
            return pass_action
        discarder, tile = kn.discard
        counts = kn.hand[:]
        melds = dec.melds
        declared = len(melds)
        ht = self._tables(counts, declared)
        plan, now = self._easy_plan(dec, counts, melds, ht)
        for a in legal:
            got = self._claim_result(a, counts, melds, tile, discarder)
            if got is None:
                continue
            c, nm = got
            if not plan.feasible(nm):
                continue
            vs, vd = self.model.probe(plan, nm, kn.seat_wind, kn.prevailing, kn.bonus)
            if vs <= 0 and vd <= 0 and plan.name != "free":
                continue
            nd = len(nm)
            ht2 = self._tables(c, nd)
            if a.kind == "kong":
                after = self._dist(plan, c, nd, ht2, nm)
            else:
                dd = self._discard_dists(plan, c, nd, ht2, nm)
                after = min(dd.values(), default=99)
            if after < now or (a.kind == "kong" and after <= now):
                return a
        return pass_action


__all__ = ["LevelBot", "LEVELS", "erlang_win"]
