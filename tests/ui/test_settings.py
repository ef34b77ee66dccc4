"""Settings (issue 21, item 8): the settings file and where files live (platformdirs, with the
environment's overrides), the Settings screen driven with the keys (a change is saved on
leaving, a new app reads it, the next table uses it), a bad settings file, the menu's ``q``,
and the focused control drawn plainly."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import platformdirs
import pytest
from textual.color import Color
from textual.widgets import Button, Input, Select, Switch

from mahjong_tui import paths
from mahjong_tui.cli import build_parser
from mahjong_tui.config import Settings, dumps_settings, load_settings, save_settings
from mahjong_tui.tiles import parse_tile
from mahjong_tui.ui.app import MahjongApp, build_app
from mahjong_tui.ui.faces import available_face_sets
from mahjong_tui.ui.screens.menu import MenuScreen
from mahjong_tui.ui.screens.settings import SettingsScreen, face_choices

from .helpers import ENV, THEME, make_app, my_request, screen_text, table_screen, wait_for


def _menu_app(env: dict, width: int = 80) -> MahjongApp:
    """The app as ``mahjong-tui`` starts it: no --faces, no --bot-delay (the settings decide)."""
    app = MahjongApp(command=None, env=env, width=width)
    app.theme = THEME
    app.privacy_guard = 0
    return app


def _env(tmp_path: Path) -> dict:
    return {**ENV, "MAHJONG_TUI_SAVES": str(tmp_path / "saves"), "MAHJONG_TUI_CONFIG": str(tmp_path / "cfg" / "config.toml")}


# -- where files live ---------------------------------------------------------------------------

def test_saves_and_settings_paths_follow_platformdirs_and_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    # the environment variables win
    assert paths.saves_dir({"MAHJONG_TUI_SAVES": "~/somewhere"}) == Path.home() / "somewhere"
    assert paths.config_path({"MAHJONG_TUI_CONFIG": str(tmp_path / "x.toml")}) == tmp_path / "x.toml"
    # else platformdirs' folders for mahjong-tui
    assert paths.saves_dir({}) == platformdirs.user_data_path("mahjong-tui", appauthor=False) / "saves"
    assert paths.config_path({}) == platformdirs.user_config_path("mahjong-tui", appauthor=False) / "config.toml"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="platformdirs puts the data folder elsewhere off Linux")
def test_on_linux_the_saves_folder_is_where_it_was(tmp_path, monkeypatch):
    """The folder the saves had before platformdirs ($XDG_DATA_HOME/mahjong-tui/saves, else
    ~/.local/share/mahjong-tui/saves) is platformdirs' on Linux: old saves are found."""
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert paths.saves_dir({}) == Path.home() / ".local" / "share" / "mahjong-tui" / "saves"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert paths.saves_dir({}) == tmp_path / "mahjong-tui" / "saves" == paths.legacy_saves_dir({"XDG_DATA_HOME": str(tmp_path)})


def test_saves_in_the_old_folder_are_still_found_where_platformdirs_differs(tmp_path, monkeypatch):
    """Where platformdirs' folder is not the hand-made one (macOS, Windows), saves already in
    the old folder are used until the new one exists."""
    new_base = tmp_path / "Application Support" / "mahjong-tui"
    monkeypatch.setattr(platformdirs, "user_data_path", lambda *a, **k: new_base)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "old"))
    env = {}
    old = tmp_path / "old" / "mahjong-tui" / "saves"
    assert paths.saves_dir(env) == new_base / "saves"  # nothing old: the new folder
    old.mkdir(parents=True)
    assert paths.saves_dir(env) == old
    (new_base / "saves").mkdir(parents=True)
    assert paths.saves_dir(env) == new_base / "saves"


# -- the file -----------------------------------------------------------------------------------

def test_the_file_written_reads_back_as_it_was(tmp_path):
    env = {"MAHJONG_TUI_CONFIG": str(tmp_path / "a" / "b" / "config.toml")}
    assert load_settings(env) == (Settings(), None)  # no file: the defaults, nothing said
    s = Settings(faces="large", colour_blind=True, bot_pause=2.5, auto_draw=True, bell=True)
    path = save_settings(s, env)
    assert path == tmp_path / "a" / "b" / "config.toml"
    assert tomllib.loads(path.read_text()) == {"faces": "large", "colour_blind": True, "bot_pause": 2.5,
                                               "auto_draw": True, "bell": True}
    assert load_settings(env) == (s, None)
    assert not list(path.parent.glob("*.tmp"))
    assert "--bot-delay" in dumps_settings(s)  # the file says the command line wins


