"""The documentation holds together (issue 32, problem 10): the README stays an overview with
the two commands (`make test` is exactly what CI's `.ci/run` runs), every relative link and
anchor in the README and `docs/` leads somewhere, and the hosting guide's three languages
keep the same steps."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)\s]+)\)|src=\"([^\"]+)\"")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def pages() -> list[Path]:
    return [ROOT / "README.md", ROOT / "deploy" / "README.md",
            *sorted((ROOT / "docs").rglob("*.md"))]


def test_the_readme_is_an_overview_with_the_two_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200  # the engineering notes live in docs/
    assert "make demo " in readme and "make test " in readme
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().endswith("make test")
    for page in ("hosting", "architecture", "testing", "performance", "extending", "settings"):
        assert f"docs/{page}.md" in readme


def test_every_relative_link_and_anchor_leads_somewhere():
    broken = []
    for page in pages():
        for match in LINK.finditer(page.read_text(encoding="utf-8")):
            link = match.group(1) or match.group(2)
            if link.startswith(("http://", "https://", "mailto:")):
                continue
            path, _, anchor = link.partition("#")
            target = (page.parent / path).resolve() if path else page
            if not target.exists():
                broken.append(f"{page.relative_to(ROOT)}: {link}")
            elif anchor and target.suffix == ".md":
                headings = re.findall(r"^#+ (.*)$", target.read_text(encoding="utf-8"), re.M)
                if anchor not in {slug(h) for h in headings}:
                    broken.append(f"{page.relative_to(ROOT)}: {link} (no such heading)")
    assert not broken, "\n".join(broken)


def shape(path: Path) -> list[str]:
    """A guide's outline: its headings' levels and each list's numbered steps."""
    outline = []
    for line in path.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^(#+) ", line)
        step = re.match(r"^(\d+)\. ", line)
        if heading:
            outline.append(heading.group(1))
        elif step:
            outline.append(step.group(1))
    return outline


def test_the_hosting_guide_has_the_same_steps_in_every_language():
    english = shape(ROOT / "docs" / "hosting.md")
    assert english.count("#") == 1 and len(english) > 20
    for lang in ("de", "ru"):
        assert shape(ROOT / "docs" / lang / "hosting.md") == english, lang
