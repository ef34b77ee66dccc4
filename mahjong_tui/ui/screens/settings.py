"""The Settings screen (issue 21, item 8), reached from the main menu: face set, colour-blind
palette, bot pause, auto-draw at a new Classic table, bell on one's turn.

What is set here is :class:`mahjong_tui.config.Settings`; leaving the screen (Back, Esc or
``q``) writes it to the settings file (:func:`mahjong_tui.paths.config_path`) and the app uses
it from the next table on (:meth:`mahjong_tui.ui.app.MahjongApp.apply_settings`).  A bot pause
the field cannot use (``11``, ``x``) is said under the fields and keeps the screen open until
it is put right.  A sample of tiles shows the chosen face set in the chosen colours.  The
screen also says where the settings file and the saved games are.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.validation import Number
from textual.widgets import Button, Footer, Input, Label, Select, Static, Switch

from ...config import Settings
from ...errors import MahjongError
from ...net.args import MAX_BOT_DELAY
from ...paths import config_path
from ...tiles import parse_tile
from ..faces import Faces, available_face_sets, choose_faces, face_set_path, is_box_set, load_box_set, load_face_set
from ..palette import COLOUR_BLIND, apply_palette
from .base import BaseScreen

#: the tiles of the sample row: each suit's 1, 5 and 9, a wind and the three dragons
SAMPLE = ("1t", "5t", "9t", "1s", "5s", "9s", "1m", "5m", "9m", "E", "C", "F", "P")
#: the sample of a boxed set, narrower (it fits beside the labels at 80 columns)
SAMPLE_BOXED = ("1t", "5t", "1s", "5s", "1m", "5m", "E", "C", "F")
#: said when the bot pause cannot be used
PAUSE_RULE = f"Bot pause: seconds, 0 to {MAX_BOT_DELAY:g} (such as 0.4)."
#: what the switches' labels say beside them (so that on and off differ without colour too)
ON_OFF = {True: "on", False: "off"}


def home_short(path: Path) -> str:
    """``path`` with the home folder written ``~`` (``~/.config/mahjong-tui/config.toml``)."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def face_choices() -> list[tuple[str, str]]:
    """The face-set select's (label, value) pairs: ``auto`` first, then every shipped set
    (:func:`~mahjong_tui.ui.faces.available_face_sets`, boxed ones said so)."""
    out = [("auto (by the terminal)", "auto")]
    for name in available_face_sets():
        try:
            boxed = is_box_set(name)
        except MahjongError:
            continue
        out.append((f"{name} (boxed)" if boxed else name, name))
    return out


def face_description(name: str) -> str:
    """One line on face set ``name`` (``auto``: how the automatic choice goes)."""
    if name == "auto":
        return "One line a tile at 80 columns (cjk from 140), boxed tiles where the table has room."
    try:
        face_set_path(name)
        return (load_box_set(name) if is_box_set(name) else load_face_set(name)).description
    except MahjongError as exc:
        return str(exc)


