#!/usr/bin/env python3
r"""Doxygen input filter for the Markdown pages (FILTER_PATTERNS in docs/Doxyfile.in).

The chapters link to each other, to images and to source files with ordinary relative
Markdown links, which is what works on GitHub and in any Markdown viewer. Doxygen 1.9.4
resolves only some of those, so this filter rewrites each relative link target for the site
(the file on disk is not changed, and every line keeps its number):

    [t](../../README.md)           ->  [t](/abs/path/README.md)   Doxygen links the page
    ![c](../../docs/images/x.svg)  ->  ![c](docs/images/x.svg)    found in IMAGE_PATH
    [t](kernel.cuh)                ->  [t](@ref steps/00_copy/kernel.cuh)   the file's page
    [t](main.cu), [t](../../plots) ->  t                          no page in the site: text
    [t](glossary.md#bank)          ->  [t](@ref docs_glossary__bank)   a section of a page
    **`x` and y**                  ->  <b>`x` and y</b>          bold within one line: Doxygen
                                                                 1.9.4 misses some **
    *from (`a`) `b_*.csv`.*        ->  <em>from (`a`) `b_*.csv`.</em>   emphasis with a code
                                                                 span, within one line: the
                                                                 same (see EMPHASIS)
    <!-- value a.b -->43.4%<!-- /value -->  ->  43.4%          a quoted number's markers
                                                                 (plots/tables.py) go: Doxygen
                                                                 drops '%' and a space by them
    `--only 'banks_*'`             ->  ``--only 'banks_*'``     a code span that holds a ':
                                                                 two ticks (see below)

Sections: every `##`-or-deeper heading gets a Doxygen label, `\anchor <page>__<anchor>`, where
<page> is the page's path with `/` and `.md` turned into `_` and nothing, and <anchor> is
the id GitHub gives the heading (lower case, punctuation dropped, spaces as hyphens, then
-1, -2, ... for repeats), with `-` as `_`. So a link to `page.md#anchor`, or to `#anchor` in
the same page, works on GitHub and in the site alike. The label is an `\anchor` at the start
of the heading's text (`## \anchor label Title`), not a `{#label}` after it: Doxygen 1.9.4
makes a heading with `{#label}` a \section, whose title it prints as plain text, so a code
span in it showed as `<tt>copy_2d</tt>`; a heading with an anchor stays an HTML heading
(`##` gives <h1>, `###` <h2>, as before), whose code spans and bold render.

Code spans: Doxygen 1.9.4 reads a one-tick span that holds a ' (followed by a character that
cannot be in a name) as a quotation, `like this', and prints it with typographic quotes; the
rest of the paragraph's ticks then pair up wrongly: `--gtest_filter='*X*'` lost its code
font, its `--` became an en dash and its *X* emphasis. Such a span is given two ticks on each
side (``...``), which Doxygen reads as code whatever it holds; GitHub shows both alike.

Pages are the files listed in docs/pages.txt; source files get a page when they are in the
site's INPUT and have a `/// @file` comment: common/include/tp/*.hpp and *.cuh, steps/*.cuh
and steps/NN_*/*.cuh. A target that does not exist, or lies outside the repository, and a
#fragment that names no heading of its page are left as they are and reported on stderr;
Doxygen or the site's link check (docs/check_site.py) then fails. Fenced code blocks are
copied unchanged.

    python3 docs/md_filter.py FILE.md     print FILE.md as Doxygen should read it
"""
import os
import pathlib
import re
import sys

# Absolute, without resolving symbolic links: the same spelling as the paths Doxygen uses.
ROOT = pathlib.Path(os.path.abspath(__file__)).parent.parent
# The site's pages (docs/pages.txt) and the source files it documents (INPUT and FILE_PATTERNS
# in Doxyfile.in).
PAGES = {line for line in (ROOT / "docs" / "pages.txt").read_text().split("\n")
         if line and not line.startswith("#")}
SOURCES = re.compile(r"^(common/include/tp/[^/]+\.(hpp|cuh)|steps/([^/]+/)?[^/]+\.cuh)$")
# ![text](target "title") and [text](target "title"); text may hold one level of [brackets].
# A code span first, so that a link shown as code (`[t](x)`) is left alone.
LINK = re.compile(r'(?P<code>`[^`]*`)|'
                  r'(?P<bang>!?)\[(?P<text>(?:[^\[\]]|\[[^\[\]]*\])*)\]\((?P<target>[^()\s]+)(?P<title>\s+"[^"]*")?\)')
EXTERNAL = re.compile(r"^([a-z][a-z0-9+.-]*:|/|@ref\s|\\ref\s)", re.I)
FENCE = re.compile(r"^\s*(```|~~~)")
# Bold opened and closed on one line (Doxygen 1.9.4 prints the ** of some, e.g. before a code
# span); a code span inside is kept whole.
BOLD = re.compile(r"\*\*((?:[^*`\s]|`[^`]*`)(?:[^*`]|`[^`]*`)*?)\*\*")
# Emphasis opened and closed on one line, with a code span in it: Doxygen 1.9.4 looks for the
# closing * without skipping a code span that follows a '(' (its ignoreCloseEmphChar), so in
# *... (`inplace`) ... `x_*.csv`.* it pairs the ticks wrongly and ends the emphasis at the *
# inside the last span. As with bold, a code span (or, outside emphasis, a * in one) is whole.
EMPHASIS = re.compile(r"(?P<code>`[^`]*`)|"
                      r"(?<![\w*\\])\*(?P<text>(?:[^\s*`]|`[^`]*`)(?:[^*`]|`[^`]*`)*?)(?<=\S)\*(?![\w*])")
VALUE_MARKER = re.compile(r"<!-- (value [\w.]+(?: [\w.]+)*|/value) -->")
HEADING = re.compile(r"^(?P<hashes>#{2,6})\s+(?P<title>.*?)\s*$")


