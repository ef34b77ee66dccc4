"""Variant options (``[options]``, ``--option KEY=VALUE``) beyond ``score``: ``sim``, ``play``,
``host``, ``serve``, the game log (save, resume, replay) and old logs without options.
LAN: tests/net/test_options.py; the menu: tests/ui/test_options_menu.py."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from mahjong_tui.ai.baseline import make_bot
from mahjong_tui.cli import main
from mahjong_tui.engine import GameLog, Table
from mahjong_tui.errors import LogError, VariantError
from mahjong_tui.variant import load_variant, option_values, parse_option_assignments

FLOWERS = {"flowers": True}
UZJE_HASH = "21452a884e157762"  # Uzje as its file has it: pinned, so saved games keep replaying


def bots_play(table: Table, actions: int) -> None:
    """Let four baseline bots apply ``actions`` more actions (or to the end of the match)."""
    bots = [make_bot("ai:baseline", table.variant, s) for s in range(4)]
    for _ in range(actions):
        if table.phase == "match_over":
            return
        s = table.waiting_for()[0]
        table.apply(bots[s].choose(table.view(s), table.legal_actions(s)))


# ------------------------------------------------------------------------------------------
# the options themselves
# ------------------------------------------------------------------------------------------
def test_parse_option_assignments_reads_toml_values_else_text():
    assert parse_option_assignments(["flowers=true", "concealed_quad_mode=hidden", "scoring.limit=3",
                                     "win.minimum=2.5", "flowers=false"]) == {
        "flowers": False, "concealed_quad_mode": "hidden", "scoring.limit": 3, "win.minimum": 2.5}
    assert option_values("flowers") == (False, True)
    assert option_values("bonus_tile_mode") == ("identity", "successor")


def test_applied_options_are_recorded_and_the_file_declares_what_is_offered():
    plain = load_variant("uzje")
    assert dict(plain.applied_options) == {} and plain.rules_hash == UZJE_HASH
    assert plain.declared_options == ("flowers", "compressed_winds", "all_tongs", "concealed_quad_mode",
                                      "bonus_tile_mode", "break_roll")
    assert load_variant("classic").declared_options == ()
    v = load_variant("uzje", {"options.flowers": True, "concealed_quad_mode": "hidden"})
    assert dict(v.applied_options) == {"flowers": True, "concealed_quad_mode": "hidden"}
    assert v.tile_count == 176 and v.rules_hash != plain.rules_hash
    assert load_variant("uzje", FLOWERS) is load_variant("uzje", FLOWERS)  # built once


@pytest.mark.parametrize("vid", ["yuxi", "singapore", "classic", "yangzhou", "dmjl", "bmja", "uzje"])
def test_an_option_changes_only_what_it_names(vid):
    """``--option`` sets one key: the rest of the variant is the file's.  (It used to rebuild
    the variant with every named option at its default, so any option gave Yuxi, Singapore,
    Classic, Yangzhou, DMJL and BMJA the three dice of Uzje's default ``break_roll`` instead of their two
    — another wall from the same seed — and dropped the summary and the seed document.)"""
    plain = load_variant(vid)
    tuned = load_variant(vid, {"ai.strong_alpha": 0.7})
    assert tuned.wall == plain.wall and tuned.stacks == plain.stacks
    assert (tuned.summary, tuned.seed, tuned.name) == (plain.summary, plain.seed, plain.name)
    assert {k: v for k, v in tuned.rules.items() if k != "ai"} == {k: v for k, v in plain.rules.items() if k != "ai"}
    assert tuned.rules["ai"]["strong_alpha"] == 0.7
    assert tuned.rules_hash == plain.rules_hash   # [ai] is not rules
    # the same seed deals the same wall
    assert Table(tuned, 5, hands=1).view(0)["hand"] == Table(plain, 5, hands=1).view(0)["hand"]


# ------------------------------------------------------------------------------------------
# the command line
# ------------------------------------------------------------------------------------------
def test_sim_plays_with_flowers_and_says_so(capsys, tmp_path):
    log_path = tmp_path / "sim.jsonl"
    assert main(["sim", "--variant", "uzje", "--option", "flowers=true", "--hands", "2", "--seed", "1", "--json",
                 "--log", str(log_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["options"] == FLOWERS
    # the flowers were in play: a seat held one (seat_flower scored) and the log says so
    log = GameLog.load(log_path)
    assert log.options == FLOWERS and json.loads(log_path.read_text().splitlines()[0])["options"] == FLOWERS
    table = Table(log.load_variant(), log.seed, log.hands)
    assert table.variant.tile_count == 176
    held = set()
    for a in log.actions:
        table.apply_decision(a)  # and the forced passes, which a log leaves out
        held |= {p["bonus"] for p in table.view(0)["players"] if p["bonus"]}
    assert held, "no seat ever held a flower"
    assert table.scores == out["final_scores"]
    # the plain variant's run is another game, with no options in its output
    assert main(["sim", "--variant", "uzje", "--hands", "1", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {}
    # the text summary names the options
    assert main(["sim", "--variant", "uzje", "--option", "flowers=true", "--hands", "1", "--seed", "1"]) == 0
    assert "flowers=true" in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize("command", ["sim", "play", "serve", "host"])
@pytest.mark.parametrize("option,needles", [
    ("flowers=maybe", ["flowers=maybe", "true or false"]),
    ("flower=true", ["'flower'", "named options: flowers"]),
    ("concealed_quad_mode=secret", ["secret", "'known', 'hidden'"]),
    ("flowers", ["KEY=VALUE"]),
])
def test_a_bad_option_exits_2_with_one_line(capsys, tmp_path, monkeypatch, command, option, needles):
    monkeypatch.setenv("MAHJONG_TUI_SAVES", str(tmp_path))  # where play would write its journal
    log = ["--log", str(tmp_path / "x.jsonl")] if command != "play" else []
    extra = log + (["--port", "0"] if command in ("serve", "host") else [])           # only once started
    assert main([command, "--variant", "uzje", "--option", option, *extra]) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert err.count("\n") == 1 and err.startswith("mahjong-tui: error: ")
    assert all(n in err for n in needles), err
    assert not list(tmp_path.glob("*.jsonl"))  # refused before any log or journal was opened


def test_bad_option_from_a_real_process_has_no_traceback():
    r = subprocess.run([sys.executable, "-m", "mahjong_tui", "sim", "--variant", "classic", "--option",
                        "flowers=false"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr
    line, = r.stderr.strip().splitlines()
    # Uzje's named option is not Classic's: the error says what Classic offers, not Uzje's list
    assert "'flowers': classic has no such option; it has no named options" in line
    assert "SECTION.KEY" in line and "compressed_winds" not in line
    assert "--option KEY=VALUE" in subprocess.run([sys.executable, "-m", "mahjong_tui", "play", "--help"],
                                                  capture_output=True, text=True, timeout=120).stdout


# ------------------------------------------------------------------------------------------
# the game log: save, resume, replay
# ------------------------------------------------------------------------------------------
def _ns(**kw) -> argparse.Namespace:
    return argparse.Namespace(**{"faces": None, "ascii": False, **kw})


def test_a_game_with_options_saves_and_resumes_exactly(tmp_path):
    from mahjong_tui.ui.app import build_app

    options = {"flowers": True, "concealed_quad_mode": "hidden"}
    table = Table(load_variant("uzje", options), 9, hands=2)
    bots_play(table, 120)
    table.pass_forced()  # a log holds decisions only: its replay fills in the forced passes
    path = tmp_path / "game.jsonl"
    GameLog.for_table(table, "uzje", ["human", "ai", "ai", "ai"]).save(path)
    head = json.loads(path.read_text().splitlines()[0])
    assert head["options"] == options and head["rules_hash"] == table.variant.rules_hash

    log = GameLog.load(path)
    assert log.load_variant() is table.variant
    replayed = log.replay()
    assert [replayed.view(s) for s in range(4)] == [table.view(s) for s in range(4)]
    # both play on identically from there
    bots_play(table, 60)
    bots_play(replayed, 60)
    assert replayed.view(1) == table.view(1)

    # `mahjong-tui resume FILE` and `replay FILE` rebuild the optioned variant
    app = build_app(_ns(command="resume", file=str(path)))
    session = app._preset
    assert dict(session.variant.applied_options) == options and session.variant.tile_count == 176
    assert session.table.view(0) == log.replay().view(0)
    assert session.game_log().options == options  # saving again keeps them
    app = build_app(_ns(command="replay", file=str(path)))
    assert app.game_log.load_variant().rules_hash == table.variant.rules_hash


def test_play_with_options_builds_the_table_with_them():
    from mahjong_tui.ui.app import build_app

    app = build_app(_ns(command="play", variant="uzje", seats=["human", "ai", "ai", "ai"], seed=3, hands=1,
                        bot_delay=0.0, option=["flowers=true", "bonus_tile_mode=successor"]))
    v = app._preset.table.variant
    assert dict(v.applied_options) == {"flowers": True, "bonus_tile_mode": "successor"}
    assert v.options["bonus_tile_mode"] == "successor" and len(v.bonus_kinds) == 8
    assert app._preset.game_log().options == dict(v.applied_options)


def test_an_old_log_without_options_still_loads_and_replays(tmp_path):
    table = Table(load_variant("uzje"), 4, hands=1)
    bots_play(table, 40)
    # the header exactly as logs were written before options were recorded
    header = ('{"format": "mahjong-tui-log", "version": 1, "variant": "uzje", "rules_hash": "' + UZJE_HASH
              + '", "seed": 4, "hands": 1, "seats": ["human", "ai", "ai", "ai"]}')
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join([header] + [json.dumps(a.to_dict()) for a in table.actions]) + "\n")
    log = GameLog.load(path)
    assert log.options == {} and log.load_variant() is load_variant("uzje")
    assert log.replay().view(2) == table.view(2)
    assert "options" not in GameLog.for_table(table, "uzje").header()  # none: none written


def test_the_rules_hash_is_checked_against_the_optioned_variant(tmp_path):
    header = {"format": "mahjong-tui-log", "version": 1, "variant": "uzje", "rules_hash": UZJE_HASH, "seed": 4,
              "hands": 1, "seats": ["ai"] * 4, "options": FLOWERS}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(header) + "\n")
    with pytest.raises(LogError, match="with options flowers=true changed"):
        GameLog.load(path).load_variant()
    path.write_text(json.dumps({**header, "options": {"flower": True}}) + "\n")
    with pytest.raises(LogError, match="no such option"):
        GameLog.load(path).load_variant()
    path.write_text(json.dumps({**header, "options": ["flowers"]}) + "\n")
    with pytest.raises(LogError, match="'options' must be a map"):
        GameLog.load(path)


def test_a_bare_key_of_one_section_is_that_section_s_option():
    """The rules pages name some options by their bare key (singapore.md "Settlement": ``shooter_pays_all``):
    ``shooter_pays_all=true`` is ``settlement.shooter_pays_all=true``, recorded in that form."""
    sg = load_variant("singapore")
    on = sg.with_options({"shooter_pays_all": True})
    assert on.settlement["shooter_pays_all"] is True
    assert dict(on.applied_options) == {"settlement.shooter_pays_all": True}
    assert on.rules_hash == sg.with_options({"settlement.shooter_pays_all": True}).rules_hash
    with pytest.raises(VariantError, match="'flowers': singapore has no such option; it has no named options"):
        sg.with_options({"options.flowers": True})   # Uzje's named option, spelled in full


def test_a_bare_key_held_by_two_sections_must_name_its_section(monkeypatch):
    from mahjong_tui import variant as V

    monkeypatch.setitem(V.SCHEMA, "match", {**V.SCHEMA["match"], "mode": V.SCHEMA["settlement"]["mode"]})
    with pytest.raises(VariantError, match="write settlement.mode or match.mode|write match.mode or settlement.mode"):
        load_variant("classic").with_options({"mode": "cumulative"})
