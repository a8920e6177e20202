#!/usr/bin/env python3
"""PyOpenCL (or CuPy) side of the single-operation suite: the same ops and sizes as bench_suite.cpp,
written the way a user of that library writes them, timed with the same scheme (warm-up and
check, then R interleaved repeats; one sample = mean of `inner` calls that each wait for the
result). Writes the same CSV format as bench_suite.

Ops as bench_suite: add iadd axpy fused strided transpose_add copy sum dot rowsum colsum, cmul_add
(complex64 c = a*b + d) and cabs_sum (complex64 sum(abs(a))) at N >= 1e6 only, add_f16 (float16
c = a + b, with the float32 sum as a second row <backend>_f32), take (c = a[idx]), put
(a[idx] = v) and hist (add_at of N ones into 256 int32 bins; CuPy: cupy.add.at or
cupyx.scatter_add, and cupy.bincount(idx, minlength=256) as a second row cupy_bincount;
pyopencl.array has neither, so PyOpenCL skips hist with a note). Index arrays are int32 and
generated as bench_suite does, so the work matches.

    py_bench.py --backend pyopencl|cupy [--reps R] [--sizes 1e3,...] [--out file.csv]

The device is chosen as clarray does: CLARRAY_DEVICE = "P:D" or a case-insensitive substring of
"platform device"; default the first device. Exits 3 (after a message) when the backend
cannot be imported, so scripts can skip it.
"""
import argparse
import datetime
import math
import os
import platform
import sys
import time

BYTES = {  # bytes per element, read + written (as bench_suite.cpp)
    "add": 12, "iadd": 12, "axpy": 12, "fused": 20, "strided": 12, "transpose_add": 12,
    "copy": 8, "sum": 4, "dot": 8, "rowsum": 4, "colsum": 4,
    "cmul_add": 32, "cabs_sum": 8, "add_f16": 6, "take": 12, "put": 12, "hist": 4,
}


def parse_sizes(s):
    return [int(round(float(x))) for x in s.split(",") if x]


def pick_device(cl):
    sel = os.environ.get("CLARRAY_DEVICE", "")
    devs = [(p, d) for p in cl.get_platforms() for d in p.get_devices()]
    if not devs:
        raise RuntimeError("no OpenCL device")
    if not sel:
        return devs[0][1]
    if ":" in sel and all(x.isdigit() for x in sel.split(":")):
        pi, di = (int(x) for x in sel.split(":"))
        return cl.get_platforms()[pi].get_devices()[di]
    for p, d in devs:
        if sel.lower() in (p.name + " " + d.name).lower():
            return d
    raise RuntimeError("CLARRAY_DEVICE=%s matches no device" % sel)


class Backend:
    """Array namespace plus synchronisation for one library."""


