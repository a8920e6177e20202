#!/usr/bin/env python3
"""NumPy (host) or CuPy (GPU) side of bench_workloads.cpp: the same workloads at the same sizes,
written the way a NumPy user writes them, timed with the same scheme (warm-up and check, then R
repeats that run every workload once each in a rotating order; one sample = mean of `inner`
steps, each ending with the device synchronised). Writes the same CSV columns as
bench_workloads.

    py_workloads.py --backend numpy|cupy [--preset pocl|gpu] [--reps R] [--ops a,b] [--out f.csv]

NumPy runs on one thread: OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and MKL_NUM_THREADS default to
1, set before numpy is imported (these workloads call no BLAS; the setting keeps it that way).
Each result is checked against a float64 NumPy computation on the host from the same inputs.
Exits 3 (after a message) when the backend cannot be imported, so scripts can skip it.
"""
import argparse
import datetime
import os
import platform
import sys
import time

# One host thread for NumPy, set before numpy is imported (its BLAS reads these at import).
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

try:
    import numpy as np  # both backends: host inputs and references
except ImportError as numpy_missing:
    np = None
    NUMPY_ERROR = numpy_missing

# Keep in step with the preset table in bench/bench_workloads.cpp.
PRESETS = {
    "pocl": dict(heat=1024, soft=(512, 4096), kmeans=262144, std=(4096, 1024),
                 ln=(4096, 1024), outer=2048, where=1 << 22),
    "gpu": dict(heat=4096, soft=(8192, 4096), kmeans=1 << 22, std=(16384, 4096),
                ln=(16384, 4096), outer=8192, where=1 << 26),
}
CENTRES, DIMS = 16, 4
HEAT_A, LN_EPS, WHERE_T, WHERE_S = 0.2, 1e-5, 1.0, 0.5


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


class Backend:
    """Array namespace, host transfer and synchronisation for one library."""


def make_numpy():
    b = Backend()
    b.name = "numpy"
    b.xp = np
    b.meta = {"device": cpu_model() + " (host, 1 thread)", "platform": "host",
              "library": "numpy %s" % np.__version__}
    b.to_dev = lambda h: h.copy()
    b.get = lambda x: x
    b.sync = lambda: None
    return b


def make_cupy():
    import cupy as cp
    b = Backend()
    b.name = "cupy"
    b.xp = cp
    props = cp.cuda.runtime.getDeviceProperties(0)
    name = props["name"]
    b.meta = {"device": name.decode() if isinstance(name, bytes) else name, "platform": "CUDA",
              "device_version": "cc %d.%d" % (props["major"], props["minor"]),
              "driver_version": str(cp.cuda.runtime.driverGetVersion()),
              "library": "cupy %s" % cp.__version__}
    b.to_dev = cp.asarray
    b.get = cp.asnumpy
    b.sync = cp.cuda.Device().synchronize
    return b


# ---------------------------------------------------------------- input patterns (as the C++)
def grid(rows, cols):
    return np.arange(rows, dtype=np.int64)[:, None], np.arange(cols, dtype=np.int64)[None, :]


def f32(k, scale, shift):
    return k.astype(np.float32) * np.float32(scale) + np.float32(shift)


def heat_init(n):
    i, j = grid(n, n)
    return f32((i * 7 + j * 13) % 31, 0.1, 0.0)


def softmax_init(rows, cols):
    r, c = grid(rows, cols)
    return f32((r * 3 + c * 7) % 41, 0.25, -5.0)


def points_init(n):
    i, k = grid(n, DIMS)
    return f32((i * (k + 3) + k) % 17, 0.25, -2.0)


def centres_init():
    j, k = grid(CENTRES, DIMS)
    return f32((j * 5 + k * 3) % 11, 0.5, -2.5)


def standardise_init(rows, cols):
    r, c = grid(rows, cols)
    return (f32((r * 5 + c * 3) % 37, 0.5, 0.0) + (c % 7).astype(np.float32))


def layernorm_init(rows, cols):
    r, c = grid(rows, cols)
    return f32((r * 11 + c * 5) % 43, 0.2, -4.0)


def pattern(n, mod, scale, shift):
    return f32(np.arange(n, dtype=np.int64) % mod, scale, shift)


def heat_reference(u):
    w = u.astype(np.float64)
    out = w.copy()
    out[1:-1, 1:-1] = w[1:-1, 1:-1] + HEAT_A * (w[:-2, 1:-1] + w[2:, 1:-1] + w[1:-1, :-2] +
                                                 w[1:-1, 2:] - 4 * w[1:-1, 1:-1])
    return out


