#!/usr/bin/env python3
"""Check the built Doxygen site: its links, its tree view, and that the pages show what the
Markdown says (ctest: docs.site_links_work).

Links. For each HTML page under SITE: every local href and src (and <object data>, where
Doxygen puts SVG images) must name a file inside the site, a #fragment must be an id or name
in the target page, no link may still end in .md (a Markdown link Doxygen did not resolve),
and every <img> must exist. Links to http(s):, mailto:, javascript:, data: are not followed.

Tree view. Its entries, [ "title", "page.html#anchor", children ], in navtreedata.js and the
files it loads, must name pages of the site (their #fragments are not checked: Doxygen 1.9.4
lists a namespace's variables under each file with an anchor that only the namespace's page
has; following one opens the right file page, at the top). Entries whose children are in a
file of their own name it: NAME.js must exist and hold `var NAME = [`, where NAME is a
JavaScript name and the one navtree.js looks up (a name that begins with a digit, as Doxygen
1.9.4 gives 05_shared/kernel.cuh, is a syntax error that breaks the tree on that page;
docs/fix_navtree.py renames it).

The pages made from Markdown (docs/pages.txt: README.md is index.html, a/b.md is
md_a_b.html), against their source:
- code shows the characters of the source: the inline code spans of the page, in order, are
  the <code> elements of the page, and each fenced code block is a code fragment with the
  same lines (less the indentation common to its lines and trailing blanks, which Doxygen
  drops). A code span whose ticks Doxygen pairs wrongly shows as text with typographic
  quotes and en dashes, and text shows as code;
- the text outside code shows no Markdown or HTML left unrendered: no `**`, no tag such as
  <tt> or </b> as text (a heading's code printed as `<tt>x</tt>`), no entity such as
  &rsquo; as text;
- no numbered list starts inside a paragraph: a line of prose that begins with a number and
  a period is a list item to Doxygen 1.9.4 (on GitHub only where the number is 1). Such a
  list is an <ol> that follows text on its line; a list that begins after a blank line is
  not. Reword or reflow the line (or put a blank line before a list that is meant).

    python3 docs/check_site.py build/docs/html     exit 1 and list the problems, if any
    python3 docs/check_site.py --source DIR SITE   the Markdown pages of DIR/docs/pages.txt
"""
import argparse
import difflib
import html.parser
import pathlib
import re
import sys
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
SKIP = ("http:", "https:", "mailto:", "javascript:", "data:", "ftp:")
LINK_ATTRS = {"href", "src", "data"}
# Markup left as text: an HTML tag that Doxygen or Markdown would have rendered, or an entity.
TAG_AS_TEXT = re.compile(r"</?(?:tt|code|b|i|em|strong|a|p|br|sub|sup|span|div|pre|h[1-6]|ul|ol|li|"
                         r"table|tr|td|th|img)(?:\s[^<>]*)?/?>", re.I)
ENTITY_AS_TEXT = re.compile(r"&(?:[a-z][a-z0-9]*|#[0-9]+|#x[0-9a-f]+);", re.I)
# A tree view file: `var NAME =` then the entries; an entry whose children have a file.
TREE_FILE = re.compile(r"var (?P<name>\S+) =\s*\n\[")
TREE_CHILDREN = re.compile(r'\[ "(?:[^"\\]|\\.)*", (?:"[^"]*"|null), "([^"]+)" \]')
JS_NAME = re.compile(r"[A-Za-z_$][\w$]*")


