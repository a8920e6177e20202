// Uses an installed clarray: arange on the device, back to the host, checked against the host;
// the version macros match the version the build system reports (CONSUMER_EXPECTED_VERSION).
#include <clarray/clarray.hpp>

#include <cstring>

int main() {
    namespace ca = clarray;
#ifdef CONSUMER_EXPECTED_VERSION
    if (std::strcmp(CLARRAY_VERSION, CONSUMER_EXPECTED_VERSION) != 0) return 2;
#endif
    static_assert(CLARRAY_VERSION_MAJOR >= 0 && CLARRAY_VERSION_MINOR >= 0 &&
                      CLARRAY_VERSION_PATCH >= 0,
                  "version macros");
    ca::context ctx = ca::context::from_env();
    ca::queue q(ctx);
    auto a = ca::arange<int, ca::buffer>(q, 0, 100);
    auto h = a.get();
    for (int i = 0; i < 100; ++i)
        if (h(i) != i) return 1;
    return 0;
}
