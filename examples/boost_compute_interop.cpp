// clarray arrays through Boost.Compute algorithms, in place, with event ordering both ways.
//
// Boost.Compute works on buffers (boost::compute::buffer over a cl_mem). clarray::buffer_of(a)
// is the array's cl_mem (an SVM array's Buffer wrapper), so Boost.Compute sorts, transforms and
// reduces clarray memory with no copy, on a queue of its own: it first waits for
// clarray::ready_events(a) (a barrier), and its marker afterwards goes back to clarray through
// clarray::wait_for, so clarray's next kernels follow it. Checked against the host; returns 1 on
// a mismatch.
#include <boost/compute/algorithm/reduce.hpp>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/algorithm/transform.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/context.hpp>
#include <boost/compute/functional/math.hpp>
#include <boost/compute/iterator/buffer_iterator.hpp>
#include <clarray/clarray.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace ca = clarray;
namespace bc = boost::compute;

namespace {
// clarray's events as a Boost.Compute wait list (both hold their own references).
bc::wait_list to_boost(const ca::wait_list& events) {
    bc::wait_list out;
    for (const ca::event& e : events.events())
        out.insert(bc::event(e.get())); // retains
    return out;
}
// A Boost.Compute event as a clarray event.
ca::event to_clarray(const bc::event& e) {
    return ca::event::retain(e.get());
}
// Iterators over a 1-d contiguous clarray array, for Boost.Compute's algorithms.
template <class T, class S> bc::buffer_iterator<T> begin_of(const ca::cl_array<T, S>& a) {
    return bc::make_buffer_iterator<T>(bc::buffer(ca::buffer_of(a)), a.offset());
}
template <class T, class S> bc::buffer_iterator<T> end_of(const ca::cl_array<T, S>& a) {
    return begin_of(a) + static_cast<std::ptrdiff_t>(a.size());
}
} // namespace

int main() {
    ca::context ctx = ca::context::from_env();
    ca::queue q(ctx);
    // Boost.Compute's view of the same OpenCL context, and a queue of its own.
    bc::context bctx(ctx.get());
    bc::command_queue bq(bctx, bc::device(ctx.device().id()));

    const std::size_t n = 1 << 16;
    std::vector<float> host(n);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
    for (float& v : host)
        v = dist(rng);

    ca::cl_array<float, ca::buffer> x = ca::to_device<ca::buffer>(q, host);
    x = x * 2.0f; // a clarray kernel that Boost.Compute's sort must wait for

    // Sort in place with Boost.Compute, after clarray's writer.
    bq.enqueue_barrier(to_boost(ca::ready_events(x, ca::access::read_write)));
    bc::sort(begin_of(x), end_of(x), bq);
    ca::wait_for(x, {to_clarray(bq.enqueue_marker())}, ca::access::read_write);

    // clarray continues on its own queue, ordered after the sort.
    ca::cl_array<float, ca::buffer> y = ca::abs(x) + 1.0f;

    // Boost.Compute transforms y into a new clarray array (sqrt), then reduces it into a 0-d
    // clarray array: results stay where clarray reads them, no copy.
    ca::cl_array<float, ca::buffer> z(q, {n});
    ca::cl_array<float, ca::buffer> total(q, ca::shape_type{});
    ca::wait_list before = ca::ready_events(y, ca::access::read);
    before.add(ca::ready_events(z, ca::access::write));
    bq.enqueue_barrier(to_boost(before));
    bc::transform(begin_of(y), end_of(y), begin_of(z), bc::sqrt<float>(), bq);
    bc::reduce(begin_of(z), end_of(z), begin_of(total), bq);
    bc::event done = bq.enqueue_marker();
    ca::wait_for(y, {to_clarray(done)}, ca::access::read);
    ca::wait_for(z, {to_clarray(done)}, ca::access::read_write);
    ca::wait_for(total, {to_clarray(done)}, ca::access::write);

    // The host reference.
    std::vector<float> sorted(n);
    for (std::size_t i = 0; i < n; ++i)
        sorted[i] = host[i] * 2.0f;
    std::sort(sorted.begin(), sorted.end());
    double want_total = 0;
    std::vector<float> want_z(n);
    for (std::size_t i = 0; i < n; ++i) {
        want_z[i] = std::sqrt(std::fabs(sorted[i]) + 1.0f);
        want_total += want_z[i];
    }

    auto xs = x.get();
    auto zs = z.get();
    int bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (xs(i) != sorted[i]) ++bad;
        if (std::fabs(zs(i) - want_z[i]) > 1e-5f * want_z[i]) ++bad;
    }
    const double got_total = total.item();
    const bool total_ok = std::fabs(got_total - want_total) <= 1e-4 * want_total;
    std::printf("sorted %zu values with Boost.Compute on clarray memory: %d mismatches; "
                "sum of sqrt(|x|+1) %.6g (host %.6g)\n",
                n, bad, got_total, want_total);
    return bad == 0 && total_ok ? 0 : 1;
}
