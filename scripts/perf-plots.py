#!/usr/bin/env python3
"""Draws the charts of docs/performance.md from that page's own tables, so that the two never
disagree: in each section with a chart (a line `![...](perf/NAME.svg)`), the first table's
columns whose cells are ratios ("0.70×") become bars on a log scale around 1 (left of the line:
clarray faster; right: slower), one bar per row and ratio column.

Usage: scripts/perf-plots.py [--check | --self-test] [PAGE]
  --check      write nothing; exit 1 when a chart differs from what the tables give (CI).
  --self-test  in a temporary copy of the page: draw, change one ratio, and expect --check to
               fail (and to pass before the change).
No dependencies beyond Python 3: the SVG is written as text.
"""
import math
import os
import re
import sys

RATIO = re.compile(r"^(about )?([0-9]+(?:\.[0-9]+)?)×$")
IMAGE = re.compile(r"!\[[^\]]*\]\((perf/[A-Za-z0-9_-]+\.svg)\)")
COLOURS = ["#3b7dd8", "#d88a3b", "#5aa05a", "#9a5ad8"]  # one per ratio column
LO, HI = -3.0, 3.0  # log2 of the axis' ends: 1/8 to 8


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def sections(text):
    """(title, body) of every '## ' section."""
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return [(parts[i].strip(), parts[i + 1]) for i in range(1, len(parts), 2)]


def first_table(body):
    rows = [l for l in body.splitlines() if l.startswith("|")]
    if len(rows) < 3:
        return None, []
    return cells(rows[0]), [cells(r) for r in rows[2:]]


def ratio_of(cell):
    m = RATIO.match(cell.replace("**", ""))
    return float(m.group(2)) if m else None


def chart(title, header, rows):
    series = [j for j in range(len(header)) if any(ratio_of(r[j]) for r in rows if j < len(r))]
    labels = []
    for r in rows:
        # the first column, with the second where the first repeats (sizes, machines)
        label = r[0].replace("`", "")
        if sum(1 for o in rows if o[0] == r[0]) > 1 and 1 not in series:
            label += " (" + r[1] + ")"
        labels.append(label)
    bar, gap, left, width = 14, 8, 300, 420
    group = bar * len(series) + gap
    legend = 22 if len(series) > 1 else 0
    height = 40 + legend + group * len(rows) + 30
    x_of = lambda v: left + (min(max(math.log2(v), LO), HI) - LO) / (HI - LO) * width
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 60}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<text x="10" y="20" font-size="14" font-weight="bold">{esc(title)}</text>',
        f'<text x="{left}" y="34" fill="#555">clarray time / peer time (log scale; left of 1: '
        f"clarray faster)</text>",
    ]
    if len(series) > 1:
        for k, j in enumerate(series):
            lx = left + k * 200
            out.append(f'<rect x="{lx}" y="{42}" width="10" height="10" fill="{COLOURS[k]}"/>')
            out.append(f'<text x="{lx + 14}" y="{51}">{esc(header[j])}</text>')
    top = 40 + legend
    for i, r in enumerate(rows):
        y0 = top + i * group
        out.append(f'<text x="{left - 8}" y="{y0 + bar * len(series) / 2 + 4:.1f}" '
                   f'text-anchor="end">{esc(labels[i])}</text>')
        for k, j in enumerate(series):
            v = ratio_of(r[j]) if j < len(r) else None
            if v is None:
                continue
            x1, x0 = x_of(v), x_of(1.0)
            y = y0 + k * bar
            out.append(f'<rect x="{min(x0, x1):.1f}" y="{y}" width="{abs(x1 - x0):.1f}" '
                       f'height="{bar - 2}" fill="{COLOURS[k]}"/>')
            tx = max(x0, x1) + 4
            out.append(f'<text x="{tx:.1f}" y="{y + bar - 4}" font-size="10">{v:g}×</text>')
    axis_y = top + group * len(rows) + 4
    for e in range(int(LO), int(HI) + 1):
        x = x_of(2.0 ** e)
        colour = "#000" if e == 0 else "#ccc"
        out.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{axis_y}" '
                   f'stroke="{colour}"/>')
        out.append(f'<text x="{x:.1f}" y="{axis_y + 14}" text-anchor="middle" '
                   f'font-size="10">{2.0 ** e:g}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def default_page():
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "performance.md")


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def self_test(page):
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "performance.md")
        shutil.copy(page, copy)
        if main([copy]) != 0 or main(["--check", copy]) != 0:
            print("self-test: drawing a copy of the page failed", file=sys.stderr)
            return 1
        with open(copy, encoding="utf-8") as f:
            text = f.read()
        changed = re.sub(r"\| ([0-9.]+)× \|", "| 9.99× |", text, count=1)
        with open(copy, "w", encoding="utf-8") as f:
            f.write(changed)
        if changed == text or main(["--check", copy]) == 0:
            print("self-test: a changed ratio went unnoticed", file=sys.stderr)
            return 1
    print("self-test passed")
    return 0


def main(argv):
    if "--self-test" in argv:
        rest = [a for a in argv if a != "--self-test"]
        return self_test(rest[0] if rest else default_page())
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    page = args[0] if args else default_page()
    base = os.path.dirname(os.path.abspath(page))
    stale = []
    with open(page, encoding="utf-8") as f:
        text = f.read()
    for title, body in sections(text):
        image = IMAGE.search(body)
        if not image:
            continue
        header, rows = first_table(body)
        if not rows:
            stale.append(f"{image.group(1)}: no table in section '{title}'")
            continue
        svg = chart(title, header, rows)
        path = os.path.join(base, image.group(1))
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old == svg:
            continue
        if check:
            stale.append(f"{image.group(1)}: differs from the tables of '{title}'")
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(svg)
            print("wrote", os.path.relpath(path))
    for s in stale:
        print(s, file=sys.stderr)
    if stale:
        print("run scripts/perf-plots.py to redraw", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