def close(got, want, tol):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    bad = ~(np.abs(got - want) <= tol * (1.0 + np.abs(want)))
    if not bad.any():
        return ""
    first = int(np.flatnonzero(bad)[0])
    return "%d of %d elements wrong, first at %d: %g, expected %g" % (
        int(bad.sum()), bad.size, first, got.flat[first], want.flat[first])


# ---------------------------------------------------------------- workloads
class Workload:
    def __init__(self, op, shape, elements, nbytes, step, check, reset=None):
        self.op, self.shape, self.elements, self.bytes = op, shape, elements, nbytes
        self.step, self.check, self.reset = step, check, reset


def make_heat_inplace(be, P):
    sync = be.sync
    n = P["heat"]
    u0 = heat_init(n)
    st = {"u": be.to_dev(u0)}

    def step():
        u = st["u"]
        u[1:-1, 1:-1] = u[1:-1, 1:-1] + HEAT_A * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                                  u[1:-1, 2:] - 4 * u[1:-1, 1:-1])
        sync()

    def reset():
        st["u"] = be.to_dev(u0)

    return Workload("heat_inplace", "%dx%d" % (n, n), n * n, 8.0 * n * n, step,
                    lambda: close(be.get(st["u"]), heat_reference(u0), 1e-6),
                    reset)


def make_heat_pingpong(be, P):
    sync = be.sync
    n = P["heat"]
    u0 = heat_init(n)
    st = {}

    def reset():
        st["u"], st["v"] = be.to_dev(u0), be.to_dev(u0)

    reset()

    def step():
        u, v = st["u"], st["v"]
        v[1:-1, 1:-1] = u[1:-1, 1:-1] + HEAT_A * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                                  u[1:-1, 2:] - 4 * u[1:-1, 1:-1])
        st["u"], st["v"] = v, u
        sync()

    return Workload("heat_pingpong", "%dx%d" % (n, n), n * n, 8.0 * n * n, step,
                    lambda: close(be.get(st["u"]), heat_reference(u0), 1e-6),
                    reset)


def make_softmax(be, P):
    xp, sync = be.xp, be.sync
    rows, cols = P["soft"]
    hx = softmax_init(rows, cols)
    x = be.to_dev(hx)
    st = {}

    def step():
        m = xp.max(x, axis=1, keepdims=True)
        e = xp.exp(x - m)
        s = xp.sum(e, axis=1, keepdims=True)
        st["y"] = e / s
        sync()

    def check():
        w = hx.astype(np.float64)
        e = np.exp(w - w.max(axis=1, keepdims=True))
        return close(be.get(st["y"]), e / e.sum(axis=1, keepdims=True), 1e-5)

    return Workload("softmax", "%dx%d" % (rows, cols), rows * cols, 8.0 * rows * cols,
                    step, check)


def make_kmeans_assign(be, P):
    xp, sync = be.xp, be.sync
    n = P["kmeans"]
    hp, hc = points_init(n), centres_init()
    p, c = be.to_dev(hp), be.to_dev(hc)
    st = {}

    def step():
        d = p[:, None, :] - c[None, :, :]
        st["lab"] = xp.argmin(xp.sum(d * d, axis=2), axis=1)
        sync()

    def check():
        d = hp[:, None, :] - hc[None, :, :]  # exact in float32 for these patterns
        return close(be.get(st["lab"]), np.argmin((d * d).sum(axis=2), axis=1), 0.0)

    return Workload("kmeans_assign", "%dx4" % n, n, 4.0 * n * DIMS + 8.0 * n, step,
                    check)


def make_standardise(be, P):
    xp, sync = be.xp, be.sync
    rows, cols = P["std"]
    hx = standardise_init(rows, cols)
    x = be.to_dev(hx)
    st = {}

    def step():
        st["y"] = (x - xp.mean(x, axis=0, keepdims=True)) / xp.std(x, axis=0, keepdims=True)
        sync()

    def check():
        w = hx.astype(np.float64)
        return close(be.get(st["y"]), (w - w.mean(axis=0)) / w.std(axis=0), 1e-4)

    return Workload("standardise", "%dx%d" % (rows, cols), rows * cols,
                    8.0 * rows * cols, step, check)


