"""Every rule citation points at a numbered section of docs/rules.md that exists.

Code, tests and pages cite the rules as ``docs/rules.md §N`` (or ``§N.M``, or several:
``docs/rules.md §3, §6``). The page's sections follow the numbering of the project's binding
rules file, which lies outside the repository: a citation of that file by name would lead a
reader nowhere, so none is allowed.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_PAGE = ROOT / "docs" / "rules.md"
SCANNED = [ROOT / d for d in ("src", "tests", "docs", "examples", "tools")] + [
    ROOT / "README.md",
    ROOT / "CHANGELOG.md",
]
TEXT_SUFFIXES = {".py", ".md", ".txt", ".toml", ".cfg", ".js", ".ts", ".html", ".css", ".yml"}
SKIPPED_DIRS = {"__pycache__", "node_modules"}

SECTION = r"§\d+(?:\.\d+)*"
#: ``rules.md`` followed by one section or a list or range of them.
CITATION = re.compile(rf"rules\.md\s*({SECTION}(?:\s*(?:,|and|or|to|-|–)\s*{SECTION})*)")
#: The binding file's own name, spelled in capitals: the project has no such file.
MISSING_FILE = re.compile(r"\bRULES\.md\b")
HEADING = re.compile(r"^#{2,6}\s+(\d+(?:\.\d+)*)\.?\s", flags=re.M)


def sections() -> list[str]:
    """The section numbers of docs/rules.md, in page order (``3``, ``3.1``, ...)."""
    return HEADING.findall(RULES_PAGE.read_text(encoding="utf-8"))


def scanned_files() -> list[Path]:
    found: list[Path] = []
    for top in SCANNED:
        paths = [top] if top.is_file() else sorted(top.rglob("*")) if top.is_dir() else []
        found += [
            p for p in paths if p.is_file() and p.suffix in TEXT_SUFFIXES and not SKIPPED_DIRS & set(p.parts)
        ]
    return found


def line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def citations() -> list[tuple[str, int, str]]:
    """Each cited section as (file, line, number)."""
    out = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in CITATION.finditer(text):
            for number in re.findall(r"§(\d+(?:\.\d+)*)", match.group(1)):
                out.append((str(path.relative_to(ROOT)), line_of(text, match.start()), number))
    return out


def test_the_sections_are_numbered_as_the_binding_rules_file() -> None:
    numbers = sections()
    top = [n for n in numbers if "." not in n]
    assert top == [str(i) for i in range(1, 12)], top
    for number in numbers:
        if "." in number:
            parent = number.rsplit(".", 1)[0]
            assert parent in numbers, f"§{number} has no §{parent} above it"
            before = numbers[: numbers.index(number)]
            assert parent in before, f"§{number} comes before §{parent}"
    assert len(set(numbers)) == len(numbers), "a section number is used twice"


def test_every_rule_citation_names_a_section_of_the_rules_page() -> None:
    known = set(sections())
    found = citations()
    assert len(found) > 40, "the scan found too few citations: is the pattern still right?"
    broken = [f"{path}:{line}: §{number}" for path, line, number in found if number not in known]
    assert not broken, "citations of sections docs/rules.md does not have:\n" + "\n".join(broken)


def test_nothing_cites_a_rules_file_the_project_does_not_contain() -> None:
    named = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        named += [f"{path.relative_to(ROOT)}:{line_of(text, m.start())}" for m in MISSING_FILE.finditer(text)]
    advice = "cite docs/rules.md §N, not the binding file outside the project:\n"
    assert not named, advice + "\n".join(named)
