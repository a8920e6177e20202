// VkFFT is one large header of static functions: only this file includes it. It calls
// clCreateCommandQueue (plan set-up), which CL/cl.h declares only with the 1.2 APIs, so this
// comes before the OpenCL headers are first included.
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define VKFFT_BACKEND 3
#include "clarray/runtime/cl.hpp"

#include <algorithm>

// VkFFT sizes its single-pass kernels by CL_DEVICE_LOCAL_MEM_SIZE. Devices whose local memory
// is emulated in global memory (CL_GLOBAL: pocl's CPU devices report 2 MiB) crash in VkFFT's
// kernels once a pass holds more than 65536 points; capped at the 64 KiB of a GPU, longer
// transforms take VkFFT's multi-pass (four-step) path there. VkFFT's calls of clGetDeviceInfo
// come here (the macro below, this file only).
static cl_int clarray_vkfft_device_info(cl_device_id d, cl_device_info what, size_t size,
                                        void* value, size_t* size_ret) {
    const cl_int r = clGetDeviceInfo(d, what, size, value, size_ret);
    if (r != CL_SUCCESS || what != CL_DEVICE_LOCAL_MEM_SIZE || !value || size < sizeof(cl_ulong))
        return r;
    cl_device_local_mem_type type = CL_LOCAL;
    if (clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_TYPE, sizeof type, &type, nullptr) != CL_SUCCESS)
        return r;
    if (type == CL_GLOBAL)
        *static_cast<cl_ulong*>(value) = std::min<cl_ulong>(*static_cast<cl_ulong*>(value), 65536);
    return r;
}
#define clGetDeviceInfo clarray_vkfft_device_info
#include <vkFFT.h>
#undef clGetDeviceInfo

#include "clarray/fft/fft.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "clarray/array/builtin_kernels.hpp"
#include "clarray/array/copy.hpp"
#include "clarray/array/manipulation.hpp"
#include "clarray/error.hpp"
#include "clarray/memory/pool.hpp"
#include "clarray/runtime/context_state.hpp"
#include "clarray/runtime/kernel_cache.hpp"
#include "clarray/runtime/launch.hpp"
#include "clarray/runtime/queue.hpp"
#include "clarray/storage/allocation.hpp"
#include "clarray/storage/policies.hpp"

