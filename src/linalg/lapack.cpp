#include "lapack.hpp"

#include <complex>
#include <limits>
#include <string>
#include <type_traits>

#include "clarray/error.hpp"

#if CLARRAY_HAVE_LAPACKE
#include <lapacke.h>
#endif

namespace clarray::detail::lapack {

#if CLARRAY_HAVE_LAPACKE

static_assert(sizeof(lapack_int) == sizeof(int),
              "clarray's LAPACK layer passes int indices (an LP64 LAPACKE)");

bool available() noexcept {
    return true;
}
void require(const char*) {}

namespace {

// n as LAPACK's integer; unsupported beyond it.
lapack_int dim(std::size_t n, const char* routine) {
    if (n > static_cast<std::size_t>(std::numeric_limits<lapack_int>::max()))
        throw unsupported(std::string(routine) + ": a matrix dimension of " + std::to_string(n) +
                          " exceeds LAPACK's integers");
    return static_cast<lapack_int>(n);
}

// The status of a LAPACKE call: the info when it is 0 or positive (a result for the caller),
// else the exception: workspace allocation failures are out_of_memory, an invalid argument a
// fault of the library.
int checked(lapack_int info, const char* routine) {
    if (info >= 0) return static_cast<int>(info);
    if (info == LAPACK_WORK_MEMORY_ERROR || info == LAPACK_TRANSPOSE_MEMORY_ERROR)
        throw out_of_memory(std::string(routine) + ": LAPACKE could not allocate its workspace");
    throw error(std::string(routine) + ": LAPACK rejected argument " + std::to_string(-info) +
                " (an internal error of clarray)");
}

// A call whose info is never positive (getrs, geqrf, orgqr/ungqr): anything but 0 throws.
void checked_zero(lapack_int info, const char* routine) {
    if (checked(info, routine) != 0)
        throw error(std::string(routine) + ": unexpected LAPACK info " + std::to_string(info));
}

// One table per element type: the LAPACKE routines and their names for messages.
template <class T> struct table;
#define CLARRAY_LAPACK_TABLE(T, P, HE, UN)                                                         \
    template <> struct table<T> {                                                                  \
        static constexpr auto getrf = &LAPACKE_##P##getrf;                                         \
        static constexpr auto getrs = &LAPACKE_##P##getrs;                                         \
        static constexpr auto getri = &LAPACKE_##P##getri;                                         \
        static constexpr auto potrf = &LAPACKE_##P##potrf;                                         \
        static constexpr auto geqrf = &LAPACKE_##P##geqrf;                                         \
        static constexpr auto orgqr = &LAPACKE_##P##UN##gqr;                                       \
        static constexpr auto gesdd = &LAPACKE_##P##gesdd;                                         \
        static constexpr auto heevd = &LAPACKE_##P##HE##evd;                                       \
        static constexpr auto gelsd = &LAPACKE_##P##gelsd;                                         \
        static constexpr const char* prefix = "LAPACKE_" #P;                                       \
        static constexpr const char* he = #HE;                                                     \
        static constexpr const char* un = #UN;                                                     \
    };
CLARRAY_LAPACK_TABLE(float, s, sy, or)
CLARRAY_LAPACK_TABLE(double, d, sy, or)
CLARRAY_LAPACK_TABLE(std::complex<float>, c, he, un)
CLARRAY_LAPACK_TABLE(std::complex<double>, z, he, un)
#undef CLARRAY_LAPACK_TABLE

// T's elements as LAPACKE's type (its complex types may be C99 complex, of std::complex's
// layout).
template <class T> auto* native(T* p) {
    if constexpr (std::is_same_v<std::remove_const_t<T>, std::complex<float>>)
        return reinterpret_cast<std::conditional_t<std::is_const_v<T>, const lapack_complex_float,
                                                   lapack_complex_float>*>(p);
    else if constexpr (std::is_same_v<std::remove_const_t<T>, std::complex<double>>)
        return reinterpret_cast<std::conditional_t<std::is_const_v<T>, const lapack_complex_double,
                                                   lapack_complex_double>*>(p);
    else
        return p;
}

template <class T> std::string name(const char* routine) {
    return std::string(table<T>::prefix) + routine;
}

} // namespace

template <class T>
int routines<T>::lu(std::size_t m, std::size_t n, T* a, std::size_t lda, int* ipiv) {
    const std::string r = name<T>("getrf");
    return checked(table<T>::getrf(LAPACK_COL_MAJOR, dim(m, r.c_str()), dim(n, r.c_str()),
                                   native(a), dim(lda, r.c_str()), ipiv),
                   r.c_str());
}

template <class T>
void routines<T>::lu_solve(char trans, std::size_t n, std::size_t nrhs, const T* a, std::size_t lda,
                           const int* ipiv, T* b, std::size_t ldb) {
    const std::string r = name<T>("getrs");
    checked_zero(table<T>::getrs(LAPACK_COL_MAJOR, trans, dim(n, r.c_str()), dim(nrhs, r.c_str()),
                                 native(a), dim(lda, r.c_str()), ipiv, native(b),
                                 dim(ldb, r.c_str())),
                 r.c_str());
}

template <class T>
int routines<T>::lu_inverse(std::size_t n, T* a, std::size_t lda, const int* ipiv) {
    const std::string r = name<T>("getri");
    return checked(
        table<T>::getri(LAPACK_COL_MAJOR, dim(n, r.c_str()), native(a), dim(lda, r.c_str()), ipiv),
        r.c_str());
}

template <class T> int routines<T>::cholesky(char uplo, std::size_t n, T* a, std::size_t lda) {
    const std::string r = name<T>("potrf");
    return checked(
        table<T>::potrf(LAPACK_COL_MAJOR, uplo, dim(n, r.c_str()), native(a), dim(lda, r.c_str())),
        r.c_str());
}

template <class T>
void routines<T>::qr(std::size_t m, std::size_t n, T* a, std::size_t lda, T* tau) {
    const std::string r = name<T>("geqrf");
    checked_zero(table<T>::geqrf(LAPACK_COL_MAJOR, dim(m, r.c_str()), dim(n, r.c_str()), native(a),
                                 dim(lda, r.c_str()), native(tau)),
                 r.c_str());
}

template <class T>
void routines<T>::qr_q(std::size_t m, std::size_t n, std::size_t k, T* a, std::size_t lda,
                       const T* tau) {
    const std::string r = name<T>(table<T>::un) + "gqr";
    checked_zero(table<T>::orgqr(LAPACK_COL_MAJOR, dim(m, r.c_str()), dim(n, r.c_str()),
                                 dim(k, r.c_str()), native(a), dim(lda, r.c_str()), native(tau)),
                 r.c_str());
}

template <class T>
int routines<T>::svd(char jobz, std::size_t m, std::size_t n, T* a, std::size_t lda, R* s, T* u,
                     std::size_t ldu, T* vt, std::size_t ldvt) {
    const std::string r = name<T>("gesdd");
    return checked(table<T>::gesdd(LAPACK_COL_MAJOR, jobz, dim(m, r.c_str()), dim(n, r.c_str()),
                                   native(a), dim(lda, r.c_str()), s, native(u),
                                   dim(ldu, r.c_str()), native(vt), dim(ldvt, r.c_str())),
                   r.c_str());
}

template <class T>
int routines<T>::eigh(char jobz, char uplo, std::size_t n, T* a, std::size_t lda, R* w) {
    const std::string r = name<T>(table<T>::he) + "evd";
    return checked(table<T>::heevd(LAPACK_COL_MAJOR, jobz, uplo, dim(n, r.c_str()), native(a),
                                   dim(lda, r.c_str()), w),
                   r.c_str());
}

template <class T>
int routines<T>::lstsq(std::size_t m, std::size_t n, std::size_t nrhs, T* a, std::size_t lda, T* b,
                       std::size_t ldb, R* s, R rcond, std::size_t& rank) {
    const std::string r = name<T>("gelsd");
    lapack_int found = 0;
    const int info = checked(table<T>::gelsd(LAPACK_COL_MAJOR, dim(m, r.c_str()), dim(n, r.c_str()),
                                             dim(nrhs, r.c_str()), native(a), dim(lda, r.c_str()),
                                             native(b), dim(ldb, r.c_str()), s, rcond, &found),
                             r.c_str());
    rank = found > 0 ? static_cast<std::size_t>(found) : 0;
    return info;
}

#else // built without LAPACKE: every routine throws unsupported

bool available() noexcept {
    return false;
}
void require(const char* function) {
    throw unsupported(std::string(function) +
                      ": clarray was built without LAPACKE (install liblapacke-dev, or the "
                      "LAPACKE of your LAPACK, and reconfigure)");
}

template <class T> int routines<T>::lu(std::size_t, std::size_t, T*, std::size_t, int*) {
    require("LAPACK getrf");
    return 0;
}
template <class T>
void routines<T>::lu_solve(char, std::size_t, std::size_t, const T*, std::size_t, const int*, T*,
                           std::size_t) {
    require("LAPACK getrs");
}
template <class T> int routines<T>::lu_inverse(std::size_t, T*, std::size_t, const int*) {
    require("LAPACK getri");
    return 0;
}
template <class T> int routines<T>::cholesky(char, std::size_t, T*, std::size_t) {
    require("LAPACK potrf");
    return 0;
}
template <class T> void routines<T>::qr(std::size_t, std::size_t, T*, std::size_t, T*) {
    require("LAPACK geqrf");
}
template <class T>
void routines<T>::qr_q(std::size_t, std::size_t, std::size_t, T*, std::size_t, const T*) {
    require("LAPACK orgqr");
}
template <class T>
int routines<T>::svd(char, std::size_t, std::size_t, T*, std::size_t, R*, T*, std::size_t, T*,
                     std::size_t) {
    require("LAPACK gesdd");
    return 0;
}
template <class T> int routines<T>::eigh(char, char, std::size_t, T*, std::size_t, R*) {
    require("LAPACK syevd");
    return 0;
}
template <class T>
int routines<T>::lstsq(std::size_t, std::size_t, std::size_t, T*, std::size_t, T*, std::size_t, R*,
                       R, std::size_t&) {
    require("LAPACK gelsd");
    return 0;
}

#endif

template struct routines<float>;
template struct routines<double>;
template struct routines<std::complex<float>>;
template struct routines<std::complex<double>>;

} // namespace clarray::detail::lapack
