#pragma once
// Differential fuzzing of the breadth functions: random compositions of take, put, add_at,
// compress, flip, roll, pad, concatenate, sort, unique and matmul (each a stage turning one array
// into another of the same dtype, with a random view cut between stages: offsets, negative steps,
// transposes), ended by a comparison of the array or by one of argsort, nonzero, searchsorted,
// bincount, histogram, unique_counts or an fft round trip. The inputs are views of random bases
// (offsets, negative steps, transposes, F order), over a list of dtypes (int64 included) and
// storage policies. The host references are plain loops written here from NumPy's documented
// semantics (stable sorts with NaN last, Python's modulo for wrap, ...), independent of the
// library's code.
//
// Replay: a failure prints CLARRAY_FUZZ_SEED and CLARRAY_FUZZ_CASE; run
//   clarray_tests "[fuzz_breadth]" with both set (the expression fuzz numbers its cases apart).
// Each dtype combination compiles in one of tests/fuzz/combos_b*.cpp.
#include "fuzz_cases.hpp"

#include <complex>

namespace fz {

// Not in the dtype list (the host references would need more than this file has): float16,
// complex and bool; expressions as arguments of these functions are not drawn either. The
// conformance matrix and the sort tests cover them.

inline constexpr uint64_t breadth_default_cases = 60;

// ---- host arrays in C order ----
template <class T> using harr = xt::xarray<T>;
template <class T> std::vector<size_t> shape_of(const harr<T>& a) {
    return std::vector<size_t>(a.shape().begin(), a.shape().end());
}
template <class T> harr<T> new_host(const std::vector<size_t>& s) {
    return harr<T>::from_shape(shape_type(s.begin(), s.end()));
}
inline size_t flat_of(const std::vector<size_t>& shape, const std::vector<size_t>& idx) {
    size_t f = 0;
    for (size_t k = 0; k < shape.size(); ++k)
        f = f * shape[k] + idx[k];
    return f;
}
// out(idx) = f(idx) over every index of out's shape.
template <class T, class F> void fill_by_index(harr<T>& out, F&& f) {
    const std::vector<size_t> s = shape_of(out);
    if (out.size() == 0) return;
    std::vector<size_t> idx(s.size(), 0);
    size_t k = 0;
    do {
        out.data()[k++] = f(idx);
    } while (next_index(idx, s));
}
template <class T> T host_at(const harr<T>& a, const std::vector<size_t>& idx) {
    return a.data()[flat_of(shape_of(a), idx)];
}
// Values of a view descriptor over a C-order host base, as a C-order array.
template <class T> harr<T> materialize(const harr<T>& base, const hdesc& d) {
    harr<T> out = new_host<T>(d.shape);
    fill_by_index(out, [&](const std::vector<size_t>& idx) { return at(base, d, idx); });
    return out;
}

// NumPy's sort order: numbers ascending (-0.0 == +0.0), NaN after everything.
template <class T> bool sort_less(T a, T b) {
    if constexpr (is_f<T>) {
        if (std::isnan(a)) return false;
        if (std::isnan(b)) return true;
    }
    return a < b;
}
template <class T> bool sort_equal(T a, T b) {
    if constexpr (is_f<T>)
        if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return a == b;
}

// ---- the state a composition carries: the device array and its values ----
template <class T, class S> struct state {
    ca::cl_array<T, S> dev;
    harr<T> host;
    // Rebinds dev to x (an assignment would write x's values into dev's memory when dev is a
    // view or has views, docs/semantics.md).
    void set(ca::cl_array<T, S>&& x) {
        dev.~cl_array();
        ::new (&dev) ca::cl_array<T, S>(std::move(x));
    }
};

// A view of a fresh base whose values come from gen(r) (plan_view: offsets, steps, transposes,
// F order).
template <class T, class S, class G>
state<T, S> fresh(case_ctx& c, const std::vector<size_t>& V, const std::string& name, G&& gen) {
    const view_plan p = plan_view(c.r, V, false);
    shape_type bs(p.base_shape.begin(), p.base_shape.end());
    harr<T> base = harr<T>::from_shape(bs);
    for (auto& v : base)
        v = gen(c.r);
    ca::cl_array<T, S> b(test::q(), bs, p.f_layout ? ca::layout::f : ca::layout::c);
    b.set(base);
    ca::cl_array<T, S> t = p.axes.empty() ? b : b.transpose(p.axes);
    state<T, S> st{apply_specs(t, p.specs), {}};
    hdesc d = c_desc(p.base_shape);
    if (!p.axes.empty()) d = transposed(d, p.axes);
    st.host = materialize(base, apply_specs(d, p.specs));
    c.text += "  " + name + " = " + p.text() + "\n";
    return st;
}
template <class T, class S>
state<T, S> fresh(case_ctx& c, const std::vector<size_t>& V, const std::string& name) {
    return fresh<T, S>(c, V, name, [](rng_t& r) { return value<T>(r); });
}

// Extents from a small pool (the kernel cache gets hits), now and then 0 or a long last axis.
inline std::vector<size_t> breadth_shape(rng_t& r, size_t max_rank) {
    static const size_t ext[] = {1, 2, 3, 4, 5, 8};
    const size_t rank = 1 + below(r, max_rank);
    std::vector<size_t> s(rank);
    for (size_t& e : s)
        e = ext[below(r, 6)];
    if (coin(r, 0.04)) s[below(r, rank)] = 0;
    if (coin(r, 0.12)) s.back() = rank == 1 ? 700 + below(r, 2500) : 40 + below(r, 200);
    return s;
}

// A random view of the current array (steps of +-1, 2, offsets, a transpose), the same on host.
template <class T, class S> void cut_view(case_ctx& c, state<T, S>& st) {
    rng_t& r = c.r;
    const std::vector<size_t> sh = shape_of(st.host);
    std::vector<spec> sp(sh.size());
    for (size_t k = 0; k < sh.size(); ++k) {
        const long E = long(sh[k]);
        spec& s = sp[k];
        static const long steps[] = {1, 1, -1, 2, -2};
        s.step = E == 0 ? 1 : steps[below(r, 5)];
        if (E <= 1) continue;
        if (s.step > 0) {
            s.has_start = coin(r, 0.4);
            s.start = s.has_start ? long(below(r, size_t(E / 2 + 1))) : 0;
            s.has_stop = coin(r, 0.3);
            s.stop = s.has_stop ? -long(below(r, size_t(E / 2))) : E;
            if (s.has_stop && s.stop == 0) s.has_stop = false;
        } else {
            s.has_start = coin(r, 0.4);
            s.start = s.has_start ? -1 - long(below(r, size_t(E / 2))) : E - 1;
        }
    }
    std::vector<size_t> perm;
    if (sh.size() >= 2 && coin(r, 0.35)) {
        perm.resize(sh.size());
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), r);
    }
    st.set(apply_specs(st.dev, sp));
    hdesc d = apply_specs(c_desc(sh), sp);
    if (!perm.empty()) {
        st.set(st.dev.transpose(perm));
        d = transposed(d, perm);
    }
    st.host = materialize(st.host, d);
    c.text += "  view " + spec_text(sp) + (perm.empty() ? "" : ".T" + shape_text(perm)) + " -> " +
              shape_text(shape_of(st.host)) + "\n";
}