@pytest.mark.parametrize("text, said, expected", [
    ("faces = [", "not TOML", Settings()),
    (b"\xff\xfe", "not UTF-8", Settings()),
    ('faces = "nope"\nbell = true', "faces = 'nope': faces takes 'auto' or one of ascii,", Settings(bell=True)),
    ("bot_pause = 11\ncolour_blind = 1", "bot_pause = 11: bot_pause takes seconds, 0 to 10; "
                                         "colour_blind = 1: colour_blind takes true or false", Settings()),
    ("bot_pause = nan", "bot_pause = nan", Settings()),
    ('volume = 3\nauto_draw = true', "unknown key 'volume'", Settings(auto_draw=True)),
])
def test_a_bad_file_is_one_line_and_the_defaults(tmp_path, text, said, expected):
    path = tmp_path / "config.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    settings, problem = load_settings({"MAHJONG_TUI_CONFIG": str(path)})
    assert settings == expected
    assert problem is not None and "\n" not in problem and said in problem and str(path) in problem


def test_a_settings_path_that_is_a_folder_is_one_line(tmp_path):
    settings, problem = load_settings({"MAHJONG_TUI_CONFIG": str(tmp_path)})
    assert settings == Settings() and "cannot be read" in problem and "\n" not in problem


async def test_the_app_says_what_was_wrong_and_plays_on_with_the_defaults(tmp_path):
    env = _env(tmp_path)
    Path(env["MAHJONG_TUI_CONFIG"]).parent.mkdir(parents=True)
    Path(env["MAHJONG_TUI_CONFIG"]).write_text("bot_pause = -1\nfaces = 'large'\n")
    app = _menu_app(env)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        said = [n.message for n in app._notifications]
        assert len(said) == 1 and "bot_pause = -1: bot_pause takes seconds, 0 to 10" in said[0]
        assert app.settings == Settings(faces="large")  # the good key kept, the bad one's default
        assert app.screen.query_one("#delay", Input).value == "0.4"  # the default pause


# -- the screen ---------------------------------------------------------------------------------

def test_the_face_sets_offered_are_those_shipped():
    assert [v for _, v in face_choices()] == ["auto", *available_face_sets()]


async def test_settings_are_saved_on_leaving_and_used_by_the_next_table(tmp_path):
    env = _env(tmp_path)
    app = _menu_app(env)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert app.screen.query_one("#delay", Input).value == "0.4"  # the default pause
        await pilot.press("f3")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen))
        screen = app.screen
        text = screen_text(app)
        assert env["MAHJONG_TUI_CONFIG"] in text and env["MAHJONG_TUI_SAVES"] in text
        # the face set: the select has the focus; open it and pick "large" with the keys
        assert app.focused is screen.query_one("#set-faces", Select)
        await pilot.press("enter")
        await pilot.pause()
        names = [v for _, v in face_choices()]
        await pilot.press(*["down"] * names.index("large"), "enter")
        await pilot.pause()
        assert screen.query_one("#set-faces", Select).value == "large"
        await pilot.press("tab", "space")  # the colour-blind palette on
        await pilot.press("tab", "end", "backspace", "backspace", "backspace", "1", ".", "5")  # bot pause 1.5 s
        assert screen.query_one("#set-auto-draw", Switch).value  # on by default (issue 22, item 2)
        await pilot.press("tab", "tab", "space")  # auto-draw left on, bell on
        await pilot.pause()
        assert "on: suits blue, orange, white" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        want = Settings(faces="large", colour_blind=True, bot_pause=1.5, auto_draw=True, bell=True)
        assert app.settings == want
        assert app.screen.query_one("#delay", Input).value == "1.5"  # the menu's pause follows
    assert load_settings(env) == (want, None)

    # a new app reads them; its next table has them
    again = _menu_app(env, 120)
    async with again.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, MenuScreen))
        assert again.settings == want
        assert again.screen.query_one("#delay", Input).value == "1.5"
        again.screen.query_one("#seed", Input).value = "32"
        again.screen.query_one("#hands", Input).value = "1"
        await pilot.click("#new")
        await wait_for(pilot, lambda: table_screen(again) is not None)
        t = table_screen(again)
        assert t.art.large is not None and t.art.large.name == "large"  # the face set asked for
        five_s = parse_tile("5s")
        assert t.art.faces.tile_style(five_s) == "bold #E69F00"  # the colour-blind palette's bamboo
        assert t.art.large.tile_styles[five_s] == "bold #E69F00"
        delays = [p.delay for p in t.session.runner.seats if hasattr(p, "delay")]
        assert delays == [1.5, 1.5, 1.5]  # the bots' pause
        assert t.session.auto_draw == {0}  # Classic: auto-draw on at the new table
        t.session.stop()


