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
from tests.ui.helpers import double_win, make_app, screen_text, show_hand_end, table_screen, wait_for


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


def close_window(table: Table) -> None:
    """Every seat not yet heard passes, until the discard's window has closed (where every
    seat is asked after a discard)."""
    from mahjong_tui.errors import IllegalAction

    for seat in range(4):
        if table.history:
            return
        try:
            table.apply(Action(seat, "pass"))
        except IllegalAction:
            pass


def yangzhou_win() -> dict:
    """Yangzhou: South discards 5s, you (East) win on it with 123456789s EE 46s: six patterns,
    some with long descriptions ("Edge Wait (Yazi): waiting on one tile, the edge or middle
    of a chow").  Worked out by hand (yangzhou.md "Fan table"): basic win 1, no melds 1, edge
    wait 1 (46s waited on 5s alone), pure straight 15, two identical sequences 10 (456s
    twice), mixed suit 15 = 43 fan; the discarder pays 2F = 86."""
    table = Table(load_variant("yangzhou"), 1, hands=3, first_dealer=1)
    table.discards_made = 4
    set_hand(table, 1, "5s123456789tEEEN")
    set_hand(table, 0, "123456789sEE46s")
    table.apply(Action(1, "discard", T.parse_tile("5s")))
    table.apply(Action(0, "win", T.parse_tile("5s")))
    close_window(table)
    return table.history[-1]


def yangzhou_beaten() -> dict:
    """Yangzhou, one winner per discard: East discards 5s; South (EE) and West (WW) both
    declare a win with 123456789s 46s; South sits nearer after the discarder and takes it."""
    table = Table(load_variant("yangzhou"), 1, hands=3, first_dealer=0)
    table.discards_made = 4
    set_hand(table, 0, "5s123456789tEEEN")
    set_hand(table, 1, "123456789sEE46s")
    set_hand(table, 2, "123456789sWW46s")
    t = T.parse_tile("5s")
    table.apply(Action(0, "discard", t))
    table.apply(Action(2, "win", t))
    table.apply(Action(1, "win", t))
    close_window(table)
    return table.history[-1]


async def test_values_and_the_total_stay_in_sight_at_80x24():
    """The breakdown used to be cut at 80 columns after the id column: no value, no total.
    Now every pattern's value is on screen beside its words, and so is the total with its
    arithmetic."""
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
        assert total.split() == "Total 1 + 1 + 1 + 15 + 10 + 15 = 43 fan (a win needs 15)".split(), total
        assert "Edge Wait (Yazi)" in text and "Mixed Suit (Hun Yi Se)" in text
        assert all(len(ln.rstrip()) <= 80 for ln in lines)


