#!/usr/bin/env python3
"""Writes docs/internals/performance.md (and docs/internals/perf_*.png) from the CSV files of
bench_suite and py_bench.py. Only what the CSV files hold is printed: medians of the samples, GB/s from the
bytes each row declares, and ratios of medians.

    report.py --out docs/internals/performance.md --section "LABEL" suite.csv [py.csv ...] \
              [--section "LABEL2" ...] [--note "text"] [--plots docs]

Each section is one machine/device run: the first CSV is bench_suite's, the rest (PyOpenCL,
CuPy) are joined to it by (op, N).
"""
import argparse
import collections
import os
import statistics
import sys

OPS = [
    ("add", "c = a + b"),
    ("iadd", "a += b"),
    ("axpy", "z = 2x + y"),
    ("fused", "d = a*b + c*sin(e)"),
    ("strided", "c[::2] = a[::2] + b[::2] (N/2 elements touched)"),
    ("transpose_add", "C = A.T + B, s x s with s = floor(sqrt(N))"),
    ("copy", "device-to-device copy"),
    ("sum", "sum(a)"),
    ("dot", "dot(a, b)"),
    ("rowsum", "sum over axis 1 of an s x s matrix"),
    ("colsum", "sum over axis 0 of an s x s matrix"),
    ("cmul_add", "complex64 c = a*b + d"),
    ("cabs_sum", "complex64 sum(abs(a))"),
    ("add_f16", "float16 c = a + b (the *_f32 rows: the float32 add)"),
    ("take", "c = a[idx], idx a permutation"),
    ("put", "a[idx] = v"),
    ("hist", "add_at of N ones into 256 int32 bins"),
    ("tune_add", "tuning: c = a + b, raw kernel shapes"),
    ("tune_fused", "tuning: d = a*b + c*sin(e), raw kernel shapes"),
]
ELEMENTWISE = ["add", "iadd", "axpy", "fused", "strided", "transpose_add", "copy"]
REDUCTIONS = ["sum", "dot", "rowsum", "colsum"]
ORDER = ["clarray", "clarray_buffer", "clarray_wrap", "clarray_f32", "raw", "raw_event",
         "raw_half4", "openmp", "svm_memcpy", "copy_buffer", "pyopencl", "pyopencl_f32",
         "pyopencl_rawknl", "cupy", "cupy_f32", "cupy_bincount", "cupy_rawknl"]
DESCR = {
    "clarray": "clarray expression (generated kernel) / library call",
    "clarray_buffer": "the same clarray code on cl_array<float, buffer> (cl_mem storage)",
    "raw": "hand-written OpenCL C kernel, C API launch, same SVM arrays",
    "raw_event": "the raw add kernel launched with an event requested and released",
    "raw_half4": "add_f16's raw half kernel, 4 elements per work-item (vload_half4/vstore_half4_rte)",
    "openmp": "OpenMP host loop (`parallel for simd`) on host vectors",
    "svm_memcpy": "clEnqueueSVMMemcpy",
    "copy_buffer": "clEnqueueCopyBuffer (cl_mem)",
    "pyopencl": "pyopencl.array (Buffer + MemoryPool), separate process",
    "pyopencl_rawknl": "the raw add kernel launched from PyOpenCL (in-process reference)",
    "cupy": "CuPy arrays, separate process",
    "cupy_rawknl": "a raw CUDA add kernel from CuPy (in-process reference)",
    "clarray_wrap": "take / put with index_mode::wrap (no bounds check to read back)",
    "clarray_f32": "add_f16's float32 add beside it (same bytes counted)",
    "pyopencl_f32": "add_f16's float32 add in PyOpenCL",
    "cupy_f32": "add_f16's float32 add in CuPy",
    "cupy_bincount": "hist as cupy.bincount(idx, minlength=256) (a new array of counts)",
}


def fmt_n(n):
    n = int(n)
    for v, s in ((16000000, "1.6e7"), (1000000, "1e6"), (100000, "1e5"), (1000, "1e3")):
        if n == v:
            return s
    return "%g" % n


