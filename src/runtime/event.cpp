#include "clarray/runtime/event.hpp"

#include "clarray/error.hpp"

namespace clarray {

void event::wait() const {
    if (!h_) return;
    cl_event e = h_.get();
    detail::check_cl(clWaitForEvents(1, &e), "clWaitForEvents");
}

bool event::is_complete() const {
    if (!h_) return true;
    cl_int status = CL_COMPLETE;
    detail::check_cl(clGetEventInfo(h_.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
                                    &status, nullptr),
                     "clGetEventInfo");
    return status <= CL_COMPLETE; // negative values are errors: the command is over
}

cl_ulong event::profiling_start() const {
    cl_ulong t = 0;
    detail::check_cl(
        clGetEventProfilingInfo(h_.get(), CL_PROFILING_COMMAND_START, sizeof(t), &t, nullptr),
        "clGetEventProfilingInfo");
    return t;
}

cl_ulong event::profiling_end() const {
    cl_ulong t = 0;
    detail::check_cl(
        clGetEventProfilingInfo(h_.get(), CL_PROFILING_COMMAND_END, sizeof(t), &t, nullptr),
        "clGetEventProfilingInfo");
    return t;
}

bool wait_list::all_complete() const noexcept {
    for (const event& e : events_) {
        cl_int status = CL_QUEUED;
        if (clGetEventInfo(e.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status,
                           nullptr) != CL_SUCCESS ||
            status > CL_COMPLETE) // negative values are errors: the command is over
            return false;
    }
    return true;
}

void wait_list::wait() const {
    if (events_.empty()) return;
    detail::check_cl(clWaitForEvents(size(), data()), "clWaitForEvents");
}

} // namespace clarray