async def test_the_hand_is_laid_out_in_the_scorers_melds_with_the_winning_tile_in_its_group():
    """The scorer read 123s 456s 456s 789s EE, the 5s completing one 456s in its middle (the
    edge wait it scores): the screen shows those groups, each named, the 5s underlined there
    and nowhere else in the layout."""
    from mahjong_tui.ui.screens.results import MeldLayout

    summary = yangzhou_win()
    (w,) = summary["winners"]
    assert w["melds"] == ["123s", "456s", "456s", "789s", "EE"] and w["melds"][w["winning_group"]] == "456s"
    app = make_app(variant="yangzhou", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        lines = await show_hand_end(app, pilot, summary)
        assert any("Won on 5s, Bot 2 (East)'s discard" in ln for ln in lines), lines
        layout = app.screen.query_one(MeldLayout)
        tiles, labels = layout.lines(layout.content_size.width)
        assert tiles.plain.split() == "1s 2s 3s 4s 5s 6s 4s 5s 6s 7s 8s 9s E E".split(), tiles.plain
        assert labels.plain.split() == ["chow"] * 4 + ["pair"], labels.plain
        under = [tiles.plain[sp.start:sp.end] for sp in tiles.spans if "underline" in str(sp.style)]
        assert under == ["5s"], tiles.spans
        at = next(sp.start for sp in tiles.spans if "underline" in str(sp.style))
        # the second group (the first 456s sits at 4s 5s 6s, the marked one is the scorer's)
        groups = [m.start() for m in re.finditer(r"\S+( \S+)*", tiles.plain)]
        won = w["winning_group"]
        assert groups[won] <= at < (groups[won + 1] if won + 1 < len(groups) else len(tiles.plain))


async def test_each_payment_is_worked_out():
    """Yangzhou: V = 43 fan; the discarder pays 2V = 2 × 43 = 86 (yangzhou.md "Settlement")."""
    summary = yangzhou_win()
    app = make_app(variant="yangzhou", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        lines = [ln.strip() for ln in await show_hand_end(app, pilot, summary)]
        at = next(i for i, ln in enumerate(lines) if ln.startswith("Paid"))
        assert lines[at].split() == ["Paid", "V", "=", "43"], lines[at]
        assert lines[at + 1] == "Bot 2 pays You: 2 × 43 = 86 (discarder)", lines[at + 1]
        assert summary["deltas"][1] == -86


async def test_the_pattern_ids_are_shown_on_request():
    summary = yangzhou_win()
    app = make_app(variant="yangzhou", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        lines = await show_hand_end(app, pilot, summary)
        assert not any("edge_wait" in ln for ln in lines)
        assert any("i: ids" in ln for ln in lines)
        await pilot.press("i")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        row = next(ln for ln in lines if "Edge Wait (Yazi)" in ln)
        assert re.search(r"edge_wait\s+1 fan", row), row
        await pilot.press("i")
        await pilot.pause()
        assert "edge_wait" not in screen_text(app)


async def test_a_win_beaten_by_a_nearer_seat_is_said():
    """West declared a win on the same 5s as South; South is nearer after the discarder
    (East) and takes it.  Seen from West's seat: 'You also declared a win …'."""
    summary = yangzhou_beaten()
    assert [w["seat"] for w in summary["winners"]] == [1] and summary["beaten"] == [2]
    app = make_app(variant="yangzhou", seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await show_hand_end(app, pilot, summary)
        text = " ".join(ln.strip() for ln in screen_text(app).splitlines())
        assert ("Bot 3 (West) also declared a win on 5s, but Bot 2 (South) sits nearer after the discarder "
                "and takes it: one winner per discard.") in text, text
    from mahjong_tui.ui.screens.results import beaten_note

    assert beaten_note(summary, ["Bot 1", "Bot 2", "You", "Bot 4"], you=2) == (
        "You also declared a win on 5s, but Bot 2 (South) sits nearer after the discarder and takes it: "
        "one winner per discard.")


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


async def test_uzje_fan_to_points_and_each_winners_payment():
    """Both Uzje winners on one discard, each with his fan, the ladder step and points, and
    the discarder's payment to each (uzje.md "From fan to points": 2.5 fan to win, ladder 2-5-10-…):
    South 2.6 + 2 × 0.6 + 1.4 = 5.2 fan, 2 whole fan above 2.5 → 10 points; West 2.6 + 0.6
    = 3.2 fan, 0 whole → 2 points."""
    summary = uzje_double_win()
    app = make_app(variant="uzje", seed=1)
    async with app.run_test(size=(160, 50)) as pilot:
        await show_hand_end(app, pilot, summary)
        text = screen_text(app)
        flat = " ".join(text.split())
        assert "2.6 + 0.6 + 0.6 + 1.4 = 5.2 fan" in flat, text
        assert "5.2 − 2.5 = 2.7 fan above the minimum, 2 whole: ladder 2, 5, 10, 20, … → 10 points" in flat, text
        assert "2.6 + 0.6 = 3.2 fan" in flat and "→ 2 points" in flat
        assert "You pay Bot 2: 10 (discarder)" in flat and "You pay Bot 3: 2 (discarder)" in flat
        assert "2 × 0.6 fan = 1.2 fan" in flat   # a pattern counted twice, said unambiguously


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
        for _ in range(12):
            if "Hand values of the others" in screen_text(app):
                break
            await pilot.press("down")
            await pilot.pause()
        lines = screen_text(app).splitlines()
        at = next(i for i, ln in enumerate(lines) if "Hand values of the others" in ln)
        rows = [re.sub(r"[\u2580-\u259f]+", "", ln).rstrip() for ln in lines[at + 1:at + 4]]  # no scrollbar
        assert rows == ["   Bot 2 0 points: nothing scores",
                        "   Bot 3 8 points: Flower or season of your own wind 8 points",
                        "   Bot 4 4 points: Flower or season of another wind 4 points"], rows


def test_a_non_winners_arithmetic_is_shown_where_it_takes_more_than_one_number():
    """Classic: Bot 3's exposed pung of honours 4 + own flower 8, doubled for the dragon pung:
    (4 + 8) × 2 = 24 (classic.md "Scoring": every player scores his own hand)."""
    from mahjong_tui.ui.screens.results import others_breakdown
    from rich.console import Console

    pats = [{"id": "pung_honour_open", "value": 4, "count": 1, "kind": "points", "description": "exposed pung of honours"},
            {"id": "bonus_own", "value": 8, "count": 1, "kind": "points", "description": "flower or season of your own wind"},
            {"id": "dragon_pung", "value": 1, "count": 1, "kind": "doublings", "description": "pung or kong of dragons"}]
    s = {"winners": [{"unit": "points"}], "loser_scores": {2: 24}, "loser_patterns": {2: pats}}
    c = Console(width=200, record=True, color_system=None)
    c.print(others_breakdown(s, ["You", "Bot 2", "Bot 3", "Bot 4"], load_variant("classic")))
    assert c.export_text().split() == (
        "Bot 3 24 points: Exposed pung of honours 4 points · Flower or season of your own wind 8 points · "
        "Pung or kong of dragons 1 doubling → (4 + 8) × 2 = 24 points").split()


def test_a_zero_read_as_rank_0_is_underlined_when_it_won():
    """Uzje: the winning zero (``Z``) sits in an arith the scorer read as 0-1-2 of socks
    (``012s``, uzje.md "Melds and winning hands"): it is underlined there all the same."""
    from mahjong_tui.ui.faces import load_face_set
    from mahjong_tui.ui.screens.results import MeldLayout
    from mahjong_tui.ui.widgets.art import TileArt

    w = {"seat": 0, "tile": "Z", "form": "standard", "melds": ["012s", "345s", "678s", "9xas", "EE"],
         "winning_group": 0, "patterns": []}
    hand = {"concealed": "Z12345678s9xasEE", "melds": [], "bonus": "", "picked_up": ""}
    layout = MeldLayout(w, hand, TileArt(load_face_set("compact", max_rank=16)), load_variant("uzje"))
    tiles, labels = layout.lines(120)
    under = [tiles.plain[sp.start:sp.end].strip() for sp in tiles.spans if "underline" in str(sp.style)]
    assert under == ["0s"] and tiles.plain.split()[0] == "0s", (tiles.plain, under)
    assert labels.plain.split()[0] == "arith"


async def test_names_in_the_payments_are_plain_text():
    """A LAN player's name is shown as typed, never read as markup ('[b]Ann[/b]')."""
    from mahjong_tui.ui.screens.results import HandEndScreen

    summary = yangzhou_win()
    app = make_app(variant="yangzhou", seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: table_screen(app) is not None)
        ts = table_screen(app)
        names = ["You", "[b]Ann[/b]", "Bot 3", "Bot 4"]
        app.push_screen(HandEndScreen(summary, names, ts.art, ts.session.variant, you=0))
        await wait_for(pilot, lambda: isinstance(app.screen, HandEndScreen))
        await pilot.pause()
        assert "[b]Ann[/b] pays You: 2 × 43 = 86 (discarder)" in screen_text(app)
