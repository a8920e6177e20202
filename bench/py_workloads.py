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

MAKERS = [("heat_inplace", make_heat_inplace), ("heat_pingpong", make_heat_pingpong), ("softmax", make_softmax), ("kmeans_assign", make_kmeans_assign), ("standardise", make_standardise), ("layernorm", make_layernorm), ("outer", make_outer), ("where_scale", make_where_scale)]


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
    for w in workloads(be, PRESETS[preset], lambda op: not ops or op in ops):
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