def make_layernorm(be, P):
    xp, sync = be.xp, be.sync
    rows, cols = P["ln"]
    hx = layernorm_init(rows, cols)
    hg, hb = pattern(cols, 5, 0.1, 1.0), pattern(cols, 3, 0.5, -0.5)
    x, gamma, beta = be.to_dev(hx), be.to_dev(hg), be.to_dev(hb)
    st = {}

    def step():
        st["y"] = ((x - xp.mean(x, axis=1, keepdims=True)) /
                   xp.sqrt(xp.var(x, axis=1, keepdims=True) + LN_EPS) * gamma + beta)
        sync()

    def check():
        w = hx.astype(np.float64)
        want = ((w - w.mean(axis=1, keepdims=True)) /
                np.sqrt(w.var(axis=1, keepdims=True) + LN_EPS) * hg + hb)
        return close(be.get(st["y"]), want, 1e-4)

    return Workload("layernorm", "%dx%d" % (rows, cols), rows * cols, 8.0 * rows * cols,
                    step, check)


def make_outer(be, P):
    sync = be.sync
    n = P["outer"]
    ha, hb = pattern(n, 19, 0.5, -4.0), pattern(n, 23, 0.25, -2.0)
    a, b = be.to_dev(ha), be.to_dev(hb)
    st = {}

    def step():
        st["c"] = a[:, None] * b[None, :]
        sync()

    return Workload("outer", "%dx%d" % (n, n), n * n, 4.0 * n * n, step,
                    lambda: close(be.get(st["c"]), np.outer(ha, hb), 0.0))


def make_where_scale(be, P):
    xp, sync = be.xp, be.sync
    n = P["where"]
    x0 = pattern(n, 29, 0.25, -3.0)
    st = {"x": be.to_dev(x0)}

    def step():
        x = st["x"]
        st["x"] = xp.where(x > WHERE_T, x * WHERE_S, x)
        sync()

    def reset():
        st["x"] = be.to_dev(x0)

    return Workload("where_scale", str(n), n, 8.0 * n, step,
                    lambda: close(be.get(st["x"]),
                                  np.where(x0 > WHERE_T, x0 * WHERE_S, x0), 0.0),
                    reset)


# ---------------------------------------------------------------- composed programs
# Keep in step with the program_preset table in bench/bench_workloads.cpp.
PROGRAMS = {
    "pocl": dict(mlp=(1024, 512, 1024), fft=512, sort_n=1 << 20, table=(16384, 8192),
                 random_n=1 << 20, spectrum=1 << 18, km=(262144, 16, 32)),
    "gpu": dict(mlp=(4096, 1024, 4096), fft=2048, sort_n=16000000, table=(65536, 32768),
                random_n=16000000, spectrum=1 << 22, km=(1 << 22, 16, 32)),
}
TOPK, UNIQUE_DISTINCT, NORM_COLS = 100, 1000, 256


def grid_pattern(rows, cols, a, b, mod, scale, shift):
    i, j = grid(rows, cols)
    return f32((i * a + j * b) % mod, scale, shift)


def make_mlp(be, P):
    xp, sync = be.xp, be.sync
    B, D, H = P["mlp"]
    hx = grid_pattern(B, D, 7, 3, 23, 0.05, -0.5)
    hw1 = grid_pattern(D, H, 5, 11, 19, 0.01, -0.09)
    hw2 = grid_pattern(H, D, 13, 7, 17, 0.01, -0.08)
    hb1 = grid_pattern(1, H, 0, 1, 7, 0.01, -0.03)[0]
    hb2 = grid_pattern(1, D, 0, 1, 5, 0.02, -0.04)[0]
    x, w1, w2, b1, b2 = (be.to_dev(a) for a in (hx, hw1, hw2, hb1, hb2))
    st = {}

    def step():
        h = xp.maximum(x @ w1 + b1, 0)
        z = h @ w2 + b2
        e = xp.exp(z - xp.max(z, axis=1, keepdims=True))
        st["y"] = e / xp.sum(e, axis=1, keepdims=True)
        sync()

    def check():
        h = np.maximum(hx[:4].astype(np.float64) @ hw1 + hb1, 0)
        z = h @ hw2.astype(np.float64) + hb2
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return close(be.get(st["y"])[:4], e / e.sum(axis=1, keepdims=True), 1e-5)

    return Workload("mlp", "%dx%dx%d" % (B, D, H), B * D, 4.0 * (2 * D * H + 2 * B * D + B * H),
                    step, check)


