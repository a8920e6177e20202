#include "clarray/runtime/tuning.hpp"

#include <limits>
#include <string>

#include "clarray/error.hpp"
#include "clarray/runtime/env.hpp"

namespace clarray::detail {

device::tuning_t make_tuning(const tuning_basis& basis, env_lookup env) {
    using tuning_t = device::tuning_t;
    using kind_t = tuning_t::kind_t;
    constexpr std::size_t unbounded = std::numeric_limits<std::size_t>::max();
    const auto count = [&](const char* name, std::size_t fallback, std::size_t lo, std::size_t hi,
                           bool power_of_two = false) {
        return count_setting(name, env(name), fallback, lo, hi, power_of_two);
    };
    const auto on = [&](const char* name, bool fallback) {
        return count(name, fallback ? 1 : 0, 0, 1) == 1;
    };

    tuning_t t;
    t.kind = basis.kind;
    if (on("CLARRAY_PLAN_AS_GPU", false) && (t.kind == kind_t::cpu || t.kind == kind_t::other))
        t.kind = kind_t::gpu;
    const bool cpu = t.kind == kind_t::cpu;
    const bool gpu = t.kind == kind_t::nvidia_gpu || t.kind == kind_t::gpu;

    // The table: each value's measurement is in the field's comment (runtime/device.hpp) and
    // in docs/internals/tuning.md, whose table lists them per device kind.
    t.function_vector_width = count("CLARRAY_VECTOR_WIDTH", cpu ? 8 : 1, 1, 16, true);
    t.half_vector_width = count("CLARRAY_HALF_VECTOR_WIDTH", gpu || cpu ? 4 : 1, 1, 16, true);
    t.random_item_blocks = count("CLARRAY_RANDOM_ITEM_BLOCKS", cpu ? 8 : 1, 1, 16, true);
    t.index32 = on("CLARRAY_INDEX32", gpu);

    t.reduce_lanes = count("CLARRAY_GPU_REDUCE_LANES", 4, 1, 8, true);
    t.reduce_groups_per_cu = count("CLARRAY_GPU_REDUCE_GROUPS_PER_CU", 8, 1, 64);
    t.output_steps = count("CLARRAY_GPU_OUTPUT_STEPS", 8, 1, 16, true);
    t.output_items_per_cu = count("CLARRAY_GPU_OUTPUT_ITEMS_PER_CU", 2048, 64, unbounded);
    t.stage2_items_from = count("CLARRAY_GPU_STAGE2_ITEMS_FROM", 1024, 1, unbounded);
    t.one_pass = on("CLARRAY_ONE_PASS", true);

    t.sort_group_size = count("CLARRAY_SORT_WG", 256, 32, 512, true);
    const std::size_t registers = count("CLARRAY_SORT_REGISTERS", 64, 0, 255);
    if (registers > 0 && registers < 16) {
        const std::string value = env("CLARRAY_SORT_REGISTERS");
        throw usage_error("CLARRAY_SORT_REGISTERS must be 0 (no cap) or 16 to 255, not '" + value +
                          "'");
    }
    t.sort_registers = basis.register_cap ? registers : 0;
    const std::size_t items = count("CLARRAY_SORT_ITEMS", 0, 1, 64);
    t.sort_items_keys_only = items ? items : t.sort_registers ? 14 : 16;
    t.sort_items_with_positions = items ? items : t.sort_registers ? 12 : 16;
    using rank = tuning_t::sort_rank_t;
    const rank ranks[] = {rank::split, rank::warp, rank::barrier};
    t.sort_rank = ranks[choice_setting("CLARRAY_SORT_RANK", env("CLARRAY_SORT_RANK"),
                                       {"split", "warp", "barrier"}, basis.warp_match ? 1 : 0)];
    t.sort_onesweep = on("CLARRAY_SORT_ONESWEEP", !cpu);
    t.sort_groups_per_cu = count("CLARRAY_SORT_GROUPS_PER_CU", 4, 1, 64);

    t.host_blas = on("CLARRAY_HOST_BLAS", basis.kind == kind_t::cpu);
    t.host_sort = on("CLARRAY_HOST_SORT", basis.kind == kind_t::cpu);

    t.device_check_staging =
        choice_setting("CLARRAY_INDEX_CHECK_STAGING", env("CLARRAY_INDEX_CHECK_STAGING"),
                       {"pinned", "heap"}, 0) == 0
            ? tuning_t::staging_t::pinned
            : tuning_t::staging_t::heap;
    return t;
}

} // namespace clarray::detail
