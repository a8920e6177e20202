// Interop: arrays over foreign memory (cl_mem, SVM, host pointers) with their lifetime owners,
// event ordering with foreign commands both ways, DLPack in and out.
#include "support.hpp"

#include <atomic>
#include <complex>
#include <cstdlib>
#include <cstring>

#include <clarray/interop/foreign.hpp>
#if CLARRAY_HAVE_DLPACK
#include <clarray/interop/dlpack.hpp>
#endif

// Element-wise equality of two xtensor expressions (same shape and values), printing both on
// failure.
namespace {

using ca::access;

// Counts the releases of a foreign owner.
struct release_counter {
    std::atomic<int> n{0};
    static void release(void* self) { static_cast<release_counter*>(self)->n.fetch_add(1); }
    ca::foreign_owner owner() { return ca::foreign_owner(&release_counter::release, this); }
};

// Waits (polling, at most 20 s) until c reaches n: owners are released from a completion callback
// once the commands that use the memory are done, so the host sees it a little later; where SVM
// releases are parked (CLARRAY_SVM_RELEASE=park), at the next sweep, which free_cached makes.
bool reaches(const std::atomic<int>& c, int n) {
    for (int i = 0; i < 2000 && c.load() < n; ++i) {
        ca::free_cached(test::ctx());
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return c.load() == n;
}

cl_mem make_buffer(const ca::context& ctx, std::size_t bytes, const void* init) {
    cl_int rc = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx.get(), CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0),
                              bytes, const_cast<void*>(init), &rc);
    REQUIRE(rc == CL_SUCCESS);
    return m;
}

// The element of a strided layout over flat memory, as the host reference sees it.
template <class T>
xt::xarray<T> strided_reference(const std::vector<T>& flat, const ca::shape_type& shape,
                                const ca::strides_type& strides, std::ptrdiff_t offset) {
    xt::xarray<T> r =
        xt::xarray<T>::from_shape(std::vector<std::size_t>(shape.begin(), shape.end()));
    std::vector<std::size_t> idx(shape.size(), 0);
    for (std::size_t k = 0; k < r.size(); ++k) {
        std::ptrdiff_t pos = offset;
        for (std::size_t d = 0; d < shape.size(); ++d)
            pos += static_cast<std::ptrdiff_t>(idx[d]) * strides[d];
        r.data()[k] = flat[static_cast<std::size_t>(pos)];
        for (std::size_t d = shape.size(); d-- > 0;) {
            if (++idx[d] < shape[d]) break;
            idx[d] = 0;
        }
    }
    return r;
}

std::vector<float> iota_floats(std::size_t n, float start = 0.5f) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = start + static_cast<float>(i);
    return v;
}

} // namespace

TEST_CASE("from_cl_mem: a strided, offset array over a foreign buffer, owner released once",
          "[interop]") {
    auto& q = test::q();
    const std::vector<float> flat = iota_floats(64);
    cl_mem mem = make_buffer(q.context(), flat.size() * sizeof(float), flat.data());
    release_counter rc;
    {
        // Column-major 3x4 with a leading dimension of 5, starting at element 2.
        auto a = ca::from_cl_mem<float>(q, mem, {{3, 4}, {1, 5}, 2}, rc.owner());
        clReleaseMemObject(mem); // clarray holds its own reference
        xt::xarray<float> ref = strided_reference(flat, {3, 4}, {1, 5}, 2);
        CHECK_ARRAY_EQ(a.get(), ref);
        ca::cl_array<float, ca::buffer> b = a * 2.0f + 1.0f;
        CHECK_ARRAY_EQ(b.get(), ref * 2.0f + 1.0f);
        auto v = a(ca::range(1, 3), ca::all()); // views share the foreign memory
        v = v * 10.0f;
        xt::xarray<float> ref2 = ref;
        xt::view(ref2, xt::range(1, 3), xt::all()) *= 10.0f;
        CHECK_ARRAY_EQ(a.get(), ref2);
        CHECK(rc.n.load() == 0);
    }
    q.finish();
    CHECK(reaches(rc.n, 1));
}

