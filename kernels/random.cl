// Random numbers from Random123's counter-based generators (docs/random.md: the counter and key
// layout, the conversions). Built once per (generator, element type) after the Random123
// headers and the declaration of random_layout (src/random/generator.cpp), with
//   -DT=<type> -DU=<unsigned type of T's width> -DRANDOM_THREEFRY=0|1 -DRANDOM_WIDE=0|1
//   -DRANDOM_REAL=0|1 -DRANDOM_PER_POSITION=0|1
// RANDOM_WIDE: a value takes 64 bits (two counter words, low word first), so a block of four
// words gives 2 values instead of 4. RANDOM_REAL: T is float or double (uniform, normal), else an
// integer type (integers). RANDOM_PER_POSITION: the distributions computed from one counter
// sequence per position (gamma ... poisson) instead of uniform, normal and exponential.
//
// Work-item g computes blocks b = L.first_block + g * RANDOM_ITEM_BLOCKS + m (m below
// RANDOM_ITEM_BLOCKS, see below); lane j of block b is the value at position
// b * PER_BLOCK + j, and writes each lane whose position lies in [L.position, L.position + L.n)
// to the element of flat C-order index position - L.position. A value therefore depends only on
// (key, stream, distribution, position), never on the launch shape or the view.

// Host and device must round alike: every multiply-add here is spelled fma() or is exact.
#pragma OPENCL FP_CONTRACT OFF

#if RANDOM_THREEFRY
typedef threefry4x32_ctr_t rng_ctr;
typedef threefry4x32_key_t rng_key;
#define RNG(c, k) threefry4x32(c, k)
#else
typedef philox4x32_ctr_t rng_ctr;
typedef philox4x32_key_t rng_key;
#define RNG(c, k) philox4x32(c, k)
#endif

#if RANDOM_WIDE
#define PER_BLOCK 2
#else
#define PER_BLOCK 4
#endif

// The four words of block b: counter {b low, b high, stream, domain << 24 | attempt}. Always
// inlined: pocl's inliner found the ten rounds one unit too costly, and the call left the
// work-item loop of the CPU device scalar (not vectorized across work-items).
inline __attribute__((always_inline)) rng_ctr block_words(const random_layout* L, ulong b,
                                                         uint attempt) {
    rng_ctr c = {{(uint)b, (uint)(b >> 32), L->counter_hi[0], L->counter_hi[1] | attempt}};
#if RANDOM_THREEFRY
    rng_key k = {{L->key[0], L->key[1], L->key[2], L->key[3]}};
#else
    rng_key k = {{L->key[0], L->key[1]}};
#endif
    return RNG(c, k);
}

// The element of flat C-order index i of the (coalesced) view.
inline long element_offset(const random_layout* L, ulong i) {
    if (L->rank == 1) return L->offset + (long)i * L->strides[0];
    long d = L->offset;
    for (int k = (int)L->rank - 1; k >= 0; --k) {
        const ulong c = i % L->shape[k];
        i /= L->shape[k];
        d += (long)c * L->strides[k];
    }
    return d;
}

// A work-item computes RANDOM_ITEM_BLOCKS consecutive blocks (the host's choice: 1 on GPUs; 8
// on CPUs, where Philox's rounds then run on uint8 vectors: pocl's work-item loop around the
// rounds stayed scalar). A block's words do not depend on how many a work-item computes.
#ifndef RANDOM_ITEM_BLOCKS
#define RANDOM_ITEM_BLOCKS 1
#endif
#if RANDOM_ITEM_BLOCKS == 8 && !RANDOM_THREEFRY
// Philox4x32-10 of blocks b0 .. b0 + 7 at once, as Random123's philox4x32_R: round 0 with the
// key, each later round after bumping it. w[k][m]: word k of block b0 + m.
inline void philox_blocks8(const random_layout* L, ulong b0, uint w[4][8]) {
    const ulong8 b = (ulong8)(b0) + (ulong8)(0, 1, 2, 3, 4, 5, 6, 7);
    uint8 c0 = convert_uint8(b), c1 = convert_uint8(b >> 32);
    uint8 c2 = (uint8)(L->counter_hi[0]), c3 = (uint8)(L->counter_hi[1]);
    uint k0 = L->key[0], k1 = L->key[1];
    for (int round = 0; round < PHILOX4x32_DEFAULT_ROUNDS; ++round) {
        if (round > 0) {
            k0 += PHILOX_W32_0;
            k1 += PHILOX_W32_1;
        }
        // 32 x 32 -> 64-bit products (mul_hi on uint8 was scalar code in pocl's library).
        const ulong8 p0 = convert_ulong8(c0) * (ulong8)(PHILOX_M4x32_0);
        const ulong8 p1 = convert_ulong8(c2) * (ulong8)(PHILOX_M4x32_1);
        const uint8 hi0 = convert_uint8(p0 >> 32), lo0 = convert_uint8(p0);
        const uint8 hi1 = convert_uint8(p1 >> 32), lo1 = convert_uint8(p1);
        c0 = hi1 ^ c1 ^ (uint8)(k0);
        c1 = lo1;
        c2 = hi0 ^ c3 ^ (uint8)(k1);
        c3 = lo0;
    }
    vstore8(c0, 0, w[0]);
    vstore8(c1, 0, w[1]);
    vstore8(c2, 0, w[2]);
    vstore8(c3, 0, w[3]);
}
#define RANDOM_ITEM_WORDS(b0)                                                                      \
    uint words[4][8];                                                                              \
    philox_blocks8(&L, b0, words);
