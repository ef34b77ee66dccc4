"""A seat's views and events are a function of what that seat may know (issue 20, item 1).

Two tables are built that differ only in *other* seats' concealed tiles: the same deal, then
some tiles swapped between two seats other than the observer (or, in the rigged cases, one
other seat given a different hand).  Both are driven through the same public moves, and after
every move the observer's view (:meth:`Table.view`) and its copy of the events
(:func:`event_for`) must be the same bytes (msgpack) in both, up to the end of the hand (whose
summary shows every hand, as the rules say).

The moves pass through claim windows in which, in one table, another seat could pung, kong,
chow or win and passes, and in the other it has nothing to claim; and through robbing windows
after an added kong (every variant: ``claims.rob_kong = "added"``), after an Uzje concealed
kong (an orphans hand may rob it: uzje.md "How a game goes", ``claims.rob_kong_forms``) and
after a flower set aside while another seat shows the seven others (Singapore's robbing the
eighth, Uzje's ivies on the wall, G-UZ-14).  The engine before this rule opened a window only
where some seat could claim, so the observer saw the window (phase, ``seq``, events) in one
table and not in the other.
"""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong_tui import tiles as T
from mahjong_tui.engine import Action, Table, event_for
from mahjong_tui.melds import PUNG, Meld
from mahjong_tui.variant import load_variant

from .helpers import set_hand

VARIANTS = ("classic", "yuxi", "yangzhou", "singapore", "uzje")
STEPS = 70  # public moves per example: a dozen discards and their windows, or more


def _variant(vid: str):
    # Uzje with its flowers (an option), so that ivies on the wall can happen
    return load_variant(vid, {"flowers": True}) if vid == "uzje" else load_variant(vid)


def _bytes(obj) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


class Twins:
    """Tables ``a`` and ``b`` (same public state) and the observing seat; :meth:`move`
    applies one public move to both and checks what the observer sees."""

    def __init__(self, a: Table, b: Table, observer: int, choose):
        self.a, self.b, self.seat = a, b, observer
        self.choose = choose  # hypothesis' choice among the observer's own options
        self.ended = False
        self.windows: list[tuple[str, bool]] = []  # (phase, options of the other seats differed)
        self.check_views()

    def check_views(self) -> None:
        va, vb = self.a.view(self.seat), self.b.view(self.seat)
        assert _bytes(va) == _bytes(vb), _first_difference(va, vb)

    def move(self, action: Action) -> None:
        ea, eb = self.a.apply(action), self.b.apply(action)
        mine_a = [event_for(e, self.seat) for e in ea]
        mine_b = [event_for(e, self.seat) for e in eb]
        ends = [i for i, e in enumerate(mine_a) if e["type"] == "hand_end"]
        if ends:  # the hand's summary shows every hand (the rules): compare what came before
            self.ended = True
            mine_a, mine_b = mine_a[:ends[0]], mine_b[:ends[0]]
        assert _bytes(mine_a) == _bytes(mine_b), (action, mine_a, mine_b)
        if not self.ended:
            self.check_views()
            if self.a.phase in ("claim", "rob") and ea and ea[-1]["type"] == "claim_window":
                others = [s for s in range(4) if s != self.seat]
                self.windows.append((self.a.phase, any(
                    self.a.legal_actions(s) != self.b.legal_actions(s) for s in others)))

    def public_move(self) -> Action:
        """The next move, the same in both tables: the observer chooses among its own options
        (never a win: that would end the hand); every other seat passes in a window, takes
        the kong replacement, and discards the tile it just drew (the same in both tables),
        or a tile both of its hands hold."""
        a, b = self.a, self.b
        waiting = a.waiting_for()
        assert waiting == b.waiting_for()
        seat = waiting[0]
        la, lb = a.legal_actions(seat), b.legal_actions(seat)
        if seat == self.seat:
            assert la == lb
            return self.choose([x for x in la if x.kind != "win"])
        if a.phase in ("claim", "rob"):
            return Action.of(seat, "pass")
        if a.phase == "after_kong":
            return Action.of(seat, "draw")
        drawn = a.last_drawn
        if drawn is not None and a.drawn_from is not None and Action.of(seat, "discard", drawn) in la \
                and Action.of(seat, "discard", drawn) in lb:
            return Action.of(seat, "discard", drawn)
        both = [x for x in la if x.kind == "discard" and x in lb]
        assert both, "no discard both hands allow"
        return both[0]

    def play(self, steps: int = STEPS, script: tuple[Action, ...] = ()) -> None:
        for action in script:
            if self.ended:
                return
            self.move(action)
        for _ in range(steps):
            if self.ended or self.a.phase == "match_over":
                return
            self.move(self.public_move())


