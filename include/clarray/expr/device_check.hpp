#pragma once
// A device check as operands of an expression (runtime/device_checks.hpp): the flag words and the
// word's index are two terminals, so the assignment binds them like any scalar and the check
// hears of the launch (on_launched, expr/operands.hpp). Used by the gather operand
// (indexing/gather.hpp) and by checked integer powers (expr/operators.hpp).
#include "clarray/runtime/device_checks.hpp"
#include "clarray/runtime/event.hpp"
#include "clarray/runtime/launch.hpp"

namespace clarray::detail {

class device_check;
// The check's two kernel arguments as terminals (visited in this order): the flag words, which
// hear of the launch (on_launched, expr/operands.hpp), and the word's index. They live in their
// check (expression_operands keeps their addresses until the launch).
struct device_check_flag_terminal {
    const device_check* check;
    static constexpr bool is_array = false;
    cl_mem value() const noexcept { return nullptr; } // its size: a pointer parameter
    launch_arg kernel_argument() const;
    void on_launched(const event& e) const noexcept;
};
struct device_check_word_terminal {
    const device_check* check;
    static constexpr bool is_array = false;
    cl_uint value() const noexcept { return 0; }
    launch_arg kernel_argument() const noexcept;
};

// One device check of an expression (a gather's raise mode, an integer power's exponent): a flag
// word reserved when the kernel's arguments are bound and armed with the launch event after the
// launch. An inactive check (a gather's wrap and clip) binds NULL, which its kernel never
// touches.
class device_check {
public:
    device_check(const context& ctx, const device_check_site& site, bool active)
        : site_(site), res_(active ? device_check_reservation(ctx) : device_check_reservation()) {}
    // A copy is a new check: the reservation belongs to the launch being prepared.
    device_check(const device_check& o) : site_(o.site_), res_(o.res_.fresh()) {}
    device_check& operator=(const device_check&) = delete;
    launch_arg flag_argument() const { return res_.flag_argument(); }
    launch_arg word_argument() const noexcept { return res_.word_argument(); }
    void launched(const event& e) const noexcept { res_.arm(e, site_); }
    const device_check_flag_terminal& flag_terminal() const noexcept { return flag_; }
    const device_check_word_terminal& word_terminal() const noexcept { return word_; }

private:
    device_check_site site_;
    mutable device_check_reservation res_;  // the word, from binding the arguments until launched
    device_check_flag_terminal flag_{this}; // a copy's terminals point at the copy
    device_check_word_terminal word_{this};
};
inline launch_arg device_check_flag_terminal::kernel_argument() const {
    return check->flag_argument();
}
inline void device_check_flag_terminal::on_launched(const event& e) const noexcept {
    check->launched(e);
}
inline launch_arg device_check_word_terminal::kernel_argument() const noexcept {
    return check->word_argument();
}

} // namespace clarray::detail