#define RANDOM_BLOCK_WORDS(m, b) {{words[0][m], words[1][m], words[2][m], words[3][m]}}
#else
#define RANDOM_ITEM_WORDS(b0)
#define RANDOM_BLOCK_WORDS(m, b) block_words(&L, b, 0)
#endif

// Opens the loop over the work-item's blocks (closed by RANDOM_BLOCK_TAIL): b, first (its first
// position), end (the draw's) and r (its words).
#define RANDOM_BLOCK_HEAD                                                                          \
    const ulong item_block = L.first_block + get_global_id(0) * RANDOM_ITEM_BLOCKS;                \
    const ulong end = L.position + L.n;                                                            \
    if (item_block * PER_BLOCK >= end) return;                                                     \
    RANDOM_ITEM_WORDS(item_block)                                                                  \
    for (int m = 0; m < RANDOM_ITEM_BLOCKS; ++m) {                                                 \
        const ulong b = item_block + m;                                                            \
        const ulong first = b * PER_BLOCK;                                                         \
        if (first >= end) break;                                                                   \
        const rng_ctr r = RANDOM_BLOCK_WORDS(m, b);
#define RANDOM_BLOCK_TAIL }

// One vector store of a whole block (16 bytes per work-item: coalesced on GPUs).
#define RANDOM_CAT_(a, b) a##b
#define RANDOM_CAT(a, b) RANDOM_CAT_(a, b)
#define RANDOM_VEC RANDOM_CAT(T, PER_BLOCK)
#if RANDOM_WIDE
#define RANDOM_VSTORE(v, o) vstore2((RANDOM_VEC)(v[0], v[1]), 0, o)
#else
#define RANDOM_VSTORE(v, o) vstore4((RANDOM_VEC)(v[0], v[1], v[2], v[3]), 0, o)
#endif

// Stores the block's values v[0..PER_BLOCK): a block inside the draw over a 1-d view takes the
// short path (no per-lane tests, no unravelling), the first and last blocks (lanes outside the
// draw) and n-d views the general one, which unravels the block's first index once and then
// steps along the innermost axis, unravelling again only where a lane starts a new row.
#define RANDOM_STORE_BLOCK(v)                                                                      \
    if (L.rank == 1 && first >= L.position && first + PER_BLOCK <= end) {                           \
        const long s = L.strides[0];                                                               \
        global T* o = out + L.offset + (long)(first - L.position) * s;                             \
        if (s == 1) {                                                                              \
            RANDOM_VSTORE(v, o);                                                                   \
        } else {                                                                                   \
            for (int j = 0; j < PER_BLOCK; ++j)                                                    \
                o[j * s] = v[j];                                                                   \
        }                                                                                          \
    } else {                                                                                       \
        const int in = (int)L.rank - 1;                                                            \
        ulong i = (first > L.position ? first : L.position) - L.position;                          \
        long d = element_offset(&L, i);                                                            \
        ulong col = in >= 0 ? i % L.shape[in] : 0;                                                 \
        for (int j = 0; j < PER_BLOCK; ++j) {                                                      \
            if (first + j < L.position || first + j >= end) continue;                              \
            if (first + j - L.position != i) { /* the next element (rank >= 1) */                  \
                ++i;                                                                               \
                if (++col < L.shape[in]) {                                                         \
                    d += L.strides[in];                                                            \
                } else {                                                                           \
                    col = 0;                                                                       \
                    d = element_offset(&L, i);                                                     \
                }                                                                                  \
            }                                                                                      \
            out[d] = v[j];                                                                         \
        }                                                                                          \
    }

#if RANDOM_WIDE
#define WORD64(r, j) ((ulong)(r).v[2 * (j)] | ((ulong)(r).v[2 * (j) + 1] << 32))
#endif

#if RANDOM_REAL && !RANDOM_PER_POSITION

// [0, 1) as Random123's u01fixedpt closed_open (exact), then low + u * (high - low) in one
// rounding; a value that rounds up to high becomes the largest value below it.
kernel void random_uniform(global T* out, random_layout L, T low, T high, T width) {
    // The largest value below high, once per work-item (not per lane).
    const T below_high = nextafter(high, low);
    RANDOM_BLOCK_HEAD
    T v[PER_BLOCK];
    for (int j = 0; j < PER_BLOCK; ++j) {
#if RANDOM_WIDE
        const T u = u01fixedpt_closed_open_64_double(WORD64(r, j));
#else
        const T u = u01fixedpt_closed_open_32_float(r.v[j]);
#endif
        const T x = fma(u, width, low);
        v[j] = x < high ? x : below_high;
    }
    RANDOM_STORE_BLOCK(v)
    RANDOM_BLOCK_TAIL
}

// Box-Muller as Random123's boxmuller.hpp: a pair of words (w0, w1) gives
//   r = sqrt(-2 log(u01(w1))), lanes r * sinpi(uneg11(w0)) and r * cospi(uneg11(w0)),
// u01 in (0, 1] and uneg11 in [-1, 1] being Random123's uniform.hpp conversions (their scale
// factors are powers of two, so they round once however the compiler contracts them).
#if RANDOM_WIDE
inline double u01_wide(ulong x) {
    return (double)x * 0x1p-64 + 0x1p-65;
}
inline double uneg11_wide(ulong x) {
    return (double)(long)x * 0x1p-63 + 0x1p-64;
}
#else
inline float u01_narrow(uint x) {
    return (float)x * 0x1p-32f + 0x1p-33f;
}
inline float uneg11_narrow(uint x) {
    return (float)(int)x * 0x1p-31f + 0x1p-32f;
}
#endif

kernel void random_normal(global T* out, random_layout L, T mean, T stddev) {
    RANDOM_BLOCK_HEAD
    T v[PER_BLOCK];
    for (int p = 0; p < PER_BLOCK; p += 2) {
#if RANDOM_WIDE
        const T x = uneg11_wide(WORD64(r, 0));
        const T u = u01_wide(WORD64(r, 1));
#else
        const T x = uneg11_narrow(r.v[p]);
        const T u = u01_narrow(r.v[p + 1]);
#endif
        const T radius = sqrt((T)-2 * log(u));
        v[p] = fma(radius * sinpi(x), stddev, mean);
        v[p + 1] = fma(radius * cospi(x), stddev, mean);
    }
    RANDOM_STORE_BLOCK(v)
    RANDOM_BLOCK_TAIL
}

// scale * -log(u) (inversion), u in (0, 1) from one lane of the block as uniform's (four float32
// or two float64 values per block: one word or two each, Random123's u01fixedpt open_open).
kernel void random_exponential(global T* out, random_layout L, T scale) {
    RANDOM_BLOCK_HEAD
    T v[PER_BLOCK];
    for (int j = 0; j < PER_BLOCK; ++j) {
#if RANDOM_WIDE
        const T u = u01fixedpt_open_open_64_double(WORD64(r, j));
#else
        const T u = u01fixedpt_open_open_32_float(r.v[j]);
#endif
        v[j] = -log(u) * scale;
    }
    RANDOM_STORE_BLOCK(v)
    RANDOM_BLOCK_TAIL
}

#elif RANDOM_REAL // RANDOM_PER_POSITION: a program of its own (src/random/generator.cpp)

// ---- Distributions with one value per position (docs/random.md, "Per-position sequences") ----
// The value at position p is computed from its own sequence of words: the words of blocks
// {p low, p high, stream, domain << 24 | k}, k = 0, 1, ..., taken in order. A rejection method
// takes as many words as its attempts need, so the value is still a function of (key, stream,
// domain, position) alone; nothing is shared between positions. Work-item g computes position
// L.position + g and writes the element of flat C-order index g.

typedef struct {
    ulong position;
    uint next_block; // k of the next block to compute
    uint used;       // words of `words` already taken (4: none left)
    rng_ctr words;
} rng_seq;

inline rng_seq seq_start(ulong position) {
    rng_seq s;
    s.position = position;
    s.next_block = 0;
    s.used = 4;
    return s;
}

// The 24 low bits of counter word 3 count the blocks; a sequence never needs 2^24 of them (the
// loops below stop long before), so the domain byte is never touched.
inline uint seq_word(const random_layout* L, rng_seq* s) {
    if (s->used == 4) {
        s->words = block_words(L, s->position, s->next_block & 0xffffffu);
        ++s->next_block;
        s->used = 0;
    }
    return s->words.v[s->used++];
}

// Uniform in the open interval (0, 1) (Random123's u01fixedpt open_open): logarithms of it and
// of 1 - it are finite.
inline T seq_uniform(const random_layout* L, rng_seq* s) {
#if RANDOM_WIDE
    const ulong lo = seq_word(L, s);
    const ulong hi = seq_word(L, s);
    return u01fixedpt_open_open_64_double(lo | (hi << 32));
#else
    return u01fixedpt_open_open_32_float(seq_word(L, s));
#endif
}

// One standard normal from two uniforms (Box-Muller, one of the pair): 2 u2 - 1 is exact.
inline T seq_normal(const random_layout* L, rng_seq* s) {
    const T u1 = seq_uniform(L, s);
    const T u2 = seq_uniform(L, s);
    return sqrt((T)-2 * log(u1)) * sinpi((T)2 * u2 - (T)1);
}

// Attempts a rejection loop makes before giving up (NaN): far beyond any acceptance rate here
// (the loops accept with probability > 0.5 per attempt) and within the 24-bit block count.
#define RANDOM_MAX_ATTEMPTS 1000000

// A Gamma(a) variate in two factors, value = m * exp(log_boost): m is Marsaglia and Tsang's
// ("A simple method for generating gamma variables", 2000) for shape a >= 1, or for a + 1 when
// a < 1, and then log_boost = log(u) / a with u the sequence's first uniform (their boost:
// G(a) = G(a + 1) u^(1/a)); else log_boost = 0. Each attempt takes three uniforms (a normal and
// the acceptance uniform), also when it is rejected for v <= 0.
inline T seq_gamma_parts(const random_layout* L, rng_seq* s, T a, T* log_boost) {
    *log_boost = (T)0;
    if (a < (T)1) {
        *log_boost = log(seq_uniform(L, s)) / a;
        a = a + (T)1;
    }
    const T d = a - (T)1 / (T)3;
    const T c = (T)1 / sqrt((T)9 * d);
    for (int attempt = 0; attempt < RANDOM_MAX_ATTEMPTS; ++attempt) {
        const T z = seq_normal(L, s);
        const T u = seq_uniform(L, s);
        T v = (T)1 + c * z;
        if (v <= (T)0) continue;
        v = v * v * v;
        if (log(u) < (T)0.5 * z * z + d - d * v + d * log(v)) return d * v;
    }
    return (T)NAN;
}

inline T seq_gamma(const random_layout* L, rng_seq* s, T a) {
    if (a == (T)0) return (T)0; // NumPy's Gamma(0): the point mass at 0
    T log_boost;
    const T m = seq_gamma_parts(L, s, a, &log_boost);
    return a < (T)1 ? m * exp(log_boost) : m;
}

#define RANDOM_POSITION_HEAD                                                                       \
    const ulong g = get_global_id(0);                                                              \
    if (g >= L.n) return;                                                                          \
    rng_seq s = seq_start(L.position + g);

// scale * Gamma(shape); chisquare(df) is this kernel with shape df / 2, scale 2.
kernel void random_gamma(global T* out, random_layout L, T shape, T scale) {
    RANDOM_POSITION_HEAD
    out[element_offset(&L, g)] = seq_gamma(&L, &s, shape) * scale;
}

// X / (X + Y), X ~ Gamma(a) then Y ~ Gamma(b) from the same sequence, computed as
// 1 / (1 + exp(log Y - log X)) on their logarithms: the boosts of shapes below 1 may underflow
// X and Y themselves (float32), their logarithms do not.
kernel void random_beta(global T* out, random_layout L, T a, T b) {
    RANDOM_POSITION_HEAD
    T bx, by;
    const T mx = seq_gamma_parts(&L, &s, a, &bx);
    const T my = seq_gamma_parts(&L, &s, b, &by);
    const T lx = log(mx) + bx, ly = log(my) + by;
    out[element_offset(&L, g)] = (T)1 / ((T)1 + exp(ly - lx));
}

// exp(mean + sigma z), z standard normal.
kernel void random_lognormal(global T* out, random_layout L, T mean, T sigma) {
    RANDOM_POSITION_HEAD
    out[element_offset(&L, g)] = exp(fma(seq_normal(&L, &s), sigma, mean));
}

// z / sqrt(chi2(df) / df) written as NumPy's sqrt(df / 2) z / sqrt(Gamma(df / 2)); the normal
// comes first in the sequence.
kernel void random_standard_t(global T* out, random_layout L, T df) {
    RANDOM_POSITION_HEAD
    const T z = seq_normal(&L, &s);
    const T half_df = df / (T)2;
    const T gm = seq_gamma(&L, &s, half_df);
    out[element_offset(&L, g)] = sqrt(half_df) * z / sqrt(gm);
}

#if RANDOM_WIDE // binomial and poisson: int64 values computed in double

// The tail of Stirling's series for log k! = log Gamma(k + 1): log k! - ((k + 1/2) log(k + 1) -
// (k + 1) + log(2 pi) / 2). Below 15 from lgamma itself (small values, little cancellation),
// above from five terms of the series (the next one is below 1e-16). BTRS's acceptance bound
// adds and subtracts these instead of lgamma values of size n log n, which would cancel.
inline double stirling_tail(double k) {
    if (k < 15) return lgamma(k + 1) - (k + 0.5) * log(k + 1) + (k + 1) - 0.91893853320467274178;
    const double k1 = k + 1, k2 = k1 * k1;
    return (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - (1.0 / 1680 - 1.0 / (1188 * k2)) / k2) / k2) / k2) /
           k1;
}

