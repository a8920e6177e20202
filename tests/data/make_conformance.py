#!/usr/bin/env python3
"""Reference data of the dtype x function conformance matrix (tests/test_conformance_*.cpp).

Regenerate (from the repository root, NumPy 2.4):

    python3 tests/data/make_conformance.py

Writes tests/data/conformance/: the inputs (in/<dtype>.<base>.npy, built deterministically here,
so the C++ side never reproduces the generator), NumPy's results (out/<function>.<dtype>.<k>.npy)
and manifest.txt, one line per (function, dtype):

    <function> <dtype> <status> <outputs> <input> ...

status: ok (NumPy computed the outputs), typeerror (NumPy refuses the dtype: TypeError), raises
(NumPy raises another error, e.g. integers to negative integer powers). An input is
<dtype>.<base>:<view>; the view is cut from the base by both sides in the same way (VIEWS below;
'-' the base itself). The view of a case rotates with the function and the dtype, so that every
view kind meets every function and every dtype. docs/testing.md describes the matrix.
"""
import math
import os
import shutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "conformance")

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
SHAPE = (6, 8)


# ---- views: cut by the C++ side the same way (tests/conformance/conformance.hpp, cut_view) ----
def view2(x, v):
    return {"c": x, "o": x[1:5, 2:8], "n": x[::-2, ::-1], "t": x.T}[v]


def view1(x, v):  # 1-d views of a 2-d base
    f = x.reshape(-1)
    return {"c": f, "o": f[5:], "n": f[::-3], "t": x[:, 3]}[v]


def cut(x, view):
    if view == "-":
        return x
    kind, v = view[0], view[1]
    return view2(x, v) if kind == "2" else view1(x, v)


# ---- bases: (6, 8) arrays per dtype ----
def specials(dt):
    """Extremes and special values of a dtype (first elements of base A)."""
    if dt == np.bool_:
        return [True, False]
    if np.issubdtype(dt, np.integer):
        ii = np.iinfo(dt)
        v = [ii.min, ii.max, 0, 1, ii.max - 1, ii.min + 1, 2]
        if ii.min < 0:
            v += [-1, -2]
        return v
    if np.issubdtype(dt, np.floating):
        fi = np.finfo(dt)
        return [np.nan, np.inf, -np.inf, -0.0, 0.0, fi.max, -fi.max, fi.tiny, -fi.smallest_subnormal,
                1.0, -1.0, 0.5, 2.5, -2.5, 1.5]
    return [0, 1, 1j, -1 - 1j, 0.5 + 2j, -2.5 - 0.5j]  # complex: finite (docs/testing.md)


def filled(dt, head, rng, lo, hi, frac=True):
    n = SHAPE[0] * SHAPE[1]
    if dt == np.bool_:
        body = rng.integers(0, 2, n).astype(bool)
    elif np.issubdtype(dt, np.integer):
        ii = np.iinfo(dt)
        body = rng.integers(max(lo, ii.min), min(hi, ii.max) + 1, n).astype(dt)
    elif np.issubdtype(dt, np.complexfloating):
        body = (np.round(rng.uniform(lo, hi, n), 3) + 1j * np.round(rng.uniform(lo, hi, n), 3))
    else:
        body = rng.uniform(lo, hi, n)
        body = np.round(body, 3) if frac else np.round(body)
    a = np.array(body, dtype=dt)
    head = np.array(head, dtype=dt) if len(head) else np.array([], dtype=dt)
    a[: len(head)] = head
    return a.reshape(SHAPE)