TEST_CASE("from_svm: arrays over foreign SVM of the context", "[interop]") {
    auto& q = test::q();
    test::each_policy([&](auto policy) {
        using S = decltype(policy);
        if constexpr (S::is_svm) {
            const std::size_t n = 40;
            cl_svm_mem_flags flags =
                CL_MEM_READ_WRITE |
                (S::kind == ca::storage_kind::svm_fine ? CL_MEM_SVM_FINE_GRAIN_BUFFER : 0);
            void* p = clSVMAlloc(q.context().get(), flags, n * sizeof(float), 0);
            REQUIRE(p);
            const std::vector<float> flat = iota_floats(n, -3.0f);
            REQUIRE(clEnqueueSVMMemcpy(q.get(), CL_TRUE, p, flat.data(), n * sizeof(float), 0,
                                       nullptr, nullptr) == CL_SUCCESS);
            struct freer {
                cl_context ctx;
                void* p;
                std::atomic<int> n{0};
            } f{q.context().get(), p};
            {
                // A reversed view: negative stride from the last element.
                auto a = ca::from_svm<float, S>(q, p, n * sizeof(float), {{10}, {-3}, 30},
                                                ca::foreign_owner(
                                                    [](void* self) {
                                                        auto* fr = static_cast<freer*>(self);
                                                        clSVMFree(fr->ctx, fr->p);
                                                        fr->n.fetch_add(1);
                                                    },
                                                    &f));
                xt::xarray<float> ref = strided_reference(flat, {10}, {-3}, 30);
                CHECK_ARRAY_EQ(a.get(), ref);
                a += 1.0f;
                CHECK_ARRAY_EQ(a.get(), ref + 1.0f);
            }
            q.finish();
            CHECK(reaches(f.n, 1));
        }
    });
}

TEST_CASE("from_host_ptr: a CPU device works in host memory", "[interop]") {
    auto& q = test::q();
    const std::size_t n = 1024; // aligned_alloc: the size is a multiple of the alignment
    float* host = static_cast<float*>(std::aligned_alloc(4096, n * sizeof(float)));
    REQUIRE(host);
    for (std::size_t i = 0; i < n; ++i)
        host[i] = static_cast<float>(i);
    release_counter rc;
    if (!q.context().device().is_cpu()) {
        CHECK_THROWS_AS(ca::from_host_ptr<float>(q, host, n * sizeof(float), {{n}}),
                        ca::unsupported);
        std::free(host);
        return;
    }
    {
        auto a = ca::from_host_ptr<float>(q, host, n * sizeof(float), {{32, 32}}, rc.owner());
        a = a * 3.0f;
        // The device wrote the host memory itself (no map, no copy): wait for the write only.
        ca::ready_events(a, access::read).wait();
        for (std::size_t i = 0; i < n; ++i)
            REQUIRE(host[i] == 3.0f * static_cast<float>(i));
    }
    q.finish();
    CHECK(reaches(rc.n, 1));
    if (!q.context().svm_caps().fine_system)
        CHECK_THROWS_AS((ca::from_host_ptr<float, ca::svm_fine>(q, host, n * sizeof(float), {{n}})),
                        ca::unsupported);
    std::free(host);
}

