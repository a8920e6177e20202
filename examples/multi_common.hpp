#pragma once
// The runs of the sharded examples (multi_heat, multi_kmeans): where the parts go, from the
// first argument:
//   one      two parts on two queues of one device
//   two      one part per device (two devices, e.g. POCL_DEVICES="pthread pthread"; with one
//            device, two queues of it, said so)
//   mpi      one part per MPI rank (under mpirun; needs a build with MPI)
#include <clarray/clarray.hpp>
#ifdef CLARRAY_HAVE_MPI
#include <clarray/multi/mpi.hpp>
#endif

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace ca = clarray;
namespace multi = ca::multi;

struct placement {
    std::string mode;
    std::vector<ca::queue> queues; // this process's parts
    multi::options options;        // communicator (mpi)
    ca::queue reference;           // the single-device run
    int rank = 0;
};

// The placement the mode asks for; throws clarray::usage_error on an unknown mode.
inline placement make_placement(const std::string& mode) {
    auto devs = ca::all_devices();
    if (mode == "one") {
        ca::context ctx = ca::context::from_env();
        return {mode, {ca::queue(ctx), ca::queue(ctx)}, {}, ca::queue(ctx)};
    }
    if (mode == "two") {
        if (devs.size() < 2) {
            std::cout << "one device only: two queues of it stand for two devices\n";
            return make_placement("one");
        }
        ca::context c0(devs[0]), c1(devs[1]);
        return {mode, {ca::queue(c0), ca::queue(c1)}, {}, ca::queue(c0)};
    }
#ifdef CLARRAY_HAVE_MPI
    if (mode == "mpi") {
        multi::options o;
        o.comm = multi::mpi::world();
        const int rank = o.comm->rank();
        ca::context ctx(devs[static_cast<std::size_t>(rank) % devs.size()]);
        return {mode, {ca::queue(ctx)}, o, ca::queue(ctx), rank};
    }
#endif
    throw ca::usage_error("unknown mode '" + mode + "' (one, two" +
#ifdef CLARRAY_HAVE_MPI
                          ", mpi" +
#endif
                          std::string(")"));
}

// Calls f(storage) with coarse SVM where every queue's device has it, else with Buffer storage
// (CLARRAY_DISABLE_SVM, or a device without SVM).
template <class F> int with_storage(const placement& p, F f) {
    bool svm = p.reference.context().svm_caps().coarse;
    for (const auto& q : p.queues)
        svm = svm && q.context().svm_caps().coarse;
    return svm ? f(ca::svm_coarse{}) : f(ca::buffer{});
}

// Runs body(placement) in the mode of argv[1] (MPI set up and torn down for mpi); the exit
// status: body's, 2 on an error.
template <class Body> int run_example(int argc, char** argv, const char* name, Body body) {
    const std::string mode = argc > 1 ? argv[1] : "one";
#ifdef CLARRAY_HAVE_MPI
    const bool mpi = mode == "mpi";
    if (mpi) MPI_Init(&argc, &argv);
#endif
    int rc = 0;
    try {
        placement p = make_placement(mode);
        rc = body(p);
    } catch (const std::exception& e) {
        std::cerr << name << ": " << e.what() << "\n";
#ifdef CLARRAY_HAVE_MPI
        if (mpi) MPI_Abort(MPI_COMM_WORLD, 2); // the other ranks would wait forever
#endif
        rc = 2;
    }
#ifdef CLARRAY_HAVE_MPI
    if (mpi) {
        int worst = 0;
        MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        rc = worst;
        MPI_Finalize();
    }
#endif
    return rc;
}