def bases(name):
    dt = np.dtype(name)
    seed = DTYPES.index(name)
    rng = np.random.default_rng(1000 + seed)
    small_lo = -50 if (dt == np.bool_ or np.issubdtype(dt, np.unsignedinteger)) else -50
    b = {}
    # A: extremes and specials first, then values in [-10, 10] (floats half in [-1, 1]).
    a = filled(dt, specials(dt), rng, small_lo, 50)
    if np.issubdtype(dt, np.floating):
        a.reshape(-1)[24:] = np.round(rng.uniform(-1, 1, 24), 3)
    b["A"] = a
    # B: another draw with zeros (divisors) and, for floats, a NaN and infinities elsewhere.
    bb = filled(dt, [], rng, small_lo, 50)
    flat = bb.reshape(-1)
    if dt != np.bool_:
        flat[[3, 17, 30]] = 0
    if np.issubdtype(dt, np.integer):
        ii = np.iinfo(dt)
        flat[[5, 40]] = [ii.max, ii.min if ii.min < 0 else 1]
        if ii.min < 0:
            flat[[11, 12]] = -1
    if np.issubdtype(dt, np.floating):
        flat[[7, 21, 33]] = [np.nan, np.inf, -np.inf]
    if np.issubdtype(dt, np.complexfloating):
        flat[7] = complex(np.nan, 0)
    b["B"] = bb
    # T: tame values (reductions, products, FFT): no specials, small magnitudes.
    b["T"] = filled(dt, [], rng, -4 if dt.kind not in "bu" else 0, 4)
    # P: values whose products stay small.
    if dt.kind in "fc":
        p = filled(dt, [], rng, 0.8, 1.25)
    else:
        p = filled(dt, [], rng, -2 if dt.kind == "i" else 0, 2 if dt.kind != "b" else 1)
    b["P"] = p
    # E: small non-negative exponents; N: exponents with negatives (NumPy raises for integers).
    b["E"] = filled(dt, [], rng, 0, 4, frac=False)
    if dt.kind in "fc":
        b["E"].reshape(-1)[:4] = [0.5, -1, 2.5, -2]
    b["N"] = filled(dt, [], rng, -3, 3, frac=False)
    # H: shift counts 0 .. bits + 1 (counts >= the bit width included).
    if dt.kind in "iu":
        bits = dt.itemsize * 8
        b["H"] = (np.arange(48) % (bits + 2)).astype(dt).reshape(SHAPE)
    # K: small non-negative integers (bincount).
    # (every dtype: NumPy decides which it refuses)
    b["K"] = filled(dt, [], rng, 0, 9, frac=False) if dt != np.bool_ else filled(dt, [], rng, 0, 1)
    # S: sorted 1-d (searchsorted), NaN last.
    b["S"] = np.sort(filled(dt, specials(dt), rng, -20, 20).reshape(-1)[::3])
    # R: astype sources: integers keep their extremes; floats are in range of every target.
    if dt.kind in "fc":
        r = filled(dt, [0.0, -0.0, 1.5, 2.5, 127.75, 0.25], rng, 0, 120)
        b["R"] = r
    else:
        b["R"] = a
    # Z: no zeros (reciprocal of integers): magnitudes 1 to 9, signed where the dtype is.
    z = filled(dt, [], rng, 1, 9, frac=False)
    if dt.kind in "ifc":
        z = z * np.where(rng.integers(0, 2, SHAPE) == 1, 1, -1).astype(dt)
    b["Z"] = z
    return b


SHARED = {}


def shared_inputs():
    rng = np.random.default_rng(7)
    SHARED["int64.I"] = np.array([0, 5, -3, 2, 5, 1], dtype=np.int64)  # flat take/add_at, repeats
    # put: distinct indices (which of two writes to one element wins is unspecified in clarray,
    # as in CuPy; NumPy's last one wins, and a GPU picked the other)
    SHARED["int64.U"] = np.array([0, 5, -3, 2, 7, 1], dtype=np.int64)
    SHARED["int64.J"] = np.array([[1, 0], [3, 5]], dtype=np.int64)     # take along axis 1
    SHARED["bool.M"] = (rng.integers(0, 3, SHAPE) == 0)
    SHARED["int64.W"] = rng.integers(0, 7, SHAPE).astype(np.int64)  # weighted bincount values
    # along-axis indices (1, 3) along axis 1 (rows broadcast; < 6: every 2-d view has 6 columns)
    SHARED["int64.L"] = np.array([[5, 0, 5]], dtype=np.int64)
    SHARED["int64.LP"] = np.array([[4, 0, 2]], dtype=np.int64)  # put: distinct per row
    SHARED["int64.LV"] = np.array([[1, 3, 2]], dtype=np.int64)  # put's values, every dtype's
    # interp's sample points (increasing) and values
    SHARED["float64.XP"] = np.array([-4.5, -3.0, -1.25, 0.0, 0.5, 2.0, 3.75, 5.0])
    SHARED["float64.FP"] = np.array([1.0, -2.0, 0.5, 3.0, 2.5, -1.0, 0.0, 4.0])


