#!/usr/bin/env python3
"""The site check (docs/check_site.py) can fail: each kind of defect Doxygen 1.9.4 made in the
tutorial's site fails it, and the same page rendered right passes. Also docs/fix_navtree.py,
on a tree view like Doxygen 1.9.4's. Standard library only; no Doxygen needed.

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
import check_site  # noqa: E402

# A page's Markdown (line numbers matter below) and two renderings of it: as Doxygen 1.9.4
# rendered the tutorial before the fixes (a heading with code as a \section, a code span with
# a ' as a quotation, a numbered list from prose, /// lines dropped from code) and after.
MARKDOWN = """\
# A page

### The copy: `copy_2d`

Predict first (`cd plots && python3 -c "print(f('x'))"`, for
`float`); the racecheck: `--gtest_filter='*Ex05*'`.

- Columns 0 and 3 collide, and 1 and 4, 2 and
  5. Pass 1 rotates column `j`.

```cpp
/// The kernel.
  int x;  // indented
```
"""

GOOD = """\
<html><body><div class="contents"><div class="textblock">
<h2><a class="anchor" id="a__the_copy_copy_2d"></a>The copy: <code>copy_2d</code></h2>
<p >Predict first (<code>cd plots &amp;&amp; python3 -c "print(f('x'))"</code>, for <code>float</code>); the racecheck: <code>--gtest_filter='*Ex05*'</code>.</p>
<ul>
<li>Columns 0 and 3 collide, 1 and 4, 2 and 5. Pass 1 rotates column <code>j</code>.</li>
</ul>
<ol type="1">
<li>A list after a blank line is fine.</li>
</ol>
<div class="fragment"><div class="line"><span class="comment">/// The kernel.</span></div>
<div class="line">  <span class="keywordtype">int</span> x;  <span class="comment">// indented</span></div>
</div><!-- fragment -->
</div></div></body></html>
"""

BAD = """\
<html><body><div class="contents"><div class="textblock">
<h2><a class="anchor" id="a__the_copy_copy_2d"></a>
The copy: &lt;tt&gt;copy_2d&lt;/tt&gt;</h2>
<p >Predict first (&lsquo;cd plots &amp;&amp; python3 -c "print(f('x&amp;rsquo;))"<code>, for</code>float`); the racecheck: `&ndash;gtest_filter='<em>Ex05</em>'`.</p>
<ul>
<li>Columns 0 and 3 collide, and 1 and 4, 2 and<ol type="1">
<li>Pass 1 rotates column <code>j</code>.</li>
</ol>
</li>
</ul>
<div class="fragment"><div class="line"> </div>
<div class="line"><span class="keywordtype">int</span> x;  <span class="comment">// indented</span></div>
</div><!-- fragment -->
</div></div></body></html>
"""


def problems(html, markdown=MARKDOWN):
    return check_site.page_problems("md_a.html", check_site.parse(html), html, "a.md", markdown)


class MarkdownCode(unittest.TestCase):
    def test_spans_and_blocks_with_their_lines(self):
        spans, blocks = check_site.markdown_code(MARKDOWN)
        self.assertEqual(spans, [(3, "copy_2d"), (5, """cd plots && python3 -c "print(f('x'))\""""),
                                 (6, "float"), (6, "--gtest_filter='*Ex05*'"), (9, "j")])
        self.assertEqual(blocks, [(11, ["/// The kernel.", "  int x;  // indented"])])

    def test_commonmark_rules(self):
        text = ("A `span\nover two lines` and `` a`tick `` and \\`not code\\` and `` `x` `` and\n"
                "<!-- value a.b -->`in a marker`<!-- /value --> and ``unclosed and `c`.\n\n"
                "- item `one\n- item two` end\n\n  ~~~\n  indented fence `x`\n  ~~~\n")
        spans, blocks = check_site.markdown_code(text)
        self.assertEqual([c for _, c in spans],
                         ["span over two lines", "a`tick", "`x`", "in a marker", "c"])
        self.assertEqual(blocks, [(8, ["indented fence `x`"])])

    def test_normal_block_drops_what_doxygen_drops(self):
        self.assertEqual(check_site.normal_block(["", "  a  ", "    b", "", ""]), ["a", "  b"])


class PageChecks(unittest.TestCase):
    def test_good_page_passes(self):
        self.assertEqual(problems(GOOD), [])

    def test_bad_page_fails_on_each_defect(self):
        found = "\n".join(problems(BAD))
        # 1. code spans with a ': text shown as code and code shown as text, an entity as text
        self.assertIn("a.md:5: the code span 'cd plots", found)
        self.assertIn("a.md:6: the code span \"--gtest_filter='*Ex05*'\" is not shown as code", found)
        self.assertIn("the site shows ', for' as code", found)
        self.assertIn("'&rsquo;' in the text: an entity shown", found)
        # 2. a heading's code printed as tags
        self.assertIn("md_a.html:3 (a.md): '<tt>' in the text: markup shown", found)
        self.assertIn("md_a.html:3 (a.md): '</tt>' in the text: markup shown", found)
        self.assertIn("a.md:3: the code span 'copy_2d' is not shown as code", found)
        # 3. a numbered list from a line of prose
        self.assertIn("md_a.html:6 (a.md): a numbered list starts inside a paragraph", found)
        self.assertIn("'Pass 1 rotates column j.'", found)
        # fenced code: a /// line dropped
        self.assertIn("a.md:11: the code block's line 1 is '/// The kernel.' in the source, 'int x;", found)

    def test_block_count_and_unrendered_bold(self):
        html = GOOD.replace('<div class="fragment">', '<div class="fragmentx">').replace(
            "<ul>", "<p>a **bold** left</p><ul>")
        found = "\n".join(problems(html))
        self.assertIn("a.md:1: 1 fenced code blocks, but 0 code blocks on the site", found)
        self.assertIn("'**' in the text", found)

    def test_code_and_scripts_are_not_text(self):
        html = ('<script>/* @license magnet:?xt=urn:btih:d3&amp;dn=expat.txt */</script>'
                '<p><code>&lt;tt&gt; **x** &amp;rsquo;</code></p><div class="fragment">'
                '<div class="line">char **argv; // &lt;b&gt;</div></div>')
        page = check_site.parse(html)
        self.assertEqual(page.shown, [])
        self.assertEqual(check_site.page_problems("x.html", page, html), [])