// Binomial(n, p) for p <= 1/2: inversion (a sequential search of the CDF from 0 with one
// uniform) when n p < 10, else Hormann's BTRS ("The generation of binomial random variates",
// 1993): transformed rejection with a squeeze, two uniforms per attempt, accepted with the
// exact ratio f(k) / f(m) written with Stirling tails.
inline long binomial_low(const random_layout* L, rng_seq* s, long n, double p) {
    const double q = 1 - p, dn = (double)n;
    if (dn * p < 10) {
        const double u = seq_uniform(L, s);
        const double r = p / q;
        double px = exp(dn * log1p(-p)); // q^n
        double c = px;
        long k = 0;
        while (u > c && k < n && px > 0) {
            ++k;
            px = px * r * (double)(n - k + 1) / (double)k;
            c += px;
        }
        return k;
    }
    const double spq = sqrt(dn * p * q);
    const double b = 1.15 + 2.53 * spq;
    const double a = -0.0873 + 0.0248 * b + 0.01 * p;
    const double c = dn * p + 0.5;
    const double vr = 0.92 - 4.2 / b;
    const double alpha = (2.83 + 5.1 / b) * spq;
    const double r = p / q;
    const double m = floor((dn + 1) * p);
    for (int attempt = 0; attempt < RANDOM_MAX_ATTEMPTS; ++attempt) {
        const double u = seq_uniform(L, s) - 0.5;
        double v = seq_uniform(L, s);
        const double us = 0.5 - fabs(u);
        const double k = floor((2 * a / us + b) * u + c);
        if (k < 0 || k > dn) continue;
        if (us >= 0.07 && v <= vr) return (long)k;
        v = log(v * alpha / (a / (us * us) + b));
        const double bound = (m + 0.5) * log((m + 1) / (r * (dn - m + 1))) +
                             (dn + 1) * log1p((k - m) / (dn - k + 1)) +
                             (k + 0.5) * log(r * (dn - k + 1) / (k + 1)) + stirling_tail(m) +
                             stirling_tail(dn - m) - stirling_tail(k) - stirling_tail(dn - k);
        if (v <= bound) return (long)k;
    }
    return -1;
}