# ---- the functions: name -> (NumPy reference, input specs, outputs) ----
# An input spec is (base, view class): view class "2" (2-d views), "1" (1-d views), "-" (none).
# A base of the form "int64.I" is dtype-independent.
def f64ref(fn):
    """Reference of a function NumPy lacks: computed in float64, rounded to NumPy's float type
    of the input (np.sin's result dtype), refused for complex input as clarray does."""

    def run(x):
        if x.dtype.kind == "c":
            raise TypeError("not defined for complex")
        rt = np.sin(x[:0]).dtype
        return np.asarray(fn(x.astype(np.float64))).astype(rt)

    return run


def vec(f):
    return np.vectorize(f, otypes=[np.float64])


def c_tgamma(x):
    if math.isnan(x) or x == -math.inf:
        return math.nan
    if x == 0:
        return math.copysign(math.inf, x)
    if x < 0 and x == math.floor(x):
        return math.nan
    try:
        return math.gamma(x)
    except OverflowError:  # large x, or tiny x (1/x): the sign of x
        return math.copysign(math.inf, x)
    except ValueError:
        return math.nan


def c_lgamma(x):
    if math.isnan(x):
        return math.nan
    if math.isinf(x):
        return math.inf
    if x <= 0 and x == math.floor(x):
        return math.inf
    try:
        return math.lgamma(x)
    except (OverflowError, ValueError):
        return math.inf


def real_only(fn):
    """NumPy's fn, refused for complex input as clarray does."""

    def run(x):
        if x.dtype.kind == "c":
            raise TypeError("not defined for complex")
        return fn(x)

    return run


def c_logb(x):
    m, e = np.frexp(x)
    r = (e - 1).astype(np.float64)
    r = np.where(x == 0, -np.inf, r)
    r = np.where(np.isinf(x), np.inf, r)
    return np.where(np.isnan(x), np.nan, r)


def _exact_pi(fn, x, zero_at, inf_at=None):
    """fn(pi r) in long double for r = x mod 2 (exact), with the exact zeros (and poles) of the
    function at the multiples of one half where floating pi would miss them."""
    r = np.fmod(x, 2.0)
    with np.errstate(all="ignore"):
        v = fn(np.pi * r.astype(np.longdouble)).astype(np.float64)
    v = np.where(zero_at(r), 0.0, v)
    if inf_at is not None:
        v = np.where(inf_at(r), np.inf, v)
    return np.where(np.isfinite(x), v, np.nan)


def sinpi(x):  # odd
    v = _exact_pi(np.sin, np.abs(x), lambda r: r == np.floor(r))
    return np.where(np.signbit(x), -v, v)


def cospi(x):
    return _exact_pi(np.cos, np.abs(x), lambda r: (r - 0.5) == np.floor(r - 0.5))


def tanpi(x):
    # odd; poles: +inf at 0.5 (mod 2), -inf at 1.5
    t = _exact_pi(np.tan, np.abs(x), lambda r: r == np.floor(r), lambda r: r == 0.5)
    t = np.where(np.fmod(np.abs(x), 2.0) == 1.5, -np.inf, t)
    return np.where(np.signbit(x), -t, t)


A2, B2 = ("A", "2"), ("B", "2")
FUNCS = {}


def fn(name, ref, *inputs, nout=1):
    FUNCS[name] = (ref, list(inputs), nout)


