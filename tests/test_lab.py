"""The rule designer's lab (``mahjong-tui lab``, CLI.md "lab"): the grid, the figures and their
intervals, the same results on every backend, the report and the errors."""

from __future__ import annotations

import csv
import io
import json

import pytest

from mahjong_tui.cli import main
from mahjong_tui.errors import VariantError
from mahjong_tui.intervals import wilson
from mahjong_tui.lab import build_grid, cell_figures, parse_sweep, run_lab, split_values
from mahjong_tui.lab_report import csv_text, write_report


def test_wilson_interval_by_hand():
    # 8 of 20: p = 0.4, z = 1.959964, z^2 = 3.841459, z^2/n = 0.192073, denominator 1.192073;
    # centre = (0.4 + 3.841459/40) / 1.192073 = 0.496036 / 1.192073 = 0.416114;
    # half = 1.959964 * sqrt(0.4*0.6/20 + 3.841459/1600) / 1.192073
    #      = 1.959964 * sqrt(0.012 + 0.002401) / 1.192073 = 1.959964 * 0.120004 / 1.192073 = 0.197307
    # -> [0.2188, 0.6134]
    lo, hi = wilson(8, 20)
    assert (round(lo, 4), round(hi, 4)) == (0.2188, 0.6134)
    # 0 of 10: the interval keeps a width: upper = z^2 / (n + z^2) = 3.841459 / 13.841459 = 0.2775
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


def _hand(dealer, winners=(), self_draw=False, discarder=None, turns=10, points=(0, 0, 0, 0), form="standard",
          patterns=()):
    return {"hand": 0, "dealer": dealer, "result": "win" if winners else "draw", "self_draw": self_draw,
            "discarder": discarder, "turns": turns, "points": list(points),
            "winners": [{"seat": s, "value": v, "form": form, "patterns": [{"id": p, "count": 1} for p in patterns]}
                        for s, v in winners]}


def test_cell_figures_by_hand():
    recs = [
        _hand(0, [(0, 4)], self_draw=True, turns=21, points=(12, -4, -4, -4), patterns=("a", "b")),
        _hand(1, [(2, 2)], discarder=1, turns=30, points=(0, -2, 2, 0), patterns=("a",)),
        _hand(2, turns=40),                                            # exhaustive draw
        _hand(3, [(3, 6)], discarder=0, turns=17, points=(-6, 0, 0, 6), form="seven_pairs", patterns=("a", "a")),
    ]
    f = cell_figures(recs)
    assert f["hands"] == 4 and f["wins"] == 3
    assert f["exhaustive_draws"]["count"] == 1 and f["exhaustive_draws"]["rate"] == 0.25
    assert f["exhaustive_draws"]["ci95"] == [round(x, 4) for x in wilson(1, 4)]
    # forms are shares of the 3 wins: standard 2/3, seven pairs 1/3
    assert f["wins_by_form"]["standard"]["count"] == 2 and f["wins_by_form"]["seven_pairs"]["rate"] == 0.3333
    assert f["self_draw_share"]["count"] == 1 and f["self_draw_share"]["of"] == 3
    # a pattern counts once for each win that scored it ("a" twice in one hand is one win)
    assert f["patterns"]["a"]["count"] == 3 and f["patterns"]["a"]["rate"] == 1.0
    assert f["patterns"]["b"]["count"] == 1
    # values 4, 2, 6: mean 4, sd sqrt(((0)^2 + 2^2 + 2^2) / 2) = 2
    assert f["value_won"]["mean"] == 4.0 and f["value_won"]["sd"] == 2.0
    # turns 21, 30, 40, 17: mean 27
    assert f["turns"]["mean"] == 27.0
    # the dealer won hands 1 and 4 (seat 0 of dealer 0, seat 3 of dealer 3): 2 of 4 = 0.5;
    # the other seats won 1 of 3 x 4 = 12 seat-hands: 0.0833; advantage 0.4167
    d = f["dealer"]
    assert d["win_rate"]["count"] == 2 and d["non_dealer_win_rate"]["of"] == 12
    assert d["advantage"] == round(0.5 - 1 / 12, 4)
    # the dealer's points: 12, -2, 0, 6 -> mean 4
    assert d["points_per_hand"]["mean"] == 4.0


def test_a_hand_with_two_winners_is_two_wins():
    """Where a discard may be won by several seats, wins can outnumber hands: every rate of
    wins is of wins, never of hands."""
    recs = [_hand(0, [(1, 2), (2, 3)], discarder=0), _hand(1, [(1, 2)], discarder=3)]
    f = cell_figures(recs)
    assert f["wins"] == 3 and f["wins_by_form"]["standard"] == {"count": 3, "of": 3, "rate": 1.0,
                                                                "ci95": [round(x, 4) for x in wilson(3, 3)]}
    assert f["dealer"]["non_dealer_win_rate"]["count"] == 2   # seats 1 and 2 of dealer 0; seat 1 is dealer 1


def test_sweep_values_are_read_as_option_values():
    assert split_values('2.5,3, 4') == ["2.5", "3", "4"]
    assert split_values('["standard"],["standard","seven_pairs"]') == ['["standard"]', '["standard","seven_pairs"]']
    s = parse_sweep("win.minimum=2.5,3,4")
    assert s.key == "win.minimum" and s.values == (2.5, 3, 4)
    assert parse_sweep("flowers=true,false").values == (True, False)
    with pytest.raises(VariantError, match="expected KEY=VALUE"):
        parse_sweep("win.minimum")


