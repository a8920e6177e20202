#pragma once
// Sharded and replicated arrays over several queues, devices and (with a communicator)
// processes: docs/multi.md. The MPI communicator is in multi/mpi.hpp (built when MPI is found).
#include "clarray/multi/array.hpp"
#include "clarray/multi/communicator.hpp"
#include "clarray/multi/distribution.hpp"
#include "clarray/multi/expression.hpp"
#include "clarray/multi/halo.hpp"
#include "clarray/multi/linalg.hpp"
#include "clarray/multi/reduce.hpp"
