#pragma once
// How a sharded array's rows are split into parts and where the parts are (non-template part of
// multi/; the arrays are in multi/array.hpp).
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "clarray/error.hpp"
#include "clarray/multi/communicator.hpp"
#include "clarray/runtime/queue.hpp"

namespace clarray::multi {

// Operands whose parts do not line up: different partitions, part counts, processes, or parts of
// one index on queues of different contexts.
class partition_error : public shape_error {
public:
    using shape_error::shape_error;
};

// How a new sharded array is split and where it lives.
struct options {
    // Rows of every part but the last, which takes the rest; 0: an even split (the first
    // rows % parts parts get one row more).
    std::size_t block = 0;
    // Rows kept on each side of every part for exchange_halos (stencils).
    std::size_t halo = 0;
    // The processes the parts are spread over (multi/mpi.hpp); null: this process only.
    std::shared_ptr<communicator> comm;
};

namespace detail {

// The parts of a sharded array over every process: their rows in order, who holds them.
struct distribution {
    std::vector<std::size_t> rows; // rows of every part, all processes, in row order
    std::vector<int> owner;        // the process (communicator rank) of every part
    std::size_t first_local = 0;   // index of this process's first part
    std::size_t local_count = 0;   // parts on this process (consecutive)
    std::size_t halo = 0;          // halo rows on each side of every part
    std::shared_ptr<communicator> comm;
};

// The distribution of `rows` rows over local_parts parts here (and the parts of the other
// processes of o.comm, whose counts it gathers: every process must call it). partition_error
// when a block size cannot cover the rows or there is no part.
std::shared_ptr<const distribution> make_distribution(std::size_t rows, std::size_t local_parts,
                                                      const options& o);

// What an expression operand says about its parts: the distribution (null for a replicated
// operand), the rows of every part as the operand sees them (views change them), and the queues
// of this process's parts.
struct shards {
    std::shared_ptr<const distribution> dist;
    std::vector<std::size_t> rows;
    std::vector<queue> queues;
};

// The shards of an expression over operands a and b: partition_error unless their parts line up
// (same rows per part, same part count, same processes, same context per part). A replicated
// operand lines up with anything that has as many parts in the same contexts.
shards merge_shards(const shards& a, const shards& b);
// partition_error unless src's parts can be assigned to dst's (as merge_shards; a sharded source
// cannot go into a replicated array).
void check_assignable(const shards& dst, const shards& src);
// The first row of every part (prefix sums of rows).
std::vector<std::size_t> row_begins(const std::vector<std::size_t>& rows);
// axis (negative: from the end) as an index below rank; index_error naming `what` otherwise.
std::size_t normalise_axis(std::ptrdiff_t axis, std::size_t rank, const char* what);
// "[a, b, c]" for messages.
std::string rows_to_string(const std::vector<std::size_t>& rows);

} // namespace detail
} // namespace clarray::multi
