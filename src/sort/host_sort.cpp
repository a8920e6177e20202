#include "host_sort.hpp"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <utility>

#include "clarray/runtime/native_kernel.hpp"

namespace clarray::detail::sorting {

namespace {

// The native kernel's arguments (OpenCL copies them): plain data and host pointers.
struct host_sort_args {
    const unsigned char* in;
    unsigned char* out;
    sort_layout L, O;
    std::uint64_t row_len, rows;
    void* keys[2];          // row_len keys each (K)
    std::uint32_t* pos[2];  // row_len positions each (argsort only)
    std::uint32_t kind;     // 0 unsigned (and bool), 1 signed, 2 floating
    std::uint32_t bytes;    // of a value: 1, 2, 4 or 8
    std::uint32_t indices;  // write positions (int64), not values
};

// Element offset of flat C-order index i of the view L (kernels/sort.cl, view_offset).
std::int64_t view_offset(const sort_layout& L, std::uint64_t i) {
    if (L.rank == 1) return L.offset + static_cast<std::int64_t>(i) * L.strides[0];
    std::int64_t off = L.offset;
    for (std::int64_t d = static_cast<std::int64_t>(L.rank) - 1; d >= 0; --d) {
        const std::uint64_t e = L.shape[d];
        off += static_cast<std::int64_t>(i % e) * L.strides[d];
        i /= e;
    }
    return off;
}

// Keys as kernels/sort.cl makes them: to_key keeps a value's bits (from_key gives them back)
// and orders them as unsigned integers; ordered() is the place in NumPy's order (every NaN
// last, -0.0 as +0.0).
template <class K> struct keys {
    unsigned bits;
    std::uint32_t kind;
    K top, all, inf;

    keys(std::uint32_t kind_, unsigned bytes) : bits(8 * bytes), kind(kind_) {
        top = K(1) << (bits - 1);
        all = bits == 8 * sizeof(K) ? ~K(0) : (K(1) << bits) - 1;
        inf = 0;
        if (kind == 2) { // the key of +inf: exponent all ones, mantissa zero
            const unsigned mantissa = bits == 16 ? 10 : bits == 32 ? 23 : 52;
            inf = to_key((all >> (mantissa + 1)) << mantissa);
        }
    }
    K to_key(K b) const {
        if (kind == 2) return (b & top) ? (~b & all) : (b | top);
        if (kind == 1) return b ^ top;
        return b;
    }
    K from_key(K k) const {
        if (kind == 2) return (k & top) ? (k ^ top) : (~k & all);
        if (kind == 1) return k ^ top;
        return k;
    }
    K ordered(K k) const {
        if (kind != 2) return k;
        if (k > inf || k < (~inf & all)) return all;
        return k == top - 1 ? top : k;
    }
};

template <class K> K load_bits(const unsigned char* p, unsigned bytes) {
    switch (bytes) {
    case 1:
        return *p;
    case 2: {
        std::uint16_t v;
        std::memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    }
    default: {
        std::uint64_t v;
        std::memcpy(&v, p, 8);
        return static_cast<K>(v);
    }
    }
}

// One row: keys (and positions) loaded with the histograms of every digit, then one stable
// counting pass per digit that the keys do not all share, then the row written.
template <class K> void sort_row(const host_sort_args& a, const keys<K>& kd, std::uint64_t r) {
    const std::uint64_t n = a.row_len;
    const unsigned passes = kd.bits / 8;
    K* k[2] = {static_cast<K*>(a.keys[0]), static_cast<K*>(a.keys[1])};
    std::uint32_t* p[2] = {a.pos[0], a.pos[1]};
    std::uint64_t counts[8][256] = {};
    for (std::uint64_t i = 0; i < n; ++i) {
        const K key = kd.to_key(
            load_bits<K>(a.in + a.bytes * view_offset(a.L, r * n + i), a.bytes));
        k[0][i] = key;
        if (a.indices) p[0][i] = static_cast<std::uint32_t>(i);
        const K o = kd.ordered(key);
        for (unsigned d = 0; d < passes; ++d)
            ++counts[d][(o >> (8 * d)) & 255];
    }
    int cur = 0;
    for (unsigned d = 0; d < passes; ++d) {
        std::uint64_t* c = counts[d];
        bool shared = false;
        for (unsigned v = 0; v < 256 && !shared; ++v)
            shared = c[v] == n;
        if (shared) continue; // every key has this digit: the pass would keep the order
        std::uint64_t run = 0;
        for (unsigned v = 0; v < 256; ++v)
            run += std::exchange(c[v], run);
        const K* ks = k[cur];
        K* kt = k[1 - cur];
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint64_t at = c[(kd.ordered(ks[i]) >> (8 * d)) & 255]++;
            kt[at] = ks[i];
            if (a.indices) p[1 - cur][at] = p[cur][i];
        }
        cur = 1 - cur;
    }
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::int64_t o = view_offset(a.O, r * n + i);
        if (a.indices) {
            const std::int64_t v = p[cur][i];
            std::memcpy(a.out + 8 * o, &v, 8);
        } else {
            const std::uint64_t v = kd.from_key(k[cur][i]);
            switch (a.bytes) {
            case 1: {
                const auto b = static_cast<std::uint8_t>(v);
                std::memcpy(a.out + o, &b, 1);
                break;
            }
            case 2: {
                const auto b = static_cast<std::uint16_t>(v);
                std::memcpy(a.out + 2 * o, &b, 2);
                break;
            }
            case 4: {
                const auto b = static_cast<std::uint32_t>(v);
                std::memcpy(a.out + 4 * o, &b, 4);
                break;
            }
            default:
                std::memcpy(a.out + 8 * o, &v, 8);
            }
        }
    }
}

