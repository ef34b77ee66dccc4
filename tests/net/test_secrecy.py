"""Every byte the server sends to each client over whole games: no other seat's concealed
tile, no wall order, no seed.

Two independent checks on the recorded byte streams:

- a *search* for the secrets as the engine would spell them (other seats' concealed hands as
  hand strings, runs of the wall's draw order as msgpack strings or plain text, the seed as
  text or as a msgpack integer), with a positive control (the seat's own hand is found);
- an *exact account*: every frame is decoded and every view and event in it is exactly what
  ``view(seat)`` / ``event_for(event, seat)`` gives when the journal is replayed to that
  point, so nothing else rides along.
"""

from __future__ import annotations

import copy

import msgpack
import pytest

from mahjong_tui import tiles as T
from mahjong_tui.engine import GameLog, Table
from mahjong_tui.net.protocol import HEADER

from mahjong_tui.net.client import NetClient

from .util import new_table, play_all, served, views_by_seq

SEED = 738_219_463_501
RUN = 6  # consecutive wall tiles that must never appear in order


def _norm(obj):
    return msgpack.unpackb(msgpack.packb(obj), raw=False, strict_map_key=False)


def _wall_orders(table: Table) -> list[list[str]]:
    """The live wall's draw order (front first) and the dead wall's, as tile names."""
    w = copy.deepcopy(table.wall)
    live = []
    while w.live_count:
        live.append(T.name(w.draw_front()))
    dead = [T.name(t) for stack in table.wall.snapshot()[1] for t in stack]
    return [live, dead]


def _frames(data: bytes) -> list[bytes]:
    out, i = [], 0
    while i < len(data):
        (n,) = HEADER.unpack(data[i:i + 4])
        out.append(data[i + 4:i + 4 + n])
        i += 4 + n
    assert i == len(data)
    return out


@pytest.mark.parametrize("variant,hands", [("classic", 2), ("yuxi", 1), ("yangzhou", 1), ("singapore", 2),
                                           ("uzje", 1)])
async def test_no_byte_sent_to_a_client_reveals_another_hand_the_wall_or_the_seed(variant, hands, tmp_path):
    table = new_table(variant, SEED, hands)
    hands_by_hand: dict[int, list[set[str]]] = {}  # hand index -> per seat, every concealed hand string
    walls: list[list[str]] = []

    def record(_action=None):
        if table.phase == "match_over":
            return
        per = hands_by_hand.setdefault(table.hand_index, [set() for _ in range(4)])
        for s in range(4):
            per[s].add(T.format_tiles(table.concealed_tiles(s)))
        if len(walls) < 2 * (table.hand_index + 1):
            walls.extend(_wall_orders(table))

    record()
    taps = [bytearray() for _ in range(4)]
    log = tmp_path / "s.jsonl"
    async with served(table, log_path=log, on_action=record) as (server, task):
        clients = [NetClient("127.0.0.1", server.port, tap=taps[i].extend) for i in range(4)]
        for c in clients:
            await c.connect()
        results = await play_all(clients)
    streams = [taps[[c.seat for c in clients].index(s)] for s in range(4)]
    assert all(r["finished"] for r in results)
    assert table.phase == "match_over" and len(table.history) == hands

    # ---- search ------------------------------------------------------------------------
    seed_needles = [str(SEED).encode(), msgpack.packb(SEED), hex(SEED)[2:].encode()]
    wall_needles = []
    for order in walls:
        for i in range(len(order) - RUN + 1):
            run = order[i:i + RUN]
            wall_needles.append(b"".join(msgpack.packb(n) for n in run))
            wall_needles.append("".join(run).encode())
            wall_needles.append(" ".join(run).encode())
    for seat, data in enumerate(streams):
        data = bytes(data)
        assert len(data) > 10_000
        for needle in seed_needles:
            assert needle not in data, f"seat {seat} was sent the seed"
        for needle in wall_needles:
            assert needle not in data, f"seat {seat} was sent a run of the wall order: {needle!r}"
        own_found = 0
        for body in _frames(data):
            msg = msgpack.unpackb(body, raw=False, strict_map_key=False)
            view = msg.get("view")
            if view is None:
                continue
            k = view["hand_number"]
            if k not in hands_by_hand:
                continue  # after the last hand: everything has been shown
            for other in range(4):
                if other == seat:
                    continue
                for secret in hands_by_hand[k][other]:
                    if len(T.parse_tiles(secret)) >= 5:
                        assert secret.encode() not in body, f"seat {seat} saw seat {other}'s hand {secret}"
            if view["hand"] in hands_by_hand[k][seat]:
                own_found += 1
        assert own_found > 20  # positive control: the search does find a hand where one is sent

    # ---- exact account -----------------------------------------------------------------
    glog = GameLog.load(log)
    views, events = views_by_seq(glog, _norm)
    allowed = {"hello", "welcome", "seats", "state", "update", "request", "accepted", "bye", "pong", "clock"}
    clocks = 0
    for seat, data in enumerate(streams):
        for body in _frames(bytes(data)):
            msg = msgpack.unpackb(body, raw=False, strict_map_key=False)
            assert msg["type"] in allowed, msg
            if msg["type"] == "clock":  # only ever the turn clock of the seat whose turn it is (public)
                clocks += 1
                assert set(msg) == {"type", "seat", "seq", "seconds"} and msg["seat"] != seat, msg
                at = views[msg["seq"]][seat]
                assert at and all(v["phase"] == "turn" and v["current"] == msg["seat"] for v in at), msg
            if "view" in msg:
                assert msg["view"] in views[msg["view"]["seq"]][seat]
            if msg["type"] == "update":
                assert msg["events"] == events[msg["seq"]][seat]
            if msg["type"] in ("hello", "welcome", "seats", "accepted", "bye"):
                assert not ({"hand", "wall", "seed", "events"} & set(msg)), msg

    assert clocks > 10  # positive control: the turn clocks were sent and checked

    # ---- the claim windows tell nobody who can claim ----------------------------------
    # every discard opens a window (whoever holds what), and every seat is sent the same
    # sequence of public events and phases: nothing in the stream depends on another hand
    publics = []
    for seat, data in enumerate(streams):
        kinds, phases = [], []
        for body in _frames(bytes(data)):
            msg = msgpack.unpackb(body, raw=False, strict_map_key=False)
            if msg["type"] == "update":
                kinds += [e["type"] for e in msg["events"]]
                phases.append((msg["seq"], msg["view"]["phase"]))
        discards = [i for i, k in enumerate(kinds) if k == "discard"]
        assert len(discards) > 10
        assert all(kinds[i + 1] == "claim_window" for i in discards), seat
        publics.append((kinds, phases))
    assert all(p == publics[0] for p in publics)
