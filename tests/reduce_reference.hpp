#pragma once
// Host references for reductions and scans: plain loops over xtensor arrays, independent of the
// library's kernels (and of xtensor's own reducers, whose accumulation types differ from NumPy's).
#include <cmath>
#include <cstdint>
#include <vector>

#include "xtensor_headers.hpp"

#include <clarray/clarray.hpp>

namespace ca = clarray;

namespace test {

// Shape of the result of reducing `shape` over `mask`.
inline ca::shape_type kept_shape(const ca::shape_type& shape, const std::vector<bool>& mask,
                                 bool keep_dims) {
    ca::shape_type s;
    for (std::size_t i = 0; i < shape.size(); ++i)
        if (!mask[i]) s.push_back(shape[i]);
        else if (keep_dims) s.push_back(1);
    return s;
}

// Calls f(out_flat_index, reduced_flat_index, element) for every element of x in C order.
template <class T, class F>
void for_each_reduced(const xt::xarray<T>& x, const std::vector<bool>& mask, F&& f) {
    const auto& shape = x.shape();
    const std::size_t r = shape.size();
    std::size_t n = 1;
    for (auto e : shape) n *= e;
    std::vector<std::size_t> idx(r, 0);
    for (std::size_t flat = 0; flat < n; ++flat) {
        std::size_t out = 0, red = 0;
        for (std::size_t k = 0; k < r; ++k) {
            if (mask[k]) red = red * shape[k] + idx[k];
            else out = out * shape[k] + idx[k];
        }
        f(out, red, x.data()[flat]);
        for (std::size_t k = r; k-- > 0;) {
            if (++idx[k] < shape[k]) break;
            idx[k] = 0;
        }
    }
}

// Reduce x over mask: acc = f(acc, element, reduced_index), starting from init.
template <class A, class T, class F>
xt::xarray<A> reference_reduce(const xt::xarray<T>& x, const std::vector<bool>& mask, A init,
                               F&& f) {
    ca::shape_type ks;
    const ca::shape_type shape(x.shape().begin(), x.shape().end());
    ks = kept_shape(shape, mask, false);
    xt::xarray<A> out = xt::xarray<A>::from_shape(ks);
    std::fill(out.begin(), out.end(), init);
    for_each_reduced(x, mask, [&](std::size_t o, std::size_t red, const T& v) {
        out.data()[o] = f(out.data()[o], v, red);
    });
    return out;
}

template <class T> bool is_nan(T v) {
    if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
    else return false;
}

} // namespace test