template <class K> void CL_CALLBACK run(void* args) {
    const host_sort_args& a = *static_cast<const host_sort_args*>(args);
    const keys<K> kd(a.kind, a.bytes);
    for (std::uint64_t r = 0; r < a.rows; ++r)
        sort_row<K>(a, kd, r);
}

} // namespace

bool host_sort_serves(const op& o, std::size_t row_len) {
    const device& dev = o.q.context().device();
    return dev.tuning().host_sort && dev.runs_native_kernels() &&
           o.kind != storage_kind::buffer && !is_complex(o.t) &&
           row_len <= std::numeric_limits<std::uint32_t>::max();
}

void host_sort(const op& o, allocation* in, const sort_layout& L, const sort_layout& O,
               std::size_t row_len, bool indices, allocation* result) {
    const std::size_t bytes = dtype_size(o.t);
    const std::size_t key_bytes = bytes == 8 ? 8 : 4;
    std::shared_ptr<allocation> scratch[4];
    host_sort_args a{};
    a.in = static_cast<const unsigned char*>(in->svm_pointer());
    a.out = static_cast<unsigned char*>(result->svm_pointer());
    a.L = L;
    a.O = O;
    a.row_len = row_len;
    a.rows = L.n / row_len;
    for (int b = 0; b < 2; ++b) {
        scratch[b] = o.temp(row_len * key_bytes);
        a.keys[b] = scratch[b]->svm_pointer();
        if (indices) {
            scratch[2 + b] = o.temp(row_len * 4);
            a.pos[b] = static_cast<std::uint32_t*>(scratch[2 + b]->svm_pointer());
        }
    }
    const dtype_kind kind = dtype_kind_of(o.t);
    a.kind = kind == dtype_kind::floating ? 2 : kind == dtype_kind::signed_integer ? 1 : 0;
    a.bytes = static_cast<std::uint32_t>(bytes);
    a.indices = indices;

    in->check_not_mapped(access::read, o.what);
    result->check_not_mapped(access::write, o.what);
    wait_list deps;
    in->add_dependencies(o.q, access::read, deps);
    result->add_dependencies(o.q, access::write, deps);
    for (auto& s : scratch)
        if (s) s->add_dependencies(o.q, access::write, deps);
    const event done = enqueue_native(o.q, key_bytes == 8 ? run<std::uint64_t> : run<std::uint32_t>,
                                      &a, sizeof a, deps, o.what);
    in->record(o.q, access::read, done);
    result->record(o.q, access::write, done);
    for (auto& s : scratch)
        if (s) s->record(o.q, access::write, done);
}

} // namespace clarray::detail::sorting
