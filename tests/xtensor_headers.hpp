#pragma once
// The xtensor headers the tests use, in xtensor's pre-0.26 or 0.26+ layout (as
// clarray/host/xtensor.hpp, which brings the host layer's). One header for every test file: these
// few add about a fifth of a second to a test file's compile.
#include <clarray/host/xtensor.hpp>

#if CLARRAY_XTENSOR_SUBFOLDERS
#include <xtensor/core/xmath.hpp>
#include <xtensor/generators/xbuilder.hpp>
#include <xtensor/generators/xrandom.hpp>
#include <xtensor/io/xio.hpp>
#include <xtensor/misc/xmanipulation.hpp>
#include <xtensor/misc/xpad.hpp>
#include <xtensor/misc/xsort.hpp>
#include <xtensor/views/xview.hpp>
#else
#include <xtensor/xbuilder.hpp>
#include <xtensor/xio.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xpad.hpp>
#include <xtensor/xrandom.hpp>
#include <xtensor/xsort.hpp>
#include <xtensor/xview.hpp>
#endif
