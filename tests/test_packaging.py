"""A plain (non-editable) install, run from another directory, finds variants/ and assets/."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                        "-w", str(out), str(ROOT)], capture_output=True, text=True)
    if r.returncode != 0 and "hatchling" in (r.stderr + r.stdout):
        pytest.skip("hatchling is not installed here: " + r.stderr.strip().splitlines()[-1])
    assert r.returncode == 0, r.stderr
    return next(out.glob("*.whl"))


def test_wheel_ships_variants_and_assets(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "mahjong_tui/_data/variants/classic.toml" in names
    assert "mahjong_tui/_data/variants/yuxi.toml" in names
    assert any(n.startswith("mahjong_tui/_data/assets/faces/") for n in names)
    assert any(n.startswith("mahjong_tui/_data/assets/rules/") for n in names)
    assert "mahjong_tui/_data/assets/tables/chow9.xz" in names  # shipped hand tables (hand_tables.py)


def test_installed_wheel_runs_from_another_directory(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    r = subprocess.run([str(venv / "bin" / "mahjong-tui"), "variants"], cwd=tmp_path, capture_output=True,
                       text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "classic" in r.stdout and "144 tiles" in r.stdout
    r = subprocess.run([str(venv / "bin" / "mahjong-tui"), "score", "--variant", "classic", "--json",
                        "123m456t (777s) EEE 55m +5m"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert '"value": 240' in r.stdout
    # the data really came from the installed package, not from this checkout
    r = subprocess.run([str(py), "-c", "from mahjong_tui.paths import data_dir; print(data_dir('variants'))"],
                       cwd=tmp_path, capture_output=True, text=True, env=env)
    assert "site-packages" in r.stdout and str(ROOT) not in r.stdout
    # ... and so do the shipped hand tables
    r = subprocess.run([str(py), "-c", "from mahjong_tui import hand_tables; from mahjong_tui.hand import HandShape; "
                        "print(hand_tables.tables_for(HandShape()._units[0][2]) is not None, hand_tables.path())"],
                       cwd=tmp_path, capture_output=True, text=True, env=env)
    assert r.stdout.startswith("True ") and "site-packages" in r.stdout, r.stdout + r.stderr
