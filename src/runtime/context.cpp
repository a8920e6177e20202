#include "clarray/runtime/context.hpp"

#include <cstdlib>

#include "clarray/error.hpp"
#include "clarray/runtime/context_state.hpp"
#include "clarray/runtime/env.hpp"

namespace clarray {

context_options context_options::from_env() {
    context_options o;
    o.emulate_coarse = detail::env_flag("CLARRAY_EMULATE_COARSE");
    o.disable_svm = detail::env_flag("CLARRAY_DISABLE_SVM");
    o.use_default_pool =
        !detail::env_flag("CLARRAY_NO_POOL") && !detail::env_flag("CLARRAY_NO_ALLOCATION_CACHE");
    o.default_pool_limit = detail::env_bytes("CLARRAY_POOL_LIMIT");
    return o;
}

context::context(const clarray::device& dev, context_options opts)
    : state_(std::make_shared<detail::context_state>()) {
    cl_int rc = CL_SUCCESS;
    cl_device_id id = dev.id();
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                     reinterpret_cast<cl_context_properties>(dev.platform()), 0};
    state_->ctx = detail::handle<cl_context>(clCreateContext(props, 1, &id, nullptr, nullptr, &rc));
    detail::check_cl(rc, "clCreateContext");
    state_->dev = dev;
    state_->opts = opts;
}

context context::from_env() {
    return context(select_device(std::getenv("CLARRAY_DEVICE")));
}

const clarray::device& context::get_device() const noexcept {
    return state_->dev;
}
cl_context context::get() const noexcept {
    return state_->ctx.get();
}
const context_options& context::options() const noexcept {
    return state_->opts;
}

svm_capabilities context::svm_caps() const noexcept {
    if (state_->opts.disable_svm) return {};
    return state_->dev.svm_caps();
}

namespace detail {
context context_state::non_owning_handle() {
    // Aliasing constructor with no owner: the handle refers to this state without keeping it.
    return context(std::shared_ptr<context_state>(std::shared_ptr<void>(), this));
}
} // namespace detail

} // namespace clarray
