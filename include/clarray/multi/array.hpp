#pragma once
// Sharded arrays: multi::array<T, S> splits axis 0 into parts, one ordinary cl_array per queue
// (devices, or queues of one device), optionally over the processes of a communicator;
// multi::replicated<T, S> holds one copy per queue. docs/multi.md is the user's page.
//
//   std::vector<ca::queue> qs = {q0, q1};
//   auto a = ca::multi::scatter<float>(qs, host, {n, m});  // rows split evenly
//   ca::multi::options o;
//   o.halo = 1;
//   auto u = ca::multi::zeros<float>(qs, {n, m}, o);       // with halo rows for stencils
//   u.exchange_halos(1);                                   // boundary rows between parts
//   xt::xarray<float> h = a.get();                         // gathered on the host
//
// Each part is a view of its own padded storage (rows + 2 * halo); views of a sharded array
// (shifted, trimmed, head, tail, column selections) are views of every part.
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "clarray/array/cl_array.hpp"
#include "clarray/array/factories.hpp"
#include "clarray/expr/assign.hpp"
#include "clarray/host/conversions.hpp"
#include "clarray/multi/distribution.hpp"
#include "clarray/multi/halo.hpp"
#include "clarray/multi/transfer.hpp"

namespace clarray::multi {

template <class T, class S = svm_coarse> class array;
template <class T, class S = svm_coarse> class replicated;
template <class F> class expr;

// Trait: X is a sharded or replicated array or a multi expression.
//@{
template <class X> struct is_multi : std::false_type {};
template <class T, class S> struct is_multi<array<T, S>> : std::true_type {};
template <class T, class S> struct is_multi<replicated<T, S>> : std::true_type {};
template <class F> struct is_multi<expr<F>> : std::true_type {};
template <class X> inline constexpr bool is_multi_v = is_multi<std::decay_t<X>>::value;
//@}

namespace detail {

// dst = src across queues: a device copy when they share a context; between contexts the bytes
// go through host memory without a host wait when both are contiguous (rows, reduction
// partials), else through get/set (blocks).
template <class T, class S> void copy_between(cl_array<T, S>& dst, const cl_array<T, S>& src) {
    if (dst.size() == 0) return;
    if (dst.get_context() == src.get_context())
        dst = src;
    else if (dst.shape() == src.shape() && dst.is_c_contiguous() && src.is_c_contiguous())
        copy_across_contexts(src.get_queue(), *src.data(), src.byte_offset(), dst.get_queue(),
                             *dst.data(), dst.byte_offset(), dst.nbytes());
    else
        dst.set(src.get());
}

// src's values in a new array on q (as copy_between). Its memory comes from src's pool within
// src's context, from q's default pool in another.
template <class T, class S> cl_array<T, S> to_queue(const cl_array<T, S>& src, const queue& q) {
    const bool same = q.context() == src.get_context();
    cl_array<T, S> dst(q, src.shape(), layout::c, same ? src.data().get() : nullptr);
    copy_between(dst, src);
    return dst;
}

// The rows [begin, end) of a part, relative to its first interior row, as a window that keeps
// its meaning on parts of other sizes: each end counts from the part's start or its end.
struct window {
    bool begin_from_end = false;
    std::ptrdiff_t begin = 0;
    bool end_from_end = true;
    std::ptrdiff_t end = 0;
    std::ptrdiff_t first(std::size_t rows) const {
        return begin + (begin_from_end ? static_cast<std::ptrdiff_t>(rows) : 0);
    }
    std::ptrdiff_t last(std::size_t rows) const {
        return end + (end_from_end ? static_cast<std::ptrdiff_t>(rows) : 0);
    }
};

// The view of `a` that each list of slices in turn gives (as cl_array::operator()).
template <class T, class S>
cl_array<T, S> apply_slices(const cl_array<T, S>& a,
                            const std::vector<std::vector<slice_arg>>& selections) {
    shape_type s = a.shape();
    strides_type st = a.strides();
    std::ptrdiff_t off = a.offset();
    for (const auto& slices : selections) {
        std::vector<slice_arg> list = slices;
        list.emplace_back(all());
        clarray::detail::apply_slices(s, st, off, list.data(), slices.size());
    }
    return cl_array<T, S>(a.get_queue(), a.data(), std::move(s), std::move(st), off);
}

template <class T> std::vector<T> to_vector(const xt::xarray<T>& h) {
    return std::vector<T>(h.begin(), h.end());
}

} // namespace detail

// A sharded n-d array: axis 0 split into parts, one cl_array per queue of this process (and
// further parts on the other processes of a communicator). Copies share the parts (handles), as
// cl_array's do; `x = y` and `x = expression` write values part by part, one kernel per part,
// each on its part's queue, none waiting for the host.
template <class T, class S> class array {
public:
    // The element type.
    using value_type = T;
    // The storage policy of every part.
    using storage_policy = S;
    // The type of one part.
    using part_type = cl_array<T, S>;

    // An unbound array (takes what is first assigned to it).
    array() = default;
    // Uninitialised rows split over the queues as `o` says (halo rows are zero).
    array(const std::vector<queue>& queues, const shape_type& shape, const options& o = {}) {
        if (shape.empty()) throw shape_error("multi::array: a sharded array needs an axis 0");
        if (queues.empty()) throw usage_error("multi::array: no queue given");
        auto d = detail::make_distribution(shape[0], queues.size(), o);
        for (std::size_t i = 0; i < queues.size(); ++i) {
            shape_type ps = shape;
            const std::size_t rows = d->rows[d->first_local + i];
            ps[0] = rows + 2 * d->halo;
            padded_.emplace_back(queues[i], ps);
            if (d->halo) {
                const auto h = static_cast<std::ptrdiff_t>(d->halo);
                const auto r = static_cast<std::ptrdiff_t>(rows);
                padded_.back()(range(0, h)).fill(T{});
                padded_.back()(range(h + r, 2 * h + r)).fill(T{});
            }
        }
        shards_.dist = d;
        shards_.queues = queues;
        refresh();
    }
    // Parts made by the library (reductions along other axes, matmul): parts[i] is part i of d
    // on this process, without halo rows.
    array(std::vector<part_type> parts, std::shared_ptr<const detail::distribution> d)
        : padded_(std::move(parts)) {
        if (padded_.size() != d->local_count)
            throw partition_error("multi::array: " + std::to_string(padded_.size()) +
                                  " parts for a distribution with " +
                                  std::to_string(d->local_count) + " on this process");
        for (std::size_t i = 0; i < padded_.size(); ++i)
            if (padded_[i].dimension() == 0 || padded_[i].shape(0) != d->rows[d->first_local + i])
                throw partition_error("multi::array: part " + std::to_string(i) +
                                      " does not have the distribution's " +
                                      std::to_string(d->rows[d->first_local + i]) + " rows");
        if (d->halo) {
            auto nd = std::make_shared<detail::distribution>(*d);
            nd->halo = 0;
            d = nd;
        }
        shards_.dist = std::move(d);
        for (const auto& p : padded_)
            shards_.queues.push_back(p.get_queue());
        refresh();
    }

    // Evaluates a multi expression into a new sharded array of its partition (one kernel per
    // part).
    template <class F> array(const expr<F>& e) { // NOLINT: implicit, as cl_array's
        if (!e.shards().dist)
            throw partition_error("multi::array: the expression has no sharded operand");
        std::vector<part_type> parts;
        for (std::size_t i = 0; i < e.shards().queues.size(); ++i)
            parts.emplace_back(e.part(i));
        auto d = std::make_shared<detail::distribution>(*e.shards().dist);
        d->rows = e.shards().rows;
        *this = array(std::move(parts), std::move(d));
    }

    // Copies share the parts.
    array(const array&) = default;
    // Takes o's parts; o becomes unbound.
    array(array&&) noexcept = default;
    ~array() = default;
    // Writes o's values into this array part by part (an unbound array becomes a copy).
    array& operator=(const array& o) {
        if (this == &o) return *this;
        if (!bound()) return *this = o.copy();
        detail::check_assignable(shards_, o.shards_);
        for (std::size_t i = 0; i < parts_.size(); ++i)
            detail::copy_between(parts_[i], o.parts_[i]);
        return *this;
    }
    // Takes o's parts when nothing else shares this array's storage (as std::swap needs; o
    // becomes unbound), else writes o's values, as cl_array's move assignment: `u.head(1) =
    // v.head(1)` writes rows.
    array& operator=(array&& o) {
        if (this == &o) return *this;
        if (shares_storage()) return *this = static_cast<const array&>(o);
        padded_ = std::move(o.padded_);
        parts_ = std::move(o.parts_);
        shards_ = std::move(o.shards_);
        win_ = o.win_;
        slices_ = std::move(o.slices_);
        o.padded_.clear();
        o.parts_.clear();
        return *this;
    }
    // Writes the expression's values part by part: one kernel per part on its queue.
    template <class F> array& operator=(const expr<F>& e) {
        if (!bound()) return *this = array(e);
        detail::check_assignable(shards_, e.shards());
        for (std::size_t i = 0; i < parts_.size(); ++i)
            parts_[i] = e.part(i);
        return *this;
    }
    // Writes a scalar into every element.
    array& operator=(const T& v) {
        fill(v);
        return *this;
    }

    // ---- metadata ----
    // Whether the array has parts.
    bool bound() const noexcept { return !parts_.empty(); }
    // The global shape (axis 0: the rows of every part of every process, as this view sees them).
    shape_type shape() const {
        shape_type s = part(0).shape();
        s[0] = 0;
        for (std::size_t r : shards_.rows)
            s[0] += r;
        return s;
    }
    // Number of axes.
    std::size_t dimension() const { return part(0).dimension(); }
    // Number of elements over every part of every process.
    std::size_t size() const {
        std::size_t n = 1;
        for (std::size_t e : shape())
            n *= e;
        return n;
    }
    // Number of parts on this process.
    std::size_t parts() const noexcept { return parts_.size(); }
    // Part i of this process (a view of its padded storage; usage_error when out of range).
    const part_type& part(std::size_t i) const {
        if (i >= parts_.size())
            throw usage_error("multi::array: part " + std::to_string(i) + " of " +
                              std::to_string(parts_.size()) + " (unbound array?)");
        return parts_[i];
    }
    // The parts of this process, in row order.
    const std::vector<part_type>& local_parts() const noexcept { return parts_; }
    // Part i with its halo rows (the whole padded storage of the part).
    const part_type& padded_part(std::size_t i) const {
        part(i);
        return padded_[i];
    }
    // The first global row of this process's part i (as this view sees rows).
    std::size_t part_begin(std::size_t i) const {
        return detail::row_begins(shards_.rows)[shards_.dist->first_local + i];
    }
    // The halo rows kept on each side of every part.
    std::size_t halo() const { return shards_.dist ? shards_.dist->halo : 0; }
    // The communicator (null: this process only).
    const std::shared_ptr<communicator>& comm() const { return shards_.dist->comm; }
    // What expressions check and use: distribution, rows per part, queues.
    const detail::shards& shards() const noexcept { return shards_; }

    // ---- views (share storage; every part viewed alike) ----
    // Rows moved by k (|k| <= halo): part i's row r is row r + k of its part, halo rows included.
    array shifted(std::ptrdiff_t k) const {
        array v = *this;
        v.win_.begin += k;
        v.win_.end += k;
        v.refresh();
        return v;
    }
    // Every part without its first lo and last hi rows.
    array trimmed(std::size_t lo, std::size_t hi) const {
        array v = *this;
        v.win_.begin += static_cast<std::ptrdiff_t>(lo);
        v.win_.end -= static_cast<std::ptrdiff_t>(hi);
        v.refresh();
        return v;
    }
    // The first k rows of every part.
    array head(std::size_t k) const {
        array v = *this;
        v.win_.end_from_end = v.win_.begin_from_end;
        v.win_.end = v.win_.begin + static_cast<std::ptrdiff_t>(k);
        v.refresh();
        return v;
    }
    // The last k rows of every part.
    array tail(std::size_t k) const {
        array v = *this;
        v.win_.begin_from_end = v.win_.end_from_end;
        v.win_.begin = v.win_.end - static_cast<std::ptrdiff_t>(k);
        v.refresh();
        return v;
    }
    // A selection of the other axes of every part, as cl_array::operator() with all() for axis 0
    // (which stays whole: the first argument must be all()).
    template <class... A> array operator()(all_t, const A&... rest) const {
        array v = *this;
        v.slices_.emplace_back(std::vector<slice_arg>{slice_arg(all()), slice_arg(rest)...});
        v.refresh();
        return v;
    }

    // ---- values ----
    // Every element = v (one fill per part, enqueued).
    void fill(const T& v) {
        for (auto& p : parts_)
            p.fill(v);
    }
    // A new sharded array (same partition and queues, no halo rows) with this one's values.
    array copy() const {
        std::vector<part_type> c;
        for (const auto& p : parts_)
            c.push_back(p.copy());
        auto d = std::make_shared<detail::distribution>(*shards_.dist);
        d->rows = shards_.rows;
        return array(std::move(c), std::move(d));
    }
    // Copy to the host, every process's rows in order (with a communicator, on every process).
    // Blocks.
    xt::xarray<T> get() const {
        const shape_type s = shape();
        xt::xarray<T> out = xt::xarray<T>::from_shape(std::vector<std::size_t>(s.begin(), s.end()));
        const std::size_t row = s[0] ? out.size() / s[0] : 0;
        std::vector<char> mine; // bytes, not std::vector<T>: T may be bool
        for (const auto& p : parts_) {
            if (p.size() == 0) continue;
            auto h = p.get();
            const char* first = reinterpret_cast<const char*>(h.data());
            mine.insert(mine.end(), first, first + h.size() * sizeof(T));
        }
        if (!comm()) {
            if (!mine.empty()) std::memcpy(out.data(), mine.data(), mine.size());
            return out;
        }
        std::vector<std::size_t> bytes(comm()->size(), 0);
        for (std::size_t p = 0; p < shards_.rows.size(); ++p)
            bytes[shards_.dist->owner[p]] += shards_.rows[p] * row * sizeof(T);
        comm()->allgatherv(mine.data(), mine.size(), out.data(), bytes);
        return out;
    }
    // Every row on one queue: a new cl_array on q (device copies from parts in q's context,
    // copies through host memory from others, all enqueued; with other processes, through
    // get(), which waits).
    part_type gather(const queue& q) const {
        part_type out(q, shape(), layout::c, nullptr);
        if (comm() && comm()->size() > 1) {
            out.set(get());
            return out;
        }
        std::ptrdiff_t at = 0;
        for (const auto& p : parts_) {
            const auto r = static_cast<std::ptrdiff_t>(p.shape(0));
            if (r == 0) continue;
            part_type dst = out(range(at, at + r));
            detail::copy_between(dst, p);
            at += r;
        }
        return out;
    }
    // Writes the whole array's values from the host (C order, size() values; every process passes
    // the whole array and writes its own rows). Blocks.
    void set(const std::vector<T>& host) {
        if (host.size() != size())
            throw shape_error("multi::array::set: " + std::to_string(host.size()) +
                              " values for an array of " + std::to_string(size()));
        const std::size_t row = shape()[0] ? size() / shape()[0] : 0;
        for (std::size_t i = 0; i < parts_.size(); ++i) {
            const std::size_t b = part_begin(i) * row, n = parts_[i].size();
            if (n)
                parts_[i].set(std::vector<T>(host.begin() + static_cast<std::ptrdiff_t>(b),
                                             host.begin() + static_cast<std::ptrdiff_t>(b + n)));
        }
    }

    // ---- halos ----
    // Copies the `width` boundary rows of every part into its neighbours' halo rows (the rows
    // before part 0 and after the last part are left alone). Between parts of one context they
    // are device copies, between contexts copies through host memory, both enqueued without a
    // host wait; between processes they are messages, waited for here.
    void exchange_halos(std::size_t width) { exchange_halos_begin(width).wait(); }
    // As exchange_halos, returning before the messages between processes are through: kernels
    // that do not read the halo rows may be enqueued before wait().
    [[nodiscard]] halo_exchange exchange_halos_begin(std::size_t width);

private:
    // Whether another array or view holds this one's storage (each part's memory is held twice
    // here: storage and view).
    bool shares_storage() const noexcept {
        for (const auto& p : padded_)
            if (p.data() && p.data().use_count() > 2) return true;
        return false;
    }
    // Recomputes parts_ and the rows of the view from the padded storage, window and slices.
    void refresh() {
        const std::size_t h = halo();
        const auto& all_rows = shards_.dist->rows;
        std::vector<std::size_t> rows;
        for (std::size_t p = 0; p < all_rows.size(); ++p) {
            const std::ptrdiff_t b = win_.first(all_rows[p]), e = win_.last(all_rows[p]);
            if (b < -static_cast<std::ptrdiff_t>(h) ||
                e > static_cast<std::ptrdiff_t>(all_rows[p] + h) || b > e)
                throw shape_error("multi::array: rows [" + std::to_string(b) + ", " +
                                  std::to_string(e) + ") of a part of " +
                                  std::to_string(all_rows[p]) + " rows with " + std::to_string(h) +
                                  " halo rows");
            rows.push_back(static_cast<std::size_t>(e - b));
        }
        shards_.rows = rows;
        parts_.clear();
        for (std::size_t i = 0; i < padded_.size(); ++i) {
            const std::size_t r = all_rows[shards_.dist->first_local + i];
            const auto off = static_cast<std::ptrdiff_t>(h);
            parts_.push_back(detail::apply_slices(
                padded_[i](range(off + win_.first(r), off + win_.last(r))), slices_));
        }
    }

    std::vector<part_type> padded_; // each part's storage, halo rows included
    std::vector<part_type> parts_;  // the views
    detail::shards shards_;
    detail::window win_;
    std::vector<std::vector<slice_arg>> slices_;
};

// A value held once per queue (centroids, weights, reduction results): copy i lives on queue i
// and is what part i of a sharded expression meets. Copies share storage (handles).
template <class T, class S> class replicated {
public:
    // The element type.
    using value_type = T;
    // The storage policy of every copy.
    using storage_policy = S;
    // The type of one copy.
    using part_type = cl_array<T, S>;

    // An unbound value.
    replicated() = default;
    // Uninitialised copies of `shape` on every queue.
    replicated(const std::vector<queue>& queues, const shape_type& shape) {
        if (queues.empty()) throw usage_error("multi::replicated: no queue given");
        for (const auto& q : queues)
            copies_.emplace_back(q, shape);
        shards_.queues = queues;
    }
    // Adopts the copies (one per queue, equal values).
    explicit replicated(std::vector<part_type> copies) : copies_(std::move(copies)) {
        for (const auto& c : copies_)
            shards_.queues.push_back(c.get_queue());
    }
    // Evaluates an expression of replicated operands into new copies.
    template <class F> replicated(const expr<F>& e) { // NOLINT: implicit, as cl_array's
        if (e.shards().dist)
            throw partition_error("multi::replicated: the expression has a sharded operand");
        std::vector<part_type> c;
        for (std::size_t i = 0; i < e.shards().queues.size(); ++i)
            c.emplace_back(e.part(i));
        *this = replicated(std::move(c));
    }
    // Copies share storage.
    replicated(const replicated&) = default;
    // Takes o's copies; o becomes unbound.
    replicated(replicated&&) noexcept = default;
    ~replicated() = default;
    // Writes o's values into every copy (an unbound value becomes a copy).
    replicated& operator=(const replicated& o) {
        if (this == &o) return *this;
        if (copies_.empty()) {
            std::vector<part_type> c;
            for (const auto& p : o.copies_)
                c.push_back(p.copy());
            return *this = replicated(std::move(c));
        }
        detail::check_assignable(shards_, o.shards_);
        for (std::size_t i = 0; i < copies_.size(); ++i)
            detail::copy_between(copies_[i], o.copies_[i]);
        return *this;
    }
    // Takes o's copies when nothing else shares this value's storage (o becomes unbound), else
    // writes o's values.
    replicated& operator=(replicated&& o) {
        if (this == &o) return *this;
        for (const auto& c : copies_)
            if (c.data() && c.data().use_count() > 1)
                return *this = static_cast<const replicated&>(o);
        copies_ = std::move(o.copies_);
        shards_ = std::move(o.shards_);
        o.copies_.clear();
        return *this;
    }
    // Writes the expression into every copy, one kernel per queue.
    template <class F> replicated& operator=(const expr<F>& e) {
        if (copies_.empty()) return *this = replicated(e);
        detail::check_assignable(shards_, e.shards());
        for (std::size_t i = 0; i < copies_.size(); ++i)
            copies_[i] = e.part(i);
        return *this;
    }

    // The shape of the value.
    const shape_type& shape() const { return part(0).shape(); }
    // Number of copies (queues).
    std::size_t parts() const noexcept { return copies_.size(); }
    // The copy on queue i.
    const part_type& part(std::size_t i) const {
        if (i >= copies_.size())
            throw usage_error("multi::replicated: copy " + std::to_string(i) + " of " +
                              std::to_string(copies_.size()));
        return copies_[i];
    }
    // What expressions check and use (no distribution: replicated).
    const detail::shards& shards() const noexcept { return shards_; }
    // The value on the host (from copy 0). Blocks.
    xt::xarray<T> get() const { return part(0).get(); }
    // Writes host values (C order) into every copy. Blocks.
    void set(const std::vector<T>& host) {
        for (auto& c : copies_)
            c.set(host);
    }
    // Every element of every copy = v.
    void fill(const T& v) {
        for (auto& c : copies_)
            c.fill(v);
    }

private:
    std::vector<part_type> copies_;
    detail::shards shards_;
};

// ---- factories ----
// Uninitialised (halo rows zero).
template <class T, class S = svm_coarse>
array<T, S> empty(const std::vector<queue>& queues, const shape_type& shape,
                  const options& o = {}) {
    return array<T, S>(queues, shape, o);
}
// Every element = v (halo rows zero).
template <class T, class S = svm_coarse>
array<T, S> full(const std::vector<queue>& queues, const shape_type& shape, const T& v,
                 const options& o = {}) {
    array<T, S> a(queues, shape, o);
    a.fill(v);
    return a;
}
// Zeros.
template <class T, class S = svm_coarse>
array<T, S> zeros(const std::vector<queue>& queues, const shape_type& shape,
                  const options& o = {}) {
    return full<T, S>(queues, shape, T{}, o);
}
// The host values (C order, of `shape`) split over the queues: each part gets its rows (with a
// communicator every process passes the whole array). Blocks.
template <class T, class S = svm_coarse>
array<T, S> scatter(const std::vector<queue>& queues, const std::vector<T>& host,
                    const shape_type& shape, const options& o = {}) {
    array<T, S> a(queues, shape, o);
    a.set(host);
    return a;
}
// The host xtensor expression split over the queues (its shape is the array's).
template <class T, class S = svm_coarse, class E>
array<T, S> scatter(const std::vector<queue>& queues, const xt::xexpression<E>& host,
                    const options& o = {}) {
    xt::xarray<T> h = host.derived_cast();
    return scatter<T, S>(queues, detail::to_vector(h),
                         shape_type(h.shape().begin(), h.shape().end()), o);
}
// a's values on every queue (device copies within a's context, copies through host memory to
// others; enqueued).
template <class T, class S>
replicated<T, S> replicate(const std::vector<queue>& queues, const cl_array<T, S>& a) {
    std::vector<cl_array<T, S>> c;
    for (const auto& q : queues)
        c.push_back(detail::to_queue(a, q));
    return replicated<T, S>(std::move(c));
}
// The host values (C order, of `shape`) on every queue. Blocks.
template <class T, class S = svm_coarse>
replicated<T, S> replicate(const std::vector<queue>& queues, const std::vector<T>& host,
                           const shape_type& shape) {
    replicated<T, S> r(queues, shape);
    r.set(host);
    return r;
}

// ---- halo exchange ----
template <class T, class S> halo_exchange array<T, S>::exchange_halos_begin(std::size_t width) {
    const auto& d = *shards_.dist;
    if (width == 0) return {};
    if (width > d.halo)
        throw shape_error("exchange_halos: width " + std::to_string(width) + " exceeds the " +
                          std::to_string(d.halo) + " halo rows of the array");
    for (std::size_t r : d.rows)
        if (r < width)
            throw shape_error("exchange_halos: a part of " + std::to_string(r) +
                              " rows cannot fill a halo of " + std::to_string(width));
    const auto w = static_cast<std::ptrdiff_t>(width), h = static_cast<std::ptrdiff_t>(d.halo);
    auto rows_of = [&](std::size_t p) { return static_cast<std::ptrdiff_t>(d.rows[p]); };
    // Halo rows of local part i: low [h - w, h), high [h + r, h + r + w); its boundary rows:
    // first [h, h + w), last [h + r - w, h + r).
    const std::size_t first = d.first_local, n = padded_.size(), parts = d.rows.size();
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t g = first + i;
        const std::ptrdiff_t r = rows_of(g);
        if (i > 0) { // low halo from the previous local part
            const std::ptrdiff_t rp = rows_of(g - 1);
            part_type dst = padded_[i](range(h - w, h));
            detail::copy_between(dst, padded_[i - 1](range(h + rp - w, h + rp)));
        }
        if (i + 1 < n) { // high halo from the next local part
            part_type dst = padded_[i](range(h + r, h + r + w));
            detail::copy_between(dst, padded_[i + 1](range(h, h + w)));
        }
    }
    if (!d.comm || d.comm->size() == 1) return {};
    // Parts at this process's edges trade rows with the neighbouring processes' parts: sends
    // from host maps of the boundary rows (no copy on CPU devices), receives into mapped staging
    // arrays, copied into the halos on wait() (a halo row may not be mapped while kernels run
    // over the part's storage).
    std::vector<communicator::message> sends, receives;
    std::vector<std::function<void()>> release, deliver;
    const std::size_t row_bytes =
        (padded_[0].shape(0) ? padded_[0].nbytes() / padded_[0].shape(0) : 0);
    const std::size_t bytes = row_bytes * width;
    auto map_rows = [&](std::size_t i, std::ptrdiff_t row0, access a) {
        part_type p = padded_[i];
        const std::size_t off = static_cast<std::size_t>(row0) * row_bytes;
        void* host = p.data()->map(p.get_queue(), a, off, bytes);
        release.push_back(
            [p, host, a, off, bytes]() { p.data()->unmap(p.get_queue(), host, a, off, bytes); });
        return host;
    };
    auto receive = [&](std::size_t i, std::ptrdiff_t halo_row0, int peer, int tag) {
        shape_type s = padded_[i].shape();
        s[0] = width;
        part_type staging(padded_[i].get_queue(), s, layout::c, padded_[i].data().get());
        void* host = staging.data()->map(staging.get_queue(), access::write, 0, bytes);
        receives.push_back({peer, tag, host, bytes});
        release.push_back([staging, host, bytes]() {
            staging.data()->unmap(staging.get_queue(), host, access::write, 0, bytes);
        });
        part_type dst = padded_[i](range(halo_row0, halo_row0 + w));
        deliver.push_back([dst, staging]() mutable { dst = staging; });
    };
    std::unique_ptr<communicator::transfer> t;
    try {
        // Tags: 2g for the rows that fill part g's low halo, 2g + 1 for its high halo.
        if (first > 0) {
            const int peer = d.owner[first - 1];
            sends.push_back(
                {peer, static_cast<int>(2 * (first - 1) + 1), map_rows(0, h, access::read), bytes});
            receive(0, h - w, peer, static_cast<int>(2 * first));
        }
        if (first + n < parts) {
            const std::size_t g = first + n - 1;
            const int peer = d.owner[g + 1];
            sends.push_back({peer, static_cast<int>(2 * (g + 1)),
                             map_rows(n - 1, h + rows_of(g) - w, access::read), bytes});
            receive(n - 1, h + rows_of(g), peer, static_cast<int>(2 * g + 1));
        }
        t = d.comm->start(sends, receives);
    } catch (...) {
        for (const auto& f : release) // the maps made so far end; nothing is in flight
            f();
        throw;
    }
    return halo_exchange(d.comm, std::move(t), std::move(release), std::move(deliver));
}

} // namespace clarray::multi