namespace clarray::detail {

extern const char* const kernel_source_fft;

namespace {

#define CLARRAY_VKFFT_RESULTS(X)                                                                   \
    X(VKFFT_SUCCESS)                                                                               \
    X(VKFFT_ERROR_MALLOC_FAILED)                                                                   \
    X(VKFFT_ERROR_INSUFFICIENT_CODE_BUFFER)                                                        \
    X(VKFFT_ERROR_INSUFFICIENT_TEMP_BUFFER)                                                        \
    X(VKFFT_ERROR_PLAN_NOT_INITIALIZED)                                                            \
    X(VKFFT_ERROR_NULL_TEMP_PASSED)                                                                \
    X(VKFFT_ERROR_INVALID_PHYSICAL_DEVICE)                                                         \
    X(VKFFT_ERROR_INVALID_DEVICE)                                                                  \
    X(VKFFT_ERROR_INVALID_QUEUE)                                                                   \
    X(VKFFT_ERROR_INVALID_COMMAND_POOL)                                                            \
    X(VKFFT_ERROR_INVALID_FENCE)                                                                   \
    X(VKFFT_ERROR_ONLY_FORWARD_FFT_INITIALIZED)                                                    \
    X(VKFFT_ERROR_ONLY_INVERSE_FFT_INITIALIZED)                                                    \
    X(VKFFT_ERROR_INVALID_CONTEXT)                                                                 \
    X(VKFFT_ERROR_INVALID_PLATFORM)                                                                \
    X(VKFFT_ERROR_ENABLED_saveApplicationToString)                                                 \
    X(VKFFT_ERROR_EMPTY_FILE)                                                                      \
    X(VKFFT_ERROR_EMPTY_FFTdim)                                                                    \
    X(VKFFT_ERROR_EMPTY_size)                                                                      \
    X(VKFFT_ERROR_EMPTY_bufferSize)                                                                \
    X(VKFFT_ERROR_EMPTY_buffer)                                                                    \
    X(VKFFT_ERROR_EMPTY_tempBufferSize)                                                            \
    X(VKFFT_ERROR_EMPTY_tempBuffer)                                                                \
    X(VKFFT_ERROR_EMPTY_inputBufferSize)                                                           \
    X(VKFFT_ERROR_EMPTY_inputBuffer)                                                               \
    X(VKFFT_ERROR_EMPTY_outputBufferSize)                                                          \
    X(VKFFT_ERROR_EMPTY_outputBuffer)                                                              \
    X(VKFFT_ERROR_EMPTY_kernelSize)                                                                \
    X(VKFFT_ERROR_EMPTY_kernel)                                                                    \
    X(VKFFT_ERROR_EMPTY_applicationString)                                                         \
    X(VKFFT_ERROR_EMPRY_useCustomBluesteinPaddingPattern_arrays)                                   \
    X(VKFFT_ERROR_UNSUPPORTED_RADIX)                                                               \
    X(VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH)                                                          \
    X(VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C)                                                      \
    X(VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_DCT)                                                      \
    X(VKFFT_ERROR_UNSUPPORTED_FFT_OMIT)                                                            \
    X(VKFFT_ERROR_FAILED_TO_ALLOCATE)                                                              \
    X(VKFFT_ERROR_FAILED_TO_MAP_MEMORY)                                                            \
    X(VKFFT_ERROR_FAILED_TO_ALLOCATE_COMMAND_BUFFERS)                                              \
    X(VKFFT_ERROR_FAILED_TO_BEGIN_COMMAND_BUFFER)                                                  \
    X(VKFFT_ERROR_FAILED_TO_END_COMMAND_BUFFER)                                                    \
    X(VKFFT_ERROR_FAILED_TO_SUBMIT_QUEUE)                                                          \
    X(VKFFT_ERROR_FAILED_TO_WAIT_FOR_FENCES)                                                       \
    X(VKFFT_ERROR_FAILED_TO_RESET_FENCES)                                                          \
    X(VKFFT_ERROR_FAILED_TO_CREATE_DESCRIPTOR_POOL)                                                \
    X(VKFFT_ERROR_FAILED_TO_CREATE_DESCRIPTOR_SET_LAYOUT)                                          \
    X(VKFFT_ERROR_FAILED_TO_ALLOCATE_DESCRIPTOR_SETS)                                              \
    X(VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE_LAYOUT)                                                \
    X(VKFFT_ERROR_FAILED_SHADER_PREPROCESS)                                                        \
    X(VKFFT_ERROR_FAILED_SHADER_PARSE)                                                             \
    X(VKFFT_ERROR_FAILED_SHADER_LINK)                                                              \
    X(VKFFT_ERROR_FAILED_SPIRV_GENERATE)                                                           \
    X(VKFFT_ERROR_FAILED_TO_CREATE_SHADER_MODULE)                                                  \
    X(VKFFT_ERROR_FAILED_TO_CREATE_INSTANCE)                                                       \
    X(VKFFT_ERROR_FAILED_TO_SETUP_DEBUG_MESSENGER)                                                 \
    X(VKFFT_ERROR_FAILED_TO_FIND_PHYSICAL_DEVICE)                                                  \
    X(VKFFT_ERROR_FAILED_TO_CREATE_DEVICE)                                                         \
    X(VKFFT_ERROR_FAILED_TO_CREATE_FENCE)                                                          \
    X(VKFFT_ERROR_FAILED_TO_CREATE_COMMAND_POOL)                                                   \
    X(VKFFT_ERROR_FAILED_TO_CREATE_BUFFER)                                                         \
    X(VKFFT_ERROR_FAILED_TO_ALLOCATE_MEMORY)                                                       \
    X(VKFFT_ERROR_FAILED_TO_BIND_BUFFER_MEMORY)                                                    \
    X(VKFFT_ERROR_FAILED_TO_FIND_MEMORY)                                                           \
    X(VKFFT_ERROR_FAILED_TO_SYNCHRONIZE)                                                           \
    X(VKFFT_ERROR_FAILED_TO_COPY)                                                                  \
    X(VKFFT_ERROR_FAILED_TO_CREATE_PROGRAM)                                                        \
    X(VKFFT_ERROR_FAILED_TO_COMPILE_PROGRAM)                                                       \
    X(VKFFT_ERROR_FAILED_TO_GET_CODE_SIZE)                                                         \
    X(VKFFT_ERROR_FAILED_TO_GET_CODE)                                                              \
    X(VKFFT_ERROR_FAILED_TO_DESTROY_PROGRAM)                                                       \
    X(VKFFT_ERROR_FAILED_TO_LOAD_MODULE)                                                           \
    X(VKFFT_ERROR_FAILED_TO_GET_FUNCTION)                                                          \
    X(VKFFT_ERROR_FAILED_TO_SET_DYNAMIC_SHARED_MEMORY)                                             \
    X(VKFFT_ERROR_FAILED_TO_MODULE_GET_GLOBAL)                                                     \
    X(VKFFT_ERROR_FAILED_TO_LAUNCH_KERNEL)                                                         \
    X(VKFFT_ERROR_FAILED_TO_EVENT_RECORD)                                                          \
    X(VKFFT_ERROR_FAILED_TO_ADD_NAME_EXPRESSION)                                                   \
    X(VKFFT_ERROR_FAILED_TO_INITIALIZE)                                                            \
    X(VKFFT_ERROR_FAILED_TO_SET_DEVICE_ID)                                                         \
    X(VKFFT_ERROR_FAILED_TO_GET_DEVICE)                                                            \
    X(VKFFT_ERROR_FAILED_TO_CREATE_CONTEXT)                                                        \
    X(VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE)                                                       \
    X(VKFFT_ERROR_FAILED_TO_SET_KERNEL_ARG)                                                        \
    X(VKFFT_ERROR_FAILED_TO_CREATE_COMMAND_QUEUE)                                                  \
    X(VKFFT_ERROR_FAILED_TO_RELEASE_COMMAND_QUEUE)                                                 \
    X(VKFFT_ERROR_FAILED_TO_ENUMERATE_DEVICES)                                                     \
    X(VKFFT_ERROR_FAILED_TO_GET_ATTRIBUTE)                                                         \
    X(VKFFT_ERROR_FAILED_TO_CREATE_EVENT)                                                          \
    X(VKFFT_ERROR_FAILED_TO_CREATE_COMMAND_LIST)                                                   \
    X(VKFFT_ERROR_FAILED_TO_DESTROY_COMMAND_LIST)                                                  \
    X(VKFFT_ERROR_FAILED_TO_SUBMIT_BARRIER)

// An int, not a VkFFTResult: a code from another VkFFT version may lie outside the enum's range.
const char* result_name(int r) {
    switch (r) {
#define CLARRAY_VKFFT_CASE(x)                                                                      \
    case x:                                                                                        \
        return #x;
        CLARRAY_VKFFT_RESULTS(CLARRAY_VKFFT_CASE)
#undef CLARRAY_VKFFT_CASE
    }
    return nullptr;
}

// ---- plans ----

// One VkFFT configuration: up to three dimensions (fastest first, VkFFT's WHD order), each
// transformed or omitted (a run of axes the transform skips), over `batches` copies.
struct plan_key {
    cl_device_id device = nullptr;
    std::uint64_t dims = 1;
    std::array<std::uint64_t, 3> size{1, 1, 1};
    std::array<std::uint64_t, 3> omit{0, 0, 0};
    std::uint64_t batches = 1;
    bool double_precision = false;
    bool r2c = false;
    bool normalize = false;    // the inverse scales by 1/N
    bool out_of_place = false; // C2C forward from a separate input buffer (at a launch offset)