# element-wise binary (operators under their NumPy names)
for name, f in [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply),
                ("divide", np.divide), ("remainder", np.remainder),
                ("floor_divide", np.floor_divide), ("bitwise_and", np.bitwise_and),
                ("bitwise_or", np.bitwise_or), ("bitwise_xor", np.bitwise_xor),
                ("equal", np.equal), ("not_equal", np.not_equal), ("less", np.less),
                ("less_equal", np.less_equal), ("greater", np.greater),
                ("greater_equal", np.greater_equal), ("maximum", np.maximum),
                ("minimum", np.minimum), ("fmax", np.fmax), ("fmin", np.fmin),
                ("arctan2", np.arctan2), ("hypot", np.hypot), ("copysign", np.copysign),
                ("fmod", np.fmod), ("nextafter", np.nextafter), ("logical_and", np.logical_and),
                ("logical_or", np.logical_or), ("logical_xor", np.logical_xor)]:
    fn(name, f, A2, B2)
fn("left_shift", np.left_shift, A2, ("H", "2"))
fn("right_shift", np.right_shift, A2, ("H", "2"))
fn("power", np.power, A2, ("E", "2"))
fn("power_negative", np.power, ("T", "2"), ("N", "2"))

# element-wise unary
for name, f in [("negative", np.negative), ("invert", np.invert),
                ("logical_not", np.logical_not), ("absolute", np.abs), ("isnan", np.isnan),
                ("isinf", np.isinf), ("isfinite", np.isfinite), ("real", np.real),
                ("imag", np.imag), ("conj", np.conj), ("angle", np.angle), ("sin", np.sin),
                ("cos", np.cos), ("tan", np.tan), ("arcsin", np.arcsin), ("arccos", np.arccos),
                ("arctan", np.arctan), ("sinh", np.sinh), ("cosh", np.cosh), ("tanh", np.tanh),
                ("arcsinh", np.arcsinh), ("arccosh", np.arccosh), ("arctanh", np.arctanh),
                ("exp", np.exp), ("exp2", np.exp2), ("expm1", np.expm1), ("log", np.log),
                ("log2", np.log2), ("log10", np.log10), ("log1p", np.log1p), ("sqrt", np.sqrt),
                ("cbrt", np.cbrt), ("ceil", np.ceil), ("floor", np.floor), ("trunc", np.trunc),
                ("rint", np.rint), ("fabs", np.fabs)]:
    fn(name, f, A2)


def angle(x):
    return np.angle(x)


FUNCS["angle"] = (angle, [A2], 1)
fn("exp10", f64ref(lambda x: np.power(10.0, x)), A2)
fn("rsqrt", f64ref(lambda x: 1.0 / np.sqrt(x)), A2)
fn("round", real_only(np.round), A2)
fn("erf", f64ref(vec(math.erf)), A2)
fn("erfc", f64ref(vec(math.erfc)), A2)
fn("tgamma", f64ref(vec(c_tgamma)), A2)
fn("lgamma", f64ref(vec(c_lgamma)), A2)
fn("sinpi", f64ref(sinpi), A2)
fn("cospi", f64ref(cospi), A2)
fn("tanpi", f64ref(tanpi), A2)
fn("logb", f64ref(c_logb), A2)

# reductions and scans: all axes, one axis, keep_dims
T2 = ("T", "2")
for name, f, base in [("sum", np.sum, "A"), ("prod", np.prod, "P"), ("mean", np.mean, "T"),
                      ("var", np.var, "T"), ("std", np.std, "T"), ("any", np.any, "B"),
                      ("all", np.all, "B"), ("max", np.max, "A"), ("min", np.min, "A"),
                      ("argmax", np.argmax, "A"), ("argmin", np.argmin, "A")]:
    fn(name, f, (base, "2"))
    fn(name + "_axis1", (lambda f: lambda x: f(x, axis=1))(f), (base, "2"))
