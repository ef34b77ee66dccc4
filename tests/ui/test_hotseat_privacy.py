"""Hot-seat claim rounds (ui/session.py, "Claim rounds"): when the keyboard changes hands
depends on public information only.

A :class:`GameSession` is driven by a fake presenter (no Textual): it accepts every privacy
screen at once and answers the human seats' requests (turns: the baseline bot's discard;
claim prompts: pass).  What is compared is what the players at the keyboard could see: the
hand-overs (to whom, and what the privacy screen says before the key) and every table drawn
while a given seat held the keyboard.  The last test drives the real app with Pilot.
"""

from __future__ import annotations

import asyncio
import json

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
    then the baseline bot's; every claim prompt is passed.  Records hand-overs and what was
    drawn for the seat at the keyboard; stops the session after ``stop_after`` hand-overs."""

    def __init__(self, session: GameSession, script: dict | None = None, stop_after: int | None = None):
        self.session = session
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.stop_after = stop_after
        self.bots = {h: make_bot("ai:baseline", session.variant, h, 0) for h in session.humans}
        self.handoffs: list[tuple] = []   # (seat, kind, why): what everybody may see
        self.notes: list[tuple] = []      # (seat, then): seen by that seat alone
        self.drawn: list[tuple] = []      # (keyboard, view as JSON, status line, prompt)
        self.prompts: list[tuple] = []    # (seat, legal) of every request put on screen
        self._answered: set = set()  # the requests themselves (an id could be reused)

    def _look(self) -> None:
        s = self.session
        req = s.request_now
        prompt = tuple(a.describe() for a in req.legal) if req is not None else ()
        frame = (s.keyboard, json.dumps(s.view(), sort_keys=True, default=str), s.last_text, prompt)
        if not self.drawn or self.drawn[-1] != frame:  # drawn again unchanged: nobody can tell
            self.drawn.append(frame)

    def table_changed(self) -> None:
        self._look()

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


async def one_discard(monkeypatch, west: str, seats=("human", "ai:baseline", "human", "ai:baseline")):
    from mahjong_tui.engine import Table

    variant = load_variant("yangzhou")
    monkeypatch.setattr(Table, "_choose_first_dealer", lambda self: 0)  # East deals the rigged hand
    rig_first_hand(monkeypatch, rigged_wall(variant, 0, [h.replace(" ", "") for h in (EAST, SOUTH, west, NORTH)], front="1m 2m 3m 4m 5m 6m 7m 8m"))
    session = GameSession(variant, 5, list(seats), hands=1, bot_delay=0)
    presenter = FakePresenter(session, script={0: ["9s"]}, stop_after=3)
    session.keyboard = 0  # East is at the keyboard (it was handed over before the game)
    await run(session, presenter)
    return session, presenter


def until_first_handoff_to(presenter: FakePresenter, seat: int) -> list[tuple]:
    """What was drawn for the keyboard's seat before the keyboard first went to ``seat``."""
    out = []
    for d in presenter.drawn:
        if d[0] == seat:
            break
        out.append(d)
    return out


async def test_the_hand_over_after_a_discard_does_not_depend_on_the_other_hand(monkeypatch):
    a_session, a = await one_discard(monkeypatch, WEST_PAIR)
    b_session, b = await one_discard(monkeypatch, WEST_NONE)
    # West could pung the 9s in one deal and not in the other: its claim is still offered ...
    west_a = [legal for seat, legal in a.prompts if seat == 2]
    assert west_a and Action.of(2, "pung", a_session.table.actions[0].tile) in west_a[0]
    nine = a_session.table.actions[0].tile
    assert not any(seat == 2 and any(x.tile == nine and x.kind != "discard" for x in legal) for seat, legal in b.prompts)
    # ... and West is handed the keyboard right after the discard either way, on the same words
    assert a.handoffs[0] == b.handoffs[0] == (2, "claim", "may claim Player 1's discard")
    assert a.handoffs == b.handoffs
    # without a claim West reads "Nothing to claim on 9s" (alone: the table is still hidden)
    assert b.notes[0] == (2, "Nothing to claim on 9s.") and not any(seat == 2 and "9s" in n for seat, n in a.notes)
    # East, at the keyboard until then, saw the same tables, status lines and prompts
    seen_a = until_first_handoff_to(a, 2)
    seen_b = until_first_handoff_to(b, 2)
    assert seen_a and seen_a == seen_b


