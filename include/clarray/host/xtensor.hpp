#pragma once
// The xtensor headers the host layer uses, from xtensor 0.24 to 0.26+: 0.26 moved them from
// xtensor/ into subfolders (xtensor/containers/xarray.hpp...). CLARRAY_XTENSOR_SUBFOLDERS says
// which layout was found; code that includes more xtensor headers can test it too.
#ifndef CLARRAY_XTENSOR_SUBFOLDERS
#if __has_include(<xtensor/containers/xarray.hpp>)
#define CLARRAY_XTENSOR_SUBFOLDERS 1
#else
#define CLARRAY_XTENSOR_SUBFOLDERS 0
#endif
#endif

#if CLARRAY_XTENSOR_SUBFOLDERS
#include <xtensor/containers/xadapt.hpp>
#include <xtensor/containers/xarray.hpp>
#include <xtensor/core/xexpression.hpp>
#include <xtensor/views/xbroadcast.hpp>
#include <xtensor/views/xstrided_view.hpp>
#else
#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xexpression.hpp>
#include <xtensor/xstrided_view.hpp>
#endif
