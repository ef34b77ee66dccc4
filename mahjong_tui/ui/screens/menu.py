"""The main menu (``mahjong-tui`` with no arguments; issue 3 §1) and the saved-games picker.

Keys of the menu: ``q`` (or ctrl+q) quits, as at the table (where it first asks) — except while
a text field has the focus, where ``q`` is a letter; ctrl+n starts a game, F2 shows the rules,
F3 opens the Settings screen (:mod:`.settings`; also its button).  The control that has the
focus is drawn in the accent colour with its label underlined (``app.tcss``, "focus"), so it is
plain where Tab has gone without relying on colour alone.  The bot pause starts at the
settings' (:attr:`mahjong_tui.config.Settings.bot_pause`) and follows them when they change.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical
from textual.message import Message
from textual.validation import Integer, Number
from textual.widgets import Button, Checkbox, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ...config import Settings
from ...errors import MahjongError
from ...history import NAME_CHARS, default_names
from ...net.args import MAX_BOT_DELAY
from ...variant import SCHEMA, available_variants, load_variant, option_values
from ..model import saved_game_summaries, saved_game_summary
from .base import BaseScreen

SEAT_CHOICES = [("Human", "human"), ("AI easy", "ai:easy"), ("AI normal", "ai:normal"), ("AI strong", "ai:strong")]
SEAT_NAMES = ("1 East", "2 South", "3 West", "4 North")
#: the seats' labels where the dice choose the first dealer (:func:`seat_one_is_east`)
SEAT_NUMBERS = ("Seat 1", "Seat 2", "Seat 3", "Seat 4")
#: said under the seats where the dice choose the first dealer
DICE_NOTE = "Winds drawn by dice: seat 1 is not always East."
#: Short labels of the named variant options (``[options]``, variants/README.md).
OPTION_LABELS = {"flowers": "Flowers", "compressed_winds": "Compressed winds", "all_tongs": "All tongs",
                 "concealed_quad_mode": "Concealed quads", "bonus_tile_mode": "Bonus tile",
                 "break_roll": "Break roll"}


#: the longest bot pause the menu starts a game with, in seconds: the command line's limit
#: (``--bot-delay``; ``1e3`` or ``1e400`` = inf made bots that never move: play-test pt4 item 7)
MAX_BOT_PAUSE = MAX_BOT_DELAY

#: what each of the menu's number fields takes, said when it refuses a key or holds a value
#: it cannot start a game with
NUMBER_RULES = {
    "seed": "Seed: a whole number (digits), or blank for a random seed.",
    "hands": "Hands: a whole number, 1 or more, or blank for the whole match.",
    "delay": f"Bot pause: seconds, 0 to {MAX_BOT_PAUSE:g} (such as 0.4).",
}


class NumberInput(Input):
    """A number field that says what it takes: a key it refuses (a letter in a number) posts
    :class:`NumberInput.Refused` besides the bell, where a plain :class:`Input` only rings the
    bell (often silent); its validators mark a value it cannot use (``0`` hands)."""

    class Refused(Message):
        """A key was refused: the field's value is unchanged."""

        def __init__(self, field: "NumberInput"):
            super().__init__()
            self.field = field

    def restricted(self) -> None:
        super().restricted()
        self.post_message(self.Refused(self))


class OptionCheckbox(Checkbox):
    """A checkbox whose mark shows only while it is on, so that on and off differ without
    colour too (Textual's draws an X either way)."""

    @property
    def BUTTON_INNER(self) -> str:  # noqa: N802 - Textual's class attribute, per value here
        return "X" if self.value else " "


def option_label(name: str) -> str:
    """The menu's label of named option ``name``."""
    return OPTION_LABELS.get(name) or name.replace("_", " ").capitalize()


def _switch_options() -> list[str]:
    """The named options that are on or off (a checkbox each)."""
    return [k for k in SCHEMA["options"] if option_values(k) == (False, True)]


def _choice_options() -> list[str]:
    """The named options that take one of a few strings (a select each)."""
    return [k for k in SCHEMA["options"] if option_values(k) and option_values(k) != (False, True)]


def seat_one_is_east(variant) -> bool:
    """Seat 1 (of the menu, of ``--seats``) is East of the first hand: the variant's
    ``deal.first_dealer`` is ``"random"`` (the seating is the draw).  Where it is
    ``"highest_roll"`` (Yuxi, Yangzhou) or ``"breaker"`` (Uzje) the dice choose the first
    dealer, so any seat may be East (variants/README.md; :class:`Table` rolls)."""
    return variant.deal.get("first_dealer", "random") == "random"


