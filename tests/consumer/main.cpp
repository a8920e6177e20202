// Uses an installed clarray: arange on the device, back to the host, checked against the host.
#include <clarray/clarray.hpp>

int main() {
    namespace ca = clarray;
    ca::context ctx = ca::context::from_env();
    ca::queue q(ctx);
    auto a = ca::arange<int, ca::buffer>(q, 0, 100);
    auto h = a.get();
    for (int i = 0; i < 100; ++i)
        if (h(i) != i) return 1;
    return 0;
}
