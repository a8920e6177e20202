// The tuning table (device::tuning_t, detail::make_tuning; docs/internals/tuning.md): the test
// device's table has values every kernel family accepts and the ones documented for its kind,
// each CLARRAY_* override changes the value the table reports, and a bad override is a
// usage_error naming the variable and what it accepts. Overrides come through an injected
// lookup, not the process environment.
#include "support.hpp"

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "clarray/runtime/tuning.hpp"

namespace {

using tuning_t = ca::device::tuning_t;
using kind_t = tuning_t::kind_t;
using rank_t = tuning_t::sort_rank_t;

// An environment of the given variables only.
struct fake_env {
    std::map<std::string, std::string> vars;
    const char* operator()(const char* name) const {
        const auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    }
};

tuning_t table(const ca::detail::tuning_basis& basis, const fake_env& env = {}) {
    return ca::detail::make_tuning(basis, env);
}

ca::detail::tuning_basis basis_of(kind_t kind, bool warp_match = false, bool register_cap = false) {
    ca::detail::tuning_basis b;
    b.kind = kind;
    b.warp_match = warp_match;
    b.register_cap = register_cap;
    return b;
}

bool power_of_two_in(std::size_t v, std::size_t lo, std::size_t hi) {
    return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

// Every field compared (tuning_t has no operator==: it is a table, not a value type).
void check_same(const tuning_t& a, const tuning_t& b) {
    CHECK(a.kind == b.kind);
    CHECK(a.function_vector_width == b.function_vector_width);
    CHECK(a.half_vector_width == b.half_vector_width);
    CHECK(a.index32 == b.index32);
    CHECK(a.reduce_lanes == b.reduce_lanes);
    CHECK(a.reduce_groups_per_cu == b.reduce_groups_per_cu);
    CHECK(a.output_steps == b.output_steps);
    CHECK(a.output_items_per_cu == b.output_items_per_cu);
    CHECK(a.stage2_items_from == b.stage2_items_from);
    CHECK(a.one_pass == b.one_pass);
    CHECK(a.sort_group_size == b.sort_group_size);
    CHECK(a.sort_items_keys_only == b.sort_items_keys_only);
    CHECK(a.sort_items_with_positions == b.sort_items_with_positions);
    CHECK(a.sort_rank == b.sort_rank);
    CHECK(a.sort_onesweep == b.sort_onesweep);
    CHECK(a.sort_groups_per_cu == b.sort_groups_per_cu);
    CHECK(a.sort_registers == b.sort_registers);
    CHECK(a.device_check_staging == b.device_check_staging);
}

// The variables the table reads (docs/internals/tuning.md lists the same).
const std::vector<std::string>& override_names() {
    static const std::vector<std::string> names = {"CLARRAY_PLAN_AS_GPU",
                                                   "CLARRAY_VECTOR_WIDTH",
                                                   "CLARRAY_HALF_VECTOR_WIDTH",
                                                   "CLARRAY_INDEX32",
                                                   "CLARRAY_GPU_REDUCE_LANES",
                                                   "CLARRAY_GPU_REDUCE_GROUPS_PER_CU",
                                                   "CLARRAY_GPU_OUTPUT_STEPS",
                                                   "CLARRAY_GPU_OUTPUT_ITEMS_PER_CU",
                                                   "CLARRAY_GPU_STAGE2_ITEMS_FROM",
                                                   "CLARRAY_ONE_PASS",
                                                   "CLARRAY_SORT_WG",
                                                   "CLARRAY_SORT_ITEMS",
                                                   "CLARRAY_SORT_RANK",
                                                   "CLARRAY_SORT_ONESWEEP",
                                                   "CLARRAY_SORT_GROUPS_PER_CU",
                                                   "CLARRAY_SORT_REGISTERS",
                                                   "CLARRAY_INDEX_CHECK_STAGING"};
    return names;
}

} // namespace

TEST_CASE("tuning: the test device's table is sane and its kind's", "[tuning]") {
    const ca::device& dev = test::ctx().device();
    const tuning_t& t = dev.tuning();
    // Values every kernel family accepts.
    CHECK(power_of_two_in(t.function_vector_width, 1, 16));
    CHECK(power_of_two_in(t.half_vector_width, 1, 16));
    CHECK(power_of_two_in(t.reduce_lanes, 1, 8));
    CHECK((t.reduce_groups_per_cu >= 1 && t.reduce_groups_per_cu <= 64));
    CHECK(power_of_two_in(t.output_steps, 1, 16));
    CHECK(t.output_items_per_cu >= 64);
    CHECK(t.stage2_items_from >= 1);
    CHECK(power_of_two_in(t.sort_group_size, 32, 512));
    CHECK((t.sort_items_keys_only >= 1 && t.sort_items_keys_only <= 64));
    CHECK((t.sort_items_with_positions >= 1 && t.sort_items_with_positions <= 64));
    CHECK((t.sort_groups_per_cu >= 1 && t.sort_groups_per_cu <= 64));
    CHECK((t.sort_registers == 0 || (t.sort_registers >= 16 && t.sort_registers <= 255)));
    // A register cap only where the device takes one; the warp ranking's instructions only
    // where the device has them, unless asked for (their barrier form runs anywhere).
    if (!dev.quirks().register_cap_option) CHECK(t.sort_registers == 0);
    // The kind matches the device type the plans see (CLARRAY_PLAN_AS_GPU=1: a GPU).
    CHECK((t.kind == kind_t::cpu) == dev.is_cpu());
    CHECK((t.kind == kind_t::nvidia_gpu || t.kind == kind_t::gpu) == dev.is_gpu());

    // The device's table is the one make_tuning builds for its kind and quirks with the
    // process's overrides.
    ca::detail::tuning_basis basis =
        basis_of(t.kind, dev.quirks().ptx_warp_match, dev.quirks().register_cap_option != nullptr);
    check_same(t, ca::detail::make_tuning(
                      basis, [](const char* name) -> const char* { return std::getenv(name); }));

    // Without overrides: the values docs/internals/tuning.md gives for the kind.
    bool overridden = false;
    for (const std::string& name : override_names())
        overridden = overridden || std::getenv(name.c_str()) != nullptr;
    if (overridden) return;
    const bool cpu = t.kind == kind_t::cpu;
    const bool capped = dev.quirks().register_cap_option != nullptr;
    CHECK(t.function_vector_width == (cpu ? 8u : 1u));
    CHECK(t.half_vector_width == (t.kind == kind_t::other ? 1u : 4u));
    CHECK(t.index32 == (t.kind == kind_t::nvidia_gpu || t.kind == kind_t::gpu));
    CHECK(t.reduce_lanes == 4u);
    CHECK(t.reduce_groups_per_cu == 8u);
    CHECK(t.output_steps == 8u);
    CHECK(t.output_items_per_cu == 2048u);
    CHECK(t.stage2_items_from == 1024u);
    CHECK(t.one_pass);
    CHECK(t.sort_group_size == 256u);
    CHECK(t.sort_registers == (capped ? 64u : 0u));
    CHECK(t.sort_items_keys_only == (capped ? 14u : 16u));
    CHECK(t.sort_items_with_positions == (capped ? 12u : 16u));
    CHECK(t.sort_rank == (dev.quirks().ptx_warp_match ? rank_t::warp : rank_t::split));
    CHECK(t.sort_onesweep == !cpu);
    CHECK(t.sort_groups_per_cu == 4u);
    CHECK(t.device_check_staging == tuning_t::staging_t::pinned);
}

TEST_CASE("tuning: the columns differ where the measurements do", "[tuning]") {
    const tuning_t nvidia = table(basis_of(kind_t::nvidia_gpu, true, true));
    const tuning_t gpu = table(basis_of(kind_t::gpu));
    const tuning_t cpu = table(basis_of(kind_t::cpu));
    const tuning_t other = table(basis_of(kind_t::other));
    CHECK(nvidia.kind == kind_t::nvidia_gpu);
    CHECK(cpu.kind == kind_t::cpu);
    // Math-function vector kernels on CPUs only; float16 vectors on GPUs and CPUs.
    CHECK(cpu.function_vector_width == 8u);
    CHECK(gpu.function_vector_width == 1u);
    CHECK(nvidia.function_vector_width == 1u);
    CHECK(cpu.half_vector_width == 4u);
    CHECK(gpu.half_vector_width == 4u);
    CHECK(other.half_vector_width == 1u);
    // Onesweep everywhere but on CPUs.
    CHECK(!cpu.sort_onesweep);
    CHECK(gpu.sort_onesweep);
    CHECK(other.sort_onesweep);
    // NVIDIA with PTX's warp instructions and a register cap: warps, 64 registers, 14 / 12 items.
    CHECK(nvidia.sort_rank == rank_t::warp);
    CHECK(nvidia.sort_registers == 64u);
    CHECK(nvidia.sort_items_keys_only == 14u);
    CHECK(nvidia.sort_items_with_positions == 12u);
    // Without them: splits, no cap, 16 items.
    const tuning_t bare_nvidia = table(basis_of(kind_t::nvidia_gpu));
    for (const tuning_t* t : {&bare_nvidia, &gpu, &cpu}) {
        CHECK(t->sort_rank == rank_t::split);
        CHECK(t->sort_registers == 0u);
        CHECK(t->sort_items_keys_only == 16u);
        CHECK(t->sort_items_with_positions == 16u);
    }
}

TEST_CASE("tuning: an override changes the value the table reports", "[tuning]") {
    const auto nvidia = basis_of(kind_t::nvidia_gpu, true, true);
    const auto cpu = basis_of(kind_t::cpu);
    const auto with = [](const char* name, const char* value) {
        fake_env e;
        e.vars[name] = value;
        return e;
    };
    CHECK(table(cpu, with("CLARRAY_VECTOR_WIDTH", "2")).function_vector_width == 2u);
    CHECK(table(nvidia, with("CLARRAY_VECTOR_WIDTH", "16")).function_vector_width == 16u);
    CHECK(table(cpu, with("CLARRAY_HALF_VECTOR_WIDTH", "8")).half_vector_width == 8u);
    CHECK(!table(cpu).index32);
    CHECK(table(nvidia).index32);
    CHECK(table(cpu, with("CLARRAY_INDEX32", "1")).index32);
    CHECK(!table(cpu, with("CLARRAY_INDEX32", "0")).index32);
    CHECK(!table(nvidia, with("CLARRAY_INDEX32", "0")).index32);
    CHECK(table(nvidia, with("CLARRAY_INDEX32", "1")).index32);
    CHECK(table(nvidia, with("CLARRAY_GPU_REDUCE_LANES", "1")).reduce_lanes == 1u);
    CHECK(table(nvidia, with("CLARRAY_GPU_REDUCE_GROUPS_PER_CU", "13")).reduce_groups_per_cu ==
          13u);
    CHECK(table(nvidia, with("CLARRAY_GPU_OUTPUT_STEPS", "16")).output_steps == 16u);
    CHECK(table(nvidia, with("CLARRAY_GPU_OUTPUT_ITEMS_PER_CU", "100000")).output_items_per_cu ==
          100000u);
    CHECK(table(nvidia, with("CLARRAY_GPU_STAGE2_ITEMS_FROM", "1")).stage2_items_from == 1u);
    CHECK(!table(cpu, with("CLARRAY_ONE_PASS", "0")).one_pass);
    CHECK(table(cpu, with("CLARRAY_ONE_PASS", "1")).one_pass);
    CHECK(table(cpu, with("CLARRAY_SORT_WG", "64")).sort_group_size == 64u);
    const tuning_t items = table(nvidia, with("CLARRAY_SORT_ITEMS", "7"));
    CHECK(items.sort_items_keys_only == 7u);
    CHECK(items.sort_items_with_positions == 7u);
    CHECK(table(cpu, with("CLARRAY_SORT_RANK", "warp")).sort_rank == rank_t::warp);
    CHECK(table(cpu, with("CLARRAY_SORT_RANK", "barrier")).sort_rank == rank_t::barrier);
    CHECK(table(nvidia, with("CLARRAY_SORT_RANK", "split")).sort_rank == rank_t::split);
    CHECK(table(cpu, with("CLARRAY_SORT_ONESWEEP", "1")).sort_onesweep);
    CHECK(!table(nvidia, with("CLARRAY_SORT_ONESWEEP", "0")).sort_onesweep);
    CHECK(table(cpu, with("CLARRAY_SORT_GROUPS_PER_CU", "64")).sort_groups_per_cu == 64u);
    // The register cap: applied where the device takes one, and the items follow it.
    const tuning_t capped = table(nvidia, with("CLARRAY_SORT_REGISTERS", "32"));
    CHECK(capped.sort_registers == 32u);
    CHECK(capped.sort_items_keys_only == 14u);
    const tuning_t uncapped = table(nvidia, with("CLARRAY_SORT_REGISTERS", "0"));
    CHECK(uncapped.sort_registers == 0u);
    CHECK(uncapped.sort_items_keys_only == 16u);
    CHECK(uncapped.sort_items_with_positions == 16u);
    CHECK(table(cpu, with("CLARRAY_SORT_REGISTERS", "32")).sort_registers == 0u);
    CHECK(table(cpu, with("CLARRAY_INDEX_CHECK_STAGING", "heap")).device_check_staging ==
          tuning_t::staging_t::heap);
    // CLARRAY_PLAN_AS_GPU=1: a CPU takes the GPU column; a GPU keeps its own.
    const tuning_t as_gpu = table(cpu, with("CLARRAY_PLAN_AS_GPU", "1"));
    CHECK(as_gpu.kind == kind_t::gpu);
    CHECK(as_gpu.function_vector_width == 1u);
    CHECK(as_gpu.sort_onesweep);
    CHECK(table(cpu, with("CLARRAY_PLAN_AS_GPU", "0")).kind == kind_t::cpu);
    CHECK(table(nvidia, with("CLARRAY_PLAN_AS_GPU", "1")).kind == kind_t::nvidia_gpu);
    // An empty value is unset.
    CHECK(table(cpu, with("CLARRAY_VECTOR_WIDTH", "")).function_vector_width == 8u);
    // Overrides leave the other values alone.
    const tuning_t base = table(nvidia);
    const tuning_t one = table(nvidia, with("CLARRAY_SORT_WG", "128"));
    CHECK(one.sort_group_size == 128u);
    CHECK(one.sort_items_keys_only == base.sort_items_keys_only);
    CHECK(one.function_vector_width == base.function_vector_width);
}

TEST_CASE("tuning: a bad override is a usage_error naming the variable", "[tuning][errors]") {
    struct bad {
        const char* name;
        const char* value;
        const char* accepted; // part of the message
    };
    const bad cases[] = {
        {"CLARRAY_VECTOR_WIDTH", "3", "a power of two in [1, 16]"},
        {"CLARRAY_VECTOR_WIDTH", "32", "a power of two in [1, 16]"},
        {"CLARRAY_HALF_VECTOR_WIDTH", "four", "a power of two in [1, 16]"},
        {"CLARRAY_INDEX32", "on", "a whole number in [0, 1]"},
        {"CLARRAY_INDEX32", "2", "a whole number in [0, 1]"},
        {"CLARRAY_GPU_REDUCE_LANES", "16", "a power of two in [1, 8]"},
        {"CLARRAY_GPU_REDUCE_GROUPS_PER_CU", "0", "a whole number in [1, 64]"},
        {"CLARRAY_GPU_OUTPUT_STEPS", "-8", "a power of two in [1, 16]"},
        {"CLARRAY_GPU_OUTPUT_ITEMS_PER_CU", "63", "a whole number in [64, ...]"},
        {"CLARRAY_GPU_STAGE2_ITEMS_FROM", "1k", "a whole number in [1, ...]"},
        {"CLARRAY_ONE_PASS", "yes", "a whole number in [0, 1]"},
        {"CLARRAY_SORT_WG", "1024", "a power of two in [32, 512]"},
        {"CLARRAY_SORT_WG", "96", "a power of two in [32, 512]"},
        {"CLARRAY_SORT_ITEMS", "65", "a whole number in [1, 64]"},
        {"CLARRAY_SORT_RANK", "warps", "one of split, warp, barrier"},
        {"CLARRAY_SORT_ONESWEEP", "2", "a whole number in [0, 1]"},
        {"CLARRAY_SORT_GROUPS_PER_CU", " 4", "a whole number in [1, 64]"},
        {"CLARRAY_SORT_REGISTERS", "8", "0 (no cap) or 16 to 255"},
        {"CLARRAY_SORT_REGISTERS", "256", "a whole number in [0, 255]"},
        {"CLARRAY_INDEX_CHECK_STAGING", "Heap", "one of pinned, heap"},
        {"CLARRAY_PLAN_AS_GPU", "true", "a whole number in [0, 1]"},
    };
    for (const bad& c : cases) {
        INFO(c.name << "=" << c.value);
        fake_env env;
        env.vars[c.name] = c.value;
        // Checked on every column: a bad value is refused even where the table does not use it.
        for (kind_t k : {kind_t::nvidia_gpu, kind_t::cpu}) {
            bool threw = false;
            try {
                (void)table(basis_of(k, false, k == kind_t::nvidia_gpu), env);
            } catch (const ca::usage_error& e) {
                threw = true;
                const std::string what = e.what();
                INFO(what);
                CHECK(what.find(c.name) != std::string::npos);
                CHECK(what.find(c.accepted) != std::string::npos);
                CHECK(what.find(std::string("'") + c.value + "'") != std::string::npos);
            }
            CHECK(threw);
        }
    }
}