def fmt_t(t):
    if t < 1e-3:
        return "%.1f µs" % (t * 1e6) if t < 1e-4 else "%.0f µs" % (t * 1e6)
    if t < 1:
        return "%.2f ms" % (t * 1e3)
    return "%.2f s" % t


def fmt_r(r):
    return "%.2f×" % r if r < 10 else "%.0f×" % r


class Run:
    def __init__(self, label, files):
        self.label = label
        self.meta = collections.OrderedDict()
        self.py_meta = {}
        self.samples = collections.defaultdict(list)  # (op, impl, n) -> [s]
        self.bytes = {}
        self.elements = {}
        self.skips = []
        for k, path in enumerate(files):
            if not os.path.exists(path):
                continue
            for line in open(path):
                line = line.rstrip("\n")
                if line.startswith("# skip: "):
                    self.skips.append(line[len("# skip: "):].split("|", 3))
                    continue
                if line.startswith("# "):
                    key, _, val = line[2:].partition(": ")
                    if k == 0:
                        self.meta[key] = val
                    else:
                        self.py_meta.setdefault(os.path.basename(path), {})[key] = val
                    continue
                if line.startswith("op,") or not line:
                    continue
                op, impl, n, el, nb, _inner, _rep, sec = line.split(",")
                key = (op, impl, int(n))
                self.samples[key].append(float(sec))
                self.bytes[key] = float(nb)
                self.elements[key] = int(el)

    def med(self, op, impl, n):
        v = self.samples.get((op, impl, n))
        return statistics.median(v) if v else None

    def quartiles(self, op, impl, n):
        v = sorted(self.samples.get((op, impl, n), []))
        if not v:
            return None
        return v[len(v) // 4], v[(3 * len(v)) // 4]

    def impls(self, op):
        found = {k[1] for k in self.samples if k[0] == op}
        known = [i for i in ORDER if i in found]

        def shape_key(name):  # raw_4pwi_L128 -> (4, 128)
            try:
                per, loc = name[4:].split("pwi_L")
                return (int(per), int(loc), name)
            except ValueError:
                return (99, 0, name)
        return known + sorted(found - set(known), key=shape_key)

    def sizes(self, op=None):
        return sorted({k[2] for k in self.samples if op is None or k[0] == op})


def op_table(run, op, lines):
    impls = run.impls(op)
    sizes = run.sizes(op)
    if not impls:
        return
    ref_py = "pyopencl" if "pyopencl" in impls else ("cupy" if "cupy" in impls else None)
    lines.append("| implementation | " + " | ".join("N=" + fmt_n(n) for n in sizes) + " |")
    lines.append("|---|" + "---|" * len(sizes))
    for impl in impls:
        cells = []
        for n in sizes:
            t = run.med(op, impl, n)
            if t is None:
                cells.append("–")
                continue
            gbs = run.bytes[(op, impl, n)] / t * 1e-9
            cell = "%s · %.1f GB/s" % (fmt_t(t), gbs) if gbs >= 0.1 else "%s · %.3f GB/s" % (
                fmt_t(t), gbs)
            extras = []
            tr = run.med(op, "raw", n)
            if tr is not None and impl != "raw":
                extras.append("%s raw" % fmt_r(tr / t))
            tp = run.med(op, ref_py, n) if ref_py else None
            if tp is not None and impl != ref_py:
                extras.append("%s %s" % (fmt_r(tp / t), ref_py))
            if extras:
                cell += "<br>" + ", ".join(extras)
            cells.append(cell)
        lines.append("| %s | %s |" % (impl, " | ".join(cells)))
    lines.append("")


def tune_table(run, op, lines):
    impls = run.impls(op)
    sizes = run.sizes(op)
    if not impls:
        return
    lines.append("| kernel shape | " + " | ".join("N=" + fmt_n(n) for n in sizes) + " |")
    lines.append("|---|" + "---|" * len(sizes))
    for impl in impls:
        label = impl
        if impl == "raw":
            label = "raw 1 elem/work-item, local 256 (the generated kernel's shape)"
        elif impl.startswith("raw_"):
            per, loc = impl[4:].split("pwi_L")
            label = "raw %s elem/work-item%s, local %s" % (
                per, " (float%s vload/vstore)" % per if per != "1" else "", loc)
        elif impl == "clarray":
            label = "clarray generated kernel (1 elem/work-item, local 256)"
        cells = []
        for n in sizes:
            t = run.med(op, impl, n)
            tr = run.med(op, "raw", n)
            if t is None:
                cells.append("–")
                continue
            gbs = run.bytes[(op, impl, n)] / t * 1e-9
            cells.append("%s · %.1f GB/s · %s" % (fmt_t(t), gbs,
                                                  fmt_r(tr / t) if tr else "–"))
        lines.append("| %s | %s |" % (label, " | ".join(cells)))
    lines.append("")


def plots(run, outdir, tag, lines):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        lines.append("_Plots skipped: matplotlib is not available (%s)._\n" % e)
        print("report: plots skipped, matplotlib not available", file=sys.stderr)
        return
    made = []
    for name, group in (("elementwise", ELEMENTWISE), ("reductions", REDUCTIONS)):
        ops = [op for op in group if run.impls(op)]
        if not ops:
            continue
        cols = 4 if len(ops) > 4 else len(ops)
        rows = (len(ops) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows), squeeze=False)
        for ax, op in zip(axes.flat, ops):
            for impl in run.impls(op):
                xs, ys, lo, hi = [], [], [], []
                for n in run.sizes(op):
                    t = run.med(op, impl, n)
                    if t is None:
                        continue
                    b = run.bytes[(op, impl, n)]
                    q1, q3 = run.quartiles(op, impl, n)
                    xs.append(n)
                    ys.append(b / t * 1e-9)
                    lo.append(b / t * 1e-9 - b / q3 * 1e-9)
                    hi.append(b / q1 * 1e-9 - b / t * 1e-9)
                ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=2, label=impl)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(op)
            ax.set_xlabel("N")
            ax.set_ylabel("GB/s (median, IQR)")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
        for ax in list(axes.flat)[len(ops):]:
            ax.axis("off")
        fig.suptitle("%s: %s" % (run.label, run.meta.get("device", "")), fontsize=10)
        fig.tight_layout()
        fn = "perf_%s_%s.png" % (tag, name)
        fig.savefig(os.path.join(outdir, fn), dpi=90)
        plt.close(fig)
        made.append(fn)
    tune_ops = [op for op in ("tune_add", "tune_fused") if run.impls(op)]
    if tune_ops:
        fig, axes = plt.subplots(1, len(tune_ops), figsize=(7 * len(tune_ops), 4.5),
                                 squeeze=False)
        for ax, op in zip(axes.flat, tune_ops):
            impls = run.impls(op)
            sizes = run.sizes(op)
            w = 0.8 / max(1, len(sizes))
            for j, n in enumerate(sizes):
                ys = [run.bytes[(op, i, n)] / run.med(op, i, n) * 1e-9
                      if run.med(op, i, n) else 0 for i in impls]
                ax.bar([k + j * w for k in range(len(impls))], ys, width=w,
                       label="N=" + fmt_n(n))
            ax.set_xticks([k + w * (len(sizes) - 1) / 2 for k in range(len(impls))])
            ax.set_xticklabels(impls, rotation=60, ha="right", fontsize=7)
            ax.set_ylabel("GB/s (median)")
            ax.set_title(op)
            ax.legend(fontsize=8)
            ax.grid(True, axis="y", alpha=0.3)
        fig.tight_layout()
        fn = "perf_%s_tuning.png" % tag
        fig.savefig(os.path.join(outdir, fn), dpi=90)
        plt.close(fig)
        made.append(fn)
    for fn in made:
        lines.append("![%s](%s)\n" % (fn, fn))


