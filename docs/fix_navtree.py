#!/usr/bin/env python3
"""Make the site's tree view load on every page (the docs target runs this after Doxygen).

The tree view keeps the children of an entry in a file of their own, NAME.js, which holds
`var NAME = [ ... ];`; navtree.js loads the file and reads the variable back with
getData("NAME"). NAME is the page's file name. Doxygen 1.9.4 names the pages of the steps'
headers by their path, steps/05_shared/kernel.cuh -> 05__shared_2kernel_8cuh, and
`var 05__shared_2kernel_8cuh = [` is a JavaScript syntax error: the script does not load, and
getData then fails with "Invalid or unexpected token" on the page of every kernel.cuh and
exercise.cuh (and their source pages), whose tree entry cannot open.

Doxygen fixed it in 1.18 (commit 1844afe, "fix: HTML docs for files starting with a digit"):
such a variable is named with a leading `_`, and navtree.js adds the `_` when it looks the
name up. This script does the same to a 1.9.4 site: it renames each such variable and
patches getData in navtree.js. Where no name begins with a digit (a newer Doxygen) it changes
nothing. docs/check_site.py checks the result (every tree file's variable is a JavaScript
name, and the one navtree.js looks up).

    python3 docs/fix_navtree.py build/docs/html     exit 1 if navtree.js cannot be patched
"""
import pathlib
import re
import sys

TREE_FILE = re.compile(r"\Avar (?P<name>\S+) =\n\[")
# getData of Doxygen 1.9.4's navtree.js, and the same with the leading-digit rule added.
GET_DATA = "  return eval(n.replace(/\\-/g,'_'));\n"
GET_DATA_FIXED = ("  n = n.replace(/\\-/g,'_');\n"
                  "  return eval(/^[0-9]/.test(n) ? '_'+n : n);  // docs/fix_navtree.py\n")


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    site = pathlib.Path(sys.argv[1])
    renamed = 0
    for path in sorted(site.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        m = TREE_FILE.match(text)
        if m and m.group("name")[0].isdigit():
            path.write_text(f"var _{text[4:]}", encoding="utf-8")
            renamed += 1
    navtree = site / "navtree.js"
    text = navtree.read_text(encoding="utf-8") if navtree.is_file() else ""
    if GET_DATA in text:
        navtree.write_text(text.replace(GET_DATA, GET_DATA_FIXED), encoding="utf-8")
    elif renamed and GET_DATA_FIXED not in text:
        print(f"fix_navtree.py: {renamed} tree files renamed, but {navtree} has no getData of "
              "Doxygen 1.9.4 to patch: the tree view cannot load them", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
