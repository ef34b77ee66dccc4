"""The table runner's bot seats (mahjong_tui/runner.py)."""

from __future__ import annotations

import asyncio

from mahjong_tui.ai import make_bot
from mahjong_tui.engine import Table
from mahjong_tui.runner import BotSeat
from mahjong_tui.variant import load_variant


def test_a_bot_pauses_before_its_turns_but_not_before_claims(monkeypatch):
    """A claim window opens only where a seat may claim: a bot that paused there would show
    everyone that it could have claimed, even when it passes.  Over a whole hand of Classic
    (a claim window after nearly every discard: the next player may take any discard, G-OX-2)
    every decision of every bot is asked through its seat: the pause is asked for before each
    turn decision and before no claim decision.  (The pauses are recorded, not waited for.)"""
    paused: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds, *args, **kwargs):
        if seconds == 0.25:
            paused.append(seconds)
            return None
        return await real_sleep(seconds, *args, **kwargs)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    v = load_variant("classic")
    table = Table(v, 3, hands=1)
    seats = [BotSeat(make_bot("ai:easy", v, s, 3), 0.25) for s in range(4)]
    asked = {"turn": 0, "claim": 0}
    while table.phase != "match_over":
        s = table.waiting_for()[0]
        view = table.view(s)
        kind = "claim" if view["phase"] in ("claim", "rob") else "turn"
        before = len(paused)
        action = asyncio.run(seats[s].decide(view, table.legal_actions(s)))
        assert len(paused) - before == (1 if kind == "turn" else 0), (kind, action)
        asked[kind] += 1
        table.apply(action)
    assert asked["turn"] > 10 and asked["claim"] > 10, asked


def test_the_runner_freezes_what_outlived_each_hand_and_thaws_it_at_the_match_end(monkeypatch):
    """No full collection of the bots' long-lived tables inside a decision (issue 23 item 4):
    at every hand's end the runner freezes the live objects (``gc.freeze``) — once per hand of
    a 2-hand match of four bots — and at the match's end gives them back (``gc.unfreeze``)."""
    import gc

    from mahjong_tui.runner import TableRunner

    calls: list[str] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "unfreeze", lambda: calls.append("unfreeze"))
    v = load_variant("classic")
    table = Table(v, 5, hands=2)
    seats = [BotSeat(make_bot("ai:easy", v, s, 5)) for s in range(4)]
    asyncio.run(TableRunner(table, seats).run())
    assert table.phase == "match_over"
    assert calls == ["freeze", "freeze", "unfreeze"], calls