// ---- comparisons ----
template <class T>
void compare_exact(tally& t, const harr<T>& got, const harr<T>& want, const std::string& what) {
    if (shape_of(got) != shape_of(want)) {
        if (t.bad++ < 4)
            t.first_bad += "  " + what + ": shape " + shape_text(shape_of(got)) + " instead of " +
                           shape_text(shape_of(want)) + "\n";
        return;
    }
    std::vector<size_t> idx(want.dimension(), 0);
    for (size_t k = 0; k < want.size(); ++k, next_index(idx, shape_of(want)))
        check_value(t, got.data()[k], exact<T>(want.data()[k]), what + idx_text(idx));
}
template <class T>
void compare_exact(tally& t, const harr<T>& got, const std::vector<T>& want,
                   const std::string& what) {
    harr<T> w = new_host<T>({want.size()});
    std::copy(want.begin(), want.end(), w.begin());
    compare_exact(t, got, w, what);
}
// |got - want| <= bound (NaN where want is NaN; non-finite wants compare exactly).
template <class T>
void compare_close(tally& t, T got, ld want, ld bound, const std::string& where) {
    hv<T> h;
    h.x = want;
    h.e = std::isfinite(want) ? bound : 0;
    check_value(t, got, h, where);
}

// ---- stages: T -> T ----
template <class T, class S> void stage_flip(case_ctx& c, state<T, S>& st) {
    const std::vector<size_t> sh = shape_of(st.host);
    const bool all = coin(c.r, 0.3);
    const size_t ax = below(c.r, sh.size());
    st.set(all ? ca::flip(st.dev) : ca::flip(st.dev, std::ptrdiff_t(ax)));
    c.text += all ? "  flip(a)\n" : "  flip(a, " + std::to_string(ax) + ")\n";
    harr<T> out = new_host<T>(sh);
    fill_by_index(out, [&](std::vector<size_t> i) {
        for (size_t k = 0; k < sh.size(); ++k)
            if (all || k == ax) i[k] = sh[k] - 1 - i[k];
        return host_at(st.host, i);
    });
    st.host = out;
}

template <class T, class S> void stage_roll(case_ctx& c, state<T, S>& st) {
    const std::vector<size_t> sh = shape_of(st.host);
    const bool flat = coin(c.r, 0.3);
    const size_t ax = below(c.r, sh.size());
    const long E = long(flat ? st.host.size() : sh[ax]);
    const long shift = long(below(c.r, size_t(4 * std::max(E, 1L) + 1))) - 2 * std::max(E, 1L);
    harr<T> out = new_host<T>(sh);
    if (flat) {
        st.set(ca::roll(st.dev, std::ptrdiff_t(shift)));
        for (long i = 0; i < E; ++i)
            out.data()[((i + shift) % E + E) % E] = st.host.data()[i];
    } else {
        st.set(ca::roll(st.dev, std::ptrdiff_t(shift), std::ptrdiff_t(ax)));
        fill_by_index(out, [&](std::vector<size_t> i) {
            i[ax] = size_t(((long(i[ax]) - shift) % E + E) % E);
            return host_at(st.host, i);
        });
    }
    c.text += "  roll(a, " + std::to_string(shift) +
              (flat ? std::string() : ", axis " + std::to_string(ax)) + ")\n";
    st.host = out;
}

template <class T, class S> void stage_pad(case_ctx& c, state<T, S>& st) {
    const std::vector<size_t> sh = shape_of(st.host);
    const T v = value<T>(c.r);
    std::vector<ca::pad_width> w;
    std::string wt;
    if (coin(c.r, 0.3)) {
        const size_t k = below(c.r, 3);
        st.set(ca::pad(st.dev, k, v));
        w.assign(sh.size(), {k, k});
        wt = std::to_string(k);
    } else {
        for (size_t k = 0; k < sh.size(); ++k) {
            w.emplace_back(below(c.r, 3), below(c.r, 3));
            wt +=
                "(" + std::to_string(w.back().first) + "," + std::to_string(w.back().second) + ")";
        }
        st.set(ca::pad(st.dev, w, v));
    }
    c.text += "  pad(a, " + wt + ", " + show(v) + ")\n";
    std::vector<size_t> os(sh);
    for (size_t k = 0; k < sh.size(); ++k)
        os[k] += w[k].first + w[k].second;
    harr<T> out = new_host<T>(os);
    fill_by_index(out, [&](std::vector<size_t> i) {
        for (size_t k = 0; k < sh.size(); ++k) {
            if (i[k] < w[k].first || i[k] >= w[k].first + sh[k]) return v;
            i[k] -= w[k].first;
        }
        return host_at(st.host, i);
    });
    st.host = out;
}

