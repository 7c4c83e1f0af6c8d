"""The README is a front page: short, with every reference page one link away, and no link broken."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"

# Two screens of a terminal or a rendered page.
FRONT_PAGE_LINES = 110


def links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # links in code blocks are examples
    return re.findall(r"\]\(([^)\s]+)\)", text)


def local_target(page: Path, link: str) -> Path | None:
    if re.match(r"[a-z]+:", link) or link.startswith("#"):
        return None
    return (page.parent / link.split("#", 1)[0]).resolve()


def test_readme_fits_on_two_screens():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= FRONT_PAGE_LINES


def test_readme_keeps_the_two_commands():
    readme = README.read_text(encoding="utf-8")
    assert "pip install . && vllm-lint check testdata/examples" in readme
    assert "pip install -e '.[test]' && pytest" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "-e '.[test]'" in ci and "-m pytest" in ci


def test_every_reference_page_is_reachable_from_the_readme():
    reached = {local_target(README, link) for link in links(README)} - {None}
    pages = {page.resolve() for page in DOCS.glob("*.md")} | {(DOCS / "frameworks" / "README.md").resolve()}
    assert sorted(str(p.relative_to(ROOT)) for p in pages - reached) == []


def test_no_local_link_is_broken():
    pages = [README, *DOCS.rglob("*.md")]
    broken = []
    for page in pages:
        for link in links(page):
            target = local_target(page, link)
            if target is not None and not target.exists():
                broken.append(f"{page.relative_to(ROOT)}: {link}")
            anchor = link.split("#", 1)[1] if "#" in link else None
            if anchor and target is not None and target.suffix == ".md" and target.exists():
                if anchor not in anchors(target):
                    broken.append(f"{page.relative_to(ROOT)}: {link}")
    assert broken == []


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings (and explicit ids)."""
    found = set(re.findall(r'id="([^"]+)"', page.read_text(encoding="utf-8")))
    for heading in re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found
