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

#include <atomic>
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
    // The entries, and the temporaries left (there must be none).
    std::vector<fs::path> entries() const { return list(".clbin"); }
    std::size_t leftovers() const {
        std::size_t n = 0;
        if (fs::exists(dir_))
            for (const auto& e : fs::directory_iterator(dir_))
                n += e.path().extension() != ".clbin";
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

// Builds (or loads) the program in a fresh context and runs it: whether every element is the
// host's i * scale + offset. No Catch2 macros: racing threads call it (Catch2 2 assertions are
// not thread-safe).
bool run_affine(int offset, const std::string& options = "", int scale = 2) {
    ca::context ctx = ca::context::from_env();
    ca::queue q(ctx);
    ca::program prg(ctx, affine_source(offset), options);
    const std::size_t n = 37;
    ca::cl_array<int, ca::buffer> x(q, {n});
    prg.kernel("affine")(q, {n}, x);
    for (std::size_t i = 0; i < n; ++i)
        if (x(i).item() != int(i) * scale + offset) return false;
    return true;
}

void build_and_check(int offset, const std::string& options = "", int scale = 2) {
    INFO("offset " << offset << ", options '" << options << "'");
    REQUIRE(run_affine(offset, options, scale));
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
bool build_race_sources() {
    bool ok = true;
    for (int k = 0; k < race_sources; ++k)
        ok = run_affine(100 + k) && ok;
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
        ca::context ctx = ca::context::from_env();
        ca::queue q(ctx);
        const std::size_t n = 50;
        auto a = ca::arange<float>(q, 0.0f, float(n), 1.0f); // a library kernel
        ca::cl_array<float> b(q, {n});
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
    for (const damage& k : kinds) {
        INFO(k.name);
        private_cache cache;
        build_and_check(7);
        const fs::path entry = cache.entries().at(0);
        build_and_check(8);
        fs::path other_path;
        for (const fs::path& p : cache.entries())
            if (p != entry) other_path = p;
        REQUIRE(!other_path.empty());
        const std::string good = read_bytes(entry);
        write_bytes(entry, k.apply(good, read_bytes(other_path)));

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
    // The platform is initialised before the threads: pocl 3.1 reads a device's name while
    // another thread's first clGetPlatformIDs still sets it up (a crash in clGetDeviceInfo).
    (void)ca::context::from_env();
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            try {
                if (!build_race_sources()) ++failures;
            } catch (...) {
                ++failures;
            }
        });
    for (auto& t : threads)
        t.join();
    REQUIRE(failures == 0);
    CHECK(cache.entries().size() == std::size_t(race_sources));
    CHECK(cache.leftovers() == 0);
    const auto before = ca::program_cache_statistics();
    REQUIRE(build_race_sources());
    const auto d = delta(before);
    CHECK(d.loads == std::size_t(race_sources));
    CHECK(d.builds == 0);
    CHECK(d.rejected == 0);
}

// Run by the test below in child processes only.
TEST_CASE("program cache: racing process (child)", "[.program_cache_child]") {
    REQUIRE(build_race_sources());
}

TEST_CASE("program cache: racing processes write whole entries", "[program_cache]") {
    private_cache cache;
    std::vector<pid_t> children;
    char arg0[] = "clarray_tests";
    char arg1[] = "[.program_cache_child]";
    char* argv[] = {arg0, arg1, nullptr};
    for (int c = 0; c < 3; ++c) {
        pid_t pid = 0;
        REQUIRE(::posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv, environ) == 0);
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
    REQUIRE(build_race_sources());
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
