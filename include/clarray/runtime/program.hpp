#pragma once
// Programs built from OpenCL C source, and the kernels in them.
#include <string>

#include "clarray/runtime/context.hpp"
#include "clarray/runtime/handle.hpp"

namespace clarray {

class kernel;

class program {
public:
    // Builds for the context's device; throws build_error carrying the build log on failure.
    // -cl-kernel-arg-info is added to the options: launch errors name the parameter's type.
    program(const context& ctx, const std::string& source, const std::string& options = "");
    // Wraps an already built program (takes ownership of one reference).
    program(const context& ctx, cl_program built);

    clarray::kernel kernel(const std::string& name) const;
    cl_program get() const noexcept { return prog_.get(); }
    const clarray::context& get_context() const noexcept { return ctx_; }

private:
    clarray::context ctx_;
    detail::handle<cl_program> prog_;
};

namespace detail {
// Build source into a program handle (no kernels created). Throws build_error with the log.
handle<cl_program> build_program(const context& ctx, const std::string& source,
                                 const std::string& options);
} // namespace detail

} // namespace clarray