class SettingsScreen(BaseScreen):
    """The settings form.  Dismissed with the :class:`Settings` it shows (the app saves them),
    or None when it was left with a bot pause it cannot use put back (nothing changes)."""

    BINDINGS = [
        Binding("escape", "back", "Back (saves)"),
        Binding("q", "back", "Back", show=False),
    ]

    def __init__(self, settings: Settings):
        super().__init__(classes="menu")
        self.settings = settings

    def compose_body(self) -> ComposeResult:
        s = self.settings
        names = [v for _, v in face_choices()]
        with VerticalScroll(id="settings"):
            yield Static("Settings", id="settings-title")
            with Horizontal(classes="settings-row"):
                yield Label("Tile faces", classes="settings-label")
                yield Select(face_choices(), value=s.faces if s.faces in names else "auto", allow_blank=False,
                             compact=True, id="set-faces")
            yield Static("", id="faces-note", classes="settings-note")
            with Horizontal(classes="settings-row"):
                yield Label("Colour-blind palette", classes="settings-label")
                yield Switch(s.colour_blind, id="set-colour-blind", animate=False)
                yield Label("", classes="switch-state", id="state-colour-blind")
            yield Static("", id="sample")
            with Horizontal(classes="settings-row"):
                yield Label("Bot pause", classes="settings-label")
                yield Input(f"{s.bot_pause:g}", id="set-bot-pause", compact=True, type="number",
                            validators=[Number(minimum=0, maximum=MAX_BOT_DELAY)])
                yield Label("seconds before a bot acts", classes="switch-state")
            with Horizontal(classes="settings-row"):
                yield Label("Classic auto-draw", classes="settings-label")
                yield Switch(s.auto_draw, id="set-auto-draw", animate=False)
                yield Label("", classes="switch-state", id="state-auto-draw")
            with Horizontal(classes="settings-row -last"):
                yield Label("Bell on your turn", classes="settings-label")
                yield Switch(s.bell, id="set-bell", animate=False)
                yield Label("", classes="switch-state", id="state-bell")
            yield Static("", id="settings-error")
            yield Static("", id="settings-files")
            with Horizontal(classes="menu-buttons"):
                yield Button("Back", id="settings-back", variant="primary")
                yield Button("Defaults", id="settings-defaults")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#set-faces", Select).focus()
        self._say("")
        self._show()
        app = self.app
        given = []
        if getattr(app, "cli_faces", None) is not None or getattr(app, "ascii", False):
            given.append("--ascii" if app.ascii else f"--faces {app.cli_faces}")
        if getattr(app, "cli_bot_delay", None) is not None:
            given.append(f"--bot-delay {app.cli_bot_delay:g}")
        wins = f"  ({', '.join(given)} on the command line win{'s' if len(given) == 1 else ''} in this run)" if given else ""
        self.query_one("#settings-files", Static).update(
            Text(f"Saved on leaving to {home_short(config_path(app.env))}{wins}\n"
                 f"Saved games: {home_short(app.saves_dir())}"))

    # -- what the form holds ------------------------------------------------------------------
    def chosen(self) -> Settings | None:
        """The settings the form holds, or None while the bot pause cannot be used."""
        pause = self.query_one("#set-bot-pause", Input)
        if not pause.is_valid or not pause.value.strip():
            return None
        faces = self.query_one("#set-faces", Select).value
        return replace(self.settings,
                       faces=str(faces) if isinstance(faces, str) else "auto",
                       colour_blind=self.query_one("#set-colour-blind", Switch).value,
                       bot_pause=float(pause.value),
                       auto_draw=self.query_one("#set-auto-draw", Switch).value,
                       bell=self.query_one("#set-bell", Switch).value)

    def _show(self) -> None:
        """The notes beside the switches, the face set's line and the sample row."""
        for key in ("colour-blind", "auto-draw", "bell"):
            on = self.query_one(f"#set-{key}", Switch).value
            extra = {"auto-draw": ": a new table starts with it (o at the table turns it)",
                     "colour-blind": ": suits blue, orange, white"}.get(key, "") if on else ""
            self.query_one(f"#state-{key}", Label).update(ON_OFF[on] + extra)
        faces = self.query_one("#set-faces", Select).value
        name = str(faces) if isinstance(faces, str) else "auto"
        self.query_one("#faces-note", Static).update(Text(face_description(name)))
        self.query_one("#sample", Static).update(self._sample(name))

    def _sample(self, name: str) -> Text:
        """The sample tiles in face set ``name`` with the chosen palette (boxed sets: boxed)."""
        app = self.app
        try:
            faces = choose_faces(None if name == "auto" else name, app.size.width, getattr(app, "ascii", False),
                                 app.env)
        except MahjongError as exc:
            return Text(str(exc))
        faces = apply_palette(faces, COLOUR_BLIND if self.query_one("#set-colour-blind", Switch).value else None)
        return sample_text(faces)

    # -- events ---------------------------------------------------------------------------------
    def on_select_changed(self, event: Select.Changed) -> None:
        self._show()

    def on_switch_changed(self, event: Switch.Changed) -> None:
        self._show()

    def on_input_changed(self, event: Input.Changed) -> None:
        valid = event.validation_result is None or event.validation_result.is_valid
        self._say("" if valid and event.value.strip() else PAUSE_RULE)

    def _say(self, text: str) -> None:
        """The line under the fields: what the bot pause takes (hidden when empty)."""
        error = self.query_one("#settings-error", Static)
        error.update(text)
        error.display = bool(text)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "settings-back":
            self.action_back()
        elif event.button.id == "settings-defaults":
            self._set(Settings())

    def _set(self, s: Settings) -> None:
        self.query_one("#set-faces", Select).value = s.faces
        self.query_one("#set-colour-blind", Switch).value = s.colour_blind
        self.query_one("#set-bot-pause", Input).value = f"{s.bot_pause:g}"
        self.query_one("#set-auto-draw", Switch).value = s.auto_draw
        self.query_one("#set-bell", Switch).value = s.bell
        self._show()

    def action_back(self) -> None:
        """Leave: the app keeps and saves what is set; a bot pause it cannot use is said and
        the screen stays."""
        chosen = self.chosen()
        if chosen is None:
            self._say(f"Check the bot pause: {PAUSE_RULE}")
            self.query_one("#set-bot-pause", Input).focus()
            return
        self.dismiss(chosen)


def sample_text(faces: Faces) -> Text:
    """:data:`SAMPLE` drawn with ``faces``: one line with the one-line set, or
    :data:`SAMPLE_BOXED` boxed (:data:`~mahjong_tui.ui.faces.BOX_ROWS` lines and the bottom
    borders) when the set is boxed by request (``faces.forced``)."""
    if faces.large is None or not faces.forced:
        return faces.small.render_row([parse_tile(t) for t in SAMPLE])
    tiles = [parse_tile(t) for t in SAMPLE_BOXED]
    box = faces.large
    rows = [box.tile(t) for t in tiles]
    out = Text(no_wrap=True, overflow="crop")
    for i in range(len(rows[0])):
        for j, r in enumerate(rows):
            if j:
                out.append(" ")
            out.append_text(r[i])
        out.append("\n")
    for j, t in enumerate(tiles):
        if j:
            out.append(" ")
        out.append_text(box.bottom(t))
    return out
