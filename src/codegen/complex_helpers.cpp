#include "clarray/codegen/complex_helpers.hpp"

namespace clarray::detail {

namespace {

struct helper_text {
    const char* name;
    const char* text; // $C: the complex type, $R: its part type, $F: this helper, $L: tanh's limit
    complex_fn uses[4];
    int n_uses;
};

// The formulas and their finite-input behaviour are documented in docs/complex.md.
const helper_text& text_of(complex_fn f) {
    static const helper_text texts[] = {
        {"cmul",
         R"CLC(inline $C $F($C a, $C b) {
    return ($C)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
})CLC",
         {},
         0},
        {"cdiv",
         R"CLC(inline $C $F($C a, $C b) {
    const $R br = fabs(b.x), bi = fabs(b.y);
    if (br >= bi) {
        if (br == 0 && bi == 0) return ($C)(a.x / br, a.y / br);
        const $R rat = b.y / b.x, scl = ($R)1 / (b.x + b.y * rat);
        return ($C)((a.x + a.y * rat) * scl, (a.y - a.x * rat) * scl);
    }
    const $R rat = b.x / b.y, scl = ($R)1 / (b.y + b.x * rat);
    return ($C)((a.x * rat + a.y) * scl, (a.y * rat - a.x) * scl);
})CLC",
         {},
         0},
        {"cabs", "inline $R $F($C z) { return hypot(z.x, z.y); }", {}, 0},
        {"carg", "inline $R $F($C z) { return atan2(z.y, z.x); }", {}, 0},
        {"cconj", "inline $C $F($C z) { return ($C)(z.x, -z.y); }", {}, 0},
        // exp of a real argument stays real (exp(x) + 0i, not exp(x) * (1 + 0i) with inf * 0).
        {"cexp",
         R"CLC(inline $C $F($C z) {
    if (z.y == 0) return ($C)(exp(z.x), z.y);
    const $R e = exp(z.x);
    return ($C)(e * cos(z.y), e * sin(z.y));
})CLC",
         {},
         0},
        {"clog",
         "inline $C $F($C z) { return ($C)(log(hypot(z.x, z.y)), atan2(z.y, z.x)); }",
         {},
         0},
        // Halves before adding so that |x| + |z| cannot overflow.
        {"csqrt",
         R"CLC(inline $C $F($C z) {
    if (z.x == 0 && z.y == 0) return ($C)(($R)0, z.y);
    const $R t = sqrt(fabs(z.x) * ($R)0.5 + hypot(z.x, z.y) * ($R)0.5);
    if (z.x >= 0) return ($C)(t, z.y / (t + t));
    return ($C)(fabs(z.y) / (t + t), copysign(t, z.y));
})CLC",
         {},
         0},
        {"csin",
         "inline $C $F($C z) { return ($C)(sin(z.x) * cosh(z.y), cos(z.x) * sinh(z.y)); }",
         {},
         0},
        {"ccos",
         "inline $C $F($C z) { return ($C)(cos(z.x) * cosh(z.y), -(sin(z.x) * sinh(z.y))); }",
         {},
         0},
        // Kahan's formula; past $L, tanh(x) rounds to +-1 and the imaginary part is 4 sin y cos y
        // e^-2|x| (sinh and cosh would overflow).
        {"ctanh",
         R"CLC(inline $C $F($C z) {
    const $R x = z.x, y = z.y;
    if (fabs(x) > ($R)$L) {
        const $R e = exp(-fabs(x));
        return ($C)(copysign(($R)1, x), ($R)4 * sin(y) * cos(y) * e * e);
    }
    const $R t = tan(y), beta = 1 + t * t, s = sinh(x), rho = sqrt(1 + s * s);
    const $R den = 1 + beta * s * s;
    return ($C)((beta * rho * s) / den, t / den);
})CLC",
         {},
         0},
        {"cpow",
         R"CLC(inline $C $F($C a, $C b) {
    if (b.x == 0 && b.y == 0) return ($C)(1, 0);
    if (a.x == 0 && a.y == 0) return (b.x > 0 && b.y == 0) ? ($C)(0, 0) : ($C)(NAN, NAN);
    if (b.y == 0 && b.x == rint(b.x) && fabs(b.x) < 100) {
        const int n = (int)b.x;
        int m = n < 0 ? -n : n;
        $C r = ($C)(1, 0), p = a;
        while (1) {
            if (m & 1) r = clarray_cmul_$C(r, p);
            m >>= 1;
            if (!m) break;
            p = clarray_cmul_$C(p, p);
        }
        return n < 0 ? clarray_cdiv_$C(($C)(1, 0), r) : r;
    }
    return clarray_cexp_$C(clarray_cmul_$C(b, clarray_clog_$C(a)));
})CLC",
         {complex_fn::mul, complex_fn::div, complex_fn::exp, complex_fn::log},
         4},
        // |1 + z|^2 - 1 = x (2 + x) + y^2 keeps the digits of a small z; far from 0 that sum
        // would lose them (or overflow) and log(1 + z) is as good.
        {"clog1p",
         R"CLC(inline $C $F($C z) {
    if (fabs(z.x) < ($R)0.5 && fabs(z.y) < ($R)0.5)
        return ($C)(($R)0.5 * log1p(z.x * (($R)2 + z.x) + z.y * z.y), atan2(z.y, ($R)1 + z.x));
    return ($C)(log(hypot(($R)1 + z.x, z.y)), atan2(z.y, ($R)1 + z.x));
})CLC",
         {},
         0},
        // Re: e^x cos y - 1 = expm1(x) cos y - 2 sin^2(y / 2), without the cancellation.
        {"cexpm1",
         R"CLC(inline $C $F($C z) {
    if (z.y == 0) return ($C)(expm1(z.x), z.y);
    const $R h = sin(z.y * ($R)0.5);
    return ($C)(expm1(z.x) * cos(z.y) - ($R)2 * h * h, exp(z.x) * sin(z.y));
})CLC",
         {},
         0},
        {"clog2",
         R"CLC(inline $C $F($C z) {
    return ($C)(log2(hypot(z.x, z.y)), atan2(z.y, z.x) * ($R)1.44269504088896340736);
})CLC",
         {},
         0},
        {"clog10",
         R"CLC(inline $C $F($C z) {
    return ($C)(log10(hypot(z.x, z.y)), atan2(z.y, z.x) * ($R)0.434294481903251827651);
})CLC",
         {},
         0},
        // A real argument stays real (cosh(x) * sin(0) would be inf * 0 for a large x).
        {"csinh",
         R"CLC(inline $C $F($C z) {
    if (z.y == 0) return ($C)(sinh(z.x), z.y);
    return ($C)(sinh(z.x) * cos(z.y), cosh(z.x) * sin(z.y));
})CLC",
         {},
         0},
        {"ccosh",
         R"CLC(inline $C $F($C z) {
    if (z.y == 0) return ($C)(cosh(z.x), signbit(z.x) ? -z.y : z.y);
    return ($C)(cosh(z.x) * cos(z.y), sinh(z.x) * sin(z.y));
})CLC",
         {},
         0},
        // tan z = -i tanh(i z).
        {"ctan",
         R"CLC(inline $C $F($C z) {
    const $C t = clarray_ctanh_$C(($C)(-z.y, z.x));
    return ($C)(t.y, -t.x);
})CLC",
         {complex_fn::tanh},
         1},
        // Kahan, "Branch cuts for complex elementary functions" (1987): the square roots carry
        // the branch cuts, and no step cancels near the cuts or near 0.
        {"casin",
         R"CLC(inline $C $F($C z) {
    const $C a = clarray_csqrt_$C(($C)(($R)1 - z.x, -z.y));
    const $C b = clarray_csqrt_$C(($C)(($R)1 + z.x, z.y));
    return ($C)(atan2(z.x, a.x * b.x - a.y * b.y), asinh(a.x * b.y - a.y * b.x));
})CLC",
         {complex_fn::sqrt},
         1},
        {"cacos",
         R"CLC(inline $C $F($C z) {
    const $C a = clarray_csqrt_$C(($C)(($R)1 - z.x, -z.y));
    const $C b = clarray_csqrt_$C(($C)(($R)1 + z.x, z.y));
    return ($C)(($R)2 * atan2(a.x, b.x), asinh(b.x * a.y - b.y * a.x));
})CLC",
         {complex_fn::sqrt},
         1},
        // atan z = -i atanh(i z).
        {"catan",
         R"CLC(inline $C $F($C z) {
    const $C t = clarray_catanh_$C(($C)(-z.y, z.x));
    return ($C)(t.y, -t.x);
})CLC",
         {complex_fn::atanh},
         1},
        // asinh z = -i asin(i z).
        {"casinh",
         R"CLC(inline $C $F($C z) {
    const $C t = clarray_casin_$C(($C)(-z.y, z.x));
    return ($C)(t.y, -t.x);
})CLC",
         {complex_fn::asin},
         1},
        {"cacosh",
         R"CLC(inline $C $F($C z) {
    const $C a = clarray_csqrt_$C(($C)(z.x - ($R)1, z.y));
    const $C b = clarray_csqrt_$C(($C)(z.x + ($R)1, z.y));
    return ($C)(asinh(a.x * b.x + a.y * b.y), ($R)2 * atan2(a.y, b.x));
})CLC",
         {complex_fn::sqrt},
         1},
        // (log1p(z) - log1p(-z)) / 2: each log1p keeps a small z's digits.
        {"catanh",
         R"CLC(inline $C $F($C z) {
    const $C p = clarray_clog1p_$C(z), m = clarray_clog1p_$C(-z);
    return ($C)((p.x - m.x) * ($R)0.5, (p.y - m.y) * ($R)0.5);
})CLC",
         {complex_fn::log1p},
         1},
    };
    static_assert(sizeof(texts) / sizeof(texts[0]) == static_cast<int>(complex_fn::atanh) + 1,
                  "one text per complex_fn");
    return texts[static_cast<int>(f)];
}

std::string substitute(const char* text, const std::string& c, const std::string& r,
                       const std::string& name, const char* limit) {
    std::string s;
    for (const char* p = text; *p; ++p) {
        if (p[0] == '$' && p[1] == 'C')
            s += c;
        else if (p[0] == '$' && p[1] == 'R')
            s += r;
        else if (p[0] == '$' && p[1] == 'F')
            s += name;
        else if (p[0] == '$' && p[1] == 'L')
            s += limit;
        else {
            s += *p;
            continue;
        }
        ++p;
    }
    return s;
}

} // namespace

std::string complex_helper(source_builder& g, complex_fn f, dtype d) {
    const helper_text& h = text_of(f);
    for (int i = 0; i < h.n_uses; ++i)
        complex_helper(g, h.uses[i], d);
    const bool wide = d == dtype::complex128;
    const std::string c = cl_type_name(d), r = wide ? "double" : "float";
    const std::string name = std::string("clarray_") + h.name + "_" + c;
    // tanh(x) is 1 to the type's precision beyond 9 (float) or 22 (double).
    g.helper(name, substitute(h.text, c, r, name, wide ? "22" : "9"));
    g.note_type(d);
    return name;
}

} // namespace clarray::detail
