#pragma once
// The one place that includes the OpenCL C headers, with the target version fixed.
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
