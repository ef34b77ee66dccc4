"""``mahjong-tui stats`` over a history of scripted matches (issue 22, item 5): the exact counts.

The matches are played by bots with fixed seeds (:func:`mahjong_tui.sim.play_match`) and kept
through :func:`mahjong_tui.history.record` in a temporary history folder named by
``$MAHJONG_TUI_HISTORY``; the seats are labelled human / remote / ai as a table would record
them.  The expected numbers are counted here, independently of mahjong_tui/stats.py, from each
kept file: its header (the names), its actions (the discards) and the ``hand_end`` events the
engine emits when the file's actions are applied one by one; the ai:strong agreement is worked
out by asking an ``ai:strong`` bot directly, and a person's seat that ai:strong itself played
must agree on every discard.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime
from pathlib import Path

import pytest

from mahjong_tui import history as H
from mahjong_tui.ai import make_bot
from mahjong_tui.cli import main
from mahjong_tui.engine.actions import Action
from mahjong_tui.engine.log import GameLog
from mahjong_tui.engine.table import Table
from mahjong_tui.sim import play_match
from mahjong_tui.variant import load_variant

#: (variant, seed, hands, seats as recorded, names as recorded, the bots that really played)
MATCHES = [
    ("classic", 3, 2, ["human", "ai:easy", "human", "ai"], ["Ann", "", "Bob", ""],
     ["ai:strong", "ai:easy", "ai:normal", "ai:normal"]),
    ("classic", 8, 2, ["remote", "human", "ai:strong", "ai:easy"], ["Bob", "Ann", "AI (strong)", ""],
     ["ai:easy", "ai:strong", "ai:strong", "ai:easy"]),
    ("singapore", 5, 2, ["human", "ai", "ai", "ai:easy"], ["Ann", "", "", ""],
     ["ai:strong", "ai:normal", "ai:normal", "ai:easy"]),
]
#: the seats ai:strong played while labelled a person: (match index, seat)
STRONG_PEOPLE = {(0, 0), (1, 1), (2, 0)}


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("history")
    for i, (vid, seed, hands, seats, names, bots) in enumerate(MATCHES):
        v = load_variant(vid)
        t = Table(v, seed, hands)
        play_match(t, [make_bot(b, v, s, seed) for s, b in enumerate(bots)])
        H.record(GameLog.for_table(t, seats=seats), names, folder=folder, when=datetime(2026, 1, 1, 0, 0, i))
    # an unfinished match and a file that is no game log: left out, and said
    v = load_variant("classic")
    t = Table(v, 4, 3)
    play_match(t, [make_bot("ai:normal", v, s, 4) for s in range(4)])
    whole = GameLog.for_table(t, seats=["human", "ai", "ai", "ai"])
    cut = GameLog(whole.variant, whole.rules_hash, whole.seed, whole.hands, whole.seats, whole.actions[:40])
    cut.save(folder / "unfinished.jsonl")
    (folder / "junk.jsonl").write_text("hello\n")
    return folder


def expected(folder: Path, variant: str | None = None, player: str | None = None) -> dict:
    """The report, counted here from the files' headers, actions and hand_end events."""
    rows: dict = defaultdict(lambda: {"matches": 0, "hands": 0, "wins": 0, "self_draws": 0, "deal_ins": 0,
                                      "value": 0.0, "biggest": None, "discards": None, "same": None})
    matches = 0
    for i, (vid, seed, hands, seats, names, bots) in enumerate(MATCHES):
        path = folder / f"{vid}-20260101-00000{i}.jsonl"
        head = json.loads(path.read_text().splitlines()[0])
        log = GameLog.load(path)
        v = load_variant(vid)
        table = Table(v, log.seed, log.hands)
        judges = {s: make_bot("ai:strong", v, s, 0) for s in range(4) if not seats[s].startswith("ai")}
        discards, same = defaultdict(int), defaultdict(int)
        ends = []
        for a in log.actions:
            if a.kind == "discard" and a.seat in judges:
                view = table.view(a.seat)
                legal = [Action.from_dict(d) for d in view["legal"]]
                discards[a.seat] += 1
                same[a.seat] += judges[a.seat].choose(view, legal) == a
            ends += [e for e in table.apply_decision(a) if e.get("type") == "hand_end"]
        assert len(ends) == hands and table.phase == "match_over"
        for s in judges:
            assert discards[s] > 10
            if (i, s) in STRONG_PEOPLE:  # ai:strong played it: it agrees with itself every time
                assert same[s] == discards[s]
        if variant is not None and vid != variant:
            continue
        keys = [(seats[s] if ":" in seats[s] else "ai:normal") if seats[s].startswith("ai") else head["names"][s]
                for s in range(4)]
        assert keys[:2] == [["Ann", "ai:easy"], ["Bob", "Ann"], ["Ann", "ai:normal"]][i]
        if player is not None and player.casefold() not in [k.casefold() for k in keys]:
            continue
        matches += 1
        for s, key in enumerate(keys):
            if player is not None and key.casefold() != player.casefold():
                continue
            r = rows[(vid, key)]
            r["matches"] += 1
            r["hands"] += len(ends)
            for e in ends:
                for w in e["winners"]:
                    if w["seat"] == s:
                        r["wins"] += 1
                        r["self_draws"] += e["self_draw"]
                        r["value"] += w["value"]
                        if r["biggest"] is None or w["value"] > r["biggest"][0]:
                            r["biggest"] = (w["value"], path.name, e["hand"] + 1)
                if e["winners"] and e["discarder"] == s:
                    r["deal_ins"] += 1
            if s in judges:
                r["discards"] = (r["discards"] or 0) + discards[s]
                r["same"] = (r["same"] or 0) + same[s]
    return {"matches": matches, "rows": dict(rows)}