TEST_CASE("foreign memory: bad inputs give typed errors", "[interop]") {
    auto& q = test::q();
    const std::vector<float> flat = iota_floats(12);
    cl_mem mem = make_buffer(q.context(), flat.size() * sizeof(float), flat.data());
    // Layouts the 12 floats do not cover.
    CHECK_THROWS_AS(ca::from_cl_mem<float>(q, mem, {{13}}), ca::shape_error);
    CHECK_THROWS_AS(ca::from_cl_mem<float>(q, mem, {{3, 4}, {4, 1}, 1}), ca::shape_error);
    CHECK_THROWS_AS(ca::from_cl_mem<float>(q, mem, {{4}, {-1}, 2}), ca::shape_error);
    CHECK_THROWS_AS(ca::from_cl_mem<float>(q, mem, {{3, 4}, {1}}), ca::shape_error);
    CHECK_THROWS_AS(ca::from_cl_mem<double>(q, mem, {{7}}), ca::shape_error);
    CHECK_NOTHROW(ca::from_cl_mem<float>(q, mem, {{4}, {-1}, 3}));
    CHECK_THROWS_AS(ca::from_cl_mem<float>(q, nullptr, {{1}}), ca::usage_error);
    // A cl_mem and SVM of another context.
    ca::context other(q.context().device());
    ca::queue oq(other);
    CHECK_THROWS_AS(ca::from_cl_mem<float>(oq, mem, {{12}}), ca::usage_error);
    if (test::storage_available<ca::svm_coarse>()) {
        void* p = clSVMAlloc(q.context().get(), CL_MEM_READ_WRITE, 64, 0);
        REQUIRE(p);
        CHECK_THROWS_AS((ca::from_svm<float>(oq, p, 64, {{16}})), ca::usage_error);
        std::vector<float> host(16);
        CHECK_THROWS_AS((ca::from_svm<float>(q, host.data(), 64, {{16}})), ca::usage_error);
        CHECK_THROWS_AS((ca::from_svm<float>(q, p, 64, {{17}})), ca::shape_error);
        CHECK_THROWS_AS((ca::from_svm<float>(q, nullptr, 64, {{16}})), ca::usage_error);
        clSVMFree(q.context().get(), p);
    }
    // SVM storage on a context without SVM.
    ca::context_options opts = ca::context_options::from_env();
    opts.disable_svm = true;
    ca::context no_svm(q.context().device(), opts);
    ca::queue nq(no_svm);
    std::vector<float> host(16);
    CHECK_THROWS_AS((ca::from_svm<float, ca::svm_coarse>(nq, host.data(), 64, {{16}})),
                    ca::unsupported);
    CHECK_THROWS_AS((ca::from_svm<float, ca::svm_fine>(nq, host.data(), 64, {{16}})),
                    ca::unsupported);
    clReleaseMemObject(mem);
}

TEST_CASE("events both ways: clarray waits for foreign commands, foreign commands for clarray",
          "[interop]") {
    auto& q = test::q();
    const ca::context& ctx = q.context();
    const std::size_t n = 1000;
    cl_mem mem = make_buffer(ctx, n * sizeof(float), nullptr);
    auto a = ca::from_cl_mem<float>(q, mem, {{n}});
    clReleaseMemObject(mem);
    // A foreign library's queue of its own.
    cl_int err = CL_SUCCESS;
    cl_command_queue fq =
        clCreateCommandQueueWithProperties(ctx.get(), ctx.device().id(), nullptr, &err);
    REQUIRE(err == CL_SUCCESS);

    SECTION("foreign write, then clarray reads") {
        const std::vector<float> data = iota_floats(n, 2.0f);
        cl_event gate = clCreateUserEvent(ctx.get(), &err);
        REQUIRE(err == CL_SUCCESS);
        cl_event written = nullptr;
        REQUIRE(clEnqueueWriteBuffer(fq, ca::buffer_of(a), CL_FALSE, 0, n * sizeof(float),
                                     data.data(), 1, &gate, &written) == CL_SUCCESS);
        clFlush(fq);
        ca::wait_for(a, {ca::event(written)}, access::write);
        ca::cl_array<float, ca::buffer> b =
            a * 2.0f; // enqueued behind the foreign write, not before it
        CHECK_FALSE(ca::ready_events(b, access::read).all_complete());
        REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
        clReleaseEvent(gate);
        xt::xarray<float> ref = xt::adapt(data, {n});
        CHECK_ARRAY_EQ(b.get(), ref * 2.0f);
    }
    SECTION("clarray writes, then a foreign read") {
        test::host_wait_gate gate(ctx);
        // clarray's write is held back by the gate; the foreign read must wait for it.
        ca::cl_array<float, ca::buffer> src =
            ca::arange<float, ca::buffer>(q, 0.0f, static_cast<float>(n));
        ca::wait_for(src, {gate.event()}, access::write);
        a = src * 0.5f;
        ca::wait_list deps = ca::ready_events(a, access::read);
        CHECK_FALSE(deps.empty());
        std::vector<float> back(n, -1.0f);
        cl_event read = nullptr;
        REQUIRE(clEnqueueReadBuffer(fq, ca::buffer_of(a), CL_FALSE, 0, n * sizeof(float),
                                    back.data(), deps.size(), deps.data(), &read) == CL_SUCCESS);
        clFlush(fq);
        CHECK(gate.release());
        REQUIRE(clWaitForEvents(1, &read) == CL_SUCCESS);
        ca::wait_for(a, {ca::event(read)}, access::read);
        for (std::size_t i = 0; i < n; ++i)
            REQUIRE(back[i] == 0.5f * static_cast<float>(i));
        // A later clarray write waits for the foreign read (it is recorded as a reader).
        ca::wait_list before_write = ca::ready_events(a, access::write);
        CHECK(before_write.size() >= 1);
    }
    clFinish(fq);
    clReleaseCommandQueue(fq);
}

