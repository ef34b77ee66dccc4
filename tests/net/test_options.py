"""A table with variant options over real sockets on 127.0.0.1: the host's options reach the
client (``hello.options``), which builds the same variant; a client that ignores them is told
the rules differ."""

from __future__ import annotations

import asyncio

import pytest

from mahjong_tui.engine import GameLog
from mahjong_tui.net.client import NetClient, play_bot
from mahjong_tui.net.protocol import NetError

from .util import RawClient


async def test_a_client_joins_a_table_with_flowers_and_plays_the_same_variant(tmp_path):
    from mahjong_tui.net.commands import build_parser, build_server

    log = tmp_path / "flowers.jsonl"
    args = build_parser().parse_args(["serve", "--variant", "uzje", "--option", "flowers=true", "--seats",
                                      "remote,ai:baseline,ai:baseline,ai:baseline", "--seed", "3", "--hands", "1",
                                      "--port", "0", "--log", str(log), "--bot-delay", "0"])
    server, _ = build_server(args, local_humans=False, note=lambda t: None)
    _, port = await server.start("127.0.0.1", 0)
    task = asyncio.ensure_future(server.run())
    try:
        # what a client of any language reads
        raw = RawClient(port)
        hello = await asyncio.to_thread(raw.read)
        assert hello["variant"] == "uzje" and hello["options"] == {"flowers": True}
        raw.close()

        client = NetClient("127.0.0.1", port, name="guest")
        welcome = await client.connect()
        assert welcome["options"] == {"flowers": True}
        variant = client.local_variant()
        assert variant.rules_hash == server.table.variant.rules_hash == hello["rules_hash"]
        assert variant.tile_count == 176 and len(variant.bonus_kinds) == 8
        assert dict(variant.applied_options) == {"flowers": True}
        # a bot built from the client's copy plays the match through
        res = await asyncio.wait_for(play_bot(client, "baseline"), 60)
        assert res["finished"]
        await asyncio.wait_for(task, 30)
    finally:
        if not task.done():
            task.cancel()
        await server.close()
    # the journal holds the options, so a restarted server would serve the same variant
    glog = GameLog.load(log)
    assert glog.options == {"flowers": True}
    assert glog.replay().phase == "match_over"


async def test_a_client_that_ignores_the_options_is_told_the_rules_differ(tmp_path):
    from mahjong_tui.engine import Table
    from mahjong_tui.variant import load_variant

    from .util import served

    table = Table(load_variant("uzje", {"flowers": True}), 5, 1)
    async with served(table, ("remote", "ai", "ai", "ai")) as (server, _task):
        client = NetClient("127.0.0.1", server.port, name="old")
        await client.connect()
        assert client.local_variant().tile_count == 176
        client.hello.pop("options")  # what a client from before options would see
        with pytest.raises(NetError, match="differ"):
            client.local_variant()
        client.hello["options"] = {"flowers": "lots"}  # an option this installation cannot build
        with pytest.raises(NetError, match="cannot build"):
            client.local_variant()
        await client.close()
