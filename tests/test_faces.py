"""Tile face sets (assets/faces/*.toml) and their one renderer (mahjong_tui/ui/faces.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.style import Style

from mahjong_tui import paths
from mahjong_tui.errors import MahjongError
from mahjong_tui.tiles import (
    NUM_KINDS,
    SUIT_LETTERS,
    SUIT_SIZE,
    is_suited,
    name as tile_name,
    parse_tile,
    parse_tiles,
    rank_of,
    tile,
)
from mahjong_tui.ui.faces import (
    CJK_MIN_WIDTH,
    FaceSet,
    FaceSetError,
    auto_face_set_name,
    available_face_sets,
    choose_face_set,
    load_face_set,
    locale_is_utf8,
    tile_group,
)

SHIPPED = ("ascii", "cjk", "compact", "unicode")
RANK_LIMITS = (9, 16)
UTF8 = {"LANG": "en_GB.UTF-8", "TERM": "xterm-256color"}
FACES_DIR = Path(__file__).resolve().parent.parent / "assets" / "faces"


def all_sets():
    return [(n, r) for n in SHIPPED for r in RANK_LIMITS]


@pytest.fixture(params=all_sets(), ids=lambda p: f"{p[0]}-rank{p[1]}")
def face_set(request) -> FaceSet:
    name, max_rank = request.param
    return load_face_set(name, max_rank=max_rank)


def codes_for(max_rank: int) -> list[int]:
    """Every tile code a variant with ranks up to ``max_rank`` can use."""
    return [t for t in range(NUM_KINDS) if not is_suited(t) or rank_of(t) <= max_rank]


# -- shipped sets --------------------------------------------------------------------------------


def test_shipped_sets_are_found():
    assert set(SHIPPED) <= set(available_face_sets())


def test_every_face_has_the_set_width(face_set: FaceSet):
    w = face_set.width
    assert cell_len(face_set.face_down) == w
    assert cell_len(face_set.empty) == w
    for code in codes_for(face_set.max_rank):
        assert cell_len(face_set.face(code)) == w, tile_name(code)
        rendered = face_set.render(code)
        assert rendered.cell_len == w
        for flags in ({"selected": True}, {"highlight": True}, {"dim": True}, {"face_down": True}):
            assert face_set.render(code, **flags).cell_len == w
    assert face_set.render(None).cell_len == w
    assert face_set.render(None, face_down=True).cell_len == w


def test_every_tile_code_has_a_face_in_every_set(face_set: FaceSet):
    for code in codes_for(face_set.max_rank):
        assert face_set.has_face(code), tile_name(code)
        assert face_set.face(code).strip()


def test_full_code_space_when_loaded_for_sixteen_ranks():
    for name in SHIPPED:
        fs = load_face_set(name, max_rank=16)
        assert all(fs.has_face(t) for t in range(NUM_KINDS)), name


def test_widths_chosen():
    assert load_face_set("compact").width == 2
    assert load_face_set("ascii").width == 2
    assert load_face_set("unicode").width == 2
    assert load_face_set("cjk").width == 4
    # ranks above 9 widen the two-cell sets to three cells; cjk already fits "16萬"
    assert load_face_set("compact", max_rank=16).width == 3
    assert load_face_set("ascii", max_rank=16).width == 3
    assert load_face_set("cjk", max_rank=16).width == 4


def test_cjk_faces_are_the_tile_characters():
    fs = load_face_set("cjk", max_rank=16)
    assert fs.face(parse_tile("5m")) == "五萬"
    assert fs.face(parse_tile("5t")) == "５筒"
    assert fs.face(parse_tile("E")) == "東風"
    assert fs.face(parse_tile("C")) == "紅中"
    assert fs.face(parse_tile("ft")) == "16筒"
    # every character of a cjk face is wide (2 cells) or a pair of ASCII digits
    for code in range(NUM_KINDS):
        for ch in fs.face(code).strip():
            assert cell_len(ch) == 2 or ch.isdigit() and ch.isascii(), (tile_name(code), ch)


def test_ascii_set_has_no_non_ascii_and_no_colour():
    for max_rank in RANK_LIMITS:
        fs = load_face_set("ascii", max_rank=max_rank)
        assert fs.ascii_only and not fs.colour
        texts = [fs.face(t) for t in codes_for(max_rank)] + [fs.face_down, fs.empty]
        for text in texts:
            assert text.isascii() and text.isprintable(), text
        for code in codes_for(max_rank):
            for flags in ({}, {"selected": True}, {"highlight": True}, {"dim": True}, {"face_down": True}):
                style = fs.render(code, **flags).style
                assert isinstance(style, Style)
                assert style.color is None and style.bgcolor is None
        row = fs.render_row(codes_for(max_rank), selected={0}, highlight={1}, dim={2})
        for span in row.spans:
            assert Style.parse(str(span.style)).color is None


def test_suits_distinguishable_without_colour(face_set: FaceSet):
    plain = {s: face_set.face(tile(s, 5)) for s in SUIT_LETTERS}
    assert len(set(plain.values())) == 3, plain
    # every face of the set differs as plain text: colour is only ever a second cue
    faces = [face_set.face(t) for t in codes_for(face_set.max_rank)]
    assert len(set(faces)) == len(faces)
    assert face_set.face_down not in faces and face_set.empty not in faces
    assert face_set.face_down != face_set.empty


def test_honours_and_dragons_distinguishable_without_colour(face_set: FaceSet):
    group = [parse_tile(c) for c in "ESWNCFPZHV"] + parse_tiles("hijkopqruvwy")
    assert len({face_set.face(t) for t in group}) == len(group)
    # red dragon and the characters suit share a colour in the colour sets: letters differ
    assert face_set.face(parse_tile("C")) != face_set.face(parse_tile("1m"))


def test_ranks_above_nine_are_legible():
    for name in SHIPPED:
        fs = load_face_set(name, max_rank=16)
        for suit in SUIT_LETTERS:
            faces = [fs.face(tile(suit, r)) for r in range(10, SUIT_SIZE)]
            assert len(set(faces)) == len(faces), (name, faces)
            for r, face in zip(range(10, SUIT_SIZE), faces):
                # the decimal number is written out: no x/a-f codes to decode
                assert str(r) in face, (name, face)


def test_rank_above_nine_needs_the_wide_load():
    fs = load_face_set("compact", max_rank=9)
    assert not fs.has_face(parse_tile("ft"))
    with pytest.raises(FaceSetError, match="max_rank=16"):
        fs.render(parse_tile("ft"))


def test_colour_sets_colour_by_suit():
    fs = load_face_set("compact")
    colours = {s: Style.parse(fs.tile_style(tile(s, 5))).color for s in SUIT_LETTERS}
    assert None not in colours.values() and len(set(colours.values())) == 3


def test_tile_groups():
    assert tile_group(parse_tile("5t")) == "t"
    assert tile_group(parse_tile("0s")) == "s"
    assert tile_group(parse_tile("fm")) == "m"
    assert tile_group(parse_tile("Z")) == "zero"
    assert tile_group(parse_tile("H")) == "wind"
    assert [tile_group(parse_tile(c)) for c in "CFP"] == ["red", "green", "white"]
    assert [tile_group(parse_tile(c)) for c in "hou"] == ["season", "flower", "animal"]


# -- the renderer ----------------------------------------------------------------------------------


def test_render_states():
    fs = load_face_set("compact")
    five = parse_tile("5t")
    plain = fs.render(five)
    assert plain.plain == "5t" and plain.no_wrap
    assert fs.render(five, selected=True).style.reverse
    assert fs.render(five, highlight=True).style.underline
    assert fs.render(five, dim=True).style.dim
    assert fs.render(five, face_down=True).plain == fs.face_down
    assert fs.render(None).plain == fs.empty
    assert fs.render(None, face_down=True).plain == fs.face_down


def test_render_row_layout():
    fs = load_face_set("compact")
    tiles = parse_tiles("123m") + [None]
    row = fs.render_row(tiles, gap=1, selected={1})
    assert row.plain == "1m 2m 3m " + fs.empty
    assert row.cell_len == fs.row_width(len(tiles)) == 4 * 2 + 3
    assert fs.render_row([], gap=1).plain == "" and fs.row_width(0) == 0
    assert fs.render_row(tiles, gap=0).cell_len == fs.row_width(4, gap=0) == 8
    kong = fs.render_row([parse_tile("C")] * 4, face_down={0, 3})
    assert kong.plain == f"{fs.face_down} C  C  {fs.face_down}"
    hidden = fs.render_row([None] * 13, face_down=True)
    assert hidden.plain == " ".join([fs.face_down] * 13)
    with pytest.raises(ValueError):
        fs.render_row(tiles, gap=-1)


def test_whole_hand_fits_eighty_columns_in_compact():
    # 14 tiles + 4 kongs' fourth tiles, with a gap between melds: fits with room to spare
    fs = load_face_set("compact")
    assert fs.row_width(18) + 4 < 80
    assert load_face_set("compact", max_rank=16).row_width(18) + 4 < 80


def test_face_set_is_frozen_and_hashable():
    fs = load_face_set("compact")
    with pytest.raises(Exception):
        fs.width = 3  # type: ignore[misc]
    assert hash(fs) == hash(load_face_set("compact"))


# -- broken files ------------------------------------------------------------------------------------


def broken(tmp_path: Path, old: str, new: str, source: str = "compact.toml") -> Path:
    text = (FACES_DIR / source).read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "broken.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "key", "source"),
    [
        ('"4t", "5t"', '"4t", "5t "', "numbers.t[5]", "compact.toml"),
        ('"4t", "5t"', '"4t", "五t"', "numbers.t[5]", "compact.toml"),
        ('E = "E "\n', "", "honours.E", "compact.toml"),
        ('t = "bold bright_blue"', 't = "bold blu"', "styles.t", "compact.toml"),
        ('t = ""', 't = "blue"', "styles.t", "ascii.toml"),
        ('face_down = "##"', 'face_down = "▒▒"', "face_down", "ascii.toml"),
        ('"4s", "5s"', '"4s", "5t"', "numbers.s[5]", "compact.toml"),
        ('h = "Sp"', 'h = "S "', "honours.S", "compact.toml"),
        ("width = 2", 'width = "two"', "width", "compact.toml"),
        ("\n[bonus]\n", "\n[bonus]\nx = \"xx\"\n", "bonus.x", "compact.toml"),
        ('s = ["10s", "11s", "12s", "13s", "14s", "15s", "16s"]', "", "wide.numbers.s", "compact.toml"),
        ('"16m"]', '"16 m"]', "wide.numbers.m[6] (rank 16)", "compact.toml"),
        ('t = ["０筒"', 't = ["〇萬"', "numbers.m[0]", "cjk.toml"),
        ("width = 3", "width = 2", "wide.width", "compact.toml"),
        ('pad = "left"', 'pad = "middle"', "wide.pad", "compact.toml"),
        ("\n[styles]\n", "\n[stiles]\n[styles]\n", "stiles", "compact.toml"),
    ],
)
def test_broken_file_error_names_file_and_key(tmp_path, old, new, key, source):
    path = broken(tmp_path, old, new, source)
    with pytest.raises(FaceSetError) as info:
        load_face_set(path)
    message = str(info.value)
    assert str(path) in message
    assert repr(key) in message, message
    assert isinstance(info.value, MahjongError)


def test_duplicate_face_error_names_both_tiles(tmp_path):
    path = broken(tmp_path, '"4s", "5s"', '"4s", "5t"')
    message = str(pytest.raises(FaceSetError, load_face_set, path).value)
    assert "numbers.t[5]" in message and "colour is never the only cue" in message


def test_invalid_toml_names_the_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\nwidth = \n', encoding="utf-8")
    message = str(pytest.raises(FaceSetError, load_face_set, path).value)
    assert str(path) in message and "not valid TOML" in message and "line 2" in message


def test_missing_and_unknown_sets():
    with pytest.raises(FaceSetError, match="unknown face set 'fancy'.*compact"):
        load_face_set("fancy")
    with pytest.raises(FaceSetError, match="does not exist"):
        load_face_set("/nonexistent/faces.toml")


def test_a_user_file_loads(tmp_path):
    path = tmp_path / "mine.toml"
    shutil.copy(FACES_DIR / "ascii.toml", path)
    fs = choose_face_set(str(path), 80, False, UTF8)
    assert fs.name == "ascii" and fs.path == str(path)


# -- automatic choice --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "utf8"),
    [
        ({"LANG": "en_US.UTF-8"}, True),
        ({"LANG": "de_DE.utf8"}, True),
        ({"LANG": "C"}, False),
        ({"LANG": "en_US.ISO-8859-1"}, False),
        ({}, False),
        ({"LANG": ""}, False),
        ({"LC_ALL": "C", "LANG": "en_US.UTF-8"}, False),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "C"}, True),
        ({"LC_CTYPE": "en_US.UTF-8", "LANG": "C"}, True),
        ({"LC_CTYPE": "POSIX", "LANG": "en_US.UTF-8"}, False),
        ({"LC_ALL": "", "LC_CTYPE": "", "LANG": "fr_FR.UTF-8@euro"}, True),
        # CPython coerced LANG=C by exporting LC_CTYPE=C.UTF-8 (PEP 538): the user said C
        ({"LC_CTYPE": "C.UTF-8", "LANG": "C"}, False),
        ({"LC_CTYPE": "C.UTF-8"}, True),
    ],
)
def test_locale_detection(env, utf8):
    assert locale_is_utf8(env) is utf8


def test_auto_choice_rules():
    assert auto_face_set_name(80, env=UTF8) == "compact"
    assert auto_face_set_name(CJK_MIN_WIDTH - 1, env=UTF8) == "compact"
    assert auto_face_set_name(CJK_MIN_WIDTH, env=UTF8) == "cjk"
    assert auto_face_set_name(250, env=UTF8) == "cjk"
    assert auto_face_set_name(250, env={"LANG": "C"}) == "ascii"
    assert auto_face_set_name(80, env={}) == "ascii"
    assert auto_face_set_name(250, ascii=True, env=UTF8) == "ascii"
    # the Linux console has no CJK glyphs
    assert auto_face_set_name(250, env={**UTF8, "TERM": "linux"}) == "compact"
    # the Unicode tile block is never chosen automatically
    assert all(auto_face_set_name(w, env=UTF8) != "unicode" for w in range(40, 400, 7))


def test_choose_face_set():
    assert choose_face_set(None, 80, False, UTF8).name == "compact"
    assert choose_face_set("auto", 200, False, UTF8).name == "cjk"
    assert choose_face_set("", 80, False, {"LANG": "C"}).name == "ascii"
    assert choose_face_set(None, 80, True, UTF8).name == "ascii"
    # an explicit request is honoured whatever the width and locale...
    assert choose_face_set("unicode", 80, False, UTF8).name == "unicode"
    assert choose_face_set("cjk", 60, False, {"LANG": "C"}).name == "cjk"
    # ...except against --ascii, which states what the terminal can show
    assert choose_face_set("cjk", 200, True, UTF8).name == "ascii"
    wide = choose_face_set(None, 80, False, UTF8, max_rank=16)
    assert wide.width == 3 and wide.has_face(parse_tile("fs"))
    with pytest.raises(FaceSetError):
        choose_face_set("nope", 80, False, UTF8)


# -- data locations --------------------------------------------------------------------------------


def test_data_dir_source_checkout():
    root = Path(paths.__file__).resolve().parent.parent
    if not (Path(paths.__file__).resolve().parent / "_data").is_dir():
        assert paths.data_dir("assets") == root / "assets"
        assert paths.data_dir("variants") == root / "variants"
    assert (paths.data_dir("assets") / "faces" / "compact.toml").is_file()
    with pytest.raises(ValueError):
        paths.data_dir("secrets")


def test_data_dir_prefers_installed_wheel_layout(tmp_path, monkeypatch):
    package = tmp_path / "site-packages" / "mahjong_tui"
    faces = package / "_data" / "assets" / "faces"
    faces.mkdir(parents=True)
    shutil.copy(FACES_DIR / "ascii.toml", faces / "ascii.toml")
    monkeypatch.setattr(paths, "_PACKAGE_DIR", package)
    assert paths.data_dir("assets") == package / "_data" / "assets"
    assert available_face_sets() == ["ascii"]
    assert load_face_set("ascii").path == str(faces / "ascii.toml")
    # no _data/variants in this fake wheel: falls back to the folder beside the package
    assert paths.data_dir("variants") == tmp_path / "site-packages" / "variants"


# -- boxed sets (large, large-ascii) ------------------------------------------------------------------

from mahjong_tui.tiles import NUM_KINDS as _ALL  # noqa: E402
from mahjong_tui.ui.faces import (  # noqa: E402
    BOX_ROWS,
    BoxFaceSet,
    auto_box_set_name,
    choose_faces,
    is_box_set,
    load_box_set,
)

BOXED = ("large", "large-ascii")


@pytest.fixture(params=BOXED)
def box_set(request) -> BoxFaceSet:
    return load_box_set(request.param)


def test_boxed_sets_are_shipped_and_told_apart_from_one_line_sets():
    assert set(BOXED) <= set(available_face_sets())
    assert all(is_box_set(n) for n in BOXED) and not any(is_box_set(n) for n in SHIPPED)
    with pytest.raises(FaceSetError, match="boxed set"):
        load_face_set("large")
    with pytest.raises(FaceSetError, match="'kind'"):
        load_box_set("compact")


def test_every_boxed_tile_is_width_by_three_lines_and_closes(box_set: BoxFaceSet):
    for code in range(_ALL):
        lines = box_set.tile(code)
        assert len(lines) == BOX_ROWS
        assert all(cell_len(ln.plain) == box_set.width for ln in lines), (tile_name(code), [ln.plain for ln in lines])
        assert cell_len(box_set.bottom(code).plain) == box_set.width
    for flags in ({"face_down": True}, {"selected": True}, {"highlight": True}, {"claimed_from": "W"}):
        assert all(cell_len(ln.plain) == box_set.width for ln in box_set.tile(parse_tile("5m"), **flags))


def test_boxed_tiles_differ_by_their_characters(box_set: BoxFaceSet):
    seen = {}
    for code in range(_ALL):
        text = "\n".join(box_set.face_lines(code))
        assert text not in seen, (tile_name(code), seen.get(text))
        seen[text] = tile_name(code)


def test_boxed_faces_are_legible():
    large, ascii_ = load_box_set("large"), load_box_set("large-ascii")
    assert large.face_lines(parse_tile("5m")) == ("五", "萬")
    assert large.face_lines(parse_tile("E")) == ("東", "風")
    assert large.face_lines(parse_tile("C")) == ("紅", "中")
    assert large.face_lines(tile("s", 16)) == ("16", "索")  # Uzje rank 16 of socks
    assert ascii_.face_lines(parse_tile("5t")) == (" 5 ", "dot")
    assert ascii_.face_lines(tile("m", 12)) == ("12 ", "crk")
    assert ascii_.face_lines(parse_tile("h")) == ("Spr", " 1 ")
    assert ascii_.face_lines(parse_tile("F")) == (" F ", "grn")


def test_large_ascii_is_ascii_without_colour():
    b = load_box_set("large-ascii")
    assert b.ascii_only and not b.colour and b.small == "ascii"
    for code in range(_ALL):
        for flags in ({}, {"selected": True}, {"highlight": True}, {"claimed_from": "N"}, {"match": True}):
            for ln in b.tile(code, **flags) + [b.bottom(code)]:
                assert ln.plain.isascii()
                for span in ln.spans:
                    style = Style.parse(span.style) if isinstance(span.style, str) else span.style
                    assert style.color is None and style.bgcolor is None


def test_states_stand_out_without_colour(box_set: BoxFaceSet):
    t = parse_tile("5m")
    plain = [ln.plain for ln in box_set.tile(t)]
    for flags in ({"selected": True}, {"highlight": True}, {"claimed_from": "W"}):
        other = [ln.plain for ln in box_set.tile(t, **flags)]
        assert other[0] != plain[0] and other[1][0] != plain[1][0] or "W" in other[0], (flags, other)
    assert "W" in box_set.tile(t, claimed_from="W")[0].plain


def test_choose_faces():
    auto = choose_faces(None, 80, False, UTF8)
    assert (auto.small.name, auto.large.name, auto.forced) == ("compact", "large", False)
    wide = choose_faces("auto", 200, False, UTF8)
    assert (wide.small.name, wide.large.name) == ("cjk", "large")
    plain = choose_faces(None, 200, False, {"LANG": "C"})
    assert (plain.small.name, plain.large.name) == ("ascii", "large-ascii")
    assert choose_faces(None, 200, True, UTF8).large.name == "large-ascii"
    forced = choose_faces("large", 80, False, UTF8)
    assert (forced.small.name, forced.large.name, forced.forced) == ("compact", "large", True)
    assert choose_faces("large", 80, True, UTF8).large.name == "large-ascii"
    one_line = choose_faces("cjk", 200, False, UTF8)
    assert (one_line.small.name, one_line.large) == ("cjk", None)
    assert auto_box_set_name("compact", {**UTF8, "TERM": "linux"}) == "large-ascii"
    uzje = choose_faces("large", 80, False, UTF8, max_rank=16)
    assert uzje.small.width == 3 and uzje.large.width == 4


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('m = ["〇", "一"', 'm = ["〇〇〇", "一"', "numbers.m[0]"),
        ('E = ["東", "風"]', 'E = ["東"]', "honours.E"),
        ('plain = "┌─┐│└┘"', 'plain = "┌─┐│└"', "borders.plain"),
        ('S = ["南", "風"]', 'S = ["東", "風"]', "honours.S"),
        ('small = "compact"', 'small = "large"', "small"),
        ('t = "筒"', 't = "萬萬"', "suits.t"),
    ],
)
def test_broken_boxed_file_error_names_file_and_key(tmp_path, old, new, key):
    path = broken(tmp_path, old, new, "large.toml")
    with pytest.raises(FaceSetError) as info:
        load_box_set(path)
    assert str(path) in str(info.value) and repr(key) in str(info.value), str(info.value)
