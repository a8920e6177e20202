// Radix select (kernels/sort.cl, select_*): the element of a rank by the ordered keys' 8-bit
// digits from the top. A pass counts the input's top digit (once for all the ranks of a call),
// one group chooses the bucket that holds each rank; per rank, the next pass keeps (compacts)
// that bucket's keys while counting their next digit; later passes read only the shrinking
// candidates. The rank after a selected one comes from its last digit's counts. Everything stays on
// the device (the candidates' number too: the passes loop over a fixed grid), so nothing blocks.
#include <algorithm>
#include <string>
#include <utility>

#include "clarray/error.hpp"
#include "clarray/runtime/env.hpp"
#include "clarray/sort/select.hpp"
#include "sort_kernels.hpp"

namespace clarray::detail {
using namespace sorting;

namespace {

constexpr std::size_t state_words = 8; // kernels/sort.cl, SELECT_STATE

// A selection over the view L of `in`: its launches, fixed grid and scratch.
struct selector {
    op o;
    sort_layout L;
    allocation* in;
    std::size_t groups = 1;
    // hist: the counts of a digit (RADIX words, zero between passes); mins: select_above's
    // smallest key of each group.
    std::shared_ptr<allocation> ctr, hist, mins, cand[2];
};

constexpr std::size_t radix_bins = 256; // kernels/sort.cl, RADIX

selector make_selector(const queue& q, const array_ref& a, const char* what) {
    const std::size_t n = checked_size(*a.shape);
    if (n == 0) throw usage_error(std::string(what) + ": the array is empty");
    if (n >= select_limit)
        throw unsupported(std::string(what) + ": selection takes fewer than 2^32 elements, got " +
                          std::to_string(n));
    selector s{
        op{q, a.kind, a.alloc, a.type, a.type, what}, layout_of(a), a.alloc, 1, {}, {}, {}, {}};
    const device& dev = q.context().device();
    const std::size_t wg = radix_group(dev);
    const std::size_t most = std::clamp<std::size_t>(8 * dev.compute_units(), 1, 1024);
    s.groups = std::clamp<std::size_t>((n + wg - 1) / wg, 1, most);
    s.ctr = s.o.temp(8 * 4);
    s.hist = s.o.zeroed_counters(radix_bins);
    s.mins = s.o.temp(s.groups * 8);
    const std::size_t ks = key_size(a.type);
    // Compacted candidates: only where a digit follows the one they are compacted for.
    const bool compacts = key_bits(a.type) > 16;
    for (int b = 0; b < 2; ++b)
        s.cand[b] = s.o.temp(compacts ? n * ks : ks);
    return s;
}

// select_init: st becomes the state of a selection of rank r; first: the selection's first rank
// (resets the counters and the NaN flag).
void init_state(const selector& s, allocation* st, std::uint64_t r, bool first) {
    const op& o = s.o;
    const cl_ulong rank = r, n = s.L.n;
    const cl_uint reset = first ? 1 : 0;
    o.each(sk::select_init, state_words,
           {o.mem(st, access::write), o.mem(s.ctr.get(), access::read_write), value_of(rank),
            value_of(n), value_of(reset)});
}

// select_pass: counts the digit at shift of the keys of `from` (the input where from_input) that
// match the prefix of state st into the selector's hist; compact (select_compact): also keeps
// them in `to`.
void count_digit(const selector& s, allocation* from, allocation* to, allocation* st,
                 cl_uint from_input, bool compact, cl_uint shift) {
    const op& o = s.o;
    if (compact)
        o.grouped(sk::select_compact, s.groups,
                  {o.mem(s.in, access::read), value_of(s.L), o.mem(from, access::read),
                   o.mem(to, access::write), o.mem(s.hist.get(), access::read_write),
                   o.mem(st, access::read), o.mem(s.ctr.get(), access::read_write),
                   value_of(from_input), value_of(shift)});
    else
        o.grouped(sk::select_pass, s.groups,
                  {o.mem(s.in, access::read), value_of(s.L), o.mem(from, access::read),
                   o.mem(s.hist.get(), access::read_write), o.mem(st, access::read),
                   o.mem(s.ctr.get(), access::read_write), value_of(from_input), value_of(shift)});
}

// select_choose: the bucket of hist (the counts of the digit at shift) that holds st's rank
// extends st's prefix; clear: hist is zeroed for the next pass (its last reader).
void choose_bucket(const selector& s, allocation* hist, allocation* st, cl_uint shift,
                   bool clear = true) {
    const op& o = s.o;
    const cl_uint clear_hist = clear ? 1 : 0;
    o.grouped(sk::select_choose, 1,
              {o.mem(hist, access::read_write), value_of(clear_hist), o.mem(st, access::read_write),
               o.mem(s.ctr.get(), access::read_write), value_of(shift)});
}

// The digits from `shift` down of state st, reading only the candidates in `src` (compacted for
// the digit above), ping-pong with `other`; keep_last: the last digit's counts stay in the
// selector's hist (for select_neighbour). Returns the candidates the last pass read.
allocation* later_digits(const selector& s, allocation* src, allocation* other, allocation* st,
                         int shift, bool keep_last) {
    for (; shift >= 0; shift -= 8) {
        const bool compact = shift > 0;
        count_digit(s, src, other, st, 0, compact, static_cast<cl_uint>(shift));
        choose_bucket(s, s.hist.get(), st, static_cast<cl_uint>(shift), compact || !keep_last);
        if (compact) std::swap(src, other);
    }
    return src;
}

// The digits below the top one of state st (its top digit chosen): the next digit over the
// input again, compacting its bucket where more digits follow; the rest from the candidates.
// Returns the candidates the last pass read (null where it read the input: keys of 16 bits).
allocation* lower_digits(const selector& s, allocation* st, bool keep_last) {
    const int bits = static_cast<int>(key_bits(s.o.t));
    if (bits == 8) return nullptr;
    const int second = bits - 16;
    count_digit(s, s.cand[1].get(), s.cand[0].get(), st, 1, second > 0, second);
    choose_bucket(s, s.hist.get(), st, second, second > 0 || !keep_last);
    if (second == 0) return nullptr;
    return later_digits(s, s.cand[0].get(), s.cand[1].get(), st, bits - 24, keep_last);
}

// The state of rank kth + 1 from the selected state st of rank kth, whose last digit's counts are
// in the selector's hist (select_neighbour; clear: its last reader). Where they cannot tell, the
// smallest key above st's among `last` (the candidates st's last pass read, unless null), then
// among the input (select_above and select_next, which return at once once it is found).
std::shared_ptr<allocation> neighbour(const selector& s, allocation* st, std::uint64_t kth,
                                      bool clear, allocation* last) {
    const op& o = s.o;
    auto next = o.temp(state_words * 8);
    const cl_ulong k = kth;
    const cl_uint clear_hist = clear ? 1 : 0, groups = static_cast<cl_uint>(s.groups);
    o.grouped(sk::select_neighbour, 1,
              {o.mem(s.hist.get(), access::read_write), value_of(clear_hist),
               o.mem(st, access::read), value_of(k), o.mem(next.get(), access::write)});
    std::vector<allocation*> sources; // null: the input
    if (last) sources.push_back(last);
    sources.push_back(nullptr);
    for (allocation* from : sources) {
        const cl_uint from_input = from ? 0 : 1;
        allocation* cand = from ? from : s.cand[0].get(); // (unread from the input)
        o.grouped(sk::select_above, s.groups,
                  {o.mem(s.in, access::read), value_of(s.L), o.mem(cand, access::read),
                   value_of(from_input), o.mem(st, access::read), o.mem(next.get(), access::read),
                   o.mem(s.mins.get(), access::write)});
        o.grouped(sk::select_next, 1,
                  {o.mem(st, access::read), o.mem(s.mins.get(), access::read), value_of(groups),
                   value_of(k), o.mem(next.get(), access::read_write)});
    }
    return next;
}

// A selected rank's state, and its neighbour's (rank + 1) where one was asked for.
struct selection {
    std::shared_ptr<allocation> st, next;
};

// Enqueues the selections of the ranks rs: one pass over the input counts the top digit for all
// (every prefix is still empty), then each rank's lower digits; with_next[i]: rank rs[i] + 1 as
// well, from rs[i]'s last counts (neighbour). first: the selection's first ranks (resets the
// counters and the NaN flag).
std::vector<selection> select_ranks(const selector& s, const std::vector<std::uint64_t>& rs,
                                    const std::vector<bool>& with_next, bool first) {
    const std::size_t count = rs.size();
    std::vector<selection> out(count);
    for (std::size_t i = 0; i < count; ++i) {
        out[i].st = s.o.temp(state_words * 8);
        init_state(s, out[i].st.get(), rs[i], first && i == 0);
    }
    const int bits = static_cast<int>(key_bits(s.o.t));
    count_digit(s, s.cand[1].get(), s.cand[0].get(), out[0].st.get(), 1, false, bits - 8);
    if (bits == 8) {
        // The top digit is the last: its counts serve every choice and neighbour (the last
        // reader clears them).
        std::size_t readers = count;
        for (std::size_t i = 0; i < count; ++i)
            readers += with_next[i] ? 1 : 0;
        for (std::size_t i = 0; i < count; ++i)
            choose_bucket(s, s.hist.get(), out[i].st.get(), 0, --readers == 0);
        for (std::size_t i = 0; i < count; ++i)
            if (with_next[i])
                out[i].next = neighbour(s, out[i].st.get(), rs[i], --readers == 0, nullptr);
        return out;
    }
    for (std::size_t i = 0; i < count; ++i)
        choose_bucket(s, s.hist.get(), out[i].st.get(), static_cast<cl_uint>(bits - 8),
                      i + 1 == count);
    for (std::size_t i = 0; i < count; ++i) {
        allocation* last = lower_digits(s, out[i].st.get(), with_next[i]);
        if (with_next[i]) out[i].next = neighbour(s, out[i].st.get(), rs[i], true, last);
    }
    return out;
}

constexpr std::size_t select_multi = 8; // kernels/sort.cl, SELECT_MULTI

// Enqueues the selections of the ranks rs (2 to select_multi of them; keys wider than 16 bits)
// together: one pass over the input counts the top digit for all (every state starts with the
// empty prefix), one more pass compacts each rank's bucket into a buffer of its own while
// counting its next digit; the later passes read only each rank's candidates, as select_ranks'.
// Two passes over the input in all, instead of two per rank.
std::vector<std::shared_ptr<allocation>>
select_ranks_together(const selector& s, const std::vector<std::uint64_t>& rs, bool first) {
    const op& o = s.o;
    const std::size_t count = rs.size(); // 2 to select_multi
    const cl_ulong n = s.L.n;
    const cl_uint ranks = static_cast<cl_uint>(count);
    std::vector<std::shared_ptr<allocation>> st(count), cand(count), hist(count);
    for (std::size_t r = 0; r < count; ++r) {
        st[r] = o.temp(state_words * 8);
        init_state(s, st[r].get(), rs[r], first && r == 0);
    }
    const unsigned bits = key_bits(o.t);
    // The top digit, once: every state's prefix is still empty.
    count_digit(s, s.cand[1].get(), s.cand[0].get(), st[0].get(), 1, false, bits - 8);
    for (std::size_t r = 0; r < count; ++r)
        choose_bucket(s, s.hist.get(), st[r].get(), bits - 8, r + 1 == count);
    // Each rank's bucket compacted, and its next digit counted, in one pass.
    auto ctrs = o.zeroed_counters(select_multi);
    const std::size_t ks = key_size(o.t);
    for (std::size_t r = 0; r < count; ++r) {
        cand[r] = o.temp(n * ks);
        hist[r] = o.zeroed_counters(radix_bins);
    }
    const auto slot = [&](const std::vector<std::shared_ptr<allocation>>& v, std::size_t r) {
        return v[std::min(r, count - 1)].get(); // unused slots repeat the last buffer
    };
    const cl_uint second = bits - 16;
    std::vector<launch_arg> args{o.mem(s.in, access::read), value_of(s.L), value_of(ranks),
                                 o.mem(ctrs.get(), access::read_write), value_of(second)};
    for (std::size_t r = 0; r < select_multi; ++r)
        args.push_back(o.mem(slot(st, r), access::read));
    for (std::size_t r = 0; r < select_multi; ++r)
        args.push_back(o.mem(slot(cand, r), access::write));
    for (std::size_t r = 0; r < select_multi; ++r)
        args.push_back(o.mem(slot(hist, r), access::read_write));
    o.grouped(sk::select_pass_multi, s.groups, args);
    // The later digits of each rank from its candidates (ping-pong with the selector's buffer).
    for (std::size_t r = 0; r < count; ++r) {
        choose_bucket(s, hist[r].get(), st[r].get(), second);
        later_digits(s, cand[r].get(), s.cand[0].get(), st[r].get(), static_cast<int>(bits) - 24,
                     false);
    }
    return st;
}

} // namespace

std::shared_ptr<allocation> select_impl(const array_ref& a, const std::vector<std::uint64_t>& ranks,
                                        bool poison) {
    const char* what = "select";
    const queue& q = queue_of(a, what);
    const selector s = make_selector(q, a, what);
    const op& o = s.o;
    for (std::uint64_t r : ranks)
        if (r >= s.L.n)
            throw usage_error(std::string(what) + ": rank " + std::to_string(r) +
                              " out of range for " + std::to_string(s.L.n) + " elements");
    // The distinct ranks in order; a rank right after a selected one comes from that one's last
    // counts (neighbour) instead of a selection.
    std::vector<std::uint64_t> distinct = ranks;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    // The ranks that take a full selection, and whether the next distinct rank follows each.
    // Keys wider than 16 bits may share their passes over the input (CLARRAY_SELECT_TOGETHER),
    // select_multi ranks at a time, where the candidate buffers (one per rank, of the input's
    // size) fit a quarter of the device's memory; every rank is then selected. Otherwise the
    // ranks share the pass over the top digit and select the lower digits one at a time.
    const std::size_t ks = key_size(a.type);
    static const bool together_on = env_flag("CLARRAY_SELECT_TOGETHER");
    const bool together = together_on && distinct.size() > 1 && key_bits(a.type) > 16 &&
                          (std::min(select_multi, distinct.size()) + 1) * s.L.n * ks <=
                              q.context().device().global_mem_size() / 4;
    std::vector<std::uint64_t> full;
    std::vector<bool> with_next;
    for (std::size_t i = 0; i < distinct.size(); ++i) {
        // (after a selected rank only: full.back() is then the previous distinct rank)
        const bool follows = !together && i > 0 && full.back() == distinct[i - 1] &&
                             distinct[i - 1] + 1 == distinct[i];
        if (follows)
            with_next.back() = true;
        else {
            full.push_back(distinct[i]);
            with_next.push_back(false);
        }
    }
    std::vector<std::pair<std::uint64_t, std::shared_ptr<allocation>>> states;
    if (together) {
        for (std::size_t i = 0; i < full.size();) {
            const std::size_t batch = std::min(select_multi, full.size() - i);
            const std::vector<std::uint64_t> rs(full.begin() + i, full.begin() + i + batch);
            auto st = batch > 1 ? select_ranks_together(s, rs, i == 0)
                                : std::vector<std::shared_ptr<allocation>>{
                                      select_ranks(s, rs, {false}, i == 0)[0].st};
            for (std::size_t r = 0; r < batch; ++r)
                states.emplace_back(rs[r], std::move(st[r]));
            i += batch;
        }
    } else {
        std::vector<selection> sel = select_ranks(s, full, with_next, true);
        for (std::size_t i = 0; i < full.size(); ++i) {
            states.emplace_back(full[i], std::move(sel[i].st));
            if (with_next[i]) states.emplace_back(full[i] + 1, std::move(sel[i].next));
        }
    }
    auto out = o.alloc(std::max<std::size_t>(ranks.size(), 1) * dtype_size(a.type));
    const cl_uint nan_poison = poison ? 1 : 0;
    for (std::size_t j = 0; j < ranks.size(); ++j) {
        const auto it = std::find_if(states.begin(), states.end(),
                                     [&](const auto& d) { return d.first == ranks[j]; });
        const cl_ulong jj = j;
        o.each(sk::select_value, 1,
               {o.mem(it->second.get(), access::read), o.mem(s.ctr.get(), access::read),
                value_of(nan_poison), o.mem(out.get(), access::write), value_of(jj)});
    }
    return out;
}

std::shared_ptr<allocation> partition_impl(const array_ref& a, std::uint64_t kth, std::uint64_t lo,
                                           std::uint64_t count, bool indices) {
    const char* what = indices ? "argpartition" : "partition";
    const queue& q = queue_of(a, what);
    const selector s = make_selector(q, a, what);
    const op& o = s.o;
    if (kth >= s.L.n || lo + count > s.L.n)
        throw usage_error(std::string(what) + ": kth " + std::to_string(kth) + " or the window [" +
                          std::to_string(lo) + ", " + std::to_string(lo + count) +
                          ") out of range for " + std::to_string(s.L.n) + " elements");
    auto out = o.alloc(std::max<std::uint64_t>(count, 1) * (indices ? 8 : dtype_size(a.type)));
    auto st = select_ranks(s, {kth}, {false}, true)[0].st;
    const cl_ulong k = kth, l = lo, c = count;
    const cl_uint ind = indices ? 1 : 0;
    o.grouped(sk::select_partition, s.groups,
              {o.mem(s.in, access::read), value_of(s.L), o.mem(st.get(), access::read), value_of(k),
               o.mem(s.ctr.get(), access::read_write), value_of(l), value_of(c),
               o.mem(out.get(), access::write), o.mem(out.get(), access::write), value_of(ind)});
    return out;
}

} // namespace clarray::detail
