"""The move log of the hand (issue 21, item 5; ui/movelog.py, widgets/movelog.py).

- in the real app at 120x40 it is beside the table and says what the status line said, move by
  move; at 80x24 it is not on the table, and ``l`` shows it (and closes it again);
- a person's pass in a claim window is in that person's log alone (at a hot-seat table the
  other person's log does not say it), after the discard it passed on.
"""

from __future__ import annotations

from mahjong_tui.ui.movelog import MoveLog
from mahjong_tui.ui.screens.movelog import MoveLogScreen
from mahjong_tui.ui.widgets.movelog import MoveLogPanel, log_lines
from tests.ui.helpers import make_app, play, table_screen, wait_for


def flat(lines) -> str:
    """The log's words without the wrapping (and the winds at the line starts)."""
    return " ".join(" ".join(ln.split()) for ln in lines)


async def test_the_log_is_beside_the_table_at_120x40_and_behind_l_at_80x24():
    for size in ((120, 40), (80, 24)):
        app = make_app(variant="yuxi", seed=3, hands=1)
        async with app.run_test(size=size) as pilot:
            await play(pilot, app, turns=3, pass_claims=True)
            await pilot.pause()
            s = table_screen(app).session
            said = s.last_text
            mine = [e.text for e in s.moves.visible(s.perspective)]
            assert said and said == mine[-1]            # the status line's words, the newest last
            assert mine[0].startswith("Hand 1:")        # the hand's log starts with its deal
            assert sum(t.startswith("You discard") for t in mine) >= 2
            panel = app.screen.query_one(MoveLogPanel)
            if size == (120, 40):
                assert panel.display and panel.size.width >= 26
                shown = flat(panel.plain_lines())
                assert said in shown and all(t in shown for t in mine[-5:])
                continue
            assert panel.size.width == 0 or not panel.display  # no room beside the table
            await pilot.press("l")
            await wait_for(pilot, lambda: isinstance(app.screen, MoveLogScreen))
            text = flat(ln.plain for ln in log_lines(app.screen.box, 68))
            assert all(t in text for t in mine)
            await pilot.press("l")
            await wait_for(pilot, lambda: not isinstance(app.screen, MoveLogScreen))


async def test_a_pass_is_in_the_passer_s_log_alone():
    """Hot-seat (Player 1 and Player 3 at one keyboard): Player 3 passes on Player 1's 9s; the
    line is in Player 3's log, not in Player 1's, and while the claim round lasts it waits, as
    the discard's own line does, so it comes after it."""
    import asyncio

    from mahjong_tui.engine import Action
    from mahjong_tui.ui.session import ClaimRound, GameSession, Request
    from mahjong_tui.variant import load_variant

    session = GameSession(load_variant("yangzhou"), 5, ["human", "ai:baseline", "human", "ai:baseline"],
                          hands=1, bot_delay=0)
    view = session.table.view(2)
    view = {**view, "discard": {"seat": 0, "tile": "9s"}}
    loop = asyncio.get_running_loop()
    # in a claim round: the discard and the pass are held, told in order when it ends
    session.claim_round = ClaimRound(0, "9s", 0, [2], {2}, None, {})
    session.note_event({"type": "discard", "seat": 0, "tile": "9s"})
    req = Request(2, view, [Action(2, "pass")], loop.create_future())
    assert session.resolve(req, Action(2, "pass"))
    assert [e.text for e in session.moves.visible(2)][-1:] != ["Player 3 passes on 9s"]
    session._end_round()
    lines = [e.text for e in session.moves.visible(2)]
    assert lines[-2:] == ["Player 1 discards 9s", "Player 3 passes on 9s"]
    assert "Player 3 passes on 9s" not in [e.text for e in session.moves.visible(0)]
    assert [e.text for e in session.moves.visible(0)][-1] == "Player 1 discards 9s"
    # outside a round (one person at the table, or a LAN seat): at once
    req = Request(2, view, [Action(2, "pass")], loop.create_future())
    session.resolve(req, Action(2, "pass"))
    assert [e.text for e in session.moves.visible(2)][-1] == "Player 3 passes on 9s"
    assert [e.text for e in session.moves.visible(0)][-1] == "Player 1 discards 9s"
    session._bots.shutdown(wait=False)


