// Port of PyOpenCL's examples/svm.py: SVM capabilities, then a `twice` kernel over coarse-grained
// SVM (host access through maps) and fine-grained SVM (direct host access after synchronizing).
// Exits non-zero on a mismatch.
#include <clarray/clarray.hpp>

#include <cstdio>
#include <iostream>

namespace ca = clarray;

static const char* twice_source = R"CLC(
kernel void twice(global float* a) {
    size_t gid = get_global_id(0);
    a[gid] = 2 * a[gid];
}
)CLC";

int main() {
    try {
        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        const ca::device& dev = ctx.device();
        ca::svm_capabilities caps = ctx.svm_caps();
        std::cout << "platform: " << dev.platform_name() << "\ndevice:   " << dev.name() << " ("
                  << dev.version() << ")\n"
                  << "coarse-grained buffer SVM: " << (caps.coarse ? "yes" : "no") << "\n"
                  << "fine-grained buffer SVM:   " << (caps.fine ? "yes" : "no") << "\n"
                  << "fine-grained system SVM:   " << (caps.fine_system ? "yes" : "no") << "\n"
                  << "SVM atomics:               " << (caps.atomics ? "yes" : "no") << "\n";

        ca::program prg(ctx, twice_source);
        ca::kernel twice = prg.kernel("twice");
        int failures = 0;
        const std::size_t n = 10;

        if (caps.coarse) {
            auto a = ca::empty<float, ca::svm_coarse>(q, {n});
            {
                auto host = a.map(ca::access::write); // clEnqueueSVMMap; unmap at scope end
                host.fill(17.0f);
            }
            twice(q, {n}, a);
            {
                auto host = a.map(ca::access::read);
                for (std::size_t i = 0; i < n; ++i)
                    if (host(i) != 34.0f) ++failures;
            }
            std::cout << "coarse-grained SVM: " << (failures ? "MISMATCH" : "done") << "\n";
        } else {
            std::cout << "coarse-grained SVM: not supported, skipped\n";
        }

        if (caps.fine) {
            int before = failures;
            auto a = ca::empty<float, ca::svm_fine>(q, {n});
            float* p = a.svm_data(); // fine grain: the host may touch it directly
            for (std::size_t i = 0; i < n; ++i) p[i] = 17.0f;
            twice(q, {n}, a).wait(); // synchronize before reading on the host
            for (std::size_t i = 0; i < n; ++i)
                if (p[i] != 34.0f) ++failures;
            std::cout << "fine-grained SVM:   " << (failures != before ? "MISMATCH" : "done")
                      << "\n";
        } else {
            std::cout << "fine-grained SVM:   not supported, skipped\n";
        }

        // The Buffer policy works everywhere; same check through a mapped Buffer.
        {
            int before = failures;
            auto a = ca::full<float, ca::buffer>(q, {n}, 17.0f);
            twice(q, {n}, a);
            auto host = a.map(ca::access::read);
            for (std::size_t i = 0; i < n; ++i)
                if (host(i) != 34.0f) ++failures;
            std::cout << "buffer:             " << (failures != before ? "MISMATCH" : "done")
                      << "\n";
        }
        return failures ? 1 : 0;
    } catch (const ca::error& e) {
        std::cerr << "clarray error: " << e.what() << "\n";
        return 2;
    }
}
