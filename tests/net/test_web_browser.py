"""A real browser at a ``serve --web`` table (issue 26's acceptance test): Debian's chromium
(``.ci/run`` installs it; never a downloaded browser), driven by Playwright, opens the page of
a table with three bots, sees 13 or 14 tiles in its hand, discards one with the keyboard and
sees it in its pond; a screenshot is saved under the test's temporary folder.

The page draws on a canvas (xterm.js), so what it shows is read back from the bytes its
websocket receives, fed to the small terminal of tests/net/webscreen.py at the size the page
asked for.  Skipped, saying why, only where there is no browser or no Playwright."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

CHROMIUM = os.environ.get("MAHJONG_TUI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytest.importorskip("textual_serve", reason="the web extra is not installed (pip install '.[web]')")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (it is in the test extra)")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no browser: {CHROMIUM} is missing (.ci/run installs Debian's chromium; here it could not be "
                "installed)", allow_module_level=True)

from .util import ROOT, env  # noqa: E402
from .webscreen import Screen, hand_tiles, own_pond, tile_to_discard  # noqa: E402


def start_table(tmp_path: Path) -> tuple[subprocess.Popen, str]:
    """``mahjong-tui serve --web`` with seat 1 remote and three bots; its page's address."""
    cmd = [sys.executable, "-m", "mahjong_tui", "serve", "--seats", "remote,ai,ai,ai", "--port", "0", "--web",
           "--seed", "3", "--hands", "1", "--bot-delay", "1.5", "--turn-timeout", "off", "--claim-timeout", "off",
           "--log", str(tmp_path / "table.jsonl")]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        seen.append(line)
        m = re.search(r"browsers join at (http://\S+)", line)
        if m:
            return proc, m.group(1)
    proc.kill()
    raise AssertionError("serve --web did not say its page's address:\n" + "".join(seen))


def test_a_browser_plays_a_discard_at_a_served_table(tmp_path):
    proc, url = start_table(tmp_path)
    try:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            try:
                page = browser.new_page(viewport={"width": 1150, "height": 780})
                screen = Screen(80, 24)

                def on_socket(ws):
                    q = parse_qs(urlparse(ws.url).query)
                    screen.resize(int(q.get("width", ["80"])[0]), int(q.get("height", ["24"])[0]))

                    def sent(payload):
                        if isinstance(payload, str) and payload.startswith('["resize"'):
                            size = json.loads(payload)[1]
                            screen.resize(size["width"], size["height"])

                    ws.on("framesent", sent)
                    ws.on("framereceived", lambda payload: screen.feed(payload) if isinstance(payload, bytes) else None)

                page.on("websocket", on_socket)
                page.goto(url)

                def wait(pred, what: str, timeout: float = 60.0):
                    end = time.monotonic() + timeout
                    while time.monotonic() < end:
                        page.wait_for_timeout(200)
                        out = pred(screen.rows())
                        if out:
                            return out
                    raise AssertionError(f"{what} not on the page:\n{screen.text()}")

                wait(lambda rows: any("Join the table" in r for r in rows), "the join form")
                page.click("#terminal")  # the page's terminal takes the keys
                page.wait_for_timeout(1500)
                page.keyboard.type("Browser")
                wait(lambda rows: any("Browser" in r for r in rows), "the name typed")
                page.keyboard.press("Enter")  # on to the password (the table has none)
                page.wait_for_timeout(300)
                page.keyboard.press("Enter")
                n = wait(lambda rows: hand_tiles(rows) if tile_to_discard(rows) else None, "the hand, our turn")
                assert n in (13, 14), screen.text()
                tile = tile_to_discard(screen.rows())
                pond_before = own_pond(screen.rows())
                page.keyboard.press("Enter")  # discard it (the bots take 1.5 s to claim it from the pond)
                wait(lambda rows: own_pond(rows).count(tile) > pond_before.count(tile), f"{tile} in our pond", 20)
                shot = tmp_path / "browser-seat.png"
                page.screenshot(path=str(shot))
                assert shot.stat().st_size > 10_000
            finally:
                browser.close()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