template <class T, class S> void stage_concatenate(case_ctx& c, state<T, S>& st) {
    const std::vector<size_t> sh = shape_of(st.host);
    const size_t ax = below(c.r, sh.size());
    const size_t parts = 1 + below(c.r, 2);
    std::vector<state<T, S>> others;
    for (size_t p = 0; p < parts; ++p) {
        std::vector<size_t> s = sh;
        s[ax] = below(c.r, 4);
        others.push_back(fresh<T, S>(c, s, "part " + std::to_string(p + 1)));
    }
    const bool first = coin(c.r, 0.5); // the current array first or last
    std::vector<ca::cl_array<T, S>> list;
    std::vector<const harr<T>*> hl;
    if (first) list.push_back(st.dev), hl.push_back(&st.host);
    for (auto& o : others)
        list.push_back(o.dev), hl.push_back(&o.host);
    if (!first) list.push_back(st.dev), hl.push_back(&st.host);
    const bool negative = coin(c.r, 0.3);
    st.set(ca::concatenate(list, negative ? std::ptrdiff_t(ax) - std::ptrdiff_t(sh.size())
                                          : std::ptrdiff_t(ax)));
    c.text += std::string("  concatenate(") + (first ? "a, parts" : "parts, a") + ", axis " +
              std::to_string(ax) + ")\n";
    std::vector<size_t> os = sh;
    os[ax] = 0;
    for (auto* h : hl)
        os[ax] += h->shape()[ax];
    harr<T> out = new_host<T>(os);
    fill_by_index(out, [&](std::vector<size_t> i) {
        for (auto* h : hl) {
            if (i[ax] < h->shape()[ax]) return host_at(*h, i);
            i[ax] -= h->shape()[ax];
        }
        return T{};
    });
    st.host = out;
}

// Calls f(line) for every line along axis: line = the flat positions of its elements.
inline void for_each_line(const std::vector<size_t>& sh, size_t ax,
                          const std::function<void(const std::vector<size_t>&)>& f) {
    std::vector<size_t> outer = sh;
    outer[ax] = 1;
    if (count(sh) == 0) return;
    std::vector<size_t> idx(sh.size(), 0), pos(sh[ax]);
    do {
        std::vector<size_t> i = idx;
        for (size_t j = 0; j < sh[ax]; ++j) {
            i[ax] = j;
            pos[j] = flat_of(sh, i);
        }
        f(pos);
    } while (next_index(idx, outer));
}
// The stable sorting permutation of each line (host argsort).
template <class T> std::vector<int64_t> host_argsort(const harr<T>& a, size_t ax) {
    const std::vector<size_t> sh = shape_of(a);
    std::vector<int64_t> out(a.size());
    for_each_line(sh, ax, [&](const std::vector<size_t>& pos) {
        std::vector<int64_t> p(pos.size());
        std::iota(p.begin(), p.end(), 0);
        std::stable_sort(p.begin(), p.end(), [&](int64_t x, int64_t y) {
            return sort_less(a.data()[pos[size_t(x)]], a.data()[pos[size_t(y)]]);
        });
        for (size_t j = 0; j < pos.size(); ++j)
            out[pos[j]] = p[j];
    });
    return out;
}

template <class T, class S> void stage_sort(case_ctx& c, state<T, S>& st) {
    const std::vector<size_t> sh = shape_of(st.host);
    const size_t ax = below(c.r, sh.size());
    const long axis = coin(c.r, 0.5) ? long(ax) - long(sh.size()) : long(ax);
    st.set(ca::sort(st.dev, axis));
    c.text += "  sort(a, " + std::to_string(axis) + ")\n";
    const std::vector<int64_t> p = host_argsort(st.host, ax);
    harr<T> out = new_host<T>(sh);
    for_each_line(sh, ax, [&](const std::vector<size_t>& pos) {
        for (size_t j = 0; j < pos.size(); ++j)
            out.data()[pos[j]] = st.host.data()[pos[size_t(p[pos[j]])]];
    });
    st.host = out;
}

// Index arrays of dtype int64 or int32.
template <class I, class S> state<I, S> index_array(case_ctx& c, const std::vector<I>& v) {
    // a 1-d view: contiguous, reversed or every other element of a base
    const bool rev = coin(c.r, 0.3), step2 = !rev && coin(c.r, 0.2);
    harr<I> base = new_host<I>({step2 ? 2 * v.size() : v.size()});
    for (size_t k = 0; k < base.size(); ++k)
        base.data()[k] = I(-7);
    for (size_t k = 0; k < v.size(); ++k)
        base.data()[rev ? v.size() - 1 - k : (step2 ? 2 * k : k)] = v[k];
    ca::cl_array<I, S> b(test::q(), shape_type{base.size()});
    b.set(base);
    state<I, S> st;
    st.set(rev ? b(ca::range(ca::none, ca::none, -1))
               : (step2 ? b(ca::range(ca::none, ca::none, 2)) : b));
    st.host = new_host<I>({v.size()});
    std::copy(v.begin(), v.end(), st.host.begin());
    c.text += std::string("  index ") + type_name<I>() + (rev ? " (reversed view)" : "") +
              (step2 ? " (step-2 view)" : "") + " [";
    for (size_t k = 0; k < v.size() && k < 12; ++k)
        c.text += (k ? "," : "") + std::to_string(v[k]);
    c.text += v.size() > 12 ? ",...]\n" : "]\n";
    return st;
}

inline long py_mod(long a, long n) {
    return ((a % n) + n) % n;
}

// NumPy's maximum: NaN if either is NaN.
template <class T> T np_maximum(T a, T b) {
    if constexpr (is_f<T>)
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
    return a < b ? b : a;
}