def make_fftconv(be, P):
    xp, sync = be.xp, be.sync
    n = P["fft"]
    hx = grid_pattern(n, n, 3, 5, 29, 0.1, 0.0)
    i, j = grid(n, n)
    hh = np.exp(-2j * np.pi * ((i + j) % n) / n).astype(np.complex64)
    x, h = be.to_dev(hx), be.to_dev(hh)
    st = {}

    def step():
        st["y"] = xp.real(xp.fft.ifft2(xp.fft.fft2(x) * h))
        sync()

    def check():
        return close(be.get(st["y"]), np.roll(hx, (1, 1), axis=(0, 1)), 1e-4)

    return Workload("fftconv", "%dx%d" % (n, n), n * n, 4.0 * n * n * 2 + 8.0 * n * n, step,
                    check)


def make_topk(be, P):
    xp, sync = be.xp, be.sync
    n = P["sort_n"]
    x = be.to_dev(select_input(n))
    st = {}

    def step():
        i = xp.argsort(x)[-TOPK:]
        st["v"] = x[i]
        sync()

    def check():
        return close(be.get(st["v"]), np.arange(n - TOPK, n, dtype=np.float64), 0.0)

    return Workload("topk", str(n), n, 4.0 * n, step, check)


def select_input(n):
    # The inputs of topk and the selections: a permutation of 0 .. n-1 (distinct values).
    return ((np.arange(n, dtype=np.uint64) * np.uint64(7919)) % np.uint64(n)).astype(np.float32)


def make_topk_select(be, P):
    # The k largest and their positions without a full sort: argpartition, then the k sorted.
    xp, sync = be.xp, be.sync
    n = P["sort_n"]
    x = be.to_dev(select_input(n))
    st = {}

    def step():
        i = xp.argpartition(x, n - TOPK)[n - TOPK:]
        v = x[i]
        order = xp.argsort(v)[::-1]
        st["v"], st["i"] = v[order], i[order]
        sync()

    def check():
        return close(be.get(st["v"]), np.arange(n - 1, n - TOPK - 1, -1, dtype=np.float64), 0.0)

    return Workload("topk_select", str(n), n, 4.0 * n, step, check)


def make_median(be, P):
    xp, sync = be.xp, be.sync
    n = P["sort_n"]
    x = be.to_dev(select_input(n))
    st = {}

    def step():
        st["m"] = xp.median(x)
        sync()

    def check():
        return close(be.get(st["m"]), np.float64((n - 1) / 2.0), 0.0)

    return Workload("median", str(n), n, 4.0 * n, step, check)


def make_percentile(be, P):
    xp, sync = be.xp, be.sync
    n = P["sort_n"]
    x = be.to_dev(select_input(n))
    qs = [5.0, 50.0, 95.0]
    st = {}

    def step():
        st["p"] = xp.percentile(x, qs)
        sync()

    def check():
        return close(be.get(st["p"]), np.array([q / 100.0 * (n - 1) for q in qs]), 1e-6)

    return Workload("percentile", str(n), n, 4.0 * n, step, check)


def make_unique(be, P):
    xp, sync = be.xp, be.sync
    n = P["sort_n"]
    i = np.arange(n, dtype=np.uint64)
    hv = (((i * np.uint64(37)) ^ (i >> np.uint64(3))) % np.uint64(UNIQUE_DISTINCT)).astype(np.int32)
    v = be.to_dev(hv)
    st = {}

    def step():
        st["u"] = xp.unique(v)
        sync()

    def check():
        return close(be.get(st["u"]), np.array(sorted(set(hv.tolist()))), 0.0)

    return Workload("unique", str(n), n, 4.0 * n, step, check)


def make_gather_norm(be, P):
    xp, sync = be.xp, be.sync
    rows, m = P["table"]
    c = NORM_COLS
    ht = grid_pattern(rows, c, 7, 13, 37, 0.1, -1.8)
    hi = ((np.arange(m, dtype=np.uint64) * np.uint64(40503)) % np.uint64(rows)).astype(np.int64)
    hg = grid_pattern(1, c, 0, 1, 3, 0.1, 1.0)[0]
    hb = grid_pattern(1, c, 0, 1, 4, 0.05, 0.0)[0]
    table, idx, gamma, beta = (be.to_dev(a) for a in (ht, hi, hg, hb))
    st = {}

    def step():
        r = table[idx]
        mu = r.mean(axis=1, keepdims=True)
        var = r.var(axis=1, keepdims=True)
        st["y"] = (r - mu) / xp.sqrt(var + np.float32(LN_EPS)) * gamma + beta
        sync()

    def check():
        r = ht[hi].astype(np.float64)
        mu = r.mean(axis=1, keepdims=True)
        want = (r - mu) / np.sqrt(r.var(axis=1, keepdims=True) + LN_EPS) * hg + hb
        return close(be.get(st["y"]), want, 1e-4)

    return Workload("gather_norm", "%dx%d" % (m, c), m * c, 8.0 * m * c, step, check)