def make_pyopencl():
    import numpy as np
    import pyopencl as cl
    import pyopencl.array as cla
    import pyopencl.clmath as clmath
    import pyopencl.tools as cltools

    dev = pick_device(cl)
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    pool = cltools.MemoryPool(cltools.ImmediateAllocator(q))
    b = Backend()
    b.name = "pyopencl"
    b.np = np
    b.meta = {
        "device": dev.name.strip(),
        "platform": dev.platform.name.strip(),
        "device_version": dev.version.strip(),
        "driver_version": dev.driver_version.strip(),
        "library": "pyopencl %s (Buffer arrays, MemoryPool allocator)" % cl.VERSION_TEXT,
    }
    b.to_dev = lambda h: cla.to_device(q, h, allocator=pool)
    b.get = lambda x: x.get()
    b.sync = q.finish
    b.sin = clmath.sin
    b.sum = lambda x: cla.sum(x)
    b.dot = lambda x, y: cla.dot(x, y)
    b.axis_sum = None  # pyopencl.array.sum has no axis argument
    b.take = lambda x, i: x[i]  # pyopencl.array's gather (take)

    def put(dst, i, v):
        dst[i] = v  # pyopencl.array's scatter (multi_put)

    b.put = put
    b.add_at = None  # pyopencl.array has no add_at / scatter-add / histogram
    b.bincount = None
    b.cabs = abs

    def copy(dst, src):
        cl.enqueue_copy(q, dst.data, src.data, byte_count=src.nbytes)

    b.copy = copy
    prg = cl.Program(ctx, """
kernel void add(global const float* a, global const float* b, global float* c, ulong n) {
    ulong i = get_global_id(0);
    if (i < n) c[i] = a[i] + b[i];
}""").build()
    knl = prg.add

    def raw_add(a, bb, c, n):
        g = (n + 255) // 256 * 256
        knl(q, (g,), (256,), a.data, bb.data, c.data, np.uint64(n))

    b.raw_add = raw_add
    b.raw_name = "pyopencl_rawknl"
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
        "device_version": "cc %d.%d" % (props["major"], props["minor"]),
        "driver_version": str(cp.cuda.runtime.driverGetVersion()),
        "library": "cupy %s" % cp.__version__,
    }
    b.to_dev = cp.asarray
    b.get = cp.asnumpy
    b.sync = cp.cuda.Device().synchronize
    b.sin = cp.sin
    b.sum = cp.sum
    b.dot = cp.dot
    b.axis_sum = lambda m, ax: cp.sum(m, axis=ax)
    b.take = lambda x, i: x[i]

    def put(dst, i, v):
        dst[i] = v

    b.put = put
    # add_at: cupy.add.at where this CuPy has ufunc.at for int32, else cupyx.scatter_add (the
    # older spelling of the same atomics); a tiny probe decides.
    b.add_at = None
    try:
        probe = cp.zeros(4, cp.int32)
        cp.add.at(probe, cp.asarray([1, 1, 3], cp.int32), 1)
        if cp.asnumpy(probe).tolist() == [0, 2, 0, 1]:
            b.add_at = lambda bins, i, v: cp.add.at(bins, i, v)
            b.meta["add_at"] = "cupy.add.at"
    except Exception:
        pass
    if b.add_at is None:
        try:
            import cupyx
            b.add_at = lambda bins, i, v: cupyx.scatter_add(bins, i, v)
            b.meta["add_at"] = "cupyx.scatter_add"
        except ImportError:
            pass
    b.bincount = lambda i, m: cp.bincount(i, minlength=m)
    b.cabs = cp.abs

    def copy(dst, src):
        dst[...] = src

    b.copy = copy
    add_k = cp.RawKernel(r"""
extern "C" __global__ void add(const float* a, const float* b, float* c, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}""", "add")

    def raw_add(a, bb, c, n):
        add_k(((n + 255) // 256,), (256,), (a, bb, c, np.uint64(n)))

    b.raw_add = raw_add
    b.raw_name = "cupy_rawknl"
    return b


def close(got, want, tol):
    import numpy as np
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    return bool(np.all(np.abs(got - want) <= tol * (1.0 + np.abs(want))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="pyopencl", choices=["pyopencl", "cupy"])
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--target-ms", type=float, default=2.0)
    ap.add_argument("--sizes", default="1e3,1e5,1e6,1.6e7")
    ap.add_argument("--ops", default="")
    ap.add_argument("--out", default="py_bench.csv")
    args = ap.parse_args()
    try:
        be = make_pyopencl() if args.backend == "pyopencl" else make_cupy()
    except ImportError as e:
        print("%s: not measured (%s)" % (args.backend, e))
        return 3
    np = be.np
    ops = set(x for x in args.ops.split(",") if x)
    out = open(args.out, "w")
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    meta = dict(be.meta, date=date, host_cpu=platform.processor() or platform.machine(),
                reps=str(args.reps), python=sys.version.split()[0])
    for k, v in meta.items():
        out.write("# %s: %s\n" % (k, v))
        print("%s: %s" % (k, v))
    out.write("op,impl,n,elements,bytes,inner,rep,seconds\n")

    def run_case(op, n, elements, impls, extra_bytes=0):
        """impls: list of (name, fn, check) ; check() returns '' or an error."""
        nbytes = BYTES[op] * elements + extra_bytes
        live = []
        for name, fn, chk in impls:
            try:
                fn()
                be.sync()
                err = chk() if chk else ""
                if err:
                    print("  CHECK FAILED %s %s N=%d: %s (excluded)" % (op, name, n, err))
                    out.write("# skip: %s|%s|%d|%s\n" % (op, name, n, err))
                    continue
                t0 = time.perf_counter()
                fn()
                be.sync()
                est = max(time.perf_counter() - t0, 1e-7)
                inner = int(min(max(args.target_ms * 1e-3 / est, 1), 2000))
                live.append((name, fn, inner))
            except Exception as e:  # unsupported by the library: say so, skip
                why = "%s: %s" % (type(e).__name__, (str(e).splitlines() or [""])[0][:160])
                print("  NOT SUPPORTED %s %s N=%d: %s" % (op, name, n, why))
                out.write("# skip: %s|%s|%d|not supported (%s)\n" % (op, name, n,
                                                                     why.replace("|", "/")))
        samples = {name: [] for name, _, _ in live}
        for r in range(args.reps):
            for j in range(len(live)):
                name, fn, inner = live[(j + r) % len(live)]
                t0 = time.perf_counter()
                for _ in range(inner):
                    fn()
                    be.sync()
                t = (time.perf_counter() - t0) / inner
                samples[name].append(t)
                out.write("%s,%s,%d,%d,%g,%d,%d,%.9g\n" % (op, name, n, elements, nbytes, inner,
                                                           r, t))
        out.flush()
        for name, v in samples.items():
            med = sorted(v)[len(v) // 2]
            print("%-14s N=%-9d %-22s %12.2f us %9.2f GB/s" % (op, n, name, med * 1e6,
                                                               nbytes / med * 1e-9))
        sys.stdout.flush()

    for n in parse_sizes(args.sizes):
        want = lambda op: not ops or op in ops  # noqa: E731
        i = np.arange(n, dtype=np.int64)
        ha = ((i % 17) * 0.25).astype(np.float32)
        hb = ((i % 13) * 0.5 - 2.0).astype(np.float32)
        hc = ((i % 7) * 0.125).astype(np.float32)
        he = ((i % 29) * 0.1).astype(np.float32)
        del i
        a, b, c, e = (be.to_dev(x) for x in (ha, hb, hc, he))
        d = be.to_dev(np.zeros(n, np.float32))
        be.sync()
        st = {}

        def keep(key, fn):  # result held until the next call (the pool reuses it)
            def run():
                st[key] = fn()
            return run

        def chk(key, ref, tol=1e-6, step=max(1, n // 997)):
            return lambda: "" if close(be.get(st[key])[::step], ref[::step], tol) else "wrong result"

        if want("add"):
            def raw():
                be.raw_add(a, b, d, n)
            run_case("add", n, n, [
                (be.name, keep("add", lambda: a + b), chk("add", ha + hb)),
                (be.raw_name, raw, lambda: "" if close(be.get(d), ha + hb, 1e-6) else "wrong"),
            ])
        if want("iadd"):
            t = be.to_dev(ha.copy())

            def iadd():
                nonlocal t
                t += b
            t_ref = ha + hb  # checked after the first call
            run_case("iadd", n, n, [(be.name, iadd, lambda: "" if close(
                be.get(t)[:1000], t_ref[:1000], 1e-6) else "wrong result")])
        if want("axpy"):
            run_case("axpy", n, n, [(be.name, keep("axpy", lambda: 2 * a + b),
                                     chk("axpy", 2 * ha + hb))])
        if want("fused"):
            run_case("fused", n, n, [(be.name, keep("fused", lambda: a * b + c * be.sin(e)),
                                      chk("fused", ha * hb + hc * np.sin(he), 1e-5))])
        if want("strided"):
            ref = np.zeros(n, np.float32)
            ref[::2] = ha[::2] + hb[::2]
            dd = be.to_dev(np.zeros(n, np.float32))

            def strided():
                dd[::2] = a[::2] + b[::2]
            run_case("strided", n, n // 2, [(be.name, strided, lambda: "" if close(
                be.get(dd), ref, 1e-6) else "wrong result")])
        s = int(math.floor(math.sqrt(n + 0.5)))
        mn = s * s
        if want("transpose_add"):
            a2 = a[:mn].reshape(s, s)
            b2 = b[:mn].reshape(s, s)
            ref = ha[:mn].reshape(s, s).T + hb[:mn].reshape(s, s)
            run_case("transpose_add", n, mn, [(be.name, keep("tr", lambda: a2.T + b2),
                                               lambda: "" if close(be.get(st["tr"]), ref, 1e-6)
                                               else "wrong result (operands of mixed C/F order)")])
        if want("copy"):
            run_case("copy", n, n, [(be.name, lambda: be.copy(d, a),
                                     lambda: "" if close(be.get(d), ha, 0) else "wrong")])
        if want("sum"):
            ref = float(np.sum(ha, dtype=np.float64))
            run_case("sum", n, n, [(be.name, keep("sum", lambda: be.sum(a)),
                                    lambda: "" if close(float(be.get(st["sum"])), ref, 1e-3)
                                    else "wrong")])
        if want("dot"):
            ref = float(np.dot(ha.astype(np.float64), hb.astype(np.float64)))
            run_case("dot", n, n, [(be.name, keep("dot", lambda: be.dot(a, b)),
                                    lambda: "" if close(float(be.get(st["dot"])), ref, 1e-3)
                                    else "wrong")])
        for op, ax in (("rowsum", 1), ("colsum", 0)):
            if not want(op):
                continue
            if be.axis_sum is None:
                print("  NOT SUPPORTED %s %s N=%d: no axis reductions in %s.array" %
                      (op, be.name, n, be.name))
                out.write("# skip: %s|%s|%d|not supported (no axis argument in %s.array.sum)\n"
                          % (op, be.name, n, be.name))
                continue
            m2 = a[:mn].reshape(s, s)
            ref = ha[:mn].reshape(s, s).astype(np.float64).sum(axis=ax)
            run_case(op, n, mn, [(be.name, keep(op, lambda m2=m2, ax=ax: be.axis_sum(m2, ax)),
                                  lambda op=op, ref=ref: "" if close(be.get(st[op]), ref, 1e-4)
                                  else "wrong")], extra_bytes=4 * s)
        if n >= 1000000 and (want("cmul_add") or want("cabs_sum")):
            hza = (ha + 1j * hb).astype(np.complex64)
            hzb = (hc + 1j * he).astype(np.complex64)
            hzd = (hb + 1j * ha).astype(np.complex64)
            za, zb, zd = (be.to_dev(x) for x in (hza, hzb, hzd))
            be.sync()
            if want("cmul_add"):
                ref = hza * hzb + hzd

                def zchk(key, ref=ref, step=max(1, n // 997)):
                    def f():
                        got = be.get(st[key])[::step]
                        ok = close(got.real, ref.real[::step], 1e-5) and close(
                            got.imag, ref.imag[::step], 1e-5)
                        return "" if ok else "wrong result"
                    return f
                run_case("cmul_add", n, n, [(be.name, keep("cmul", lambda: za * zb + zd),
                                             zchk("cmul"))])
            if want("cabs_sum"):
                ref = float(np.sum(np.abs(hza.astype(np.complex128))))
                run_case("cabs_sum", n, n, [(be.name, keep("cabs", lambda: be.sum(be.cabs(za))),
                                             lambda: "" if close(float(be.get(st["cabs"])), ref,
                                                                 1e-3) else "wrong")])
            del za, zb, zd
        if want("add_f16"):
            # float16 storage (the same sums as add, exact in float16), the float32 add beside.
            ref = ha + hb
            impls = []
            try:
                a16 = be.to_dev(ha.astype(np.float16))
                b16 = be.to_dev(hb.astype(np.float16))
                be.sync()
                impls.append((be.name, keep("add16", lambda: a16 + b16), chk("add16", ref, 1e-3)))
            except Exception as ex:  # the library has no float16 arrays on this device
                why = "%s: %s" % (type(ex).__name__, (str(ex).splitlines() or [""])[0][:160])
                print("  NOT SUPPORTED add_f16 %s N=%d: %s" % (be.name, n, why))
                out.write("# skip: add_f16|%s|%d|not supported (%s)\n" % (be.name, n,
                                                                          why.replace("|", "/")))
            impls.append((be.name + "_f32", keep("add32", lambda: a + b), chk("add32", ref)))
            run_case("add_f16", n, n, impls)
        if want("take") or want("put") or want("hist"):
            # As bench_suite: idx[i] = i * 7919 mod n (a permutation when n is not a multiple of
            # 7919), bins[i] = (i * 2654435761 >> 7) mod 256; int32 indices.
            i64 = np.arange(n, dtype=np.int64)
            hidx = ((i64 * 7919) % n).astype(np.int32)
            hbin = (((i64 * 2654435761) >> 7) % 256).astype(np.int32)
            del i64
            idx, bin_idx = be.to_dev(hidx), be.to_dev(hbin)
            be.sync()
            if want("take"):
                ref = ha[hidx]
                run_case("take", n, n, [(be.name, keep("take", lambda: be.take(a, idx)),
                                         chk("take", ref, 0))])
            if want("put"):
                ref = np.zeros(n, np.float32)
                ref[hidx] = ha
                dp = be.to_dev(np.zeros(n, np.float32))
                run_case("put", n, n, [(be.name, lambda: be.put(dp, idx, a), lambda: "" if close(
                    be.get(dp)[::max(1, n // 997)], ref[::max(1, n // 997)], 0) else "wrong")])
                del dp
            if want("hist"):
                ref = np.bincount(hbin, minlength=256).astype(np.float64)
                impls = []
                if be.add_at is not None:
                    bins = be.to_dev(np.zeros(256, np.int32))
                    # Each call adds n more: checked once, after the warm-up call on zeroed bins.
                    impls.append((be.name, lambda: be.add_at(bins, bin_idx, 1),
                                  lambda: "" if close(be.get(bins), ref, 0) else "wrong counts"))
                else:
                    print("  NOT SUPPORTED hist %s N=%d: no add_at / histogram in %s.array" %
                          (be.name, n, be.name))
                    out.write("# skip: hist|%s|%d|not supported (%s.array has no add_at, "
                              "scatter-add or histogram)\n" % (be.name, n, be.name))
                if be.bincount is not None:
                    impls.append((be.name + "_bincount",
                                  keep("binc", lambda: be.bincount(bin_idx, 256)),
                                  lambda: "" if close(be.get(st["binc"]), ref, 0)
                                  else "wrong counts"))
                if impls:
                    run_case("hist", n, n, impls)
            del idx, bin_idx
        del a, b, c, e, d, st
    out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
