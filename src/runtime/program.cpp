#include "clarray/runtime/program.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "clarray/error.hpp"
#include "clarray/runtime/kernel.hpp"
#include "clarray/runtime/program_cache.hpp"

namespace clarray {

namespace detail {

namespace {
std::string build_log(cl_program p, cl_device_id dev) {
    std::size_t n = 0;
    if (clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n) != CL_SUCCESS)
        return "<no build log>";
    std::string log(n, '\0');
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    return log;
}

std::string numbered_excerpt(const std::string& src) {
    std::string out;
    int line = 1;
    std::size_t pos = 0;
    while (pos < src.size() && line <= 200) {
        std::size_t end = src.find('\n', pos);
        if (end == std::string::npos) end = src.size();
        char num[16];
        std::snprintf(num, sizeof num, "%4d| ", line++);
        out += num;
        out.append(src, pos, end - pos);
        out += '\n';
        pos = end + 1;
    }
    return out;
}

// The kernels a program source defines, space-separated (for the build log).
std::string kernel_names(const std::string& src) {
    std::string names;
    const std::string marker = "kernel void ";
    for (std::size_t pos = src.find(marker); pos != std::string::npos;
         pos = src.find(marker, pos + marker.size())) {
        const std::size_t begin = pos + marker.size();
        const std::size_t end = src.find('(', begin);
        if (end == std::string::npos) break;
        if (!names.empty()) names += ' ';
        names.append(src, begin, end - begin);
    }
    return names;
}

// CLARRAY_BUILD_LOG=<file>: one line a program built from source (milliseconds, source bytes,
// its kernels, the options), appended: what a cold start spends its time on.
void log_build(const std::string& source, const std::string& options, double ms) {
    const char* path = std::getenv("CLARRAY_BUILD_LOG");
    if (!path || !*path) return;
    const std::string line = std::to_string(static_cast<long>(ms)) + " ms\t" +
                             std::to_string(source.size()) + " B\t" + kernel_names(source) + "\t" +
                             options + "\n";
    if (std::FILE* f = std::fopen(path, "a")) { // one write: lines of processes do not mix
        std::fwrite(line.data(), 1, line.size(), f);
        std::fclose(f);
    }
}
} // namespace

handle<cl_program> build_program(const context& ctx, const std::string& source,
                                 const std::string& user_options, bool library) {
    std::string options = user_options;
    if (const char* o = ctx.device().quirks().fp32_divide_sqrt_option; library && o)
        options = options.empty() ? o : options + " " + o;
    if (const char* show = std::getenv("CLARRAY_SHOW_KERNELS"); show && *show && *show != '0')
        std::cerr << "---- clarray kernel source (options: " << options << ") ----\n"
                  << source << "\n----\n";
    const program_cache_entry cached(ctx, source, options);
    if (handle<cl_program> loaded = cached.load(ctx, options)) return loaded;
    program_cache_entry::count_build();
    const char* text = source.c_str();
    std::size_t len = source.size();
    cl_int rc = CL_SUCCESS;
    handle<cl_program> prog(clCreateProgramWithSource(ctx.get(), 1, &text, &len, &rc));
    check_cl(rc, "clCreateProgramWithSource");
    cl_device_id dev = ctx.device().id();
    const auto start = std::chrono::steady_clock::now();
    rc = clBuildProgram(prog.get(), 1, &dev, options.c_str(), nullptr, nullptr);
    if (rc != CL_SUCCESS)
        throw build_error(rc, build_log(prog.get(), dev), numbered_excerpt(source), options);
    log_build(source, options,
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                  .count());
    cached.store(ctx, prog.get());
    return prog;
}

} // namespace detail

namespace {
// User programs keep their parameter types (clGetKernelArgInfo), so that a rejected kernel
// argument can be compared with what the kernel declares (src/runtime/launch.cpp).
std::string with_arg_info(const std::string& options) {
    if (options.find("-cl-kernel-arg-info") != std::string::npos) return options;
    return options.empty() ? "-cl-kernel-arg-info" : options + " -cl-kernel-arg-info";
}
} // namespace

program::program(const context& ctx, const std::string& source, const std::string& options)
    : ctx_(ctx), prog_(detail::build_program(ctx, source, with_arg_info(options), false)) {}

program::program(const context& ctx, cl_program built) : ctx_(ctx), prog_(built) {}

kernel program::kernel(const std::string& name) const {
    cl_int rc = CL_SUCCESS;
    detail::handle<cl_kernel> k(clCreateKernel(prog_.get(), name.c_str(), &rc));
    if (rc != CL_SUCCESS) throw cl_error(rc, "clCreateKernel", "kernel name: '" + name + "'");
    return clarray::kernel(ctx_, std::move(k), name);
}

cl_kernel kernel::variant_for(std::uint64_t mask) const {
    state& st = *state_;
    if (!st.k_bound) {
        st.k_bound = true;
        st.k_mask = mask;
    }
    if (st.k_mask == mask) return st.k.get();
    for (auto& v : st.variants)
        if (v.first == mask) return v.second.get();
    cl_program prog = nullptr;
    detail::check_cl(clGetKernelInfo(st.k.get(), CL_KERNEL_PROGRAM, sizeof(prog), &prog, nullptr),
                     "clGetKernelInfo(CL_KERNEL_PROGRAM)");
    cl_int rc = CL_SUCCESS;
    detail::handle<cl_kernel> k(clCreateKernel(prog, st.name.c_str(), &rc));
    detail::check_cl(rc, "clCreateKernel");
    st.variants.emplace_back(mask, std::move(k));
    return st.variants.back().second.get();
}

cl_uint kernel::argument_count() const {
    state& st = *state_;
    if (!st.arg_count_known) {
        detail::check_cl(clGetKernelInfo(st.k.get(), CL_KERNEL_NUM_ARGS, sizeof(st.arg_count),
                                         &st.arg_count, nullptr),
                         "clGetKernelInfo(CL_KERNEL_NUM_ARGS)");
        st.arg_count_known = true;
    }
    return st.arg_count;
}

kernel::kernel(const context& ctx, detail::handle<cl_kernel> k, std::string name)
    : state_(std::make_shared<state>(ctx, std::move(k), std::move(name))) {}

} // namespace clarray
