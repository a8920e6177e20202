// Random numbers from Random123's counter-based generators (docs/random.md: the counter and key
// layout, the conversions). Built once per (generator, element type) after the Random123
// headers and the declaration of random_layout (src/random/generator.cpp), with
//   -DT=<type> -DU=<unsigned type of T's width> -DRANDOM_THREEFRY=0|1 -DRANDOM_WIDE=0|1
//   -DRANDOM_REAL=0|1
// RANDOM_WIDE: a value takes 64 bits (two counter words, low word first), so a block of four
// words gives 2 values instead of 4. RANDOM_REAL: T is float or double (uniform, normal), else an
// integer type (integers).
//
// Work-item g computes block b = L.first_block + g, whose lane j is the value at position
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

// The four words of block b: counter {b low, b high, stream, domain << 24 | attempt}.
inline rng_ctr block_words(const random_layout* L, ulong b, uint attempt) {
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

#define RANDOM_BLOCK_HEAD                                                                          \
    const ulong b = L.first_block + get_global_id(0);                                              \
    const ulong first = b * PER_BLOCK;                                                             \
    const ulong end = L.position + L.n;                                                            \
    if (first >= end) return;                                                                      \
    const rng_ctr r = block_words(&L, b, 0);

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

#if RANDOM_REAL

// [0, 1) as Random123's u01fixedpt closed_open (exact), then low + u * (high - low) in one
// rounding; a value that rounds up to high becomes the largest value below it.
kernel void random_uniform(global T* out, random_layout L, T low, T high, T width) {
    RANDOM_BLOCK_HEAD
    T v[PER_BLOCK];
    for (int j = 0; j < PER_BLOCK; ++j) {
#if RANDOM_WIDE
        const T u = u01fixedpt_closed_open_64_double(WORD64(r, j));
#else
        const T u = u01fixedpt_closed_open_32_float(r.v[j]);
#endif
        const T x = fma(u, width, low);
        v[j] = x < high ? x : nextafter(high, low);
    }
    RANDOM_STORE_BLOCK(v)
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
}

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
}

#endif
