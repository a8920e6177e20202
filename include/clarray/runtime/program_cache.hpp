#pragma once
// The on-disk program cache: binaries of programs clarray built, so that a later process (or a
// fresh context) loads them instead of compiling the OpenCL C again.
//
// Every program build (generated kernels, library kernels, clarray::program) looks here first.
// An entry is keyed by the source, the build options and the device (name, vendor, driver
// version, device and platform version): a new driver or a changed kernel is a miss, never a
// stale binary. Directory: $CLARRAY_CACHE_DIR, else $XDG_CACHE_HOME/clarray, else
// $HOME/.cache/clarray; CLARRAY_CACHE_DIR=off turns the cache off. Entries are written to a
// temporary file and renamed into place, so concurrent processes only ever see whole entries;
// an entry that fails its checks (truncated, corrupt, another key, a binary the driver rejects)
// is rebuilt from source and overwritten. A directory that cannot be written is not an error:
// programs are built as without the cache, and `store_failures` counts it.
//
// Drivers that keep built programs themselves and pay for handing out binaries skip the cache
// (device::quirks().driver_program_cache): pocl, unless its own cache is off
// (POCL_KERNEL_CACHE=0). There, reading a program's binaries compiles every kernel of the
// program once more, which cost more on a first run than pocl's own cache leaves to save.
#include <cstdint>
#include <string>

#include "clarray/runtime/context.hpp"
#include "clarray/runtime/handle.hpp"

namespace clarray {

// Process-wide counters since start (or the last reset), over all contexts.
struct program_cache_stats {
    // Programs compiled from source (cache off, miss, rejected).
    std::uint64_t builds = 0;
    // Programs made from a cached binary.
    std::uint64_t loads = 0;
    // Lookups that found no entry.
    std::uint64_t misses = 0;
    // Entries found unusable, rebuilt and overwritten.
    std::uint64_t rejected = 0;
    // Entries written.
    std::uint64_t stores = 0;
    // Entries that could not be written (directory, disk).
    std::uint64_t store_failures = 0;
};

// Counts of the on-disk program cache's hits, misses and failures in this process.
program_cache_stats program_cache_statistics() noexcept;
// Sets the program cache's counts to zero.
void reset_program_cache_statistics() noexcept;

// The directory the next build would use ("" when the cache is off), from the environment; a
// device with driver_program_cache does not use it.
std::string program_cache_directory();

} // namespace clarray

namespace clarray::detail {

// One program's place in the cache: its key (source, options, device) and file. Inactive when
// the cache is off. load() and store() never throw; they count what happened.
class program_cache_entry {
public:
    program_cache_entry(const context& ctx, const std::string& source, const std::string& options);
    // The program from the cached binary, built for the device; null on a miss or a rejected
    // entry (then the caller builds from source and stores).
    handle<cl_program> load(const context& ctx, const std::string& options) const noexcept;
    void store(const context& ctx, cl_program built) const noexcept;
    // Counts a build from source (with or without the cache).
    static void count_build() noexcept;

private:
    // Writes the entry through temporary `tmp` (set once named); false when it could not.
    bool write(const context& ctx, cl_program built, std::string& tmp) const;

    std::string dir_;  // "" when the cache is off
    std::string path_; // dir_/<hash>.clbin
    std::string key_;
    std::uint64_t hash_ = 0;
};

} // namespace clarray::detail