def section(run, lines, plotdir, tag):
    m = run.meta
    lines.append("## %s\n" % run.label)
    lines.append("| | |")
    lines.append("|---|---|")
    for key in ("date", "device", "platform", "device_version", "driver_version", "device_type",
                "compute_units", "host_cpu", "omp_threads", "reps", "clarray_reductions",
                "raw_reductions", "load_before", "load_after", "machine"):
        if key in m:
            lines.append("| %s | %s |" % (key, m[key]))
    for fn, pm in run.py_meta.items():
        lines.append("| %s | %s (run %s) |" % (fn, pm.get("library", "?"), pm.get("date", "?")))
    lines.append("")
    # Copy bandwidth line.
    big = max(run.sizes("copy") or [0])
    if big:
        parts = []
        for impl in run.impls("copy"):
            t = run.med("copy", impl, big)
            if t:
                parts.append("%s %.1f GB/s" % (impl, run.bytes[("copy", impl, big)] / t * 1e-9))
        lines.append("**Device-to-device copy bandwidth, N=%s floats (read + write counted):** %s."
                     % (fmt_n(big), ", ".join(parts)))
        # The reference: the fastest of the runtime's copy commands and the raw copy kernel.
        rates = [run.bytes[("copy", i, big)] / run.med("copy", i, big) * 1e-9
                 for i in ("svm_memcpy", "copy_buffer", "raw") if run.med("copy", i, big)]
        if rates:
            bw = max(rates)
            fr = []
            for op in ("add", "iadd", "axpy", "fused", "sum", "dot", "rowsum", "colsum"):
                for impl in ("clarray", "clarray_buffer", "raw"):
                    t = run.med(op, impl, big)
                    if t:
                        fr.append("%s/%s %.0f%%" % (op, impl,
                                                   100 * run.bytes[(op, impl, big)] / t * 1e-9 / bw))
            if fr:
                lines.append(" GB/s at N=%s as a fraction of the fastest copy (%.0f GB/s: best of "
                             "svm_memcpy, copy_buffer, raw): %s." % (fmt_n(big), bw, ", ".join(fr)))
        lines.append("")
    for op, title in OPS:
        if not run.impls(op):
            continue
        lines.append("### %s: `%s`\n" % (op, title))
        if op.startswith("tune_"):
            lines.append("Cell: median time · GB/s · throughput relative to the generated "
                         "kernel's shape (raw, 1 element/work-item, local 256).\n")
            tune_table(run, op, lines)
        else:
            op_table(run, op, lines)
        sk = [s for s in run.skips if s[0] == op]
        if sk:
            seen = collections.OrderedDict()
            for s in sk:
                seen.setdefault((s[1], s[3]), []).append(fmt_n(s[2]))
            for (impl, why), ns in seen.items():
                lines.append("* not in the table: **%s** at N=%s: %s" % (impl, ", ".join(ns), why))
            lines.append("")
    if plotdir:
        plots(run, plotdir, tag, lines)


