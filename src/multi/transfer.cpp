#include "clarray/multi/transfer.hpp"

#include <memory>
#include <vector>

#include "clarray/error.hpp"

namespace clarray::multi::detail {

namespace {

// Held by both callbacks: the bytes in transit.
struct staging {
    std::vector<char> bytes;
};

// The read finished (or failed): release the destination's commands (or fail them).
void CL_CALLBACK open_gate(cl_event, cl_int status, void* user) {
    auto gate = static_cast<cl_event>(user);
    clSetUserEventStatus(gate, status < 0 ? status : CL_COMPLETE);
    clReleaseEvent(gate);
}

// The write finished: the staging bytes may go.
void CL_CALLBACK free_staging(cl_event, cl_int, void* user) {
    delete static_cast<std::shared_ptr<staging>*>(user);
}

} // namespace

event copy_across_contexts(const queue& src_q, allocation& src, std::size_t src_offset,
                           const queue& dst_q, allocation& dst, std::size_t dst_offset,
                           std::size_t n) {
    auto st = std::make_shared<staging>();
    st->bytes.resize(n);
    cl_int rc = CL_SUCCESS;
    cl_event gate_raw = clCreateUserEvent(dst_q.context().get(), &rc);
    clarray::detail::check_cl(rc, "clCreateUserEvent(cross-context copy)");
    event gate(gate_raw);
    event read;
    try {
        read = src.read_async(src_q, src_offset, n, st->bytes.data());
        // The callback's own reference to the gate; released by it.
        clarray::detail::check_cl(clRetainEvent(gate_raw), "clRetainEvent");
        rc = clSetEventCallback(read.get(), CL_COMPLETE, open_gate, gate_raw);
        if (rc != CL_SUCCESS) clReleaseEvent(gate_raw);
        clarray::detail::check_cl(rc, "clSetEventCallback(cross-context copy)");
    } catch (...) {
        clSetUserEventStatus(gate_raw, CL_INVALID_EVENT); // nothing waits on it yet
        if (read) read.wait();                            // the staging bytes must outlive the read
        throw;
    }
    clarray::detail::check_cl(clFlush(src_q.get()), "clFlush");
    event write;
    try {
        write = dst.write_async(dst_q, dst_offset, n, st->bytes.data(), wait_list{gate});
    } catch (...) {
        read.wait(); // the gate opens from the read's callback; the bytes stay until then
        throw;
    }
    auto* keep = new std::shared_ptr<staging>(st);
    rc = clSetEventCallback(write.get(), CL_COMPLETE, free_staging, keep);
    if (rc != CL_SUCCESS) {
        write.wait(); // rare: without the callback, the bytes go once the write is done
        delete keep;
        clarray::detail::check_cl(rc, "clSetEventCallback(cross-context copy)");
    }
    clarray::detail::check_cl(clFlush(dst_q.get()), "clFlush");
    return write;
}

} // namespace clarray::multi::detail