    auto tie() const {
        return std::tie(device, dims, size, omit, batches, double_precision, r2c, normalize,
                        out_of_place);
    }
    bool operator<(const plan_key& o) const { return tie() < o.tie(); }

    std::string describe() const {
        std::string s = "size";
        for (std::uint64_t i = 0; i < dims; ++i)
            s += (i ? " x " : " ") + std::to_string(size[i]) + (omit[i] ? " (omitted)" : "");
        s += ", " + std::to_string(batches) + " batch(es), ";
        s += double_precision ? "double" : "single";
        if (r2c) s += ", R2C";
        return s;
    }
};

// An initialised VkFFTApplication. VkFFT keeps pointers to the device, context and size fields,
// so a plan never moves (held by shared_ptr). Its own temporary buffers (four-step reordering,
// Bluestein's sequences) are shared by every call: calls on another queue than the last one's
// wait for it (last_event).
struct plan {
    std::mutex mutex; // VkFFTAppend rewrites the application's buffers and kernel arguments
    bool ready = false;
    bool r2c_unsupported = false; // VkFFT refused this R2C length: the callers use C2C instead
    VkFFTApplication app{};
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    std::uint64_t buffer_bytes = 0;
    std::uint64_t input_bytes = 0;
    event last_event;
    handle<cl_command_queue> last_queue; // retained: it is flushed for a later call's wait

