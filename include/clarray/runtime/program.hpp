#pragma once
// Programs built from OpenCL C source, and the kernels in them.
#include <string>

#include "clarray/runtime/context.hpp"
#include "clarray/runtime/handle.hpp"

namespace clarray {

class kernel;

// An OpenCL program built from source for a context's device.
class program {
public:
    // Builds for the context's device, or loads the binary of an earlier build from the on-disk
    // program cache (runtime/program_cache.hpp); throws build_error carrying the build log.
    // -cl-kernel-arg-info is added to the options: launch errors name the parameter's type.
    program(const context& ctx, const std::string& source, const std::string& options = "");
    // Wraps an already built program (takes ownership of one reference).
    program(const context& ctx, cl_program built);

    // The kernel function `name` of the program (cl_error when there is none).
    clarray::kernel kernel(const std::string& name) const;
    // The OpenCL program.
    cl_program get() const noexcept { return prog_.get(); }
    // The program's context.
    const clarray::context& get_context() const noexcept { return ctx_; }

private:
    clarray::context ctx_;
    detail::handle<cl_program> prog_;
};

namespace detail {
// Build source into a program handle (no kernels created), or load it from the on-disk program
// cache (runtime/program_cache.hpp). Throws build_error with the log. A library program
// (`library`: all but clarray::program's) is built with the device's option for correctly
// rounded float32 division and sqrt (device::quirks_t::fp32_divide_sqrt_option), which is then
// part of the cache key as every option is.
handle<cl_program> build_program(const context& ctx, const std::string& source,
                                 const std::string& options, bool library = true);
} // namespace detail

} // namespace clarray
