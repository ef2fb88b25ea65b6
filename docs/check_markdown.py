#!/usr/bin/env python3
"""Check that the tutorial's pages render on GitHub as they read (ctest: docs.markdown_renders).

A number quoted in a sentence sits between two inline markers, `<!-- value ... -->43.4%<!--
/value -->` (plots/tables.py writes it). In the middle of a line that is inline HTML and the
sentence renders as written. At the start of a line it is not: CommonMark (and GitHub's
renderer) reads a line that begins with `<!--` as the start of a raw HTML block, which ends
the paragraph above it, and Markdown inside the block (backticks, **bold**) then shows
literally. So each page of docs/pages.txt is parsed with markdown-it-py's "gfm-like" preset
(CommonMark's rules for HTML blocks, GitHub's tables and strikethrough) and it fails on

- a paragraph split by a marker: an HTML block that holds `<!-- value`;
- Markdown left as text: `**` or a backtick in the rendered text outside code;
- an escape left by a script's text substitution: a backslash then `n` or a digit (`\\n`,
  `\\1`) in the rendered text outside code;
- any line (outside code blocks) that begins with `<!-- value`, after its indentation (a
  list item's lines are indented);
- a paragraph (a list item's included; a table's cells are not paragraphs) that holds more
  than two generated values: a reader follows two numbers in a paragraph; a list of numbers
  goes in a table.

Each problem is named by file and line. The fix is a reflow: move a word or two of the line
above onto the marker's line.

    python3 docs/check_markdown.py                 the pages of docs/pages.txt
    python3 docs/check_markdown.py FILE.md ...     these files

Exit 0: no problem; 1: problems (listed); 77 (ctest: skipped): markdown-it-py is not
installed (pip install -r plots/requirements.txt) and TP_REQUIRE_MARKDOWN is not set to 1.
"""
import argparse
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MARKER = "<!-- value"
ESCAPE = re.compile(r"\\(?:n|[0-9])")  # \n or \1 left in prose by a script's substitution
VALUE = re.compile(r"<!-- value ")


def parser():
    """markdown-it-py with GitHub's flavour; linkify (bare URLs as links) is off: it needs
    another package and changes nothing this check looks at."""
    from markdown_it import MarkdownIt
    return MarkdownIt("gfm-like", {"linkify": False})


def code_lines(tokens):
    """0-based numbers of the lines inside fenced or indented code blocks."""
    lines = set()
    for t in tokens:
        if t.type in ("fence", "code_block") and t.map:
            lines.update(range(*t.map))
    return lines


def first_line(lines, span, needle):
    """1-based number of the first line of the 0-based range `span` that holds `needle`
    (the range's first line when none does)."""
    start, end = span
    for i in range(start, min(end, len(lines))):
        if needle in lines[i]:
            return i + 1
    return start + 1


def check_text(text, name="<text>", md=None):
    """The problems of one page's Markdown `text`, as 'name:line: message' strings."""
    md = md or parser()
    tokens = md.parse(text)
    lines = text.split("\n")
    problems = []
    for t in tokens:
        if t.type == "html_block" and MARKER in t.content and t.map:
            problems.append(f"{name}:{t.map[0] + 1}: a generated value begins a line: GitHub renders it as a "
                            "raw HTML block that splits the paragraph (move a word of the line "
                            "above onto this one)")
        if t.type != "inline" or not t.map:
            continue
        for child in t.children or []:
            if child.type != "text":
                continue
            for mark, what in (("**", "'**'"), ("`", "a backtick")):
                if mark in child.content:
                    n = first_line(lines, t.map, mark)
                    problems.append(f"{name}:{n}: {what} shows literally in the rendered text: "
                                    f"{child.content.strip()[:70]!r}")
                    break
            if escape := ESCAPE.search(child.content):
                n = first_line(lines, t.map, escape.group(0))
                problems.append(f"{name}:{n}: an escape {escape.group(0)!r} shows literally in the rendered "
                                f"text (a script's substitution left it): {child.content.strip()[:70]!r}")
        count = len(VALUE.findall(t.content))
        if count > 2:
            problems.append(f"{name}:{t.map[0] + 1}: a paragraph with {count} generated values (at most two: "
                            "split it, or put the numbers in a table)")
    inside_code = code_lines(tokens)
    named = {int(p.split(":")[1]) for p in problems}  # named once
    for i, line in enumerate(lines):
        if line.lstrip().startswith(MARKER) and i not in inside_code and i + 1 not in named:
            problems.append(f"{name}:{i + 1}: a line begins with '{MARKER}'")
    # One problem per line and kind is enough; keep them in order of line.
    unique = sorted(set(problems), key=lambda p: (int(p.split(":")[1]), p))
    return unique


def pages():
    """The pages of docs/pages.txt, in reading order."""
    listing = (ROOT / "docs" / "pages.txt").read_text().split("\n")
    return [ROOT / line.strip() for line in listing if line.strip() and not line.startswith("#")]


def main(argv=None):
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("files", nargs="*", type=pathlib.Path, help="Markdown files (default: docs/pages.txt)")
    opts = args.parse_args(argv)
    try:
        md = parser()
    except ImportError:
        print("check_markdown.py: markdown-it-py is not installed: pip install -r plots/requirements.txt",
              file=sys.stderr)
        return 1 if os.environ.get("TP_REQUIRE_MARKDOWN") == "1" else 77
    problems = 0
    for path in opts.files or pages():
        try:
            name = str(path.resolve().relative_to(ROOT))
        except ValueError:
            name = str(path)
        if not path.exists():
            print(f"{name}: no such page")
            problems += 1
            continue
        for line in check_text(path.read_text(encoding="utf-8"), name, md):
            print(line)
            problems += 1
    if problems:
        print(f"check_markdown.py: {problems} problem(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
