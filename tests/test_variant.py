"""Variant files: loading, extends, validation errors, rules hash."""

from __future__ import annotations

import pytest

from mahjong_tui.errors import VariantError
from mahjong_tui.variant import available_variants, load_variant


def test_shipped_variants_load_with_their_tile_counts():
    assert {"classic", "yuxi", "yangzhou", "singapore"} <= set(available_variants())
    # common.md "Tile notation" table: Oxenstierna 144, Yuxi 136, Yangzhou 136, Singapore 148
    assert load_variant("classic").tile_count == 144
    assert load_variant("yuxi").tile_count == 136
    assert load_variant("yangzhou").tile_count == 136
    assert load_variant("singapore").tile_count == 148
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


@pytest.mark.parametrize("parent,body,needles", [
    ("classic", '[claims]\nchow = "sometimes"\n', ["claims.chow", "'none'", "'next'"]),
    ("classic", '[claims]\nchoww = "next"\n', ["claims.choww", "allowed"]),
    ("classic", '[wall]\nstacks = [18, 18, 18, 17]\n', ["wall.stacks", "142", "144"]),
    ("classic", '[scoring.points]\nnot_a_pattern = 3\n', ["scoring.points.not_a_pattern", "known ids"]),
    ("classic", '[scoring.points]\nchow = "zero"\n', ["scoring.points.chow", "number"]),
    ("classic", 'colour = 3\n', ["unknown key 'colour'"]),
    ("classic", '[tiles\n', ["not valid TOML"]),
    ("classic", '[settlement.liability]\nfull_suit = "meld:5"\n', ["settlement.liability.full_suit", "meld:N"]),
    ("classic", '[settlement.liability]\nnot_a_pattern = "discarder"\n', ["settlement.liability.not_a_pattern", "known ids"]),
    ("classic", '[settlement]\nhand_value = "tripling"\n', ["settlement.hand_value", "'linear'", "'doubling'"]),
    ("classic", '[instant_payments]\nbite_dragons = 1\n', ["instant_payments.bite_dragons", "bite_animals", "kong_exposed"]),
    ("classic", '[instant_payments]\nkong_exposed = -1\n', ["instant_payments.kong_exposed", "from 0 to 1000"]),
    ("classic", '[win]\nbonus_wins = "yes"\n', ["win.bonus_wins", "true or false"]),
    # keys added for Uzje (seed 002, uzje.md)
    ("uzje", '[tiles]\nsuit_ranks = { x = [1, 16] }\n', ["tiles.suit_ranks", "suit letter"]),
    ("uzje", '[tiles]\nsuit_ranks = { t = [1, 16] }\nsuits = ["s", "m"]\n', ["tiles.suit_ranks.t", "tiles.suits"]),
    ("uzje", '[tiles]\nhonours = ["E", "S", "W", "N", "C", "F", "P"]\n', ["tiles.zero_rank", "'Z'"]),
    ("uzje", '[wall]\nstacks = "odd"\n', ["wall.stacks", '"even"']),
    ("uzje", '[wall]\ntail = "dead_wall"\n', ["wall.indicators", "live_wall"]),
    ("uzje", '[deal]\nfirst_dealer = "eldest"\n', ["deal.first_dealer", "'breaker'"]),
    ("uzje", '[claims]\nrob_kong_forms = ["nine_gates"]\n', ["claims.rob_kong_forms", "'fourteen_orphans'"]),
    ("uzje", '[win]\nforms = ["standard", "seven_pairs"]\n', ["claims.rob_kong_forms", "win.forms"]),
    ("uzje", '[melds]\nsequence = "run"\n', ["melds.sequence", "'arith'"]),
    ("uzje", '[melds]\nsteps = [0, 1]\n', ["melds.steps", "1..8"]),
    ("uzje", '[melds.sets]\ngem = [[1, 2]]\n', ["melds.sets", "three distinct ranks"]),
    ("uzje", '[melds.sets]\npung = [[1, 2, 3]]\n', ["melds.sets.pung", "kind of its own"]),
    ("uzje", '[scoring.limits]\nnine_gates = 1\n', ["scoring.limits.nine_gates", "known ids"]),
    ("uzje", '[scoring]\nladder = [2, "five"]\n', ["scoring.ladder", "numbers"]),
    ("uzje", '[scoring.lucky_tiles]\nsea_scoop = 1\n', ["scoring.lucky_tiles", "tile"]),
    ("uzje", '[options]\nflowers = "yes"\n', ["options.flowers", "true or false"]),
    ("uzje", '[options]\nconcealed_quad_mode = "secret"\n', ["options.concealed_quad_mode", "'hidden'"]),
    ("uzje", '[options]\nbonus_tile_mode = "next"\n', ["options.bonus_tile_mode", "'successor'"]),
    ("yuxi", '[tiles]\nsuit_ranks = { t = [1, 20] }\n', ["tiles.suit_ranks", "1..16"]),
    ("yuxi", '[tiles]\nbonus = ["h"]\n[wall]\nstacks = "even"\n', ["wall.stacks", "'even'", "137 tiles"]),
])
def test_validation_errors_name_file_key_and_what_is_allowed(tmp_path, parent, body, needles):
    """A house rule extending ``parent`` with one bad key: the error names the file, the key
    and what is allowed."""
    p = write(tmp_path, "bad.toml", f'extends = "{parent}"\nid = "bad"\nname = "Bad"\n' + body)
    with pytest.raises(VariantError) as exc:
        load_variant(str(p))
    msg = str(exc.value)
    assert "bad.toml" in msg
    for n in needles:
        assert n in msg, msg


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


