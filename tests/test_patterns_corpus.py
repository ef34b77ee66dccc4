"""Regression fixture of the move to the pattern library (issue 24): every scoring result of
``tests/fixtures/scoring_corpus.json.gz`` is the one the five per-variant scoring modules gave
before the library existed.

The fixture is a sample of a larger corpus recorded at that commit: every ``evaluate`` and
``score_loser`` call made by ``sim`` with fixed seeds in all five variants (and Ùzje's options),
by the scoring tests, and by random complete hands; the sample keeps each pattern, each
refusal reason and each winning form of each variant at least three times, plus random cases.
A case gives the variant (with its options), the function, the hand context and the full
result (value, unit, form, breakdown with the player's words, payments, decomposition, points).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import mahjong_tui.scoring as S
from mahjong_tui.melds import Meld
from mahjong_tui.scoring.context import HandContext
from mahjong_tui.variant import load_variant

FIXTURE = Path(__file__).parent / "fixtures" / "scoring_corpus.json.gz"
with gzip.open(FIXTURE, "rt", encoding="utf-8") as _f:
    CASES = json.load(_f)


def context(c: dict) -> HandContext:
    return HandContext(
        concealed=tuple(c["concealed"]),
        melds=tuple(Meld(k, tuple(t), d, co, kt, fs) for k, t, d, co, kt, fs in c["melds"]),
        bonus=tuple(c["bonus"]), winning_tile=c["winning_tile"], self_draw=c["self_draw"],
        seat_wind=c["seat_wind"], prevailing_wind=c["prevailing_wind"], situations=frozenset(c["situations"]),
        claimed_concealed=tuple(c["claimed_concealed"]), discarder=c["discarder"],
        fed_third_meld=c["fed_third_meld"], indicators=tuple(c["indicators"]), winner=c["winner"],
        kong_chain=tuple(c["kong_chain"]),
    )


def result(r) -> dict:
    return {
        "winning": r.winning, "value": r.value, "unit": r.unit, "form": r.form, "reason": r.reason,
        "patterns": [[p.id, p.value, p.count, p.kind, p.description] for p in r.patterns],
        "payments": dict(r.payments) if r.payments is not None else None,
        "decomposition": list(r.decomposition), "points": r.points, "winning_group": r.winning_group,
    }


def test_the_fixture_covers_the_five_variants():
    per = {}
    for c in CASES:
        per.setdefault(c["variant"], set()).update(p[0] for p in c["expect"]["patterns"])
    assert set(per) == {"classic", "yuxi", "yangzhou", "singapore", "uzje"}
    assert all(len(ids) >= 10 for ids in per.values()), {k: len(v) for k, v in per.items()}


@pytest.mark.parametrize("vid", ["classic", "yuxi", "yangzhou", "singapore", "uzje"])
def test_results_are_those_of_the_per_variant_modules(vid):
    bad = []
    n = 0
    for c in CASES:
        if c["variant"] != vid:
            continue
        n += 1
        v = load_variant(vid, c["options"] or None)
        got = result(getattr(S, c["fn"])(v, context(c["ctx"])))
        # JSON keeps numbers as written: 4.0 is 4.0, 4 is 4 (the scorers' types are part of the result)
        if json.loads(json.dumps(got)) != c["expect"] or [type(x) for x in (got["value"], got["points"])] != [
                type(x) for x in (c["expect"]["value"], c["expect"]["points"])]:
            bad.append((c["ctx"], c["expect"], got))
    assert n > 0
    assert not bad, f"{len(bad)} of {n} differ; first: {bad[0]}"
