"""The command line, as other programs call it (CLI.md)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mahjong_tui.cli import main


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mahjong_tui", *args], capture_output=True, text=True,
                          input=stdin, timeout=300)


def test_sim_is_deterministic_and_json_has_the_spec_fields():
    a = run("sim", "--variant", "classic", "--hands", "12", "--seed", "1", "--json")
    b = run("sim", "--variant", "classic", "--hands", "12", "--seed", "1", "--json")
    assert a.returncode == 0, a.stderr
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)
    for k in ("variant", "seed", "hands", "wins_by_seat", "self_draw_wins", "discard_wins", "exhaustive_draws",
              "patterns", "final_scores", "elapsed_s", "hands_per_s"):
        assert k in ja
    ja.pop("elapsed_s"), ja.pop("hands_per_s"), jb.pop("elapsed_s"), jb.pop("hands_per_s")
    assert ja == jb
    assert sum(ja["wins_by_seat"]) + ja["exhaustive_draws"] >= 12
    assert ja["self_draw_wins"] + ja["discard_wins"] == sum(ja["wins_by_seat"])


def test_sim_text_summary(capsys):
    """The text summary's per-seat table says what ``--json`` says for the same run."""
    assert main(["sim", "--variant", "classic", "--hands", "5", "--seed", "3", "--json"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert main(["sim", "--variant", "classic", "--hands", "5", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "hands/s" in out and "win %" in out and "deal-ins" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("  ") and line.split()[0] in "1234"
            and len(line.split()) == 10]
    assert [int(r[2]) for r in rows] == js["wins_by_seat"]
    wins = sum(js["wins_by_seat"])
    assert [float(r[4].rstrip("%")) for r in rows] == [round(100 * w / wins, 1) for w in js["wins_by_seat"]]
    assert [int(r[5]) for r in rows] == js["deal_ins_by_seat"]
    assert f"exhaustive draws: {js['exhaustive_draws']} of 5 hands" in out


def test_score_json_classic(capsys):
    # 123m 456t (777s) EEE 55m, won on the 5m discard by East in the East round:
    # points: chow 0 ×2, pung_simple_open 2, pung_honour_hidden 8, mahjong_discard 20 = 30;
    # doublings: own_wind_pung 1 + prevailing_wind_pung 1 + mahjong_by_dealer 1 = 3 → 30 × 8 = 240.
    assert main(["score", "--variant", "classic", "123m456t (777s) EEE 55m +5m", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winning"] is True and out["value"] == 240 and out["unit"] == "points"
    assert out["payments"] is None  # cumulative settlement makes no transfers
    ids = {p["id"] for p in out["patterns"]}
    assert {"pung_honour_hidden", "own_wind_pung", "mahjong_by_dealer"} <= ids


def test_score_not_a_win_exits_zero_with_reason(capsys):
    # the 3m completes only a chow: refused under the Oxenstierna rule (seed 003 §Winning Hand)
    assert main(["score", "--variant", "classic", "123m345t678s999sEE +3m", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winning"] is False and "chow" in out["reason"]


def test_score_yuxi_payments(capsys):
    # yuxi.md "Settlement" example: all triplets + full flush, self-drawn → M = 4; each pays 4, winner +12
    assert main(["score", "--variant", "yuxi", "111222333m (444m) 55m +5m", "--by", "self-draw", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"] == 4 and out["payments"] == {"E": 12, "S": -4, "W": -4, "N": -4}


def test_score_singapore_tai_and_payments(capsys):
    # singapore.md "Settlement" example: South holds Orchid (his flower, 1), Cat and Rat (1 each) = 3 tai, V = 4;
    # on West's discard West pays 8, East and North 4 each
    hand = "(123m) 456t789s234m55t +5t |puv"
    assert main(["score", "--variant", "singapore", hand, "--seat-wind", "S", "--discarder", "W", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winning"] and out["unit"] == "tai" and out["value"] == 3
    assert out["patterns"] == [{"id": "animal", "value": 1, "count": 2}, {"id": "seat_flower", "value": 1, "count": 1}]
    assert out["payments"] == {"E": -4, "S": 16, "W": -8, "N": -4}
    # the text breakdown and the payments (signed, whole numbers)
    assert main(["score", "--variant", "singapore", hand, "--seat-wind", "S", "--by", "self-draw"]) == 0
    text = capsys.readouterr().out
    assert "animal" in text and "x2" in text and "3 tai" in text
    assert "payments: E -8, S +24, W -8, N -8" in text


def test_score_singapore_flower_wins_and_liability(capsys):
    # robbing the eighth: 13 tiles held, North drew the eighth and pays 4 x 16
    assert main(["score", "--variant", "singapore", "123m456t789s1234m +r |hijkopq", "--situation",
                 "robbing_the_eighth", "--discarder", "N", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["form"] == "flowers" and out["value"] == 5 and out["payments"] == {"E": 64, "S": 0, "W": 0, "N": -64}
    # a full flush (4 tai, V = 8) whose fourth meld West fed: West pays all 4V
    assert main(["score", "--variant", "singapore", "(123m) (456m) (789m) (222m) 55m +5m", "--discarder", "S",
                 "--liable", "W", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["payments"] == {"E": 32, "S": 0, "W": -32, "N": 0}
    # robbing the eighth is a discard win whatever --by says (the drawer pays, singapore.md "Settlement"); all eight
    # own flowers a self-draw (each pays 2 x 16)
    assert main(["score", "--variant", "singapore", "123m456t789s1234m +r |hijkopq", "--situation",
                 "robbing_the_eighth", "--by", "self-draw", "--discarder", "N", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["payments"] == {"E": 64, "S": 0, "W": 0, "N": -64}
    assert main(["score", "--variant", "singapore", "123m456t789s1234mC +r |hijkopqr", "--discarder", "N",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["payments"] == {"E": 96, "S": -32, "W": -32, "N": -32}
    # 13 tiles are a hand only when robbing the eighth
    r = run("score", "--variant", "singapore", "123m456t789s1234m |hijkopqr")
    assert r.returncode == 2 and "14 tiles" in r.stderr


def test_analyze_singapore(capsys):
    assert main(["analyze", "--variant", "singapore", "23567m456t789s55t", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["waits"] == ["1m", "4m"] and set(out["forms"]) == {"standard", "thirteen_orphans"}


@pytest.mark.parametrize("hand,needle", [
    ("1q2m", "position"),                 # syntax error
    ("123m456t (777s) EEE 5m", "14 tiles"),  # 13 tiles
    ("11111m456t777sEEE", "copies"),   # a fifth copy
    ("123m456t (135s) EEE 55m", "meld"),  # impossible meld
    ("123m456t777sEEE55m |u", "not used"),  # an animal in Classic
])
def test_score_impossible_hand_exits_2_with_one_line(hand, needle):
    r = run("score", "--variant", "classic", hand)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in r.stderr


def test_analyze_13_and_14(capsys):
    assert main(["analyze", "--variant", "classic", "123m456t777sEEE5m", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"tiles": 13, "shanten": 0, "forms": out["forms"], "waits": ["5m"]}
    assert set(out["forms"]) == {"standard", "seven_pairs", "thirteen_orphans"}
    assert main(["analyze", "--variant", "classic", "123m456t777sEEE59m", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tiles"] == 14 and out["winning"] is False and out["shanten"] == 0
    best = out["discards"][0]
    # discarding 5m or 9m leaves a single wait on the other: 3 unseen copies
    assert best["tile"] in ("5m", "9m") and best["shanten"] == 0 and best["accepting"] == 3


def test_analyze_says_whether_a_complete_shape_is_a_legal_win(capsys):
    """``winning`` is the shape (common.md "Wait set"); ``scored`` says what ``score`` says of it, so a player
    is not told "winning" of a Yangzhou hand under 15 fan without the reason."""
    assert main(["analyze", "--variant", "yangzhou", "123m 234s 567t 789t 55t", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winning"] is True and out["shanten"] == -1
    # best winning tile 3m (12m edge wait): basic_win 1 + no_melds 1 + sequence_hand 1 + edge_wait 1 = 4
    for by in ("self-draw", "discard"):
        assert out["scored"][by]["winning"] is False and out["scored"][by]["value"] == 4
        assert "a win needs at least 15" in out["scored"][by]["reason"]
    # Yuxi: a basic win only by self-draw (yuxi.md "Winning hands")
    assert main(["analyze", "--variant", "yuxi", "123m456m789s234t55t"]) == 0
    text = capsys.readouterr().out
    assert "self-drawn: a win, 1 multiplier" in text
    assert "on a discard: not a win (a basic win" in text


def test_batch_mode_goes_on_after_a_bad_line():
    stdin = "123m456t777sEEE5m\nnot a hand\n" + json.dumps({"hand": "123m456t777sEEE9m"}) + "\n"
    r = run("analyze", "--variant", "classic", "-", stdin=stdin)
    assert r.returncode == 0
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lines) == 3 and "error" in lines[1] and lines[2]["waits"] == ["9m"]
    stdin = json.dumps({"hand": "111222333m (444m) 55m +5m", "flags": ["--by", "self-draw"]}) + "\n"
    r = run("score", "--variant", "yuxi", "-", stdin=stdin)
    assert json.loads(r.stdout)["value"] == 4


def test_batch_lines_that_are_wrong_say_what_is_wrong_and_the_batch_goes_on(monkeypatch, capsys):
    """Each bad JSON line gets its own message (not argparse's exit code, not a traceback) and
    the good line after them is still scored."""
    import io

    good = {"hand": "111222333m (444m) 55m +5m", "flags": ["--by", "self-draw"]}
    lines = [{"hand": 5}, {"flags": []}, {"hand": "123456789m 234s 55t +5t", "flags": "--by"},
             {"hand": "123456789m 234s 55t +5t", "flags": ["--by", "selfdraw"]},
             {"hand": "123456789m 234s 55t +5t", "flags": ["--bogus"]},
             {"hand": "123456789m 234s 55t +5t", "flags": ["--help"]}, good]
    stdin = "\n".join(json.dumps(x) for x in lines) + "\n{not json\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    assert main(["score", "--variant", "yuxi", "-"]) == 0
    out = capsys.readouterr()
    got = [json.loads(x) for x in out.out.splitlines()]
    assert len(got) == 8 and out.err == ""
    errors = [g.get("error", "") for g in got]
    assert 'needs "hand"' in errors[0] and "got 5" in errors[0]
    assert 'needs "hand"' in errors[1]
    assert '"flags" must be a list of strings' in errors[2]
    assert "invalid choice: 'selfdraw'" in errors[3] and "'self-draw'" in errors[3]
    assert "unrecognized arguments: --bogus" in errors[4]
    assert "--help is not allowed" in errors[5]
    # 111 222 333 444 55m, self-drawn: all triplets x2, full flush x2 = 4 (yuxi.md "Scoring table")
    assert got[6]["value"] == 4
    assert "must be a JSON object" in errors[7]


def test_variants_lists_ids_and_tile_counts(capsys):
    assert main(["variants", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["classic"]["tiles"] == 144 and rows["yuxi"]["tiles"] == 136 and rows["yangzhou"]["tiles"] == 136
    assert rows["singapore"]["tiles"] == 148 and rows["singapore"]["name"] == "Singapore"


def test_unknown_variant_and_broken_variant_file(tmp_path):
    r = run("sim", "--variant", "nope", "--hands", "1")
    assert r.returncode == 2 and "unknown variant 'nope'" in r.stderr and "classic" in r.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "classic"\nid = "house"\nname = "House"\n[claims]\nchow = "sometimes"\n')
    r = run("sim", "--variant", str(bad), "--hands", "1")
    assert r.returncode == 2
    assert "bad.toml" in r.stderr and "claims.chow" in r.stderr and "'next'" in r.stderr


def test_headless_commands_do_not_import_textual():
    code = ("import sys; from mahjong_tui.cli import main; "
            "main(['score','--variant','classic','123m456t (777s) EEE 55m +5m']); "
            "main(['analyze','123m456t777sEEE5m']); "
            "import mahjong_tui.engine, mahjong_tui.sim; "
            "assert 'textual' not in sys.modules, 'textual imported'; "
            "assert 'asyncio' not in sys.modules or True")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = run("--help")
    assert r.returncode == 0 and "sim" in r.stdout
    code = ("import sys, runpy; sys.argv=['mahjong-tui','--help']\n"
            "try:\n    runpy.run_module('mahjong_tui', run_name='__main__')\nexcept SystemExit: pass\n"
            "assert 'textual' not in sys.modules")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_engine_never_imports_textual_or_asyncio():
    code = ("import sys; import mahjong_tui.engine, mahjong_tui.hand, mahjong_tui.scoring.points_doublings, "
            "mahjong_tui.scoring.multiplier, mahjong_tui.scoring.fan, mahjong_tui.sim; "
            "bad = [m for m in ('textual', 'asyncio') if m in sys.modules]; assert not bad, bad")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_sim_log_replays_to_the_same_results(tmp_path):
    from mahjong_tui.engine import GameLog

    path = tmp_path / "sim.log"
    assert main(["sim", "--variant", "yuxi", "--hands", "3", "--seed", "4", "--json", "--log", str(path)]) == 0
    log = GameLog.load(path)
    assert log.variant == "yuxi" and log.seed == 4
    table = log.replay()
    assert table.phase == "match_over" and len(table.history) == 3


# ------------------------------------------------------------------------------------------
# Uzje (seed 002) on the command line
# ------------------------------------------------------------------------------------------

def test_score_uzje_points_and_half_payments(capsys):
    # closed 2.6 + self-draw 1 + clean suit 3 = 6.6 fan: 50 points; each pays 25 (uzje.md "Settlement")
    args = ["score", "--variant", "uzje", "123s456s789s11sEEE +1s", "--by", "self-draw", "--seat-wind", "W",
            "--prevailing-wind", "S"]
    assert main(args + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["unit"] == "fan" and out["value"] == 6.6 and out["points"] == 50
    assert out["payments"] == {"E": -25, "S": -25, "W": 75, "N": -25}
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "clean_suit" in text and "points: 50" in text and "W +75" in text
    # 2.6 + 1 = 3.6 fan: 5 points, 2.5 from each
    assert main(["score", "--variant", "uzje", "123s456m789s246mEE +2m", "--by", "self-draw", "--seat-wind", "S",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["payments"] == {"E": -2.5, "S": 7.5, "W": -2.5, "N": -2.5}


def test_score_uzje_options_and_flower_wins(capsys):
    hand = "123s456m789s246mEE +r |hijkopq"
    assert main(["score", "--variant", "uzje", "--option", "flowers=true", hand, "--situation", "robbing_the_eighth",
                 "--discarder", "N", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["form"] == "flowers" and out["points"] == 100 and out["payments"] == {"E": 100, "S": 0, "W": 0, "N": -100}
    r = run("score", "--variant", "uzje", "123s456m789s246mEE +2m |h")
    assert r.returncode == 2 and "bonus tile h is not used" in r.stderr


def test_analyze_uzje_waits_with_the_zero_and_long_straight(capsys):
    assert main(["analyze", "--variant", "uzje", "7ds456s789s111mEE", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["shanten"] == 0 and "Z" in out["waits"]
    assert set(out["forms"]) == {"standard", "seven_pairs", "thirteen_orphans", "fourteen_orphans",
                                 "ultra_long_straight"}
    # one exposed run: the straight 1-14 waits on 14 of socks as well as the standard waits
    assert main(["analyze", "--variant", "uzje", "(123s) 456789xabcs", "--json"]) == 0
    assert "ds" in json.loads(capsys.readouterr().out)["waits"]


def test_sim_and_variants_know_uzje(capsys):
    assert main(["variants", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["uzje"]["tiles"] == 168
    assert main(["sim", "--variant", "uzje", "--hands", "3", "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == "uzje" and out["unit"] == "fan"
    assert sum(out["wins_by_seat"]) + out["exhaustive_draws"] >= 3
    assert sum(out["final_scores"]) == 0


def test_seats_and_seat_flags_that_cannot_be_are_refused(capsys):
    """sim plays bots only; the winner cannot have discarded his own winning tile."""
    with pytest.raises(SystemExit) as e:
        main(["sim", "--variant", "classic", "--hands", "1", "--seats", "human,ai,ai,ai"])
    assert e.value.code == 2 and "sim plays bots only" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["sim", "--hands", "1", "--seats", "ai:godlike,ai,ai,ai"])
    assert "easy, normal, strong, baseline" in capsys.readouterr().err
    for flag in ("--discarder", "--fed-third-meld"):
        assert main(["score", "--variant", "classic", "123m456s789t (CCC) 55t +5t", flag, "E"]) == 2
        assert f"{flag} E is the winner's own seat" in capsys.readouterr().err


def test_score_text_keeps_its_columns_when_a_pattern_counts_twice(capsys):
    # Singapore: two animals (1 tai each, x2) + dragon pung 1 = 3 tai (singapore.md "Tai table")
    assert main(["score", "--variant", "singapore", "123m456s789t (CCC) 55t |uv +5t"]) == 0
    lines = capsys.readouterr().out.splitlines()
    animal = next(x for x in lines if x.strip().startswith("animal"))
    dragon = next(x for x in lines if x.strip().startswith("dragon_pung"))
    assert animal.index("Animal tile") == dragon.index("Pung or kong")
    assert "x2" in animal and lines[-1].split() == ["total", "3", "tai"]


@pytest.mark.parametrize("value,needle", [("inf", "is not a number of seconds"), ("nan", "is not a number of seconds"),
                                          ("1e3", "at most 10 seconds"), ("-1", "cannot be negative")])
def test_a_bot_pause_that_would_stall_the_table_is_refused(capsys, value, needle):
    """--bot-delay inf left the table on 'Bot 2 is thinking' for good (play-testing)."""
    for command in (["play"], ["host", "--port", "0"], ["serve", "--port", "0"]):
        with pytest.raises(SystemExit) as e:
            main([*command, "--bot-delay", value])
        assert e.value.code == 2 and needle in capsys.readouterr().err