    plan() = default;
    plan(const plan&) = delete;
    plan& operator=(const plan&) = delete;
    // Releases VkFFT's kernels, programs and buffers; OpenCL defers their deletion until the
    // commands using them are done, so nothing waits.
    ~plan() {
        if (ready) deleteVkFFT(&app);
    }
};

// A context's plans, released with it (context teardown), never later than the OpenCL objects
// they refer to.
struct plan_cache final : context_extension {
    std::mutex mutex;
    std::map<plan_key, std::shared_ptr<plan>> plans;
    void release() noexcept override {
        std::map<plan_key, std::shared_ptr<plan>> gone;
        {
            std::lock_guard<std::mutex> lock(mutex);
            gone.swap(plans);
        }
    }
};

// The plan for key in q's context, initialised on first use (which compiles VkFFT's kernels:
// blocking, as every program build is). An R2C length VkFFT does not take (odd lengths past one
// pass) gives a plan marked r2c_unsupported, kept so that the refusal is not asked again.
std::shared_ptr<plan> plan_for(const queue& q, const plan_key& key, const char* name) {
    plan_cache& cache = q.context().state().extension<plan_cache>();
    std::shared_ptr<plan> p;
    {
        std::lock_guard<std::mutex> lock(cache.mutex);
        std::shared_ptr<plan>& slot = cache.plans[key];
        if (!slot) slot = std::make_shared<plan>();
        p = slot;
    }
    std::lock_guard<std::mutex> lock(p->mutex);
    if (p->ready || p->r2c_unsupported) return p;
    const std::uint64_t complex_bytes = key.double_precision ? 16 : 8;
    std::uint64_t elements = key.batches;
    for (std::uint64_t i = 0; i < key.dims; ++i)
        elements *= i == 0 && key.r2c ? key.size[0] / 2 + 1 : key.size[i];
    p->device = q.context().device().id();
    p->context = q.context().get();
    p->buffer_bytes = elements * complex_bytes;
    VkFFTConfiguration c{};
    c.FFTdim = key.dims;
    for (std::uint64_t i = 0; i < 3; ++i) {
        c.size[i] = key.size[i];
        c.omitDimension[i] = key.omit[i];
    }
    c.numberBatches = key.batches;
    c.device = &p->device;
    c.context = &p->context;
    c.bufferSize = &p->buffer_bytes;
    c.doublePrecision = key.double_precision ? 1 : 0;
    c.normalize = key.normalize ? 1 : 0;
    if (key.r2c) {
        // Out of place: real input (rows of n) <-> complex buffer (rows of n/2+1); the inverse
        // writes back to the real buffer.
        p->input_bytes = p->buffer_bytes / (key.size[0] / 2 + 1) * key.size[0] / 2;
        c.performR2C = 1;
        c.isInputFormatted = 1;
        c.inverseReturnToInputBuffer = 1;
        c.inputBufferSize = &p->input_bytes;
        c.inputBufferStride[0] = key.size[0];
        c.bufferStride[0] = key.size[0] / 2 + 1;
        c.specifyOffsetsAtLaunch = 1; // rfft may read the input's own rows, at their offset
    } else if (key.out_of_place) {
        // The input view's own buffer, same layout, read by the first pass only; its element
        // offset varies per call.
        p->input_bytes = p->buffer_bytes;
        c.isInputFormatted = 1;
        c.inputBufferSize = &p->input_bytes;
        c.specifyOffsetsAtLaunch = 1;
    }
    p->app = VkFFTApplication{}; // also after another thread's failed attempt
    const VkFFTResult r = initializeVkFFT(&p->app, c);
    if (r == VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C) {
        p->app = VkFFTApplication{}; // initializeVkFFT released what it made
        p->r2c_unsupported = true;
        return p;
    }
    if (r != VKFFT_SUCCESS) {
        // initializeVkFFT released what it made; the empty plan is dropped from the cache.
        std::lock_guard<std::mutex> cache_lock(cache.mutex);
        auto it = cache.plans.find(key);
        if (it != cache.plans.end() && it->second == p) cache.plans.erase(it);
        check_vkfft(r, "initializeVkFFT", name, key.describe());
    }
    p->ready = true;
    return p;
}

// Runs plan p on q over `buffer` (and `input`: the input of an out-of-place forward, the real
// buffer of an R2C plan, at input_offset bytes) in the operands' event order: a barrier for what
// their use records require, VkFFT's kernels, then a marker whose event is recorded on both
// (VkFFT's OpenCL launch takes no wait list and gives no event). Forwards only read their input;
// an inverse R2C plan writes its real buffer.
void run_plan(const queue& q, plan& p, bool inverse, allocation* buffer, allocation* input,
              const char* name, const plan_key& key, std::uint64_t input_offset = 0) {
    const access input_access = inverse ? access::write : access::read;
    buffer->check_not_mapped(access::read_write, name);
    if (input) input->check_not_mapped(input_access, name);
    wait_list deps;
    buffer->add_dependencies(q, access::read_write, deps);
    if (input) input->add_dependencies(q, input_access, deps);
    cl_mem buf = buffer->as_buffer();
    cl_mem in = input ? input->as_buffer() : nullptr;
    cl_command_queue raw = q.get();
    std::lock_guard<std::mutex> lock(p.mutex);
    if (p.last_queue.get() && p.last_queue.get() != raw) {
        deps.add(p.last_event);
        clFlush(p.last_queue.get()); // a cross-queue wait needs the other queue's commands sent
    }
    if (!deps.empty()) q.enqueue_barrier(deps);
    // VkFFT keeps the buffer pointers it is given and recomputes its buffer bindings only when
    // they differ from the last call's; forgetting them sends every call through that path,
    // whatever addresses the last call's locals had.
    p.app.configuration.buffer = nullptr;
    p.app.configuration.inputBuffer = nullptr;
    p.app.configuration.outputBuffer = nullptr;
    VkFFTLaunchParams lp{};
    lp.commandQueue = &raw;
    lp.buffer = &buf;
    if (input) lp.inputBuffer = &in;
    lp.inputBufferOffset = input_offset;
    const VkFFTResult r = VkFFTAppend(&p.app, inverse ? 1 : -1, &lp);
    p.app.configuration.buffer = nullptr; // no pointer to this frame survives the call
    p.app.configuration.inputBuffer = nullptr;
    p.app.configuration.outputBuffer = nullptr;
    check_vkfft(r, "VkFFTAppend", name, key.describe());
    const event done = q.enqueue_marker();
    buffer->record(q, access::read_write, done);
    if (input) input->record(q, input_access, done);
    p.last_event = done;
    if (p.last_queue.get() != raw) p.last_queue = handle<cl_command_queue>::retain(raw);
}

// ---- helpers on array_refs ----

// A C-contiguous temporary of `shape` and `type`, allocated like `like`.
struct temp_array {
    std::shared_ptr<allocation> alloc;
    shape_type shape;
    strides_type strides;
    storage_kind kind = storage_kind::buffer;
    dtype type = dtype::float32;
    array_ref ref(const queue& q) const {
        return {&q, alloc.get(), kind, type, &shape, &strides, 0};
    }
};

temp_array make_temp(const queue& q, storage_kind kind, dtype type, const shape_type& shape,
                     const allocation* like) {
    temp_array t{nullptr, shape, contiguous_strides(shape, layout::c), kind, type};
    if (std::size_t bytes = checked_bytes(shape, dtype_size(type)))
        t.alloc = make_temporary_like(q, kind, bytes, like);
    return t;
}

dtype real_type_of(dtype complex_type) {
    return complex_type == dtype::complex128 ? dtype::float64 : dtype::float32;
}

// work (C-contiguous, offset 0, shape W) = in, read through `perm` (work axis i is in's axis
// perm[i]), truncated or padded with zeros to W. A real `in` fills the real parts of a complex
// work array (its imaginary parts 0); a complex `in` read as `real_part` gives its real parts.
void load(const queue& q, const array_ref& work, const array_ref& in,
          const std::vector<std::size_t>& perm, bool real_part = false) {
    const shape_type& W = *work.shape;
    const std::size_t rank = W.size();
    shape_type counts;
    strides_type src_strides, dst_strides;
    bool padded = false;
    std::ptrdiff_t src_offset = in.offset;
    dtype src_type = in.type;
    for (std::size_t i = 0; i < rank; ++i) {
        const std::size_t c = std::min(W[i], (*in.shape)[perm[i]]);
        padded = padded || c < W[i];
        counts.push_back(c);
        src_strides.push_back((*in.strides)[perm[i]]);
        dst_strides.push_back((*work.strides)[i]);
    }
    const bool promote = is_complex(work.type) && !is_complex(in.type);
    if (promote)
        for (auto& s : dst_strides)
            s *= 2;
    if (real_part) {
        for (auto& s : src_strides)
            s *= 2;
        src_offset *= 2;
        src_type = real_type_of(in.type);
    }
    if (padded || promote) {
        const unsigned char zero[16] = {};
        strided_fill(work, zero);
    }
    if (checked_size(counts) == 0) return;
    const array_ref dst{&q, work.alloc, work.kind, src_type, &counts, &dst_strides, 0};
    const array_ref src{&q, in.alloc, in.kind, src_type, &counts, &src_strides, src_offset};
    strided_copy(dst, src);
}

// out = tmp read back through perm (tmp's axis i is out's axis perm[i]), its leading part where
// out is shorter; real_part: the real parts of a complex tmp.
void store(const queue& q, const array_ref& out, const temp_array& tmp,
           const std::vector<std::size_t>& perm, bool real_part = false) {
    strides_type s(out.shape->size(), 0);
    for (std::size_t i = 0; i < perm.size(); ++i)
        s[perm[i]] = tmp.strides[i] * (real_part ? 2 : 1);
    const dtype type = real_part ? real_type_of(tmp.type) : tmp.type;
    const array_ref src{&q, tmp.alloc.get(), tmp.kind, type, out.shape, &s, 0};
    strided_copy(out, src);
}

struct fft_program_tag {};
template <int Kernel> struct fft_kernel_tag {};

// Kernel `name` of kernels/fft.cl for the real type `real` (float or double).
template <int Kernel> kernel fft_kernel(const context& ctx, const char* name, dtype real) {
    const std::uint64_t sig = static_cast<std::uint64_t>(real);
    return cached_kernel(ctx, {&type_tag<fft_kernel_tag<Kernel>>::id, sig}, name, [&] {
        const char* ext = required_extension(real);
        if (ext) require_extension(ctx, ext, std::string("fft kernels of ") + dtype_name(real));
        return cached_program(ctx, {&type_tag<fft_program_tag>::id, sig}, [&] {
            std::string src =
                ext ? std::string("#pragma OPENCL EXTENSION ") + ext + " : enable\n" : "";
            src += kernel_source_fft;
            return program_source{std::move(src), std::string("-DT=") + cl_type_name(real)};
        });
    });
}

// Rows of n complex values (a contiguous temporary, offset 0) whose first m are set: the values
// past them become the conjugates of their mirrors, x[k] = conj x[n - k].
void hermitian_fill(const queue& q, const array_ref& a, std::size_t n, std::size_t m) {
    const std::size_t rows = checked_size(*a.shape) / n;
    const std::size_t first = std::max<std::size_t>(m, 1);
    if (rows == 0 || first >= n) return;
    const context& ctx = q.context();
    const kernel k = fft_kernel<1>(ctx, "fft_hermitian", real_type_of(a.type));
    const cl_ulong count = rows * (n - first), row_n = n, row_first = first;
    const std::size_t g = elementwise_group_size(ctx.device());
    const ndrange global{round_up(count, g)}, local{g};
    const launch_arg args[4] = {
        memory_arg(a.kind, a.alloc, access::read_write), launch_arg::value(&count, sizeof count),
        launch_arg::value(&row_n, sizeof row_n), launch_arg::value(&row_first, sizeof row_first)};
    launch(q, k, global, &local, args, 4, {}, "fft Hermitian completion");
}

// Every real number of the contiguous array a (offset 0) times s.
void scale(const queue& q, const array_ref& a, double s) {
    const dtype real = is_complex(a.type) ? real_type_of(a.type) : a.type;
    const context& ctx = q.context();
    const kernel k = fft_kernel<0>(ctx, "fft_scale", real);
    const cl_ulong n = checked_size(*a.shape) * (is_complex(a.type) ? 2 : 1);
    const float sf = static_cast<float>(s);
    const std::size_t g = elementwise_group_size(ctx.device());
    const ndrange global{round_up(n, g)}, local{g};
    const launch_arg args[3] = {memory_arg(a.kind, a.alloc, access::read_write),
                                launch_arg::value(&n, sizeof n),
                                real == dtype::float64 ? launch_arg::value(&s, sizeof s)
                                                       : launch_arg::value(&sf, sizeof sf)};
    launch(q, k, global, &local, args, 3, {}, "fft scaling");
}

// NumPy's irfft ignores the imaginary parts of the values without a mirror: X[0] and, for even
// n, X[n/2]. VkFFT's C2R does not ignore them (batches of 4 to 8 rows of arbitrary complex input
// gave wrong values in every row; a spectrum of real data, whose such parts are 0, came out
// right). They are set to 0 in t, the complex temporary (C-contiguous rows of n/2+1, offset 0)
// that the C2R reads.
void clear_unmirrored_imag(const queue& q, const temp_array& t, std::size_t n) {
    const std::size_t m = t.shape.back();
    if (!t.alloc || m == 0) return;
    const shape_type shape{checked_size(t.shape) / m, std::size_t(n % 2 == 0 ? 2 : 1)};
    // In real numbers: rows of 2m, X[n/2]'s imaginary part n after X[0]'s.
    const strides_type strides{static_cast<std::ptrdiff_t>(2 * m), static_cast<std::ptrdiff_t>(n)};
    const array_ref imag{&q, t.alloc.get(), t.kind, real_type_of(t.type), &shape, &strides, 1};
    const unsigned char zero[16] = {};
    strided_fill(imag, zero);
}

// The scale a norm asks of one direction over N points.
double norm_scale(unsigned char norm, bool inverse, double N) {
    if (norm == 1) return 1.0 / std::sqrt(N);
    if (norm == 2 && !inverse) return 1.0 / N;
    return 1.0; // backward: VkFFT normalises the inverse itself
}

// ---- complex transforms in place ----

// The VkFFT dimensions of a transform over `axes` (ascending) of a C-contiguous array of shape
// W: the transformed axes and the runs of other axes between them (omitted dimensions), fastest
// first; the axes before the first transformed one are the batch.
std::vector<std::pair<std::uint64_t, bool>>
vkfft_dims(const shape_type& W, const std::vector<std::size_t>& axes, std::uint64_t& batches) {
    std::vector<std::pair<std::uint64_t, bool>> dims;
    const std::size_t first = axes.front();
    std::uint64_t run = 1;
    for (std::size_t k = W.size(); k-- > first;) {
        if (std::find(axes.begin(), axes.end(), k) != axes.end()) {
            if (run > 1) dims.push_back({run, true});
            run = 1;
            dims.push_back({W[k], false});
        } else {
            run *= W[k];
        }
    }
    batches = 1;
    for (std::size_t k = 0; k < first; ++k)
        batches *= W[k];
    return dims;
}

// The plan of a C2C transform of work (C-contiguous) over axes, or false when it needs none
// (every axis of length 1) or more than one (more than three VkFFT dimensions).
bool c2c_key(const queue& q, const array_ref& work, std::vector<std::size_t> axes, bool inverse,
             bool normalize, plan_key& key) {
    const shape_type& W = *work.shape;
    axes.erase(std::remove_if(axes.begin(), axes.end(), [&](std::size_t a) { return W[a] == 1; }),
               axes.end()); // a transform of one point is the identity
    if (axes.empty()) return false;
    std::sort(axes.begin(), axes.end());
    std::uint64_t batches = 1;
    const auto dims = vkfft_dims(W, axes, batches);
    if (dims.size() > 3) return false;
    key.device = q.context().device().id();
    key.dims = dims.size();
    for (std::size_t i = 0; i < dims.size(); ++i) {
        key.size[i] = dims[i].first;
        key.omit[i] = dims[i].second ? 1 : 0;
    }
    key.batches = batches;
    key.double_precision = work.type == dtype::complex128;
    key.normalize = normalize && inverse;
    return true;
}

// out = the forward transform of in, read in place by VkFFT's first pass: for a C-contiguous
// complex input of out's shape and type whose transform is one VkFFT call. False when in does not
// qualify (then the caller copies it into out first).
bool c2c_forward_from(const queue& q, const array_ref& out, const array_ref& in,
                      const std::vector<std::size_t>& axes, const char* name) {
    if (in.type != out.type || !in.alloc || *in.shape != *out.shape ||
        !is_c_contiguous(*in.shape, *in.strides))
        return false;
    plan_key key;
    if (!c2c_key(q, out, axes, false, false, key)) return false;
    key.out_of_place = true;
    const std::shared_ptr<plan> p = plan_for(q, key, name);
    run_plan(q, *p, false, out.alloc, in.alloc, name, key,
             static_cast<std::uint64_t>(in.offset) * dtype_size(in.type));
    return true;
}

void c2c_in_place(const queue& q, const array_ref& work, std::vector<std::size_t> axes,
                  bool inverse, bool normalize, const char* name) {
    const shape_type& W = *work.shape;
    axes.erase(std::remove_if(axes.begin(), axes.end(), [&](std::size_t a) { return W[a] == 1; }),
               axes.end()); // a transform of one point is the identity
    if (axes.empty()) return;
    std::sort(axes.begin(), axes.end());
    std::uint64_t batches = 1;
    if (vkfft_dims(W, axes, batches).size() > 3) { // past VkFFT's three dimensions: axis by axis
        for (std::size_t a : axes)
            c2c_in_place(q, work, {a}, inverse, normalize, name);
        return;
    }
    plan_key key;
    c2c_key(q, work, axes, inverse, normalize, key);
    const std::shared_ptr<plan> p = plan_for(q, key, name);
    run_plan(q, *p, inverse, work.alloc, nullptr, name, key);
}

} // namespace

void check_vkfft(int result, const char* call, const char* name, const std::string& detail) {
    if (result == VKFFT_SUCCESS) return;
    const char* code = result_name(result);
    const std::string what = std::string(name) + ": VkFFT " + call + ": " +
                             (code ? code : "result " + std::to_string(result)) +
                             (detail.empty() ? "" : " (" + detail + ")");
    switch (result) {
    case VKFFT_ERROR_MALLOC_FAILED:
    case VKFFT_ERROR_FAILED_TO_ALLOCATE:
    case VKFFT_ERROR_FAILED_TO_ALLOCATE_MEMORY:
        throw out_of_memory(what);
    case VKFFT_ERROR_UNSUPPORTED_RADIX:
    case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH:
    case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C:
    case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_DCT:
    case VKFFT_ERROR_UNSUPPORTED_FFT_OMIT:
        throw unsupported(what);
    default:
        throw error(what);
    }
}

fft_request make_fft_request(fft_op op, const char* name, const array_ref& in,
                             const std::vector<std::ptrdiff_t>& sizes,
                             const std::vector<std::ptrdiff_t>& axes, bool all_axes,
                             std::string_view norm) {
    fft_request r;
    r.op = op;
    r.name = name;
    if (!in.q) throw usage_error(std::string(name) + ": unbound (default-constructed) array");
    if (norm == "backward")
        r.norm = 0;
    else if (norm == "ortho")
        r.norm = 1;
    else if (norm == "forward")
        r.norm = 2;
    else
        throw usage_error(std::string(name) + ": norm '" + std::string(norm) +
                          "' is not one of 'backward', 'ortho', 'forward'");
    const queue& q = *in.q;
    if (q.is_out_of_order())
        throw unsupported(std::string(name) +
                          ": VkFFT needs an in-order queue (it enqueues several kernels without "
                          "events between them)");
    const bool real_in = !is_complex(in.type);
    if (op == fft_op::r2c && !real_in)
        throw dtype_error(std::string(name) + ": the input must be real, not " +
                          dtype_name(in.type));
    if (op == fft_op::c2r && real_in)
        throw dtype_error(std::string(name) + ": the input must be complex, not " +
                          dtype_name(in.type));
    const bool wide = in.type == dtype::float64 || in.type == dtype::complex128;
    r.out_type = op == fft_op::c2r ? (wide ? dtype::float64 : dtype::float32)
                                   : (wide ? dtype::complex128 : dtype::complex64);
    if (wide && !q.context().device().has_fp64())
        throw unsupported(std::string(name) + ": " + dtype_name(in.type) +
                          " needs cl_khr_fp64, which device '" + q.context().device().name() +
                          "' lacks");

    const shape_type& shape = *in.shape;
    const std::size_t rank = shape.size();
    if (!axes.empty() && !sizes.empty() && axes.size() != sizes.size())
        throw usage_error(std::string(name) + ": " + std::to_string(sizes.size()) +
                          " lengths for " + std::to_string(axes.size()) + " axes");
    if (!axes.empty()) {
        for (std::ptrdiff_t a : axes)
            r.axes.push_back(normalize_axis(a, rank, name));
    } else if (all_axes) {
        for (std::size_t a = 0; a < rank; ++a)
            r.axes.push_back(a);
    } else {
        if (sizes.size() > rank)
            throw usage_error(std::string(name) + ": " + std::to_string(sizes.size()) +
                              " lengths for an array of rank " + std::to_string(rank));
        for (std::size_t a = rank - sizes.size(); a < rank; ++a)
            r.axes.push_back(a);
    }
    if (r.axes.empty())
        throw usage_error(std::string(name) + ": no axis to transform (a 0-d array)");
    for (std::size_t i = 0; i < r.axes.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (r.axes[i] == r.axes[j])
                throw usage_error(std::string(name) + ": axis " + std::to_string(r.axes[i]) +
                                  " given twice");
    r.out_shape = shape;
    for (std::size_t i = 0; i < r.axes.size(); ++i) {
        const std::size_t a = r.axes[i];
        const std::ptrdiff_t given = sizes.empty() ? -1 : sizes[i];
        std::size_t n;
        if (given == -1) {
            n = op == fft_op::c2r ? 2 * (shape[a] > 0 ? shape[a] - 1 : 0) : shape[a];
        } else if (given < 1) {
            throw usage_error(std::string(name) + ": invalid number of data points (" +
                              std::to_string(given) + ") along axis " + std::to_string(a));
        } else {
            n = static_cast<std::size_t>(given);
        }
        if (n < 1)
            throw usage_error(std::string(name) +
                              ": invalid number of data points (0) along axis " +
                              std::to_string(a) + " of shape " + shape_to_string(shape));
        r.lengths.push_back(n);
        r.out_shape[a] = op == fft_op::r2c ? n / 2 + 1 : n;
    }
    checked_size(r.out_shape);
    return r;
}

void fft_execute_in_place(const fft_request& r, const array_ref& work) {
    if (checked_size(*work.shape) == 0) return;
    double N = 1;
    for (std::size_t n : r.lengths)
        N *= static_cast<double>(n);
    const bool inverse = r.op == fft_op::inverse;
    c2c_in_place(*work.q, work, r.axes, inverse, r.norm == 0, r.name);
    const double s = norm_scale(r.norm, inverse, N);
    if (s != 1.0) scale(*work.q, work, s);
}

void fft_execute(const fft_request& r, const array_ref& out, const array_ref& in) {
    if (checked_size(*out.shape) == 0) return;
    const queue& q = *out.q;
    const std::size_t rank = out.shape->size();
    double N = 1;
    for (std::size_t n : r.lengths)
        N *= static_cast<double>(n);
    std::vector<std::size_t> identity(rank);
    for (std::size_t i = 0; i < rank; ++i)
        identity[i] = i;

    if (r.op == fft_op::forward || r.op == fft_op::inverse) {
        // A contiguous complex input of the result's shape is read by VkFFT's first forward pass.
        // Otherwise the transform runs in place in the result, into which the input is copied
        // first (padded, truncated, promoted from real), so any view of any layout works alike.
        // Inverses always copy: VkFFT's out-of-place inverse runs from its main buffer (which its
        // passes overwrite) to the input buffer, so the input would be written.
        const bool inverse = r.op == fft_op::inverse;
        if (inverse || !c2c_forward_from(q, out, in, r.axes, r.name)) {
            load(q, out, in, identity);
            c2c_in_place(q, out, r.axes, inverse, r.norm == 0, r.name);
        }
        const double s = norm_scale(r.norm, inverse, N);
        if (s != 1.0) scale(q, out, s);
        return;
    }

    // Real transforms: VkFFT's R2C runs along the fastest axis of contiguous rows, out of place
    // between a real and a complex buffer. The transformed axis is moved last (perm) in
    // contiguous temporaries; the result is written directly when it already is last.
    const std::size_t axis = r.axes.front(), n = r.lengths.front(), m = n / 2 + 1;
    const bool last = axis + 1 == rank;
    std::vector<std::size_t> perm;
    for (std::size_t i = 0; i < rank; ++i)
        if (i != axis) perm.push_back(i);
    perm.push_back(axis);
    shape_type moved;
    for (std::size_t i : perm)
        moved.push_back((*out.shape)[i]);
    std::uint64_t batches = 1;
    for (std::size_t i = 0; i + 1 < rank; ++i)
        batches *= moved[i];
    const bool wide = in.type == dtype::float64 || in.type == dtype::complex128;
    const dtype real_t = wide ? dtype::float64 : dtype::float32;
    const dtype complex_t = wide ? dtype::complex128 : dtype::complex64;
    const bool inverse = r.op == fft_op::c2r;
    plan_key key;
    key.device = q.context().device().id();
    key.dims = 1;
    key.size[0] = n;
    key.batches = batches;
    key.double_precision = wide;
    key.r2c = true;
    key.normalize = inverse && r.norm == 0;
    const std::shared_ptr<plan> p = n == 1 ? nullptr : plan_for(q, key, r.name);

    if (n == 1) { // one point: X[0] = x[0], x[0] = Re X[0]
        load(q, out, in, identity, inverse);
    } else if (p->r2c_unsupported) {
        // A length VkFFT's R2C does not take: the complex transform of n points along the last
        // axis of a contiguous temporary. rfft keeps its first n/2+1 values; irfft first
        // completes the Hermitian half (x[k] = conj x[n-k]) and keeps the real parts.
        moved.back() = n;
        const temp_array full = make_temp(q, in.kind, complex_t, moved, in.alloc);
        load(q, full.ref(q), in, perm);
        if (inverse) hermitian_fill(q, full.ref(q), n, m);
        c2c_in_place(q, full.ref(q), {rank - 1}, inverse, key.normalize, r.name);
        store(q, out, full, perm, inverse);
    } else if (!inverse) {
        // VkFFT reads C-contiguous rows of n where they are; other inputs (another axis, padded,
        // truncated, strided, at an odd offset) are copied into a contiguous temporary first.
        // The offset must be a whole number of complex values: VkFFT's multi-pass R2C reads the
        // real rows as complex pairs (an odd offset gave wrong values).
        const bool direct = last && in.alloc && (*in.shape)[axis] == n &&
                            is_c_contiguous(*in.shape, *in.strides) && in.offset % 2 == 0;
        temp_array real;
        if (!direct) {
            moved.back() = n;
            real = make_temp(q, in.kind, real_t, moved, in.alloc);
            load(q, real.ref(q), in, perm);
        }
        moved.back() = m;
        temp_array cplx;
        if (!last) cplx = make_temp(q, in.kind, complex_t, moved, in.alloc);
        run_plan(q, *p, false, last ? out.alloc : cplx.alloc.get(),
                 direct ? in.alloc : real.alloc.get(), r.name, key,
                 direct ? static_cast<std::uint64_t>(in.offset) * dtype_size(in.type) : 0);
        if (!last) store(q, out, cplx, perm);
    } else {
        // The input's first n/2+1 values along the axis (padded with zeros) in a complex
        // temporary, which VkFFT's inverse overwrites.
        moved.back() = m;
        const temp_array cplx = make_temp(q, in.kind, complex_t, moved, in.alloc);
        load(q, cplx.ref(q), in, perm);
        clear_unmirrored_imag(q, cplx, n);
        moved.back() = n;
        temp_array real;
        if (!last) real = make_temp(q, in.kind, real_t, moved, in.alloc);
        run_plan(q, *p, true, cplx.alloc.get(), last ? out.alloc : real.alloc.get(), r.name, key);
        if (!last) store(q, out, real, perm);
    }
    const double s = norm_scale(r.norm, inverse, N);
    if (s != 1.0) scale(q, out, s);
}

} // namespace clarray::detail

namespace clarray::fft {

std::size_t cached_plan_count(const context& ctx) {
    auto* cache = ctx.state().find_extension<clarray::detail::plan_cache>();
    if (!cache) return 0;
    std::lock_guard<std::mutex> lock(cache->mutex);
    return cache->plans.size();
}

} // namespace clarray::fft
