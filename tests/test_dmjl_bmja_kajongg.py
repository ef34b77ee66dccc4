"""DMJL and BMJA scoring checked against KDE Kajongg's own scoring tests (issue 24 item 4).

Waiting hands (13 tiles) are scored as non-winners' hands, as every player's hand is
(dmjl.md "Scoring"), BMJA's "calling for" a limit hand included.

``tests/kajongg/hands.json`` holds the hand strings of Kajongg's scoring tests with what its
"Classical Chinese DMJL" and "Classical Chinese BMJA" rulesets expect (win or not; points,
doublings, limits); ``tests/kajongg/convert.py`` turns each into a ``score`` command line and
says why a hand cannot be stated in our notation.  Every convertible hand must agree, in both
variants, with the limit and with the roof off; a hand that does not win agrees when neither
wins (Kajongg scores such a 14-tile hand 0).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "kajongg"))
from compare import compare, expected_total  # noqa: E402
from convert import HERE, NotExpressible, convert, load_cases, not_converted_text  # noqa: E402

CASES = load_cases()


def test_most_kajongg_hands_are_convertible():
    converted = [c for c in CASES if c["converted"] is not None]
    # 198 scoring tests; the others are partial or long hands, or use a notation ours has no
    # word for (tests/kajongg/convert.py lists why)
    assert len(CASES) == 198
    assert len(converted) == 155
    for c in CASES:
        if c["converted"] is None:
            assert c["reason"]


def test_the_list_of_hands_not_converted_is_current():
    assert (HERE / "NOT_CONVERTED.md").read_text(encoding="utf-8") == not_converted_text()


@pytest.mark.parametrize("roof_off", [False, True], ids=["limit", "roof_off"])
def test_every_convertible_hand_agrees(roof_off):
    bad = [f"{v} {case['kajongg']!r} -> {case['converted'].hand!r}: Kajongg {want}, ours {got}"
           for case, v, want, got, ok in compare(roof_off) if not ok]
    assert not bad, "\n".join(bad)


def test_converter_examples():
    # a declared concealed kong, an exposed kong, a pair completed by a discard (b5b5: into the
    # concealed tiles), the four flowers; t = Twofold Fortune
    c = convert("b1B1B1b1 RB2B3B4B5B6B7 b8b8b8b8 b5b5 fe fs fn fw m.t LB4")
    assert c.hand == "23455567s [1111s] (8888s) +4s |oprq"
    assert c.self_draw and c.situations == ["double_kong_replacement"]
    # stones are our dots, bamboo our bamboo; North's flower and season; a = Original Call
    c = convert("s1s1s1 s1s2s3 RB6B6B6B8B8B8B5B5 fn yn m.a LB5", "N")
    assert c.hand == "55666888s (111t) (123t) +5s |rk"
    assert c.situations == ["original_call"] and c.seat_wind == "N"
    # an exposed meld completed by the winning discard is written first
    c = convert("RB2B2 b4b4b4 b5b6b7 b7b8b9 c1c1c1 md Lb7b7b8b9")
    assert c.hand == "22s (789s) (444s) (567s) (111m) +7s" and not c.self_draw
    # a waiting hand: scored as a non-winner's, its last tile dropped
    c = convert("RC1C1C1C3C4C5C6C7C8C9C9C9C5 LC3")
    assert c.waiting and c.hand == "1113455678999m" and not c.situations
    with pytest.raises(NotExpressible, match="0 tiles"):
        convert("fs fw fe fn")
    with pytest.raises(NotExpressible, match="written as drawn"):
        convert("RB1B1B1B1B2B3B4B4B4B7B7B7DrDr fe fs fn fw mZ LDrDrDr")
    with pytest.raises(NotExpressible, match="aaaA"):
        convert("RB2B2B2S1S1S1B4B4 b1b1b1 c9c9c9C9 LB2B2B2B2")


def test_totals_follow_the_limit_and_the_roof():
    # Kajongg's 72 points and 6 doublings: 4608, capped at 500 (DMJL); 68 and 5: 2176, at 1000 (BMJA)
    assert expected_total({"points": 72, "doubles": 6, "limits": 0}, "dmjl") == 500
    assert expected_total({"points": 72, "doubles": 6, "limits": 0}, "dmjl", roof_off=True) == 4608
    assert expected_total({"points": 68, "doubles": 5, "limits": 0}, "bmja") == 1000
    assert expected_total({"points": 0, "doubles": 0, "limits": 0.5}, "bmja") == 500
