"""The hand-end scoring screen in the real app (Textual Pilot) with rigged hands: the title names
tiles as the table shows them, every winner's row holds the tile it won on, the verb agrees
with "You", and the breakdown's values and total stay in sight at 80x24."""

from __future__ import annotations

import re

from mahjong_tui import tiles as T
from mahjong_tui.engine import Action, Table
from mahjong_tui.ui.screens.results import RevealedHands
from mahjong_tui.variant import load_variant
from tests.helpers import set_hand
from tests.ui.helpers import double_win, make_app, screen_text, show_hand_end, wait_for


def uzje_double_win() -> dict:
    """Uzje (G-UZ: several seats may win on one discard): East discards 13s (notation ``cs``);
    South (11s 12s) and West (11s 15s) both win on it.  The one physical tile joins South's
    hand (the nearer winner); West is scored with it too."""
    summary = double_win("uzje", ("cs123456789mxmEEE", "123456789s11mabs", "123m456m789mSSaes"), "cs")
    assert summary["winners"][1]["tile"] == "cs"
    return summary


async def test_the_title_names_a_rank_above_nine_as_the_table_does():
    app = make_app(variant="uzje", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        lines = await show_hand_end(app, pilot, uzje_double_win())
        title = next(ln for ln in lines if "both win" in ln)
        assert title.rstrip().endswith("both win on You (East)'s discard of 13s"), title
        assert "of cs" not in "\n".join(lines)


def test_the_status_line_names_a_rank_above_nine_as_the_table_does():
    from mahjong_tui.ui.model import describe_event

    def name(seat):
        return "You" if seat == 0 else f"Bot {seat + 1}"

    assert describe_event({"type": "discard", "seat": 1, "tile": "cs"}, name) == "Bot 2 discards 13s"
    assert describe_event({"type": "claim", "seat": 0, "from": 3, "kind": "pung", "tile": "es"}, name) == \
        "You pung 15s from Bot 4"


async def test_every_winner_on_one_discard_is_shown_with_the_tile_it_won_on():
    """The discard joins South's hand only; West's row shows it too (14 tiles, the winning one
    underlined), not a 13-tile hand that looks incomplete."""
    app = make_app(variant="uzje", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await show_hand_end(app, pilot, uzje_double_win())
        rows = app.screen.query_one(RevealedHands)
        lines = [ln.plain for ln in rows.lines(rows.content_size.width)]
        south = next(ln for ln in lines if " S Bot 2" in ln)
        west = next(ln for ln in lines if " W Bot 3" in ln)
        assert south.split()[5:] == "1s 2s 3s 4s 5s 6s 7s 8s 9s 11s 12s 13s 1m 1m".split(), south
        assert west.split()[5:] == "11s 13s 15s 1m 2m 3m 4m 5m 6m 7m 8m 9m S S".split(), west
        # the winning tile is underlined in both rows
        for line in (south, west):
            text = next(t for t in rows.lines(rows.content_size.width) if t.plain == line)
            start = line.index("13s")
            assert any(span.start <= start < span.end and "underline" in str(span.style) for span in text.spans), text.spans


def yangzhou_win() -> dict:
    """Yangzhou: South discards 5s, you (East) win on it with 123456789s EE 46s: six patterns,
    some with long descriptions ("Edge Wait (Yazi): one-kind wait on an edge or middle tile")."""
    table = Table(load_variant("yangzhou"), 1, hands=3, first_dealer=1)
    table.discards_made = 4
    set_hand(table, 1, "5s123456789tEEEN")
    set_hand(table, 0, "123456789sEE46s")
    table.apply(Action(1, "discard", T.parse_tile("5s")))
    table.apply(Action(0, "win", T.parse_tile("5s")))
    return table.history[-1]


async def test_values_and_the_total_stay_in_sight_at_80x24():
    """The breakdown used to be cut at 80 columns after the id column: no value, no total.
    Now every pattern's value is on screen beside its words, and so is the total."""
    summary = yangzhou_win()
    (w,) = summary["winners"]
    app = make_app(variant="yangzhou", seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        lines = await show_hand_end(app, pilot, summary)
        await pilot.press("end")
        await pilot.pause()
        text = screen_text(app)
        for p in w["patterns"]:
            assert re.search(rf"\b{p['value']} fan\b", text), (p, text)
        total = next(ln for ln in text.splitlines() if ln.strip().startswith("Total"))
        assert total.rstrip().endswith(f"{w['value']} fan"), total
        assert "Edge Wait (Yazi)" in text and "Mixed Suit (Hun Yi Se)" in text
        assert all(len(ln.rstrip()) <= 80 for ln in lines)


async def test_the_pattern_ids_are_shown_where_there_is_room():
    summary = yangzhou_win()
    app = make_app(variant="yangzhou", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        lines = await show_hand_end(app, pilot, summary)
        row = next(ln for ln in lines if "Edge Wait (Yazi): one-kind wait on an edge or middle tile" in ln)
        assert re.search(r"edge_wait\s+1 fan", row), row
        assert any(re.search(r"Total\s+43 fan", ln) for ln in lines), lines


async def test_the_verb_agrees_with_you():
    app = make_app(variant="yangzhou", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        lines = await show_hand_end(app, pilot, yangzhou_win())
        assert any(ln.strip().endswith("— You (North) win on Bot 2 (East)'s discard of 5s") for ln in lines), lines[:3]
    from mahjong_tui.ui.screens.results import headline

    summary = uzje_double_win()
    assert headline(summary, ["Bot 1", "You", "Bot 3", "Bot 4"]).endswith(
        "You (South) and Bot 3 (West) both win on Bot 1 (East)'s discard of 13s")
    summary["winners"] = summary["winners"][1:]
    assert headline(summary, ["You", "Bot 2", "Bot 3", "Bot 4"]).endswith(
        "Bot 3 (West) wins on You (East)'s discard of 13s")


async def test_each_other_players_hand_value_is_explained_at_80x24():
    """Classic: every player scores his own hand (G-OX-6), so the others' values are listed
    with the patterns that made them, not only as totals (seed 32: You win self-drawn; Bot 3
    holds his own season, Bot 4 another's, Bot 2 nothing)."""
    from mahjong_tui.ui.screens.results import HandEndScreen
    from tests.ui.helpers import play

    app = make_app(seed=32)
    async with app.run_test(size=(80, 24)) as pilot:
        await play(pilot, app)
        await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
        await pilot.pause()
        summary = app.screen.summary
        assert set(summary["loser_patterns"]) == set(summary["loser_scores"]) == {1, 2, 3}
        lines = screen_text(app).splitlines()
        at = next(i for i, ln in enumerate(lines) if "Hand values of the others" in ln)
        rows = [re.sub(r"[\u2580-\u259f]+", "", ln).rstrip() for ln in lines[at + 1:at + 4]]  # no scrollbar
        assert rows == ["   Bot 2 0 points: nothing scores",
                        "   Bot 3 8 points: Flower or season of your own wind 8 points",
                        "   Bot 4 4 points: Flower or season of another wind 4 points"], rows