async def test_one_human_sees_no_claim_rounds(monkeypatch):
    # one person and three bots: no round, no privacy screen, the live table at every step
    session, presenter = await one_discard(monkeypatch, WEST_PAIR, seats=("human", "ai:baseline", "ai:baseline", "ai:baseline"))
    assert presenter.handoffs == [] and presenter.notes == []
    assert session.claim_round is None and not session.hot_seat


# -- a whole seeded hand ------------------------------------------------------------------------

async def test_a_hot_seat_hand_hands_over_by_public_information_only():
    # The play-tester's table: Classic, seed 21, people at East and South, bots at West and
    # North; the people pass every claim.  Between two discards, who is handed the keyboard
    # (and what the screen says) must be the same whenever the public situation is (who
    # discarded, who was at the keyboard, what the table did next) — whether or not the other
    # person could have claimed.  Every legal claim is offered.
    variant = load_variant(CLASSIC)
    session = GameSession(variant, 21, ["human", "human", "ai:baseline", "ai:baseline"], hands=1, bot_delay=0)
    presenter = FakePresenter(session)
    table = session.table
    discards: list[dict] = []   # per discard: who, the keyboard then, who could claim
    original_apply = table.apply

    def apply(action):
        keyboard = session.keyboard
        n_handoffs = len(presenter.handoffs)
        events = original_apply(action)
        if action.kind == "discard":
            discards.append({"seat": action.seat, "keyboard": keyboard, "at": n_handoffs,
                             "actions_at": len(table.actions),
                             # the table asks every seat; one that cannot claim has only pass
                             "can_claim": {h: list(table.legal_actions(h)) for h in session.humans
                                           if table.phase == "claim"
                                           and table.legal_actions(h) not in ([], [Action.of(h, "pass")])}})
        return events

    table.apply = apply
    await run(session, presenter)
    assert table.phase == "match_over" and len(discards) > 20
    # public situation -> hand-overs until the next discard
    patterns: dict[tuple, set] = {}
    could: dict[tuple, set] = {}
    for i, d in enumerate(discards):
        nxt = discards[i + 1] if i + 1 < len(discards) else None
        end = nxt["at"] if nxt else len(presenter.handoffs)
        later = table.actions[d["actions_at"]:nxt["actions_at"] - 1 if nxt else len(table.actions)]
        public = tuple(a.describe() for a in later if a.kind != "pass")
        key = (d["seat"], d["keyboard"], public)
        patterns.setdefault(key, set()).add(tuple(presenter.handoffs[d["at"]:end]))
        other = [h for h in session.humans if h not in (d["seat"], (d["seat"] + 1) % 4)]
        could.setdefault(key[:2], set()).add(tuple(bool(d["can_claim"].get(h)) for h in other))
        # every person but the discarder got a window: the keyboard went to each one not
        # already holding it
        handed = {h for h, _k, _w in presenter.handoffs[d["at"]:end]}
        assert {h for h in session.humans if h not in (d["seat"], d["keyboard"])} <= handed, (i, d)
    assert all(len(p) == 1 for p in patterns.values()), {k: p for k, p in patterns.items() if len(p) > 1}
    # the test means something: the same public situation came both with and without a claim
    assert any(len(c) > 1 for c in could.values()), could
    # every legal claim was put on screen, as the table listed it
    offered = [(seat, legal) for seat, legal in presenter.prompts if not any(a.kind == "discard" for a in legal)]
    wanted = [(h, legal) for d in discards for h, legal in sorted(d["can_claim"].items())]
    assert sorted(map(repr, offered)) == sorted(map(repr, wanted))
    assert any(any(a.kind in ("pung", "kong", "win") for a in legal) for _s, legal in offered)


# -- the real app -------------------------------------------------------------------------------