# ---------------------------------------------------------------- workload benchmark
WORKLOADS = [
    ("heat_inplace", "u(in,in) = u(in,in) + a*(u(r0,in) + u(r2,in) + u(in,r0) + u(in,r2) - "
                     "4*u(in,in))"),
    ("heat_pingpong", "v(in,in) = <the same of u>; the grids change roles"),
    ("softmax", "m = max(x,{1},true); e = exp(x - m); s = sum(e,{1},true); y = e / s"),
    ("kmeans_assign", "d = p(all,newaxis,all) - c(newaxis,all,all); "
                      "lab = argmin(sum(d*d,{2}),1); 16 centres"),
    ("standardise", "(x - mean(x,{0},true)) / stddev(x,{0},true)"),
    ("layernorm", "(x - mean(x,{1},true)) / sqrt(var(x,{1},true) + eps) * gamma + beta"),
    ("outer", "c = a(all,newaxis) * b(newaxis,all)"),
    ("where_scale", "x = where(x > t, x * s, x)"),
]
PAIRS = [
    ("pair_exp_bcast", "bcast", "plain",
     "`e = exp(x - m)`, m = max(x,{1},true) broadcast, vs `e = exp(x)`, into the same e"),
    ("pair_view_assign", "copy", "times_one",
     "`u(in,in) = t` (array copy-assignment) vs `u(in,in) = t * 1.0f`"),
    ("pair_heat", "inplace", "pingpong", "heat step in place vs ping-pong"),
    ("pair_axis4_sum", "reduce_axis", "written_out",
     "`sum(d*d,{2})` over the axis of length 4 vs `d0*d0 + d1*d1 + d2*d2 + d3*d3`, "
     "di = p(all,newaxis,i) - c(newaxis,all,i)"),
]
SIDES = ["clarray", "numpy", "cupy"]
PAIR_LIMIT = 1.25