@pytest.mark.parametrize("sweep, needle", [
    ("nosuch=1,2", "its named options: flowers"),                  # names what Ùzje offers
    ("flowers=true,maybe", "expected true or false"),
    ("win.minimum=3,lots", "win.minimum"),
])
def test_a_bad_sweep_exits_2_naming_what_the_variant_allows(capsys, tmp_path, sweep, needle):
    assert main(["lab", "--variant", "uzje", "--sweep", sweep, "--hands", "1", "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mahjong-tui: error: --sweep ") and needle in err, err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()            # nothing played, nothing written


def test_grid_order_and_errors():
    cells = build_grid("classic", [parse_sweep("settlement.mode=cumulative,classical_zero_sum")], {},
                       [["ai"] * 4, ["ai:easy"] * 4], [1, 2])
    assert len(cells) == 8
    assert [(c.sweep["settlement.mode"], c.seats[0], c.seed) for c in cells[:3]] == [
        ("cumulative", "ai", 1), ("cumulative", "ai", 2), ("cumulative", "ai:easy", 1)]
    with pytest.raises(VariantError, match="swept twice"):
        build_grid("classic", [parse_sweep("win.minimum=1"), parse_sweep("win.minimum=2")], {}, [["ai"] * 4], [1])


SWEEP = dict(variant_ref="yuxi", sweeps=[parse_sweep("claims.chow=none,next")], fixed={},
             seats=[["ai:baseline"] * 4], seeds=[3], hands=6, game_hands=3)


def _cells(res) -> dict:
    j = res.to_json()
    j.pop("elapsed_s"), j.pop("hands_per_s")
    return j


def test_a_sweep_is_the_same_on_one_and_two_local_workers():
    one = _cells(run_lab(**SWEEP, jobs=1))
    two = _cells(run_lab(**SWEEP, jobs=2))
    assert one == two
    assert [c["sweep"] for c in one["cells"]] == [{"claims.chow": "none"}, {"claims.chow": "next"}]
    assert all(c["hands"] == 6 for c in one["cells"])
    # no chow can be claimed without chows: the cell without them has no claimed chow melds
    assert one["cells"][0]["options"] == {"claims.chow": "none"}


def test_a_sweep_is_the_same_on_a_dask_cluster():
    distributed = pytest.importorskip(
        "dask.distributed", reason="Dask distributed is not installed (pip install '.[cluster]'); the cluster backend is not tested")
    one = _cells(run_lab(**SWEEP, jobs=1))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        on_cluster = _cells(run_lab(**SWEEP, cluster=cluster.scheduler_address))
    assert on_cluster == one


def test_no_scheduler_there_is_a_clear_error(capsys, tmp_path):
    pytest.importorskip("dask.distributed", reason="Dask distributed is not installed")
    assert main(["lab", "--variant", "classic", "--hands", "1", "--seats", "ai:baseline,ai:baseline,ai:baseline,ai:baseline",
                 "--cluster", "tcp://127.0.0.1:9", "--out", str(tmp_path)]) == 2
    assert "cannot reach a Dask scheduler" in capsys.readouterr().err


def test_the_report_files(tmp_path, capsys):
    out = tmp_path / "report"
    argv = ["lab", "--variant", "classic", "--sweep", "settlement.mode=cumulative,classical_zero_sum",
            "--seats", "ai:baseline,ai:baseline,ai:baseline,ai:baseline", "--hands", "5", "--game-hands", "5",
            "--out", str(out), "--jobs", "1", "--json"]   # (no fork after the Dask tests' threads)
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    saved = json.loads((out / "cells.json").read_text())
    assert saved == printed and len(saved["cells"]) == 2
    md = (out / "report.md").read_text()
    assert "mahjong-tui lab --variant classic --sweep settlement.mode=cumulative,classical_zero_sum" in md
    for chart in ("exhaustive_draws.svg", "self_draw_share.svg", "value_won.svg", "turns.svg", "dealer.svg"):
        assert f"]({chart})" in md
        svg = (out / chart).read_text()
        assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
        assert "settlement.mode=cumulative" in svg and "settlement.mode=classical_zero_sum" in svg
    rows = list(csv.DictReader(io.StringIO((out / "cells.csv").read_text())))
    assert [r["settlement.mode"] for r in rows] == ["cumulative", "classical_zero_sum"]
    for r, c in zip(rows, saved["cells"]):
        assert float(r["exhaustive_draws"]) == c["exhaustive_draws"]["rate"]
        assert [float(r["exhaustive_draws_lo"]), float(r["exhaustive_draws_hi"])] == c["exhaustive_draws"]["ci95"]
        assert float(r["turns"]) == c["turns"]["mean"]
    # the text output: one row a cell
    assert main(argv[:-1]) == 0
    text = capsys.readouterr().out
    assert "settlement.mode=cumulative" in text and "exhaustive draws" in text and "report:" in text


def test_the_csv_has_a_row_a_cell():
    res = run_lab(**SWEEP)
    rows = list(csv.reader(io.StringIO(csv_text(res))))
    assert len(rows) == 1 + 2 and rows[0][:3] == ["cell", "label", "claims.chow"]


def test_an_out_folder_that_cannot_be_made_is_an_error_before_playing(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["lab", "--variant", "classic", "--hands", "1", "--seats",
                 "ai:baseline,ai:baseline,ai:baseline,ai:baseline", "--out", str(blocker)]) == 2
    assert "--out" in capsys.readouterr().err


def test_write_report_returns_what_it_wrote(tmp_path):
    written = write_report(run_lab(**SWEEP), tmp_path / "r", "mahjong-tui lab ...")
    assert {p.name for p in written} >= {"report.md", "cells.json", "cells.csv", "turns.svg"}
    assert all(p.exists() for p in written)
