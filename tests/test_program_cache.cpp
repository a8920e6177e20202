// The on-disk program cache (runtime/program_cache.hpp): a program built once is loaded from disk
// by a fresh context; other options or sources miss; damaged entries are rebuilt and overwritten;
// racing writers (threads, processes) leave only whole entries; the off switch and an unwritable
// directory fall back to building. Each test works in a directory of its own, and the kernels
// that come from disk are run and checked against a host computation.
#include "catch.hpp"

#include <clarray/array/cl_array.hpp>
#include <clarray/array/factories.hpp>
#include <clarray/runtime/program.hpp>
#include <clarray/runtime/program_cache.hpp>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ca = clarray;
namespace fs = std::filesystem;

namespace {

// Sets an environment variable for one scope, restoring the old value (or its absence) after.
class env_guard {
public:
    env_guard(const char* name, const std::optional<std::string>& value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value)
            ::setenv(name, value->c_str(), 1);
        else
            ::unsetenv(name);
    }
    ~env_guard() {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }
    env_guard(const env_guard&) = delete;
    env_guard& operator=(const env_guard&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

// A fresh, empty cache directory for one test (below the suite's private cache directory when
// ctest set one), made the cache directory for the scope, and removed after.
class private_cache {
public:
    private_cache()
        : dir_(base() / ("program-cache-test-" + std::to_string(::getpid()) + "-" +
                         std::to_string(serial()++))),
          guard_("CLARRAY_CACHE_DIR", dir_.string()) {
        fs::remove_all(dir_);
    }
    ~private_cache() {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    const fs::path& dir() const { return dir_; }
    // The entries, and the files that are not entries (temporaries; there must be none).
    std::vector<fs::path> entries() const { return list(".clbin"); }
    std::size_t leftovers() const {
        std::size_t n = 0;
        if (fs::exists(dir_))
            for (const auto& e : fs::directory_iterator(dir_))
                n += e.is_regular_file() && e.path().extension() != ".clbin";
        return n;
    }

private:
    static fs::path base() {
        const char* d = std::getenv("CLARRAY_CACHE_DIR");
        if (d && *d && std::string(d) != "off") return d;
        return fs::temp_directory_path();
    }
    static int& serial() {
        static int n = 0;
        return n;
    }
    std::vector<fs::path> list(const std::string& ext) const {
        std::vector<fs::path> out;
        if (fs::exists(dir_))
            for (const auto& e : fs::directory_iterator(dir_))
                if (e.path().extension() == ext) out.push_back(e.path());
        return out;
    }
    fs::path dir_;
    env_guard guard_;
};

ca::program_cache_stats delta(const ca::program_cache_stats& before) {
    ca::program_cache_stats now = ca::program_cache_statistics();
    now.builds -= before.builds;
    now.loads -= before.loads;
    now.misses -= before.misses;
    now.rejected -= before.rejected;
    now.stores -= before.stores;
    now.store_failures -= before.store_failures;
    return now;
}

// A kernel whose result depends on its source (`offset`) and its options (-DSCALE).
std::string affine_source(int offset) {
    return "#ifndef SCALE\n#define SCALE 2\n#endif\n"
           "kernel void affine(global int* x) {\n"
           "    size_t i = get_global_id(0);\n"
           "    x[i] = (int)i * SCALE + " +
           std::to_string(offset) + ";\n}\n";
}

// A new context whose device uses clarray's program cache. On pocl that needs pocl's own cache
// declared off (POCL_KERNEL_CACHE=0, device::quirks().driver_program_cache), which the device
// object reads when it is made; pocl itself keeps its cache on (it reads the variable at each
// build, and pocl 3.1 without its cache breaks when two threads build at once).
ca::context fresh_context() {
    env_guard pocl_cache_off("POCL_KERNEL_CACHE", std::string("0"));
    return ca::context::from_env();
}

// Builds (or loads) the program in a context and runs it: whether every element is the
// host's i * scale + offset.
bool run_program(const ca::context& ctx, const ca::program& prg, int offset, int scale = 2) {
    ca::queue q(ctx);
    const std::size_t n = 37;
    ca::cl_array<int, ca::buffer> x(q, {n});
    prg.kernel("affine")(q, {n}, x);
    for (std::size_t i = 0; i < n; ++i)
        if (x(i).item() != int(i) * scale + offset) return false;
    return true;
}
bool run_affine(const ca::context& ctx, int offset, const std::string& options = "",
                int scale = 2) {
    return run_program(ctx, ca::program(ctx, affine_source(offset), options), offset, scale);
}

void build_and_check(int offset, const std::string& options = "", int scale = 2) {
    INFO("offset " << offset << ", options '" << options << "'");
    REQUIRE(run_affine(fresh_context(), offset, options, scale));
}

std::string read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}
void write_bytes(const fs::path& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The programs the racing writers build: several, so that their writes interleave.
constexpr int race_sources = 6;
bool build_race_sources(const ca::context& ctx) {
    bool ok = true;
    for (int k = 0; k < race_sources; ++k)
        ok = run_affine(ctx, 100 + k) && ok;
    return ok;
}

} // namespace

TEST_CASE("program cache: a fresh context loads what an earlier one built", "[program_cache]") {
    private_cache cache;
    REQUIRE(ca::program_cache_directory() == cache.dir().string());
    auto before = ca::program_cache_statistics();
    build_and_check(5);
    auto d = delta(before);
    CHECK(d.builds == 1);
    CHECK(d.misses == 1);
    CHECK(d.stores == 1);
    CHECK(d.loads == 0);
    CHECK(cache.entries().size() == 1);
    CHECK(cache.leftovers() == 0);

    before = ca::program_cache_statistics();
    build_and_check(5);
    d = delta(before);
    CHECK(d.builds == 0);
    CHECK(d.loads == 1);
    CHECK(d.rejected == 0);
    CHECK(cache.entries().size() == 1);
}

TEST_CASE("program cache: library and generated kernels of a fresh context come from disk",
          "[program_cache]") {
    private_cache cache;
    auto run = [] {
        ca::context ctx = fresh_context();
        ca::queue q(ctx);
        const std::size_t n = 50;
        auto a = ca::arange<float, ca::buffer>(q, 0.0f, float(n), 1.0f); // a library kernel
        ca::cl_array<float, ca::buffer> b(q, {n}); // every device has Buffer storage
        b.fill(3.0f);
        for (std::size_t i = 0; i < n; i += 7) {
            REQUIRE(a(i).item() == float(i));
            REQUIRE(b(i).item() == 3.0f);
        }
    };
    auto before = ca::program_cache_statistics();
    run();
    const auto first = delta(before);
    CHECK(first.builds >= 1);
    CHECK(first.stores == first.builds);
    CHECK(cache.entries().size() == first.stores);

    before = ca::program_cache_statistics();
    run();
    const auto second = delta(before);
    CHECK(second.builds == 0);
    CHECK(second.loads == first.builds);
}

TEST_CASE("program cache: other options or another source miss", "[program_cache]") {
    private_cache cache;
    auto before = ca::program_cache_statistics();
    build_and_check(1);
    build_and_check(1, "-DSCALE=3", 3);
    build_and_check(2);                  // one character of source differs
    build_and_check(1, "-DSCALE=3 ", 3); // options compare as written
    auto d = delta(before);
    CHECK(d.builds == 4);
    CHECK(d.misses == 4);
    CHECK(d.loads == 0);
    CHECK(cache.entries().size() == 4);

    before = ca::program_cache_statistics();
    build_and_check(1, "-DSCALE=3", 3);
    build_and_check(2);
    build_and_check(1);
    d = delta(before);
    CHECK(d.builds == 0);
    CHECK(d.loads == 3);
}

TEST_CASE("program cache: damaged entries are rebuilt and overwritten", "[program_cache]") {
    struct damage {
        const char* name;
        std::string (*apply)(const std::string& entry, const std::string& other);
    };
    const damage kinds[] = {
        {"a flipped byte in the binary",
         [](const std::string& e, const std::string&) {
             std::string s = e;
             s[s.size() - 1 - s.size() / 8] ^= 0x5a;
             return s;
         }},
        {"a flipped byte in the header",
         [](const std::string& e, const std::string&) {
             std::string s = e;
             s[17] ^= 0x01;
             return s;
         }},
        {"a flipped byte in the key",
         [](const std::string& e, const std::string&) {
             std::string s = e;
             s[60] ^= 0x20;
             return s;
         }},
        {"truncated to half",
         [](const std::string& e, const std::string&) { return e.substr(0, e.size() / 2); }},
        {"truncated inside the header",
         [](const std::string& e, const std::string&) { return e.substr(0, 20); }},
        {"one byte appended", [](const std::string& e, const std::string&) { return e + "x"; }},
        {"empty", [](const std::string&, const std::string&) { return std::string(); }},
        {"another program's entry under this name",
         [](const std::string&, const std::string& other) { return other; }},
    };
    private_cache cache;
    build_and_check(7);
    const fs::path entry = cache.entries().at(0);
    build_and_check(8);
    fs::path other_path;
    for (const fs::path& p : cache.entries())
        if (p != entry) other_path = p;
    REQUIRE(!other_path.empty());
    const std::string other = read_bytes(other_path);
    for (const damage& k : kinds) {
        INFO(k.name);
        // Each round starts from the entry the last one rewrote (checked to load below).
        write_bytes(entry, k.apply(read_bytes(entry), other));

        auto before = ca::program_cache_statistics();
        build_and_check(7);
        auto d = delta(before);
        CHECK(d.rejected == 1);
        CHECK(d.builds == 1);
        CHECK(d.loads == 0);
        CHECK(d.stores == 1);

        before = ca::program_cache_statistics();
        build_and_check(7);
        d = delta(before);
        CHECK(d.loads == 1);
        CHECK(d.builds == 0);
        CHECK(d.rejected == 0);
    }
}

TEST_CASE("program cache: racing threads write whole entries", "[program_cache]") {
    private_cache cache;
    // The programs are built first, then four threads store each of them several times over,
    // in different orders. (Loads are not raced here: pocl 3.1 without its own cache, which is
    // what puts clarray's cache to work on pocl, fails when threads build programs at once. The
    // processes below race loads against writes.)
    ca::context ctx = fresh_context();
    std::vector<ca::program> programs;
    {
        env_guard no_cache("CLARRAY_CACHE_DIR", std::string("off"));
        for (int k = 0; k < race_sources; ++k)
            programs.emplace_back(ctx, affine_source(100 + k));
    }
    std::vector<ca::detail::program_cache_entry> entries;
    for (int k = 0; k < race_sources; ++k)
        entries.emplace_back(ctx, affine_source(100 + k), "");
    const auto before = ca::program_cache_statistics();
    constexpr int threads_n = 4, rounds = 5;
    std::vector<std::thread> threads;
    for (int t = 0; t < threads_n; ++t)
        threads.emplace_back([&, t] {
            for (int r = 0; r < rounds; ++r)
                for (int k = 0; k < race_sources; ++k) {
                    const int i = (k + t + r) % race_sources;
                    entries[i].store(ctx, programs[i].get());
                }
        });
    for (auto& t : threads)
        t.join();
    auto d = delta(before);
    CHECK(d.stores == std::size_t(threads_n * rounds * race_sources));
    CHECK(d.store_failures == 0);
    CHECK(cache.entries().size() == std::size_t(race_sources));
    CHECK(cache.leftovers() == 0);

    // Loaded through the entries (ca::program adds build options of its own).
    const auto loaded = ca::program_cache_statistics();
    const ca::context other = fresh_context();
    for (int k = 0; k < race_sources; ++k) {
        ca::detail::handle<cl_program> p = entries[k].load(other, "");
        REQUIRE(p);
        REQUIRE(run_program(other, ca::program(other, p.release_ownership()), 100 + k));
    }
    d = delta(loaded);
    CHECK(d.loads == std::size_t(race_sources));
    CHECK(d.builds == 0);
    CHECK(d.rejected == 0);
}

// Run by the test below in child processes only.
TEST_CASE("program cache: racing process (child)", "[.program_cache_child]") {
    REQUIRE(build_race_sources(fresh_context()));
}

TEST_CASE("program cache: racing processes write whole entries", "[program_cache]") {
    private_cache cache;
    std::vector<pid_t> children;
    char arg0[] = "clarray_tests";
    char arg1[] = "[.program_cache_child]";
    char* argv[] = {arg0, arg1, nullptr};
    for (int c = 0; c < 3; ++c) {
        // Each child gets a pocl kernel cache of its own: pocl 3.1's cache is not safe for
        // processes compiling the same kernel at once ("Final linking of kernel ... failed").
        // The clarray cache directory is the shared one.
        std::vector<std::string> env;
        for (char** e = environ; *e; ++e)
            if (std::string(*e).rfind("POCL_CACHE_DIR=", 0) != 0) env.emplace_back(*e);
        env.push_back("POCL_CACHE_DIR=" + (cache.dir() / ("pocl-" + std::to_string(c))).string());
        std::vector<char*> envp;
        for (std::string& e : env)
            envp.push_back(e.data());
        envp.push_back(nullptr);
        pid_t pid = 0;
        REQUIRE(::posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv, envp.data()) == 0);
        children.push_back(pid);
    }
    for (pid_t pid : children) {
        int status = 0;
        REQUIRE(::waitpid(pid, &status, 0) == pid);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
    }
    CHECK(cache.entries().size() == std::size_t(race_sources));
    CHECK(cache.leftovers() == 0);
    const auto before = ca::program_cache_statistics();
    REQUIRE(build_race_sources(fresh_context()));
    const auto d = delta(before);
    CHECK(d.loads == std::size_t(race_sources));
    CHECK(d.builds == 0);
    CHECK(d.rejected == 0);
}

TEST_CASE("program cache: CLARRAY_CACHE_DIR=off builds every time", "[program_cache]") {
    private_cache cache;
    for (const char* off : {"off", "OFF"}) {
        env_guard guard("CLARRAY_CACHE_DIR", std::string(off));
        CHECK(ca::program_cache_directory().empty());
        const auto before = ca::program_cache_statistics();
        build_and_check(9);
        build_and_check(9);
        const auto d = delta(before);
        CHECK(d.builds == 2);
        CHECK(d.loads == 0);
        CHECK(d.misses == 0);
        CHECK(d.stores == 0);
        CHECK(d.store_failures == 0);
    }
    CHECK(cache.entries().empty());
}

TEST_CASE("program cache: an unwritable directory falls back to building", "[program_cache]") {
    private_cache cache;
    // A directory below a regular file cannot be made, not even by root.
    fs::create_directories(cache.dir());
    const fs::path file = cache.dir() / "not-a-directory";
    write_bytes(file, "x");
    env_guard guard("CLARRAY_CACHE_DIR", (file / "cache").string());
    const auto before = ca::program_cache_statistics();
    build_and_check(11);
    build_and_check(11);
    const auto d = delta(before);
    CHECK(d.builds == 2);
    CHECK(d.misses == 2);
    CHECK(d.store_failures == 2);
    CHECK(d.stores == 0);
    CHECK(d.loads == 0);
}

TEST_CASE("program cache: the directory comes from CLARRAY_CACHE_DIR, XDG_CACHE_HOME, HOME",
          "[program_cache]") {
    env_guard home("HOME", std::string("/home/someone"));
    env_guard xdg("XDG_CACHE_HOME", std::nullopt);
    {
        env_guard dir("CLARRAY_CACHE_DIR", std::nullopt);
        CHECK(ca::program_cache_directory() == "/home/someone/.cache/clarray");
        env_guard xdg_set("XDG_CACHE_HOME", std::string("/var/cache/me"));
        CHECK(ca::program_cache_directory() == "/var/cache/me/clarray");
        // The XDG specification: a relative path is invalid and ignored.
        env_guard xdg_relative("XDG_CACHE_HOME", std::string("relative"));
        CHECK(ca::program_cache_directory() == "/home/someone/.cache/clarray");
        env_guard no_home("HOME", std::nullopt);
        CHECK(ca::program_cache_directory().empty());
    }
    env_guard dir("CLARRAY_CACHE_DIR", std::string("/tmp/elsewhere"));
    CHECK(ca::program_cache_directory() == "/tmp/elsewhere");
}

TEST_CASE("program cache: a driver that caches programs itself is left to it", "[program_cache]") {
    private_cache cache;
    env_guard pocl_cache_on("POCL_KERNEL_CACHE", std::nullopt);
    ca::context ctx = ca::context::from_env();
    const bool by_driver = ctx.device().quirks().driver_program_cache;
    INFO("device '" << ctx.device().name() << "', driver_program_cache " << by_driver);
    const auto before = ca::program_cache_statistics();
    REQUIRE(run_affine(ca::context::from_env(), 13));
    REQUIRE(run_affine(ca::context::from_env(), 13));
    const auto d = delta(before);
    if (by_driver) {
        CHECK(d.builds == 2);
        CHECK(d.misses == 0);
        CHECK(d.stores == 0);
        CHECK(cache.entries().empty());
    } else {
        CHECK(d.builds == 1);
        CHECK(d.loads == 1);
        CHECK(cache.entries().size() == 1);
    }
}

TEST_CASE("program cache: CLARRAY_BUILD_LOG records each program built from source",
          "[program_cache]") {
    private_cache cache;
    fs::create_directories(cache.dir());
    const fs::path log = cache.dir() / "builds.log";
    {
        env_guard guard("CLARRAY_BUILD_LOG", log.string());
        build_and_check(13, "-DSCALE=3", 3); // built: logged
        build_and_check(13, "-DSCALE=3", 3); // loaded from the cache: not
    }
    build_and_check(14); // no log asked for
    std::ifstream in(log);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    REQUIRE(lines.size() == 1);
    // "<ms> ms\t<bytes> B\t<kernels>\t<options>"
    const std::string& l = lines[0];
    CHECK(l.find(" ms\t" + std::to_string(affine_source(13).size()) + " B\taffine\t") !=
          std::string::npos);
    CHECK(l.find("-DSCALE=3") != std::string::npos);
    CHECK(std::isdigit(static_cast<unsigned char>(l[0])));
}
