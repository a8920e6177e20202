#include "clarray/runtime/native_kernel.hpp"

#include <string>
#include <vector>

#include "clarray/error.hpp"

namespace clarray::detail {

event enqueue_native(const queue& q, native_function fn, const void* args, std::size_t size,
                     const wait_list& deps, const char* what) {
    // clEnqueueNativeKernel copies the arguments from a writable pointer.
    std::vector<unsigned char> copy(static_cast<const unsigned char*>(args),
                                    static_cast<const unsigned char*>(args) + size);
    cl_event ev = nullptr;
    check_cl(clEnqueueNativeKernel(q.get(), fn, copy.data(), size, 0, nullptr, nullptr,
                                   deps.size(), deps.data(), &ev),
             (std::string("clEnqueueNativeKernel(") + what + ")").c_str());
    return event(ev);
}

} // namespace clarray::detail
