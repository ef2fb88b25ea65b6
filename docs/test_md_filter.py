#!/usr/bin/env python3
"""The Markdown filter of the site (docs/md_filter.py) writes what Doxygen 1.9.4 renders as
GitHub does: code spans that hold a ', emphasis around code, headings with code; and it keeps
every line where it was.

    python3 -m unittest discover -s docs -p 'test_*.py'
"""
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import md_filter  # noqa: E402


def emphasis(line):
    return md_filter.EMPHASIS.sub(md_filter.emphasis, line)


class Filter(unittest.TestCase):
    def test_a_code_span_with_a_quote_gets_two_ticks(self):
        q = md_filter.quote_safe_code
        self.assertEqual(q("`--only 'banks_*'` draws, `--out DIR` writes"),
                         "``--only 'banks_*'`` draws, `--out DIR` writes")
        self.assertEqual(q("(`f('x'))`\nfor `float`)"), "(``f('x'))``\nfor `float`)")  # over a line break
        self.assertEqual(q("``it's`` and \\`a' `b`"), "``it's`` and \\`a' `b`")  # two ticks, an escape
        self.assertEqual(q("<!-- ` --> `x'` and `unclosed'"), "<!-- ` --> ``x'`` and `unclosed'")

    def test_emphasis_with_code_becomes_html(self):
        self.assertEqual(emphasis("*% of it (`inplace`); from `x_*.csv`.*"),
                         "<em>% of it (`inplace`); from `x_*.csv`.</em>")
        for line in ("*plain emphasis*", "`order_*`, `b` and 2 * `x` * 3", "x*`y`*z"):
            self.assertEqual(emphasis(line), line)

    def test_headings_get_an_anchor_and_lines_keep_their_numbers(self):
        text = ("# Page\n\n## The copy: `copy_2d`\n\nSee `--gtest_filter='*X*'` and\n"
                "*from (`a`) `b_*.csv`.*\n\n```\n`kept' as is`\n```\n")
        with tempfile.TemporaryDirectory(dir=HERE.parent) as tmp:
            page = pathlib.Path(tmp, "page.md")
            page.write_text(text)
            run = subprocess.run([sys.executable, str(HERE / "md_filter.py"), str(page)], capture_output=True,
                                 text=True, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.split("\n")
        self.assertEqual(len(lines), len(text.split("\n")))
        label = pathlib.Path(tmp).name + "_page__the_copy_copy_2d"
        self.assertEqual(lines[2], f"## \\anchor {label} The copy: `copy_2d`")
        self.assertEqual(lines[4], "See ``--gtest_filter='*X*'`` and")
        self.assertEqual(lines[5], "<em>from (`a`) `b_*.csv`.</em>")
        self.assertEqual(lines[8], "`kept' as is`")  # a code block is copied unchanged


if __name__ == "__main__":
    unittest.main()