class WorkloadRun:
    """bench_workloads' CSV plus py_workloads.py's CSVs of one machine."""

    def __init__(self, label, files):
        self.label = label
        self.meta = []  # (file, OrderedDict)
        self.samples = collections.defaultdict(list)  # (op, impl) -> [s]
        self.shapes = {}
        self.skips = []
        for path in files:
            if not os.path.exists(path):
                continue
            meta = collections.OrderedDict()
            for line in open(path):
                line = line.rstrip("\n")
                if line.startswith("# skip: "):
                    self.skips.append(line[len("# skip: "):].split("|", 3))
                elif line.startswith("# shape: "):
                    op, _, shape = line[len("# shape: "):].partition("|")
                    self.shapes[op] = shape
                elif line.startswith("# "):
                    key, _, val = line[2:].partition(": ")
                    meta[key] = val
                elif line and not line.startswith("op,"):
                    op, impl, _n, _el, _nb, _inner, _rep, sec = line.split(",")
                    self.samples[(op, impl)].append(float(sec))
            self.meta.append((os.path.basename(path), meta))

    def med(self, op, impl):
        v = self.samples.get((op, impl))
        return statistics.median(v) if v else None

    def sides(self):
        found = {impl for (op, impl) in self.samples if not op.startswith("pair_")}
        return [s for s in SIDES if s in found]


