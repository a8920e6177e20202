// Sharded arrays over MPI ranks (run under mpirun -np 2 or more): every result is checked
// against the same computation on one cl_array in this process (the single-device clarray result)
// and a plain host loop. Exit 0: all checks pass on every rank; 1: a check failed.
#include <clarray/clarray.hpp>
#include <clarray/multi/mpi.hpp>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

namespace ca = clarray;
namespace multi = ca::multi;

namespace {
int failures = 0;
int rank_ = 0;
void check(bool ok, const std::string& what) {
    if (!ok) {
        ++failures;
        std::cerr << "rank " << rank_ << ": FAILED " << what << "\n";
    }
}
template <class A> std::vector<float> host(const A& a) {
    auto h = a.get();
    return std::vector<float>(h.begin(), h.end());
}

template <class S> void run(const std::vector<ca::queue>& qs, const ca::queue& ref_q) {
    const std::size_t n = 45, m = 4;
    std::vector<float> h(n * m);
    for (std::size_t i = 0; i < h.size(); ++i)
        h[i] = static_cast<float>((i * 37) % 101) - 50.0f;
    h[33 * m + 2] = 200.0f;
    multi::options o;
    o.comm = multi::mpi::world();
    o.halo = 1;
    auto a = multi::scatter<float, S>(qs, h, {n, m}, o);
    check(host(a) == h, "scatter/get");
    check(host(a.gather(ref_q)) == h, "gather");
    std::vector<bool> hb(n);
    for (std::size_t i = 0; i < n; ++i)
        hb[i] = (i * 7) % 3 == 0;
    auto b = multi::scatter<bool, S>(qs, hb, {n}, o);
    auto gb = b.get();
    check(std::vector<bool>(gb.begin(), gb.end()) == hb, "scatter/get of bool");
    auto d = ca::to_device<S>(ref_q, h).reshape({n, m});

    // Element-wise, part by part: equal to the single device's, bit for bit.
    multi::array<float, S> e = a * 2.0f - multi::sqrt(multi::abs(a));
    ca::cl_array<float, S> e_ref = d * 2.0f - ca::sqrt(ca::abs(d));
    check(host(e) == host(e_ref), "expression");

    // Reductions: the values are small integers, so every order gives the same sum.
    double hs = 0;
    for (float v : h)
        hs += v;
    check(multi::sum(a).item() == ca::sum(d).item(), "sum = single device");
    check(multi::sum(a).item() == static_cast<float>(hs), "sum = host");
    check(multi::max(a).item() == 200.0f && multi::min(a).item() == ca::min(d).item(), "max/min");
    check(multi::argmax(a) == ca::argmax(d).item(), "argmax");
    check(multi::argmax(a) == static_cast<std::int64_t>(33 * m + 2), "argmax = host");
    check(multi::argmin(a) == ca::argmin(d).item(), "argmin");
    auto cols = multi::sum(a, multi::rows_axis);
    check(host(cols.part(0)) == host(ca::sum(d, {0})), "sum along axis 0 (replicated)");
    auto rows = multi::max(a, 1);
    check(host(rows) == host(ca::max(d, {1})), "max along axis 1 (sharded)");

    // Halos: a stencil over the rows, zero outside the array, the exchange overlapped with the
    // interior rows.
    auto x = a.exchange_halos_begin(1);
    auto r = multi::empty<float, S>(qs, {n, m}, o);
    r.trimmed(1, 1) = a.shifted(-1).trimmed(1, 1) - a.shifted(1).trimmed(1, 1) * 2.0f;
    x.wait();
    r.head(1) = a.shifted(-1).head(1) - a.shifted(1).head(1) * 2.0f;
    r.tail(1) = a.shifted(-1).tail(1) - a.shifted(1).tail(1) * 2.0f;
    auto got = host(r);
    bool ok = true;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j) {
            const float up = i > 0 ? h[(i - 1) * m + j] : 0.0f;
            const float down = i + 1 < n ? h[(i + 1) * m + j] : 0.0f;
            ok = ok && got[i * m + j] == up - down * 2.0f;
        }
    check(ok, "halo stencil = host");
    a.exchange_halos(1);
    auto r2 = multi::empty<float, S>(qs, {n, m}, o);
    r2 = a.shifted(-1) - a.shifted(1) * 2.0f;
    check(host(r2) == got, "halo stencil after a blocking exchange");
}
} // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    try {
        auto devs = ca::all_devices();
        ca::context ctx(devs[static_cast<std::size_t>(rank_) % devs.size()]);
        ca::queue q(ctx);
        // One part per rank, then two per rank (two queues of the rank's device).
        for (const auto& qs :
             {std::vector<ca::queue>{q}, std::vector<ca::queue>{q, ca::queue(ctx)}}) {
            if (ctx.svm_caps().coarse) run<ca::svm_coarse>(qs, q);
            run<ca::buffer>(qs, q);
        }
    } catch (const std::exception& e) {
        std::cerr << "rank " << rank_ << ": " << e.what() << "\n";
        MPI_Abort(MPI_COMM_WORLD, 2); // the other ranks would wait in a collective forever
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank_ == 0)
        std::cout << (all ? "multi MPI checks FAILED" : "multi MPI checks passed") << "\n";
    MPI_Finalize();
    return all ? 1 : 0;
}
