"""Original Call at the table (dmjl.md "Play"): the prompt names it in the players' words —
"Original Call: discard N and declare ready" — on a numbered key, before pass; the real app
(Pilot) shows it and the key announces it."""

from __future__ import annotations

from mahjong_tui import tiles as T
from mahjong_tui.engine import Table
from mahjong_tui.ui.choices import assign
from mahjong_tui.variant import load_variant
from tests.helpers import rig_first_hand, rigged_wall
from tests.ui.helpers import make_app, screen_text, table_screen, wait_for

DMJL = load_variant("dmjl")
# East: 123m 456m 789m 23s 55t and a North to throw: discarding N leaves a hand waiting on 1s/4s
HANDS = ["123m456m789m23s55tN", "147t258t369t147sE", "147m258m369mSSWW", "258s369sCCFFPPE"]
FRONT = "6t9s8m9t2m3m6m4s"


def test_original_call_choice_is_worded_for_players(monkeypatch):
    rig_first_hand(monkeypatch, rigged_wall(DMJL, 0, HANDS, front=FRONT))
    table = Table(DMJL, seed=1, first_dealer=0)
    choices = assign(table.legal_actions(0), "turn", DMJL)
    calls = [c for c in choices if c.action.kind == "original_call"]
    assert [c.label for c in calls] == ["Original Call: discard N and declare ready"]
    assert calls[0].key.isdigit() or len(calls[0].key) == 1
    if any(c.action.kind == "pass" for c in choices):
        assert choices[-1].action.kind == "pass"


async def test_original_call_shows_at_the_table_and_its_key_announces_it(monkeypatch):
    monkeypatch.setattr(Table, "_choose_first_dealer", lambda self: 0)  # East (the human) deals the rigged hand
    rig_first_hand(monkeypatch, rigged_wall(DMJL, 0, HANDS, front=FRONT))
    app = make_app(variant="dmjl", seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: table_screen(app) is not None
                       and "Original Call: discard N and declare ready" in screen_text(app))
        session = table_screen(app).session
        (choice,) = [c for c in assign(session.table.legal_actions(0), "turn", DMJL) if c.action.kind == "original_call"]
        assert f"{choice.key} Original Call: discard N and declare ready" in screen_text(app).replace("  ", " ")
        await pilot.press(choice.key)
        await wait_for(pilot, lambda: session.table.called[0])
        assert session.table.ponds[0][-1][0] == T.NORTH  # (tile, claimed)
