"""The repository stands alone: every document its code, tests and docs cite is in it.

A rule citation names a page and a section heading of it (``yuxi.md "Settlement"``; the pages
are ``assets/rules/*.md``, ``mahjong_tui/CLI.md``, ``mahjong_tui/DESIGN.md`` and
``mahjong_tui/net/PROTOCOL.md``), or a gap id such as ``G-YX-3`` that a rules page carries, or
a seed by its name ("seed 003").  The form is described in ``mahjong_tui/DESIGN.md``
("Citations").  These tests read every tracked text file (``git ls-files``).
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "assets" / "rules"

#: documents that live elsewhere and that nothing in the repository may send a reader to
#: (spelled in pieces so that this file does not name them itself)
FOREIGN = ("GA" + "PS", "shared" + "/", "design" + ".md", "spec/" + "cli.md")

#: the source keys of that outside document's bibliography (``[HARR]``): a reader here cannot look them up
FOREIGN_KEYS = re.compile(r"\[(MP-YX|MP-YZ|S2|S3|W-SG|BP|SGM|MS|MS-SET|MS-GP|JAG|BLOG|BLOG-AN|BLOG-PH|TGM|7B"
                          r"|4W-LIM|4W-PAY|4W-CMP|MR-LIM|HARR|JD-EU|MW-DW|SEED)\]")

#: the package's own documents, cited by their file name
PACKAGE_DOCS = {"CLI": ROOT / "mahjong_tui" / "CLI.md", "DESIGN": ROOT / "mahjong_tui" / "DESIGN.md",
                "PROTOCOL": ROOT / "mahjong_tui" / "net" / "PROTOCOL.md"}

#: gap-id prefix -> the rules page that lists those ids
GAP_PAGES = {"YX": "yuxi", "SG": "singapore", "UZ": "uzje", "OX": "classic", "YZ": "yangzhou"}

CITATION = re.compile(r'(?<![\w/])([A-Za-z]+)\.md((?:,? "[^"\n]+")*)')
PATH = re.compile(r"(?<![\w/])(?!mahjong_tui/_data/)((?:assets/rules|variants|mahjong_tui)/[\w./-]+\.(?:md|toml))")
GAP_ID = re.compile(r"\bG-([A-Z]{2})-(\d+)\b")


@cache
def tracked_texts() -> dict[str, str]:
    """Tracked file path -> its text, for every tracked file that is text (UTF-8, no NUL)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout (an unpacked sdist): no list of tracked files")
    texts = {}
    for name in out.decode().split("\0"):
        p = ROOT / name
        if not name or not p.is_file():
            continue
        data = p.read_bytes()
        if b"\0" in data:
            continue
        try:
            texts[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return texts


def _headings(path: Path) -> set[str]:
    """The section names of a markdown page: each heading's text without backticks, and the
    part before a colon ("Scoring: points, then doublings" answers to "Scoring")."""
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"#+\s+(.*?)\s*$", line)
        if m:
            h = m.group(1).replace("`", "")
            names.add(h)
            names.add(h.split(":")[0].strip())
    return names


@cache
def headings(page: str) -> set[str] | None:
    """Section names of a cited page (``yuxi``, ``CLI`` …), or None if there is no such page."""
    p = PACKAGE_DOCS.get(page, RULES / f"{page}.md")
    return _headings(p) if p.is_file() else None


def citations():
    """``(file, line number, page, [sections])`` of every page citation in tracked text files."""
    for name, text in tracked_texts().items():
        if name == "tests/test_standalone.py":
            continue
        for i, line in enumerate(text.splitlines(), 1):
            for m in CITATION.finditer(line):
                yield name, i, m.group(1), re.findall(r'"([^"\n]+)"', m.group(2))


def test_nothing_points_outside_the_repository():
    """No tracked text file sends its reader to a document the repository does not hold."""
    bad = [f"{name}:{i}: {line.strip()[:100]}"
           for name, text in tracked_texts().items() if name != "tests/test_standalone.py"
           for i, line in enumerate(text.splitlines(), 1)
           if any(word in line for word in FOREIGN) or FOREIGN_KEYS.search(line)]
    assert not bad, "citations of documents outside the repository:\n" + "\n".join(bad)


def test_every_cited_page_and_section_exists():
    """``page.md "Section"``: the page is a rules page or a package document, and it has a
    heading of that name."""
    other_docs = {Path(n).name for n in tracked_texts() if n.endswith(".md")}
    bad = []
    for name, i, page, sections in citations():
        hs = headings(page)
        if hs is None:
            if f"{page}.md" not in other_docs:  # another tracked page (README.md …): not a rule source
                bad.append(f"{name}:{i}: no page {page}.md")
            continue
        bad += [f'{name}:{i}: {page}.md has no section "{s}"' for s in sections if s not in hs]
    assert not bad, "\n".join(bad)


def test_every_cited_path_exists():
    """Every path into ``assets/rules/``, ``variants/`` or ``mahjong_tui/`` named anywhere exists."""
    bad = [f"{name}:{i}: {m}"
           for name, text in tracked_texts().items()
           for i, line in enumerate(text.splitlines(), 1)
           for m in PATH.findall(line)
           if not (ROOT / m).exists()]
    assert not bad, "\n".join(bad)


def test_every_gap_id_is_on_its_rules_page():
    """A gap id (``G-YX-3``) names a choice its variant's rules page explains."""
    pages = {k: (RULES / f"{v}.md").read_text(encoding="utf-8") for k, v in GAP_PAGES.items()}
    bad = []
    for name, text in tracked_texts().items():
        for i, line in enumerate(text.splitlines(), 1):
            for prefix, n in GAP_ID.findall(line):
                if prefix not in pages:
                    bad.append(f"{name}:{i}: G-{prefix}-{n}: no rules page has {prefix} gap ids")
                elif not re.search(rf"\bG-{prefix}-{n}\b", pages[prefix]):
                    bad.append(f"{name}:{i}: G-{prefix}-{n} is not on {GAP_PAGES[prefix]}.md")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("doc", sorted(PACKAGE_DOCS))
def test_package_documents_exist(doc):
    """The README's pointers: the command-line reference, the design notes, the protocol."""
    assert PACKAGE_DOCS[doc].is_file()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert PACKAGE_DOCS[doc].relative_to(ROOT).as_posix() in readme


def test_the_command_line_reference_names_every_command_and_option():
    """``mahjong_tui/CLI.md`` keeps up with the parser: every command and every option string
    (``--seat-wind``, ``--liable`` …) of ``mahjong-tui`` is named in it, as is every
    ``--situation`` name."""
    import argparse

    from mahjong_tui.cli import build_parser

    text = PACKAGE_DOCS["CLI"].read_text(encoding="utf-8")
    missing = []

    def walk(parser: argparse.ArgumentParser, where: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    if f"`{name}" not in text:
                        missing.append(f"command {name}")
                    walk(sub, name)
            elif action.option_strings:
                missing.extend(f"{where} {o}" for o in action.option_strings
                               if o not in ("-h", "--help") and o not in text)
            if action.dest == "situation":
                missing.extend(f"situation {c}" for c in action.choices if f"`{c}`" not in text)

    walk(build_parser(), "mahjong-tui")
    assert not missing, "not in mahjong_tui/CLI.md: " + ", ".join(missing)