// Binomial(n, p): p > 1/2 draws n - Binomial(n, 1 - p) (1 - p is exact there).
kernel void random_binomial(global long* out, random_layout L, long n, double p) {
    RANDOM_POSITION_HEAD
    long k;
    if (n == 0 || p == 0)
        k = 0;
    else if (p > 0.5)
        k = n - binomial_low(&L, &s, n, 1 - p);
    else
        k = binomial_low(&L, &s, n, p);
    out[element_offset(&L, g)] = k;
}

// Poisson(lam): inversion (sequential search with one uniform) for lam < 10, else Hormann's PTRS
// ("The transformed rejection method for generating Poisson random variables", 1993), as NumPy
// writes it: two uniforms per attempt.
kernel void random_poisson(global long* out, random_layout L, double lam) {
    RANDOM_POSITION_HEAD
    long k = 0;
    if (lam < 10) {
        const double u = seq_uniform(&L, &s);
        double px = exp(-lam);
        double c = px;
        while (u > c && px > 0) {
            ++k;
            px = px * lam / (double)k;
            c += px;
        }
    } else {
        const double slam = sqrt(lam), loglam = log(lam);
        const double b = 0.931 + 2.53 * slam;
        const double a = -0.059 + 0.02483 * b;
        const double invalpha = 1.1239 + 1.1328 / (b - 3.4);
        const double vr = 0.9277 - 3.6224 / (b - 2);
        k = -1;
        for (int attempt = 0; attempt < RANDOM_MAX_ATTEMPTS; ++attempt) {
            const double u = seq_uniform(&L, &s) - 0.5;
            const double v = seq_uniform(&L, &s);
            const double us = 0.5 - fabs(u);
            const long c = (long)floor((2 * a / us + b) * u + lam + 0.43);
            if (us >= 0.07 && v <= vr) {
                k = c;
                break;
            }
            if (c < 0 || (us < 0.013 && v > us)) continue;
            if (log(v) + log(invalpha) - log(a / (us * us) + b) <=
                -lam + (double)c * loglam - lgamma((double)c + 1)) {
                k = c;
                break;
            }
        }
    }
    out[element_offset(&L, g)] = k;
}

