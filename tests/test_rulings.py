"""Every ruling cited in the repository (T1…, B1…, C1…) has its entry in docs/rulings.md: the question,
the decision and what it rests on, so a citation can be followed from a clone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULINGS = ROOT / "docs" / "rulings.md"
CITATION = re.compile(r"\b([TBC][1-9][0-9]?)\b")
ENTRY = re.compile(r"^### ([TBC][1-9][0-9]?) \S.*$", re.MULTILINE)
TEXT = {".py", ".md", ".kv", ".json", ".po", ".txt", ".toml", ".cfg", ".sh", ".service"}
SKIPPED = {".git", ".venv", "__pycache__", "node_modules", ".mypy_cache", ".pytest_cache", ".hypothesis"}


def sources() -> list[Path]:
    """The project's text files: code, data, texts and docs."""
    return sorted(p for p in ROOT.rglob("*") if p.suffix in TEXT and p.is_file()
                  and not SKIPPED.intersection(p.relative_to(ROOT).parts))


def cited() -> dict[str, list[str]]:
    """Each ruling cited, with the files citing it."""
    found: dict[str, list[str]] = {}
    for path in sources():
        if path == RULINGS:
            continue
        for ruling in set(CITATION.findall(path.read_text(encoding="utf-8", errors="replace"))):
            found.setdefault(ruling, []).append(path.relative_to(ROOT).as_posix())
    return found


def entries() -> dict[str, str]:
    """Each entry of docs/rulings.md by its number: its text up to the next heading."""
    text = RULINGS.read_text(encoding="utf-8")
    heads = list(ENTRY.finditer(text))
    ends = [h.start() for h in heads[1:]] + [len(text)]
    return {head.group(1): text[head.end():end] for head, end in zip(heads, ends)}


def test_every_cited_ruling_has_its_entry():
    written = entries()
    missing = {ruling: files[:3] for ruling, files in cited().items() if ruling not in written}
    assert not missing, f"rulings cited without an entry in docs/rulings.md: {missing}"


def test_every_entry_says_the_question_the_decision_and_what_it_rests_on():
    for ruling, text in entries().items():
        for part in ("**Question:**", "**Decision:**", "**Rests on:**"):
            assert part in text, f"{ruling} in docs/rulings.md says no {part}"


def test_the_entries_are_the_rulings_the_code_cites():
    """Each game's rulings run 1, 2, 3… without a gap, and each is cited somewhere: none is dead text."""
    written = entries()
    for game in "TBC":
        numbers = sorted(int(r[1:]) for r in written if r[0] == game)
        assert numbers == list(range(1, len(numbers) + 1)), f"{game} rulings: {numbers}"
    assert set(written) <= set(cited()), f"entries nothing cites: {set(written) - set(cited())}"


def test_a_citation_is_told_from_other_words():
    assert CITATION.findall("the casino (T9, §7.3); redo (C4); B18's option; not T0, TB9 or C44x") == ["T9", "C4", "B18"]