def test_singapore_holds_gaps_3_defaults():
    v = load_variant("singapore")
    # singapore.md "Setting up": 19/18/19/18 stacks, 2d6, the Flower Pile is the tail, no ordinary draw at 15 left
    assert list(v.wall["stacks"]) == [19, 18, 19, 18] and v.wall["dice"] == 2
    assert v.wall["tail"] == "loose_tiles" and v.wall["reserve"] == 15
    assert v.claims["chow"] == "next" and v.claims["rob_kong"] == "added" and not v.claims["multiple_winners"]
    assert list(v.win["forms"]) == ["standard", "thirteen_orphans"] and v.win["minimum"] == 1
    assert v.scoring["limit"] == 5 and v.settlement["hand_value"] == "doubling"
    assert (v.settlement["self_draw_each"], v.settlement["discarder"], v.settlement["discard_others"]) == (2, 2, 1)
    assert not v.settlement["shooter_pays_all"]
    assert v.match["rounds"] == 4 and list(v.match["dealer_stays_on"]) == ["dealer_win", "draw"]
    assert dict(v.instant_payments) == {
        "bite_animals": 1, "bite_animals_hidden": 2, "bite_seat_flowers": 1, "bite_seat_flowers_hidden": 2,
        "bite_complete_group": 2, "bite_all_animals": 2, "kong_exposed": 1, "kong_concealed": 2}


def test_new_keys_leave_older_rules_hashes_alone(tmp_path):
    """Keys added with Singapore (win.bonus_wins, settlement.liability/hand_value/
    shooter_pays_all, [instant_payments]) enter the rules hash only when they are not at their
    default, so the files (and saved games) of the other variants keep their hash."""
    base = load_variant("classic")
    same = write(tmp_path, "same.toml", 'extends = "classic"\nid = "same"\nname = "Same"\n'
                 '[settlement]\nhand_value = "linear"\nshooter_pays_all = false\n[instant_payments]\n')
    assert load_variant(str(same)).rules_hash == base.rules_hash
    other = write(tmp_path, "other.toml", 'extends = "classic"\nid = "other"\nname = "Other"\n'
                  '[instant_payments]\nkong_exposed = 1\n')
    assert load_variant(str(other)).rules_hash != base.rules_hash
    # the hashes of record of the three variants played before Singapore
    assert {vid: load_variant(vid).rules_hash for vid in ("classic", "yuxi", "yangzhou")} == {
        "classic": "8b9d46370dfc2712", "yuxi": "05ea54e460b792ca", "yangzhou": "c6cf9d2149b99c2d"}


