#pragma once
// A halo exchange in flight (multi::array::exchange_halos_begin).
#include <functional>
#include <memory>
#include <vector>

#include "clarray/multi/communicator.hpp"

namespace clarray::multi {

// The rows of an exchange_halos_begin that still travel between processes. Copies between parts
// of this process are enqueued (or done, between contexts) when it is made; messages between
// processes are in flight until wait(), which also enqueues their copies into the halo rows.
// Kernels that do not read the halo rows may run meanwhile (the interior of a stencil). Dropped
// without wait(), the messages finish in the communicator's care and the halos keep old values.
class halo_exchange {
public:
    // Nothing in flight.
    halo_exchange() = default;
    // Messages of `t` over comm; `release` runs when they are done (host maps end), `deliver`
    // after that on wait() only (the received rows are copied into the halos).
    halo_exchange(std::shared_ptr<communicator> comm, std::unique_ptr<communicator::transfer> t,
                  std::vector<std::function<void()>> release,
                  std::vector<std::function<void()>> deliver);
    halo_exchange(const halo_exchange&) = delete;
    halo_exchange& operator=(const halo_exchange&) = delete;
    // Takes over o's messages; o holds none.
    halo_exchange(halo_exchange&& o) = default;
    // Waits for this exchange's messages first (when any), then takes over o's.
    halo_exchange& operator=(halo_exchange&& o);
    // Hands messages nobody waited for to the communicator; never blocks, never throws.
    ~halo_exchange();
    // Blocks until the messages are through, then enqueues their copies into the halo rows.
    void wait();
    // Whether messages are in flight (wait() has something to do).
    bool pending() const noexcept { return transfer_ != nullptr; }

private:
    void abandon() noexcept;
    std::shared_ptr<communicator> comm_;
    std::unique_ptr<communicator::transfer> transfer_;
    std::vector<std::function<void()>> release_, deliver_;
};

} // namespace clarray::multi