def workload_section(run, lines, plotdir, tag):
    lines.append("## Workloads: %s\n" % run.label)
    # One row per library: rounds (files) of one library pool their samples.
    groups = collections.OrderedDict()
    for fn, m in run.meta:
        key = (m.get("library", "?"), m.get("device", "?"), m.get("preset", "?"))
        groups.setdefault(key, []).append(m)
    lines.append("| library | device | preset | runs | repeats (total) | dates |")
    lines.append("|---|---|---|---|---|---|")
    for (lib, dev, preset), ms in groups.items():
        dates = sorted(m.get("date", "?") for m in ms)
        reps = sum(int(m.get("reps", "0")) for m in ms)
        lines.append("| %s | %s | %s | %d | %d | %s |" % (
            lib, dev, preset, len(ms), reps,
            dates[0] if len(dates) == 1 else "%s to %s" % (dates[0], dates[-1])))
    lines.append("")
    sides = run.sides()
    others = [s for s in sides if s != "clarray"]
    head = ["workload", "shape"] + ["%s (time/step)" % s for s in sides]
    head += ["clarray / %s" % ("NumPy" if o == "numpy" else "CuPy") for o in others
             if "clarray" in sides]
    lines.append("Cells: median time per step; `clarray / X` = t(clarray) / t(X), so < 1 means "
                 "clarray is faster.\n")
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    ops = [op for op, _ in WORKLOADS if any((op, s) in run.samples for s in sides)]
    for op in ops:
        cells = [op, run.shapes.get(op, "?")]
        for s in sides:
            t = run.med(op, s)
            cells.append(fmt_t(t) if t else "–")
        tc = run.med(op, "clarray")
        for o in others:
            if "clarray" not in sides:
                break
            to = run.med(op, o)
            cells.append(fmt_r(tc / to) if tc and to else "–")
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for op, spelling in WORKLOADS:
        if op in ops:
            lines.append("* **%s**: `%s`" % (op, spelling))
    lines.append("")
    pairs = [pr for pr in PAIRS if run.med(pr[0], pr[1]) or run.med(pr[0], pr[2])]
    if pairs:
        lines.append("**Spelling pairs** (clarray; two spellings of the same work, interleaved; "
                     "their times should be within %.2f× of each other):\n" % PAIR_LIMIT)
        lines.append("| pair | shape | first | time | second | time | second / first | "
                     "within %.2f× |" % PAIR_LIMIT)
        lines.append("|---|---|---|---|---|---|---|---|")
        for op, a, b, _ in pairs:
            ta, tb = run.med(op, a), run.med(op, b)
            ratio = tb / ta if ta and tb else None
            ok = "–" if ratio is None else (
                "yes" if max(ratio, 1 / ratio) <= PAIR_LIMIT else "**no**")
            lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                op, run.shapes.get(op, "?"), a, fmt_t(ta) if ta else "–", b,
                fmt_t(tb) if tb else "–", "%.2f" % ratio if ratio else "–", ok))
        lines.append("")
        for op, a, b, text in pairs:
            lines.append("* **%s**: %s" % (op, text))
        lines.append("")
    if run.skips:
        for s in run.skips:
            lines.append("* not in the table: **%s** (%s) at %s elements: %s" % tuple(s))
        lines.append("")
    if plotdir and ops:
        workload_plot(run, ops, sides, plotdir, tag, lines)


