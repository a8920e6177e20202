#pragma once
// A non-owning reference to a callable, for non-template functions that call back into the
// caller (e.g. the kernel cache asking for source on a miss) without std::function's allocation.
#include <type_traits>
#include <utility>

namespace clarray::detail {

template <class Signature> class function_ref;

template <class R, class... A> class function_ref<R(A...)> {
public:
    template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, function_ref>>>
    function_ref(F&& f) noexcept // NOLINT: implicit, as a lambda argument
        : object_(const_cast<void*>(static_cast<const void*>(&f))),
          call_([](void* o, A... a) -> R {
              return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<A>(a)...);
          }) {}
    R operator()(A... a) const { return call_(object_, std::forward<A>(a)...); }

private:
    void* object_;
    R (*call_)(void*, A...);
};

} // namespace clarray::detail