// take (flat or along an axis); sometimes two takes fused in one expression,
// maximum(take(a, idx), take(a, idx2)).
template <class T, class S, class I> bool stage_take(case_ctx& c, state<T, S>& st) {
    rng_t& r = c.r;
    const std::vector<size_t> sh = shape_of(st.host);
    const bool flat = coin(r, 0.35);
    const size_t ax = below(r, sh.size());
    const long n = long(flat ? st.host.size() : sh[ax]);
    if (n == 0) return false; // nothing to index
    const size_t mi = below(r, 3);
    const ca::index_mode mode =
        mi == 0 ? ca::index_mode::raise : (mi == 1 ? ca::index_mode::wrap : ca::index_mode::clip);
    const size_t m = below(r, 7);
    const bool fused = coin(r, 0.3);
    auto draw = [&] {
        std::vector<I> v(m);
        for (I& i : v)
            i = I(mi == 0 ? long(below(r, size_t(2 * n))) - n
                          : long(below(r, size_t(6 * n))) - 3 * n);
        return v;
    };
    const std::vector<I> iv = draw(), iv2 = fused ? draw() : std::vector<I>();
    const auto idx = index_array<I, S>(c, iv);
    const auto idx2 = fused ? index_array<I, S>(c, iv2) : idx;
    const char* mode_name = mi == 0 ? "raise" : (mi == 1 ? "wrap" : "clip");
    const std::string where = flat ? "flat" : "axis " + std::to_string(ax);
    c.text += fused ? "  maximum(take(a, idx, " + where + ", " + mode_name + "), take(a, idx2, " +
                          where + ", " + mode_name + "))\n"
                    : "  take(a, idx, " + where + ", " + mode_name + ")\n";
    auto resolve = [&](long i) {
        if (mi == 0) return i < 0 ? i + n : i;
        if (mi == 1) return py_mod(i, n);
        return std::clamp(i, 0L, n - 1);
    };
    const std::optional<std::ptrdiff_t> axis =
        flat ? std::nullopt
             : std::optional<std::ptrdiff_t>(coin(r, 0.3)
                                                 ? std::ptrdiff_t(ax) - std::ptrdiff_t(sh.size())
                                                 : std::ptrdiff_t(ax));
    if (fused) c.stats->kinds["stage take: two fused in maximum"]++;
    if (fused)
        st.set(ca::cl_array<T, S>(ca::maximum(ca::take(st.dev, idx.dev, axis, mode),
                                              ca::take(st.dev, idx2.dev, axis, mode))));
    else
        st.set(ca::cl_array<T, S>(ca::take(st.dev, idx.dev, axis, mode)));
    std::vector<size_t> os = flat ? std::vector<size_t>{m} : sh;
    if (!flat) os[ax] = m;
    harr<T> out = new_host<T>(os);
    auto gather = [&](const std::vector<I>& v, std::vector<size_t> i) {
        if (flat) return st.host.data()[resolve(long(v[i[0]]))];
        i[ax] = size_t(resolve(long(v[i[ax]])));
        return host_at(st.host, i);
    };
    fill_by_index(out, [&](const std::vector<size_t>& i) {
        return fused ? np_maximum(gather(iv, i), gather(iv2, i)) : gather(iv, i);
    });
    st.host = out;
    return true;
}

// put at distinct flat positions (a duplicate's winner is unspecified), values repeating.
template <class T, class S, class I> bool stage_put(case_ctx& c, state<T, S>& st) {
    rng_t& r = c.r;
    const long n = long(st.host.size());
    if (n == 0) return false; // nothing to index
    const size_t mi = below(r, 3);
    const ca::index_mode mode =
        mi == 0 ? ca::index_mode::raise : (mi == 1 ? ca::index_mode::wrap : ca::index_mode::clip);
    std::vector<long> pos(static_cast<size_t>(n));
    std::iota(pos.begin(), pos.end(), 0L);
    std::shuffle(pos.begin(), pos.end(), r);
    pos.resize(std::min<size_t>(pos.size(), 1 + below(r, 8)));
    std::vector<I> iv;
    for (long p : pos) {
        long i = p;
        if (mi == 0 && coin(r, 0.4)) i = p - n;
        if (mi == 1) i = p + n * (long(below(r, 5)) - 2);
        iv.push_back(I(i));
    }
    auto idx = index_array<I, S>(c, iv);
    const bool scalar = coin(r, 0.25);
    std::vector<T> vals(scalar ? 1 : 1 + below(r, pos.size()));
    for (T& v : vals)
        v = value<T>(r);
    c.text += std::string("  put(a, idx, ") + (scalar ? "scalar " : "values of ") +
              std::to_string(vals.size()) + ", " +
              (mi == 0   ? "raise"
               : mi == 1 ? "wrap"
                         : "clip") +
              ")\n";
    if (scalar) {
        ca::put(st.dev, idx.dev, vals[0], mode);
    } else {
        ca::cl_array<T, S> v(test::q(), shape_type{vals.size()});
        harr<T> hv_ = new_host<T>({vals.size()});
        std::copy(vals.begin(), vals.end(), hv_.begin());
        v.set(hv_);
        ca::put(st.dev, idx.dev, v, mode);
    }
    for (size_t k = 0; k < pos.size(); ++k)
        st.host.data()[pos[k]] = vals[k % vals.size()];
    return true;
}

// add_at along axis 0 with duplicate indices; returns the bound of each element's float error.
template <class T, class S, class I>
bool stage_add_at(case_ctx& c, state<T, S>& st, std::vector<ld>& bound) {
    rng_t& r = c.r;
    const std::vector<size_t> sh = shape_of(st.host);
    const long n = long(sh[0]);
    if (n == 0) return false; // nothing to index
    const size_t m = below(r, 7);
    std::vector<I> iv(m);
    for (I& i : iv)
        i = I(long(below(r, size_t(2 * n))) - n);
    auto idx = index_array<I, S>(c, iv);
    std::vector<size_t> rest(sh.begin() + 1, sh.end());
    const size_t vk =
        below(r, 3); // 0: values of idx.shape + rest, 1: of rest (broadcast), 2: scalar
    std::vector<size_t> vs = rest;
    if (vk == 0) vs.insert(vs.begin(), m);
    auto small = [](rng_t& g) {
        if constexpr (is_f<T>)
            return coin(g, 0.5) ? T(int(below(g, 21)) - 10) : value<T>(g);
        else
            return value<T>(g);
    };
    c.text += std::string("  add_at(a, idx, ") +
              (vk == 0   ? "values"
               : vk == 1 ? "values broadcast"
                         : "scalar") +
              ")\n";
    harr<T> vals;
    if (vk == 2) {
        const T v = small(r);
        vals = new_host<T>({});
        vals() = v;
        c.text += "  value " + show(v) + "\n";
        ca::add_at(st.dev, idx.dev, v);
    } else {
        auto v = fresh<T, S>(c, vs, "values", small);
        vals = v.host;
        ca::add_at(st.dev, idx.dev, v.dev);
    }
    // exact sums in long double (integers wrap as the device's atomics)
    std::vector<ld> sum(st.host.size()), mag(st.host.size());
    std::vector<bool> touched(st.host.size(), false);
    for (size_t k = 0; k < st.host.size(); ++k)
        if constexpr (is_f<T>) sum[k] = st.host.data()[k], mag[k] = std::fabs(sum[k]);
    const size_t inner = count(rest);
    for (size_t i = 0; i < m; ++i) {
        const size_t row = size_t(iv[i] < 0 ? long(iv[i]) + n : long(iv[i]));
        for (size_t j = 0; j < inner; ++j) {
            const size_t dst = row * inner + j;
            const T v = vk == 2 ? vals() : vals.data()[(vk == 0 ? i * inner : 0) + j];
            touched[dst] = true;
            if constexpr (is_f<T>) {
                sum[dst] += v;
                mag[dst] += std::fabs(ld(v));
            } else {
                using U = std::make_unsigned_t<T>;
                st.host.data()[dst] = T(U(U(st.host.data()[dst]) + U(v)));
            }
        }
    }
    if constexpr (is_f<T>) {
        for (size_t k = 0; k < st.host.size(); ++k)
            if (touched[k]) {
                // every addition rounds once (any order): m roundings of partial sums <= mag
                const ld b = ld(m + 1) * ld(std::numeric_limits<T>::epsilon()) * mag[k] +
                             ld(std::numeric_limits<T>::min());
                st.host.data()[k] = T(sum[k]);
                if (std::isfinite(sum[k]) &&
                    std::fabs(sum[k]) + b <= ld(std::numeric_limits<T>::max()))
                    bound[k] = std::max(bound[k], b);
                else if (std::isfinite(sum[k]))
                    bound[k] = std::numeric_limits<ld>::infinity(); // may overflow
            }
    }
    return true;
}

