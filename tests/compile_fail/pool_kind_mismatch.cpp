// Compiled by the pool_compile_* tests (tests/CMakeLists.txt), never run. CLARRAY_COMPILE_CASE 0
// is the positive control and must compile; every other case must fail to compile with the
// diagnostic the test expects: an SVM pool never serves Buffer storage and vice versa.
#include <clarray/clarray.hpp>

namespace ca = clarray;

void pool_usage(const ca::queue& q) {
    const ca::context& ctx = q.context();
    ca::svm_pool<ca::svm_coarse> coarse_pool(ctx);
    ca::svm_pool<ca::svm_fine> fine_pool(ctx);
    ca::buffer_pool buffer_pool(ctx);
#if CLARRAY_COMPILE_CASE == 0
    ca::cl_array<float, ca::svm_coarse> a(q, {4}, coarse_pool);
    ca::cl_array<float, ca::svm_fine> b(q, {4}, fine_pool);
    ca::cl_array<float, ca::buffer> c(q, {4}, buffer_pool);
    ca::pool_for_t<ca::buffer> same_as_buffer_pool = buffer_pool;
    auto d = ca::zeros<float>(q, {4}, same_as_buffer_pool);
    static_assert(std::is_same_v<decltype(d), ca::cl_array<float, ca::buffer>>);
    auto e = ca::full<float>(q, {4}, 1.0f, fine_pool);
    static_assert(std::is_same_v<decltype(e), ca::cl_array<float, ca::svm_fine>>);
    ca::cl_array<float, ca::svm_coarse> f = a + a;
    (void)b, (void)c, (void)f;
#elif CLARRAY_COMPILE_CASE == 1 // SVM pool for Buffer storage
    ca::cl_array<float, ca::buffer> a(q, {4}, coarse_pool);
#elif CLARRAY_COMPILE_CASE == 2 // Buffer pool for SVM storage
    ca::cl_array<float, ca::svm_coarse> a(q, {4}, buffer_pool);
#elif CLARRAY_COMPILE_CASE == 3 // coarse SVM pool for fine SVM storage
    ca::cl_array<float, ca::svm_fine> a(q, {4}, coarse_pool);
#elif CLARRAY_COMPILE_CASE == 4 // an SVM pool of Buffer storage
    ca::svm_pool<ca::buffer> p(ctx);
#elif CLARRAY_COMPILE_CASE == 5 // a factory asked for Buffer storage from an SVM pool
    auto a = ca::zeros<float, ca::buffer>(q, {4}, coarse_pool);
#endif
}