fn("sum_axis0_keepdims", lambda x: np.sum(x, axis=0, keepdims=True), A2)
fn("var_ddof1_axis0", lambda x: np.var(x, axis=0, ddof=1), T2)
fn("norm", lambda x: np.linalg.norm(x.reshape(-1)), T2)
fn("norm_1", lambda x: np.linalg.norm(x.reshape(-1), 1), T2)
fn("norm_inf_axis1", lambda x: np.linalg.norm(x, np.inf, axis=1), T2)
fn("cumsum", np.cumsum, A2)
fn("cumsum_axis0", lambda x: np.cumsum(x, axis=0), A2)
fn("cumprod", np.cumprod, ("P", "2"))
fn("cumprod_axis1", lambda x: np.cumprod(x, axis=1), ("P", "2"))
fn("dot", np.dot, ("T", "1"), ("P", "1"))
fn("dot_matrix", lambda a, b: np.dot(a, b.T), T2, ("P", "2"))
fn("vdot", np.vdot, T2, ("P", "2"))

# manipulation
fn("transpose", np.transpose, A2)
fn("swapaxes", lambda x: np.swapaxes(x, 0, 1), A2)
fn("moveaxis", lambda x: np.moveaxis(x[None], 0, 2), A2)
fn("expand_dims", lambda x: np.expand_dims(x, 1), A2)
fn("atleast_3d", np.atleast_3d, A2)
fn("concatenate", lambda a, b: np.concatenate([a, b], axis=0), A2, B2)
fn("concatenate_axis1", lambda a, b: np.concatenate([a, b], axis=1), A2, B2)
fn("stack", lambda a, b: np.stack([a, b], axis=1), A2, B2)
fn("hstack", lambda a, b: np.hstack([a, b]), A2, B2)
fn("vstack", lambda a, b: np.vstack([a, b]), A2, B2)
fn("array_split", lambda x: tuple(np.array_split(x, 2, axis=0)), A2, nout=2)
fn("flip", np.flip, A2)
fn("fliplr", np.fliplr, A2)
fn("flipud", np.flipud, A2)
fn("roll", lambda x: np.roll(x, 3, axis=1), A2)
fn("roll_flat", lambda x: np.roll(x, -5), A2)
fn("repeat", lambda x: np.repeat(x, 2, axis=0), A2)
fn("tile", lambda x: np.tile(x, (2, 1)), A2)
fn("pad", lambda x: np.pad(x, 1), A2)
fn("diagonal", lambda x: np.diagonal(x, 1), A2)
fn("diag", lambda x: np.diag(x, -1), ("A", "1"))
fn("diff", np.diff, A2)
fn("diff_2_axis0", lambda x: np.diff(x, 2, axis=0), A2)
fn("triu", np.triu, A2)
fn("tril", lambda x: np.tril(x, -1), A2)


def clip(x):
    k = x.dtype.kind
    lo, hi = {"b": (False, True), "u": (2, 50), "i": (-20, 30)}.get(k, (-1.5, 3.25))
    if k == "c":
        lo, hi = complex(-1.5, 0), complex(3.25, 0)
    return np.clip(x, lo, hi)


fn("clip", clip, A2)
fn("where", lambda m, a, b: np.where(m, a, b), ("bool.M", "2"), A2, B2)
for target in DTYPES:
    fn("astype_" + target, (lambda t: lambda x: x.astype(t))(target), ("R", "2"))

# indexing
def put(a, i, v):
    a = a.copy()
    np.put(a, i, v)
    return a


def add_at(a, i, v):
    a = a.copy()
    np.add.at(a, i, v)
    return a


def putmask(a, m, v):
    a = a.copy()
    np.copyto(a, v, where=m)
    return a


fn("take", lambda a, i: np.take(a, i), A2, ("int64.I", "-"))
fn("take_axis1", lambda a, i: np.take(a, i, axis=1), A2, ("int64.J", "-"))
fn("put", put, A2, ("int64.U", "-"), ("B", "=1t"))
fn("add_at", add_at, ("A", "1"), ("int64.I", "-"), ("B", "=1t"))
fn("compress", lambda m, a: np.compress(m[:10], a), ("bool.M", "=1c"), A2)
fn("extract", lambda m, a: np.extract(m, a), ("bool.M", "2"), A2)
fn("nonzero", lambda a: tuple(np.nonzero(a)), B2, nout=2)
fn("count_nonzero", lambda a: np.int64(np.count_nonzero(a)), B2)
fn("putmask", putmask, A2, ("bool.M", "2"), B2)

