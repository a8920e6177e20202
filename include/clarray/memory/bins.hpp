#pragma once
// Size bins of the memory pools: 16 bins per power of two, so a request is rounded up by less
// than 1/16 of its size. Sizes below 16 bytes have a bin each.
//
// A size s with floor(log2 s) = e >= 4 falls in bin (e << 4) | m, where m is the 4 bits after
// the leading one. The bin's block size is the largest size with those leading bits, i.e. s with
// the e - 4 low bits set: the rounding adds at most 2^(e-4) - 1 < s / 16 bytes.
#include <cstddef>
#include <cstdint>

namespace clarray::pool_bins {

// A bin number.
using bin_t = std::uint32_t;
// Bits after the leading one that select a bin within a power of two (16 bins).
inline constexpr unsigned mantissa_bits = 4;
// Mask of those bits.
inline constexpr std::uint64_t mantissa_mask = (std::uint64_t(1) << mantissa_bits) - 1;

// The index of the highest set bit of v (0 for 0 and 1).
constexpr unsigned floor_log2(std::uint64_t v) noexcept {
    unsigned l = 0;
    while (v >>= 1)
        ++l;
    return l;
}

// The bin of a request of `bytes` > 0 bytes.
constexpr bin_t bin_number(std::uint64_t bytes) noexcept {
    const unsigned e = floor_log2(bytes);
    if (e < mantissa_bits) return static_cast<bin_t>(bytes);
    const std::uint64_t leading = bytes >> (e - mantissa_bits); // 1mmmm
    return static_cast<bin_t>((std::uint64_t(e) << mantissa_bits) | (leading & mantissa_mask));
}

// The block size of a bin: the largest request that falls in it.
constexpr std::uint64_t alloc_size(bin_t bin) noexcept {
    if (bin < (bin_t(1) << mantissa_bits)) return bin;
    const unsigned e = bin >> mantissa_bits;
    const std::uint64_t leading = (std::uint64_t(1) << mantissa_bits) | (bin & mantissa_mask);
    const std::uint64_t low_ones = (std::uint64_t(1) << (e - mantissa_bits)) - 1;
    return (leading << (e - mantissa_bits)) | low_ones;
}

} // namespace clarray::pool_bins