async def test_a_bot_pause_the_screen_cannot_use_keeps_it_open(tmp_path):
    env = _env(tmp_path)
    app = make_app(command=None, env=env)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.click("#settings")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen))
        field = app.screen.query_one("#set-bot-pause", Input)
        field.value = "11"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert "Bot pause: seconds, 0 to 10" in screen_text(app)
        assert not Path(env["MAHJONG_TUI_CONFIG"]).exists()
        field.value = "0"
        await pilot.press("q")  # in the field q is a letter (refused): the screen stays
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen) and field.value == "0"
        app.screen.query_one("#settings-back", Button).focus()
        await pilot.press("q")  # elsewhere q leaves, as Esc and Back do
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert load_settings(env)[0].bot_pause == 0.0


@pytest.mark.parametrize("before, after, faces, large, delay", [
    ([], [], "compact", "large", 3.0),  # the settings' face set (and its one-line set), pause
    (["--faces", "cjk"], ["--bot-delay", "0"], "cjk", None, 0.0),  # the command line wins
    (["--ascii"], [], "ascii", "large-ascii", 3.0),
])
async def test_play_takes_the_settings_and_the_command_line_wins(tmp_path, monkeypatch, before, after, faces, large,
                                                                 delay):
    env = _env(tmp_path)
    for k in ("MAHJONG_TUI_SAVES", "MAHJONG_TUI_CONFIG"):
        monkeypatch.setenv(k, env[k])
    save_settings(Settings(faces="large", bot_pause=3.0), env)
    args = build_parser().parse_args([*before, "play", "--seed", "32", "--hands", "1", "--seats",
                                      "human,ai:baseline,ai:baseline,ai:baseline", *after])
    app = build_app(args)
    app.theme = THEME
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_for(pilot, lambda: table_screen(app) is not None)
        t = table_screen(app)
        assert t.art.faces.name == faces
        assert (t.art.large.name if t.art.large is not None else None) == large
        assert [p.delay for p in t.session.runner.seats if hasattr(p, "delay")] == [delay] * 3
        assert t.session.auto_draw == {0}  # the settings' default: on at a Classic table
        t.session.stop()


async def test_auto_draw_default_only_where_the_next_player_may_take_any_discard(tmp_path):
    env = _env(tmp_path)
    save_settings(Settings(auto_draw=True), env)
    app = make_app(env=env, variant="yuxi", seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: table_screen(app) is not None)
        assert table_screen(app).session.auto_draw == set()
        assert "auto-draw on" not in screen_text(app)


# -- the menu: q, and the focus drawn plainly -----------------------------------------------------