template <class T, class S> void stage_compress(case_ctx& c, state<T, S>& st) {
    const size_t n = st.host.size();
    const size_t L = coin(c.r, 0.7) ? n : below(c.r, n + 1);
    const double p = coin(c.r, 0.2) ? 0.95 : 0.4;
    auto cond = fresh<bool, S>(c, {L}, "cond", [&](rng_t& g) { return coin(g, p); });
    st.set(ca::compress(cond.dev, st.dev));
    c.text += "  compress(cond, a)\n";
    std::vector<T> out;
    for (size_t k = 0; k < L; ++k)
        if (cond.host.data()[k]) out.push_back(st.host.data()[k]);
    st.host = new_host<T>({out.size()});
    std::copy(out.begin(), out.end(), st.host.begin());
}

// unique's values, with each value's count (NaNs one value, -0.0 == +0.0).
template <class T> std::pair<std::vector<T>, std::vector<int64_t>> host_unique(const harr<T>& a) {
    std::vector<T> v(a.begin(), a.end());
    std::stable_sort(v.begin(), v.end(), sort_less<T>);
    std::vector<T> u;
    std::vector<int64_t> n;
    for (const T& x : v) {
        if (!u.empty() && sort_equal(u.back(), x)) {
            ++n.back();
        } else {
            u.push_back(x);
            n.push_back(1);
        }
    }
    return {u, n};
}

template <class T, class S> void stage_unique(case_ctx& c, state<T, S>& st) {
    st.set(ca::unique(st.dev));
    c.text += "  unique(a)\n";
    const auto u = host_unique(st.host).first;
    st.host = new_host<T>({u.size()});
    std::copy(u.begin(), u.end(), st.host.begin());
}

// matmul of the current (m, k) matrix with a fresh (k, n) one: float and double only.
template <class T, class S>
void stage_matmul(case_ctx& c, state<T, S>& st, std::vector<ld>& bound, std::vector<bool>& unk) {
    const std::vector<size_t> sh = shape_of(st.host);
    static const size_t ns[] = {1, 2, 4};
    const size_t m = sh[0], k = sh[1], n = ns[below(c.r, 3)];
    auto b = fresh<T, S>(c, {k, n}, "b");
    st.set(ca::matmul(st.dev, b.dev));
    c.text += "  matmul(a, b)\n";
    harr<T> out = new_host<T>({m, n});
    bound.assign(m * n, 0);
    unk.assign(m * n, false);
    const ld eps = std::numeric_limits<T>::epsilon();
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            ld s = 0, mag = 0;
            bool finite = true;
            for (size_t l = 0; l < k; ++l) {
                const ld x = st.host.data()[i * k + l], y = b.host.data()[l * n + j];
                finite = finite && std::isfinite(x) && std::isfinite(y);
                s += x * y;
                mag += std::fabs(x * y);
            }
            out.data()[i * n + j] = T(s);
            // docs/testing.md (linear algebra): 2 (k + 1) eps sum|a b|
            bound[i * n + j] = 2 * ld(k + 1) * eps * mag + ld(std::numeric_limits<T>::min());
            unk[i * n + j] =
                !finite || std::fabs(s) + bound[i * n + j] > ld(std::numeric_limits<T>::max());
        }
    st.host = out;
}

// ---- terminals ----
template <class T, class S> void end_argsort(case_ctx& c, const state<T, S>& st, tally& t) {
    const std::vector<size_t> sh = shape_of(st.host);
    const size_t ax = below(c.r, sh.size());
    c.text += "  argsort(a, " + std::to_string(ax) + ")\n";
    const harr<int64_t> got = ca::argsort(st.dev, long(ax)).get();
    const std::vector<int64_t> p = host_argsort(st.host, ax);
    harr<int64_t> want = new_host<int64_t>(sh);
    std::copy(p.begin(), p.end(), want.begin());
    compare_exact(t, got, want, "argsort");
}

template <class T, class S> void end_nonzero(case_ctx& c, const state<T, S>& st, tally& t) {
    const std::vector<size_t> sh = shape_of(st.host);
    c.text += "  nonzero(a)\n";
    const auto nz = ca::nonzero(st.dev);
    if (nz.size() != sh.size()) {
        ++t.bad;
        t.first_bad += "  nonzero: " + std::to_string(nz.size()) + " index arrays\n";
        return;
    }
    std::vector<std::vector<int64_t>> want(sh.size());
    if (st.host.size()) {
        std::vector<size_t> idx(sh.size(), 0);
        size_t k = 0;
        do {
            if (st.host.data()[k++] != T(0))
                for (size_t a = 0; a < sh.size(); ++a)
                    want[a].push_back(int64_t(idx[a]));
        } while (next_index(idx, sh));
    }
    for (size_t a = 0; a < sh.size(); ++a)
        compare_exact(t, harr<int64_t>(nz[a].get()), want[a], "nonzero[" + std::to_string(a) + "]");
}