def seat_labels(variant) -> tuple[str, ...]:
    """The menu's labels of the four seats: ``1 East`` … where seat 1 is East of the first
    hand, else ``Seat 1`` … (:func:`seat_one_is_east`); ``variant`` None: the wind labels."""
    return SEAT_NAMES if variant is None or seat_one_is_east(variant) else SEAT_NUMBERS


def variant_rows() -> list[tuple[str, str, int]]:
    """(id, name, tile count) of every shipped variant that loads."""
    out = []
    for vid in available_variants():
        try:
            v = load_variant(vid)
        except Exception:  # a broken file must not take the menu down  # noqa: BLE001
            continue
        out.append((v.id, v.name, v.tile_count))
    return out


class VariantChoice:
    """Mixed into a screen with a variant picker (the menu, the Host form): the loadable
    variants (:func:`variant_rows`) and the one chosen at first, ``variant`` when it is among
    them, else the first (``""`` when none loads)."""

    def init_variants(self, variant: str) -> None:
        self.rows = variant_rows()
        ids = [r[0] for r in self.rows]
        self.default_variant = variant if variant in ids else (ids[0] if ids else "")

    def compose_variant_row(self) -> ComposeResult:
        """The row with the label and the ``#variant`` select (``name · N tiles``)."""
        with Horizontal(classes="menu-row"):
            yield Label("Variant", classes="menu-label")
            yield Select([(f"{name} · {n} tiles", vid) for vid, name, n in self.rows],
                         value=self.default_variant or Select.BLANK, allow_blank=False, compact=True,
                         id="variant")

    # -- the variant's named options (``[options]``) ------------------------------------------
    def compose_options(self) -> ComposeResult:
        """``#variant-options``: a checkbox for each on/off option, a select for each one-of
        option (its allowed values from the schema), each with a short label.  Every known
        option has its widget (``#opt-NAME``); :meth:`show_options` shows those the chosen
        variant declares and hides the rest (all of it for a variant without options)."""
        with Vertical(id="variant-options"):
            with Horizontal(classes="option-row", id="option-switches"):
                yield Label("Options", classes="menu-label")
                for k in _switch_options():
                    yield OptionCheckbox(option_label(k), compact=True, id=f"opt-{k}", classes="variant-option")
            with Horizontal(id="option-choices"):
                yield Label("", classes="menu-label")
                with Container(id="option-grid"):  # three a row, two where 80 columns allow no more
                    for k in _choice_options():
                        values = option_values(k)
                        with Horizontal(classes="option-choice", id=f"optbox-{k}"):
                            yield Label(option_label(k), classes="option-label")
                            yield Select([(v, v) for v in values], value=values[0], allow_blank=False, compact=True,
                                         id=f"opt-{k}", classes="variant-option")

    def chosen_variant(self):
        """The variant chosen in ``#variant`` as its file has it (None when none loads)."""
        vid = self.query_one("#variant", Select).value
        try:
            return load_variant(str(vid)) if isinstance(vid, str) else None
        except MahjongError:
            return None

    def show_options(self, values: dict | None = None) -> None:
        """Show the options of the chosen variant, each at the variant's own value, or at
        ``values[name]`` where given (e.g. what the menu had chosen); hide the others."""
        v = self.chosen_variant()
        self._options_of = v.id if v is not None else None
        declared = [k for k in (v.declared_options if v is not None else ()) if option_values(k)]
        values = values or {}
        self.query_one("#variant-options").display = bool(declared)
        self.query_one("#option-choices").display = any(k in declared for k in _choice_options())
        for k in _switch_options():
            box = self.query_one(f"#opt-{k}", Checkbox)
            box.display = k in declared
            if k in declared:
                box.value = bool(values.get(k, v.options.get(k)))
        for k in _choice_options():
            self.query_one(f"#optbox-{k}").display = k in declared
            if k in declared:
                own = v.options.get(k)
                self.query_one(f"#opt-{k}", Select).value = values.get(k, own if own in option_values(k) else
                                                                       option_values(k)[0])

    def variant_changed(self) -> None:
        """After ``#variant`` changed: show the options of the variant now chosen, at its own
        values (nothing changes when it is the one already shown: the select reports its
        first value after the screen has set the options up)."""
        v = self.chosen_variant()
        if getattr(self, "_options_of", None) != (v.id if v is not None else None):
            self.show_options()

    def chosen_options(self) -> dict:
        """The options set here that differ from the chosen variant's own values (name →
        value): what :meth:`Variant.with_options` applies and the game log records."""
        v = self.chosen_variant()
        if v is None:
            return {}
        out = {}
        for k in v.declared_options:
            if k in _switch_options():
                value = self.query_one(f"#opt-{k}", Checkbox).value
            elif k in _choice_options():
                value = self.query_one(f"#opt-{k}", Select).value
            else:
                continue
            if value != v.options.get(k) and value is not Select.BLANK:
                out[k] = value
        return out

    def variant_summary(self) -> str:
        """The chosen variant's summary, and its tile count with the options set here (or
        why they do not go together)."""
        v = self.chosen_variant()
        if v is None:
            return ""
        opts = self.chosen_options()
        if not opts:
            return v.summary
        try:
            n = load_variant(str(self.query_one("#variant", Select).value), opts).tile_count
        except MahjongError as exc:
            return f"{v.summary}\nThese options do not go together: {exc}"
        return f"{v.summary}\nWith these options: {n} tiles."


