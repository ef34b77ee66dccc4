"""The Ùzje table in the real app (Textual Pilot): 16-rank tiles and the zero drawn legibly,
the bonus-tile indicator in the middle of the table, and a claim prompt of ariths (named so; one with
the zero read as rank 0) — each with its own key — whose chosen meld is shown as read.

Seed 7, one hand, baseline bots: your first claim prompt with three or more melds offers
0-8-16, 8-11-14 and 8-12-16 of mans on Bot 4's 8m while you hold two zeros (found by a search
over seeds; the bots are deterministic)."""

from __future__ import annotations

from mahjong_tui import tiles as T
from mahjong_tui.ui.widgets.areas import ActionBar, HandArea, WallPanel
from tests.ui.helpers import bot_policy, make_app, my_request, next_decision, press_action, table_screen, wait_for


async def test_uzje_table_ranks_zero_indicator_and_arith_prompt():
    app = make_app(variant="uzje", seed=7, hands=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: my_request(app) is not None)
        t = table_screen(app)
        decide = bot_policy(t.session.variant, 0)
        wall = app.screen.query_one(WallPanel).plain_lines()
        indicator = my_request(app).view["wall"]["indicators"][0]
        assert any("Bonus" in line and indicator in line for line in wall), wall  # inside the drawn walls
        while (req := await next_decision(pilot, app)) is not None:
            chows = [a for a in req.legal if a.kind == "chow"]
            if req.is_turn or len(chows) < 3:
                await press_action(pilot, app, decide(req))
                await wait_for(pilot, lambda: my_request(app) is not req)
                continue
            hand = app.screen.query_one(HandArea).plain_lines()[0].split()
            assert "Z" in hand and any(x[:-1].isdigit() and int(x[:-1]) >= 10 for x in hand), hand
            bar = " ".join(app.screen.query_one(ActionBar).plain_lines())
            shown = {T.format_tiles(T.zero_as_number(c.action.tiles)): key for key, c in t.choice_map.items()
                     if c.action.kind == "chow"}
            assert set(shown) == {"08fm", "8adm", "8bfm"}
            for key in shown.values():
                assert f" {key} " in bar
            assert "arith  0m  8m 16m" in bar         # the zero read as rank 0 of mans
            assert "chow" not in bar                  # Uzje's sequences are ariths, gems, powers
            await pilot.press(shown["08fm"])
            await wait_for(pilot, lambda: my_request(app) is not req)
            melds = app.screen.query_one(HandArea).plain_lines()
            # the claimed 8m bracketed, and the seat it came from (West) after the meld
            assert any("0m(8m)16m←W" in line for line in melds), melds
            break
        else:
            raise AssertionError("no claim prompt of three melds came")


def test_a_prompt_of_many_melds_gives_each_its_own_key():
    """A zero discarded to a hand of socks and mans may complete a dozen melds (Uzje): keys 1-9,
    then 0 and letters no other key of the table uses; past them a choice is clicked."""
    from mahjong_tui.engine import Action
    from mahjong_tui.ui.choices import LETTERS, assign

    zero = T.ZERO
    chows = [Action(1, "chow", tiles=tuple(sorted((zero, T.tile("s", d), T.tile("s", 2 * d))))) for d in range(1, 9)]
    chows += [Action(1, "chow", tiles=tuple(sorted((zero, T.tile("m", d), T.tile("m", 2 * d))))) for d in range(1, 9)]
    legal = chows + [Action(1, "pung", zero), Action(1, "win", zero), Action(1, "pass")]
    choices = assign(legal)
    keys = [c.key for c in choices]
    assert len(set(keys)) == len(keys) == 19
    assert {"w", "p", "x"} <= set(keys)
    numbered = [c.key for c in choices if c.action.kind == "chow"]
    assert numbered[:10] == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]
    reserved = set(LETTERS.values()) | set("dhioq")
    assert not reserved & set(numbered[10:]) and all(len(k) == 1 for k in numbered)
    # the zero shows as the number it is read as
    assert choices[[c.action for c in choices].index(chows[0])].label == "chow 0s 1s 2s"


def test_flower_wins_are_named_in_the_prompt():
    from mahjong_tui.engine import Action
    from mahjong_tui.ui.choices import label

    assert label(Action(1, "win", T.parse_tile("r")), "turn") == "win by flowers on r"
    assert label(Action(1, "win", T.parse_tile("r")), "rob") == "rob the flower: win on r"
    assert label(Action(1, "win", T.parse_tile("5s")), "turn") == "win (self-drawn)"


def test_each_claim_is_named_by_its_meld_kind():
    """Uzje's claims are ariths, gems and powers (variants/uzje.toml [melds], uzje.md "Melds and winning hands"), each
    named so in the prompt; a Classic chow stays a chow."""
    from mahjong_tui.engine import Action
    from mahjong_tui.ui.choices import assign
    from mahjong_tui.variant import load_variant

    def claim(*tiles):
        return Action(1, "chow", tiles=tuple(sorted(T.parse_tile(x) for x in tiles)))

    uzje = load_variant("uzje")
    legal = [claim("2s", "7s", "bs"), claim("1s", "2s", "4s"), claim("1s", "4s", "9s"), claim("Z", "1s", "4s"),
             Action(1, "pass")]
    labels = sorted(c.label for c in assign(legal, "claim", uzje))
    assert labels == ["arith 2s 7s 12s", "gem 1s 2s 4s", "pass", "power 0s 1s 4s", "power 1s 4s 9s"]
    classic = load_variant("classic")
    assert [c.label for c in assign([claim("3m", "4m", "5m"), Action(1, "pass")], "claim", classic)] == \
        ["chow 3m 4m 5m", "pass"]


def test_the_status_line_names_a_claim_by_its_meld_kind():
    """The status line's claim words use the same meld names as the prompt (pt1 item 10):
    an Uzje claim of 12s completing 10s 11s 12s is an arith, not a chow; Classic keeps
    'chows'.  The engine's claim event carries the meld (``tiles``)."""
    from mahjong_tui.engine import Action, Table
    from mahjong_tui.ui.model import describe_event
    from mahjong_tui.variant import load_variant
    from tests.helpers import set_hand

    def name(seat):
        return "You" if seat == 0 else f"Bot {seat + 1}"

    uzje = load_variant("uzje")
    ev = {"type": "claim", "seat": 1, "kind": "chow", "tile": "bs", "from": 0, "tiles": "xabs"}
    assert describe_event(ev, name, uzje) == "Bot 2 makes an arith with 12s from You"
    assert describe_event({**ev, "tiles": "124s", "tile": "4s"}, name, uzje) == "Bot 2 makes a gem with 4s from You"
    assert describe_event({**ev, "seat": 0, "from": 3, "tiles": "124s", "tile": "4s"}, name, uzje) == \
        "You make a gem with 4s from Bot 4"
    classic = load_variant("classic")
    assert describe_event({**ev, "tiles": "345m", "tile": "5m"}, name, classic) == "Bot 2 chows 5m from You"
    # the engine's event names the meld
    table = Table(classic, 4, hands=1)
    set_hand(table, 0, "5m19t19sESWNCFPPP")
    set_hand(table, 1, "34m9m19t19sESWNCF")
    table.apply_decision(Action(0, "discard", T.parse_tile("5m")))  # the others pass: forced
    table.apply(Action(1, "chow", tiles=(T.parse_tile("3m"), T.parse_tile("4m"), T.parse_tile("5m"))))
    claims = [e for e in table.events if e.get("type") == "claim"]
    assert claims and claims[-1]["tiles"] == "345m", claims