class TreeView(unittest.TestCase):
    NAVTREE = ("function getData(varName)\n{\n  var i = varName.lastIndexOf('/');\n"
               "  var n = i>=0 ? varName.substring(i+1) : varName;\n"
               "  return eval(n.replace(/\\-/g,'_'));\n}\n")

    def site(self, tmp):
        site = pathlib.Path(tmp)
        (site / "navtree.js").write_text(self.NAVTREE)
        (site / "dir_1.js").write_text('var dir_1 =\n[\n    [ "kernel.cuh", "05__shared_2kernel_8cuh.html", '
                                       '"05__shared_2kernel_8cuh" ],\n    [ "gone", null, "gone_8cuh" ]\n];')
        (site / "05__shared_2kernel_8cuh.js").write_text(
            'var 05__shared_2kernel_8cuh =\n[\n    [ "transpose", "05__shared_2kernel_8cuh.html#a1", null ]\n];')
        return site

    def test_a_name_that_begins_with_a_digit_fails_until_fixed(self):
        with tempfile.TemporaryDirectory() as tmp:
            site = self.site(tmp)
            found = "\n".join(check_site.tree_problems(site))
            self.assertIn("05__shared_2kernel_8cuh.js: 'var 05__shared_2kernel_8cuh' is no JavaScript name", found)
            self.assertIn("dir_1.js: tree entry's children 'gone_8cuh': no gone_8cuh.js in the site", found)
            (site / "gone_8cuh.js").write_text('var gone_8cuh =\n[\n];')
            self.assertEqual(self.fix(site), 0)
            self.assertEqual(check_site.tree_problems(site), [])
            self.assertIn("var _05__shared_2kernel_8cuh =", (site / "05__shared_2kernel_8cuh.js").read_text())
            self.assertEqual(self.fix(site), 0)  # a second run changes nothing
            self.assertEqual(check_site.tree_problems(site), [])

    def test_a_renamed_file_without_the_lookup_rule_fails(self):
        with tempfile.TemporaryDirectory() as tmp:
            site = self.site(tmp)
            (site / "gone_8cuh.js").write_text('var gone_8cuh =\n[\n];')
            text = (site / "05__shared_2kernel_8cuh.js").read_text()
            (site / "05__shared_2kernel_8cuh.js").write_text("var _" + text[4:])
            found = check_site.tree_problems(site)
            self.assertEqual(len(found), 1, found)
            self.assertIn("defines '_05__shared_2kernel_8cuh', but navtree.js looks up '05__shared_2kernel_8cuh'",
                          found[0])

    def test_fix_fails_when_navtree_js_cannot_be_patched(self):
        with tempfile.TemporaryDirectory() as tmp:
            site = self.site(tmp)
            (site / "navtree.js").write_text("function getData(n) { return window[n]; }\n")
            self.assertEqual(self.fix(site), 1)

    @staticmethod
    def fix(site):
        run = subprocess.run([sys.executable, str(HERE / "fix_navtree.py"), str(site)], capture_output=True,
                             text=True, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
        return run.returncode


class CommandLine(unittest.TestCase):
    def test_exit_status(self):
        with tempfile.TemporaryDirectory() as tmp:
            source, site = pathlib.Path(tmp, "src"), pathlib.Path(tmp, "site")
            (source / "docs").mkdir(parents=True)
            site.mkdir()
            (source / "docs" / "pages.txt").write_text("# pages\nREADME.md\ndocs/a.md\n")
            (source / "README.md").write_text("# Main\n\nSee `x`.\n")
            (source / "docs" / "a.md").write_text(MARKDOWN)
            (site / "index.html").write_text('<p>See <code>x</code>.</p><a href="md_docs_a.html">a</a>')
            script = str(HERE / "check_site.py")
            env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")

            def run():
                return subprocess.run([sys.executable, script, "--source", str(source), str(site)],
                                      capture_output=True, text=True, env=env)
            missing = run()
            self.assertEqual(missing.returncode, 1, missing.stdout)
            self.assertIn("no page in the site for docs/a.md", missing.stdout)
            (site / "md_docs_a.html").write_text(BAD)
            bad = run()
            self.assertEqual(bad.returncode, 1, bad.stdout)
            self.assertIn("docs/a.md:6: the code span", bad.stdout)
            (site / "md_docs_a.html").write_text(GOOD)
            good = run()
            self.assertEqual(good.returncode, 0, good.stdout)
            self.assertIn("0 problems", good.stdout)


if __name__ == "__main__":
    unittest.main()
