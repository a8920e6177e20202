#pragma once
// The MPI communicator of sharded arrays (built when CMake finds MPI; link clarray::mpi).
//
//   MPI_Init(&argc, &argv);
//   {
//       multi::options o;
//       o.comm = multi::mpi::world();                       // the parts spread over the ranks
//       auto a = multi::scatter<float>({q}, host, {n}, o);  // one part per rank (one queue)
//       float s = multi::sum(a).item();                     // MPI_Allreduce of the partials
//   }
//   MPI_Finalize();
//
// Messages leave from and arrive in host memory: mapped SVM (on CPU devices the device memory
// itself) or a mapped Buffer. CUDA- or ROCm-aware MPI changes nothing here: OpenCL memory is not
// CUDA or HIP memory.
#include <mpi.h>

#include <memory>
#include <mutex>
#include <vector>

#include "clarray/multi/communicator.hpp"

namespace clarray::multi::mpi {

// A communicator over an MPI communicator (not owned: it must outlive this object, and
// MPI_Finalize must come after this object's end).
class communicator final : public multi::communicator {
public:
    // Over comm (MPI_Init must have been called).
    explicit communicator(MPI_Comm comm = MPI_COMM_WORLD);
    // Waits for the transfers handed over by abandoned halo exchanges (MPI buffers cannot be
    // given back while MPI may write them).
    ~communicator() override;
    communicator(const communicator&) = delete;
    communicator& operator=(const communicator&) = delete;

    // The MPI communicator.
    MPI_Comm get() const noexcept { return comm_; }
    // This process's rank.
    int rank() const noexcept override { return rank_; }
    // The number of ranks.
    int size() const noexcept override { return size_; }
    // MPI_Allgather of n.
    std::vector<std::size_t> allgather(std::size_t n) const override;
    // MPI_Allgatherv of bytes.
    void allgatherv(const void* send, std::size_t bytes, void* recv,
                    const std::vector<std::size_t>& counts) const override;
    // Whether MPI has a predefined type for t (integers, float, double).
    bool can_allreduce(dtype t) const noexcept override;
    // MPI_Allreduce in place with MPI_SUM, MPI_MAX or MPI_MIN.
    void allreduce(void* data, std::size_t count, dtype t, reduce_op op) const override;
    // MPI_Irecv for every receive, then MPI_Isend for every send.
    std::unique_ptr<transfer> start(const std::vector<message>& sends,
                                    const std::vector<message>& receives) override;
    // Keeps t until MPI_Testall says it is done, then runs after.
    void adopt(std::unique_ptr<transfer> t, std::function<void()> after) noexcept override;

private:
    void progress() const noexcept;
    MPI_Comm comm_;
    int rank_ = 0, size_ = 1;
    struct orphan {
        std::unique_ptr<transfer> t;
        std::function<void()> after;
    };
    mutable std::mutex mutex_;
    mutable std::vector<orphan> orphans_;
};

// A communicator over MPI_COMM_WORLD (MPI_Init must have been called).
std::shared_ptr<multi::communicator> world();

} // namespace clarray::multi::mpi
