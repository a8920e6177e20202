#!/usr/bin/env python3
"""The field's side of bench_sort.cpp, bench_linalg.cpp, bench_random.cpp and bench_fft.cpp: the
same work written the way a user of NumPy, CuPy or PyOpenCL writes it, timed the same way (warm-up
and check first, then interleaved repeats of every op, each call followed by a synchronise; the
median is reported).

    py_field.py --backend numpy|cupy|pyopencl [--reps R] [--sort-n 1.6e7] [--gemm-size 1024]
                [--random-n 1.6e7] [--fft-n1 16777216] [--fft-n2 4096] [--only sort,gemm,random,fft]
                [--out py_field_<backend>.csv]

  sort    float32 and uint32 keys (N), np.sort / cupy.sort (radix sort); keys as bench_sort
          draws them (normal(0, 1000) floats, full-range uint32), not the same values
  gemm    sgemm and dgemm, n x n times n x n, A @ B (NumPy: the host BLAS on every core; CuPy:
          cuBLAS); work 2 n^3
  random  uniform float32, normal float32 and normal float64 into N values: NumPy
          default_rng() with out= (a fill, as clarray's fill_*), CuPy cupy.random (cuRAND),
          PyOpenCL pyopencl.clrandom.PhiloxGenerator.fill_* (Random123 Philox, as clarray)
  fft     complex64 forward transforms, 1-d of n1 points and 2-d of n2 x n2: np.fft.fft/fft2,
          cupy.fft (cuFFT), pyvkfft.opencl (VkFFT, out of place) when importable; work
          5 N log2 N with N the number of points

PyOpenCL has no sort or GEMM of its own here: those rows are listed as skipped. The OpenCL
device is chosen as clarray does (CLARRAY_DEVICE; see py_bench.py). Every result is checked
loosely before timing (sorted order and the same keys, a few GEMM entries against float64 dot
products, the mean and spread of the draws, FFT bins against NumPy in double precision at a small
size); a failed check excludes the row and is listed. Exit code 3 (after a one-line message)
when the backend cannot be imported.

CSV: '# key: value' lines, then bench,op,impl,n,work,inner,rep,seconds with one row per sample
(a sample is the mean of `inner` calls, each synchronised; inner > 1 only for calls under
--target-ms). The rate is work / seconds: keys/s (sort), flop/s (gemm, fft), values/s (random).
"""
import argparse
import datetime
import math
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class Backend:
    """The calls of one library, each returning (or filling) a device array."""


def make_numpy():
    import numpy as np

    b = Backend()
    b.name = "numpy"
    b.np = np
    b.linalg = np.linalg
    cfg = ""
    try:
        cfg = ", ".join(
            "%s %s" % (k, v.get("name", "")) for k, v in np.show_config(mode="dicts")
            .get("Build Dependencies", {}).items() if k in ("blas", "lapack"))
    except Exception:  # older NumPy: no dict mode
        pass
    b.meta = {"device": "host (%d CPUs)" % (os.cpu_count() or 0), "platform": "NumPy",
              "library": "numpy %s%s" % (np.__version__, " (%s)" % cfg if cfg else "")}
    b.to_dev = lambda h: np.array(h, copy=True)
    b.get = np.asarray
    b.sync = lambda: None
    b.sort = np.sort
    b.matmul = lambda x, y: x @ y
    rng = np.random.default_rng(1)
    b.empty = lambda n, dt: np.empty(n, dt)
    b.fill_uniform = lambda out: rng.random(out.shape, dtype=out.dtype, out=out)
    b.fill_normal = lambda out: rng.standard_normal(out.shape, dtype=out.dtype, out=out)
    b.fft = lambda x: np.fft.fft(x)
    b.fft2 = lambda x: np.fft.fft2(x)
    b.fft_name = "numpy.fft (pocketfft)"
    return b


