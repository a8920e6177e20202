// Conformance matrix (test_conformance.cpp): astype from every dtype to every dtype.
#include "conformance/conformance.hpp"

using namespace conf;

#define CONF_ASTYPE(NAME, U)                                                                       \
    CONF_FUNCTION(astype_##NAME, true, exact) {                                                    \
        c.check(0, ca::astype<U>(c.in<T, S>(0)));                                                  \
    }

CONF_ASTYPE(bool, bool)
CONF_ASTYPE(int8, std::int8_t)
CONF_ASTYPE(int16, std::int16_t)
CONF_ASTYPE(int32, std::int32_t)
CONF_ASTYPE(int64, std::int64_t)
CONF_ASTYPE(uint8, std::uint8_t)
CONF_ASTYPE(uint16, std::uint16_t)
CONF_ASTYPE(uint32, std::uint32_t)
CONF_ASTYPE(uint64, std::uint64_t)
CONF_ASTYPE(float16, ca::half)
CONF_ASTYPE(float32, float)
CONF_ASTYPE(float64, double)
CONF_ASTYPE(complex64, std::complex<float>)
CONF_ASTYPE(complex128, std::complex<double>)
