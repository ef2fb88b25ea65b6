#!/usr/bin/env python3
"""Check every link in the built Doxygen site (ctest: docs.site_links_work).

For each HTML page under SITE: every local href and src (and <object data>, where Doxygen
puts SVG images) must name a file inside the site, a #fragment must be an id or name in the
target page, no link may still end in .md (a Markdown link Doxygen did not resolve), and
every <img> must exist. The tree view's entries (navtreedata.js and the files it loads) must
name pages of the site; their #fragments are not checked (Doxygen 1.9.4 lists a namespace's
variables under each file with an anchor that only the namespace's page has; following one
opens the right file page, at the top).
Links to http(s):, mailto:, javascript: and data: are not followed. The text of the pages made
from Markdown (index.html, md_*.html), outside code, must not show `**` (bold that Doxygen
did not render).

    python3 docs/check_site.py build/docs/html     exit 1 and list the broken links, if any
"""
import html.parser
import pathlib
import re
import sys
import urllib.parse

SKIP = ("http:", "https:", "mailto:", "javascript:", "data:", "ftp:")
LINK_ATTRS = {"href", "src", "data"}


class Page(html.parser.HTMLParser):
    """Collects the links and the ids/names of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links = []  # (tag, attribute, value, line)
        self.ids = set()
        self.stars = []  # lines whose text (outside code) shows a Markdown **
        self.in_code = 0  # depth of <code>, <pre> and Doxygen's code blocks (div.fragment)
        self.divs = []  # for each open <div>: whether it is a code block

    def handle_starttag(self, tag, attrs):
        code = tag in ("code", "pre") or (tag == "div" and "fragment" in (dict(attrs).get("class") or ""))
        if tag == "div":
            self.divs.append(code)
        if code:
            self.in_code += 1
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
        if tag in ("code", "pre") or (tag == "div" and self.divs and self.divs[-1]):
            self.in_code = max(0, self.in_code - 1)
        if tag == "div" and self.divs:
            self.divs.pop()

    def handle_data(self, data):
        if "**" in data and not self.in_code:
            self.stars.append(self.getpos()[0])


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    site = pathlib.Path(sys.argv[1]).resolve()
    if not (site / "index.html").is_file():
        print(f"check_site: no {site / 'index.html'}; build the site first (target docs)")
        return 1

    pages = {}
    for path in sorted(site.rglob("*.html")):
        parser = Page()
        parser.feed(path.read_text(encoding="utf-8", errors="replace"))
        pages[path] = parser
    # The tree view's entries, [ "title", "page.html#anchor", children ], in navtreedata.js and
    # the per-page files it loads (var name = [ ... ]); relative to the site's root.
    tree_links = []
    for path in sorted(site.glob("*.js")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if re.match(r"var \w+ =\s*\n\[", text):
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
    for page, tag, attr, value, line in tree_links:
        check(page, tag, attr, value, line)
    for page, parser in pages.items():
        if page.name != "index.html" and not page.name.startswith("md_"):
            continue  # API pages: `char **argv` is code there
        for line in parser.stars:
            broken.append(f"{page.relative_to(site)}:{line}: '**' in the text: bold Doxygen did not render")

    for line in broken:
        print(line)
    n_links = sum(len(p.links) for p in pages.values()) + len(tree_links)
    print(f"check_site: {len(pages)} pages, {n_links} links, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
