#include "clarray/error.hpp"

#include <string>

namespace clarray {

const char* cl_error_name(cl_int code) noexcept {
    switch (code) {
#define CASE(x)                                                                                    \
    case x:                                                                                        \
        return #x;
        CASE(CL_SUCCESS)
        CASE(CL_DEVICE_NOT_FOUND)
        CASE(CL_DEVICE_NOT_AVAILABLE)
        CASE(CL_COMPILER_NOT_AVAILABLE)
        CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        CASE(CL_OUT_OF_RESOURCES)
        CASE(CL_OUT_OF_HOST_MEMORY)
        CASE(CL_PROFILING_INFO_NOT_AVAILABLE)
        CASE(CL_MEM_COPY_OVERLAP)
        CASE(CL_IMAGE_FORMAT_MISMATCH)
        CASE(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        CASE(CL_BUILD_PROGRAM_FAILURE)
        CASE(CL_MAP_FAILURE)
        CASE(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        CASE(CL_COMPILE_PROGRAM_FAILURE)
        CASE(CL_LINKER_NOT_AVAILABLE)
        CASE(CL_LINK_PROGRAM_FAILURE)
        CASE(CL_DEVICE_PARTITION_FAILED)
        CASE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        CASE(CL_INVALID_VALUE)
        CASE(CL_INVALID_DEVICE_TYPE)
        CASE(CL_INVALID_PLATFORM)
        CASE(CL_INVALID_DEVICE)
        CASE(CL_INVALID_CONTEXT)
        CASE(CL_INVALID_QUEUE_PROPERTIES)
        CASE(CL_INVALID_COMMAND_QUEUE)
        CASE(CL_INVALID_HOST_PTR)
        CASE(CL_INVALID_MEM_OBJECT)
        CASE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        CASE(CL_INVALID_IMAGE_SIZE)
        CASE(CL_INVALID_SAMPLER)
        CASE(CL_INVALID_BINARY)
        CASE(CL_INVALID_BUILD_OPTIONS)
        CASE(CL_INVALID_PROGRAM)
        CASE(CL_INVALID_PROGRAM_EXECUTABLE)
        CASE(CL_INVALID_KERNEL_NAME)
        CASE(CL_INVALID_KERNEL_DEFINITION)
        CASE(CL_INVALID_KERNEL)
        CASE(CL_INVALID_ARG_INDEX)
        CASE(CL_INVALID_ARG_VALUE)
        CASE(CL_INVALID_ARG_SIZE)
        CASE(CL_INVALID_KERNEL_ARGS)
        CASE(CL_INVALID_WORK_DIMENSION)
        CASE(CL_INVALID_WORK_GROUP_SIZE)
        CASE(CL_INVALID_WORK_ITEM_SIZE)
        CASE(CL_INVALID_GLOBAL_OFFSET)
        CASE(CL_INVALID_EVENT_WAIT_LIST)
        CASE(CL_INVALID_EVENT)
        CASE(CL_INVALID_OPERATION)
        CASE(CL_INVALID_GL_OBJECT)
        CASE(CL_INVALID_BUFFER_SIZE)
        CASE(CL_INVALID_MIP_LEVEL)
        CASE(CL_INVALID_GLOBAL_WORK_SIZE)
        CASE(CL_INVALID_PROPERTY)
        CASE(CL_INVALID_IMAGE_DESCRIPTOR)
        CASE(CL_INVALID_COMPILER_OPTIONS)
        CASE(CL_INVALID_LINKER_OPTIONS)
        CASE(CL_INVALID_DEVICE_PARTITION_COUNT)
        CASE(CL_INVALID_PIPE_SIZE)
        CASE(CL_INVALID_DEVICE_QUEUE)
        CASE(CL_INVALID_SPEC_ID)
        CASE(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef CASE
    default:
        return nullptr;
    }
}

namespace {
std::string describe(cl_int code, const std::string& call) {
    const char* name = cl_error_name(code);
    std::string n = name ? name : "CL_ERROR(" + std::to_string(code) + ")";
    return call + " failed: " + n;
}
} // namespace

cl_error::cl_error(cl_int code, const std::string& call)
    : error(describe(code, call)), code_(code), call_(call) {}
cl_error::cl_error(cl_int code, const std::string& call, const std::string& detail)
    : error(describe(code, call) + "\n" + detail), code_(code), call_(call) {}

build_error::build_error(cl_int code, const std::string& log, const std::string& source_excerpt,
                         const std::string& options)
    : cl_error(code, "clBuildProgram",
               (options.empty() ? "" : "build options: " + options + "\n") + "build log:\n" + log +
                   (source_excerpt.empty() ? "" : "\nsource:\n" + source_excerpt)),
      log_(log) {}

namespace detail {
void check(cl_int code, const char* call) {
    if (code == CL_SUCCESS) return;
    if (code == CL_MEM_OBJECT_ALLOCATION_FAILURE || code == CL_OUT_OF_HOST_MEMORY)
        throw out_of_memory(describe(code, call));
    throw cl_error(code, call);
}
} // namespace detail

} // namespace clarray
