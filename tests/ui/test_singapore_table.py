"""A Singapore table through the real app (seed 001; singapore.md "Settlement"): every seat's bonus tiles
(flowers, seasons, animals) beside it, an instant payment on the status line the moment it is
made and on the scoring screen, the tai breakdown.

Seed 28, one hand: the deal gives you (East, the dealer) Bamboo, Cat and Rat -- Cat + Rat both
from the deal, a hidden bite: each other player pays you 2 at once -- and South Plum and
Orchid.  You then play the hand as the baseline bot would, and win on South's discard.
"""

from __future__ import annotations

import re

from mahjong_tui.ui.screens.results import HandEndScreen
from mahjong_tui.ui.widgets.areas import ActionBar, SeatPanel
from tests.ui.helpers import bot_policy, make_app, my_request, next_decision, press_action, screen_text, wait_for


async def test_singapore_table_shows_bonus_tiles_and_instant_payments():
    app = make_app(variant="singapore", seed=28, hands=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: my_request(app) is not None)
        bottom = app.screen.query_one("#seat-bottom", SeatPanel).plain_lines()
        right = app.screen.query_one("#seat-right", SeatPanel).plain_lines()
        # your line: wind, name, score after the bite (+6), then the bonus tiles
        assert "East You  6" in bottom[0] and "Bm Ca Ra" in " ".join(bottom)
        assert "Pl Or" in " ".join(right) and "South Bot 2  -2" in right[0]
        # the bite is news: a line of its own under your prompt
        bar = app.screen.query_one(ActionBar).plain_lines()
        assert "Your turn" in bar[0]
        assert bar[-1].strip() == "You collect 2 from each: Cat + Rat, hidden"
        decide = bot_policy(app.screen.session.variant, 0)
        while (req := await next_decision(pilot, app)) is not None:
            await press_action(pilot, app, decide(req))
            await wait_for(pilot, lambda: my_request(app) is not req)
        assert isinstance(app.screen, HandEndScreen)
        summary = app.screen.summary
        assert [(p["id"], p["seat"], p["amount"]) for p in summary["instant_payments"]][0] == ("bite_animals", 0, 2)
        text = screen_text(app)
        assert "Instant payments during the hand" in text
        assert "You +6 (2 from each other player): Cat + Rat, hidden" in text
        # you win on South's discard with Cat and Rat: 2 tai, V = 2: South pays 2V, the others V
        (w,) = summary["winners"]
        assert (w["seat"], w["value"], w["unit"]) == (0, 2, "tai") and summary["discarder"] == 1
        assert [(p["id"], p["count"]) for p in w["patterns"]] == [("animal", 2)]
        assert summary["deltas"] == [8, -4, -2, -2]
        assert "Animal tile (each)" in text and "2 tai" in text and "Total" in text
        # the standings count the bites: your change this hand = settlement + instant payments
        me = summary["deltas"][0] + summary["instant_deltas"][0]
        assert me == 8 + 6 and summary["scores"][0] == me
        # and so does the screen: the standings row says +14 this hand, score 14
        assert re.search(r"You\s+\+14\s+14\b", text), text
