#pragma once
// OpenCL C helper functions of complex arithmetic (complex64 as float2, complex128 as double2:
// x the real part, y the imaginary part). OpenCL C has no complex type: +, - and unary - are the
// vector operators, everything else is one of these helpers, emitted once per kernel before it.
#include <string>

#include "clarray/codegen/source_builder.hpp"
#include "clarray/types/dtype.hpp"

namespace clarray::detail {

enum class complex_fn : unsigned char {
    mul,  // (a, b) -> a * b
    div,  // (a, b) -> a / b (Smith's algorithm, as NumPy)
    abs,  // z -> |z| (real)
    arg,  // z -> the angle of z (real)
    conj, // z -> conjugate
    exp,
    log,
    sqrt,
    sin,
    cos,
    tanh,
    pow,   // (a, b) -> a ** b (NumPy's: binary powering for integer b with |b| < 100)
    log1p, // z -> log(1 + z), accurate near 0
    expm1, // z -> exp(z) - 1, accurate near 0
    log2,
    log10,
    sinh,
    cosh,
    tan,
    asin, // Kahan's formulas, as acos, asinh and acosh
    acos,
    atan,
    asinh,
    acosh,
    atanh,
};

// Registers helper f for complex dtype d (and the helpers it calls) with g and returns its name.
std::string complex_helper(source_builder& g, complex_fn f, dtype d);

} // namespace clarray::detail