# ------------------------------------------------------------------------------------------
# Uzje (seed 002, uzje.md): its tile set, options and later keys
# ------------------------------------------------------------------------------------------

def test_uzje_loads_with_its_tile_set():
    v = load_variant("uzje")
    assert v.tile_count == 168 and v.stacks == (21, 21, 21, 21) and len(v.all_tiles()) == 168
    assert v.zero is not None and v.copies_of(v.zero) == 4
    assert {tpl.kind for tpl in v.meld_templates} == {"arith", "gem", "power"}


def test_fourteen_orphans_needs_the_zero(tmp_path):
    p = write(tmp_path, "bad.toml", 'extends = "classic"\nid = "bad"\nname = "Bad"\n'
              '[win]\nforms = ["standard", "fourteen_orphans"]\n')
    with pytest.raises(VariantError, match="bad.toml.*fourteen_orphans.*zero_rank"):
        load_variant(str(p))


def test_tile_set_options_rewrite_the_tiles(tmp_path):
    """Ùzje's options (uzje.md "Tiles", "Setting up"), flipped by a house-rule file or with_options (`--option flowers=true`)."""
    p = write(tmp_path, "house.toml", 'extends = "uzje"\nid = "house"\nname = "House"\n'
              '[options]\nflowers = true\ncompressed_winds = true\nall_tongs = true\n')
    v = load_variant(str(p))
    assert v.tile_count == 168 + 8 - 8 + 56 and v.stacks == (28,) * 4
    assert v.tiles_rules["bonus"] == ("h", "i", "j", "k", "o", "p", "q", "r")
    assert v.tiles_rules["honours"] == ("Z", "H", "V", "C", "F", "P")
    assert "t" not in v.tiles_rules["suit_ranks"]
    back = v.with_options({"flowers": False, "compressed_winds": False, "all_tongs": False})
    assert back.rules_hash == load_variant("uzje").rules_hash
    with pytest.raises(VariantError, match="'colour': house has no such option; its named options: flowers"):
        v.with_options({"colour": 1})


def test_later_keys_at_their_default_leave_older_hashes_alone(tmp_path):
    """Keys added for Uzje are left out of the rules hash while at their defaults, so logs of
    the other variants written before them still replay; a changed value changes the hash."""
    same = write(tmp_path, "same.toml", 'extends = "classic"\nid = "same"\nname = "Same"\n'
                 '[melds]\nsequence = "chow"\nsteps = [1]\n[options]\nbonus_tile_mode = "identity"\n')
    other = write(tmp_path, "other.toml", 'extends = "classic"\nid = "other"\nname = "Other"\n'
                  '[melds]\nsteps = [1, 2]\n')
    assert load_variant(str(same)).rules_hash == load_variant("classic").rules_hash
    assert load_variant(str(other)).rules_hash != load_variant("classic").rules_hash


