#!/usr/bin/env python3
"""Medians of scripts/bench-compare.sh's runs: per benchmark row (suite: op and size; workloads:
workload and size), the clarray median of each state over all its rounds and repeats, and the
ratio of each later state to "base" (below 1: faster than before). Prints Markdown tables."""
import csv
import glob
import os
import statistics
import sys
from collections import defaultdict


def medians(directory, kind):
    """{state: {(op, n): median seconds}} over every round of the state."""
    values = defaultdict(lambda: defaultdict(list))
    for path in glob.glob(os.path.join(directory, kind + "_*.csv")):
        state = os.path.basename(path)[len(kind) + 1:].rsplit("_", 1)[0]
        with open(path) as f:
            rows = csv.DictReader(line for line in f if not line.startswith("#"))
            for row in rows:
                if row["impl"] != "clarray":
                    continue
                values[state][(row["op"], int(float(row["n"])))].append(float(row["seconds"]))
    return {s: {k: statistics.median(v) for k, v in d.items()} for s, d in values.items()}


def table(title, med):
    if "base" not in med:
        return
    states = ["base"] + sorted(s for s in med if s != "base")
    print(f"\n### {title}\n")
    head = "| op | n | " + " | ".join(f"{s} (us)" for s in states)
    head += "".join(f" | {s}/base" for s in states[1:]) + " |"
    print(head)
    print("|" + "---|" * (2 + len(states) + len(states) - 1))
    ratios = defaultdict(list)
    for key in sorted(med["base"]):
        cells = [f"{med[s][key] * 1e6:.1f}" if key in med[s] else "-" for s in states]
        rs = []
        for s in states[1:]:
            if key in med[s]:
                r = med[s][key] / med["base"][key]
                ratios[s].append(r)
                rs.append(f"{r:.3f}")
            else:
                rs.append("-")
        print(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " | " + " | ".join(rs) + " |")
    for s, rs in ratios.items():
        print(f"\n{s}/base over {len(rs)} rows: geometric mean "
              f"{statistics.geometric_mean(rs):.3f}, min {min(rs):.3f}, max {max(rs):.3f}")


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else "build-compare"
    table("Single operations (bench_suite, clarray rows)", medians(directory, "suite"))
    table("Workloads (bench_workloads)", medians(directory, "workloads"))


if __name__ == "__main__":
    main()