def make_cupy():
    import cupy as cp
    import numpy as np

    b = Backend()
    b.name = "cupy"
    b.np = np
    props = cp.cuda.runtime.getDeviceProperties(0)
    b.meta = {
        "device": props["name"].decode() if isinstance(props["name"], bytes) else props["name"],
        "platform": "CUDA",
        "driver_version": str(cp.cuda.runtime.driverGetVersion()),
        "library": "cupy %s (cuBLAS, cuRAND, cuFFT)" % cp.__version__,
    }
    b.to_dev = cp.asarray
    b.get = cp.asnumpy
    b.sync = cp.cuda.Device().synchronize
    b.sort = cp.sort
    b.matmul = cp.matmul
    b.linalg = cp.linalg  # batched getrf/getrs (cuBLAS) under solve and inv
    # The default random state (cuRAND XORWOW); draws into new arrays, as a CuPy user writes it.
    rs = cp.random.RandomState(1)
    b.empty = None
    b.uniform = lambda n, dt: rs.random_sample(n, dtype=dt)
    b.normal = lambda n, dt: rs.standard_normal(n, dtype=dt)
    b.fft = cp.fft.fft
    b.fft2 = cp.fft.fft2
    b.fft_name = "cupy.fft (cuFFT)"
    return b


def make_pyopencl():
    import numpy as np
    import pyopencl as cl
    import pyopencl.array as cla
    import pyopencl.clrandom as clrandom
    import pyopencl.tools as cltools
    from py_bench import pick_device

    dev = pick_device(cl)
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    pool = cltools.MemoryPool(cltools.ImmediateAllocator(q))
    b = Backend()
    b.name = "pyopencl"
    b.np = np
    b.meta = {"device": dev.name.strip(), "platform": dev.platform.name.strip(),
              "driver_version": dev.driver_version.strip(),
              "library": "pyopencl %s" % cl.VERSION_TEXT}
    b.to_dev = lambda h: cla.to_device(q, h, allocator=pool)
    b.get = lambda x: x.get()
    b.sync = q.finish
    b.sort = None  # pyopencl.array has no sort (pyopencl.algorithm's RadixSort is a toolkit)
    b.matmul = None  # no BLAS in PyOpenCL
    gen = clrandom.PhiloxGenerator(ctx, seed=1)
    b.empty = lambda n, dt: cla.empty(q, n, dt, allocator=pool)
    b.fill_uniform = lambda out: gen.fill_uniform(out)
    b.fill_normal = lambda out: gen.fill_normal(out)
    b.fft = b.fft2 = None
    try:
        import pyvkfft.opencl as vk

        apps = {}

        def vkfft(x, ndim):
            key = (x.shape, ndim)
            if key not in apps:  # plans are made once per shape (the warm-up call)
                apps[key] = (vk.VkFFTApp(x.shape, x.dtype, q, ndim=ndim, inplace=False),
                             cla.empty(q, x.shape, x.dtype, allocator=pool))
            app, dst = apps[key]
            app.fft(x, dst)
            return dst

        b.fft = lambda x: vkfft(x, 1)
        b.fft2 = lambda x: vkfft(x, 2)
        try:
            import importlib.metadata as md
            b.fft_name = "pyvkfft %s (VkFFT, OpenCL)" % md.version("pyvkfft")
        except Exception:
            b.fft_name = "pyvkfft (VkFFT, OpenCL)"
    except ImportError as e:
        b.fft_missing = "pyvkfft.opencl not importable (%s)" % e
    return b