#if CLARRAY_HAVE_DLPACK

namespace {

template <class T> DLDataType expected_dl_dtype() {
    if constexpr (std::is_same_v<T, bool>)
        return {6, 8, 1};
    else if constexpr (std::is_same_v<T, std::complex<float>> ||
                       std::is_same_v<T, std::complex<double>>)
        return {kDLComplex, static_cast<std::uint8_t>(sizeof(T) * 8), 1};
    else if constexpr (std::is_same_v<T, ca::half> || std::is_floating_point_v<T>)
        return {kDLFloat, static_cast<std::uint8_t>(sizeof(T) * 8), 1};
    else if constexpr (std::is_signed_v<T>)
        return {kDLInt, static_cast<std::uint8_t>(sizeof(T) * 8), 1};
    else
        return {kDLUInt, static_cast<std::uint8_t>(sizeof(T) * 8), 1};
}

// Every dtype on every storage policy.
#define CLARRAY_DLPACK_DTYPE_ROW(S)                                                                \
    test::cfg<bool, S>, test::cfg<std::int8_t, S>, test::cfg<std::uint8_t, S>,                     \
        test::cfg<std::int16_t, S>, test::cfg<std::uint16_t, S>, test::cfg<std::int32_t, S>,       \
        test::cfg<std::uint32_t, S>, test::cfg<std::int64_t, S>, test::cfg<std::uint64_t, S>,      \
        test::cfg<ca::half, S>, test::cfg<float, S>, test::cfg<double, S>,                         \
        test::cfg<std::complex<float>, S>, test::cfg<std::complex<double>, S>
using dlpack_matrix =
    std::tuple<CLARRAY_DLPACK_DTYPE_ROW(ca::svm_coarse), CLARRAY_DLPACK_DTYPE_ROW(ca::svm_fine),
               CLARRAY_DLPACK_DTYPE_ROW(ca::buffer)>;
#undef CLARRAY_DLPACK_DTYPE_ROW

// A tensor as another framework builds it: its own shape/strides arrays and a deleter that
// releases its cl_mem and counts the calls.
struct foreign_tensor {
    DLManagedTensor t{};
    std::vector<std::int64_t> shape, strides;
    cl_mem mem = nullptr;
    std::atomic<int>* deleted = nullptr;
    static void deleter(DLManagedTensor* self) {
        auto* f = static_cast<foreign_tensor*>(self->manager_ctx);
        if (f->mem) clReleaseMemObject(f->mem);
        f->deleted->fetch_add(1);
        delete f;
    }
};

foreign_tensor* make_tensor(cl_mem mem, DLDataType dt, std::vector<std::int64_t> shape,
                            std::vector<std::int64_t> strides, std::uint64_t byte_offset,
                            std::atomic<int>* counter, DLDeviceType dev = kDLOpenCL,
                            void* data = nullptr) {
    auto* f = new foreign_tensor;
    f->shape = std::move(shape);
    f->strides = std::move(strides);
    f->mem = mem;
    f->deleted = counter;
    f->t.dl_tensor.data = data ? data : mem;
    f->t.dl_tensor.device = {dev, 0};
    f->t.dl_tensor.ndim = static_cast<int>(f->shape.size());
    f->t.dl_tensor.dtype = dt;
    f->t.dl_tensor.shape = f->shape.data();
    f->t.dl_tensor.strides = f->strides.empty() ? nullptr : f->strides.data();
    f->t.dl_tensor.byte_offset = byte_offset;
    f->t.manager_ctx = f;
    f->t.deleter = &foreign_tensor::deleter;
    return f;
}

} // namespace

