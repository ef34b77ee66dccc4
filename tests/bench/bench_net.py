"""Benchmark of LAN play on loopback: action round-trip latency and how many tables of four
bots one server process sustains.

Run by hand: ``python tests/bench/bench_net.py [--hands N] [--tables 1,8,32] [--think S]``.
Not a test: it prints figures and never asserts on time (DESIGN.md "Conventions").

The server runs in one process (every table a :class:`NetServer` on its own port, all in one
event loop, journals written and flushed as in production); the bot clients run in another, so
bot thinking never counts as server time.  Figures:

- **latency**: one table, four bot clients: ping round trip; action → ``accepted`` (frame,
  decode, validation, reply); action → the ``update`` that shows it (the action applied,
  journalled and broadcast) — median and p95;
- **capacity**: K tables at once, bots answering after ``--think`` seconds (a human-like
  pace if > 0; 0 = flat out): actions/s the server applied, its CPU use, server CPU per action,
  and action → ``accepted`` p95 seen by the clients.  A table "is sustained" while the server
  has CPU to spare and p95 stays far below human perception (~100 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mahjong_tui.ai.baseline import make_bot  # noqa: E402
from mahjong_tui.engine import Action, GameLog, Table  # noqa: E402
from mahjong_tui.engine.log import LogWriter  # noqa: E402
from mahjong_tui.net.client import NetClient  # noqa: E402
from mahjong_tui.net.server import NetServer  # noqa: E402
from mahjong_tui.variant import load_variant  # noqa: E402


# ----------------------------------------------------------------------------------------
# server process
# ----------------------------------------------------------------------------------------
def server_main(n_tables: int, hands: int, variant: str, ports_q, done_q) -> None:
    async def main():
        v = load_variant(variant)
        tmp = Path(tempfile.mkdtemp(prefix="bench-net-"))
        servers = []
        marks = {}

        def on_action(_a):
            now = (time.perf_counter(), time.process_time())
            marks.setdefault("first", now)
            marks["last"] = now
            marks["n"] = marks.get("n", 0) + 1

        for i in range(n_tables):
            table = Table(v, 1000 + i, hands)
            fh = open(tmp / f"t{i}.jsonl", "w", encoding="utf-8")
            log = LogWriter(fh, GameLog.for_table(table, seats=["remote"] * 4))
            srv = NetServer(table, ["remote"] * 4, log=log, turn_timeout=None, claim_timeout=None,
                            on_action=on_action)
            await srv.start("127.0.0.1", 0)
            servers.append(srv)
        ports_q.put([s.port for s in servers])
        await asyncio.gather(*(s.run() for s in servers))
        # from the first action applied to the last: play only (no start-up, no lobby)
        wall = marks["last"][0] - marks["first"][0]
        cpu = marks["last"][1] - marks["first"][1]
        done_q.put({"actions": marks["n"] - 1, "cpu": cpu, "wall": wall})

    asyncio.run(main())


# ----------------------------------------------------------------------------------------
# client side
# ----------------------------------------------------------------------------------------
async def bot_client(port: int, think: float, policy: str, stats: dict) -> None:
    c = NetClient("127.0.0.1", port, reconnect=0)
    await c.connect()
    variant = c.local_variant()
    bot = make_bot("ai", variant, c.seat, 0) if policy == "bot" else None
    sent: dict[int, float] = {}
    async for msg in c:
        t = msg["type"]
        now = time.perf_counter()
        if t == "request":
            if think:
                await asyncio.sleep(think)
            legal = [Action.from_dict(d) for d in msg["legal"]]
            action = bot.choose(msg["view"], legal) if bot else legal[-1]
            sent[msg["seq"]] = time.perf_counter()
            c.send({"type": "action", "seq": msg["seq"], "action": action.to_dict()})
        elif t == "accepted":
            t0 = sent.get(msg["seq"])
            if t0 is not None:
                stats["accepted"].append(now - t0)
        elif t == "update":
            # the update after our own action: seq moved past the one we answered
            for seq in [s for s in sent if s < msg["seq"]]:
                stats["applied"].append(now - sent.pop(seq))
        if t == "bye":
            break
    await c.close()


async def pinger(port: int, n: int, stats: dict) -> None:
    c = NetClient("127.0.0.1", port, reconnect=0)
    await c.connect()
    await asyncio.sleep(0.2)
    for _ in range(n):
        stats["ping"].append(await c.ping())
    await c.close()


def client_main(ports: list[int], think: float, policy: str, out_q, ping: int = 0) -> None:
    stats = {"accepted": [], "applied": [], "ping": []}

    async def main():
        tasks = []
        for p in ports:
            for _ in range(4):
                tasks.append(asyncio.ensure_future(bot_client(p, think, policy, stats)))
                await asyncio.sleep(0)
        await asyncio.gather(*tasks)

    asyncio.run(main())
    out_q.put(stats)


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(n_tables: int, hands: int, think: float, policy: str, variant: str) -> dict:
    ctx = mp.get_context("spawn")
    ports_q, done_q, out_q = ctx.Queue(), ctx.Queue(), ctx.Queue()
    srv = ctx.Process(target=server_main, args=(n_tables, hands, variant, ports_q, done_q))
    srv.start()
    ports = ports_q.get(timeout=60)
    cl = ctx.Process(target=client_main, args=(ports, think, policy, out_q))
    cl.start()
    stats = out_q.get(timeout=3600)
    done = done_q.get(timeout=60)
    cl.join()
    srv.join()
    return {**done, **stats}


async def ping_only(hands: int, variant: str, n: int) -> list[float]:
    ctx = mp.get_context("spawn")
    ports_q, done_q = ctx.Queue(), ctx.Queue()
    srv = ctx.Process(target=server_main, args=(1, hands, variant, ports_q, done_q))
    srv.start()
    port = ports_q.get(timeout=60)[0]
    stats = {"ping": []}
    # join three seats that never act, ping from the fourth: the table waits, only pings flow
    idle = [NetClient("127.0.0.1", port, reconnect=0) for _ in range(3)]
    for c in idle:
        await c.connect()
    await pinger(port, n, stats)
    for c in idle:
        await c.close()
    srv.terminate()
    srv.join()
    return stats["ping"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=2, help="hands per table")
    ap.add_argument("--tables", default="1,8,32,64", help="table counts for the capacity sweep")
    ap.add_argument("--think", type=float, default=0.2, help="seconds each bot client waits before answering")
    ap.add_argument("--policy", choices=("bot", "first"), default="first",
                    help="client policy in the capacity sweep: 'first' (answer the last legal action: cheap, so "
                         "the client process does not starve the server of CPU on a small machine) or the bot")
    ap.add_argument("--variant", default="classic")
    args = ap.parse_args()
    ms = 1000.0

    pings = asyncio.run(ping_only(1, args.variant, 2000))
    print(f"loopback ping round trip: median {statistics.median(pings) * ms:.3f} ms, p95 {pct(pings, .95) * ms:.3f} ms")

    for policy in ("first", "bot"):
        r = run(1, args.hands, 0.0, policy, args.variant)
        who = "4 'last legal' clients" if policy == "first" else "4 bot clients (bots share the client process)"
        print(f"1 table, {who}, flat out ({args.hands} hands, {r['actions']} actions):")
        print(f"  action -> accepted:       median {statistics.median(r['accepted']) * ms:.3f} ms, "
              f"p95 {pct(r['accepted'], .95) * ms:.3f} ms")
        print(f"  action -> applied update: median {statistics.median(r['applied']) * ms:.3f} ms, "
              f"p95 {pct(r['applied'], .95) * ms:.3f} ms")
        print(f"  server CPU per action {r['cpu'] / r['actions'] * 1e6:.0f} us; {r['actions'] / r['wall']:.0f} actions/s")

    print(f"capacity sweep: bots think {args.think:g} s, policy {args.policy}, {args.hands} hands per table")
    print(f"  {'tables':>6} {'actions/s':>10} {'server CPU':>10} {'CPU/action':>10} {'accepted p50':>12} {'p95':>9} {'wall s':>7}")
    for k in [int(x) for x in args.tables.split(",")]:
        r = run(k, args.hands, args.think, args.policy, args.variant)
        print(f"  {k:>6} {r['actions'] / r['wall']:>10.0f} {r['cpu'] / r['wall'] * 100:>9.0f}% "
              f"{r['cpu'] / r['actions'] * 1e6:>8.0f}us {statistics.median(r['accepted']) * ms:>10.2f}ms "
              f"{pct(r['accepted'], .95) * ms:>7.2f}ms {r['wall']:>7.1f}")


if __name__ == "__main__":
    main()