# -- ranges: every number of a variant file is bounded (issue 20, item 10) ------------------------
@pytest.mark.parametrize("parent, body, key, allowed", [
    ("classic", "[match]\nhands = 1e308\n", "match.hands", "a whole number from 1 to 1000"),
    ("classic", "[scoring]\nlimit = 1e308\n", "scoring.limit", "a number from 0 to 1000000"),
    ("classic", "[scoring]\nlimit = inf\n", "scoring.limit", "a number from 0 to 1000000"),
    ("classic", "[scoring]\nlimit = nan\n", "scoring.limit", "a number from 0 to 1000000"),
    ("classic", "[scoring]\nbase = 1e308\n", "scoring.base", "a number from 0 to 1000"),
    ("classic", "[win]\nminimum = 1e308\n", "win.minimum", "a number from 0 to 1000"),
    ("classic", "[match]\nstart_score = 1e308\n", "match.start_score", "a number from -1000000000 to 1000000000"),
    ("classic", "[settlement]\ndiscarder = 1e308\n", "settlement.discarder", "a number from 0 to 100"),
    ("classic", "[scoring.doublings]\nown_wind_pung = 1e308\n", "scoring.doublings.own_wind_pung",
     "a number from 0 to 10"),
    ("classic", "[scoring.points]\nchow = -inf\n", "scoring.points.chow", "a number from 0 to 10000"),
    ("yuxi", "[scoring.multipliers]\nall_pungs = 1e308\n", "scoring.multipliers.all_pungs",
     "a number from 0 to 1000"),
    ("yangzhou", "[scoring.fan]\nfull_flush = 1e308\n", "scoring.fan.full_flush", "a number from 0 to 1000"),
    ("singapore", "[scoring.tai]\nfull_flush = 1e308\n", "scoring.tai.full_flush", "a number from 0 to 100"),
    ("singapore", "[instant_payments]\nkong_exposed = 1e308\n", "instant_payments.kong_exposed",
     "a number from 0 to 1000"),
    ("uzje", "[scoring]\nladder = [2, 5, 1e308]\n", "scoring.ladder", "a list of at most 100 numbers from 0 to 1000000"),
    ("uzje", "[scoring]\nlimit_points = 1e308\n", "scoring.limit_points", "a number from 0 to 1000000"),
    ("uzje", "[tiles]\nranks = [true, 16]\n", "tiles.ranks", "a list of 2 whole numbers from 0 to 16"),
])
def test_a_number_out_of_its_range_is_refused_saying_the_range(tmp_path, parent, body, key, allowed):
    """1e308 passed validation and then overflowed in scoring (points x 2^doublings) or in a
    bot's estimates; inf and nan too."""
    p = write(tmp_path, "bad.toml", f'extends = "{parent}"\nid = "bad"\nname = "Bad"\n' + body)
    with pytest.raises(VariantError) as exc:
        load_variant(str(p))
    msg = str(exc.value)
    assert f"bad.toml: key '{key}' = " in msg and f"is not allowed; expected {allowed}" in msg, msg
    assert "\n" not in msg and len(msg) < 300


def test_the_top_of_every_range_scores_a_finite_hand():
    """Classic at the top of its ranges (every doubling 10, every point 10,000, no limit): a hand
    scores a finite number.  123m 456t (777s) EEE 55m won on 5m by East, as in test_cli (there
    30 points x 2^3): the point patterns are chow (twice), an open simple pung, a hidden honour
    pung and the discard win = 5 x 10,000 = 50,000 points; the doublings own wind, prevailing
    wind and won by the dealer = 3 x 10 = 30; 50,000 x 2^30 = 53,687,091,200,000."""
    from mahjong_tui.cli import build_parser, score_hand  # the scorer of ``score``

    v = load_variant("classic")
    over = {"scoring.limit": 0}
    over.update({f"scoring.doublings.{pid}": 10 for pid in v.scoring["doublings"]})
    over.update({f"scoring.points.{pid}": 10_000 for pid in v.scoring["points"]})
    top = v.with_options(over)
    hand = "123m456t (777s) EEE 55m +5m"
    out = score_hand(top, hand, build_parser().parse_args(["score", hand]))
    assert out["winning"] and out["value"] == 50_000 * 2 ** 30


def test_a_variant_where_no_hand_can_win_is_refused(tmp_path):
    p = write(tmp_path, "bad.toml", 'extends = "classic"\nid = "bad"\nname = "Bad"\n[win]\nforms = []\n')
    with pytest.raises(VariantError, match=r"key 'win.forms' = \[\] is not allowed; expected a non-empty list "
                                           r"drawn from 'standard', .* \(a hand must be winnable\)"):
        load_variant(str(p))