async def test_q_quits_at_the_menu_but_is_a_letter_in_a_text_field(tmp_path):
    app = make_app(command=None, env=_env(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        app.screen.query_one("#seed", Input).focus()
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code is None and isinstance(app.screen, MenuScreen)
        app.screen.query_one("#new", Button).focus()
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


def _lum(c: Color) -> float:
    return (0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b) / 255


async def test_the_focused_control_is_drawn_plainly(tmp_path):
    """Tab moves the focus; the button, select and field that hold it are drawn in the accent
    colour, far from the others' (today: one shade apart), and buttons and selects also
    underlined (a cue without colour)."""
    app = make_app(command=None, env=_env(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        screen = app.screen
        rules, saved = screen.query_one("#rules", Button), screen.query_one("#saved", Button)
        rules.focus()
        await pilot.pause()
        focused, other = rules.rich_style, saved.rich_style
        assert focused.underline and not other.underline
        assert abs(_lum(rules.styles.background) - _lum(saved.styles.background)) > 0.3
        assert rules.styles.background == Color.parse(app.theme_variables["accent"])
        # a select and a number field of the menu
        seat = screen.query_one("#seat1", Select)
        seat.focus()
        await pilot.pause()
        current, unfocused = seat.query_one("SelectCurrent"), screen.query_one("#seat2", Select).query_one("SelectCurrent")
        assert current.rich_style.underline and not unfocused.rich_style.underline
        bg = current.background_colors[1]
        assert abs(_lum(bg) - _lum(unfocused.background_colors[1])) > 0.1
        seed, hands = screen.query_one("#seed", Input), screen.query_one("#hands", Input)
        seed.focus()
        await pilot.pause()
        assert abs(_lum(seed.background_colors[1]) - _lum(hands.background_colors[1])) > 0.1
        # the Settings screen's switches too
        await pilot.press("f3")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen))
        bell, auto = app.screen.query_one("#set-bell", Switch), app.screen.query_one("#set-auto-draw", Switch)
        bell.focus()
        await pilot.pause()
        assert abs(_lum(bell.background_colors[1]) - _lum(auto.background_colors[1])) > 0.1


@pytest.mark.parametrize("bell", [True, False])
async def test_the_bell_rings_on_your_turn_when_asked(tmp_path, bell):
    """The bell rings once for each of the player's turns (not for a claim prompt), and only
    when the settings ask for it."""
    import time

    env = _env(tmp_path)
    save_settings(Settings(bell=bell), env)
    app = make_app(env=env)
    rings = []
    app.bell = lambda: rings.append(table_screen(app).session.request_now)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: my_request(app) is not None and my_request(app).is_turn)
        first = my_request(app)
        await pilot.press("enter")  # discard; the bots play on until our next turn
        end = time.monotonic() + 30
        while not (my_request(app) is not None and my_request(app).is_turn and my_request(app) is not first):
            assert time.monotonic() < end, "no second turn"
            req = my_request(app)
            if req is not None and not req.is_turn:
                await pilot.press("x")  # pass a claim prompt: no bell for it
            await pilot.pause()
        if bell:
            assert len(rings) == 2 and rings[0] is first and all(r.is_turn for r in rings)
        else:
            assert rings == []


# -- the colour-blind palette -------------------------------------------------------------------

#: simulation of protanopia and deuteranopia in linear RGB (Machado, Oliveira and Fernandes,
#: 2009, severity 1.0)
_CVD = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
}


def _lab_as_seen(rgb: tuple[int, int, int], matrix) -> tuple[float, float, float]:
    """CIE L*a*b* of sRGB ``rgb`` as seen with the colour-vision deficiency ``matrix``."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (x / 255 for x in rgb)]
    seen = [min(max(sum(m * v for m, v in zip(row, lin)), 0.0), 1.0) for row in matrix]
    xyz = [sum(m * v for m, v in zip(row, seen)) for row in
           ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))]
    x, y, z = xyz[0] / 0.95047, xyz[1], xyz[2] / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _suit_colours(face_set, foreground: str) -> dict[str, tuple[int, int, int]]:
    from rich.style import Style

    out = {}
    for suit in "tsm":
        colour = Style.parse(face_set.tile_style(parse_tile(f"5{suit}"))).color
        c = colour.get_truecolor() if colour is not None else Color.parse(foreground).rich_color.get_truecolor()
        out[suit] = (c.red, c.green, c.blue)
    return out


def _closest_suits(colours: dict, matrix) -> float:
    """The smallest colour difference (CIE76 ΔE) between two suits' colours as seen."""
    labs = {s: _lab_as_seen(c, matrix) for s, c in colours.items()}
    return min(sum((p - q) ** 2 for p, q in zip(labs[a], labs[b])) ** 0.5 for a, b in ("ts", "tm", "sm"))


def test_the_colour_blind_palette_keeps_the_suits_apart_for_red_green_colour_blindness():
    """Seen with protanopia or deuteranopia (simulated), the palette's three suit colours stay
    clearly apart (ΔE 30 or more), where the standard set's bamboo green and character red
    come close (deuteranopia: about 17); the faces and the sets without colour are unchanged."""
    from mahjong_tui.ui.faces import load_face_set
    from mahjong_tui.ui.palette import COLOUR_BLIND, load_palette, recolour_set

    foreground = MahjongApp().get_theme(THEME).foreground
    compact = load_face_set("compact")
    palette = dict(load_palette(COLOUR_BLIND))
    recoloured = recolour_set(compact, palette)
    for name, matrix in _CVD.items():
        assert _closest_suits(_suit_colours(recoloured, foreground), matrix) >= 30, name
    assert _closest_suits(_suit_colours(compact, foreground), _CVD["deuteranopia"]) < 30
    assert recoloured.faces == compact.faces
    ascii_set = load_face_set("ascii")
    assert recolour_set(ascii_set, palette) is ascii_set  # no colour: left as it is
