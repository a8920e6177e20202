#include "clarray/runtime/queue.hpp"

#include <vector>

#include "clarray/error.hpp"
#include "clarray/runtime/device_checks.hpp"
#include "clarray/runtime/launch_profile.hpp"

namespace clarray {

queue::queue(const clarray::context& ctx, queue_options opts) {
    cl_command_queue_properties props = 0;
    if (opts.out_of_order) props |= CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    if (opts.profiling || detail::launch_profile_on()) props |= CL_QUEUE_PROFILING_ENABLE;
    cl_int rc = CL_SUCCESS;
    cl_command_queue q = nullptr;
    if (ctx.device().opencl_version() >= 200) {
        cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
        q = clCreateCommandQueueWithProperties(ctx.get(), ctx.device().id(), list, &rc);
        detail::check_cl(rc, "clCreateCommandQueueWithProperties");
    } else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        q = clCreateCommandQueue(ctx.get(), ctx.device().id(), props, &rc);
#pragma GCC diagnostic pop
        detail::check_cl(rc, "clCreateCommandQueue");
    }
    state_ = std::make_shared<const state>(ctx, detail::handle<cl_command_queue>(q), opts);
}

void queue::flush() const {
    detail::check_cl(clFlush(get()), "clFlush");
}
void queue::finish() const {
    detail::device_checks& checks = detail::device_checks_of(context());
    checks.before_wait(*this, true); // the finish brings back the words of the index checks
    detail::check_cl(clFinish(get()), "clFinish");
    checks.poll(context());
}

event queue::enqueue_marker(const wait_list& deps) const {
    cl_event e = nullptr;
    detail::check_cl(clEnqueueMarkerWithWaitList(get(), deps.size(), deps.data(), &e),
                     "clEnqueueMarkerWithWaitList");
    return event(e);
}

event queue::enqueue_barrier(const wait_list& deps) const {
    cl_event e = nullptr;
    detail::check_cl(clEnqueueBarrierWithWaitList(get(), deps.size(), deps.data(), &e),
                     "clEnqueueBarrierWithWaitList");
    return event(e);
}

cl_mem queue::completion_counters() const {
    if (is_out_of_order()) return nullptr;
    const state& st = *state_;
    std::call_once(st.counters_once, [&] {
        const std::vector<cl_int> zeros(completion_counter_count, 0);
        cl_int rc = CL_SUCCESS;
        cl_mem m =
            clCreateBuffer(st.ctx.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                           zeros.size() * sizeof(cl_int), const_cast<cl_int*>(zeros.data()), &rc);
        detail::check_cl(rc, "clCreateBuffer(completion counters)");
        st.counters = detail::handle<cl_mem>(m);
    });
    return st.counters.get();
}

} // namespace clarray
