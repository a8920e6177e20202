#pragma once
// The clarray::error family. Every failure the library reports is one of these; the message names
// what was wrong (shapes, dtype, the CL call and its error name, the build log).
#include <stdexcept>
#include <string>

#include "clarray/runtime/cl.hpp"

namespace clarray {

// Base of everything clarray throws.
class error : public std::runtime_error {
public:
    // An error whose what() is the given message.
    explicit error(const std::string& what) : std::runtime_error(what) {}
};

// An OpenCL call returned a non-success code.
class cl_error : public error {
public:
    // The error of `call` returning `code`; the message names both (and `detail` when given).
    //@{
    cl_error(cl_int code, const std::string& call);
    cl_error(cl_int code, const std::string& call, const std::string& detail);
    //@}
    // The OpenCL error code (CL_OUT_OF_RESOURCES, ...).
    cl_int code() const noexcept { return code_; }
    // The OpenCL function that failed ("clEnqueueNDRangeKernel", ...).
    const std::string& call() const noexcept { return call_; }

private:
    cl_int code_;
    std::string call_;
};

// clBuildProgram failed; log() is the device compiler's output.
class build_error : public cl_error {
public:
    // options: the build options, named in the message (drivers differ in whether a bad option
    // is CL_INVALID_BUILD_OPTIONS or CL_BUILD_PROGRAM_FAILURE with a log line).
    build_error(cl_int code, const std::string& log, const std::string& source_excerpt,
                const std::string& options = "");
    // The device compiler's build log.
    const std::string& log() const noexcept { return log_; }

private:
    std::string log_;
};

// The device lacks a capability (SVM kind, fp64, ...).
class unsupported : public error {
public:
    using error::error;
};

// Allocation failed (clSVMAlloc returned NULL, CL_MEM_OBJECT_ALLOCATION_FAILURE, ...).
class out_of_memory : public error {
public:
    using error::error;
};

// Invalid shapes: negative/overflowing extents, mismatched shapes, impossible reshapes.
class shape_error : public error {
public:
    using error::error;
};

// Index or view out of range.
class index_error : public error {
public:
    using error::error;
};

// Element type mismatch or an operation not defined for a dtype.
class dtype_error : public error {
public:
    using error::error;
};

// The API was used in a way that would be undefined in OpenCL: a launch over memory with an active
// host write map, arrays from different contexts in one call, ...
class usage_error : public error {
public:
    using error::error;
};

// A division by zero that NumPy refuses with ZeroDivisionError: average's weights that sum to zero.
class zero_division_error : public error {
public:
    using error::error;
};

// A file could not be opened, read or written, or is not in the format expected (load_npy,
// save_npy). Its message names the file.
class io_error : public error {
public:
    using error::error;
};

// A linear-algebra routine failed on the values of its input: a singular matrix (solve, inv), a
// matrix that is not positive definite (cholesky), an iteration that did not converge (svd,
// eigh). The message names the function and, for a stack of matrices, the index of the first
// matrix that failed.
class linalg_error : public error {
public:
    using error::error;
};

// Name of an OpenCL error code ("CL_OUT_OF_RESOURCES"), or nullptr when unknown.
const char* cl_error_name(cl_int code) noexcept;

namespace detail {
// Throws cl_error when code != CL_SUCCESS. Allocation failures become out_of_memory.
void check(cl_int code, const char* call);
inline void check_cl(cl_int code, const char* call) {
    if (code != CL_SUCCESS) check(code, call);
}
} // namespace detail

} // namespace clarray
