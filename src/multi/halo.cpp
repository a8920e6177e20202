#include "clarray/multi/halo.hpp"

namespace clarray::multi {

halo_exchange::halo_exchange(std::shared_ptr<communicator> comm,
                             std::unique_ptr<communicator::transfer> t,
                             std::vector<std::function<void()>> release,
                             std::vector<std::function<void()>> deliver)
    : comm_(std::move(comm)), transfer_(std::move(t)), release_(std::move(release)),
      deliver_(std::move(deliver)) {}

halo_exchange& halo_exchange::operator=(halo_exchange&& o) {
    if (this != &o) {
        wait();
        comm_ = std::move(o.comm_);
        transfer_ = std::move(o.transfer_);
        release_ = std::move(o.release_);
        deliver_ = std::move(o.deliver_);
    }
    return *this;
}

halo_exchange::~halo_exchange() {
    abandon();
}

void halo_exchange::abandon() noexcept {
    if (!transfer_) return;
    // The host maps must outlive the messages: they end when the communicator sees them done.
    auto release = std::move(release_);
    comm_->adopt(std::move(transfer_), [release = std::move(release)]() {
        for (const auto& f : release)
            f();
    });
}

void halo_exchange::wait() {
    if (!transfer_) return;
    auto t = std::move(transfer_);
    auto release = std::move(release_);
    auto deliver = std::move(deliver_);
    try {
        t->wait();
    } catch (...) {
        for (const auto& f : release)
            f();
        throw;
    }
    for (const auto& f : release)
        f();
    for (const auto& f : deliver)
        f();
}

} // namespace clarray::multi