def make_montecarlo(be, P):
    xp, sync = be.xp, be.sync
    n = P["random_n"]
    rng = xp.random.default_rng(7)
    st = {}

    def step():
        x = rng.random(n, dtype=np.float32)
        y = rng.random(n, dtype=np.float32)
        st["x"], st["y"] = x, y
        st["inside"] = int(xp.count_nonzero(x * x + y * y <= 1))

    def check():
        x, y = be.get(st["x"]), be.get(st["y"])
        want = int(np.count_nonzero(x * x + y * y <= 1))
        if st["inside"] != want:
            return "inside %d, expected %d" % (st["inside"], want)
        pi = 4.0 * st["inside"] / n
        return "" if abs(pi - np.pi) <= 0.01 else "pi %g" % pi

    return Workload("montecarlo", str(n), n, 8.0 * n, step, check)


def make_spectrum(be, P):
    xp, sync = be.xp, be.sync
    n = P["spectrum"]
    f0, f1 = n // 16 + 3, n // 8 + 5
    t = np.arange(n, dtype=np.int64)
    hx = (np.sin(2 * np.pi * ((f0 * t) % n) / n) +
          0.5 * np.sin(2 * np.pi * ((f1 * t) % n) / n)).astype(np.float32)
    x = be.to_dev(hx)
    st = {}

    def step():
        st["peak"] = int(xp.argmax(xp.abs(xp.fft.rfft(x))))

    def check():
        return "" if st["peak"] == f0 else "peak at %d, expected %d" % (st["peak"], f0)

    return Workload("spectrum", str(n), n, 4.0 * n + 8.0 * (n // 2 + 1), step, check)


def make_histogram(be, P):
    xp, sync = be.xp, be.sync
    n = P["random_n"]
    z = xp.random.default_rng(11).standard_normal(n, dtype=np.float32)
    st = {}

    def step():
        st["counts"], st["edges"] = xp.histogram(z, 256, range=(-4, 4))
        sync()

    def check():
        want, _ = np.histogram(be.get(z), 256, range=(-4, 4))
        return close(be.get(st["counts"]), want, 0.0)

    return Workload("histogram", str(n), n, 4.0 * n, step, check)


def make_kmeans_iter(be, P):
    xp, sync = be.xp, be.sync
    n, d, k = P["km"]
    hp = grid_pattern(n, d, 1, 7, 23, 0.25, -2.75)
    hc = grid_pattern(k, d, 5, 3, 13, 0.5, -3.0) * (
        1 + np.arange(k, dtype=np.float32)[:, None] / np.float32(k))
    p, c = be.to_dev(hp), be.to_dev(hc.astype(np.float32))
    add_at = xp.add.at if hasattr(xp.add, "at") else None
    if add_at is None:
        import cupyx
        add_at = cupyx.scatter_add
    st = {}

    def step():
        dist = (p * p).sum(axis=1)[:, None] - 2 * (p @ c.T) + (c * c).sum(axis=1)[None, :]
        lab = xp.argmin(dist, axis=1)
        counts = xp.bincount(lab, minlength=k)
        sums = xp.zeros((k, d), dtype=np.float32)
        add_at(sums, lab, p)
        st["lab"], st["counts"] = lab, counts
        st["centres"] = sums / xp.maximum(counts.astype(np.float32)[:, None], 1)
        sync()

    def check():
        lab = be.get(st["lab"])
        hp64, hc64 = hp.astype(np.float64), hc.astype(np.float64)
        dist = ((hp64 * hp64).sum(1)[:, None] - 2 * hp64 @ hc64.T + (hc64 * hc64).sum(1)[None, :])
        best = dist.min(axis=1)
        mine = dist[np.arange(n), lab]
        if (mine > best + 1e-3 * (1 + np.abs(best))).any():
            return "a label is not a nearest centre"
        cnt = np.bincount(lab, minlength=k)
        err = close(be.get(st["counts"]), cnt, 0.0)
        if err:
            return err
        sums = np.zeros((k, d))
        np.add.at(sums, lab, hp64)
        return close(be.get(st["centres"]), sums / np.maximum(cnt, 1)[:, None], 1e-4)

    return Workload("kmeans_iter", "%dx%d/%d" % (n, d, k), n * d, 4.0 * n * d + 4.0 * n * k,
                    step, check)


MAKERS = [("heat_inplace", make_heat_inplace), ("heat_pingpong", make_heat_pingpong), ("softmax", make_softmax), ("kmeans_assign", make_kmeans_assign), ("standardise", make_standardise), ("layernorm", make_layernorm), ("outer", make_outer), ("where_scale", make_where_scale), ("mlp", make_mlp), ("fftconv", make_fftconv), ("topk", make_topk), ("topk_select", make_topk_select), ("median", make_median), ("percentile", make_percentile), ("unique", make_unique), ("gather_norm", make_gather_norm), ("montecarlo", make_montecarlo), ("spectrum", make_spectrum), ("histogram", make_histogram), ("kmeans_iter", make_kmeans_iter)]


def workloads(be, P, wanted):
    return [make(be, P) for op, make in MAKERS if wanted(op)]





def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="numpy", choices=["numpy", "cupy"])
    ap.add_argument("--preset", "--sizes", default="", help="pocl or gpu (default: numpy pocl, "
                    "cupy gpu)")
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--target-ms", type=float, default=2.0)
    ap.add_argument("--ops", default="")
    ap.add_argument("--out", default="py_workloads.csv")
    args = ap.parse_args()
    if np is None:
        print("%s: not measured (%s)" % (args.backend, NUMPY_ERROR))
        return 3
    try:
        be = make_numpy() if args.backend == "numpy" else make_cupy()
    except ImportError as e:
        print("%s: not measured (%s)" % (args.backend, e))
        return 3
    preset = args.preset or ("pocl" if args.backend == "numpy" else "gpu")
    if preset not in PRESETS:
        print("py_workloads: unknown preset %r (pocl or gpu)" % preset, file=sys.stderr)
        return 2
    ops = set(x for x in args.ops.split(",") if x)
    out = open(args.out, "w")
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    meta = dict(be.meta, date=date, host_cpu=cpu_model(), preset=preset, reps=str(args.reps),
                python=sys.version.split()[0])
    if be.name == "numpy":
        meta["threads"] = "OMP_NUM_THREADS=%s OPENBLAS_NUM_THREADS=%s MKL_NUM_THREADS=%s" % tuple(
            os.environ[v] for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"))
    for k, v in meta.items():
        out.write("# %s: %s\n" % (k, v))
        print("%s: %s" % (k, v))
    out.write("op,impl,n,elements,bytes,inner,rep,seconds\n")

    failures = 0
    live = []
    sizes = dict(PRESETS[preset], **PROGRAMS[preset])
    for w in workloads(be, sizes, lambda op: not ops or op in ops):
        try:
            w.step()  # first call: compile (CuPy), first touch
            if w.reset:
                w.reset()
            w.step()
            err = w.check()
        except Exception as e:  # noqa: BLE001 (report any library failure, go on)
            err = "failed: %s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[0][:160])
        if err:
            print("  CHECK FAILED %s %s: %s (excluded)" % (w.op, w.shape, err))
            out.write("# skip: %s|%s|%d|%s\n" % (w.op, be.name, w.elements, err.replace("|", "/")))
            failures += 1
            continue
        print("  CHECK ok %s %s" % (w.op, w.shape))
        out.write("# shape: %s|%s\n" % (w.op, w.shape))
        t0 = time.perf_counter()
        w.step()
        est = max(time.perf_counter() - t0, 1e-7)
        w.inner = int(min(max(args.target_ms * 1e-3 / est, 1), 2000))
        live.append(w)
        sys.stdout.flush()
    samples = {w.op: [] for w in live}
    for r in range(args.reps):
        for j in range(len(live)):
            w = live[(j + r) % len(live)]
            t0 = time.perf_counter()
            for _ in range(w.inner):
                w.step()
            t = (time.perf_counter() - t0) / w.inner
            samples[w.op].append(t)
            out.write("%s,%s,%d,%d,%g,%d,%d,%.9g\n" % (w.op, be.name, w.elements, w.elements,
                                                       w.bytes, w.inner, r, t))
    out.close()
    for w in live:
        med = sorted(samples[w.op])[len(samples[w.op]) // 2]
        print("%-16s %-12s %-10s %12.1f us/step %8.2f GB/s" % (w.op, w.shape, be.name, med * 1e6,
                                                             w.bytes / med * 1e-9))
    if failures:
        print("py_workloads: %d check(s) failed" % failures)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
