"""LAN faults that must never cost the match: idle players, a second server on the same
journal, the host closing the table.  Real sockets on 127.0.0.1 only."""

from __future__ import annotations

import asyncio

from mahjong_tui.net.client import NetClient

from .util import new_table, served


async def test_an_idle_client_that_keeps_rejoining_cannot_stop_the_game():
    """The stand-in plays a timed-out decision at once, even when the client is back before
    the stand-in's pause is over (it used to get the request again, with a fresh clock)."""
    table = new_table("classic", seed=4, hands=1)
    # the stand-in's pause (1 s) is far longer than the client needs to rejoin (~50 ms)
    async with served(table, seats=("remote", "ai", "ai", "ai"), turn_timeout=0.2, claim_timeout=0.2,
                      standin_delay=1.0) as (server, task):
        idle = NetClient("127.0.0.1", server.port, name="Idle", reconnect=30.0)
        await idle.connect()
        seen: list[dict] = []

        async def follow() -> None:  # reads everything, answers nothing
            async for m in idle:
                seen.append(m)

        follower = asyncio.ensure_future(follow())

        async def seat0_moves(n: int) -> None:
            while sum(1 for a in table.actions if a.seat == 0) < n:
                await asyncio.sleep(0.05)

        try:
            await asyncio.wait_for(seat0_moves(4), 30)
        finally:
            follower.cancel()
            await idle.close()
        timeouts = [m for m in seen if m["type"] == "error" and m.get("code") == "timeout"]
        rejoins = [m for m in seen if m["type"] == "connection" and m.get("state") == "connected"]
        assert len(timeouts) >= 3 and len(rejoins) >= 3  # it kept coming back, and the game went on
        assert "a bot played" in timeouts[0]["message"]
        assert table.actions[0].seat == 0 and table.actions[0].kind == "discard"  # East's first discard
        assert server.remote[0].name == "Idle"