template <class T, class S> void end_searchsorted(case_ctx& c, const state<T, S>& st, tally& t) {
    rng_t& r = c.r;
    // sorted: some of a's values and fresh ones, sorted here; on the device a reversed view of a
    // descending base or a contiguous array
    std::vector<T> sv;
    for (size_t k = 0; k < st.host.size() && sv.size() < 40; ++k)
        if (coin(r, 0.3)) sv.push_back(st.host.data()[k]);
    for (size_t k = below(r, 12); k-- > 0;)
        sv.push_back(value<T>(r));
    std::stable_sort(sv.begin(), sv.end(), sort_less<T>);
    const bool rev = coin(r, 0.4);
    harr<T> base = new_host<T>({sv.size()});
    for (size_t k = 0; k < sv.size(); ++k)
        base.data()[rev ? sv.size() - 1 - k : k] = sv[k];
    ca::cl_array<T, S> b(test::q(), shape_type{sv.size()});
    b.set(base);
    const ca::cl_array<T, S> sorted = rev ? b(ca::range(ca::none, ca::none, -1)) : b;
    const bool right = coin(r, 0.5);
    c.text += std::string("  searchsorted(sorted of ") + std::to_string(sv.size()) +
              (rev ? " (reversed view)" : "") + ", a, " + (right ? "right" : "left") + ")\n";
    const harr<int64_t> got =
        ca::searchsorted(sorted, st.dev, right ? ca::side::right : ca::side::left).get();
    harr<int64_t> want = new_host<int64_t>(shape_of(st.host));
    for (size_t k = 0; k < st.host.size(); ++k) {
        const T x = st.host.data()[k];
        const auto it = right ? std::upper_bound(sv.begin(), sv.end(), x, sort_less<T>)
                              : std::lower_bound(sv.begin(), sv.end(), x, sort_less<T>);
        want.data()[k] = int64_t(it - sv.begin());
    }
    compare_exact(t, got, want, "searchsorted");
}

template <class T, class S> void end_unique_counts(case_ctx& c, const state<T, S>& st, tally& t) {
    c.text += "  unique_counts(a)\n";
    const auto res = ca::unique_counts(st.dev);
    const auto [u, n] = host_unique(st.host);
    compare_exact(t, harr<T>(res.values.get()), u, "unique_counts values");
    compare_exact(t, harr<int64_t>(res.counts.get()), n, "unique_counts counts");
}

// bincount of a fresh 1-d view of small non-negative values (integers only), maybe weighted.
template <class T, class S> void end_bincount(case_ctx& c, tally& t, bool fp64) {
    rng_t& r = c.r;
    const size_t n = coin(r, 0.15) ? 500 + below(r, 3000) : below(r, 30);
    const size_t top = coin(r, 0.1) ? 5000 : 40;
    auto x = fresh<T, S>(c, {n}, "x", [&](rng_t& g) { return T(below(g, top)); });
    const size_t minlength = coin(r, 0.5) ? 0 : below(r, 60);
    const bool weighted = fp64 && coin(r, 0.3);
    c.text += "  bincount(x" + std::string(weighted ? ", weights" : "") + ", minlength " +
              std::to_string(minlength) + ")\n";
    size_t len = minlength;
    for (size_t k = 0; k < n; ++k)
        len = std::max(len, size_t(x.host.data()[k]) + 1);
    if (!weighted) {
        std::vector<int64_t> want(len, 0);
        for (size_t k = 0; k < n; ++k)
            ++want[size_t(x.host.data()[k])];
        compare_exact(t, harr<int64_t>(ca::bincount(x.dev, minlength).get()), want, "bincount");
    } else {
        auto w = fresh<T, S>(c, {n}, "weights");
        std::vector<ld> sum(len, 0), mag(len, 0);
        std::vector<size_t> cnt(len, 0);
        for (size_t k = 0; k < n; ++k) {
            const size_t b = size_t(x.host.data()[k]);
            sum[b] += ld(w.host.data()[k]);
            mag[b] += std::fabs(ld(w.host.data()[k]));
            ++cnt[b];
        }
        const harr<double> got = ca::bincount(x.dev, w.dev, minlength).get();
        if (got.size() != len) {
            ++t.bad;
            t.first_bad += "  bincount: " + std::to_string(got.size()) + " bins instead of " +
                           std::to_string(len) + "\n";
            return;
        }
        for (size_t b = 0; b < len; ++b)
            compare_close<double>(t, got.data()[b], sum[b],
                                  ld(cnt[b] + 1) * ld(std::numeric_limits<double>::epsilon()) *
                                      mag[b],
                                  "bincount bin " + std::to_string(b));
    }
}

template <class T, class S> void end_histogram(case_ctx& c, const state<T, S>& st, tally& t) {
    rng_t& r = c.r;
    using E = ca::histogram_edge_t<T>;
    static const size_t bin_pool[] = {1, 3, 10, 64};
    const size_t bins = bin_pool[below(r, 4)];
    std::optional<std::pair<double, double>> range;
    if (coin(r, 0.4)) {
        // ends exactly representable in the edge type: no question which side of an end is in
        double lo = double(long(below(r, 241)) - 120) / 2,
               hi = double(long(below(r, 241)) - 120) / 2;
        if (lo > hi) std::swap(lo, hi);
        range.emplace(lo, hi);
    }
    c.text += "  histogram(a, " + std::to_string(bins) +
              (range ? ", (" + show(range->first) + ", " + show(range->second) + ")" : "") + ")\n";
    bool finite = true;
    ld mn = std::numeric_limits<ld>::infinity(), mx = -mn;
    for (const T& v : st.host) {
        if constexpr (is_f<T>) finite = finite && std::isfinite(v);
        mn = std::min<ld>(mn, ld(v));
        mx = std::max<ld>(mx, ld(v));
    }
    if (!range && !finite) {
        // NumPy: the autodetected range is not finite (ValueError); clarray: usage_error
        bool threw = false;
        try {
            (void)ca::histogram(st.dev, bins);
        } catch (const ca::usage_error&) {
            threw = true;
        }
        ++t.compared;
        if (!threw) {
            ++t.bad;
            t.first_bad += "  histogram of non-finite values without a range did not throw\n";
        }
        return;
    }
    double lo = range ? range->first : (st.host.size() ? double(mn) : 0.0);
    double hi = range ? range->second : (st.host.size() ? double(mx) : 1.0);
    if (lo == hi) lo -= 0.5, hi += 0.5;
    const auto res = range ? ca::histogram(st.dev, bins, range) : ca::histogram(st.dev, bins);
    const harr<E> edges = res.edges.get();
    const harr<int64_t> counts = res.counts.get();
    if (edges.size() != bins + 1 || counts.size() != bins) {
        ++t.bad;
        t.first_bad += "  histogram: " + std::to_string(counts.size()) + " counts, " +
                       std::to_string(edges.size()) + " edges\n";
        return;
    }
    // edges: linspace(lo, hi, bins + 1) in float64, stored in E (one rounding of E)
    const double step = (hi - lo) / double(bins);
    for (size_t k = 0; k <= bins; ++k) {
        const double e = k == bins ? hi : double(k) * step + lo;
        compare_close<E>(t, edges.data()[k], ld(e),
                         ld(std::numeric_limits<E>::epsilon()) * std::fabs(ld(e)) +
                             4 * ld(std::numeric_limits<double>::epsilon()) *
                                 (std::fabs(lo) + std::fabs(hi)),
                         "edge " + std::to_string(k));
    }
    // counts against the stored edges: [e_k, e_k+1), the last closed; outside [lo, hi] and NaN
    // not counted
    std::vector<int64_t> want(bins, 0);
    for (const T& v : st.host) {
        const ld x = ld(v);
        if (!(x >= ld(lo) && x <= ld(hi))) continue;
        size_t k = bins - 1;
        while (k > 0 && x < ld(edges.data()[k]))
            --k;
        ++want[k];
    }
    compare_exact(t, counts, want, "histogram counts");
}