class MenuScreen(VariantChoice, BaseScreen):
    """New game (variant, seats, seed), host / join a LAN table, replay, resume, rules, quit."""

    BINDINGS = [
        Binding("ctrl+n", "new", "New game"),
        Binding("f2", "rules", "Rules"),
        Binding("f3", "settings", "Settings"),
        Binding("q", "quit", "Quit"),  # a text field with the focus takes q as a letter first
        Binding("ctrl+q", "quit", "Quit", show=False),
    ]

    def __init__(self, *, variant: str = "classic", seats: list[str] | None = None):
        super().__init__(classes="menu")
        self.init_variants(variant)
        self.default_seats = seats or ["human", "ai:normal", "ai:normal", "ai:normal"]

    def compose_body(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static("mahjong-tui  ·  a four-seat mahjong table", id="menu-title")
            yield from self.compose_variant_row()
            yield Static("", id="variant-summary")
            yield from self.compose_options()
            with Horizontal(classes="menu-row", id="seats-row"):
                yield Label("Seats", classes="menu-label")
                for i in range(4):
                    with Vertical(classes="seat-choice"):
                        yield Label(SEAT_NAMES[i], classes="seat-name", id=f"seat-name{i}")
                        value = self.default_seats[i] if self.default_seats[i] in dict((v, 1) for _, v in SEAT_CHOICES) else "ai:normal"
                        yield Select(SEAT_CHOICES, value=value, allow_blank=False, compact=True, id=f"seat{i}")
                        # a human seat's player's name (blank: the usual one, the placeholder)
                        yield Input(placeholder="name", id=f"name{i}", compact=True, max_length=NAME_CHARS,
                                    classes="seat-player")
            yield Static(DICE_NOTE, id="seat-note")  # shown where the dice choose the first dealer
            with Horizontal(classes="menu-row", id="numbers-row"):
                yield Label("Seed", classes="menu-label")
                # "number", not "integer": a "." typed in a whole-number field is kept and marks
                # the whole entry wrong ("1.5" is refused, not read as 15: play-test pt4 item 7)
                yield NumberInput(placeholder="blank = random", id="seed", compact=True, type="number",
                                  validators=[Integer()], valid_empty=True)
                yield Label("Hands", classes="menu-label2")
                yield NumberInput(placeholder="whole match", id="hands", compact=True, type="number",
                                  validators=[Integer(minimum=1)], valid_empty=True)
                yield Label("Bot pause", classes="menu-label2")
                yield NumberInput(value=self._pause_text(), id="delay", compact=True, type="number",
                                  validators=[Number(minimum=0, maximum=MAX_BOT_PAUSE)], valid_empty=True)
            yield Static("", id="number-note")  # what a number field takes, when it refused something
            with Horizontal(classes="menu-buttons"):
                yield Button("New game", id="new", variant="primary")
                yield Button("Resume", id="resume-last")  # shown when a game was left unfinished
                yield Button("Rules", id="rules")
                yield Button("Saved games", id="saved")
                yield Button("Quit", id="quit", variant="error")
            yield Static("", id="resume-note")  # which game Resume continues
            with Horizontal(classes="menu-buttons"):
                yield Button("Settings", id="settings")
                yield Button("History", id="history")  # finished matches, statistics (screens/history.py)
                yield Button("Host LAN table", id="host")
                yield Button("Join LAN table", id="join")
                yield Static("Play on this network.", id="lan-note")
            yield Static("", id="menu-error")
        yield Footer()

    def _pause_text(self) -> str:
        """The bot pause the menu starts with: the settings' (0.4 without the app's)."""
        return f"{getattr(self.app, 'bot_delay', 0.4):g}"

    def on_mount(self) -> None:
        self.show_options()
        self._show_summary()
        self._show_seat_labels()
        self._show_name_fields()
        self._show_number_note(None)
        self.query_one("#new", Button).focus()
        self._unfinished: Path | None = None
        self.query_one("#resume-last", Button).display = False
        self.query_one("#resume-note", Static).display = False
        self._look_for_unfinished()

    def on_screen_resume(self) -> None:
        self._look_for_unfinished()

    def _look_for_unfinished(self) -> None:
        """Offer "Resume" when the saves folder holds an unfinished game at one keyboard (a
        closed terminal's, or one saved to go on later): the most recent of the newest few
        files, read in a thread (each is replayed); which game it is shows under the buttons
        (and, in full, as the button's tooltip)."""
        from ..app import UIError, latest_unfinished

        folder = self.app.saves_dir()

        def look() -> None:
            try:
                path = latest_unfinished(folder, newest=8)
            except UIError:
                path, about, brief = None, "", ""
            else:
                about, brief = saved_game_summaries(path)
            try:
                self.app.call_from_thread(self._offer_resume, path, about, brief)
            except RuntimeError:  # the app closed meanwhile
                pass

        self.run_worker(look, thread=True, exclusive=True, group="unfinished")

    def _offer_resume(self, path: Path | None, about: str, brief: str) -> None:
        if not self.is_attached:
            return
        self._unfinished = path
        button = self.query_one("#resume-last", Button)
        button.display = path is not None
        button.tooltip = f"{path.name}: {about}" if path is not None else None
        note = self.query_one("#resume-note", Static)
        note.display = path is not None
        note.update(f"Resume: {brief}" if path is not None else "")

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "variant":
            self.variant_changed()
            self._show_seat_labels()
        if (event.select.id or "").startswith("seat"):
            self._show_name_fields()
        self._show_summary()

    def _show_name_fields(self) -> None:
        """A name field under each human seat (the usual name as its placeholder: You, or
        Player N where several people play); none under a bot's (its place kept)."""
        seats = [str(self.query_one(f"#seat{i}", Select).value) for i in range(4)]
        usual = default_names(seats)
        for i, seat in enumerate(seats):
            field = self.query_one(f"#name{i}", Input)
            field.visible = seat == "human"
            field.placeholder = f"name: {usual[i]}"

    def chosen_names(self) -> list[str | None]:
        """The names typed for the human seats, by seat (None: blank, or a bot's seat)."""
        out: list[str | None] = []
        for i in range(4):
            human = str(self.query_one(f"#seat{i}", Select).value) == "human"
            out.append((self.query_one(f"#name{i}", Input).value.strip() or None) if human else None)
        return out

    def _show_seat_labels(self) -> None:
        """Label the seats by wind where seat 1 is East of the first hand, else by number
        with :data:`DICE_NOTE` under them (:func:`seat_labels`)."""
        v = self.chosen_variant()
        for i, label in enumerate(seat_labels(v)):
            self.query_one(f"#seat-name{i}", Label).update(label)
        dice = v is not None and not seat_one_is_east(v)
        self.query_one("#seat-note", Static).display = dice
        self.query_one("#seats-row").set_class(dice, "-dice")  # the note takes the row's margin

    def on_number_input_refused(self, event: NumberInput.Refused) -> None:
        """A number field refused a key: say what it takes."""
        self._show_number_note(event.field.id)

    def on_input_changed(self, event: Input.Changed) -> None:
        """A number field changed: say what it takes while it holds a value it cannot use,
        clear the note once every field is right."""
        if isinstance(event.input, NumberInput):
            valid = event.validation_result is None or event.validation_result.is_valid
            self._show_number_note(None if valid else event.input.id)

    def _show_number_note(self, field: str | None) -> None:
        """Under the number fields: the rule of ``field``, else of the first field holding a
        value it cannot use, else nothing (the note hidden)."""
        if field is None:
            field = next((f.id for f in self.query(NumberInput) if not f.is_valid), None)
        note = self.query_one("#number-note", Static)
        note.update(NUMBER_RULES.get(field or "", ""))
        note.display = field is not None
        self.query_one("#numbers-row").set_class(field is not None, "-note")  # the note takes the margin

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self._show_summary()

    def _show_summary(self) -> None:
        self.query_one("#variant-summary", Static).update(self.variant_summary())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        bid = event.button.id
        if bid == "new":
            self.action_new()
        elif bid == "resume-last" and self._unfinished is not None:
            error = self.app.open_saved(self._unfinished, "resume")
            if error:
                self.query_one("#menu-error", Static).update(error)
        elif bid == "rules":
            self.action_rules()
        elif bid == "saved":
            self.app.push_screen(LoadScreen())
        elif bid == "history":
            from .history import HistoryScreen

            self.app.push_screen(HistoryScreen())
        elif bid == "host":
            from .lan import HostScreen

            vid = self.query_one("#variant", Select).value
            try:  # the menu's bot pause, when it holds one (else the form takes the settings')
                delay = float(self.query_one("#delay", Input).value.strip())
            except ValueError:
                delay = None
            if delay is not None and not 0 <= delay <= MAX_BOT_PAUSE:
                delay = None
            self.app.push_screen(HostScreen(variant=str(vid), options=self.chosen_options(), bot_delay=delay))
        elif bid == "join":
            from .lan import JoinScreen

            self.app.push_screen(JoinScreen())
        elif bid == "settings":
            self.action_settings()
        elif bid == "quit":
            self.app.exit(0)

    def action_quit(self) -> None:
        self.app.exit(0)

    def action_settings(self) -> None:
        """Open the Settings screen; what it is left with is saved and used (the bot pause
        field takes the new pause)."""
        from .settings import SettingsScreen

        self.app.push_screen(SettingsScreen(self.app.settings), self._settings_done)

    def _settings_done(self, settings: Settings | None) -> None:
        if settings is None:
            return
        problem = self.app.apply_settings(settings)
        if problem:
            self.app.notify(problem, title="Settings", severity="error", timeout=10)
        self.query_one("#delay", Input).value = self._pause_text()

    def action_rules(self) -> None:
        from .rules import RulesScreen

        vid = self.query_one("#variant", Select).value
        if isinstance(vid, str):
            self.app.push_screen(RulesScreen(vid, load_variant(vid)))

    def action_new(self) -> None:
        err = self.query_one("#menu-error", Static)
        vid = self.query_one("#variant", Select).value
        seats = [str(self.query_one(f"#seat{i}", Select).value) for i in range(4)]
        seed_text = self.query_one("#seed", Input).value.strip()
        hands_text = self.query_one("#hands", Input).value.strip()
        delay_text = self.query_one("#delay", Input).value.strip()
        bad = next((f.id for f in self.query(NumberInput) if not f.is_valid), None)
        if bad is not None:  # "1.5" hands, "1e400" s: the field's own rule
            err.update(f"Check the numbers: {NUMBER_RULES.get(bad, bad)}")
            return
        try:
            seed = int(seed_text) if seed_text else None
            hands = int(hands_text) if hands_text else None
            if hands is not None and hands < 1:
                raise ValueError("hands must be at least 1")
            delay = float(delay_text) if delay_text else self.app.settings.bot_pause
            if not 0 <= delay <= MAX_BOT_PAUSE:  # also nan and inf
                raise ValueError(NUMBER_RULES["delay"])
        except ValueError as exc:
            err.update(f"Check the numbers: {exc}")
            return
        err.update("")
        self.app.start_game(str(vid), seats, seed=seed, hands=hands, bot_delay=delay,
                            options=self.chosen_options(), names=self.chosen_names())


class LoadScreen(BaseScreen):
    """Pick a saved game (from the saves folder, or any path) to replay or resume."""

    BINDINGS = [Binding("escape", "back", "Back")]

    def compose_body(self) -> ComposeResult:
        from ..app import saved_games

        saves = self.app.saves_dir()
        files = saved_games(saves)
        self.files = files
        with Vertical(id="load"):
            yield Static(f"Saved games in {saves}", id="load-title")
            opts = [Option(p.name, id=str(i)) for i, p in enumerate(files)]
            yield OptionList(*opts, id="saves")
            yield Static("", id="load-detail")
            if not files:
                yield Static("(none yet: a game at this keyboard is kept here as it is played)", classes="dim")
            yield Label("or a file:")
            yield Input(placeholder="path to a saved game (.jsonl)", id="path")
            with Horizontal(classes="menu-buttons"):
                yield Button("Replay", id="replay", variant="primary")
                yield Button("Resume", id="resume")
                yield Button("Back", id="back")
            yield Static("", id="load-error")
        yield Footer()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is not None:
            path = self.files[int(event.option.id)]
            self.query_one("#path", Input).value = str(path)
            self.query_one("#load-detail", Static).update(saved_game_summary(path))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.query_one("#path", Input).value = str(self.files[int(event.option.id)])
            self.query_one("#replay", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "back":
            self.dismiss(None)
            return
        path = self.query_one("#path", Input).value.strip()
        if not path:
            self.query_one("#load-error", Static).update("Choose a saved game or type a path.")
            return
        error = self.app.open_saved(Path(path).expanduser(), event.button.id)
        if error:
            self.query_one("#load-error", Static).update(error)

    def action_back(self) -> None:
        self.dismiss(None)
