#!/usr/bin/env python3
"""The Markdown check (docs/check_markdown.py) can fail: a bad page fails, a good one passes.

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
import check_markdown  # noqa: E402

try:
    import markdown_it  # noqa: F401
    HAVE_PARSER = True
except ImportError:
    HAVE_PARSER = False

GOOD = """\
# A page

The copy reaches <!-- value steps.copy_pct float -->97%<!-- /value --> of cudaMemcpy for
**`float`** at 16384, and the naive kernel <!-- value steps.naive_pct -->12%<!-- /value -->.

- **A list item.** Its second line holds a value,
  as does `half`: <!-- value steps.half_pct -->40%<!-- /value --> of it.

```markdown
<!-- value steps.example -->a marker in a code block is shown, not rendered<!-- /value -->
```

<!-- table source=tour rows=kernel cols=rows value=pct -->
| kernel | 2048 |
|---|---:|
| copy | 97% |
<!-- /table -->
"""

# Line 4 begins with a marker: the paragraph splits and its `float` and **bold** show as
# written. Line 8 (in a list item, indented) too. Line 10 leaves a ** unmatched.
BAD = """\
# A page

The copy reaches
<!-- value steps.copy_pct float -->97%<!-- /value --> of cudaMemcpy for **`float`**.

- **A list item.** Its second line begins with a value:

  <!-- value steps.half_pct -->40%<!-- /value --> of it, for `half`.

A stray ** and a stray ` left in the text.
"""


# Skipped without the parser, unless TP_REQUIRE_MARKDOWN=1 (as in .ci/run): then it fails.
@unittest.skipUnless(HAVE_PARSER or os.environ.get("TP_REQUIRE_MARKDOWN") == "1",
                     "markdown-it-py is not installed (pip install -r plots/requirements.txt)")
class CheckMarkdown(unittest.TestCase):
    def test_good_page_passes(self):
        self.assertEqual(check_markdown.check_text(GOOD, "good.md"), [])

    def test_bad_page_fails_naming_file_and_line(self):
        problems = check_markdown.check_text(BAD, "bad.md")
        lines = [int(p.split(":")[1]) for p in problems]
        self.assertIn(4, lines, problems)
        self.assertIn(8, lines, problems)
        self.assertIn(10, lines, problems)
        self.assertTrue(all(p.startswith("bad.md:") for p in problems), problems)
        self.assertTrue(any("splits the paragraph" in p for p in problems), problems)
        self.assertTrue(any("'**'" in p for p in problems), problems)

    def test_a_marker_that_begins_a_line_fails_even_where_it_renders(self):
        # After a blank line the marker begins a paragraph of its own; markdown-it reads it as
        # an HTML block too, and the rule is the line's start, whatever the renderer.
        problems = check_markdown.check_text("Text.\n\n<!-- value a.b -->1<!-- /value --> more.\n", "x.md")
        self.assertTrue(any(p.startswith("x.md:3:") for p in problems), problems)

    def test_an_escape_left_in_prose_fails_but_not_in_code(self):
        text = "Intro line.\n\n- `coarsen` takes \\1\\n  (shared memory would allow 6).\n\n```text\nR = a \\n b\n```\n"
        problems = check_markdown.check_text(text, "page.md")
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("page.md:3: an escape", problems[0])

    def test_more_than_two_values_in_a_paragraph_fail(self):
        two = "One <!-- value a.b -->1<!-- /value -->, two <!-- value a.c -->2<!-- /value -->.\n"
        self.assertEqual(check_markdown.check_text(two, "x.md"), [])
        three = two[:-2] + ",\nthree <!-- value a.d -->3<!-- /value -->.\n"
        problems = check_markdown.check_text(three, "x.md")
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("x.md:1: a paragraph with 3 generated values", problems[0])
        row = " | ".join(f"<!-- value a.{k} -->{k}<!-- /value -->" for k in "xyz")
        cells = f"| a | b | c |\n|---|---|---|\n| {row} |\n"  # three values, one per cell
        self.assertEqual(check_markdown.check_text(cells, "x.md"), [])

    def test_command_line_exit_status(self):
        with tempfile.TemporaryDirectory() as tmp:
            good = pathlib.Path(tmp, "good.md")
            bad = pathlib.Path(tmp, "bad.md")
            good.write_text(GOOD)
            bad.write_text(BAD)
            script = str(HERE / "check_markdown.py")
            env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
            ok = subprocess.run([sys.executable, script, str(good)], capture_output=True, text=True, env=env)
            self.assertEqual(ok.returncode, 0, ok.stdout + ok.stderr)
            fail = subprocess.run([sys.executable, script, str(good), str(bad)], capture_output=True,
                                  text=True, env=env)
            self.assertEqual(fail.returncode, 1, fail.stdout + fail.stderr)
            self.assertIn("bad.md:4:", fail.stdout)
            self.assertNotIn("good.md", fail.stdout)


if __name__ == "__main__":
    unittest.main()