def github_anchor(title):
    """The id GitHub gives a heading: lower case, code ticks and punctuation dropped, spaces as -."""
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # a link's text only
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def anchors(md):
    """{line number: anchor} of the `##`-or-deeper headings of md, outside code fences."""
    found, seen, in_fence = {}, {}, False
    for lineno, line in enumerate(md.read_text(encoding="utf-8").split("\n"), 1):
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and (m := HEADING.match(line)):
            base = github_anchor(m.group("title"))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found[lineno] = base if n == 0 else f"{base}-{n}"
    return found


def label(page, anchor):
    """The Doxygen label of a section: `docs/glossary.md`, `bank` -> `docs_glossary__bank`."""
    return re.sub(r"[^\w]", "_", page.removesuffix(".md")) + "__" + anchor.replace("-", "_")


def resolve(md_dir, target):
    """The repository file that `target` (relative to the Markdown file) names, or None."""
    path = pathlib.Path(os.path.normpath(md_dir / target))
    try:
        path.relative_to(ROOT)
    except ValueError:
        return None
    return path if path.exists() else None


def tt(code, link):
    """`link` in code font when its text was a code span."""
    return f"<tt>{link}</tt>" if code else link


def rewrite_link(md, lineno, m):
    target = m.group("target")
    if m.group("code") or EXTERNAL.match(target):
        return m.group(0)
    where = f"{md}:{lineno}: md_filter.py:"
    target, _, fragment = target.partition("#")
    path = resolve(md.parent, target) if target else md
    if fragment:
        rel = path.relative_to(ROOT).as_posix() if path else target
        if path is None or rel not in PAGES or fragment not in anchors(path).values():
            print(f"{where} '{m.group('target')}': no heading of a page has that anchor", file=sys.stderr)
            return m.group(0)
        text = m.group("text").replace("`", "")
        return tt(re.fullmatch(r"`[^`]+`", m.group("text")), f"[{text}](@ref {label(rel, fragment)})")
    if path is None:
        print(f"{where} '{target}': names no file in the repository", file=sys.stderr)
        return m.group(0)
    rel = path.relative_to(ROOT).as_posix()
    text, title = m.group("text"), m.group("title") or ""
    if m.group("bang"):  # Doxygen finds an image in IMAGE_PATH by a trailing part of its path
        return f"![{text}]({rel}{title})"
    # Doxygen shows the text of a page link verbatim, ticks included, so
    # [`x`](y) -> <tt>[x](y)</tt> and [a `b` c](y) -> [a b c](y).
    code = re.fullmatch(r"`[^`]+`", text)
    text = text.replace("`", "")
    if rel in PAGES:  # Doxygen turns a link to a .md file it reads into a page link
        return tt(code, f"[{text}]({path.as_posix()}{title})")
    if SOURCES.match(rel):  # the file's page: its documentation, with a link to its source
        return tt(code, f"[{text}](@ref {rel})")
    return m.group("text")  # no page in the site (main.cu, CMakeLists.txt, a folder): text


def emphasis(m):
    """An EMPHASIS match as <em>...</em> if it holds a code span; else (or code) unchanged."""
    return f"<em>{m.group('text')}</em>" if "`" in (m.group("text") or "") else m.group(0)


def quote_safe_code(text):
    """`text` (a paragraph) with each one-tick code span that holds a ' given two ticks.

    Code spans as CommonMark reads them: a run of n ticks opens one and the next run of exactly
    n ticks closes it (a run with no match is text); outside code, a backslash escapes the next
    character and an HTML comment is skipped whole."""
    out, done, i = [], 0, 0
    while i < len(text):
        if text.startswith("<!--", i):
            i = text.find("-->", i) + 3 if "-->" in text[i:] else len(text)
            continue
        if text[i] == "\\":
            i += 2
            continue
        if text[i] != "`":
            i += 1
            continue
        ticks = re.match(r"`+", text[i:]).group(0)
        close = re.compile(rf"(?<!`){ticks}(?!`)").search(text, i + len(ticks))
        if close is None:  # no closing run: the ticks are text
            i += len(ticks)
            continue
        code = text[i + len(ticks):close.start()]
        if ticks == "`" and "'" in code:
            out += [text[done:i], "``", code, "``"]
            done = close.end()
        i = close.end()
    return "".join(out) + text[done:]


def main():
    md = pathlib.Path(os.path.abspath(sys.argv[1]))
    page = md.relative_to(ROOT).as_posix()
    sections = anchors(md)
    out, in_fence = [], False
    paragraph = []  # the lines of the paragraph being read, outside code blocks

    def end_paragraph():
        # Code spans may run over a line break: their ticks are paired within a paragraph.
        if paragraph:
            out.extend(quote_safe_code("\n".join(paragraph)).split("\n"))
            paragraph.clear()

    for lineno, line in enumerate(md.read_text(encoding="utf-8").split("\n"), 1):
        if FENCE.match(line) or in_fence:
            if FENCE.match(line):
                in_fence = not in_fence
            end_paragraph()
            out.append(line)
            continue
        line = LINK.sub(lambda m: rewrite_link(md, lineno, m), line)
        line = BOLD.sub(r"<b>\1</b>", line)
        line = EMPHASIS.sub(emphasis, line)
        line = VALUE_MARKER.sub("", line)
        if lineno in sections:
            hashes = HEADING.match(line).group("hashes")
            line = f"{hashes} \\anchor {label(page, sections[lineno])} {line[len(hashes):].lstrip()}"
        if not line.strip() or lineno in sections:
            end_paragraph()
            out.append(quote_safe_code(line))
        else:
            paragraph.append(line)
    end_paragraph()
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