def stats_json(capsys, monkeypatch, folder: Path, *args: str) -> dict:
    monkeypatch.setenv("MAHJONG_TUI_HISTORY", str(folder))
    assert main(["stats", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def check(report: dict, want: dict) -> None:
    assert report["matches"] == want["matches"]
    got = {(r["variant"], r["player"]): r for r in report["players"]}
    assert set(got) == set(want["rows"])
    for key, w in want["rows"].items():
        r = got[key]
        assert (r["matches"], r["hands"], r["wins"], r["self_draws"], r["deal_ins"]) == \
            (w["matches"], w["hands"], w["wins"], w["self_draws"], w["deal_ins"]), key
        assert r["win_rate"] == round(w["wins"] / w["hands"], 4), key
        assert r["deal_in_rate"] == round(w["deal_ins"] / w["hands"], 4), key
        assert r["avg_value_won"] == (round(w["value"] / w["wins"], 3) if w["wins"] else None), key
        b = r["biggest_hand"]
        assert (None if b is None else (b["value"], b["file"], b["hand"])) == w["biggest"], key
        assert (r["discards"], r["same_as_strong"]) == (w["discards"], w["same"]), key
        assert r["same_as_strong_rate"] == (None if w["discards"] is None else round(w["same"] / w["discards"], 4))


def test_stats_json_gives_the_exact_counts(history: Path, capsys, monkeypatch):
    report = stats_json(capsys, monkeypatch, history)
    want = expected(history)
    check(report, want)
    assert report["history"] == str(history)
    # the seeds give wins, deal-ins and people's rows in both variants (the test can fail)
    assert {("classic", "Ann"), ("classic", "Bob"), ("singapore", "Ann"), ("classic", "ai:strong")} <= set(want["rows"])
    assert sum(w["wins"] for w in want["rows"].values()) >= 3
    assert sum(w["deal_ins"] for w in want["rows"].values()) >= 1
    ann = next(r for r in report["players"] if (r["variant"], r["player"]) == ("classic", "Ann"))
    assert ann["matches"] == 2  # seat 1 in one match, seat 2 in the other: one player
    # the unfinished match and the junk file are left out, and named
    assert sorted(s["file"] for s in report["skipped"]) == ["junk.jsonl", "unfinished.jsonl"]
    assert "unfinished" in next(s["reason"] for s in report["skipped"] if s["file"] == "unfinished.jsonl")
    # counted again from the cache: the same report
    assert (history / H.CACHE_NAME).exists()
    assert stats_json(capsys, monkeypatch, history) == report


def test_stats_filters(history: Path, capsys, monkeypatch):
    report = stats_json(capsys, monkeypatch, history, "--variant", "singapore")
    check(report, expected(history, variant="singapore"))
    assert {r["variant"] for r in report["players"]} == {"singapore"} and report["matches"] == 1
    report = stats_json(capsys, monkeypatch, history, "--player", "bob")
    check(report, expected(history, player="bob"))
    assert [r["player"] for r in report["players"]] == ["Bob"] and report["matches"] == 2
    report = stats_json(capsys, monkeypatch, history, "--player", "nobody")
    assert report["players"] == [] and report["matches"] == 0


def test_stats_text_and_errors(history: Path, capsys, monkeypatch, tmp_path: Path):
    monkeypatch.setenv("MAHJONG_TUI_HISTORY", str(history))
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"History: {history} (3 matches; 2 files left out)")
    ann = next(ln for ln in out.splitlines() if ln.strip().startswith("Ann") and "singapore" in ln)
    assert "100.0% of" in ann  # ai:strong played Ann's seat there
    assert "left out junk.jsonl" in out
    assert main(["stats", "--variant", "mahjong-of-mars"]) == 2
    assert "mahjong-of-mars" in capsys.readouterr().err
    monkeypatch.setenv("MAHJONG_TUI_HISTORY", str(tmp_path / "none-yet"))
    assert main(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"history": str(tmp_path / "none-yet"), "matches": 0,
                                                   "skipped": [], "players": []}


def test_a_changed_or_deleted_match_is_counted_again(history: Path, tmp_path: Path, capsys, monkeypatch):
    import shutil

    folder = tmp_path / "copy"
    shutil.copytree(history, folder)
    first = stats_json(capsys, monkeypatch, folder)
    (folder / "singapore-20260101-000002.jsonl").unlink()
    after = stats_json(capsys, monkeypatch, folder)
    assert after["matches"] == first["matches"] - 1
    assert {r["variant"] for r in after["players"]} == {"classic"}
    cache = json.loads((folder / H.CACHE_NAME).read_text())
    assert "singapore-20260101-000002.jsonl" not in cache["matches"]