# sorting, searching, counting
fn("sort", np.sort, A2)
fn("sort_axis0", lambda x: np.sort(x, axis=0, kind="stable"), A2)
fn("argsort", lambda x: np.argsort(x, kind="stable"), A2)
fn("searchsorted", lambda s, v: np.searchsorted(s, v), ("S", "-"), ("A", "1"))
fn("searchsorted_right", lambda s, v: np.searchsorted(s, v, "right"), ("S", "-"), ("A", "1"))
fn("unique", np.unique, A2)
fn("unique_counts", lambda x: tuple(np.unique_counts(x)), A2, nout=2)
fn("bincount", np.bincount, ("K", "1"))
fn("bincount_weights", lambda k, w: np.bincount(k, w), ("int64.W", "1"), ("T", "1"))
fn("histogram", lambda x: np.histogram(x, 5), T2, nout=2)

# linear algebra and FFT
fn("matmul", lambda a, b: np.matmul(a, b.T), T2, ("P", "2"))
fn("linalg_dot", lambda a, b: np.dot(a, b.T), T2, ("P", "2"))
fn("linalg_vdot", lambda a, b: np.vdot(a, b), T2, ("P", "2"))
fn("inner", np.inner, T2, ("P", "2"))
fn("outer", np.outer, ("T", "1"), ("P", "1"))
fn("tensordot", lambda a, b: np.tensordot(a, b, axes=([0], [0])), T2, ("P", "2"))
fn("fft", np.fft.fft, T2)
fn("ifft", np.fft.ifft, T2)
fn("rfft", np.fft.rfft, T2)
fn("irfft", np.fft.irfft, T2)
fn("fft2", np.fft.fft2, T2)
fn("ifft2", np.fft.ifft2, T2)
fn("fftn", np.fft.fftn, T2)
fn("ifftn", np.fft.ifftn, T2)

# NumPy 2 and array API additions
fn("sign", np.sign, A2)
fn("signbit", np.signbit, A2)
fn("square", np.square, A2)
fn("reciprocal", np.reciprocal, ("Z", "2"))
fn("logaddexp", np.logaddexp, A2, B2)
fn("logaddexp2", np.logaddexp2, A2, B2)
fn("divmod", lambda a, b: tuple(np.divmod(a, b)), A2, B2, nout=2)
fn("round_decimals", real_only(lambda x: np.round(x, 2)), T2)
fn("matrix_transpose", np.matrix_transpose, A2)
fn("take_along_axis", lambda a, i: np.take_along_axis(a, i, axis=1), A2, ("int64.L", "-"))


def put_along_axis(a, i, v):
    a = a.copy()
    np.put_along_axis(a, i, v, axis=1)
    return a


fn("put_along_axis", put_along_axis, A2, ("int64.LP", "-"), ("int64.LV", "-"))
for mode in ["edge", "wrap", "reflect", "symmetric", "linear_ramp", "maximum", "minimum", "mean",
             "median"]:
    fn("pad_" + mode, (lambda m: lambda x: np.pad(x, ((1, 2), (2, 1)), mode=m))(mode), A2)
