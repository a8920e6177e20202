// The heat equation on a grid, written once for a sharded array: the rows are split over the
// parts, each step exchanges one halo row between neighbouring parts (overlapped with the
// interior rows, which need no halo), then updates every interior point from its four
// neighbours. Run on two queues of one device, one part per device, or one part per MPI rank
// (multi_common.hpp); the result must equal the single-device computation bit for bit (the
// update is element-wise: the same operations on the same values in every run).
//
//   multi_heat [one|two|mpi] [steps]
#include "multi_common.hpp"

#include <cstdlib>

namespace {

const std::size_t rows = 200, cols = 64;
const float alpha = 0.2f;

// The initial temperature: a hot square in a cold plate, hot left edge.
std::vector<float> initial() {
    std::vector<float> h(rows * cols, 0.0f);
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) {
            if (j == 0) h[i * cols + j] = 100.0f;
            if (i > rows / 3 && i < rows / 2 && j > cols / 3 && j < cols / 2)
                h[i * cols + j] = 50.0f + static_cast<float>((i * 7 + j * 3) % 11);
        }
    return h;
}

// One step of u into v over the columns 1 ... cols-2: `up` and `down` are u's rows moved by one
// (any array type: cl_array views on one device, sharded views).
template <class A, class R> void update(R&& v, const A& u, const A& up, const A& down) {
    const auto c = static_cast<std::ptrdiff_t>(cols);
    auto in = ca::range(1, c - 1);
    v(ca::all(), in) =
        u(ca::all(), in) +
        alpha * (up(ca::all(), in) + down(ca::all(), in) + u(ca::all(), ca::range(0, c - 2)) +
                 u(ca::all(), ca::range(2, c)) - 4.0f * u(ca::all(), in));
}

// The sharded run: rows outside the grid are 0 (the halo rows of the first and last part).
template <class S> std::vector<float> sharded(const placement& p, std::size_t steps) {
    multi::options o = p.options;
    o.halo = 1;
    auto u = multi::scatter<float, S>(p.queues, initial(), {rows, cols}, o);
    auto v = multi::empty<float, S>(p.queues, {rows, cols}, o);
    v = u; // the edge columns stay as they start
    for (std::size_t s = 0; s < steps; ++s) {
        auto pending = u.exchange_halos_begin(1);
        // The interior rows of every part need no halo row: enqueued before the exchange ends.
        update(v.trimmed(1, 1), u.trimmed(1, 1), u.shifted(-1).trimmed(1, 1),
               u.shifted(1).trimmed(1, 1));
        pending.wait();
        update(v.head(1), u.head(1), u.shifted(-1).head(1), u.shifted(1).head(1));
        update(v.tail(1), u.tail(1), u.shifted(-1).tail(1), u.shifted(1).tail(1));
        std::swap(u, v);
    }
    auto h = u.get();
    return std::vector<float>(h.begin(), h.end());
}

// The single-device run: the grid between two zero rows.
template <class S> std::vector<float> single(const ca::queue& q, std::size_t steps) {
    const auto r = static_cast<std::ptrdiff_t>(rows);
    auto u = ca::zeros<float, S>(q, {rows + 2, cols});
    u(ca::range(1, r + 1)).set(initial());
    ca::cl_array<float, S> v = u.copy();
    for (std::size_t s = 0; s < steps; ++s) {
        update(v(ca::range(1, r + 1)), u(ca::range(1, r + 1)), u(ca::range(0, r)),
               u(ca::range(2, r + 2)));
        std::swap(u, v);
    }
    auto h = u(ca::range(1, r + 1)).get();
    return std::vector<float>(h.begin(), h.end());
}

} // namespace

int main(int argc, char** argv) {
    const std::size_t steps = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 50;
    return run_example(argc, argv, "multi_heat", [&](const placement& p) {
        return with_storage(p, [&](auto storage) {
            using S = decltype(storage);
            const auto got = sharded<S>(p, steps);
            const auto want = single<S>(p.reference, steps);
            std::size_t differ = 0;
            for (std::size_t i = 0; i < got.size(); ++i)
                differ += got[i] != want[i];
            double total = 0;
            for (float x : got)
                total += x;
            if (p.rank == 0)
                std::cout << "heat, " << p.mode << ": " << steps << " steps on " << p.queues.size()
                          << " part(s) per process; total heat " << total << "; " << differ
                          << " of " << got.size() << " values differ from one device\n";
            return differ ? 1 : 0;
        });
    });
}
