"""Kill the server mid-hand (SIGKILL) and restart it on its journal: the match resumes exactly."""

from __future__ import annotations

import asyncio

import msgpack

from mahjong_tui.ai.baseline import make_bot
from mahjong_tui.engine import GameLog
from mahjong_tui.net.client import NetClient, play_bot
from mahjong_tui.runner import BotSeat, TableRunner

from .util import new_table, start_server_process, views_by_seq

PAUSE_AT = 30


def _norm(obj):
    return msgpack.unpackb(msgpack.packb(obj), raw=False, strict_map_key=False)


async def _reference(variant: str, seed: int, hands: int):
    """The same match played without a network, crash or restart."""
    table = new_table(variant, seed, hands)
    seats = [BotSeat(make_bot("ai:normal", table.variant, s, 0)) for s in range(4)]
    await TableRunner(table, seats).run()
    return table


async def test_killed_server_resumes_from_its_log_to_the_identical_state(tmp_path):
    log = tmp_path / "match.jsonl"
    common = ("--variant", "classic", "--seed", "77", "--hands", "2", "--log", str(log), "--bot-delay", "0")
    server, port = start_server_process(*common)
    try:
        clients = [NetClient("127.0.0.1", port, name=f"c{i}", reconnect=30) for i in range(4)]
        for c in clients:
            await c.connect()
        resume = asyncio.Event()
        last_views: dict[int, dict] = {}
        first_after: dict[int, dict] = {}

        async def gate(req):
            if req["seq"] >= PAUSE_AT and not resume.is_set():
                await resume.wait()

        def watch(c):
            # remember the last view before the crash and the first one after the resync
            orig = c._absorb

            def absorb(msg):
                orig(msg)
                if msg["type"] in ("state", "update", "request"):
                    if not resume.is_set():
                        last_views[c.seat] = msg["view"]
                    elif c.seat not in first_after:
                        first_after[c.seat] = msg["view"]
            c._absorb = absorb

        for c in clients:
            watch(c)
        runs = [asyncio.ensure_future(play_bot(c, gate=gate)) for c in clients]
        for _ in range(3000):
            n = sum(1 for _ in open(log)) - 1
            if n >= PAUSE_AT and all(c.request is not None or c.seat in last_views for c in clients):
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # let the table settle: every client is paused now
        server.kill()
        server.wait()

        # the journal holds everything any client has seen (appended before every broadcast)
        glog = GameLog.load(log)
        n = len(glog.actions)
        assert n >= PAUSE_AT
        seen, _ = views_by_seq(glog, _norm)
        for seat, view in last_views.items():
            assert view in seen[view["seq"]][seat]

        # restart on the same journal; the clients rejoin with their tokens by themselves
        server, port2 = start_server_process(*common[:-4], "--log", str(log), "--bot-delay", "0", "--port", str(port))
        assert port2 == port
        resume.set()
        results = await asyncio.wait_for(asyncio.gather(*runs), 90)
        out, err = server.communicate(timeout=30)
        assert server.returncode == 0, err
    finally:
        if server.poll() is None:
            server.kill()
    assert all(r["finished"] for r in results), results
    # each client's first view after the restart is the resumed table's view of its seat
    resumed = GameLog.load(log)
    seen, _ = views_by_seq(resumed, _norm)
    for seat, view in first_after.items():
        assert view in seen[view["seq"]][seat]
    # the journal replays to the end, and the whole match is the one played without a crash
    final = resumed.replay()
    assert final.phase == "match_over"
    assert len(resumed.actions) > n and sorted(first_after) == [0, 1, 2, 3]
    assert resumed.actions[:n] == glog.actions
    ref = await _reference("classic", 77, 2)
    assert final.snapshot() == ref.snapshot()
    assert final.history == ref.history
    done_before = len(glog.replay().history)
    assert out.count("\n") == 2 - done_before  # the resumed server reports the hands it finished