def _first_difference(va: dict, vb: dict) -> str:
    keys = [k for k in va if va[k] != vb.get(k)]
    return f"view fields differ: {keys}: {[(va[k], vb.get(k)) for k in keys][:2]}"


def _chooser(data):
    return lambda options: data.draw(st.sampled_from(options))


# -- random deals, tiles swapped between two other seats ------------------------------------

@pytest.mark.parametrize("vid", VARIANTS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), observer=st.integers(0, 3), other=st.integers(1, 3),
       picks=st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), min_size=1, max_size=4),
       data=st.data())
def test_swapping_other_seats_tiles_changes_nothing_the_observer_sees(vid, seed, observer, other, picks, data):
    a, b = (Table(_variant(vid), seed, hands=1, first_dealer=0) for _ in range(2))  # the same deal
    o = (observer + other) % 4
    third = next(s for s in range(4) if s not in (observer, o))
    for i, j in picks:  # swap the i-th tile of o's hand with the j-th of the third seat's
        to, tt = T.tiles_of(b.hands[o]), T.tiles_of(b.hands[third])
        x, y = to[i % len(to)], tt[j % len(tt)]
        b.hands[o][x] -= 1
        b.hands[o][y] += 1
        b.hands[third][y] -= 1
        b.hands[third][x] += 1
    b.invalidate_caches()
    twins = Twins(a, b, observer, _chooser(data))
    twins.play()
    assert twins.windows  # every discard opened one


def test_the_swaps_do_reach_windows_where_only_one_table_could_claim():
    """The property above means something: over a few seeds, some claim windows offer
    another seat a claim in one table and not in the other (the case that used to leak)."""
    differing = 0
    for seed in range(6):
        for vid in VARIANTS:
            a, b = (Table(_variant(vid), seed, hands=1, first_dealer=0) for _ in range(2))
            # seats 2 and 3 swap their hands whole: their concealed counts are the same
            b.hands[2], b.hands[3] = b.hands[3], b.hands[2]
            b.invalidate_caches()
            twins = Twins(a, b, 1, lambda options: next((x for x in options if x.kind == "pass"), options[0]))
            twins.play()
            differing += sum(1 for _phase, differs in twins.windows if differs)
    assert differing >= 5


# -- rigged robbing windows -------------------------------------------------------------------

def _rigged_pair(vid: str, hands: dict[int, tuple[str, str]]) -> tuple[Table, Table]:
    """Two tables of ``vid`` (seed 3, seat 0 deals) where seat ``s`` holds ``hands[s][0]`` in
    the first and ``hands[s][1]`` in the second."""
    tables = []
    for k in (0, 1):
        t = Table(_variant(vid), 3, hands=1, first_dealer=0)
        if vid == "uzje":
            t.wall.indicators[:] = [T.parse_tile("dm")]  # a bonus tile none of the rigged hands holds
        for s, pair in hands.items():
            set_hand(t, s, pair[k])
        tables.append(t)
    return tables[0], tables[1]


def _robber(vid: str) -> str | None:
    """A 13-tile hand that may rob an added kong of 9s in ``vid`` (probing the engine)."""
    for hand in ("123m456m789m123s9s", "111m222s333m444s9s", "123m456m789mEEE9s", "111m999m123sCCC9s",
                 "123m456m678sEEE9s", "234m567m234s567s9s"):
        a, _ = _kong_pair(vid, hand, hand)
        a.apply(Action.of(0, "added_kong", T.parse_tile("9s")))
        if Action.of(2, "win", T.parse_tile("9s")) in a.legal_actions(2):
            return hand
    return None


def _kong_pair(vid: str, west_a: str, west_b: str) -> tuple[Table, Table]:
    """Seat 0 (the dealer, on its first turn) holds a pung of 9s exposed and the fourth 9s;
    seat 2 holds ``west_a`` in one table and ``west_b`` in the other."""
    a, b = _rigged_pair(vid, {0: ("9s1m2m3m4m5m6m7m8mEE",) * 2, 2: (west_a, west_b)})
    for t in (a, b):
        t.melds[0].append(Meld(PUNG, (T.parse_tile("9s"),) * 3, declared=True, concealed=False, from_seat=1))
        t.invalidate_caches()
    return a, b