// fft along an axis (n: the extent, or padded / truncated to 6, 8 or 16) against a naive DFT in
// long double, then ifft back to the padded input. Float and double input.
template <class T, class S> void end_fft(case_ctx& c, state<T, S> st, tally& t) {
    rng_t& r = c.r;
    bool finite = true;
    for (const T& v : st.host)
        finite = finite && std::isfinite(v);
    if (!finite) {
        // NaN and inf spread over a whole line: the transform of where(isfinite(a), a, 0)
        c.text += "  a = where(isfinite(a), a, 0)\n";
        st.set(ca::cl_array<T, S>(ca::where(ca::isfinite(st.dev), st.dev, T(0))));
        for (T& v : st.host)
            v = std::isfinite(v) ? v : T(0);
    }
    using C = std::complex<T>;
    const std::vector<size_t> sh = shape_of(st.host);
    const size_t ax = below(r, sh.size());
    static const long ns[] = {-1, -1, 6, 8, 16};
    long n = ns[below(r, 5)];
    if (n == -1 && (sh[ax] == 0 || sh[ax] > 16)) n = 8;
    const size_t N = size_t(n == -1 ? long(sh[ax]) : n);
    c.text += "  fft(a, " + std::to_string(n) + ", " + std::to_string(ax) + "), then ifft\n";
    const auto X = ca::fft::fft(st.dev, n, std::ptrdiff_t(ax));
    const auto Y = ca::fft::ifft(X, -1, std::ptrdiff_t(ax));
    const harr<C> gx = X.get(), gy = Y.get();
    std::vector<size_t> os = sh;
    os[ax] = N;
    if (shape_of(gx) != os || shape_of(gy) != os) {
        ++t.bad;
        t.first_bad +=
            "  fft: shape " + shape_text(shape_of(gx)) + " instead of " + shape_text(os) + "\n";
        return;
    }
    const ld eps = std::numeric_limits<T>::epsilon(), pi = std::acos(ld(-1));
    const ld lg = std::log2(ld(std::max<size_t>(N, 2)));
    std::vector<size_t> outer = os;
    outer[ax] = 1;
    if (count(os) == 0) return;
    std::vector<size_t> idx(os.size(), 0);
    do {
        std::vector<ld> x(N, 0);
        ld mag = 0;
        std::vector<size_t> i = idx;
        for (size_t j = 0; j < N && j < sh[ax]; ++j) {
            i[ax] = j;
            x[j] = ld(host_at(st.host, i));
            mag += std::fabs(x[j]);
        }
        // VkFFT's error grows with log2(N); a generous constant, far below a wrong value's error
        const ld b = 8 * (lg + 2) * eps * mag + ld(std::numeric_limits<T>::min());
        for (size_t k = 0; k < N; ++k) {
            ld re = 0, im = 0;
            for (size_t j = 0; j < N; ++j) {
                const ld a = -2 * pi * ld((j * k) % N) / ld(N);
                re += x[j] * std::cos(a);
                im += x[j] * std::sin(a);
            }
            i[ax] = k;
            const size_t f = flat_of(os, i);
            compare_close<T>(t, gx.data()[f].real(), re, b, "fft re" + idx_text(i));
            compare_close<T>(t, gx.data()[f].imag(), im, b, "fft im" + idx_text(i));
            compare_close<T>(t, gy.data()[f].real(), x[k], 2 * b, "ifft(fft) re" + idx_text(i));
            compare_close<T>(t, gy.data()[f].imag(), 0, 2 * b, "ifft(fft) im" + idx_text(i));
        }
    } while (next_index(idx, outer));
}

