#pragma once
// The transport between processes of a sharded array (multi/array.hpp). A sharded array with no
// communicator lives in this process only; with one (multi/mpi.hpp gives an MPI implementation)
// its parts are spread over the communicator's processes and reductions, gathers and halo
// exchanges go through it. The interface is small so that the array layer needs no MPI headers.
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "clarray/types/dtype.hpp"

namespace clarray::multi {

// The combining operation of communicator::allreduce.
enum class reduce_op { sum, max, min };

// A group of processes that together hold the parts of sharded arrays.
class communicator {
public:
    // A point-to-point message of a transfer: bytes at data to or from process peer.
    struct message {
        // The other process's rank.
        int peer;
        // Tells apart the messages between the same two processes.
        int tag;
        // The bytes sent, or where received bytes go.
        void* data;
        // How many bytes.
        std::size_t bytes;
    };
    // Messages in flight; wait() returns once every one is done (their buffers are then free).
    class transfer {
    public:
        virtual ~transfer() = default;
        // Blocks until every message of the transfer is sent and received.
        virtual void wait() = 0;
    };

    virtual ~communicator() = default;
    // This process's index, 0 ... size() - 1.
    virtual int rank() const noexcept = 0;
    // The number of processes.
    virtual int size() const noexcept = 0;
    // Every process's n, in rank order (blocks until all processes called it).
    virtual std::vector<std::size_t> allgather(std::size_t n) const = 0;
    // Every process's bytes (counts[r] from rank r), concatenated in rank order into recv.
    virtual void allgatherv(const void* send, std::size_t bytes, void* recv,
                            const std::vector<std::size_t>& counts) const = 0;
    // Whether allreduce takes elements of type t (others are combined through allgatherv).
    virtual bool can_allreduce(dtype t) const noexcept = 0;
    // Combines count elements of type t at data over every process, in place, on every process.
    virtual void allreduce(void* data, std::size_t count, dtype t, reduce_op op) const = 0;
    // Starts the sends and receives, returns without waiting for them.
    virtual std::unique_ptr<transfer> start(const std::vector<message>& sends,
                                            const std::vector<message>& receives) = 0;
    // Takes a transfer nobody waits for (a halo exchange dropped before wait()): `after` runs once
    // it is done, at a later call of this communicator or at its end. Never throws, never blocks.
    virtual void adopt(std::unique_ptr<transfer> t, std::function<void()> after) noexcept = 0;
};

} // namespace clarray::multi