class Page(html.parser.HTMLParser):
    """Collects the links and ids/names of one HTML page, its code and what its text shows."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links = []  # (tag, attribute, value, line)
        self.ids = set()
        self.in_code = 0  # depth of <code>, <pre> and Doxygen's code blocks (div.fragment)
        self.in_script = 0  # inside <script> or <style>: no text of the page
        self.divs = []  # for each open <div>: "fragment", "line" or None
        self.codes = []  # (line, text) of each <code> outside code blocks
        self.fragments = []  # (line, [text of each line]) of each code block (div.fragment)
        self.lists = []  # (line, column, [text]) of each <ol>: where it starts, its first words
        self.shown = []  # (line, what): Markdown or HTML shown as text, outside code
        self._code = None  # the <code> being read: [line, depth, text parts]
        self._line = None  # the code block line being read: [text parts]
        self._list = None  # the text parts of the <ol> being read, until there are enough

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "div":
            kind = "fragment" if "fragment" in classes else None
            if "line" in classes and self.divs and self.divs[-1] == "fragment":
                kind, self._line = "line", []
            elif kind:
                self.fragments.append((self.getpos()[0], []))
            self.divs.append(kind)
        if tag in ("script", "style"):
            self.in_script += 1
        code = tag in ("code", "pre") or (tag == "div" and "fragment" in classes)
        if code:
            self.in_code += 1
        if tag == "code" and not any(self.divs):
            if self._code is None:
                self._code = [self.getpos()[0], 0, []]
            self._code[1] += 1
        if tag == "ol":
            line, column = self.getpos()
            self._list = []
            self.lists.append((line, column, self._list))
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name"):
                self.ids.add(value)
            elif name in LINK_ATTRS and not (name == "data" and tag != "object"):
                self.links.append((tag, name, value, self.getpos()[0]))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.in_script = max(0, self.in_script - 1)
        if tag in ("code", "pre") or (tag == "div" and self.divs and self.divs[-1] == "fragment"):
            self.in_code = max(0, self.in_code - 1)
        if tag == "code" and self._code is not None:
            self._code[1] -= 1
            if self._code[1] == 0:
                self.codes.append((self._code[0], "".join(self._code[2])))
                self._code = None
        if tag in ("li", "ol"):
            self._list = None  # the first item's words are enough
        if tag == "div" and self.divs:
            if self.divs.pop() == "line" and self._line is not None:
                self.fragments[-1][1].append("".join(self._line))
                self._line = None

    def handle_data(self, data):
        if self._line is not None:
            self._line.append(data)
        if self._code is not None:
            self._code[2].append(data)
        if self._list is not None:
            self._list.append(data)
            if len("".join(self._list).strip()) >= 60:
                self._list = None
        if self.in_code or self.in_script:
            return
        line = self.getpos()[0]
        if "**" in data:
            self.shown.append((line + data[:data.index("**")].count("\n"),
                               "'**' in the text: bold Doxygen did not render"))
        for m in TAG_AS_TEXT.finditer(data):
            self.shown.append((line + data[:m.start()].count("\n"),
                               f"'{m.group(0)}' in the text: markup shown, not rendered"))
        for m in ENTITY_AS_TEXT.finditer(data):
            self.shown.append((line + data[:m.start()].count("\n"),
                               f"'{m.group(0)}' in the text: an entity shown, not rendered"))


def parse(text):
    page = Page()
    page.feed(text)
    page.close()
    return page


# --- The code of a Markdown page, as GitHub (CommonMark) reads it ---------------------------

FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# A line that starts a block of its own: code spans do not run across it.
BLOCK_START = re.compile(r"^\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|\||>)")
ONE_LINE_BLOCK = re.compile(r"^\s*(?:#{1,6}\s|\|)")
COMMENT = re.compile(r"<!--.*?-->", re.S)


def code_spans(text):
    """The code spans of one paragraph `text`, as (offset, content): a run of n ticks opens one
    and the next run of exactly n closes it; the content's line breaks become spaces and one
    space is stripped from each end when both ends have one. Outside code, a backslash escapes
    the next character; a tick run with no match is text."""
    spans, i = [], 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] != "`":
            i += 1
            continue
        ticks = re.match(r"`+", text[i:]).group(0)
        close = re.compile(rf"(?<!`){ticks}(?!`)").search(text, i + len(ticks))
        if close is None:
            i += len(ticks)
            continue
        content = text[i + len(ticks):close.start()].replace("\n", " ")
        if len(content) >= 2 and content[0] == content[-1] == " " and content.strip():
            content = content[1:-1]
        spans.append((i, content))
        i = close.end()
    return spans


def markdown_code(text):
    """The code of a Markdown page: ([(line, content)] of its inline code spans,
    [(line, [lines])] of its fenced code blocks), in order, lines numbered from 1."""
    spans, blocks = [], []
    paragraph = []  # (line number, text) of the lines of the paragraph being read

    def end_paragraph():
        if paragraph:
            joined = "\n".join(t for _, t in paragraph)
            # An HTML comment (a generated marker) is no text; blanked, offsets stay.
            joined = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), joined)
            for offset, content in code_spans(joined):
                spans.append((paragraph[joined.count("\n", 0, offset)][0], content))
            paragraph.clear()

    fence = None  # (character, length, indent, [lines]) of the open fenced block
    for number, line in enumerate(text.split("\n"), 1):
        if fence:
            char, length, indent, body = fence
            closing = line.strip()
            if closing and closing[0] == char and set(closing) == {char} and len(closing) >= length:
                fence = None
            else:
                body.append(re.sub(rf"^ {{0,{indent}}}", "", line))
            continue
        m = FENCE.match(line)  # (in a list item a fence is indented as its text)
        if m and not (m.group("fence")[0] == "`" and "`" in m.group("info")):
            end_paragraph()
            fence = (m.group("fence")[0], len(m.group("fence")), len(m.group("indent")), [])
            blocks.append((number, fence[3]))
            continue
        if not line.strip() or BLOCK_START.match(line):
            end_paragraph()
        if line.strip():
            # In a table row \| is a | of the cell, code spans too (GitHub's tables).
            paragraph.append((number, line.strip().replace("\\|", "|") if line.lstrip().startswith("|")
                              else line.strip()))
        if ONE_LINE_BLOCK.match(line):  # a heading or a table row is a block of one line
            end_paragraph()
    end_paragraph()
    return spans, blocks


def normal_block(lines):
    """A code block as Doxygen shows it: trailing blanks and the blank lines at either end
    dropped, and the indentation common to its lines removed."""
    lines = [line.expandtabs(4).rstrip() for line in lines]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    indent = min((len(line) - len(line.lstrip(" ")) for line in lines if line), default=0)
    return [line[indent:] for line in lines]


def short(text, n=70):
    return repr(text if len(text) <= n else text[:n] + "...")


def code_problems(name, md_text, page):
    """Where the code of `page` (a parsed HTML page) does not show the code of its Markdown
    source `md_text` (named `name`), as 'name:line: message' strings."""
    problems = []
    spans, blocks = markdown_code(md_text)
    want = [content for _, content in spans]
    got = [text for _, text in page.codes]
    matcher = difflib.SequenceMatcher(None, want, got, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        for line, content in spans[i1:i2]:
            problems.append(f"{name}:{line}: the code span {short(content)} is not shown as code on the site")
        near = spans[min(i1, len(spans) - 1)][0] if spans else 1  # the source line nearest
        for _, text in page.codes[j1:j2]:
            problems.append(f"{name}:{near}: the site shows {short(text)} as code, which no code span "
                            "of the source holds")
    if len(blocks) != len(page.fragments):
        problems.append(f"{name}:1: {len(blocks)} fenced code blocks, but {len(page.fragments)} "
                        "code blocks on the site")
    for (line, body), (_, shown) in zip(blocks, page.fragments):
        source, site = normal_block(body), normal_block(shown)
        if source == site:
            continue
        for k, (a, b) in enumerate(zip(source + [""] * len(site), site + [""] * len(source))):
            if a != b:
                problems.append(f"{name}:{line}: the code block's line {k + 1} is {short(a)} in the source, "
                                f"{short(b)} on the site")
                break
    return problems


def page_problems(where, page, raw, name=None, md_text=None):
    """The problems of one page made from Markdown, the HTML file `where` (`page` parsed from
    its text `raw`): markup shown as text and a numbered list that starts inside a paragraph,
    at a line of the HTML; given its source `md_text` (named `name`), code that differs from
    the source, at a line of the source."""
    about = f" ({name})" if name else ""
    problems = [f"{where}:{line}{about}: {what}" for line, what in page.shown]
    lines = raw.split("\n")
    for line, column, words in page.lists:
        before = lines[line - 1][:column] if line <= len(lines) else ""
        if before.strip():
            first = " ".join("".join(words).split())[:60]
            problems.append(f"{where}:{line}{about}: a numbered list starts inside a paragraph, after "
                            f"{short(before.strip()[-40:], 40)}: a line of prose that begins with a "
                            f"number and a period? (its first item: {short(first)})")
    if md_text is not None:
        problems += code_problems(name, md_text, page)
    return problems


def tree_problems(site):
    """The tree view's files: each file an entry names for its children exists and defines the
    variable navtree.js looks up, a JavaScript name."""
    problems = []
    navtree = (site / "navtree.js").read_text(encoding="utf-8", errors="replace") \
        if (site / "navtree.js").is_file() else ""
    # Doxygen 1.18's navtree.js (and 1.9.4's after docs/fix_navtree.py) prefixes '_' to a name
    # that begins with a digit.
    digit_rule = re.search(r"/\^\[0-9\]/|>=\s*'0'", navtree) is not None
    for path in sorted(site.glob("*.js")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for ref in TREE_CHILDREN.findall(text) if TREE_FILE.search(text) else []:
            child = site / f"{ref}.js"
            if not child.is_file():
                problems.append(f"{path.name}: tree entry's children {ref!r}: no {child.name} in the site")
                continue
            m = TREE_FILE.search(child.read_text(encoding="utf-8", errors="replace"))
            looked_up = ref.split("/")[-1].replace("-", "_")
            if digit_rule and looked_up[:1].isdigit():
                looked_up = "_" + looked_up
            if m is None:
                problems.append(f"{child.name}: no 'var {looked_up} =' (tree entry in {path.name})")
            elif not JS_NAME.fullmatch(m.group("name")):
                problems.append(f"{child.name}: 'var {m.group('name')}' is no JavaScript name (a syntax "
                                "error: the tree view fails on its pages; docs/fix_navtree.py renames it)")
            elif m.group("name") != looked_up:
                problems.append(f"{child.name}: defines {m.group('name')!r}, but navtree.js looks up "
                                f"{looked_up!r}")
    return sorted(set(problems))


def markdown_pages(source):
    """{html file name: (Markdown path relative to source, its text)} of docs/pages.txt."""
    listing = (source / "docs" / "pages.txt").read_text(encoding="utf-8").split("\n")
    found = {}
    for rel in (line.strip() for line in listing):
        if rel and not rel.startswith("#"):
            html_name = ("index.html" if rel == "README.md"
                         else "md_" + rel.removesuffix(".md").replace("/", "_") + ".html")
            found[html_name] = (rel, (source / rel).read_text(encoding="utf-8"))
    return found


def main(argv=None):
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("site", type=pathlib.Path, help="the built site (build/docs/html)")
    args.add_argument("--source", type=pathlib.Path, default=ROOT,
                      help="the repository whose docs/pages.txt lists the Markdown pages (default: this one)")
    opts = args.parse_args(argv)
    site = opts.site.resolve()
    if not (site / "index.html").is_file():
        print(f"check_site: no {site / 'index.html'}; build the site first (target docs)")
        return 1

    pages, raws = {}, {}
    for path in sorted(site.rglob("*.html")):
        raws[path] = path.read_text(encoding="utf-8", errors="replace")
        pages[path] = parse(raws[path])
    # The tree view's entries, [ "title", "page.html#anchor", children ], in navtreedata.js and
    # the per-page files it loads (var name = [ ... ]); relative to the site's root.
    tree_links = []
    for path in sorted(site.glob("*.js")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if TREE_FILE.search(text):
            for m in re.finditer(r'\[ "(?:[^"\\]|\\.)*", "([^"]+)"', text):
                tree_links.append((path, "navtree", "href", m.group(1), 0))

    broken = []

    def check(page, tag, attr, value, line):
        if not value or value.lower().startswith(SKIP):
            return
        url = urllib.parse.urlsplit(value)
        if url.scheme or url.netloc:
            return
        where = f"{page.relative_to(site)}:{line}" if line else str(page.relative_to(site))
        target_path = urllib.parse.unquote(url.path)
        if target_path.endswith(".md"):
            broken.append(f"{where}: <{tag} {attr}=\"{value}\">: a Markdown link Doxygen did not resolve")
            return
        target = (page.parent / target_path).resolve() if target_path else page
        if site not in target.parents and target != site:
            broken.append(f"{where}: <{tag} {attr}=\"{value}\">: points outside the site")
            return
        if not target.is_file():
            broken.append(f"{where}: <{tag} {attr}=\"{value}\">: no such file in the site")
            return
        fragment = urllib.parse.unquote(url.fragment)
        if fragment and tag != "navtree" and target.suffix == ".html" and fragment not in pages[target].ids:
            broken.append(f"{where}: <{tag} {attr}=\"{value}\">: no id or name \"{fragment}\" "
                          f"in {target.relative_to(site)}")

    for page, parser in pages.items():
        for tag, attr, value, line in parser.links:
            check(page, tag, attr, value, line)
    # The site speaks about the project only: no path of the machine that built it.
    for page, raw in raws.items():
        if str(ROOT) + "/" in raw:
            broken.append(f"{page.relative_to(site)}: shows the build machine's path {ROOT}/ "
                          "(a STRIP_FROM_*PATH of docs/Doxyfile.in misses it)")
    for page, tag, attr, value, line in tree_links:
        check(page, tag, attr, value, line)
    broken += tree_problems(site)

    # The pages made from Markdown, against their source (the API pages are code: `char **argv`).
    sources = markdown_pages(opts.source.resolve())
    for html_name, (rel, _) in sources.items():
        if not (site / html_name).is_file():
            broken.append(f"{html_name}: no page in the site for {rel} (docs/pages.txt)")
    for page, parser in pages.items():
        if page.parent == site and (page.name in sources or page.name.startswith("md_")):
            name, md_text = sources.get(page.name, (None, None))
            broken += page_problems(page.name, parser, raws[page], name, md_text)

    for line in broken:
        print(line)
    n_links = sum(len(p.links) for p in pages.values()) + len(tree_links)
    n_code = sum(len(p.codes) + len(p.fragments) for path, p in pages.items() if path.name in sources)
    print(f"check_site: {len(pages)} pages, {n_links} links, {n_code} pieces of code in "
          f"{len(sources)} Markdown pages, {len(broken)} problems")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
