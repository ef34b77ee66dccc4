"""The player's settings: a small TOML file the Settings screen writes and the app reads at
start-up (issue 21, item 8).

Where: :func:`mahjong_tui.paths.config_path` (``$MAHJONG_TUI_CONFIG``, else ``config.toml`` in
the platform's config folder, ``~/.config/mahjong-tui/config.toml`` on Linux).  The file::

    faces = "auto"          # tile faces: "auto" or a shipped face set (mahjong_tui/ui/faces.py)
    colour_blind = false    # suit colours told apart with red-green colour blindness
    bot_pause = 0.4         # seconds a bot pauses before it acts, 0 to 10 (as --bot-delay)
    auto_draw = true        # auto-draw on at a new table where the next player may take any
                            # discard (Classic; the o key at the table)
    bell = false            # ring the terminal bell when it is your turn

Each setting has one place, :class:`Settings` (its defaults are the app's defaults).  The
command line wins over the file: ``--faces``/``--ascii`` over ``faces``, ``--bot-delay`` over
``bot_pause``.

A file that cannot be read or is not TOML gives the defaults, a key with a bad value that
key's default, and an unknown key is left out; either way :func:`load_settings` says so in one
line (the app shows it) and never raises.  The file is written whole, by hand (five keys need
no TOML writer), to a temporary file then renamed, so a crash never leaves half a file.
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Mapping

from .net.args import MAX_BOT_DELAY
from .paths import config_path, private_dir, read_regular

#: the largest settings file read (it holds five short lines)
CONFIG_MAX_BYTES = 64 * 1024


@dataclass(frozen=True)
class Settings:
    """The settings and their defaults.

    - ``faces``: ``"auto"`` (by the terminal: :func:`mahjong_tui.ui.faces.choose_faces`) or the
      name of a shipped face set (:func:`mahjong_tui.ui.faces.available_face_sets`);
    - ``colour_blind``: draw the tiles in the colour-blind palette
      (``assets/palettes/colour-blind.toml``, :mod:`mahjong_tui.ui.palette`);
    - ``bot_pause``: seconds a bot pauses before acting, 0 to
      :data:`~mahjong_tui.net.args.MAX_BOT_DELAY` (10);
    - ``auto_draw``: auto-draw is on at a new table whose variant lets the next player take any
      discard (Classic); a resumed match keeps its own;
    - ``bell``: the terminal bell rings when a seat at this keyboard is to play.
    """

    faces: str = "auto"
    colour_blind: bool = False
    bot_pause: float = 0.4
    auto_draw: bool = True
    bell: bool = False


#: what each key takes, said when a file holds something else
KEY_RULES = {
    "faces": "'auto' or a face set's name",
    "colour_blind": "true or false",
    "bot_pause": f"seconds, 0 to {MAX_BOT_DELAY:g}",
    "auto_draw": "true or false",
    "bell": "true or false",
}
#: what each key does, written above it in the file
KEY_NOTES = {
    "faces": "tile faces, auto: by the terminal's size and locale",
    "colour_blind": "suit colours told apart with red-green colour blindness (blue, orange, white)",
    "bot_pause": "seconds a bot pauses before it acts (--bot-delay)",
    "auto_draw": "auto-draw on at a new Classic table (the o key at the table)",
    "bell": "ring the terminal bell when it is your turn",
}


def _face_sets() -> list[str]:
    from .ui.faces import available_face_sets  # rich only; read when a file names a set

    return available_face_sets()


def _check(key: str, value: Any) -> Any:
    """``value`` as setting ``key`` takes it; ValueError when it does not."""
    if key == "faces":
        names = _face_sets()
        if isinstance(value, str) and (value == "auto" or value in names):
            return value
        raise ValueError(f"{key} = {value!r}: {key} takes 'auto' or one of {', '.join(names)}")
    elif key == "bot_pause":
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
                and 0 <= value <= MAX_BOT_DELAY:
            return float(value)
    elif isinstance(value, bool):
        return value
    raise ValueError(f"{key} = {value!r}: {key} takes {KEY_RULES[key]}")


def settings_from(data: Mapping[str, Any]) -> tuple[Settings, list[str]]:
    """The settings a parsed file holds (the default for a key that is missing or bad) and
    what was wrong with it: one phrase per bad or unknown key."""
    values: dict[str, Any] = {}
    problems: list[str] = []
    known = {f.name for f in fields(Settings)}
    for key, value in data.items():
        if key not in known:
            problems.append(f"unknown key {key!r} (keys: {', '.join(KEY_RULES)})")
            continue
        try:
            values[key] = _check(key, value)
        except ValueError as exc:
            problems.append(str(exc))
    return replace(Settings(), **values), problems


def load_settings(env: Mapping[str, str] = os.environ) -> tuple[Settings, str | None]:
    """The settings of the file at :func:`~mahjong_tui.paths.config_path` (``env`` gives
    ``MAHJONG_TUI_CONFIG``), and None, or one line saying what was wrong and what is used
    instead.  No file: the defaults and None.  Never raises."""
    path = config_path(env)
    try:
        raw = read_regular(path, CONFIG_MAX_BYTES, "a settings file")
    except FileNotFoundError:
        return Settings(), None
    except OSError as exc:
        return Settings(), f"settings file {path}: cannot be read ({exc.strerror or exc}); using the defaults"
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return Settings(), f"settings file {path}: not UTF-8 text; using the defaults"
    except tomllib.TOMLDecodeError as exc:
        return Settings(), f"settings file {path}: not TOML ({exc}); using the defaults"
    settings, problems = settings_from(data)
    if problems:
        return settings, f"settings file {path}: {'; '.join(problems)}; the default used for each"
    return settings, None


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    raise TypeError(f"no TOML form for {value!r}")


def dumps_settings(settings: Settings) -> str:
    """The text of the settings file for ``settings`` (TOML, one ``key = value`` a line under
    a comment).  ``tomllib.loads`` of it gives back every field."""
    lines = ["# mahjong-tui settings, written by the Settings screen of the main menu.",
             "# The command line wins: --faces / --ascii over faces, --bot-delay over bot_pause."]
    for key, value in asdict(settings).items():
        rule = f"'auto' or one of {', '.join(_face_sets())}" if key == "faces" else KEY_RULES[key]
        lines += ["", f"# {KEY_NOTES[key]}: {rule}", f"{key} = {_toml_value(value)}"]
    return "\n".join(lines) + "\n"


def save_settings(settings: Settings, env: Mapping[str, str] = os.environ) -> Path:
    """Write ``settings`` to :func:`~mahjong_tui.paths.config_path` (its folder made if
    missing); returns the path.  Raises OSError when it cannot be written (the file as it
    was is left alone)."""
    path = config_path(env)
    private_dir(path.parent)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(dumps_settings(settings))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path