fn("isin", lambda a, b: np.isin(a, b), A2, ("T", "1"))
fn("intersect1d", np.intersect1d, ("T", "1"), ("P", "1"))
fn("union1d", np.union1d, ("T", "1"), ("P", "1"))
fn("setdiff1d", np.setdiff1d, ("T", "1"), ("P", "1"))
fn("setxor1d", np.setxor1d, ("T", "1"), ("P", "1"))
fn("unique_inverse", lambda x: tuple(np.unique_inverse(x)), A2, nout=2)
fn("flatnonzero", np.flatnonzero, A2)
fn("argwhere", np.argwhere, A2)
fn("convolve", np.convolve, ("T", "1"), ("P", "1"))
fn("correlate", lambda a, v: np.correlate(a, v, "full"), ("T", "1"), ("P", "1"))
fn("interp", np.interp, ("A", "1"), ("float64.XP", "-"), ("float64.FP", "-"))
fn("polyval", np.polyval, ("P", "1"), ("P", "1"))
fn("gradient", lambda x: np.gradient(x, axis=1), T2)
fn("trapezoid", np.trapezoid, T2)
fn("cumulative_sum", lambda x: np.cumulative_sum(x, axis=1, include_initial=True), A2)
fn("vecdot", np.vecdot, T2, ("P", "2"))
fn("vector_norm", np.linalg.vector_norm, T2)
fn("fftshift", np.fft.fftshift, A2)
fn("ifftshift", np.fft.ifftshift, A2)
fn("rfftn", np.fft.rfftn, T2)
fn("irfftn", np.fft.irfftn, T2)
fn("hfft", np.fft.hfft, T2)
fn("ihfft", np.fft.ihfft, T2)
fn("digitize", np.digitize, A2, ("float64.XP", "-"))
fn("digitize_right", lambda x, b: np.digitize(x, b, right=True), A2, ("float64.XP", "-"))
fn("histogram_edges", lambda x, e: np.histogram(x, e)[0], A2, ("float64.XP", "-"))

VIEW_KINDS = "cont"


def main():
    if not np.__version__.startswith("2."):
        sys.exit("make_conformance.py: NumPy 2 required (found %s)" % np.__version__)
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(os.path.join(OUT, "in"))
    os.makedirs(os.path.join(OUT, "out"))
    shared_inputs()
    all_bases = {d: bases(d) for d in DTYPES}
    # A shared input's name must not be a base's file name (the base would overwrite it).
    assert not any(k.split(".")[1] in all_bases[k.split(".")[0]] for k in SHARED), "shared input named like a base"
    for k, v in SHARED.items():
        np.save(os.path.join(OUT, "in", k + ".npy"), v)
    for d, bs in all_bases.items():
        for k, v in bs.items():
            np.save(os.path.join(OUT, "in", "%s.%s.npy" % (d, k)), v)
    lines = ["# function dtype status outputs inputs (make_conformance.py, NumPy %s)" % np.__version__]
    counts = {"ok": 0, "typeerror": 0, "raises": 0}
    for fi, (name, (ref, inputs, nout)) in enumerate(FUNCS.items()):
        for di, d in enumerate(DTYPES):
            view = VIEW_KINDS[(fi // 2 + di) % 4]
            toks, args = [], []
            missing = False
            for base, cls in inputs:
                key = base if "." in base else "%s.%s" % (d, base)
                if "." in base:
                    x = SHARED[base]
                else:
                    if base not in all_bases[d]:
                        missing = True
                        break
                    x = all_bases[d][base]
                vk = "-" if cls == "-" else cls[1:] if cls[0] == "=" else cls + view
                toks.append("%s:%s" % (key, vk))
                args.append(cut(x, vk))
            if missing:  # no such base for this dtype: NumPy's refusal decides (typeerror)
                status = "typeerror"
            else:
                try:
                    with np.errstate(all="ignore"):
                        import warnings
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            res = ref(*args)
                    status = "ok"
                except TypeError:
                    status = "typeerror"
                except (ValueError, ArithmeticError):
                    status = "raises"
            if missing:
                toks = ["%s.%s:%s" % (d, inputs[0][0], "-")]
            if status == "ok":
                res = res if isinstance(res, tuple) else (res,)
                assert len(res) == nout, name
                for k, r in enumerate(res):
                    np.save(os.path.join(OUT, "out", "%s.%s.%d.npy" % (name, d, k)), np.asarray(r))
            counts[status] += 1
            lines.append(" ".join([name, d, status, str(nout)] + toks))
    with open(os.path.join(OUT, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    size = sum(os.path.getsize(os.path.join(r, x)) for r, _, fs in os.walk(OUT) for x in fs)
    print("%d functions x %d dtypes: %s; %d bytes" % (len(FUNCS), len(DTYPES), counts, size))


if __name__ == "__main__":
    main()