def parse_only(s):
    allowed = ("sort", "gemm", "random", "fft", "batched")
    got = [x for x in s.split(",") if x]
    for x in got:
        if x not in allowed:
            raise SystemExit("py_field.py: --only takes %s, not %s" % (",".join(allowed), x))
    return set(got) or set(allowed) - {"batched"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="numpy", choices=["numpy", "cupy", "pyopencl"])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--target-ms", type=float, default=2.0)
    ap.add_argument("--sort-n", default="1.6e7")
    ap.add_argument("--gemm-size", type=int, default=1024)
    ap.add_argument("--random-n", default="1.6e7")
    ap.add_argument("--fft-n1", default=str(1 << 24))
    ap.add_argument("--fft-n2", type=int, default=4096)
    ap.add_argument("--batched-count", type=int, default=100000)
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    only = parse_only(args.only)
    make = {"numpy": make_numpy, "cupy": make_cupy, "pyopencl": make_pyopencl}[args.backend]
    try:
        be = make()
    except ImportError as e:
        print("%s: not measured (%s)" % (args.backend, e))
        return 3
    np = be.np
    out = open(args.out or "py_field_%s.csv" % args.backend, "w")
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    meta = dict(be.meta, date=date, host_cpu=platform.processor() or platform.machine(),
                cpus=str(os.cpu_count()), reps=str(args.reps), python=sys.version.split()[0])
    if hasattr(os, "getloadavg"):
        meta["load_before"] = " ".join("%.2f" % x for x in os.getloadavg())
    for k, v in meta.items():
        out.write("# %s: %s\n" % (k, v))
        print("%s: %s" % (k, v))
    out.write("bench,op,impl,n,work,inner,rep,seconds\n")
    failed = []

    def skip(bench, op, n, why):
        print("  NOT MEASURED %s %s %s N=%d: %s" % (bench, op, be.name, n, why))
        out.write("# skip: %s|%s|%s|%d|%s\n" % (bench, op, be.name, n, why.replace("|", "/")))

    def run_bench(bench, cases, unit, scale):
        """cases: list of (op, n, work, fn, check); check(result) returns '' or an error."""
        live = []
        for op, n, work, fn, chk in cases:
            try:
                res = fn()  # warm-up: plans, kernel builds, first touch
                be.sync()
                err = chk(res) if chk else ""
                del res
                if err:
                    print("  CHECK FAILED %s %s %s N=%d: %s (excluded)" % (bench, op, be.name, n,
                                                                           err))
                    out.write("# skip: %s|%s|%s|%d|check failed: %s\n" % (bench, op, be.name, n,
                                                                         err))
                    failed.append(op)
                    continue
                t0 = time.perf_counter()
                fn()
                be.sync()
                est = max(time.perf_counter() - t0, 1e-7)
                inner = int(min(max(args.target_ms * 1e-3 / est, 1), 1000))
                live.append((op, n, work, fn, inner))
            except Exception as e:  # the library cannot do it here: say so, go on
                why = "%s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[0][:160])
                skip(bench, op, n, "not supported (%s)" % why)
        samples = {op: [] for op, *_ in live}
        for r in range(args.reps):
            for j in range(len(live)):
                op, n, work, fn, inner = live[(j + r) % len(live)]
                t0 = time.perf_counter()
                for _ in range(inner):
                    fn()
                    be.sync()
                t = (time.perf_counter() - t0) / inner
                samples[op].append(t)
                out.write("%s,%s,%s,%d,%.17g,%d,%d,%.9g\n" % (bench, op, be.name, n, work, inner,
                                                             r, t))
        out.flush()
        for op, n, work, _, _ in live:
            med = sorted(samples[op])[len(samples[op]) // 2]
            print("%-7s %-26s N=%-10d %-9s %11.3f ms %10.2f %s" % (
                bench, op, n, be.name, med * 1e3, work / med / scale, unit))
        sys.stdout.flush()

    # ------------------------------------------------------------------ sort
    if "sort" in only:
        n = int(float(args.sort_n))
        if be.sort is None:
            for op in ("float32", "uint32"):
                skip("sort", op, n, "not supported (%s has no array sort)" % be.name)
        else:
            g = np.random.default_rng(42)
            cases = []
            for op, h in (("float32", (g.standard_normal(n) * 1000).astype(np.float32)),
                          ("uint32", g.integers(0, 1 << 32, n, dtype=np.uint32))):
                want = np.sort(h)
                x = be.to_dev(h)

                def chk(res, want=want):
                    return "" if np.array_equal(be.get(res), want) else "not the sorted keys"
                cases.append((op, n, float(n), lambda x=x: be.sort(x), chk))
            run_bench("sort", cases, "Mkeys/s", 1e6)
            del cases, x

    # ------------------------------------------------------------------ batched
    # Stacks of small systems (bench_linalg --batched): solve with one right-hand side per
    # matrix, and inv, of count well-conditioned n x n matrices (uniform in [-1, 1) plus n I).
    if "batched" in only and getattr(be, "linalg", None) is None:
        skip("batched", "solve, inv", args.batched_count,
             "not supported (%s has no batched linear algebra)" % be.name)
    elif "batched" in only:
        la = be.linalg
        count = args.batched_count
        g = np.random.default_rng(3)
        cases = []
        for n in (8, 32):
            for dt, name in ((np.float32, "float32"), (np.float64, "float64")):
                ha = (g.uniform(-1, 1, (count, n, n)) + n * np.eye(n)).astype(dt)
                hb = g.uniform(-1, 1, (count, n, 1)).astype(dt)
                a, bb = be.to_dev(ha), be.to_dev(hb)
                tol = 1e-4 if dt == np.float32 else 1e-10
                op = "%s %dx%d x%d" % (name, n, n, count)

                def chk_solve(res, ha=ha, hb=hb, tol=tol, n=n):
                    x = be.get(res)
                    for i in (0, count // 2, count - 1):
                        r = ha[i].astype(np.float64) @ x[i].astype(np.float64) - hb[i]
                        if np.abs(r).max() > tol * n:
                            return "residual %g at matrix %d" % (np.abs(r).max(), i)
                    return ""

                def chk_inv(res, ha=ha, tol=tol, n=n):
                    x = be.get(res)
                    for i in (0, count // 2, count - 1):
                        r = ha[i].astype(np.float64) @ x[i].astype(np.float64) - np.eye(n)
                        if np.abs(r).max() > tol * n:
                            return "A inv(A) - I up to %g at matrix %d" % (np.abs(r).max(), i)
                    return ""
                m = float(n)
                cases.append((op + " solve", n, count * (2.0 / 3.0 * m ** 3 + 2.0 * m * m),
                              lambda a=a, bb=bb: la.solve(a, bb), chk_solve))
                cases.append((op + " inv", n, count * 2.0 * m ** 3,
                              lambda a=a: la.inv(a), chk_inv))
        run_bench("batched", cases, "GFLOP/s", 1e9)
        del cases, a, bb

    # ------------------------------------------------------------------ gemm
    if "gemm" in only:
        n = args.gemm_size
        if be.matmul is None:
            for op in ("sgemm", "dgemm"):
                skip("gemm", op, n, "not supported (%s has no matrix product)" % be.name)
        else:
            g = np.random.default_rng(1)
            cases = []
            for op, dt, tol in (("sgemm", np.float32, 1e-4), ("dgemm", np.float64, 1e-10)):
                ha = g.uniform(-1, 1, (n, n)).astype(dt)
                hb = g.uniform(-1, 1, (n, n)).astype(dt)
                a, bb = be.to_dev(ha), be.to_dev(hb)
                picks = [(0, 0), (n - 1, n - 1), (n // 3, (2 * n) // 3), ((3 * n) // 4, 1)]

                def chk(res, ha=ha, hb=hb, picks=picks, tol=tol):
                    c = be.get(res)
                    for i, j in picks:
                        row = ha[i].astype(np.float64)
                        col = hb[:, j].astype(np.float64)
                        want = float(row @ col)
                        scale = float(np.abs(row) @ np.abs(col))
                        if abs(float(c[i, j]) - want) > tol * scale * math.sqrt(n) + 1e-30:
                            return "C[%d,%d] = %g, expected %g" % (i, j, c[i, j], want)
                    return ""
                cases.append((op, n, 2.0 * n ** 3, lambda a=a, bb=bb: be.matmul(a, bb), chk))
            run_bench("gemm", cases, "GFLOP/s", 1e9)
            del cases, a, bb

    # ------------------------------------------------------------------ random
    if "random" in only:
        n = int(float(args.random_n))
        cases = []
        for op, dt, mean, sd in (("uniform float32", np.float32, 0.5, math.sqrt(1 / 12.0)),
                                 ("normal float32", np.float32, 0.0, 1.0),
                                 ("normal float64", np.float64, 0.0, 1.0)):
            if be.empty is not None:  # fill a resident array (as clarray's fill_uniform/normal)
                buf = be.empty(n, dt)
                fill = be.fill_uniform if op.startswith("uniform") else be.fill_normal

                def fn(buf=buf, fill=fill):
                    fill(buf)
                    return buf
            else:  # new arrays per call (CuPy's spelling)
                draw = be.uniform if op.startswith("uniform") else be.normal

                def fn(draw=draw, dt=dt):
                    return draw(n, dt)

            def chk(res, mean=mean, sd=sd, dt=dt):
                v = be.get(res)
                if v.dtype != dt or v.shape != (n,):
                    return "dtype %s shape %s" % (v.dtype, v.shape)
                v = v.astype(np.float64)
                m, s = float(v.mean()), float(v.std())
                tol = 6.0 * sd / math.sqrt(n) + 1e-3
                if abs(m - mean) > tol or abs(s - sd) > 0.01 * sd:
                    return "mean %.5f sd %.5f, expected %.5f and %.5f" % (m, s, mean, sd)
                return ""
            cases.append((op, n, float(n), fn, chk))
        run_bench("random", cases, "Gvalues/s", 1e9)
        del cases

    # ------------------------------------------------------------------ fft
    if "fft" in only:
        n1 = int(float(args.fft_n1))
        n2 = args.fft_n2
        if be.fft is None:
            why = getattr(be, "fft_missing", "no FFT in %s" % be.name)
            skip("fft", "fft complex64 1-d", n1, "not supported (%s)" % why)
            skip("fft", "fft2 complex64 2-d", n2 * n2, "not supported (%s)" % why)
        else:
            meta_line = "# fft_library: %s\n" % be.fft_name
            out.write(meta_line)
            g = np.random.default_rng(3)

            def signal(shape):
                return (g.standard_normal(shape) + 1j * g.standard_normal(shape)).astype(
                    np.complex64)

            # Small sizes against NumPy in double precision: a few bins, relative to the norm.
            def small_check(fn, shape):
                h = signal(shape)
                got = be.get(fn(be.to_dev(h)))
                want = np.fft.fftn(h.astype(np.complex128))
                if got.shape != want.shape:
                    return "shape %s, expected %s" % (got.shape, want.shape)
                err = float(np.max(np.abs(got - want)))
                scale = float(np.sqrt(h.size)) * float(np.max(np.abs(h)))
                return "" if err <= 1e-4 * scale else "max error %g (scale %g)" % (err, scale)

            def big_check(h, ndim):
                # Bin k (1-d) or (k, l) (2-d) of the large transform against a float64 sum.
                def f(res):
                    got = be.get(res)
                    if ndim == 1:
                        n = h.shape[0]
                        ks = [0, 1, n // 3]
                        ph = np.arange(n, dtype=np.float64)
                        for k in ks:
                            w = np.exp(-2j * np.pi * ((k * ph) % n) / n)
                            want = complex(np.dot(h.astype(np.complex128), w))
                            if abs(complex(got[k]) - want) > 1e-4 * math.sqrt(n) * 4:
                                return "bin %d = %s, expected %s" % (k, got[k], want)
                    else:
                        m = h.shape[0]
                        ph = np.arange(m, dtype=np.float64)
                        for k, l in ((0, 0), (1, 2), (m // 3, m // 5)):
                            wk = np.exp(-2j * np.pi * ((k * ph) % m) / m)
                            wl = np.exp(-2j * np.pi * ((l * ph) % m) / m)
                            want = complex(wk @ h.astype(np.complex128) @ wl)
                            if abs(complex(got[k, l]) - want) > 1e-4 * m * 4:
                                return "bin (%d,%d) = %s, expected %s" % (k, l, got[k, l], want)
                    return ""
                return f

            cases = []
            for op, shape, fn in (("fft complex64 1-d", (n1,), be.fft),
                                  ("fft2 complex64 2-d", (n2, n2), be.fft2)):
                err = small_check(fn, (1024,) if len(shape) == 1 else (64, 48))
                npts = int(np.prod(shape))
                if err:
                    print("  CHECK FAILED fft %s %s (small size): %s (excluded)" % (
                        op, be.name, err))
                    out.write("# skip: fft|%s|%s|%d|check failed at a small size: %s\n" % (
                        op, be.name, npts, err))
                    failed.append(op)
                    continue
                h = signal(shape)
                x = be.to_dev(h)
                cases.append((op, npts, 5.0 * npts * math.log2(npts),
                              lambda x=x, fn=fn: fn(x), big_check(h, len(shape))))
            run_bench("fft", cases, "GFLOP/s", 1e9)
            del cases
    if hasattr(os, "getloadavg"):
        out.write("# load_after: %s\n" % " ".join("%.2f" % x for x in os.getloadavg()))
    out.close()
    if failed:
        print("py_field: %d check(s) failed: %s" % (len(failed), ", ".join(failed)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