// ---- one case: a fresh view, 1-3 stages, a terminal ----
template <class T, class S> void breadth_case(case_ctx& c, bool fp64) {
    (void)fp64;
    rng_t& r = c.r;
    constexpr bool floating = is_f<T>;
    constexpr bool atomics = sizeof(T) >= 4; // add_at: 32- and 64-bit element types
    c.text += std::string("[fuzz_breadth] dtype ") + type_name<T>() + ", " + S::name + "\n";
    state<T, S> st = fresh<T, S>(c, breadth_shape(r, 3), "a");
    // float error bounds of the current values (add_at, matmul); exact otherwise
    std::vector<ld> bound(st.host.size(), 0);
    std::vector<bool> unk(st.host.size(), false);
    auto exact_now = [&] {
        bound.assign(st.host.size(), 0);
        unk.assign(st.host.size(), false);
    };
    auto inexact = [&] {
        for (size_t k = 0; k < bound.size(); ++k)
            if (bound[k] != 0 || unk[k]) return true;
        return false;
    };
    const size_t stages = below(r, 4);
    for (size_t s = 0; s < stages; ++s) {
        if (coin(r, 0.35)) {
            if (inexact()) break; // a view would move the bounds: stop here and compare
            cut_view(c, st);
            exact_now();
        }
        const size_t op = below(r, 12);
        if (inexact()) break; // the bounds are per element: compare before moving values
        bool ran = true;
        switch (op) {
        case 0:
            stage_flip(c, st);
            break;
        case 1:
            stage_roll(c, st);
            break;
        case 2:
            stage_pad(c, st);
            break;
        case 3:
            stage_concatenate(c, st);
            break;
        case 4:
            ran = coin(r, 0.5) ? stage_put<T, S, int64_t>(c, st) : stage_put<T, S, int32_t>(c, st);
            break;
        case 5:
        case 11:
            ran =
                coin(r, 0.5) ? stage_take<T, S, int64_t>(c, st) : stage_take<T, S, int32_t>(c, st);
            break;
        case 6:
            stage_sort(c, st);
            break;
        case 7:
            if constexpr (atomics)
                ran = coin(r, 0.5) ? stage_add_at<T, S, int64_t>(c, st, bound)
                                   : stage_add_at<T, S, int32_t>(c, st, bound);
            else
                ran = false;
            break;
        case 8:
            stage_compress(c, st);
            break;
        case 9:
            stage_unique(c, st);
            break;
        case 10:
            if constexpr (floating) {
                // a matrix from a vector (a new first axis) or from a stack (its first matrix)
                const std::vector<size_t> sh = shape_of(st.host);
                if (sh.size() == 1) {
                    st.set(ca::expand_dims(st.dev, 0));
                    st.host.reshape(std::vector<size_t>{1, sh[0]});
                    c.text += "  expand_dims(a, 0)\n";
                } else if (sh.size() == 3 && sh[0] > 0) {
                    st.set(st.dev(std::ptrdiff_t(0)));
                    harr<T> m = new_host<T>({sh[1], sh[2]});
                    std::copy(st.host.begin(), st.host.begin() + long(m.size()), m.begin());
                    st.host = m;
                    c.text += "  a[0]\n";
                }
                ran = st.host.dimension() == 2;
                if (ran) stage_matmul(c, st, bound, unk);
            } else {
                ran = false;
            }
            break;
        }
        static const char* const names[] = {"flip",     "roll",   "pad",    "concatenate",
                                            "put",      "take",   "sort",   "add_at",
                                            "compress", "unique", "matmul", "take"};
        if (ran) c.stats->kinds[std::string("stage ") + names[op]]++;
        if (bound.size() != st.host.size()) exact_now();
    }
    tally t;
    size_t end = below(r, 8);
    if (inexact()) end = 0;
    if (end == 5 && !std::is_integral_v<T>) end = 1;
    if (end == 7 && (!floating || st.host.size() == 0 || st.host.size() > 4000)) end = 0;
    static const char* const ends[] = {"compare",       "argsort",  "nonzero",   "searchsorted",
                                       "unique_counts", "bincount", "histogram", "fft round trip"};
    c.stats->kinds[std::string("end ") + ends[end]]++;
    switch (end) {
    case 0: {
        const harr<T> got = st.dev.get();
        c.text += "  compare a\n";
        if (shape_of(got) != shape_of(st.host)) {
            ++t.bad;
            t.first_bad = "  shape " + shape_text(shape_of(got)) + " instead of " +
                          shape_text(shape_of(st.host)) + "\n";
            break;
        }
        std::vector<size_t> idx(got.dimension(), 0);
        for (size_t k = 0; k < got.size(); ++k, next_index(idx, shape_of(got))) {
            hv<T> w = exact<T>(st.host.data()[k]);
            if constexpr (floating) w.e = bound[k];
            w.unk = unk[k];
            check_value(t, got.data()[k], w, idx_text(idx));
        }
        break;
    }
    case 1:
        end_argsort(c, st, t);
        break;
    case 2:
        end_nonzero(c, st, t);
        break;
    case 3:
        end_searchsorted(c, st, t);
        break;
    case 4:
        end_unique_counts(c, st, t);
        break;
    case 5:
        if constexpr (std::is_integral_v<T>) end_bincount<T, S>(c, t, fp64);
        break;
    case 6:
        end_histogram(c, st, t);
        break;
    case 7:
        if constexpr (floating) end_fft(c, st, t);
        break;
    }
    report(c, t, "");
}

// ---- dtype combinations of the breadth fuzz: element type, storage ----
template <class T_, class S_> struct breadth_combo {
    using T = T_;
    using S = S_;
};
using breadth_combos =
    std::tuple<breadth_combo<float, ca::svm_coarse>, breadth_combo<int64_t, ca::buffer>,
               breadth_combo<int32_t, ca::svm_fine>, breadth_combo<uint8_t, ca::svm_coarse>,
               breadth_combo<double, ca::buffer>, breadth_combo<int16_t, ca::svm_fine>>;
inline constexpr size_t breadth_combo_count = std::tuple_size_v<breadth_combos>;

template <size_t I> void run_breadth_at(case_ctx& c, bool fp64) {
    using B = std::tuple_element_t<I, breadth_combos>;
    breadth_case<typename B::T, typename B::S>(c, fp64);
}
extern template void run_breadth_at<0>(case_ctx&, bool);
extern template void run_breadth_at<1>(case_ctx&, bool);
extern template void run_breadth_at<2>(case_ctx&, bool);
extern template void run_breadth_at<3>(case_ctx&, bool);
extern template void run_breadth_at<4>(case_ctx&, bool);
extern template void run_breadth_at<5>(case_ctx&, bool);
static_assert(breadth_combo_count == 6, "instantiate each breadth combination in "
                                        "tests/fuzz/combos_b*.cpp and declare it extern above");

// Runs breadth case n of the seed (its own numbering, apart from the expression fuzz's).
inline void run_breadth_case(uint64_t seed, uint64_t n, fuzz_stats& stats, bool fp64) {
    // a different stream from the expression fuzz's case n
    std::seed_seq seq{uint32_t(seed), uint32_t(seed >> 32), uint32_t(n), uint32_t(n >> 32),
                      0xb7ea7du};
    case_ctx c{seed, size_t(n), rng_t(seq), "", &stats};
    ++stats.cases;
    const size_t ci = below(c.r, breadth_combo_count);
    dispatch<breadth_combo_count>(ci, [&](auto i) {
        using B = std::tuple_element_t<decltype(i)::value, breadth_combos>;
        if (!storage_present<typename B::S>() || (!fp64 && std::is_same_v<typename B::T, double>)) {
            ++stats.skipped_cases;
            return;
        }
        try {
            run_breadth_at<decltype(i)::value>(c, fp64);
        } catch (const std::exception& e) {
            INFO("CLARRAY_FUZZ_SEED=" << seed << " CLARRAY_FUZZ_CASE=" << n
                                      << " clarray_tests \"[fuzz_breadth]\"\n"
                                      << c.text);
            FAIL_CHECK("exception: " << e.what());
            ++stats.failed_cases;
        }
    });
}

} // namespace fz