def workload_plot(run, ops, sides, outdir, tag, lines):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        lines.append("_Plot skipped: matplotlib is not available (%s)._\n" % e)
        return
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(ops) + 2), 4.2))
    w = 0.8 / max(1, len(sides))
    for j, s in enumerate(sides):
        xs = [k + j * w for k in range(len(ops))]
        ys = [(run.med(op, s) or 0) * 1e3 for op in ops]
        bars = ax.bar(xs, ys, width=w, label=s)
        tc = [run.med(op, "clarray") for op in ops]
        if s != "clarray":  # the clarray / s time ratio above each bar of the other side
            for bar, op, c in zip(bars, ops, tc):
                t = run.med(op, s)
                if t and c:
                    ax.annotate("%.2f" % (c / t), (bar.get_x() + bar.get_width() / 2,
                                                   bar.get_height()),
                                ha="center", va="bottom", fontsize=6)
    ax.set_xticks([k + w * (len(sides) - 1) / 2 for k in range(len(ops))])
    ax.set_xticklabels(["%s\n%s" % (op, run.shapes.get(op, "")) for op in ops], fontsize=7,
                       rotation=30, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("ms per step (median)")
    ax.set_title("%s\n(numbers: t(clarray) / t(side))" % run.label, fontsize=9)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fn = "perf_%s_workloads.png" % tag
    fig.savefig(os.path.join(outdir, fn), dpi=90)
    plt.close(fig)
    lines.append("![%s](%s)\n" % (fn, fn))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="docs/internals/performance.md")
    ap.add_argument("--section", nargs="+", action="append", required=True,
                    metavar=("LABEL", "CSV"))
    ap.add_argument("--workloads", nargs="+", action="append", default=[],
                    metavar=("LABEL", "CSV"),
                    help="bench_workloads CSV, then py_workloads CSVs of the same machine")
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("--startup", action="append", default=[],
                    help="Markdown section(s) of scripts/measure-startup.sh, added as written")
    ap.add_argument("--plots", default="docs/internals", help="folder for the PNGs ('' for none)")
    args = ap.parse_args()
    lines = ["# Performance\n",
             "Generated by `bench/report.py` from the CSV files that `scripts/run-bench.sh` "
             "writes; every number below is a measurement from the run(s) described in each "
             "section. Regenerate with `scripts/run-bench.sh`; on the GPU machine "
             "`scripts/device-run.sh bench` (see bench/README.md).\n",
             "**Method.** For each (op, N) every implementation is warmed up and checked against "
             "a host result (a wrong result is excluded and listed). Then R repeats run every "
             "implementation once each, in an order rotated per repeat (interleaved). One sample "
             "is the mean of `inner` back-to-back calls, each of which enqueues the op and waits "
             "for it (`clFinish` / `queue.finish()` / device synchronize), `inner` chosen so that "
             "a sample lasts about 2 ms. Cells show the **median** sample · GB/s counting bytes "
             "read + written per element (add/iadd/axpy/transpose 12 B, fused 20 B, strided 12 B "
             "per touched element, copy 8 B, sum 4 B, dot 8 B, axis sums 4 B + output, "
             "cmul_add 32 B, cabs_sum 8 B, add_f16 6 B, take/put 12 B, hist 4 B) · "
             "throughput ratios of medians: `x raw` = t(raw) / t(this), so > 1 means faster than "
             "the hand-written kernel; `x pyopencl` = t(pyopencl) / t(this). clarray, raw and "
             "OpenMP are interleaved in one process; PyOpenCL (and CuPy) run in a second process "
             "on the same device right after, with the same scheme, so ratios against them are "
             "across processes.\n",
             "Small N (1e3, 1e5) cells are per-call latency (enqueue + wait) and on the 2-vCPU "
             "VM depend on thread wake-up latency; "
             "large N cells are bandwidth.\n"]
    for note in args.note:
        lines.append("**Note.** %s\n" % note)
    for k, sec in enumerate(args.section):
        label, files = sec[0], sec[1:]
        run = Run(label, files)
        if not run.samples:
            lines.append("## %s\n\n_No results (missing %s)._\n" % (label, ", ".join(files)))
            continue
        section(run, lines, args.plots, "run%d" % (k + 1) if k else "host")
    if args.workloads:
        lines.append("# Workloads\n")
        lines.append("Whole small programs in their natural spelling (`bench/bench_workloads.cpp`"
                     " for clarray, `bench/py_workloads.py` for NumPy and CuPy), float32, one "
                     "step = the work then the queue drained (`q.finish()` / CuPy synchronize). "
                     "Results of expressions are new arrays each step, as a user writes them. "
                     "Every result is checked against a host reference before timing (a wrong "
                     "one is excluded and listed). R repeats run every workload once each in a "
                     "rotating order; one sample is the mean of enough steps to last ~2 ms; "
                     "cells are medians. NumPy runs on one host thread. Each library runs in "
                     "its own process; on the host `scripts/run-bench.sh` alternates clarray and "
                     "NumPy processes over several rounds (`WL_ROUNDS`) and the samples of the "
                     "rounds are pooled, so that the machine's load falls on both sides alike.\n")
    for k, sec in enumerate(args.workloads):
        wrun = WorkloadRun(sec[0], sec[1:])
        if not wrun.samples:
            lines.append("## Workloads: %s\n\n_No results (missing %s)._\n" % (
                sec[0], ", ".join(sec[1:])))
            continue
        workload_section(wrun, lines, args.plots, "run%d" % (k + 1) if k else "host")
    lines.append("## Implementations\n")
    for impl in ORDER:
        lines.append("* **%s**: %s" % (impl, DESCR[impl]))
    lines.append("* **raw_Xpwi_LY** (tuning tables): a raw kernel with X elements per work-item "
                 "(X = 4, 8: floatX vloadX/vstoreX, scalar tail) and local size Y.")
    lines.append("")
    for path in args.startup:
        with open(path) as f:
            lines.append(f.read().rstrip("\n") + "\n")
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("report: wrote %s" % args.out)


if __name__ == "__main__":
    main()
