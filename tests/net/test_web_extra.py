"""``--web`` without the ``web`` extra, and its options' checks: one line, exit 2 (runs with or
without textual-serve installed: its absence is simulated by a module that cannot be
imported)."""

from __future__ import annotations

import subprocess
import sys

from .util import ROOT, env


def run(args, tmp_path, hide_textual_serve: bool = False):
    e = env()
    if hide_textual_serve:
        fake = tmp_path / "fake"
        (fake / "textual_serve").mkdir(parents=True)
        (fake / "textual_serve" / "__init__.py").write_text("raise ImportError('textual_serve is not installed')\n")
        e["PYTHONPATH"] = str(fake) + ":" + e["PYTHONPATH"]
    return subprocess.run([sys.executable, "-m", "mahjong_tui", *args], cwd=ROOT, env=e, capture_output=True,
                          text=True, timeout=60)


def test_web_without_the_extra_names_it_and_exits_2(tmp_path):
    log = tmp_path / "t.jsonl"
    res = run(["serve", "--seats", "remote,ai,ai,ai", "--port", "0", "--web", "--log", str(log)], tmp_path,
              hide_textual_serve=True)
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "textual-serve" in lines[0] and "pip install 'mahjong-tui[web]'" in lines[0]
    assert not log.exists()  # refused before the journal is made


def test_web_options_are_checked(tmp_path):
    for bad, says in ((["--web-sessions", "0"], "1 to 16"), (["--web-sessions", "99"], "1 to 16"),
                      (["--web-port", "70000"], "0 to 65535"), (["--web-idle", "-1"], "negative")):
        res = run(["serve", "--seats", "remote,ai,ai,ai", "--web", *bad], tmp_path)
        assert res.returncode == 2 and says in res.stderr, (bad, res.stderr)