async def test_pilot_every_bot_discard_hands_the_keyboard_over():
    # seed 21, people at East and South (the repro): every discard by West or North is followed
    # by a privacy screen for the person not at the keyboard; some of them end in "Nothing to
    # claim", read behind the still opaque screen.
    app = make_app(seats=("human", "human", "ai", "ai"), seed=21, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        notes: list[str] = []
        windows = 0
        for _ in range(600):
            await wait_for(pilot, lambda: my_request(app) is not None
                           or isinstance(app.screen, (PrivacyScreen, HandEndScreen)))
            if isinstance(app.screen, HandEndScreen):
                break
            if isinstance(app.screen, PrivacyScreen):
                windows += app.screen.why.startswith("may claim")
                notes += await accept_privacy(pilot, app)
                continue
            req = my_request(app)
            t = table_screen(app)
            action = (next(a for a in req.legal if a.kind == "pass") if not req.is_turn
                      else make_bot("ai:baseline", t.session.variant, req.seat, 0).choose(req.view, req.legal))
            await press_action(pilot, app, action)
            await wait_for(pilot, lambda: my_request(app) is not req)
        assert isinstance(app.screen, HandEndScreen)
        table = table_screen(app).session.table
    assert any(n.startswith("Nothing to claim on ") for n in notes)
    bot_discards = sum(1 for a in table.actions if a.kind == "discard" and a.seat in (2, 3))
    assert windows >= bot_discards


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


async def added_kong(monkeypatch, east: str, seats=("human", "ai:baseline", "human", "ai:baseline")):
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

    presenter = Kong(session, stop_after=2)
    session.keyboard = 2 if len(session.humans) > 1 else session.keyboard
    await run(session, presenter)
    return session, presenter


async def test_the_hand_over_after_an_added_kong_does_not_depend_on_the_other_hand(monkeypatch):
    a_session, a = await added_kong(monkeypatch, K_EAST_WAIT)
    b_session, b = await added_kong(monkeypatch, K_EAST_NONE)
    nine = a_session.table.actions[1].tile
    # East could rob the kong in one deal (offered, passed) and not in the other ...
    assert any(seat == 0 and Action.of(0, "win", nine) in legal for seat, legal in a.prompts)
    assert not any(seat == 0 and any(x.kind == "win" for x in legal) for seat, legal in b.prompts)
    # ... East gets the keyboard right after the kong either way, on the same words, then West
    # goes on with its turn
    assert a.handoffs == b.handoffs == [(0, "claim", "may rob Player 3's kong of 9s"), (2, "turn", "is to play")]
    assert b.notes[:1] == [(0, "Nothing to rob on 9s.")] and not a.notes
    # West, at the keyboard until then, saw the same tables, status lines and prompts
    seen_a = until_first_handoff_to(a, 0)
    seen_b = until_first_handoff_to(b, 0)
    assert seen_a and seen_a == seen_b
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
    # South (a bot) then draws the eighth.  Every person but South gets a window: West, at the
    # keyboard after East's discard, its rob prompt; then East, behind the privacy screen,
    # "Nothing to rob".
    from mahjong_tui.engine import Table

    variant = load_variant("singapore")
    monkeypatch.setattr(Table, "_choose_first_dealer", lambda self: 0)
    west = "h i j k o p q 2t3t 6m6m 8m8m".replace(" ", "")
    rig_first_hand(monkeypatch, rigged_wall(variant, 0, [h.replace(" ", "") for h in (K_EAST_NONE, K_SOUTH, west, K_NORTH)],
                                            front="r", back="3m3m W P 4t 5t 9t"))
    session = GameSession(variant, 5, ["human", "ai:baseline", "human", "ai:baseline"], hands=1, bot_delay=0)
    assert sorted(session.table.bonus[2]) == sorted(T.SEASONS_AND_FLOWERS - {T.parse_tile("r")})
    presenter = FakePresenter(session, script={0: ["N"]}, stop_after=2)
    session.keyboard = 0
    await run(session, presenter)
    assert presenter.handoffs == [(2, "claim", "may claim Player 1's discard"),
                                  (0, "claim", "may rob Bot 2's eighth flower, Bamboo")]
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


async def concealed_kong(east_wind_holder: str):
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

    presenter = Kong(session, stop_after=2)
    session.keyboard = dealer
    await run(session, presenter)
    return session, presenter, dealer, other


async def test_the_hand_over_after_an_uzje_concealed_kong_does_not_depend_on_the_other_hand():
    a_session, a, dealer, other = await concealed_kong(UZ_ORPHANS)
    b_session, b, _, _ = await concealed_kong(UZ_PLAIN)
    # the orphans could rob the kong in one deal (offered, passed) and not in the other ...
    assert any(seat == other and Action.of(other, "win", T.EAST) in legal for seat, legal in a.prompts)
    assert not any(seat == other and any(x.kind == "win" for x in legal) for seat, legal in b.prompts)
    # ... the person across gets the keyboard right after the kong either way, on the same
    # words, then the dealer goes on with its turn
    who = a_session.name(dealer)
    assert a.handoffs == b.handoffs == [(other, "claim", f"may rob {who}'s kong of E"), (dealer, "turn", "is to play")]
    assert b.notes[:1] == [(other, "Nothing to rob on E.")] and not a.notes
    # the dealer, at the keyboard until then, saw the same tables, status lines and prompts
    seen_a = until_first_handoff_to(a, other)
    seen_b = until_first_handoff_to(b, other)
    assert seen_a and seen_a == seen_b
