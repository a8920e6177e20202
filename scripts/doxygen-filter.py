#!/usr/bin/env python3
"""Doxygen INPUT_FILTER for clarray's headers: their comments are plain `//` lines directly above
the declaration they explain (the project's style), which Doxygen does not read. A run of `//`
lines that ends right above a declaration becomes `///`; comments inside bodies, file headers
followed by a blank line or an #include, and trailing comments stay as they are."""
import re
import sys

path = sys.argv[1]
with open(path, encoding="utf-8") as f:
    lines = f.read().split("\n")
if path.endswith(".hpp"):
    comment = re.compile(r"^(\s*)//(?!/)(.*)$")
    i = 0
    while i < len(lines):
        if not comment.match(lines[i]):
            i += 1
            continue
        j = i
        while j < len(lines) and comment.match(lines[j]):
            j += 1
        following = lines[j].strip() if j < len(lines) else ""
        if following and not following.startswith(("#", "}", "//")):
            for k in range(i, j):
                m = comment.match(lines[k])
                lines[k] = m.group(1) + "///" + m.group(2)
        i = j
sys.stdout.write("\n".join(lines))
