"""Variant files: loading, extends, validation errors, rules hash."""

from __future__ import annotations

import pytest

from mahjong_tui.errors import VariantError
from mahjong_tui.variant import available_variants, load_variant


def test_shipped_variants_load_with_their_tile_counts():
    assert {"classic", "yuxi", "yangzhou"} <= set(available_variants())
    # GAPS §1 table: Oxenstierna 144, Yuxi 136, Yangzhou 136
    assert load_variant("classic").tile_count == 144
    assert load_variant("yuxi").tile_count == 136
    assert load_variant("yangzhou").tile_count == 136
    assert len(load_variant("classic").all_tiles()) == 144


def test_classic_holds_gaps_5_defaults():
    v = load_variant("classic")
    assert v.wall["reserve"] == 13 and v.scoring["limit"] == 800
    assert v.claims["next_player_pickup"] and not v.claims["win_completing_chow"]
    assert v.settlement["mode"] == "cumulative" and v.match["hands"] == 16
    assert v.scoring["special"]["seven_pairs"] == 500 and v.scoring["points"]["mahjong_last_tile"] == 30


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_extends_overrides_only_what_it_says(tmp_path):
    p = write(tmp_path, "house.toml", 'extends = "classic"\nid = "house"\nname = "House"\n'
              '[settlement]\nmode = "classical_zero_sum"\n')
    v = load_variant(str(p))
    base = load_variant("classic")
    assert v.settlement["mode"] == "classical_zero_sum"
    assert v.scoring["points"] == base.scoring["points"]
    assert v.rules_hash != base.rules_hash


def test_rules_hash_ignores_names(tmp_path):
    p = write(tmp_path, "renamed.toml", 'extends = "classic"\nid = "renamed"\nname = "Another name"\n')
    assert load_variant(str(p)).rules_hash == load_variant("classic").rules_hash


@pytest.mark.parametrize("body,needles", [
    ('[claims]\nchow = "sometimes"\n', ["claims.chow", "'none'", "'next'"]),
    ('[claims]\nchoww = "next"\n', ["claims.choww", "allowed"]),
    ('[wall]\nstacks = [18, 18, 18, 17]\n', ["wall.stacks", "142", "144"]),
    ('[scoring.points]\nnot_a_pattern = 3\n', ["scoring.points.not_a_pattern", "known ids"]),
    ('[scoring.points]\nchow = "zero"\n', ["scoring.points.chow", "number"]),
    ('colour = 3\n', ["unknown key 'colour'"]),
    ('[tiles\n', ["not valid TOML"]),
])
def test_validation_errors_name_file_key_and_what_is_allowed(tmp_path, body, needles):
    p = write(tmp_path, "bad.toml", 'extends = "classic"\nid = "bad"\nname = "Bad"\n' + body)
    with pytest.raises(VariantError) as exc:
        load_variant(str(p))
    msg = str(exc.value)
    assert "bad.toml" in msg
    for n in needles:
        assert n in msg


def test_unknown_variant_lists_known_ones():
    with pytest.raises(VariantError, match="unknown variant 'nope'.*classic"):
        load_variant("nope")


def test_extends_cycle_and_missing_parent(tmp_path):
    write(tmp_path, "a.toml", 'extends = "b.toml"\nid = "a"\nname = "A"\n')
    write(tmp_path, "b.toml", 'extends = "a.toml"\nid = "b"\nname = "B"\n')
    with pytest.raises(VariantError, match="cycle"):
        load_variant(str(tmp_path / "a.toml"))
    p = write(tmp_path, "c.toml", 'extends = "nowhere"\nid = "c"\nname = "C"\n')
    with pytest.raises(VariantError, match="unknown variant 'nowhere'"):
        load_variant(str(p))


def test_missing_required_key(tmp_path):
    p = write(tmp_path, "m.toml", 'id = "m"\nname = "M"\n[wall]\nstacks=[17,17,17,17]\n')
    with pytest.raises(VariantError, match="missing key 'scoring.scheme'"):
        load_variant(str(p))


def test_with_options_revalidates():
    v = load_variant("classic").with_options({"settlement.mode": "classical_zero_sum"})
    assert v.settlement["mode"] == "classical_zero_sum"
    with pytest.raises(VariantError, match="settlement.mode"):
        load_variant("classic").with_options({"settlement.mode": "nonsense"})