def test_a_new_hand_starts_a_new_log_and_private_lines_stay_private():
    log = MoveLog()
    log.add_event({"type": "hand_start", "hand": 0, "dealer": 1}, "Hand 1: Bot 2 deals")
    log.add_event({"type": "discard", "seat": 1, "tile": "5m"}, "Bot 2 discards 5m")
    log.add_private(0, "You pass on 5m")
    assert [e.text for e in log.visible(0)] == ["Hand 1: Bot 2 deals", "Bot 2 discards 5m", "You pass on 5m"]
    assert [e.text for e in log.visible(2)] == ["Hand 1: Bot 2 deals", "Bot 2 discards 5m"]
    assert log.visible(0)[0].seat == 1
    log.add_event({"type": "hand_start", "hand": 1, "dealer": 2}, "Hand 2: Bot 3 deals")
    assert [e.text for e in log.visible(0)] == ["Hand 2: Bot 3 deals"]


def test_a_claimed_kong_is_one_line():
    log = MoveLog()
    log.add_event({"type": "claim", "seat": 1, "kind": "kong", "tile": "E", "from": 0}, "Bot 2 kongs E from You")
    log.add_event({"type": "kong", "seat": 1, "tile": "E", "kong_type": "exposed"}, "Bot 2 declares an exposed kong of E")
    log.add_event({"type": "claim", "seat": 2, "kind": "pung", "tile": "5m", "from": 1}, "Bot 3 pungs 5m from Bot 2")
    log.add_event({"type": "kong", "seat": 2, "tile": "9s", "kong_type": "concealed"}, "Bot 3 declares a concealed kong of 9s")
    assert [e.text for e in log.visible(0)] == ["Bot 2 kongs E from You", "Bot 3 pungs 5m from Bot 2",
                                                "Bot 3 declares a concealed kong of 9s"]


