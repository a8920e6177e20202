#include "clarray/codegen/reduce_source.hpp"

#include <vector>

namespace clarray::detail {

namespace {

std::string str(std::size_t v) {
    return std::to_string(v);
}

// Array operands of the map, by source index (a{j}); inputs start at 1 (a0 is the output).
std::vector<std::size_t> input_arrays(const source_builder& b) {
    std::vector<std::size_t> js;
    for (const auto& p : b.params())
        if (p.is_array) js.push_back(p.index);
    return js;
}

// The pragmas of every kernel: the extensions the types need (`extensions` and the
// accumulator's), FP_CONTRACT OFF so that the mapped values round as NumPy's (no fma of
// d * d + acc).
std::string kernel_prelude(const reduce_text& op, extension_set extensions) {
    extensions.add(op.acc_extension);
    return extensions.pragmas() + "#pragma OPENCL FP_CONTRACT OFF\n";
}
extension_set with_output(extension_set extensions, dtype out_type) {
    extensions.add(out_type);
    return extensions;
}

// The operation's helper functions: clarray_from / clarray_combine / clarray_finish.
std::string op_functions(const reduce_text& op, const std::string& value_type,
                         const std::string& out_type) {
    std::string s = op.prelude;
    s += "inline " + op.acc + " clarray_from(" + value_type + " v, ulong i) {\n    " + op.from +
         "\n}\n";
    s += "inline " + op.acc + " clarray_combine(" + op.acc + " x, " + op.acc + " y) {\n    " +
         op.combine + "\n}\n";
    s += "inline " + out_type + " clarray_finish(" + op.acc + " x, long n) {\n    " + op.finish +
         "\n}\n";
    return s;
}

// Base offsets b{j} of the operands at kept flat index `m` over the first kr kept axes (layout
// row = j - first).
std::string kept_offsets(const reduce_layout_schema& lay, const std::vector<std::size_t>& js,
                         std::size_t first, std::size_t kr, const std::string& m) {
    std::string s;
    for (std::size_t j : js)
        s += "    long b" + str(j) + " = " + lay.offset_ref(j - first) + ";\n";
    if (kr == 1) {
        for (std::size_t j : js)
            s += "    b" + str(j) + " += (long)(" + m + ") * " +
                 lay.kept_stride_ref(j - first, "0") + ";\n";
        return s;
    }
    s += "    {\n        ulong rem = " + m + ";\n";
    s += "        for (int k = " + str(kr - 1) + "; k >= 0; --k) {\n";
    s += "            ulong c = rem % " + lay.kept_shape_ref("k") +
         ";\n            rem /= " + lay.kept_shape_ref("k") + ";\n";
    for (std::size_t j : js)
        s += "            b" + str(j) + " += (long)c * " + lay.kept_stride_ref(j - first, "k") +
             ";\n";
    s += "        }\n    }\n";
    return s;
}

// Declares r{j}: operand j's offset of reduced flat index `idx`.
std::string reduced_offsets(const reduce_layout_schema& lay, const std::vector<std::size_t>& js,
                            std::size_t first, std::size_t rr, bool contiguous,
                            const std::string& idx, const std::string& indent) {
    std::string s;
    if (contiguous) {
        for (std::size_t j : js)
            s += indent + "long r" + str(j) + " = (long)(" + idx + ");\n";
        return s;
    }
    if (rr == 1) {
        for (std::size_t j : js)
            s += indent + "long r" + str(j) + " = (long)(" + idx + ") * " +
                 lay.reduced_stride_ref(j - first, "0") + ";\n";
        return s;
    }
    for (std::size_t j : js)
        s += indent + "long r" + str(j) + " = 0;\n";
    s += indent + "{\n" + indent + "    ulong rem = " + idx + ";\n";
    s += indent + "    for (int k = " + str(rr - 1) + "; k >= 0; --k) {\n";
    s += indent + "        ulong c = rem % " + lay.reduced_shape_ref("k") + ";\n" + indent +
         "        rem /= " + lay.reduced_shape_ref("k") + ";\n";
    for (std::size_t j : js)
        s += indent + "        r" + str(j) + " += (long)c * " +
             lay.reduced_stride_ref(j - first, "k") + ";\n";
    s += indent + "    }\n" + indent + "}\n";
    return s;
}

// One Kahan step: acc += y, with the rounding error carried in cmp. Once the running sum is
// inf or NaN the compensation would turn inf into NaN (inf - inf), so it is dropped there:
// NumPy's sum of {inf, inf, 1} is inf.
std::string kahan_add(const reduce_text& op, const std::string& acc, const std::string& cmp,
                      const std::string& y, const std::string& indent) {
    std::string s = indent + "{\n";
    s += indent + "    const " + op.acc + " y = " + y + " - " + cmp + ";\n";
    s += indent + "    const " + op.acc + " t = " + acc + " + y;\n";
    s += indent + "    " + cmp + " = isfinite(t) ? (t - " + acc + ") - y : (" + op.acc + ")0;\n";
    s += indent + "    " + acc + " = t;\n" + indent + "}\n";
    return s;
}

// The map at kept offsets b{j} plus reduced offsets r{j}, plus `shift` steps along the innermost
// kept axis (stride ks{j}) when `shift` is not empty.
std::string map_call(const std::vector<std::size_t>& js, const std::string& args,
                     const std::string& shift) {
    std::string call = "clarray_map(" + args;
    for (std::size_t j : js) {
        call += ", b" + str(j) + " + r" + str(j);
        if (!shift.empty()) call += " + (long)(" + shift + ") * ks" + str(j);
    }
    return call + ")";
}

// Folds the mapped value of element `idx` into lane k. `shift`: extra offset term per operand
// (outputs shape: the lane's output along the innermost kept axis).
std::string lane_step(const std::vector<std::size_t>& js, const std::string& args,
                      const reduce_text& op, std::size_t k, const std::string& idx,
                      const std::string& shift, const std::string& indent, bool blocked = false) {
    const std::string call = map_call(js, args, shift);
    const std::string a = "acc" + str(k), c = "cmp" + str(k);
    std::string s =
        indent + op.acc + " y" + str(k) + " = clarray_from(" + call + ", " + idx + ");\n";
    if (op.compensated && blocked) {
        s += indent + "blk" + str(k) + " += y" + str(k) + ";\n";
    } else if (op.compensated) {
        s += kahan_add(op, a, c, "y" + str(k), indent);
    } else {
        s += indent + a + " = clarray_combine(" + a + ", y" + str(k) + ");\n";
    }
    return s;
}

std::string lane_init(const reduce_text& op, std::size_t lanes, const std::string& indent) {
    std::string s;
    for (std::size_t k = 0; k < lanes; ++k) {
        s += indent + op.acc + " acc" + str(k) + " = neutral;\n";
        if (op.compensated)
            s += indent + op.acc + " cmp" + str(k) + " = 0, blk" + str(k) + " = 0;\n";
    }
    return s;
}

// Blocked compensation: lanes add plainly into blk{k} for at most `block_len` elements, then the
// block sum enters the Kahan pair. One compensated step per block keeps the loop vectorisable;
// the error bound grows by block_len - 1 ulps (docs/reductions.md).
constexpr std::size_t block_len = 8;
std::string lane_flush(const reduce_text& op, std::size_t lanes, const std::string& indent) {
    if (!op.compensated) return "";
    std::string s;
    for (std::size_t k = 0; k < lanes; ++k) {
        const std::string a = "acc" + str(k), c = "cmp" + str(k), b = "blk" + str(k);
        s += kahan_add(op, a, c, b, indent);
        s += indent + b + " = 0;\n";
    }
    return s;
}

// Applies the compensations and folds lanes pairwise into acc0.
std::string lane_fold(const reduce_text& op, std::size_t lanes, const std::string& indent) {
    std::string s;
    if (op.compensated)
        for (std::size_t k = 0; k < lanes; ++k)
            s += indent + "acc" + str(k) + " -= cmp" + str(k) + ";\n";
    for (std::size_t half = lanes / 2; half >= 1; half /= 2)
        for (std::size_t k = 0; k < half; ++k)
            s += indent + "acc" + str(k) + " = clarray_combine(acc" + str(k) + ", acc" +
                 str(k + half) + ");\n";
    return s;
}

// Walks `l` (declared by the caller) up to `end` in steps of `stride` ("1" or a variable): while
// `lanes` steps fit, one step into each lane (that many loads in flight), then single steps into
// lane 0; then folds the lanes into acc0. `shift` as for lane_step.
std::string lane_walk(const reduce_layout_schema& lay, const std::vector<std::size_t>& js,
                      const std::string& args, const reduce_text& op, std::size_t red_rank,
                      bool red_contiguous, std::size_t lanes, const std::string& stride,
                      const std::string& shift, const std::string& indent) {
    const auto times = [&](std::size_t k) {
        return stride == "1" ? str(k) : str(k) + " * " + stride;
    };
    const auto step = [&](std::size_t k, const std::string& idx, const std::string& in) {
        return reduced_offsets(lay, js, 1, red_rank, red_contiguous, idx, in) +
               lane_step(js, args, op, k, idx, shift, in);
    };
    std::string s = lane_init(op, lanes, indent);
    if (lanes > 1) {
        s += indent + "for (; l + " + times(lanes - 1) + " < end; l += " + times(lanes) + ") {\n";
        for (std::size_t k = 0; k < lanes; ++k) {
            s += indent + "    {\n";
            s += step(k, k ? "l + " + times(k) : "l", indent + "        ");
            s += indent + "    }\n";
        }
        s += indent + "}\n";
    }
    s += indent + "for (; l < end; " + (stride == "1" ? "++l" : "l += " + stride) + ") {\n";
    s += step(0, "l", indent + "    ");
    s += indent + "}\n";
    return s + lane_fold(op, lanes, indent);
}

// Local-memory tree over the work-group (power-of-two size); acc0 of item 0 holds the result.
std::string group_tree(const std::string& indent) {
    return indent + "{\n" + indent + "    const uint t = get_local_id(0);\n" + indent +
           "    scratch[t] = acc0;\n" + indent + "    barrier(CLK_LOCAL_MEM_FENCE);\n" + indent +
           "    for (uint h = get_local_size(0) / 2; h > 0; h >>= 1) {\n" + indent +
           "        if (t < h) scratch[t] = clarray_combine(scratch[t], scratch[t + h]);\n" +
           indent + "        barrier(CLK_LOCAL_MEM_FENCE);\n" + indent + "    }\n" + indent +
           "    acc0 = scratch[0];\n" + indent + "}\n";
}

// Folds the P partials of output `m` (`part(i)` reads partial i) into acc0: a strided loop per
// item then a group tree when `cooperative`, else one item's loop. Compensated like stage 1.
std::string combine_parts(const reduce_text& op, bool cooperative, const std::string& part,
                          const std::string& P, const std::string& indent) {
    std::string s = lane_init(op, 1, indent);
    s += indent +
         (cooperative ? "for (ulong i = get_local_id(0); i < " + P + "; i += get_local_size(0)) {\n"
                      : "for (ulong i = 0; i < " + P + "; ++i) {\n");
    s += indent + "    " + op.acc + " y0 = " + part + ";\n";
    if (op.compensated)
        s += kahan_add(op, "acc0", "cmp0", "y0", indent + "    ");
    else
        s += indent + "    acc0 = clarray_combine(acc0, y0);\n";
    s += indent + "}\n";
    s += lane_fold(op, 1, indent);
    if (cooperative) s += group_tree(indent);
    return s;
}

// one_pass: reads of other units' partials bypass any non-coherent cache (volatile). Struct
// accumulators (argmin/argmax, defined by the prelude) load plainly: a volatile struct copy is
// not portable OpenCL C, and the counter's fence orders the stores before the count.
std::string load_part_function(const reduce_text& op) {
    const std::string load =
        op.prelude.empty() ? "*(const volatile global " + op.acc + "*)p" : "*p";
    return "inline " + op.acc + " clarray_load_part(const global " + op.acc +
           "* p) {\n    return " + load + ";\n}\n";
}

// The statement storing finished `value` as element `index` of output `ptr` (float16: rounded
// to nearest even by vstore_half_rte).
std::string store_finished(dtype out, const std::string& ptr, const std::string& index,
                           const std::string& value) {
    return cl_store(out, ptr, index, std::string("(") + cl_value_type_name(out) + ")" + value) +
           ";\n";
}

// one_pass, one item per unit: store the partial of output `m`, count it, and if it was the
// last of the P, combine them into the finished output. `fence` (device::quirks_t::device_fence)
// publishes the partial before the count, and orders the last unit's reads after it.
std::string finish_last_item(const reduce_text& op, dtype out_type, const std::string& fence,
                             const std::string& m, const std::string& p, const std::string& acc,
                             const std::string& indent) {
    std::string s = indent + "{\n";
    const std::string in = indent + "    ";
    s += in + "const ulong mo = " + m + ";\n";
    s += in + "parts[mo * L.P + " + p + "] = " + acc + ";\n";
    s += in + fence + ";\n";
    s += in + "if (atomic_inc(counters + mo) == (int)(L.P - 1)) {\n";
    s += in + "    " + fence + ";\n";
    s += in + "    " + op.acc + " fin;\n";
    s += in + "    {\n";
    s +=
        combine_parts(op, false, "clarray_load_part(parts + mo * L.P + i)", "L.P", in + "        ");
    s += in + "        fin = acc0;\n";
    s += in + "    }\n";
    s += in + "    " + store_finished(out_type, "r", "mo", "clarray_finish(fin, L.n)");
    s += in + "    counters[mo] = 0;\n";
    s += in + "}\n";
    return s + indent + "}\n";
}

std::string write_result(const reduce_kernel_spec& spec, const reduce_text& op, dtype out_type,
                         const std::string& m, const std::string& p, const std::string& acc,
                         const std::string& indent) {
    if (spec.one_pass) return finish_last_item(op, out_type, spec.device_fence, m, p, acc, indent);
    if (spec.finish_here)
        return indent + store_finished(out_type, "r", m, "clarray_finish(" + acc + ", L.n)");
    return indent + "r[(" + m + ") * L.P + " + p + "] = " + acc + ";\n";
}

// one_pass, a work-group per unit: item 0 stores the group's partial and counts it; the group
// that counted last combines the P partials together.
std::string finish_last_group(const reduce_text& op, dtype out_type, const std::string& fence) {
    std::string s = "    local int last_group;\n";
    s += "    if (get_local_id(0) == 0) {\n";
    s += "        parts[m * L.P + p] = acc0;\n";
    s += "        " + fence + ";\n";
    s += "        last_group = atomic_inc(counters + m) == (int)(L.P - 1);\n";
    s += "    }\n";
    // Also ends every item's read of scratch[0] before the second tree writes it.
    s += "    barrier(CLK_LOCAL_MEM_FENCE);\n";
    s += "    if (!last_group) return;\n";
    s += "    " + fence + ";\n";
    s += "    {\n";
    s += combine_parts(op, true, "clarray_load_part(parts + m * L.P + i)", "L.P", "        ");
    s += "        if (get_local_id(0) == 0) {\n";
    s += "            " + store_finished(out_type, "r", "m", "clarray_finish(acc0, L.n)");
    s += "            counters[m] = 0;\n";
    s += "        }\n";
    s += "    }\n";
    return s;
}

} // namespace

std::string reduce_stage1_source(const source_builder& b, const std::string& map_text,
                                 dtype value_type, dtype out_type, const reduce_text& op,
                                 const reduce_kernel_spec& spec) {
    const std::vector<std::size_t> js = input_arrays(b);
    const std::string vt = cl_value_type_name(value_type), ot = cl_value_type_name(out_type);
    const std::size_t kr = spec.kept_rank, rr = spec.red_rank, U = spec.lanes;
    std::string s = kernel_prelude(op, with_output(b.required_extensions(), out_type));
    s += b.helpers_text();
    s += "inline " + vt + " clarray_map(" + b.input_parameters();
    for (std::size_t j : js)
        s += ", long o" + str(j);
    s += ") {\n    return " + map_text + ";\n}\n";
    s += op_functions(op, vt, ot);
    const reduce_layout_schema lay(js.size(), kr, rr);
    s += lay.layout().declaration() + "\n";
    if (spec.one_pass) s += load_part_function(op);
    const std::string result_type =
        spec.finish_here || spec.one_pass ? std::string(cl_type_name(out_type)) : op.acc;
    s += "kernel void clarray_reduce(global " + result_type +
         (spec.shape == reduce_shape::rows ? "* restrict r, " : "* r, ") + b.input_parameters() +
         ", " + op.acc + " neutral, " + lay.layout().parameter(spec.layout_in_buffer);
    if (spec.cooperative) s += ", local " + op.acc + "* scratch";
    if (spec.one_pass) s += ", global " + op.acc + "* parts, global int* counters";
    s += ") {\n" + word_struct::open(spec.layout_in_buffer);
    const std::string args = b.input_arguments();

    if (spec.short_axis) {
        // Short reduced axis: item (i, o) makes output o * kin + i, walking the axis plainly in
        // registers, so neighbouring items (along the innermost kept axis) vectorise together.
        s += "    const ulong i = get_global_id(0), o = get_global_id(1);\n";
        s += "    if (i >= L.kin || o >= L.M / L.kin) return;\n";
        s += kept_offsets(lay, js, 1, kr > 1 ? kr - 1 : 1, kr > 1 ? "o" : "0");
        for (std::size_t j : js)
            s += "    b" + str(j) + " += (long)i * " + lay.kept_stride_ref(j - 1, str(kr - 1)) +
                 ";\n";
        s += "    " + op.acc + " acc0 = neutral;\n";
        s += "    for (ulong t = 0; t < L.len; ++t) {\n";
        s += reduced_offsets(lay, js, 1, rr, spec.red_contiguous, "t", "        ");
        s += "        acc0 = clarray_combine(acc0, clarray_from(" + map_call(js, args, "") +
             ", t));\n";
        s += "    }\n";
        s += "    " + store_finished(out_type, "r", "o * L.kin + i", "clarray_finish(acc0, L.n)");
    } else if (spec.shape == reduce_shape::chunks) {
        if (spec.cooperative)
            s += "    const ulong unit = get_group_id(0);\n";
        else
            s += "    const ulong unit = get_global_id(0);\n    if (unit >= L.M * L.P) return;\n";
        s += "    const ulong m = unit / L.P, p = unit % L.P;\n";
        s += kept_offsets(lay, js, 1, kr, "m");
        s += "    const ulong begin = p * L.chunk;\n"
             "    const ulong end = min(begin + L.chunk, L.len);\n";
        if (spec.cooperative) {
            // U lanes: each item keeps U loads in flight per step (group-strided, so every
            // load instruction of the group stays coalesced), then folds its lanes.
            s += "    const ulong ls = get_local_size(0);\n";
            s += "    ulong l = begin + get_local_id(0);\n";
            s += lane_walk(lay, js, args, op, rr, spec.red_contiguous, U, "ls", "", "    ");
            s += group_tree("    ");
            if (spec.one_pass) {
                s += finish_last_group(op, out_type, spec.device_fence);
            } else {
                s += "    if (get_local_id(0) == 0) {\n";
                s += write_result(spec, op, out_type, "m", "p", "acc0", "        ");
                s += "    }\n";
            }
        } else {
            s += lane_init(op, U, "    ");
            s += "    ulong l = begin;\n";
            s += "    while (l + " + str(U) + " <= end) {\n";
            s += "        const ulong stop = l + min((ulong)" + str(block_len) + ", (end - l) / " +
                 str(U) + ") * " + str(U) + ";\n";
            s += "        for (; l < stop; l += " + str(U) + ") {\n";
            for (std::size_t k = 0; k < U; ++k) {
                const std::string idx = U > 1 ? "l + " + str(k) : "l";
                s += "            {\n";
                s += reduced_offsets(lay, js, 1, rr, spec.red_contiguous, idx, "                ");
                s += lane_step(js, args, op, k, idx, "", "                ", true);
                s += "            }\n";
            }
            s += "        }\n";
            s += lane_flush(op, U, "        ");
            s += "    }\n";
            if (U > 1) {
                s += "    for (; l < end; ++l) {\n";
                s += reduced_offsets(lay, js, 1, rr, spec.red_contiguous, "l", "        ");
                s += lane_step(js, args, op, 0, "l", "", "        ", true);
                s += "    }\n";
                s += lane_flush(op, 1, "    ");
            }
            s += lane_fold(op, U, "    ");
            s += write_result(spec, op, out_type, "m", "p", "acc0", "    ");
        }
    } else if (spec.shape == reduce_shape::rows) {
        // rows (CPUs, contiguous kept axis): item g streams the rows of part p through a strip
        // of up to rows_strip neighbouring outputs, accumulating in rows of the partials buffer
        // (cache-resident) so the inner loop over the strip vectorises. Partials [M, P] come
        // first in r; accumulator rows [P][M] (and compensation rows) follow.
        const std::string W = str(rows_strip);
        s += "    const ulong g = get_global_id(0);\n";
        s += "    const ulong per_part = (L.M / L.kin) * L.nblk;\n";
        s += "    if (g >= per_part * L.P) return;\n";
        s += "    const ulong p = g / per_part, rest = g % per_part;\n";
        s += "    const ulong i0 = (rest % L.nblk) * " + W + ";\n";
        s += "    const ulong m0 = (rest / L.nblk) * L.kin + i0;\n";
        s += "    const ulong cols = min((ulong)" + W + ", L.kin - i0);\n";
        s += kept_offsets(lay, js, 1, kr, "m0");
        for (std::size_t j : js)
            s += "    const long ks" + str(j) + " = " +
                 (spec.kept_contiguous ? std::string("1")
                                       : lay.kept_stride_ref(j - 1, str(kr - 1))) +
                 ";\n";
        s += "    global " + op.acc + "* restrict A = r + L.M * L.P + p * L.M + m0;\n";
        if (op.compensated)
            s += "    global " + op.acc + "* restrict C = r + 2 * L.M * L.P + p * L.M + m0;\n";
        s += "    for (ulong c = 0; c < cols; ++c) {\n        A[c] = neutral;\n";
        if (op.compensated) s += "        C[c] = 0;\n";
        s += "    }\n";
        s += "    const ulong begin = p * L.chunk;\n"
             "    const ulong end = min(begin + L.chunk, L.len);\n";
        s += "    for (ulong l = begin; l < end; ++l) {\n";
        s += reduced_offsets(lay, js, 1, rr, spec.red_contiguous, "l", "        ");
        s += "        for (ulong c = 0; c < cols; ++c) {\n";
        s += "            const " + op.acc + " v = clarray_from(" + map_call(js, args, "c") +
             ", l);\n";
        if (op.compensated)
            s += kahan_add(op, "A[c]", "C[c]", "v", "            ");
        else
            s += "            A[c] = clarray_combine(A[c], v);\n";
        s += "        }\n    }\n";
        s += "    for (ulong c = 0; c < cols; ++c)\n";
        s += "        r[(m0 + c) * L.P + p] = A[c]" + std::string(op.compensated ? " - C[c]" : "") +
             ";\n";
    } else {
        // outputs: item g covers outputs m0 .. m0+U-1 along the innermost kept axis, part p.
        s += "    const ulong g = get_global_id(0);\n";
        s += "    const ulong per_part = (L.M / L.kin) * L.nblk;\n";
        s += "    if (g >= per_part * L.P) return;\n";
        s += "    const ulong p = g / per_part, rest = g % per_part;\n";
        s += "    const ulong i0 = (rest % L.nblk) * " + str(U) + ";\n";
        s += "    const ulong m0 = (rest / L.nblk) * L.kin + i0;\n";
        s += kept_offsets(lay, js, 1, kr, "m0");
        for (std::size_t j : js)
            s += "    const long ks" + str(j) + " = " + lay.kept_stride_ref(j - 1, str(kr - 1)) +
                 ";\n";
        s += "    const ulong begin = p * L.chunk;\n"
             "    const ulong end = min(begin + L.chunk, L.len);\n";
        if (U > 1) {
            s += "    const ulong valid = min((ulong)" + str(U) + ", L.kin - i0);\n";
            s += "    if (valid == " + str(U) + ") {\n";
            s += lane_init(op, U, "        ");
            s += "        for (ulong l = begin; l < end;) {\n";
            s += "            const ulong stop = min(l + " + str(block_len) + ", end);\n";
            s += "            for (; l < stop; ++l) {\n";
            s += reduced_offsets(lay, js, 1, rr, spec.red_contiguous, "l", "                ");
            for (std::size_t k = 0; k < U; ++k)
                s += lane_step(js, args, op, k, "l", str(k), "                ", true);
            s += "            }\n";
            s += lane_flush(op, U, "            ");
            s += "        }\n";
            if (op.compensated)
                for (std::size_t k = 0; k < U; ++k)
                    s += "        acc" + str(k) + " -= cmp" + str(k) + ";\n";
            for (std::size_t k = 0; k < U; ++k)
                s += write_result(spec, op, out_type, "m0 + " + str(k), "p", "acc" + str(k),
                                  "        ");
            s += "        return;\n    }\n";
            s += "    for (ulong q = 0; q < valid; ++q) {\n";
        } else {
            s += "    {\n        const ulong q = 0;\n";
        }
        // One output per item: spec.steps reduced steps in flight (GPUs), else one.
        s += "        ulong l = begin;\n";
        s +=
            lane_walk(lay, js, args, op, rr, spec.red_contiguous, spec.steps, "1", "q", "        ");
        s += write_result(spec, op, out_type, "m0 + q", "p", "acc0", "        ");
        s += "    }\n";
    }
    s += "}\n" + word_struct::close(spec.layout_in_buffer);
    return s;
}

std::string reduce_stage2_source(const reduce_text& op, dtype out_type, bool cooperative) {
    const std::string ot = cl_value_type_name(out_type);
    std::string s = kernel_prelude(op, with_output({}, out_type));
    // clarray_from is not used here; declare it over the accumulator type to keep one text.
    s += op.prelude;
    s += "inline " + op.acc + " clarray_combine(" + op.acc + " x, " + op.acc + " y) {\n    " +
         op.combine + "\n}\n";
    s += "inline " + ot + " clarray_finish(" + op.acc + " x, long n) {\n    " + op.finish + "\n}\n";
    s += "kernel void clarray_reduce_final(global const " + op.acc + "* parts, global " +
         cl_type_name(out_type) + "* r, ulong M, ulong P, long n, " + op.acc + " neutral";
    if (cooperative) s += ", local " + op.acc + "* scratch";
    s += ") {\n";
    if (cooperative)
        s += "    const ulong m = get_group_id(0);\n";
    else
        s += "    const ulong m = get_global_id(0);\n    if (m >= M) return;\n";
    s += combine_parts(op, cooperative, "parts[m * P + i]", "P", "    ");
    if (cooperative) {
        s += "    if (get_local_id(0) == 0) " +
             store_finished(out_type, "r", "m", "clarray_finish(acc0, n)");
    } else {
        s += "    " + store_finished(out_type, "r", "m", "clarray_finish(acc0, n)");
    }
    s += "}\n";
    return s;
}

std::string scan_source(const source_builder& b, const std::string& map_text, dtype value_type,
                        dtype out_type, const reduce_text& op, std::size_t kept_rank,
                        std::size_t red_rank, bool exclusive, bool layout_in_buffer) {
    std::vector<std::size_t> js = input_arrays(b);
    const std::string vt = cl_value_type_name(value_type), ot = cl_value_type_name(out_type);
    std::string s = kernel_prelude(op, with_output(b.required_extensions(), out_type));
    s += b.helpers_text();
    s += "inline " + vt + " clarray_map(" + b.input_parameters();
    for (std::size_t j : js)
        s += ", long o" + str(j);
    s += ") {\n    return " + map_text + ";\n}\n";
    s += op_functions(op, vt, ot);
    std::vector<std::size_t> all = js;
    all.insert(all.begin(), 0); // the output is operand 0 of the layout
    const reduce_layout_schema lay(all.size(), kept_rank, red_rank);
    s += lay.layout().declaration() + "\n";
    s += "kernel void clarray_scan(global " + std::string(cl_type_name(out_type)) + "* a0, " +
         b.input_parameters() + ", global const " + op.acc + "* carry, " + op.acc + " neutral, " +
         lay.layout().parameter(layout_in_buffer) + ") {\n" + word_struct::open(layout_in_buffer);
    s += "    const ulong unit = get_global_id(0);\n    if (unit >= L.M * L.P) return;\n";
    s += "    const ulong m = unit / L.P, p = unit % L.P;\n";
    s += kept_offsets(lay, all, 0, kept_rank, "m");
    s += "    const ulong begin = p * L.chunk;\n"
         "    const ulong end = min(begin + L.chunk, L.len);\n";
    s += "    " + op.acc + " acc = L.P > 1 ? carry[unit] : neutral;\n";
    s += "    for (ulong l = begin; l < end; ++l) {\n";
    s += reduced_offsets(lay, all, 0, red_rank, false, "l", "        ");
    s += "        " + op.acc + " y = clarray_from(" + map_call(js, b.input_arguments(), "") +
         ", l);\n";
    const std::string store =
        "        " + store_finished(out_type, "a0", "b0 + r0", "clarray_finish(acc, 0)");
    if (exclusive) s += store;
    s += "        acc = clarray_combine(acc, y);\n";
    if (!exclusive) s += store;
    s += "    }\n}\n" + word_struct::close(layout_in_buffer);
    return s;
}

std::string scan_parts_source(const reduce_text& op) {
    std::string s = kernel_prelude(op, {});
    s += op.prelude;
    s += "inline " + op.acc + " clarray_combine(" + op.acc + " x, " + op.acc + " y) {\n    " +
         op.combine + "\n}\n";
    s += "kernel void clarray_scan_parts(global " + op.acc + "* parts, ulong M, ulong P, " +
         op.acc + " neutral) {\n";
    s += "    const ulong m = get_global_id(0);\n    if (m >= M) return;\n";
    s += "    " + op.acc + " acc = neutral;\n";
    s += "    for (ulong p = 0; p < P; ++p) {\n";
    s += "        " + op.acc + " y = parts[m * P + p];\n";
    s += "        parts[m * P + p] = acc;\n";
    s += "        acc = clarray_combine(acc, y);\n    }\n}\n";
    return s;
}

} // namespace clarray::detail
