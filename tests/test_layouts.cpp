// Structs shared by host and kernels: the device reads every field where the host wrote it.
#include "support.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <string>
#include <vector>

#include <clarray/array/builtin_kernels.hpp>
#include <clarray/codegen/assign_source.hpp>
#include <clarray/codegen/reduce_source.hpp>

#include "xtensor_headers.hpp"

namespace {

using clarray::detail::assign_layout_schema;
using clarray::detail::nd_pair;
using clarray::detail::reduce_layout_schema;
using clarray::detail::word_struct;

// Field f's element e, for scalar and array fields alike.
template <class F> auto* element(F& f, std::size_t e) {
    if constexpr (std::is_array_v<F>)
        return &f[e];
    else
        return (void)e, &f;
}

std::string str(std::size_t v) {
    return std::to_string(v);
}

// Runs kernel "probe" (global long* out, <layout>) as one work-item with `words` as its layout
// argument, by value or through a read-only buffer, and returns out[0 .. words.size()).
std::vector<cl_long> run_probe(const std::string& source, const std::vector<cl_long>& words,
                               bool in_buffer) {
    using clarray::detail::check_cl;
    using clarray::detail::handle;
    ca::context& ctx = test::ctx();
    ca::queue& q = test::q();
    ca::program prg(ctx, source);
    ca::kernel k = prg.kernel("probe");
    const std::size_t bytes = words.size() * sizeof(cl_long);
    cl_int rc = CL_SUCCESS;
    handle<cl_mem> out(clCreateBuffer(ctx.get(), CL_MEM_WRITE_ONLY, bytes, nullptr, &rc));
    check_cl(rc, "clCreateBuffer(out)");
    handle<cl_mem> lay;
    cl_mem out_mem = out.get();
    check_cl(clSetKernelArg(k.get(), 0, sizeof(cl_mem), &out_mem), "clSetKernelArg(out)");
    if (in_buffer) {
        lay = handle<cl_mem>(clCreateBuffer(ctx.get(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                            bytes, const_cast<cl_long*>(words.data()), &rc));
        check_cl(rc, "clCreateBuffer(layout)");
        cl_mem lay_mem = lay.get();
        check_cl(clSetKernelArg(k.get(), 1, sizeof(cl_mem), &lay_mem), "clSetKernelArg(layout)");
    } else {
        check_cl(clSetKernelArg(k.get(), 1, bytes, words.data()), "clSetKernelArg(layout)");
    }
    const std::size_t one = 1;
    check_cl(clEnqueueNDRangeKernel(q.get(), k.get(), 1, nullptr, &one, &one, 0, nullptr, nullptr),
             "clEnqueueNDRangeKernel");
    std::vector<cl_long> back(words.size());
    check_cl(clEnqueueReadBuffer(q.get(), out.get(), CL_TRUE, 0, bytes, back.data(), 0, nullptr,
                                 nullptr),
             "clEnqueueReadBuffer");
    return back;
}

// One field element as the host addresses it (word) and as the kernel reads it (ref).
struct probe_point {
    std::size_t word;
    std::string ref;
};

// Words holding distinct values (some negative), the probe kernel copying each field element to
// out[its word], and the check that the device read every word where the host put it, by value
// when the words fit the device's parameter space and through a buffer always. The points must
// cover the words exactly once.
void check_word_struct(const word_struct& layout, const std::vector<probe_point>& points) {
    std::vector<std::size_t> covered;
    for (const probe_point& p : points)
        covered.push_back(p.word);
    std::sort(covered.begin(), covered.end());
    std::vector<std::size_t> all(layout.words());
    std::iota(all.begin(), all.end(), std::size_t(0));
    REQUIRE(covered == all);

    std::vector<cl_long> words(layout.words());
    for (std::size_t i = 0; i < words.size(); ++i)
        words[i] = (i % 3 == 1 ? -1 : 1) * static_cast<cl_long>(1000 + 7 * i);
    for (bool in_buffer : {false, true}) {
        if (!in_buffer &&
            words.size() * sizeof(cl_long) + 64 > test::ctx().device().max_parameter_size())
            continue;
        std::string src = layout.declaration();
        src += "kernel void probe(global long* out, " + layout.parameter(in_buffer) + ") {\n";
        src += word_struct::open(in_buffer);
        for (const probe_point& p : points)
            src += "    out[" + str(p.word) + "] = (long)" + p.ref + ";\n";
        src += "}\n" + word_struct::close(in_buffer);
        INFO("layout in a buffer: " << in_buffer << "\n" << src);
        CHECK(run_probe(src, words, in_buffer) == words);
    }
}

} // namespace

TEST_CASE("nd_pair: the OpenCL C declaration has the C++ struct's offsets and size", "[layouts]") {
    // A kernel reports sizeof and every field offset of the declared struct, and echoes a
    // by-value argument field by field: both come from the one field list.
    std::string src = nd_pair::cl_declaration();
    src += "kernel void offsets(global const nd_pair* p, global ulong* out) {\n";
    src += "    out[0] = sizeof(nd_pair);\n";
    std::vector<std::uint64_t> host{sizeof(nd_pair)};
    std::string echo = "kernel void echo(global long* out, nd_pair L) {\n";
    nd_pair pair;
    std::vector<std::int64_t> values;
#define CLARRAY_PROBE_FIELD(T, NAME, EXTENT)                                                       \
    src += "    out[" + str(host.size()) +                                                         \
           "] = (ulong)((global const char*)&p->" #NAME " - (global const char*)p);\n";            \
    host.push_back(offsetof(nd_pair, NAME));                                                       \
    for (std::size_t e = 0; e < std::max<std::size_t>(EXTENT, 1); ++e) {                           \
        const std::int64_t i = static_cast<std::int64_t>(values.size());                           \
        const auto v = static_cast<T>(i % 2 ? -3 * i - 1 : 100000 + i);                            \
        *element(pair.NAME, e) = v;                                                                \
        echo += "    out[" + str(values.size()) + "] = (long)L." #NAME +                           \
                (EXTENT ? "[" + str(e) + "]" : std::string()) + ";\n";                             \
        values.push_back(static_cast<std::int64_t>(v));                                            \
    }
    CLARRAY_ND_PAIR_FIELDS(CLARRAY_PROBE_FIELD)
#undef CLARRAY_PROBE_FIELD
    src += "}\n" + echo + "}\n";
    INFO(src);
    ca::program prg(test::ctx(), src);
    ca::queue& q = test::q();

    auto dummy = ca::zeros<std::int64_t, ca::buffer>(q, {sizeof(nd_pair) / 8 + 1});
    auto offsets = ca::zeros<std::uint64_t, ca::buffer>(q, {host.size()});
    prg.kernel("offsets")(q, {1}, dummy, offsets);
    xt::xarray<std::uint64_t> got = offsets.get();
    CHECK(std::vector<std::uint64_t>(got.begin(), got.end()) == host);

    auto echoed = ca::zeros<std::int64_t, ca::buffer>(q, {values.size()});
    prg.kernel("echo")(q, {1}, echoed, pair);
    xt::xarray<std::int64_t> back = echoed.get();
    CHECK(std::vector<std::int64_t>(back.begin(), back.end()) == values);
}

TEST_CASE("assignment layouts: the kernel reads each word where the launch writes it",
          "[layouts]") {
    struct variant {
        std::size_t operands, rank;
        bool contiguous;
    };
    // Contiguous, strided, and rank 16 with 20 operands (beyond pocl's parameter space).
    for (variant v : {variant{1, 1, true}, variant{5, 1, true}, variant{1, 1, false},
                      variant{3, 4, false}, variant{20, ca::max_dims, false}}) {
        INFO("operands " << v.operands << ", rank " << v.rank << ", contiguous " << v.contiguous);
        const assign_layout_schema s(v.operands, v.rank, v.contiguous);
        // The fields as the skeletons (kernels/assign_common.cl and the shapes after it) read
        // them.
        std::vector<probe_point> points{{s.count_word(), "L.count"}};
        for (std::size_t j = 0; j < v.operands; ++j)
            points.push_back({s.offset_word(j), "L.offset[" + str(j) + "]"});
        if (!v.contiguous) {
            for (std::size_t i = 0; i < v.rank; ++i)
                points.push_back({s.shape_word(i), "L.shape[" + str(i) + "]"});
            for (std::size_t j = 0; j < v.operands; ++j)
                for (std::size_t i = 0; i < v.rank; ++i)
                    points.push_back(
                        {s.stride_word(j, i), "L.stride[" + str(j) + "][" + str(i) + "]"});
        }
        check_word_struct(s.layout(), points);
    }
}

TEST_CASE("reduction layouts: the kernel reads each word where the launch writes it", "[layouts]") {
    struct variant {
        std::size_t operands, kept_rank, red_rank;
    };
    for (variant v : {variant{1, 1, 1}, variant{4, 2, 3}, variant{17, ca::max_dims, 1}}) {
        INFO("operands " << v.operands << ", kept rank " << v.kept_rank << ", reduced rank "
                         << v.red_rank);
        const reduce_layout_schema s(v.operands, v.kept_rank, v.red_rank);
        // The fields as the skeletons (kernels/reduce_operands.cl and the kernels after it) read
        // them.
        const auto at = [](const char* field, std::size_t i) {
            return "L." + std::string(field) + "[" + str(i) + "]";
        };
        const auto at2 = [](const char* field, std::size_t j, std::size_t i) {
            return "L." + std::string(field) + "[" + str(j) + "][" + str(i) + "]";
        };
        std::vector<probe_point> points{{s.outputs_word(), "L.outputs"},
                                        {s.reduced_count_word(), "L.length"},
                                        {s.parts_word(), "L.part_count"},
                                        {s.chunk_word(), "L.chunk"},
                                        {s.kept_inner_word(), "L.inner_outputs"},
                                        {s.blocks_word(), "L.inner_blocks"},
                                        {s.count_word(), "L.count"}};
        for (std::size_t i = 0; i < v.kept_rank; ++i)
            points.push_back({s.kept_shape_word(i), at("kept_shape", i)});
        for (std::size_t i = 0; i < v.red_rank; ++i)
            points.push_back({s.reduced_shape_word(i), at("reduced_shape", i)});
        for (std::size_t j = 0; j < v.operands; ++j) {
            points.push_back({s.offset_word(j), at("offset", j)});
            for (std::size_t i = 0; i < v.kept_rank; ++i)
                points.push_back({s.kept_stride_word(j, i), at2("kept_stride", j, i)});
            for (std::size_t i = 0; i < v.red_rank; ++i)
                points.push_back({s.reduced_stride_word(j, i), at2("reduced_stride", j, i)});
        }
        check_word_struct(s.layout(), points);
    }
}

TEST_CASE("reductions and scans with the layout in a buffer (rank 12, 8 operands)",
          "[layouts][reduce][scan]") {
    using T = std::int32_t;
    using S = ca::buffer;
    ca::queue& q = test::q();
    // Extent-2 views of extent-3 axes do not coalesce: the layouts keep 12 axes of 8 inputs,
    // beyond pocl's 1024 parameter bytes.
    const ca::shape_type base(12, 3);
    const auto h2 = ca::range(0, 2);
    auto view = [&](const auto& a) { return a(h2, h2, h2, h2, h2, h2, h2, h2, h2, h2, h2, h2); };
    auto x2 = xt::range(0, 2);
    auto hview = [&](const auto& a) {
        return xt::xarray<T>(xt::view(a, x2, x2, x2, x2, x2, x2, x2, x2, x2, x2, x2, x2));
    };
    xt::xarray<T> hs[8];
    ca::cl_array<T, S> ds[8];
    for (unsigned i = 0; i < 8; ++i) {
        hs[i] = test::random_array<T>(base, 40 + i);
        ds[i] = ca::to_device<S>(q, hs[i]);
    }
    auto e = view(ds[0]) + view(ds[1]) * view(ds[2]) - view(ds[3]) + view(ds[4]) +
             view(ds[5]) * view(ds[6]) - view(ds[7]);
    const xt::xarray<T> he = hview(hs[0]) + hview(hs[1]) * hview(hs[2]) - hview(hs[3]) +
                             hview(hs[4]) + hview(hs[5]) * hview(hs[6]) - hview(hs[7]);
    const xt::xarray<std::int64_t> he64 = xt::cast<std::int64_t>(he);

    // Alternate kept and reduced axes: 6 and 6 after coalescing.
    const xt::xarray<std::int64_t> sums = ca::sum(e, {1, 3, 5, 7, 9, 11}).get();
    CHECK(sums == xt::xarray<std::int64_t>(xt::sum(he64, {1, 3, 5, 7, 9, 11})));
    // The (value, index) accumulator struct through the same path.
    const xt::xarray<std::int64_t> arg = ca::argmax(e, 5).get();
    CHECK(arg == xt::xarray<std::int64_t>(xt::argmax(he, 5)));
    // The scan's layout adds its output operand.
    const xt::xarray<std::int64_t> scanned = ca::cumsum(e, 5).get();
    CHECK(scanned == xt::xarray<std::int64_t>(xt::cumsum(he64, 5)));
}