def test_a_tile_set_too_small_to_deal_is_refused(tmp_path):
    # one suit of 9 ranks x 4 copies = 36 tiles; the deal takes 13 x 4 + 1 = 53, and one to draw
    p = write(tmp_path, "bad.toml", 'extends = "classic"\nid = "bad"\nname = "Bad"\n'
              '[tiles]\nsuits = ["t"]\nhonours = []\nbonus = []\n[wall]\nstacks = [5, 5, 4, 4]\nreserve = 0\n')
    with pytest.raises(VariantError, match=r"bad.toml: the tile set is too small to deal: 36 tiles .* leave 36; "
                                           r"the deal needs 54"):
        load_variant(str(p))


def test_doubling_hand_values_need_a_small_limit():
    # Singapore pays base x 2^(tai - 1), capped at 5 tai: no cap would overflow
    with pytest.raises(VariantError, match=r"'settlement.hand_value' = 'doubling' .* needs 'scoring.limit' "
                                           r"from 1 to 64"):
        load_variant("singapore").with_options({"scoring.limit": 0})
    assert load_variant("singapore").with_options({"scoring.limit": 64}).scoring["limit"] == 64


@pytest.mark.parametrize("vid", ['"../../etc/passwd"', '"a b"', '""', '"x' + "x" * 64 + '"'])
def test_a_variant_id_names_a_file_so_it_holds_no_path(tmp_path, vid):
    p = write(tmp_path, "bad.toml", f'extends = "classic"\nid = {vid}\nname = "Bad"\n')
    with pytest.raises(VariantError, match="key 'id' = .* letters, digits"):
        load_variant(str(p))


def test_every_shipped_variant_and_the_readme_house_rule_load(tmp_path):
    """The seven variants, each named option of theirs, and the house rule of variants/README.md."""
    import re

    from mahjong_tui.variant import option_values, variants_dir

    assert set(available_variants()) == {"classic", "yuxi", "yangzhou", "singapore", "uzje", "dmjl", "bmja"}
    for vid in available_variants():
        v = load_variant(vid)
        for name in v.declared_options:
            for value in option_values(name):
                v.with_options({name: value})
    readme = (variants_dir() / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```toml\n(.*?)```", readme, re.S).group(1)
    assert 'extends = "classic"' in example
    path = tmp_path / "house.toml"
    path.write_text(example, encoding="utf-8")
    v = load_variant(str(path))
    assert v.id == "classic-zero-sum" and v.settlement["mode"] == "classical_zero_sum"


def test_the_readme_gives_the_range_of_every_number():
    """variants/README.md says what is allowed: each number key's row has its range as
    ``lo..hi``, each score table its range, and the same as the validation checks."""
    import re

    from mahjong_tui.variant import SCHEMA, SCORE_TABLE_RANGES, variants_dir

    rows = [ln for ln in (variants_dir() / "README.md").read_text(encoding="utf-8").splitlines() if ln.startswith("| ")]

    def row_of(section: str, key: str) -> str:
        if section == "instant_payments":
            return next(r for r in rows if r.startswith("| **[instant_payments]**"))
        return next(r for r in rows if f"`{key}`" in r.split(" | ")[0])

    checked = 0
    for section, keys in SCHEMA.items():
        for key, (_check, allowed, _default) in keys.items():
            m = re.fullmatch(r"a (?:whole )?number from (-?[\d.]+) to ([\d.]+)", allowed)
            if m:
                assert f"{m.group(1)}..{m.group(2)}" in row_of(section, key), (section, key, allowed)
                checked += 1
    for table, (lo, hi) in SCORE_TABLE_RANGES.items():
        row = row_of("scoring", table)
        assert re.search(rf"(`{table}`|number) {lo}\.\.{hi}\b", row), (table, row)
    assert checked >= 25