@pytest.mark.parametrize("vid", VARIANTS)
@pytest.mark.parametrize("observer", [1, 3])
def test_an_added_kong_opens_the_same_window_whoever_can_rob_it(vid, observer):
    robber = _robber(vid)
    assert robber is not None  # West can rob the kong in one table (and passes) ...
    a, b = _kong_pair(vid, robber, "1m4m7m2s5s8s3m6mESWNC")  # ... and not in the other
    twins = Twins(a, b, observer, lambda options: next((x for x in options if x.kind == "pass"), options[0]))
    twins.play(script=(Action.of(0, "added_kong", T.parse_tile("9s")),), steps=20)
    assert twins.windows[0] == ("rob", True)
    assert any(m.kong_type == "added" for m in a.melds[0]) and any(m.kong_type == "added" for m in b.melds[0])


@pytest.mark.parametrize("observer", [1, 3])
@pytest.mark.parametrize("hidden", [False, True])
def test_an_uzje_concealed_kong_opens_the_same_window_whoever_can_rob_it(observer, hidden):
    # uzje.md "How a game goes" (4b): thirteen or fourteen orphans may rob any quad, a
    # concealed one too; seat 2 holds thirteen orphans waiting on East (tests/test_uzje_engine.py)
    # in one table and a plain hand in the other
    a, b = _rigged_pair("uzje", {0: ("EEEE123m456m789mC",) * 2, 2: ("1ft1fs1fmSWNCFPP", "46s123s789s11mFFF")})
    if hidden:
        a, b = (_with_hidden_quads(t) for t in (a, b))
    assert Action.of(2, "win", T.EAST) not in b.legal_actions(2)
    twins = Twins(a, b, observer, lambda options: next((x for x in options if x.kind == "pass"), options[0]))
    twins.play(script=(Action.of(0, "concealed_kong", T.EAST),), steps=20)
    assert twins.windows[0] == ("rob", True)


def _with_hidden_quads(t: Table) -> Table:
    """The same rigged table under ``concealed_quad_mode = "hidden"``."""
    h = Table(t.variant.with_options({"concealed_quad_mode": "hidden"}), 3, hands=1, first_dealer=0)
    h.wall.indicators[:] = list(t.wall.indicators)
    h.hands = [row[:] for row in t.hands]
    h.invalidate_caches()
    return h


@pytest.mark.parametrize("vid", ["singapore", "uzje"])
@pytest.mark.parametrize("robber", [2, 3])
def test_the_eighth_flower_opens_the_same_window_whatever_the_hands(vid, robber):
    # singapore.md "Tai table" robbing the eighth, uzje.md "Fan table" ivies on the wall
    # (G-UZ-14): seat ``robber`` shows seven flowers and seasons; seat 1 draws the eighth
    # after the dealer's discard.  Seat 0 watches; the robber's concealed tiles differ.
    eighth = T.parse_tile("r")
    a, b = _rigged_pair(vid, {robber: ("123m456m789m123s9s", "1m4m7m2s5s8s3m6mESWNC")})
    for t in (a, b):
        t.bonus[robber] = sorted(T.SEASONS_AND_FLOWERS - {eighth})
        for s in range(4):
            if s != robber and eighth in t.bonus[s]:
                t.bonus[s].remove(eighth)
        t.wall._live[0].insert(0, eighth)  # seat 1's draw
        t.wall._live_count += 1
        t.invalidate_caches()
    first = next(x for x in a.legal_actions(0) if x.kind == "discard" and x in b.legal_actions(0))
    twins = Twins(a, b, 0, lambda options: next((x for x in options if x.kind == "pass"), options[0]))
    twins.play(script=(first,), steps=12)
    assert ("rob", False) in twins.windows or ("rob", True) in twins.windows


@pytest.mark.parametrize("observer", [1, 2])
def test_a_kong_beside_the_bloom_tiles_looks_the_same_whether_a_bloom_tile_wins(observer):
    # yuxi.md "Setting up", G-YX-3: after a kong the kong player may win on a face-up bloom
    # tile.  The dealer declares a kong of 1m; with 88m 99m a bloom 9m completes its hand, with
    # 88m 9m E it does not.  The phase after the kong (and its events) must not tell which.
    a, b = _rigged_pair("yuxi", {0: ("1111m234m567m88m99m", "1111m234m567m88m9mE")})
    for t in (a, b):
        t.wall.bloom[:] = [T.parse_tile("9m"), T.parse_tile("E")]
        t.invalidate_caches()
    twins = Twins(a, b, observer, lambda options: next((x for x in options if x.kind == "pass"), options[0]))
    twins.play(script=(Action.of(0, "concealed_kong", T.parse_tile("1m")),), steps=0)
    assert Action.of(0, "win", T.parse_tile("9m")) in a.legal_actions(0)
    assert b.legal_actions(0) == [Action.of(0, "draw")]
    twins.play(script=(Action.of(0, "draw"),), steps=20)