async def test_a_replay_logs_the_steps_of_the_hand_shown(tmp_path):
    from mahjong_tui.ui.screens.replay import ReplayScreen
    from tests.ui.test_screens import finished_log

    app = make_app(command="replay", log=finished_log(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        r = app.screen
        await pilot.press("right", "right", "right", "right")
        await pilot.pause()
        panel = app.screen.query_one(MoveLogPanel)
        assert [words for _, words, _ in panel.box.lines] == [st.text for st in r.steps[:r.pos + 1]]
        assert r.steps[r.pos].text.split(" · ")[0] in flat(panel.plain_lines())
        await pilot.press("pagedown")  # the next hand: its own log, from its deal
        await pilot.pause()
        assert panel.box.lines[0][1].startswith("Hand 2: the deal")
        await pilot.press("l")  # and behind 'l', as at the table
        await wait_for(pilot, lambda: isinstance(app.screen, MoveLogScreen))
        assert app.screen.box == panel.box


async def test_a_resumed_game_has_the_hand_so_far_in_its_log(tmp_path):
    """Issue 21: the move log is rebuilt from the table when a saved game is resumed (it was
    empty): the same public lines as before the save (a seat's own passes aside)."""
    from mahjong_tui.engine.log import GameLog
    from tests.ui.helpers import my_request, save_and_leave

    save = tmp_path / "game.jsonl"
    app = make_app(seed=32, hands=2)
    async with app.run_test(size=(120, 40)) as pilot:
        await play(pilot, app, turns=4, pass_claims=True)
        s = table_screen(app).session
        before = [e.text for e in s.moves.visible(None)]
        await save_and_leave(pilot, app, save)
    assert len(before) > 8 and before[0].startswith("Hand 1:")
    resumed = make_app(command="resume", log=GameLog.load(save))
    async with resumed.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: my_request(resumed) is not None)
        await pilot.pause()
        s = table_screen(resumed).session
        assert [e.text for e in s.moves.visible(None)] == before
        shown = flat(resumed.screen.query_one(MoveLogPanel).plain_lines())
        assert before[-1] in shown


def test_the_hand_so_far_read_back_from_a_view_is_the_table_s_own_order():
    """A LAN table joined mid-hand has only the view: its discards and calls are read back in
    turn order (events_from_view) and, whenever that is possible, they are exactly the table's
    own discard and claim events so far; where it is not (a pickup makes no meld), it says so."""
    import random

    from mahjong_tui.engine import Table
    from mahjong_tui.ui.movelog import FROM_VIEW, FROM_VIEW_UNKNOWN, events_from_view, rebuild_from_view
    from mahjong_tui.variant import load_variant
    from tests.helpers import play_random

    read = {"ok": 0, "unknown": 0}
    for variant in ("classic", "yuxi", "yangzhou", "singapore", "uzje"):
        table = Table(load_variant(variant), 7, 1)

        def check(t: Table) -> None:
            if t.phase != "turn":
                return
            view = t.view(2)
            got = events_from_view(view)
            real = [{k: e[k] for k in ("type", "seat", "tile")} for e in t.events if e["type"] in ("discard", "claim")]
            if got is None:
                read["unknown"] += 1
                log = MoveLog()
                assert rebuild_from_view(log, view, lambda ev: "x") == bool(real)
                assert not real or [e.text for e in log.entries] == [FROM_VIEW_UNKNOWN]
                return
            read["ok"] += 1
            assert [{k: e[k] for k in ("type", "seat", "tile")} for e in got] == real
            claims = [e for e in t.events if e["type"] == "claim"]
            assert [(e["from"], e["seat"]) for e in got if e["type"] == "claim"] == [(e["from"], e["seat"]) for e in claims]
            log = MoveLog()
            if real:
                assert rebuild_from_view(log, view, lambda ev: f"{ev['type']} {ev['tile']}")
                assert [e.text for e in log.entries] == [FROM_VIEW] + [f"{e['type']} {e['tile']}" for e in real]

        play_random(table, random.Random(7), check=check)
    assert read["ok"] > 100  # (the order is read back in most positions)


async def test_a_lan_table_joined_mid_hand_has_the_hand_so_far_in_its_log():
    """Issue 21: a LAN seat joined mid-hand rebuilds the log from the view (it was empty):
    the line saying where it comes from, then every discard and call made before it joined,
    in the table's order."""
    import random

    from mahjong_tui.ui.model import describe_event
    from mahjong_tui.ui.movelog import FROM_VIEW
    from mahjong_tui.ui.netsession import open_join
    from mahjong_tui.ui.screens.lan import join_namespace
    from tests.net.util import new_table, served
    from tests.ui.helpers import my_request, net_app

    table = new_table("yuxi", seed=3, hands=1)
    rng = random.Random(3)
    # bots' moves for every seat until six discards lie in the ponds and it is not seat 0's turn
    while sum(e["type"] == "discard" for e in table.events) < 6 or table.current == 0 or table.phase != "turn":
        table.apply_decision(rng.choice(table.legal_actions(table.waiting_for()[0])))
    before = [e for e in table.events if e["type"] in ("discard", "claim")]
    async with served(table, seats=("remote", "ai:baseline", "ai:baseline", "ai:baseline"), bot_delay=0) as (server, _):
        session = await open_join(join_namespace(f"127.0.0.1:{server.port}", name="Ann"))
        app = net_app(session)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: my_request(app) is not None)
            texts = [e.text for e in session.moves.visible(0)]
            assert texts[0] == FROM_VIEW, texts
            said = [describe_event(e, session.name, session.variant) for e in before]
            assert texts[1:len(before) + 1] == said, texts
            assert FROM_VIEW in flat(app.screen.query_one(MoveLogPanel).plain_lines())
        await session.aclose()