TEMPLATE_LIST_TEST_CASE("DLPack round trip: to_dlpack then from_dlpack over every dtype",
                        "[interop][dlpack]", dlpack_matrix) {
    using T = typename TestType::value_type;
    using S = typename TestType::storage;
    CLARRAY_REQUIRE_CFG(TestType);
    auto& q = test::q();
    xt::xarray<T> h = test::random_array<T>({5, 7}, 3);
    ca::cl_array<T, S> a = ca::to_device<S>(q, h);
    // A strided, offset view: rows 1..4, every second column from 1.
    auto v = a(ca::range(1, 5), ca::range(1, 7, 2));
    DLManagedTensor* t = ca::to_dlpack(v);
    REQUIRE(t);
    const DLTensor& d = t->dl_tensor;
    DLDataType want = expected_dl_dtype<T>();
    CHECK(d.dtype.code == want.code);
    CHECK(d.dtype.bits == want.bits);
    CHECK(d.dtype.lanes == 1);
    REQUIRE(d.ndim == 2);
    CHECK(d.shape[0] == 4);
    CHECK(d.shape[1] == 3);
    CHECK(d.strides[0] == 7);
    CHECK(d.strides[1] == 2);
    CHECK(d.byte_offset == (7 + 1) * sizeof(ca::stored_t<T>));
    const bool host_visible =
        S::kind == ca::storage_kind::svm_fine ||
        (S::kind == ca::storage_kind::svm_coarse && q.context().device().is_cpu() &&
         !q.context().options().emulate_coarse);
    CHECK(d.device.device_type == (host_visible ? kDLCPU : kDLOpenCL));
    xt::xarray<T> ref = xt::view(h, xt::range(1, 5), xt::range(1, 7, 2));
    if (host_visible) { // host memory: read it as a host framework would
        const auto* base =
            static_cast<const ca::stored_t<T>*>(d.data) + d.byte_offset / sizeof(ca::stored_t<T>);
        for (std::size_t i = 0; i < 4; ++i)
            for (std::size_t j = 0; j < 3; ++j)
                REQUIRE(static_cast<T>(base[i * 7 + j * 2]) == ref(i, j));
    }
    {
        auto b = ca::from_dlpack<T, S>(q, t);
        CHECK(b.shape() == v.shape());
        CHECK_ARRAY_EQ(b.get(), ref);
        auto c = b.copy(); // a command that reads the imported memory, recorded on it
        CHECK_ARRAY_EQ(c.get(), ref);
    }
    // Into Buffer storage (as a consumer that takes cl_mem or, on CPU devices, host memory).
    if (!host_visible || q.context().device().is_cpu()) {
        auto b = ca::from_dlpack<T, ca::buffer>(q, ca::to_dlpack(v));
        CHECK_ARRAY_EQ(b.get(), ref);
    }
    // The imported array's deleter dropped clarray's reference: only a and v remain (the release
    // may come from a completion callback: poll).
    for (int i = 0; i < 2000 && a.data().use_count() != 2; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(a.data().use_count() == 2);
}

TEST_CASE("DLPack: a tensor built by hand as another framework would", "[interop][dlpack]") {
    auto& q = test::q();
    const std::vector<float> flat = iota_floats(100, -7.25f);
    std::atomic<int> deleted{0};
    cl_mem mem = make_buffer(q.context(), flat.size() * sizeof(float), flat.data());
    // 4x6 column-major with leading dimension 9, starting 5 elements in (byte_offset 20).
    auto* f = make_tensor(mem, {kDLFloat, 32, 1}, {4, 6}, {1, 9}, 5 * sizeof(float), &deleted);
    xt::xarray<float> ref = strided_reference(flat, {4, 6}, {1, 9}, 5);
    {
        auto b = ca::from_dlpack<float>(q, &f->t);
        CHECK_ARRAY_EQ(b.get(), ref);
        ca::cl_array<float, ca::buffer> c = ca::sum(b, {0}) + 1.0f;
        CHECK_ARRAY_EQ(c.get(), xt::sum(ref, {0}) + 1.0f);
        CHECK(deleted.load() == 0);
    }
    q.finish();
    CHECK(reaches(deleted, 1));
    // No strides (compact row-major), no offset.
    cl_mem mem2 = make_buffer(q.context(), flat.size() * sizeof(float), flat.data());
    auto* g = make_tensor(mem2, {kDLFloat, 32, 1}, {10, 10}, {}, 0, &deleted);
    {
        auto b = ca::from_dlpack<float>(q, &g->t);
        CHECK_ARRAY_EQ(b.get(), strided_reference(flat, {10, 10}, {10, 1}, 0));
    }
    q.finish();
    CHECK(reaches(deleted, 2));
    // Host memory (kDLCPU) on a CPU device: a buffer over it.
    if (q.context().device().is_cpu()) {
        std::vector<float> host = flat;
        auto* h = make_tensor(nullptr, {kDLFloat, 32, 1}, {3, 3}, {20, 2}, 4 * sizeof(float),
                              &deleted, kDLCPU, host.data());
        {
            auto b = ca::from_dlpack<float>(q, &h->t);
            CHECK_ARRAY_EQ(b.get(), strided_reference(flat, {3, 3}, {20, 2}, 4));
        }
        q.finish();
        CHECK(reaches(deleted, 3));
    }
}

TEST_CASE("DLPack: the deleter runs once, after the last enqueued use", "[interop][dlpack]") {
    auto& q = test::q();
    const std::vector<float> flat = iota_floats(4096);
    std::atomic<int> deleted{0};
    cl_mem mem = make_buffer(q.context(), flat.size() * sizeof(float), flat.data());
    auto* f = make_tensor(mem, {kDLFloat, 32, 1}, {4096}, {}, 0, &deleted);
    test::host_wait_gate gate(q.context());
    ca::cl_array<float, ca::buffer> c;
    {
        auto b = ca::from_dlpack<float>(q, &f->t, {gate.event()});
        auto view = b(ca::range(0, 4096, 2));
        c = view * 2.0f; // held back by the gate: still enqueued when b and view go
    }
    // The arrays are gone, the kernel that reads the memory is not: the tensor must stay.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(deleted.load() == 0);
    CHECK(gate.release());
    xt::xarray<float> ref = xt::view(xt::adapt(flat, {flat.size()}), xt::range(0, 4096, 2));
    CHECK_ARRAY_EQ(c.get(), ref * 2.0f);
    q.finish();
    CHECK(reaches(deleted, 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(deleted.load() == 1);
}

TEST_CASE("DLPack: a tensor keeps an exported array's memory after the array is gone",
          "[interop][dlpack]") {
    auto& q = test::q();
    test::each_policy([&](auto policy) {
        using S = decltype(policy);
        const auto before = ca::current_allocation_stats().live_allocations;
        ca::cl_array<float, S> c;
        {
            test::host_wait_gate gate(q.context());
            {
                // The exported array is a temporary: the imported array's tensor holds the last
                // reference to its memory, and a kernel held back by the gate still reads it.
                auto b = ca::from_dlpack<float, S>(
                    q, ca::to_dlpack(ca::arange<float, S>(q, 0.0f, 1000.0f)), {gate.event()});
                c = b * 3.0f;
            }
            CHECK(gate.release());
        }
        xt::xarray<float> ref = xt::arange<float>(0.0f, 1000.0f) * 3.0f;
        CHECK_ARRAY_EQ(c.get(), ref);
        q.finish();
        // Both allocations (the foreign one and the exported one) are released, c's remains.
        for (int i = 0; i < 2000 && ca::current_allocation_stats().live_allocations > before + 1;
             ++i) {
            ca::free_cached(test::ctx());
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        CHECK(ca::current_allocation_stats().live_allocations == before + 1);
    });
}

TEST_CASE("DLPack: bad tensors give typed errors and stay the caller's", "[interop][dlpack]") {
    auto& q = test::q();
    std::atomic<int> deleted{0};
    cl_mem mem = make_buffer(q.context(), 64 * sizeof(float), nullptr);
    auto* f = make_tensor(mem, {kDLFloat, 32, 1}, {8, 8}, {}, 0, &deleted);
    DLTensor& d = f->t.dl_tensor;
    CHECK_THROWS_AS(ca::from_dlpack<double>(q, &f->t), ca::dtype_error);
    CHECK_THROWS_AS(ca::from_dlpack<std::int32_t>(q, &f->t), ca::dtype_error);
    d.dtype.lanes = 4;
    CHECK_THROWS_AS(ca::from_dlpack<float>(q, &f->t), ca::dtype_error);
    d.dtype.lanes = 1;
    d.device.device_type = kDLCUDA;
    CHECK_THROWS_AS(ca::from_dlpack<float>(q, &f->t), ca::usage_error);
    d.device.device_type = kDLOpenCL;
    f->shape[1] = -8;
    CHECK_THROWS_AS(ca::from_dlpack<float>(q, &f->t), ca::shape_error);
    f->shape[1] = 9; // 72 floats in a 64-float buffer
    CHECK_THROWS_AS(ca::from_dlpack<float>(q, &f->t), ca::shape_error);
    f->shape[1] = 8;
    d.byte_offset = 2;
    CHECK_THROWS_AS(ca::from_dlpack<float>(q, &f->t), ca::shape_error);
    d.byte_offset = 4; // one element in: the last one is outside
    CHECK_THROWS_AS(ca::from_dlpack<float>(q, &f->t), ca::shape_error);
    d.byte_offset = 0;
    if (test::storage_available<ca::svm_coarse>()) // a plain buffer is not SVM
        CHECK_THROWS_AS((ca::from_dlpack<float, ca::svm_coarse>(q, &f->t)), ca::usage_error);
    ca::context other(q.context().device());
    ca::queue oq(other);
    CHECK_THROWS_AS(ca::from_dlpack<float>(oq, &f->t), ca::usage_error);
    CHECK_THROWS_AS(ca::from_dlpack<float>(q, nullptr), ca::usage_error);
    CHECK(deleted.load() == 0); // every failure left the tensor to us
    {
        auto ok = ca::from_dlpack<float>(q, &f->t);
        CHECK(ok.shape() == ca::shape_type{8, 8});
    }
    q.finish();
    CHECK(reaches(deleted, 1));
}

#endif // CLARRAY_HAVE_DLPACK