#endif // RANDOM_WIDE

#else // integers

// Uniform in [low, low + range) by Lemire's multiply-shift with rejection: x * range (double
// width) keeps its high half when the low half is >= threshold = 2^W mod range; a rejected lane
// takes the same lane of the block recomputed with attempt 1, 2, ... in counter word 3.
kernel void random_integers(global T* out, random_layout L, T low, U range, U threshold) {
    RANDOM_BLOCK_HEAD
    T v[PER_BLOCK];
    for (int j = 0; j < PER_BLOCK; ++j) {
#if RANDOM_WIDE
        ulong x = WORD64(r, j);
        ulong lo = x * range;
        for (uint attempt = 1; lo < threshold && attempt < 0x1000000u; ++attempt) {
            const rng_ctr again = block_words(&L, b, attempt);
            x = WORD64(again, j);
            lo = x * range;
        }
        const U hi = mul_hi(x, range);
#else
        ulong m = (ulong)r.v[j] * range;
        for (uint attempt = 1; (uint)m < threshold && attempt < 0x1000000u; ++attempt) {
            const rng_ctr again = block_words(&L, b, attempt);
            m = (ulong)again.v[j] * range;
        }
        const U hi = (U)(m >> 32);
#endif
        v[j] = (T)((U)low + hi); // in U: no signed overflow
    }
    RANDOM_STORE_BLOCK(v)
    RANDOM_BLOCK_TAIL
}

// The raw words of each lane (uint64 keys of permutation, shuffle and choice; domain 23).
kernel void random_bits(global T* out, random_layout L) {
    RANDOM_BLOCK_HEAD
    T v[PER_BLOCK];
    for (int j = 0; j < PER_BLOCK; ++j)
#if RANDOM_WIDE
        v[j] = (T)WORD64(r, j);
#else
        v[j] = (T)r.v[j];
#endif
    RANDOM_STORE_BLOCK(v)
    RANDOM_BLOCK_TAIL
}

#endif
