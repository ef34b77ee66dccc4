"""Textual Pilot drives a whole hand through the real app (issue 3, acceptance 1): discards, a
claim prompt, a pass, a win, the scoring screen, the end of the match.

Classic Chinese, seed 1, one hand: seat 1 (you, East, the dealer) plays as the baseline bot
would, through the keys, except that it passes on its first claim prompt; it then wins on Bot
3's discard of 9s (found by a search over seeds; the bots are deterministic).
"""

from __future__ import annotations

import re

from mahjong_tui import tiles as T
from mahjong_tui.ui.screens.results import MatchEndScreen
from mahjong_tui.ui.widgets.areas import ActionBar, HandArea, Pond
from tests.ui.helpers import bot_policy, make_app, my_request, next_decision, pass_with_x, press_action, screen_text, \
    table_screen, wait_for


def hand_line(app) -> list[str]:
    return app.screen.query_one(HandArea).plain_lines()


async def test_whole_hand_discard_claim_pass_win_scoring():
    app = make_app(seed=1, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: my_request(app) is not None)
        t = table_screen(app)
        decide = bot_policy(t.session.variant, 0)
        seen = {"turns": 0, "prompts": 0, "passes": 0, "win_key": False}
        while (req := await next_decision(pilot, app)) is not None:
            text = screen_text(app)
            bar = app.screen.query_one(ActionBar).plain_lines()
            action = decide(req)
            if req.is_turn:
                seen["turns"] += 1
                # 14 tiles on one's turn: the full hand is on screen, the discard key is offered
                # (a meld's claimed tile is bracketed, the seat it came from after it: "(2s)2s 2s←W")
                tiles = re.sub(r"←[ESWN]", "", hand_line(app)[0]).replace("(", " ").replace(")", " ").split()
                assert len(tiles) == 14, tiles
                assert "discard" in bar[0]
                pond = app.screen.query_one("#pond-bottom", Pond)
                before = len(pond.box.tiles)
                await press_action(pilot, app, action)
                await wait_for(pilot, lambda: my_request(app) is not req)
                # the tile left the hand and lies in your pond (rows of six, bottom of the table),
                # unless a claim took it at once: a claimed discard leaves the pond for the meld
                last = app.screen.session.view()["players"][req.seat]["pond"][-1]
                assert last[0] == T.name(action.tile)
                if last[1]:
                    assert len(pond.box.tiles) == before
                    continue
                assert len(pond.box.tiles) == before + 1
                assert pond.box.tiles[before][0] == action.tile
                assert T.name(action.tile) in "".join(pond.plain_lines())
                continue
            # a claim prompt lists exactly the legal choices, each with its key
            seen["prompts"] += 1
            offered = {c.action for c in t.choice_map.values()}
            assert offered == {a for a in req.legal if a.kind != "discard"}
            for key, choice in t.choice_map.items():
                assert f" {key} " in bar[0] or any(f" {key} " in line for line in bar), (key, bar)
            assert "pass" in " ".join(bar)
            assert "discarded" in bar[0] and text.count("pass") >= 1
            if seen["passes"] == 0 and action.kind != "win":
                seen["passes"] += 1
                await pass_with_x(pilot, app, req)
                continue
            if action.kind == "win":
                seen["win_key"] = True
                assert any(c.key == "w" for c in t.choice_map.values())
            await press_action(pilot, app, action)
        assert seen["turns"] >= 3 and seen["prompts"] >= 2 and seen["passes"] == 1 and seen["win_key"]

        # the scoring screen: every hand revealed, the breakdown in words with values, the
        # total, who pays whom (cumulative here: nobody), the standings
        text = screen_text(app)
        assert "You (East) win on Bot 3 (West)'s discard of 9s" in text
        # 80 columns: the words and the values, no pattern ids (tests/ui/test_scoring_screen.py)
        assert re.search(r"Mahjong on a discard\s+20 points", text) and "mahjong_discard" not in text
        assert "Total" in text and "76 points" in text
        for name in ("You", "Bot 2", "Bot 3", "Bot 4"):
            assert name in text
        await pilot.press("end")  # scroll to the standings
        await pilot.pause()
        summary = app.screen.summary
        assert summary["winners"][0]["seat"] == 0 and summary["scores"][0] == 76
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        text = screen_text(app)
        assert "Match over" in text and "76" in text and "Score over the hands" in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.return_code is not None)
    assert app.return_code == 0


async def test_cursor_keys_and_mouse_choose_the_discard():
    app = make_app(seed=32, hands=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: my_request(app) is not None)
        t = table_screen(app)
        order = list(t._order)
        assert t.selected == len(order) - 1  # the dealer starts on the last tile
        await pilot.press("home", "right", "right")
        assert t.selected == 2
        assert t.frame.hand.selected == 2
        await pilot.press("left")
        assert t.selected == 1
        # a click on a tile selects it; a click on the selected tile discards it
        hand = app.screen.query_one(HandArea)
        line = hand.plain_lines()[0]
        start = len(line) - len(line.lstrip())  # the hand is centred
        x = hand.content_region.x + start + 3 * 4  # pitch 3: the fifth tile
        await pilot.click(offset=(x, hand.region.y))
        assert t.selected == 4
        req = my_request(app)
        await pilot.click(offset=(x, hand.region.y))
        await wait_for(pilot, lambda: req.future.done())
        assert req.future.result().tile == order[4]


async def test_waits_are_shown_when_ready():
    # Yuxi seed 2: play the bot's choices until the status line says "ready"
    app = make_app(variant="yuxi", seed=2, hands=1)
    async with app.run_test(size=(80, 24)) as pilot:
        t = None
        for _ in range(60):
            req = await next_decision(pilot, app)
            if req is None:
                break
            t = table_screen(app)
            info = " ".join(app.screen.query_one(ActionBar).plain_lines())
            if "Ready: " in info or "Ready after this discard: " in info:
                # the waits with their unseen copies and what a win on them is worth
                assert re.search(r"\([\d+]+ left\): ((self-draw only: )?\d+ \w+|no win)", info), info
                break
            await press_action(pilot, app, bot_policy(t.session.variant, 0)(req))
        else:  # pragma: no cover
            raise AssertionError("never ready")
        assert "Ready: " in info or "Ready after this discard: " in info
