#include "clarray/multi/distribution.hpp"

#include <numeric>

namespace clarray::multi::detail {

std::shared_ptr<const distribution> make_distribution(std::size_t rows, std::size_t local_parts,
                                                      const options& o) {
    auto d = std::make_shared<distribution>();
    d->halo = o.halo;
    d->comm = o.comm;
    std::vector<std::size_t> counts{local_parts};
    if (o.comm) counts = o.comm->allgather(local_parts);
    const int me = o.comm ? o.comm->rank() : 0;
    for (int r = 0; r < static_cast<int>(counts.size()); ++r) {
        if (counts[r] == 0)
            throw usage_error("multi::array: process " + std::to_string(r) +
                              " gave no queue (every process needs at least one part)");
        if (r == me) d->first_local = d->owner.size();
        d->owner.insert(d->owner.end(), counts[r], r);
    }
    d->local_count = local_parts;
    const std::size_t parts = d->owner.size();
    if (o.block == 0) {
        for (std::size_t p = 0; p < parts; ++p)
            d->rows.push_back(rows / parts + (p < rows % parts ? 1 : 0));
    } else {
        if (o.block * (parts - 1) > rows)
            throw partition_error("multi::array: " + std::to_string(parts - 1) + " blocks of " +
                                  std::to_string(o.block) + " rows exceed the " +
                                  std::to_string(rows) + " rows of the array");
        d->rows.assign(parts - 1, o.block);
        d->rows.push_back(rows - o.block * (parts - 1));
    }
    return d;
}

std::size_t normalise_axis(std::ptrdiff_t axis, std::size_t rank, const char* what) {
    const auto r = static_cast<std::ptrdiff_t>(rank);
    if (axis < -r || axis >= r)
        throw index_error(std::string(what) + ": axis " + std::to_string(axis) +
                          " out of range for " + std::to_string(rank) + " axes");
    return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

std::string rows_to_string(const std::vector<std::size_t>& rows) {
    std::string s = "[";
    for (std::size_t i = 0; i < rows.size(); ++i)
        s += (i ? ", " : "") + std::to_string(rows[i]);
    return s + "]";
}

namespace {
void check_queues(const shards& a, const shards& b) {
    if (a.queues.size() != b.queues.size())
        throw partition_error("multi: operands have " + std::to_string(a.queues.size()) + " and " +
                              std::to_string(b.queues.size()) + " parts on this process");
    for (std::size_t i = 0; i < a.queues.size(); ++i)
        if (a.queues[i].context() != b.queues[i].context())
            throw partition_error("multi: part " + std::to_string(i) +
                                  " of the operands is on queues of different contexts");
}
} // namespace

shards merge_shards(const shards& a, const shards& b) {
    check_queues(a, b);
    if (!a.dist) return b;
    if (!b.dist) return a;
    if (a.dist->comm != b.dist->comm)
        throw partition_error("multi: operands are spread over different communicators");
    if (a.rows != b.rows)
        throw partition_error("multi: operands are partitioned differently: rows per part " +
                              rows_to_string(a.rows) + " and " + rows_to_string(b.rows));
    return a;
}

void check_assignable(const shards& dst, const shards& src) {
    if (!dst.dist && src.dist)
        throw partition_error("multi: a sharded expression cannot be assigned to a replicated "
                              "array (reduce it, or gather it)");
    merge_shards(dst, src);
}

std::vector<std::size_t> row_begins(const std::vector<std::size_t>& rows) {
    std::vector<std::size_t> b(rows.size(), 0);
    if (!rows.empty()) std::partial_sum(rows.begin(), rows.end() - 1, b.begin() + 1);
    return b;
}

} // namespace clarray::multi::detail
