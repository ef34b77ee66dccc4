"""Hot-seat claim rounds (ui/session.py, "Claim rounds"): a hot-seat table plays like a
physical one, and when the keyboard changes hands depends on public information only.

A :class:`GameSession` is driven by a fake presenter (no Textual): it accepts every privacy
screen at once, presses call keys in each public call window by a rule that reads public
information only (``calls``), then closes the window itself (the window is set to last far
longer than a test: nothing but the presenter may close it), and answers the human seats'
requests (turns: the baseline bot's discard; claim prompts: pass).  What is compared is what
the players could see: every call window (who may call, who called), the hand-overs (to whom,
and what the privacy screen says before the key) and every table drawn while a given seat held
the keyboard, or while nobody did.  Each no-leak test plays one situation twice, with one
hidden hand that can claim and one that cannot, in every variant where such a window opens
(Yangzhou's discard, Singapore's added kong and eighth flower, Uzje's concealed kong, Classic's
and Yuxi's discards).  The last tests drive the real app with Pilot.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from mahjong_tui import tiles as T
from mahjong_tui.ai.baseline import make_bot
from mahjong_tui.engine import Action
from mahjong_tui.ui.screens.dialogs import PrivacyScreen
from mahjong_tui.ui.screens.results import HandEndScreen
from mahjong_tui.ui.session import GameSession
from mahjong_tui.variant import load_variant
from tests.helpers import rig_first_hand, rigged_wall
from tests.ui.helpers import accept_privacy, make_app, my_request, press_action, table_screen, wait_for


class FakePresenter:
    """Plays the human seats of ``session``: a script of discards first (``script[seat]``),
    then the baseline bot's; every claim prompt is passed.  In each public call window it
    presses the call key of every seat ``calls(round)`` names (public information only), then
    closes the window.  Records call windows, hand-overs and what was drawn for the seat at the
    keyboard; stops the session after ``stop_after`` hand-overs."""

    def __init__(self, session: GameSession, script: dict | None = None, stop_after: int | None = None,
                 calls=None):
        self.session = session
        session.call_seconds = 3600  # only this presenter closes a window (never the clock, in a test)
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.stop_after = stop_after
        self.calls = calls or (lambda rnd: [])
        self.bots = {h: make_bot("ai:baseline", session.variant, h, 0) for h in session.humans}
        self.handoffs: list[tuple] = []   # (seat, kind, why): what everybody may see
        self.notes: list[tuple] = []      # (seat, then): seen by that seat alone
        self.drawn: list[tuple] = []      # (keyboard, view as JSON, status line, prompt, window, move log)
        self.prompts: list[tuple] = []    # (seat, legal) of every request put on screen
        self.windows: list[tuple] = []    # (discarder, what, tile, keys, called): every call window
        self.closed_early: list = []      # windows found closed before this presenter closed them
        self.marks: list[int] = []        # len(drawn) at each hand-over
        self.private_in_public: list[str] = []  # a seat's own move-log lines drawn while nobody held the keyboard
        self._answered: set = set()  # the requests themselves (an id could be reused)
        self._windows_seen: set = set()

    def _look(self) -> None:
        s = self.session
        req = s.request_now
        prompt = tuple(a.describe() for a in req.legal) if req is not None else ()
        window = s.call_window()
        open_ = (tuple(window.keys), tuple(window.called)) if window is not None else None
        moves = tuple(e.text for e in s.visible_moves())
        if s.keyboard is None:  # nobody's hand is shown: nobody's own lines either
            self.private_in_public += [e.text for e in s.visible_moves() if e.only is not None]
        frame = (s.keyboard, json.dumps(s.view(), sort_keys=True, default=str), s.last_text, prompt, open_, moves)
        if not self.drawn or self.drawn[-1] != frame:  # drawn again unchanged: nobody can tell
            self.drawn.append(frame)

    def table_changed(self) -> None:
        self._look()
        rnd = self.session.call_window()
        if rnd is not None and rnd not in self._windows_seen:
            self._windows_seen.add(rnd)  # the objects (an id could be reused)
            asyncio.get_running_loop().call_soon(self._in_window, rnd)

    def _in_window(self, rnd) -> None:
        s = self.session
        for seat in self.calls(rnd):
            assert s.call(seat), (seat, rnd.keys)
        if s.call_window() is not rnd:
            if not all(k in rnd.called for k in rnd.keys):
                self.closed_early.append(rnd)
        else:
            s.close_call_window()
        self.windows.append((rnd.discarder, rnd.what, rnd.tile, tuple(rnd.keys), tuple(rnd.called)))

    def request_changed(self) -> None:
        self._look()
        req = self.session.request_now
        if req is not None and req not in self._answered:
            self._answered.add(req)
            self.prompts.append((req.seat, list(req.legal)))
            asyncio.get_running_loop().call_soon(self._answer, req)

    def _answer(self, req) -> None:
        if req.is_turn:
            wanted = self.script.get(req.seat)
            tile = wanted.pop(0) if wanted else None
            action = next((a for a in req.legal if a.kind == "discard" and a.describe().endswith(" " + tile)), None) \
                if tile else None
            action = action or self.bots[req.seat].choose(req.view, req.legal)
        else:
            action = next(a for a in req.legal if a.kind == "pass")
        self.session.answer(action)

    def event_text(self, text: str) -> None:
        pass

    async def privacy(self, seat: int, take) -> None:
        said = self.session.handoff(seat)
        self.handoffs.append((seat, said.kind, said.why))
        self.marks.append(len(self.drawn))
        take()
        if said.then is not None:
            self.notes.append((seat, said.then))
        if self.stop_after is not None and len(self.handoffs) >= self.stop_after:
            self.session.stop()

    async def hand_over(self, summary: dict, last=None) -> None:
        pass

    async def match_over(self) -> None:
        pass

    async def connection_closed(self, detail: str) -> None:  # pragma: no cover
        pass


def call_all(rnd) -> list[int]:
    """Every seat with a call key calls (a rule of public information only)."""
    return list(rnd.keys)


async def run(session: GameSession, presenter: FakePresenter, timeout: float = 60) -> None:
    session.presenter = presenter
    try:
        await asyncio.wait_for(session.play(), timeout)
    except asyncio.CancelledError:  # stopped by the presenter: a request was withdrawn
        assert session._stopped


# -- one discard, two hidden hands ------------------------------------------------------------

CLASSIC = "classic"
# Yangzhou (no chow, no pick-up): East (seat 0, a person, the dealer) discards 9s first.  West
# (seat 2, a person) holds a pair of 9s or a pair of 1s; nothing else differs (the other 9s and
# 1s are in the wall).  Nobody else can claim the 9s: without West's pair the table goes
# straight on to South's draw, which East must not see before West has had the keyboard.
EAST = "9s 2m3m4m 2t3t4t 5m6m7m S S N C"
SOUTH = "2s3s4s 5s6s7s 8m8m P P F F W"
NORTH = "3s3s 6m6m 9m9m 1t 5t 8s8s 4m N C"
WEST_PAIR = "9s9s 1m2m3m 4t5t6t 7t8t9t E W"
WEST_NONE = "1s1s 1m2m3m 4t5t6t 7t8t9t E W"


async def one_discard(monkeypatch, west: str, seats=("human", "ai:baseline", "human", "ai:baseline"), calls=None,
                      stop_after=2):
    from mahjong_tui.engine import Table

    variant = load_variant("yangzhou")
    monkeypatch.setattr(Table, "_choose_first_dealer", lambda self: 0)  # East deals the rigged hand
    rig_first_hand(monkeypatch, rigged_wall(variant, 0, [h.replace(" ", "") for h in (EAST, SOUTH, west, NORTH)], front="1m 2m 3m 4m 5m 6m 7m 8m"))
    session = GameSession(variant, 5, list(seats), hands=1, bot_delay=0)
    presenter = FakePresenter(session, script={0: ["9s"]}, stop_after=stop_after, calls=calls)
    session.keyboard = 0  # East is at the keyboard (it was handed over before the game)
    await run(session, presenter)
    return session, presenter


def until_first_handoff_to(presenter: FakePresenter, seat: int) -> list[tuple]:
    """What was drawn for the keyboard's seat (or for nobody's) before the keyboard first went
    to ``seat``."""
    out = []
    for d in presenter.drawn:
        if d[0] == seat:
            break
        out.append(d)
    return out


def before_handoff(presenter: FakePresenter, k: int = 0) -> list[tuple]:
    """Every table drawn before the ``k``-th hand-over (0: the first)."""
    return presenter.drawn[:presenter.marks[k]]


async def test_the_call_window_after_a_discard_does_not_depend_on_the_other_hand(monkeypatch):
    # nobody calls: West's pung is passed for it, and the table goes on to East's next turn
    a_session, a = await one_discard(monkeypatch, WEST_PAIR)
    b_session, b = await one_discard(monkeypatch, WEST_NONE)
    nine = a_session.table.actions[0].tile
    # West could pung the 9s in one deal and not in the other (the table asked it only then) ...
    assert Action.of(2, "pung", nine) in a_session.table.actions[1:2] or \
        any(x == Action.of(2, "pass") for x in a_session.table.actions[1:3])
    assert not any(x.seat == 2 and x.kind == "pass" for x in b_session.table.actions[:3])
    # ... the same public window follows the discard in both: West (a person) has a key
    assert a.windows == b.windows == [(0, "discard", "9s", (2,), ()), *a.windows[1:]]
    assert not a.closed_early and not b.closed_early
    # and nobody is handed the keyboard for it: the next hand-over is a turn's
    assert a.handoffs == b.handoffs and all(kind == "turn" for _s, kind, _w in a.handoffs)
    # every table drawn, for East and for nobody, was the same until West had the keyboard
    seen_a = until_first_handoff_to(a, 2)
    assert seen_a and seen_a == until_first_handoff_to(b, 2)
    assert any(d[0] is None for d in seen_a)  # the public window was drawn
    # West's unseen pass went through (the pung was never put on screen)
    assert not any(seat == 2 and Action.of(2, "pung", nine) in legal for seat, legal in a.prompts)


async def test_a_call_by_a_seat_that_cannot_claim_looks_like_one_that_can(monkeypatch):
    a_session, a = await one_discard(monkeypatch, WEST_PAIR, calls=call_all)
    b_session, b = await one_discard(monkeypatch, WEST_NONE, calls=call_all)
    # West calls in both deals: the same window, the same hand-over, the same words
    assert a.windows[0] == b.windows[0] == (0, "discard", "9s", (2,), (2,))
    assert a.handoffs[0] == b.handoffs[0] == (2, "claim", "called Player 1's discard")
    # behind the privacy screen West reads its prompt (one deal) or "Nothing to claim" (the other)
    nine = a_session.table.actions[0].tile
    assert any(seat == 2 and Action.of(2, "pung", nine) in legal for seat, legal in a.prompts)
    assert b.notes[0] == (2, "Nothing to claim on 9s.") and (2, "Nothing to claim on 9s.") not in a.notes[:1]
    # until West had the keyboard, East and the table saw exactly the same
    seen_a = until_first_handoff_to(a, 2)
    seen_b = until_first_handoff_to(b, 2)
    assert seen_a and seen_a == seen_b


async def test_one_human_sees_no_claim_rounds(monkeypatch):
    # one person and three bots: no round, no privacy screen, the live table at every step
    session, presenter = await one_discard(monkeypatch, WEST_PAIR, seats=("human", "ai:baseline", "ai:baseline", "ai:baseline"),
                                           stop_after=3)
    assert presenter.handoffs == [] and presenter.notes == [] and presenter.windows == []
    assert session.claim_round is None and not session.hot_seat


async def test_no_calls_takes_a_seat_out_of_the_window(monkeypatch):
    # West turns "no calls" on (shown in the status line: public): no window after East's
    # discard, and West's pung is passed for it unseen
    from mahjong_tui.engine import Table

    variant = load_variant("yangzhou")
    monkeypatch.setattr(Table, "_choose_first_dealer", lambda self: 0)
    rig_first_hand(monkeypatch, rigged_wall(variant, 0, [h.replace(" ", "") for h in (EAST, SOUTH, WEST_PAIR, NORTH)],
                                            front="1m 2m 3m 4m 5m 6m 7m 8m"))
    session = GameSession(variant, 5, ["human", "ai:baseline", "human", "ai:baseline"], hands=1, bot_delay=0)
    session.set_no_calls(2, True)
    assert session.toggle_words(2) == ["no calls"]
    presenter = FakePresenter(session, script={0: ["9s"]}, stop_after=1)
    session.keyboard = 0
    await run(session, presenter)
    assert presenter.windows[:1] != [(0, "discard", "9s", (2,), ())]
    assert not any(w[0] == 0 and w[2] == "9s" for w in presenter.windows)
    assert any(a == Action.of(2, "pass") for a in session.table.actions[1:3])


# -- a whole seeded hand ------------------------------------------------------------------------

@pytest.mark.parametrize("variant_id, seed", [(CLASSIC, 21), ("yuxi", 21), ("yangzhou", 21), ("singapore", 21),
                                              ("uzje", 21)])
@pytest.mark.parametrize("calls", [None, call_all], ids=["nobody-calls", "everybody-calls"])
async def test_a_hot_seat_hand_hands_over_by_public_information_only(calls, variant_id, seed):
    # The play-tester's table: Classic, seed 21, people at East and South, bots at West and
    # North; the people pass every claim they are shown (auto-draw on, as a new Classic table
    # starts).  Between two discards, the windows and who is handed the keyboard (and what the
    # screen says) must be the same whenever the public situation is (who discarded, who was
    # at the keyboard, what the table did next) — whether or not the other person could have
    # claimed.  When everybody calls, every legal claim is put on screen.
    variant = load_variant(variant_id)
    session = GameSession(variant, seed, ["human", "human", "ai:baseline", "ai:baseline"], hands=1, bot_delay=0)
    for h in session.humans:
        session.set_auto_draw(h, True)
    presenter = FakePresenter(session, calls=calls)
    table = session.table
    discards: list[dict] = []   # per discard: who, the keyboard then, who could claim
    original_apply = table.apply

    def apply(action):
        keyboard = session.keyboard
        n_handoffs = len(presenter.handoffs)
        n_windows = len(presenter.windows)
        events = original_apply(action)
        if action.kind == "discard":
            discards.append({"seat": action.seat, "keyboard": keyboard, "at": n_handoffs, "windows_at": n_windows,
                             "actions_at": len(table.actions),
                             # the table asks every seat; one that cannot claim has only pass
                             "can_claim": {h: list(table.legal_actions(h)) for h in session.humans
                                           if table.phase == "claim"
                                           and table.legal_actions(h) not in ([], [Action.of(h, "pass")])}})
        return events

    table.apply = apply
    await run(session, presenter)
    assert table.phase == "match_over" and len(discards) > 20
    assert not presenter.closed_early and not presenter.private_in_public
    # public situation -> windows and hand-overs until the next discard
    patterns: dict[tuple, set] = {}
    could: dict[tuple, set] = {}
    for i, d in enumerate(discards):
        nxt = discards[i + 1] if i + 1 < len(discards) else None
        end = nxt["at"] if nxt else len(presenter.handoffs)
        wend = nxt["windows_at"] if nxt else len(presenter.windows)
        later = table.actions[d["actions_at"]:nxt["actions_at"] - 1 if nxt else len(table.actions)]
        public = tuple(a.describe() for a in later if a.kind != "pass")
        key = (d["seat"], d["keyboard"], public, table.actions[d["actions_at"] - 1].tile)
        seen = (tuple(presenter.windows[d["windows_at"]:wend]), tuple(presenter.handoffs[d["at"]:end]))
        patterns.setdefault(key, set()).add(seen)
        other = [h for h in session.humans if h != d["seat"]]
        could.setdefault(key[:2], set()).add(tuple(bool(d["can_claim"].get(h)) for h in other))
        # a window after every discard, every person but the discarder with a key
        assert seen[0] and seen[0][0][:4] == (d["seat"], "discard", T.name(table.actions[d["actions_at"] - 1].tile),
                                              tuple(h for h in ((d["seat"] + k) % 4 for k in (1, 2, 3))
                                                    if h in session.humans)), (i, seen)
    assert all(len(p) == 1 for p in patterns.values()), {k: p for k, p in patterns.items() if len(p) > 1}
    # the test means something: the same public situation came both with and without a claim
    assert any(len(c) > 1 for c in could.values()), could
    turns = sum(1 for a in table.actions if a.seat in session.humans and a.kind == "discard")
    called = sum(len(w[4]) for w in presenter.windows)
    # hand-overs: no more than the people's turns plus their calls (a turn without a discard:
    # a self-drawn win; a kong that may be robbed splits a turn around its public window)
    extra = sum(1 for a in table.actions if a.seat in session.humans and a.kind in ("win", "added_kong", "concealed_kong"))
    assert len(presenter.handoffs) <= turns + called + extra
    offered = [(seat, legal) for seat, legal in presenter.prompts if not any(a.kind == "discard" for a in legal)]
    if calls is None:
        assert called == 0 and offered == []  # nobody called: no claim was ever put on screen
    else:
        # every legal claim was put on screen, as the table listed it
        wanted = [(h, legal) for d in discards for h, legal in sorted(d["can_claim"].items())]
        assert sorted(map(repr, offered)) == sorted(map(repr, wanted))
        assert any(any(a.kind in ("pung", "kong", "win") for a in legal) for _s, legal in offered)


# -- the real app -------------------------------------------------------------------------------

async def pilot_one_discard(monkeypatch, west: str) -> dict:
    """The real app at the rigged Yangzhou table of :func:`one_discard`: East discards 9s; the
    screens seen from then on (as text, the countdown's seconds masked) until West, who
    called, has the keyboard; and what West read then."""
    import re

    from mahjong_tui.engine import Table

    from tests.ui.helpers import screen_text

    variant = load_variant("yangzhou")
    monkeypatch.setattr(Table, "_choose_first_dealer", lambda self: 0)
    rig_first_hand(monkeypatch, rigged_wall(variant, 0, [h.replace(" ", "") for h in (EAST, SOUTH, west, NORTH)],
                                            front="1m 2m 3m 4m 5m 6m 7m 8m"))
    app = make_app(seats=("human", "ai", "human", "ai"), variant="yangzhou", seed=5, hands=1)
    app.call_seconds = 3600
    out: dict = {}

    def text() -> str:
        return re.sub(r"\d+ s\b", "N s", screen_text(app))

    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PrivacyScreen))
        await accept_privacy(pilot, app)
        await wait_for(pilot, lambda: my_request(app) is not None)
        s = table_screen(app).session
        nine = next(a for a in my_request(app).legal if a.kind == "discard" and a.describe().endswith(" 9s"))
        await press_action(pilot, app, nine)
        await wait_for(pilot, lambda: s.call_window() is not None)
        out["window"] = text()
        out["toggles"] = s.toggle_words(0)
        await pilot.press("3")  # West (Player 3) calls
        await wait_for(pilot, lambda: isinstance(app.screen, PrivacyScreen))
        out["handover"] = text()
        await pilot.press("space")
        await wait_for(pilot, lambda: app.screen.showing_note if isinstance(app.screen, PrivacyScreen)
                       else my_request(app) is not None)
        out["west"] = app.screen.then if isinstance(app.screen, PrivacyScreen) else my_request(app).kinds
    return out


async def test_pilot_the_call_window_looks_the_same_whatever_west_holds(monkeypatch):
    a = await pilot_one_discard(monkeypatch, WEST_PAIR)
    b = await pilot_one_discard(monkeypatch, WEST_NONE)
    # the public window after East's 9s: every person but East has a key, nobody's hand face up
    assert "Player 1 (East) discarded" in a["window"] and "3  call (Player 3)" in a["window"]
    assert "Space: no calls" in a["window"]
    assert a["window"] == b["window"]
    # West's call: the same hand-over screen in both deals
    assert "Pass the keyboard to" in a["handover"] and "called Player 1's discard" in a["handover"]
    assert a["handover"] == b["handover"]
    # behind it, West alone reads its prompt (pung or pass) or "Nothing to claim on 9s."
    assert a["west"] == {"pung", "pass"} and b["west"] == "Nothing to claim on 9s."


# -- an added kong, two hidden hands --------------------------------------------------------------

# Singapore (robbing an added kong is worth the 1 tai a win needs): people at East (seat 0, the
# dealer) and West (seat 2).  South discards 9s, West pungs it and later draws the last 9s,
# and adds it to the pung (played in the session).  East waits on 6s/9s or on 3s: nothing
# else differs.  Without the wait the table does not ask East at all and West would simply
# go on, which West must not see: East gets the keyboard either way.
K_EAST_WAIT = "1m2m3m 4m5m6m 7m8m9m 7s8s 5t5t N"
K_EAST_NONE = "1m2m3m 4m5m6m 7m8m9m 1s2s 5t5t N"
K_SOUTH = "9s 2s3s4s 6t7t8t 1t1t E E S C"
K_WEST = "9s9s 4t 2t3t 6m6m 8m8m 3m3m W P"
K_NORTH = "4s5s 9t9t 5s 5m 7t 1t 2t 3t 2m 4m N"
# ordinary draws: South, North, East, South, West (the last 9s)
K_FRONT = "F S W F 9s"


def _pass_window(table) -> None:
    while table.phase in ("claim", "rob"):
        for s in table.waiting_for():
            table.apply(Action.of(s, "pass"))


async def added_kong(monkeypatch, east: str, seats=("human", "ai:baseline", "human", "ai:baseline"), calls=None):
    """West at the keyboard on its turn, holding the fourth 9s to a pung of 9s."""
    from mahjong_tui.engine import Table

    variant = load_variant("singapore")
    monkeypatch.setattr(Table, "_choose_first_dealer", lambda self: 0)
    rig_first_hand(monkeypatch, rigged_wall(variant, 0, [h.replace(" ", "") for h in (east, K_SOUTH, K_WEST, K_NORTH)],
                                            front=K_FRONT))
    session = GameSession(variant, 5, list(seats), hands=1, bot_delay=0)
    t = session.table

    def do(seat, kind, tile):
        t.apply(Action.of(seat, kind, T.parse_tile(tile)))

    do(0, "discard", "N")
    _pass_window(t)
    do(1, "discard", "9s")
    do(2, "pung", "9s")
    _pass_window(t)
    do(2, "discard", "W")
    _pass_window(t)
    for seat, tile in ((3, "S"), (0, "W"), (1, "F")):
        do(seat, "discard", tile)
        _pass_window(t)
    assert t.phase == "turn" and t.current == 2
    kong = Action.of(2, "added_kong", T.parse_tile("9s"))
    assert kong in t.legal_actions(2)

    class Kong(FakePresenter):
        def _answer(self, req) -> None:
            if kong in req.legal:
                self.session.answer(kong)
            else:
                super()._answer(req)

    presenter = Kong(session, stop_after=2 if calls else 1, calls=calls)
    session.keyboard = 2 if len(session.humans) > 1 else session.keyboard
    await run(session, presenter)
    return session, presenter


@pytest.mark.parametrize("calls", [None, call_all], ids=["nobody-calls", "everybody-calls"])
async def test_the_window_after_an_added_kong_does_not_depend_on_the_other_hand(monkeypatch, calls):
    a_session, a = await added_kong(monkeypatch, K_EAST_WAIT, calls=calls)
    b_session, b = await added_kong(monkeypatch, K_EAST_NONE, calls=calls)
    nine = a_session.table.actions[1].tile
    # East could rob the kong in one deal and not in the other ...
    assert Action.of(0, "win", nine) in a_session.table.legal_actions(0) or \
        any(x == Action.of(0, "pass") for x in a_session.table.actions[-3:])
    assert not any(seat == 0 and any(x.kind == "win" for x in legal) for seat, legal in b.prompts)
    # ... the same public window follows the kong either way (East has a key), then West goes
    # on with its turn after one hand-over; a call brings East the keyboard first, on the same
    # words in both deals
    called = (0,) if calls else ()
    assert a.windows == b.windows == [(2, "kong", "9s", (0,), called)]
    assert not a.closed_early and not b.closed_early
    want = ([(0, "claim", "called to rob Player 3's kong of 9s")] if calls else []) + [(2, "turn", "is to play")]
    assert a.handoffs == b.handoffs == want
    if calls:  # behind the privacy screen: the rob prompt, or "Nothing to rob"
        assert any(seat == 0 and Action.of(0, "win", nine) in legal for seat, legal in a.prompts)
        assert b.notes[:1] == [(0, "Nothing to rob on 9s.")] and not a.notes
        seen_a = until_first_handoff_to(a, 0)
        assert seen_a and seen_a == until_first_handoff_to(b, 0)
    else:  # East's chance passed unseen
        assert not any(seat == 0 for seat, _legal in a.prompts) and not a.notes and not b.notes
        seen_a = before_handoff(a)
        assert seen_a and seen_a[-1][0] is None and seen_a == before_handoff(b)
    # the kong stood in both deals
    assert all(any(x.kind == "added_kong" for x in s.table.actions) for s in (a_session, b_session))


async def test_one_human_sees_no_rob_rounds(monkeypatch):
    session, presenter = await added_kong(monkeypatch, K_EAST_WAIT,
                                          seats=("ai:baseline", "ai:baseline", "human", "ai:baseline"))
    assert presenter.handoffs == [] and presenter.notes == [] and session.claim_round is None
    # East, a bot here, robbed the kong: the table asked it without a hand-over
    assert session.table.phase == "match_over"


async def test_robbing_the_eighth_flower_is_a_window_for_every_other_person(monkeypatch):
    # Singapore: West (a person) sets aside seven flowers and seasons at the deal (public);
    # South (a bot) then draws the eighth.  Every person but South gets a key in the public
    # window; both call: East (first after South) reads "Nothing to rob", then West its rob
    # prompt.
    from mahjong_tui.engine import Table

    variant = load_variant("singapore")
    monkeypatch.setattr(Table, "_choose_first_dealer", lambda self: 0)
    west = "h i j k o p q 2t3t 6m6m 8m8m".replace(" ", "")
    rig_first_hand(monkeypatch, rigged_wall(variant, 0, [h.replace(" ", "") for h in (K_EAST_NONE, K_SOUTH, west, K_NORTH)],
                                            front="r", back="3m3m W P 4t 5t 9t"))
    session = GameSession(variant, 5, ["human", "ai:baseline", "human", "ai:baseline"], hands=1, bot_delay=0)
    assert sorted(session.table.bonus[2]) == sorted(T.SEASONS_AND_FLOWERS - {T.parse_tile("r")})
    presenter = FakePresenter(session, script={0: ["N"]}, stop_after=3, calls=call_all)
    session.keyboard = 0
    await run(session, presenter)
    assert presenter.windows == [(0, "discard", "N", (2,), (2,)), (1, "bonus", "Bamboo", (2, 0), (2, 0))]
    assert presenter.handoffs == [(2, "claim", "called Player 1's discard"),
                                  (0, "claim", "called to rob Bot 2's eighth flower, Bamboo"),
                                  (2, "claim", "called to rob Bot 2's eighth flower, Bamboo")]
    assert presenter.notes == [(2, "Nothing to claim on N."), (0, "Nothing to rob on Bamboo.")]
    assert any(seat == 2 and Action.of(2, "win", T.parse_tile("r")) in legal for seat, legal in presenter.prompts)


# -- an Uzje concealed kong, two hidden hands ------------------------------------------------------

# Uzje (uzje.md "How a game goes", 4b: a thirteen- or fourteen-orphans hand may rob any quad, a
# concealed one too): the dealer (a person) declares a concealed kong of East winds; the
# person across holds thirteen orphans waiting on East, or a plain hand.  The table opens the
# robbing window either way, so that person gets the keyboard either way.
UZ_DEALER = "EEEE123m456m789mC"
UZ_ORPHANS = "1ft1fs1fmSWNCFPP"    # thirteen orphans waiting on E (tests/test_uzje_engine.py)
UZ_PLAIN = "46s123s789s11mFFF"     # waits on 5s


async def concealed_kong(east_wind_holder: str, calls=None):
    from mahjong_tui.engine import Table

    from tests.helpers import set_hand

    variant = load_variant("uzje")
    dealer = Table(variant, 5, hands=1).dealer  # the breaker the seed picks
    other = (dealer + 2) % 4
    seats = ["ai:baseline"] * 4
    seats[dealer] = seats[other] = "human"
    session = GameSession(variant, 5, seats, hands=1, bot_delay=0)
    t = session.table
    assert t.current == dealer and t.phase == "turn"
    t.wall.indicators[:] = [T.parse_tile("dm")]  # a bonus tile none of the rigged hands holds
    set_hand(t, dealer, UZ_DEALER)
    set_hand(t, other, east_wind_holder)
    t.invalidate_caches()
    kong = Action.of(dealer, "concealed_kong", T.EAST)
    assert kong in t.legal_actions(dealer)

    class Kong(FakePresenter):
        def _answer(self, req) -> None:
            if kong in req.legal:
                self.session.answer(kong)
            else:
                super()._answer(req)

    presenter = Kong(session, stop_after=2 if calls else 1, calls=calls)
    session.keyboard = dealer
    await run(session, presenter)
    return session, presenter, dealer, other


@pytest.mark.parametrize("calls", [None, call_all], ids=["nobody-calls", "everybody-calls"])
async def test_the_window_after_an_uzje_concealed_kong_does_not_depend_on_the_other_hand(calls):
    a_session, a, dealer, other = await concealed_kong(UZ_ORPHANS, calls)
    b_session, b, _, _ = await concealed_kong(UZ_PLAIN, calls)
    who = a_session.name(dealer)
    # the same public window after the kong in both deals; the person across has a key
    assert a.windows == b.windows == [(dealer, "kong", "E", (other,), (other,) if calls else ())]
    assert not a.closed_early and not b.closed_early
    want = ([(other, "claim", f"called to rob {who}'s kong of E")] if calls else []) + [(dealer, "turn", "is to play")]
    assert a.handoffs == b.handoffs == want
    if calls:
        # the orphans could rob the kong in one deal (offered, passed) and not in the other
        assert any(seat == other and Action.of(other, "win", T.EAST) in legal for seat, legal in a.prompts)
        assert not any(seat == other and any(x.kind == "win" for x in legal) for seat, legal in b.prompts)
        assert b.notes[:1] == [(other, "Nothing to rob on E.")] and not a.notes
        seen_a = until_first_handoff_to(a, other)
    else:
        assert not any(seat == other for seat, _legal in a.prompts)
        seen_a = before_handoff(a)
        assert seen_a and seen_a[-1][0] is None and seen_a == before_handoff(b)
        return
    assert seen_a and seen_a == until_first_handoff_to(b, other)
