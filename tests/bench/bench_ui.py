"""Benchmark (not a test): keypress-to-repaint latency of a discard at 120x40.

Drives the real app headless (Textual Pilot) with a human in seat 0 and three bots pausing
``--bot-delay`` seconds, presses ``d`` on 50 of the human's turns, and measures from posting the
key to the end of the first screen update that shows the hand one tile shorter (the update is
also rendered to terminal escape sequences, as a real terminal would receive it).  Prints the
median and p95 (issue 3 goal: p95 under 50 ms).

    python tests/bench/bench_ui.py [--presses 50] [--size 120x40] [--faces compact] [--bot-delay 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from textual import events  # noqa: E402

from mahjong_tui.ui.app import MahjongApp  # noqa: E402


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    k = (len(xs) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


async def run(presses: int, size: tuple[int, int], faces: str, bot_delay: float, variant: str, seed: int,
              bots: str = "ai") -> list[float]:
    from mahjong_tui.ui.screens.results import HandEndScreen, MatchEndScreen
    from mahjong_tui.ui.screens.table import TableScreen

    app = MahjongApp(command="play", variant=variant, seats=["human", bots, bots, bots], seed=seed,
                     hands=None, bot_delay=bot_delay, faces=faces,
                     env={"LANG": "C.UTF-8", "TERM": "xterm-256color"}, width=size[0])
    app.theme = "textual-dark"
    frames: list[tuple[float, int | None]] = []
    original = app._display

    def display(screen, renderable):
        if renderable is not None:
            # what a real terminal gets: the update rendered to escape sequences
            if hasattr(renderable, "render_segments"):
                renderable.render_segments(app.console)
            hand = None
            if isinstance(screen, TableScreen) and screen.frame is not None and screen.frame.hand.tiles is not None:
                hand = len(screen.frame.hand.tiles)
            frames.append((time.perf_counter(), hand))
        return original(screen, renderable)

    app._display = display
    latencies: list[float] = []
    async with app.run_test(size=size) as pilot:
        while len(latencies) < presses:
            # wait for the human's turn, the table idle
            for _ in range(2000):
                scr = app.screen
                if isinstance(scr, (HandEndScreen,)):
                    await pilot.press("enter")
                elif isinstance(scr, MatchEndScreen):
                    return latencies
                elif isinstance(scr, TableScreen):
                    req = scr.session.request_now
                    if req is not None and req.is_turn:
                        break
                    if req is not None:  # a claim prompt: pass
                        await pilot.press("x")
                await asyncio.sleep(0.005)
            await pilot.pause()
            await asyncio.sleep(0.03)  # let the screen settle
            scr = app.screen
            before = len(scr.frame.hand.tiles)
            mark = len(frames)
            t0 = time.perf_counter()
            app.post_message(events.Key("d", "d"))
            while True:
                hit = next((t for t, h in frames[mark:] if h is not None and h < before), None)
                if hit is not None:
                    latencies.append((hit - t0) * 1000)
                    break
                if time.perf_counter() - t0 > 5:
                    raise SystemExit("no repaint within 5 s")
                await asyncio.sleep(0.0005)
    return latencies


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=50)
    ap.add_argument("--size", default="120x40")
    ap.add_argument("--faces", default="compact")
    ap.add_argument("--bot-delay", type=float, default=0.05)
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bots", default="ai", help="seat string of the three bots (ai, ai:strong, ai:baseline)")
    args = ap.parse_args()
    w, h = (int(x) for x in args.size.lower().split("x"))
    lat = asyncio.run(run(args.presses, (w, h), args.faces, args.bot_delay, args.variant, args.seed, args.bots))
    if not lat:
        raise SystemExit("no discards measured")
    print(f"discard keypress -> repaint at {w}x{h}, faces {args.faces}, bots {args.bots}, {len(lat)} presses")
    print(f"  median {statistics.median(lat):6.1f} ms")
    print(f"  p95    {percentile(lat, 0.95):6.1f} ms")
    print(f"  min    {min(lat):6.1f} ms   max {max(lat):6.1f} ms")
    print("  goal: p95 under 50 ms")


if __name__ == "__main__":
    main()
