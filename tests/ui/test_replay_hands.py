"""The replay across hands: every step shows one moment of the table (header, winds, dealer,
scores and tiles together); a hand's last step shows that hand over, the next deal is a step
of its own, and PgUp/PgDn land on the deals (play-test pt1 item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mahjong_tui import tiles as T
from mahjong_tui.ai.baseline import make_bot
from mahjong_tui.engine import Table
from mahjong_tui.engine.log import GameLog
from mahjong_tui.ui.model import parse
from mahjong_tui.ui.screens.replay import ReplayScreen
from mahjong_tui.variant import load_variant

from .helpers import make_app, screen_text, wait_for

WINDS = "ESWN"


def played_log(tmp_path: Path, variant: str, seed: int, hands: int) -> GameLog:
    """A finished match of four ``ai:baseline`` bots, saved and read back as ``replay`` would
    (seat 1 a human, as a game played at this keyboard)."""
    v = load_variant(variant)
    t = Table(v, seed, hands=hands)
    bots = [make_bot("ai:baseline", v, s) for s in range(4)]
    while t.phase != "match_over":
        for s in list(t.waiting_for()):
            if s in t.waiting_for():
                t.apply(bots[s].choose(t.view(s), t.legal_actions(s)))
    path = tmp_path / f"{variant}.jsonl"
    GameLog.for_table(t, variant, ["human", "ai", "ai", "ai"]).save(path)
    return GameLog.load(path)


def tiles(text: str) -> list[int]:
    return sorted(parse(text))


def status(app) -> str:
    """The replay's status line (the one that starts ``Step``)."""
    return next(ln for ln in screen_text(app).splitlines() if ln.strip().startswith("Step "))


@pytest.mark.parametrize("variant, seed", [("yuxi", 5), ("classic", 3)])
async def test_every_replay_step_shows_one_moment_and_a_hand_ends_before_the_next_deal(tmp_path, variant, seed):
    log = played_log(tmp_path, variant, seed, 2)
    history = log.replay().history
    app = make_app(command="replay", log=log)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        r = app.screen
        ends = []
        while True:
            step = r.steps[r.pos]
            view = step.views[0]
            # the header, winds and dealer of one hand, never a hand past the match's end
            assert 0 <= view["hand_number"] < 2
            assert f"Hand {view['hand_number'] + 1} of 2" in screen_text(app)
            assert [p["wind"] for p in view["players"]] == [WINDS[(s - view["dealer"]) % 4] for s in range(4)]
            assert [p["dealer"] for p in view["players"]] == [s == view["dealer"] for s in range(4)]
            if step.ended:
                ends.append(r.pos)
                summary = history[view["hand_number"]]
                assert view["last_hand"] == summary  # this hand's end, not the previous one's
                assert view["dealer"] == summary["dealer"]
                assert [p["wind"] for p in view["players"]] == summary["seat_winds"]
                assert [p["score"] for p in view["players"]] == summary["scores"]
                # the tiles of the finished hand: its ponds and every hand as it was scored
                assert any(p["pond"] for p in view["players"])
                for s in range(4):
                    assert tiles(step.views[s]["hand"]) == tiles(summary["hands"][s]["concealed"])
                # one message, the hand's end last: nothing of the next deal runs into it
                assert step.text.endswith("the hand is over (Enter: scoring)")
                assert "the hand is over (Enter: scoring)" in status(app)
            if r.pos == r.last:
                break
            await pilot.press("right")
            if ends and ends[-1] == r.pos - 1:
                # the next deal: a step of its own, fresh ponds, a clean status line
                step = r.steps[r.pos]
                view = step.views[0]
                assert step.deal and step.action is None
                assert view["hand_number"] == r.steps[ends[-1]].views[0]["hand_number"] + 1
                assert not any(p["pond"] for p in view["players"])
                dealer = r.names[view["dealer"]]
                assert step.text == f"Hand {view['hand_number'] + 1}: the deal · dealer: {dealer}"
                assert status(app).split("   ")[0].strip() == f"Step {r.pos}/{r.last} · {step.text}"
        assert len(ends) == 2 and ends[-1] == r.last
        assert r.last == len(log.actions) + 1  # one deal step more than there are actions


async def test_the_last_step_of_a_match_shows_its_last_hand(tmp_path: Path):
    """End on a finished 2-hand Yuxi match: Hand 2 of 2 (not 3 of 2), the winds and dealer
    that hand was played with, the seat at the bottom named with its wind of that hand."""
    log = played_log(tmp_path, "yuxi", 5, 2)
    last = log.replay().history[-1]
    app = make_app(command="replay", log=log)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        r = app.screen
        await pilot.press("end")
        text = screen_text(app)
        assert "Hand 2 of 2" in text and "Hand 3 of 2" not in text
        wind = {"E": "East", "S": "South", "W": "West", "N": "North"}[last["seat_winds"][r.bottom]]
        assert f"at the bottom: {r.names[r.bottom]} ({wind})" in text
        view = r.steps[r.pos].views[r.bottom]
        assert view["dealer"] == last["dealer"] and view["prevailing_wind"] == last["prevailing_wind"]
        winner = last["winners"][0]
        assert T.parse_tile(winner["tile"]) in parse(r.steps[r.pos].views[winner["seat"]]["hand"])


async def test_page_keys_land_on_each_hands_deal(tmp_path: Path):
    log = played_log(tmp_path, "classic", 3, 2)
    app = make_app(command="replay", log=log)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        r = app.screen
        await pilot.press("right", "right", "right")
        await pilot.press("pagedown")
        deal = r.pos
        step = r.steps[deal]
        assert step.deal and step.views[0]["hand_number"] == 1
        assert r.steps[deal - 1].ended and r.steps[deal - 1].views[0]["hand_number"] == 0
        assert "the hand is over" not in status(app) and "sets aside" not in status(app)
        assert status(app).strip().startswith(f"Step {deal}/{r.last} · Hand 2: the deal · dealer: ")
        await pilot.press("pagedown")  # the last hand: to its end
        assert r.pos == r.last and r.steps[r.pos].ended
        await pilot.press("pageup")
        assert r.pos == deal
        await pilot.press("left")  # back from the deal: the hand before, over
        assert r.steps[r.pos].ended and "the hand is over" in status(app)
        await pilot.press("pageup")
        assert r.pos == 0 and r.steps[0].deal
        assert "Hand 1: the deal · dealer: You" in status(app)


async def test_a_replays_scoring_screen_says_enter_or_esc_go_back_to_the_replay(tmp_path: Path):
    """The scoring screen opened from a replay does not speak of a next hand or of leaving
    the table: Enter and Esc both go back to the replay, and its key line says so."""
    from mahjong_tui.ui.screens.results import HandEndScreen

    log = played_log(tmp_path, "yuxi", 5, 2)
    app = make_app(command="replay", log=log)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        r = app.screen
        await pilot.press("end")
        for key in ("enter", "escape"):
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
            text = screen_text(app)
            assert "Enter/Esc: back to the replay" in text
            assert "next hand" not in text and "leave the table" not in text
            await pilot.press(key)
            await wait_for(pilot, lambda: app.screen is r)
            assert r.pos == r.last
