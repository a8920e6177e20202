#include "clarray/runtime/program_cache.hpp"

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include <unistd.h>

namespace clarray {

namespace {

struct counters {
    std::atomic<std::uint64_t> builds{0}, loads{0}, misses{0}, rejected{0}, stores{0},
        store_failures{0};
};
counters& stats() {
    static counters c;
    return c;
}
void bump(std::atomic<std::uint64_t>& c) noexcept {
    c.fetch_add(1, std::memory_order_relaxed);
}

// 64-bit FNV-1a. The file name and the integrity check only: the full key is stored in the entry
// and compared on load, so a hash collision costs a rebuild, never a wrong binary.
constexpr std::uint64_t fnv_basis = 14695981039346656037ull;
std::uint64_t fnv1a(const void* data, std::size_t n, std::uint64_t h = fnv_basis) noexcept {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

// The entry's layout: this header, the key, the binary. Native byte order: the key names the
// device, so an entry is only ever read back by a machine of the same kind.
constexpr char entry_magic[8] = {'C', 'L', 'A', 'R', 'R', 'A', 'Y', 'P'};
constexpr std::uint32_t entry_format = 1;
struct entry_header {
    char magic[8];
    std::uint32_t format;
    std::uint32_t header_size;
    std::uint64_t key_hash;
    std::uint64_t key_size;
    std::uint64_t binary_size;
    std::uint64_t checksum; // FNV-1a over the key and the binary
};
static_assert(sizeof(entry_header) == 48, "entry_header must have no padding");
// Larger files are not entries this code wrote.
constexpr std::uint64_t max_entry_size = std::uint64_t(1) << 30;

void append_field(std::string& key, const char* name, const std::string& value) {
    key += name;
    key += ' ';
    key += std::to_string(value.size());
    key += ':';
    key += value;
    key += '\n';
}

std::string platform_version(cl_platform_id p) {
    std::size_t n = 0;
    if (!p || clGetPlatformInfo(p, CL_PLATFORM_VERSION, 0, nullptr, &n) != CL_SUCCESS || n == 0)
        return "";
    std::string s(n, '\0');
    if (clGetPlatformInfo(p, CL_PLATFORM_VERSION, n, s.data(), nullptr) != CL_SUCCESS) return "";
    while (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}

bool read_file(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return false;
    const std::streamoff size = in.tellg();
    if (size < 0 || std::uint64_t(size) > max_entry_size) return false;
    out.resize(static_cast<std::size_t>(size));
    in.seekg(0);
    return in.read(out.data(), size).good() || size == 0;
}

// Unique per process and call: racing writers (threads or processes) never share a temporary.
std::string temp_name(const std::string& path) {
    static std::atomic<std::uint64_t> serial{0};
    const std::uint64_t n = serial.fetch_add(1, std::memory_order_relaxed);
    return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(n);
}

} // namespace

program_cache_stats program_cache_statistics() noexcept {
    counters& c = stats();
    program_cache_stats s;
    s.builds = c.builds.load(std::memory_order_relaxed);
    s.loads = c.loads.load(std::memory_order_relaxed);
    s.misses = c.misses.load(std::memory_order_relaxed);
    s.rejected = c.rejected.load(std::memory_order_relaxed);
    s.stores = c.stores.load(std::memory_order_relaxed);
    s.store_failures = c.store_failures.load(std::memory_order_relaxed);
    return s;
}

void reset_program_cache_statistics() noexcept {
    counters& c = stats();
    for (auto* a : {&c.builds, &c.loads, &c.misses, &c.rejected, &c.stores, &c.store_failures})
        a->store(0, std::memory_order_relaxed);
}

std::string program_cache_directory() {
    if (const char* d = std::getenv("CLARRAY_CACHE_DIR"); d && *d) {
        std::string v = d;
        std::string lower = v;
        for (char& ch : lower)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return lower == "off" ? std::string() : v;
    }
    // XDG: a relative XDG_CACHE_HOME is invalid and ignored.
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && x[0] == '/')
        return std::string(x) + "/clarray";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/clarray";
    return "";
}

namespace detail {

program_cache_entry::program_cache_entry(const context& ctx, const std::string& source,
                                         const std::string& options)
    : dir_(program_cache_directory()) {
    const clarray::device& dev = ctx.device();
    if (dev.quirks().driver_program_cache) dir_.clear();
    if (dir_.empty()) return;
    key_ = "clarray program cache key 1\n";
    append_field(key_, "device", dev.name());
    append_field(key_, "vendor", dev.vendor());
    append_field(key_, "driver", dev.driver_version());
    append_field(key_, "device_version", dev.version());
    append_field(key_, "platform", dev.platform_name());
    append_field(key_, "platform_version", platform_version(dev.platform()));
    append_field(key_, "options", options);
    append_field(key_, "source", source);
    hash_ = fnv1a(key_.data(), key_.size());
    char name[32];
    std::snprintf(name, sizeof name, "%016llx.clbin", static_cast<unsigned long long>(hash_));
    path_ = dir_ + "/" + name;
}

void program_cache_entry::count_build() noexcept {
    bump(stats().builds);
}

handle<cl_program> program_cache_entry::load(const context& ctx,
                                             const std::string& options) const noexcept {
    if (dir_.empty()) return {};
    try {
        std::string file;
        if (!read_file(path_, file)) {
            bump(stats().misses);
            return {};
        }
        auto reject = [] {
            bump(stats().rejected);
            return handle<cl_program>();
        };
        entry_header h;
        if (file.size() < sizeof h) return reject();
        std::memcpy(&h, file.data(), sizeof h);
        if (std::memcmp(h.magic, entry_magic, sizeof h.magic) != 0 || h.format != entry_format ||
            h.header_size != sizeof h || h.key_hash != hash_ || h.key_size != key_.size() ||
            h.binary_size == 0 || h.binary_size > max_entry_size ||
            file.size() != sizeof h + h.key_size + h.binary_size)
            return reject();
        const char* key = file.data() + sizeof h;
        const char* bin = key + h.key_size;
        if (std::memcmp(key, key_.data(), key_.size()) != 0 ||
            fnv1a(bin, h.binary_size, fnv1a(key, h.key_size)) != h.checksum)
            return reject();

        cl_device_id dev = ctx.device().id();
        const auto* bytes = reinterpret_cast<const unsigned char*>(bin);
        const std::size_t len = static_cast<std::size_t>(h.binary_size);
        cl_int status = CL_SUCCESS, rc = CL_SUCCESS;
        handle<cl_program> prog(
            clCreateProgramWithBinary(ctx.get(), 1, &dev, &len, &bytes, &status, &rc));
        if (rc != CL_SUCCESS || status != CL_SUCCESS || !prog) return reject();
        if (clBuildProgram(prog.get(), 1, &dev, options.c_str(), nullptr, nullptr) != CL_SUCCESS)
            return reject();
        bump(stats().loads);
        return prog;
    } catch (...) { // out of memory reading the file: build from source instead
        bump(stats().rejected);
        return {};
    }
}

void program_cache_entry::store(const context& ctx, cl_program built) const noexcept {
    if (dir_.empty()) return;
    std::string tmp;
    bool stored = false;
    try {
        stored = write(ctx, built, tmp);
    } catch (...) { // out of memory, or the file system threw: the program is built regardless
    }
    if (!stored && !tmp.empty()) {
        std::error_code ec;
        std::filesystem::remove(tmp, ec);
    }
    bump(stored ? stats().stores : stats().store_failures);
}

bool program_cache_entry::write(const context& ctx, cl_program built, std::string& tmp) const {
    cl_uint ndev = 0;
    if (clGetProgramInfo(built, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, nullptr) !=
            CL_SUCCESS ||
        ndev == 0)
        return false;
    std::vector<cl_device_id> devs(ndev);
    std::vector<std::size_t> sizes(ndev);
    if (clGetProgramInfo(built, CL_PROGRAM_DEVICES, ndev * sizeof(cl_device_id), devs.data(),
                         nullptr) != CL_SUCCESS ||
        clGetProgramInfo(built, CL_PROGRAM_BINARY_SIZES, ndev * sizeof(std::size_t), sizes.data(),
                         nullptr) != CL_SUCCESS)
        return false;
    std::size_t index = ndev;
    for (cl_uint i = 0; i < ndev; ++i)
        if (devs[i] == ctx.device().id()) index = i;
    if (index == ndev || sizes[index] == 0) return false;

    // One buffer: header, key, binary; the driver writes the binary in place. A null pointer
    // skips the context's other devices.
    std::string file(sizeof(entry_header) + key_.size() + sizes[index], '\0');
    char* bin = file.data() + sizeof(entry_header) + key_.size();
    std::vector<unsigned char*> ptrs(ndev, nullptr);
    ptrs[index] = reinterpret_cast<unsigned char*>(bin);
    if (clGetProgramInfo(built, CL_PROGRAM_BINARIES, ndev * sizeof(unsigned char*), ptrs.data(),
                         nullptr) != CL_SUCCESS)
        return false;
    entry_header h;
    std::memcpy(h.magic, entry_magic, sizeof h.magic);
    h.format = entry_format;
    h.header_size = sizeof h;
    h.key_hash = hash_;
    h.key_size = key_.size();
    h.binary_size = sizes[index];
    h.checksum = fnv1a(bin, sizes[index], fnv1a(key_.data(), key_.size()));
    std::memcpy(file.data(), &h, sizeof h);
    std::memcpy(file.data() + sizeof h, key_.data(), key_.size());

    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    tmp = temp_name(path_);
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(file.data(), static_cast<std::streamsize>(file.size()));
    out.close();
    if (!out) return false;
    // rename is atomic: a reader sees the old entry or the new one, never a partial file.
    std::filesystem::rename(tmp, path_, ec);
    return !ec;
}

} // namespace detail

} // namespace clarray
