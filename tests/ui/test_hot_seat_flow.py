"""Hot-seat that plays like a physical table (issue 22, item 1; ui/session.py, "Claim rounds"):
after each discard a public call window, a call key per person, and the keyboard handed over
only to a person whose turn it is or who called.

Two people (East and South) and two ``ai:baseline`` bots play Classic with auto-draw on (as a
new Classic table starts).  Each person calls a discard when his own hand could claim it with
a chow, pung, kong or win (what a player knows of his own hand; the test reads it from the
table), and then decides as the baseline bot would (he may still pass).  Hand-overs are the
privacy screens ("Pass the keyboard to …").

The figure (measured with :func:`test_twenty_hands_need_no_more_hand_overs_than_turns_and_calls`,
seeds 0-19): **27.2 hand-overs per hand**, for 25.6 turns and 7.2 calls of the two people a
hand on average (545 hand-overs, 511 turns, 144 calls over 20 hands; a call that claims the
tile and the turn it brings share one hand-over).  The flow before the call window (one
claim window per person per discard, each behind a hand-over), measured on the same 20 hands
with the same players and auto-draw on: 1041 hand-overs, 52.1 a hand (the play-tester counted
about 77 screens in one hand: 59 "Pass the keyboard" and 18 "Nothing to claim").
"""

from __future__ import annotations

import asyncio

from mahjong_tui.ai.baseline import make_bot
from mahjong_tui.ui.screens.dialogs import PrivacyScreen
from mahjong_tui.ui.screens.results import HandEndScreen
from mahjong_tui.ui.session import GameSession
from mahjong_tui.variant import load_variant
from tests.ui.helpers import accept_privacy, make_app, my_request, press_action, table_screen, wait_for

CLAIMS = {"chow", "pung", "kong", "win"}


def wants_to_call(table, seat: int) -> bool:
    """Would a person at ``seat`` call the tile on the table?  Only if his hand can claim it
    with a meld or a win (his own hand: what he knows)."""
    return table.phase in ("claim", "rob") and any(a.kind in CLAIMS for a in table.legal_actions(seat))


class Player:
    """The people's side of a session without a screen: accepts each hand-over at once, calls
    as :func:`wants_to_call` says, closes every window, and answers each prompt as the
    baseline bot would."""

    def __init__(self, session: GameSession):
        self.session = session
        session.call_seconds = 3600  # only the players close a window
        self.bots = {h: make_bot("ai:baseline", session.variant, h, 0) for h in session.humans}
        self.handoffs = 0
        self.calls = 0
        self._seen: set = set()

    def table_changed(self) -> None:
        rnd = self.session.call_window()
        if rnd is not None and rnd not in self._seen:
            self._seen.add(rnd)  # the objects (an id could be reused)
            asyncio.get_running_loop().call_soon(self._window, rnd)

    def _window(self, rnd) -> None:
        s = self.session
        for seat in rnd.keys:
            if wants_to_call(s.table, seat) and s.call(seat):
                self.calls += 1
        s.close_call_window()

    def request_changed(self) -> None:
        req = self.session.request_now
        if req is not None and req not in self._seen:
            self._seen.add(req)
            asyncio.get_running_loop().call_soon(
                lambda: self.session.answer(self.bots[req.seat].choose(req.view, req.legal)))

    def event_text(self, text: str) -> None:
        pass

    async def privacy(self, seat: int, take) -> None:
        self.handoffs += 1
        take()

    async def hand_over(self, summary: dict, last=None) -> None:
        pass

    async def match_over(self) -> None:
        pass


async def one_hand(seed: int) -> tuple[int, int, int]:
    """(hand-overs, the people's turns, their calls) of one Classic hand."""
    session = GameSession(load_variant("classic"), seed, ["human", "human", "ai:baseline", "ai:baseline"],
                          hands=1, bot_delay=0)
    for h in session.humans:
        session.set_auto_draw(h, True)
    player = Player(session)
    session.presenter = player
    await asyncio.wait_for(session.play(), 120)
    assert session.table.phase == "match_over"
    turns = sum(1 for a in session.table.actions if a.seat in session.humans and a.kind == "discard")
    return player.handoffs, turns, player.calls


async def test_twenty_hands_need_no_more_hand_overs_than_turns_and_calls():
    totals = [0, 0, 0]
    for seed in range(20):
        handoffs, turns, calls = await one_hand(seed)
        # a turn that ends the hand (a self-drawn win) has no discard: one hand-over more
        assert handoffs <= turns + calls + 1, (seed, handoffs, turns, calls)
        for i, x in enumerate((handoffs, turns, calls)):
            totals[i] += x
    handoffs, turns, calls = totals
    print(f"\n20 Classic hands, two people: {handoffs} hand-overs ({handoffs / 20:.1f} a hand), "
          f"{turns} turns, {calls} calls")
    assert calls > 0  # the people did call
    assert handoffs <= turns + calls + 20
    assert handoffs / 20 < 40  # 52.1 a hand on these 20 hands before the call window


async def test_pilot_a_two_human_classic_hand_to_its_end():
    # The real app, seed 21 (the play-tester's table): each call window is answered with the
    # keys a player presses — his number to call, Space for "no calls" — and each hand-over
    # with a key.  Counted: the privacy screens, against the people's turns and calls.
    app = make_app(seats=("human", "human", "ai", "ai"), seed=21, hands=1)
    app.call_seconds = 3600  # the window waits for the keys
    handoffs = calls = windows = 0
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(800):
            await wait_for(pilot, lambda: my_request(app) is not None
                           or isinstance(app.screen, (PrivacyScreen, HandEndScreen))
                           or (table_screen(app) is not None and app.screen is table_screen(app)
                               and table_screen(app).session.call_window() is not None))
            if isinstance(app.screen, HandEndScreen):
                break
            if isinstance(app.screen, PrivacyScreen):
                handoffs += 1
                await accept_privacy(pilot, app)
                continue
            t = table_screen(app)
            s = t.session
            rnd = s.call_window()
            if rnd is not None:
                windows += 1
                # the window names the seats that may call, each with its key
                bar = " ".join(t.query_one("ActionBar").plain_lines())
                assert "call?" in bar and all(f"{k + 1} " in bar for k in rnd.keys)
                callers = [k for k in rnd.keys if wants_to_call(s.table, k)]
                for k in callers:
                    await pilot.press(str(k + 1))
                calls += len(callers)
                if s.call_window() is rnd:
                    await pilot.press("space")
                await wait_for(pilot, lambda: s.call_window() is not rnd)
                continue
            req = my_request(app)
            await press_action(pilot, app, make_bot("ai:baseline", s.variant, req.seat, 0).choose(req.view, req.legal))
            await wait_for(pilot, lambda: my_request(app) is not req)
        assert isinstance(app.screen, HandEndScreen)
        table = table_screen(app).session.table
    turns = sum(1 for a in table.actions if a.seat in (0, 1) and a.kind == "discard")
    discards = sum(1 for a in table.actions if a.kind == "discard")
    print(f"\nseed 21: {handoffs} hand-overs, {turns} turns, {calls} calls, {windows} windows")
    assert windows >= discards - 1  # a window after every discard (the last may end the hand)
    assert handoffs <= turns + calls + 1
