// Built into clarray_mpi (clarray::mpi) only when CMake finds MPI.
#include "clarray/multi/mpi.hpp"

#include <climits>
#include <string>

#include "clarray/error.hpp"

namespace clarray::multi::mpi {

namespace {

void check_mpi(int rc, const char* what) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    throw error(std::string(what) + ": " + std::string(text, static_cast<std::size_t>(len)));
}

int to_int(std::size_t n, const char* what) {
    if (n > static_cast<std::size_t>(INT_MAX))
        throw unsupported(std::string(what) + ": " + std::to_string(n) +
                          " bytes exceed MPI's int counts");
    return static_cast<int>(n);
}

MPI_Datatype mpi_type(dtype t) {
    switch (t) {
    case dtype::int8:
        return MPI_INT8_T;
    case dtype::uint8:
        return MPI_UINT8_T;
    case dtype::int16:
        return MPI_INT16_T;
    case dtype::uint16:
        return MPI_UINT16_T;
    case dtype::int32:
        return MPI_INT32_T;
    case dtype::uint32:
        return MPI_UINT32_T;
    case dtype::int64:
        return MPI_INT64_T;
    case dtype::uint64:
        return MPI_UINT64_T;
    case dtype::float32:
        return MPI_FLOAT;
    case dtype::float64:
        return MPI_DOUBLE;
    default:
        return MPI_DATATYPE_NULL;
    }
}

class mpi_transfer final : public communicator::transfer {
public:
    std::vector<MPI_Request> requests;
    // MPI_Request_free would lose the completion the buffers' release must follow.
    ~mpi_transfer() override = default;
    void wait() override {
        if (requests.empty()) return;
        int rc =
            MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
        requests.clear();
        check_mpi(rc, "MPI_Waitall(halo exchange)");
    }
    bool test() {
        if (requests.empty()) return true;
        int done = 0;
        if (MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done,
                        MPI_STATUSES_IGNORE) != MPI_SUCCESS)
            return false;
        if (done) requests.clear();
        return done != 0;
    }
};

} // namespace

communicator::communicator(MPI_Comm comm) : comm_(comm) {
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited) throw usage_error("multi::mpi::communicator: MPI_Init has not been called");
    check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

communicator::~communicator() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& o : orphans_) {
        try {
            o.t->wait();
            o.after();
        } catch (...) { // a destructor never throws; the memory stays mapped then
        }
    }
}

void communicator::progress() const noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t i = 0; i < orphans_.size();) {
        auto* t = static_cast<mpi_transfer*>(orphans_[i].t.get());
        if (!t->test()) {
            ++i;
            continue;
        }
        try {
            orphans_[i].after();
        } catch (...) {
        }
        orphans_.erase(orphans_.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

std::vector<std::size_t> communicator::allgather(std::size_t n) const {
    progress();
    unsigned long long mine = n;
    std::vector<unsigned long long> all(static_cast<std::size_t>(size_));
    check_mpi(MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all.data(), 1, MPI_UNSIGNED_LONG_LONG,
                            comm_),
              "MPI_Allgather");
    return std::vector<std::size_t>(all.begin(), all.end());
}

void communicator::allgatherv(const void* send, std::size_t bytes, void* recv,
                              const std::vector<std::size_t>& counts) const {
    progress();
    std::vector<int> c, displ;
    std::size_t at = 0;
    for (std::size_t n : counts) {
        c.push_back(to_int(n, "MPI_Allgatherv"));
        displ.push_back(to_int(at, "MPI_Allgatherv"));
        at += n;
    }
    check_mpi(MPI_Allgatherv(send, to_int(bytes, "MPI_Allgatherv"), MPI_BYTE, recv, c.data(),
                             displ.data(), MPI_BYTE, comm_),
              "MPI_Allgatherv");
}

bool communicator::can_allreduce(dtype t) const noexcept {
    return mpi_type(t) != MPI_DATATYPE_NULL;
}

void communicator::allreduce(void* data, std::size_t count, dtype t, reduce_op op) const {
    progress();
    MPI_Datatype type = mpi_type(t);
    if (type == MPI_DATATYPE_NULL)
        throw unsupported(std::string("multi::mpi::communicator::allreduce: no MPI type for ") +
                          dtype_name(t));
    MPI_Op o = op == reduce_op::sum ? MPI_SUM : op == reduce_op::max ? MPI_MAX : MPI_MIN;
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, data, to_int(count, "MPI_Allreduce"), type, o, comm_),
              "MPI_Allreduce");
}

std::unique_ptr<communicator::transfer> communicator::start(const std::vector<message>& sends,
                                                            const std::vector<message>& receives) {
    progress();
    auto t = std::make_unique<mpi_transfer>();
    for (const auto& m : receives) {
        t->requests.emplace_back();
        check_mpi(MPI_Irecv(m.data, to_int(m.bytes, "MPI_Irecv"), MPI_BYTE, m.peer, m.tag, comm_,
                            &t->requests.back()),
                  "MPI_Irecv");
    }
    for (const auto& m : sends) {
        t->requests.emplace_back();
        check_mpi(MPI_Isend(m.data, to_int(m.bytes, "MPI_Isend"), MPI_BYTE, m.peer, m.tag, comm_,
                            &t->requests.back()),
                  "MPI_Isend");
    }
    return t;
}

void communicator::adopt(std::unique_ptr<transfer> t, std::function<void()> after) noexcept {
    try {
        std::lock_guard<std::mutex> lock(mutex_);
        orphans_.push_back({std::move(t), std::move(after)});
    } catch (...) { // out of memory: nothing safe is left but to let the transfer go
    }
}

std::shared_ptr<multi::communicator> world() {
    return std::make_shared<communicator>(MPI_COMM_WORLD);
}

} // namespace clarray::multi::mpi
