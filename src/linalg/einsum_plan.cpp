#include "clarray/linalg/einsum_plan.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <string>

#include "clarray/error.hpp"

namespace clarray {
namespace detail {
namespace {

bool is_letter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// A term as written: its letters and where "..." stands among them (npos: nowhere).
struct written_term {
    std::string letters;
    std::size_t ellipsis_at = std::string::npos;
    bool has_ellipsis() const { return ellipsis_at != std::string::npos; }
};

struct written_subscripts {
    std::vector<written_term> inputs;
    bool explicit_output = false;
    written_term output;
};

[[noreturn]] void malformed(const std::string& subscripts, std::size_t position,
                            const std::string& why) {
    throw usage_error("einsum: malformed subscripts \"" + subscripts + "\" at position " +
                      std::to_string(position) + ": " + why);
}

// The term in subscripts[begin, end). Spaces are ignored, as NumPy does.
written_term parse_term(const std::string& s, std::size_t begin, std::size_t end, bool output) {
    written_term term;
    for (std::size_t i = begin; i < end; ++i) {
        const char c = s[i];
        if (c == ' ') continue;
        if (is_letter(c)) {
            term.letters += c;
        } else if (c == '.') {
            if (i + 2 >= end || s[i + 1] != '.' || s[i + 2] != '.')
                malformed(s, i, "'.' outside an ellipsis \"...\"");
            if (term.has_ellipsis()) malformed(s, i, "a second ellipsis in one term");
            term.ellipsis_at = term.letters.size();
            i += 2;
        } else if (c == ',' && output) {
            malformed(s, i, "the output after \"->\" is one term (',' is not allowed there)");
        } else {
            malformed(s, i,
                      std::string("'") + c +
                          "' is not an index (indices are the letters a-z, A-Z)");
        }
    }
    return term;
}

written_subscripts parse_subscripts(const std::string& s) {
    std::size_t arrow = std::string::npos;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '-') {
            if (i + 1 >= s.size() || s[i + 1] != '>') malformed(s, i, "'-' not followed by '>'");
            if (arrow != std::string::npos) malformed(s, i, "a second \"->\"");
            arrow = i++;
        } else if (s[i] == '>') {
            malformed(s, i, "'>' without '-' before it");
        }
    }
    written_subscripts parsed;
    const std::size_t inputs_end = arrow == std::string::npos ? s.size() : arrow;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t comma = s.find(',', begin);
        const std::size_t end =
            comma == std::string::npos || comma > inputs_end ? inputs_end : comma;
        parsed.inputs.push_back(parse_term(s, begin, end, false));
        if (end == inputs_end) break;
        begin = end + 1;
    }
    if (arrow != std::string::npos) {
        parsed.explicit_output = true;
        parsed.output = parse_term(s, arrow + 2, s.size(), true);
    }
    return parsed;
}

std::string quoted(const std::string& s) {
    return "\"" + s + "\"";
}

std::string shape_text(const shape_type& shape) {
    return shape_to_string(shape);
}

// Where `label` is in `labels` (npos: absent).
std::size_t position_of(const std::string& labels, char label) {
    return labels.find(label);
}

bool contains(const std::string& labels, char label) {
    return labels.find(label) != std::string::npos;
}

// Extent per label, and the operand that first gave it (for messages).
struct label_extents {
    std::array<std::size_t, 128> extent{};
    std::array<std::ptrdiff_t, 128> from{}; // operand index, -1: not seen
    label_extents() { from.fill(-1); }
    std::size_t of(char label) const { return extent[static_cast<unsigned char>(label)]; }
    std::size_t size_of(const std::string& labels) const {
        std::size_t n = 1;
        for (char c : labels)
            n *= of(c);
        return n;
    }
    shape_type shape_of(const std::string& labels) const {
        shape_type shape;
        for (char c : labels)
            shape.push_back(of(c));
        return shape;
    }
};

// The labels of `a` that survive a contraction of terms first and second: those in the output or
// in another term.
std::string kept_labels(const std::string& a, const std::string& b,
                        const std::vector<std::string>& terms, std::size_t first,
                        std::size_t second, const std::string& output) {
    std::string kept;
    auto keep = [&](char c) {
        if (contains(kept, c)) return;
        bool needed = contains(output, c);
        for (std::size_t t = 0; t < terms.size() && !needed; ++t)
            needed = t != first && t != second && contains(terms[t], c);
        if (needed) kept += c;
    };
    for (char c : a)
        keep(c);
    for (char c : b)
        keep(c);
    return kept;
}

einsum_contraction plan_contraction(const std::vector<std::string>& terms, std::size_t first,
                                    std::size_t second, const std::string& output,
                                    const label_extents& extents) {
    einsum_contraction step;
    step.first = first;
    step.second = second;
    const std::string &a = terms[first], &b = terms[second];
    step.labels_a = a;
    step.labels_b = b;
    const std::string kept = kept_labels(a, b, terms, first, second, output);
    // Every index that is neither in the output nor in a third term is in both a and b: indices
    // of one operand alone were summed in its preparation, so a's and b's other indices are kept.
    std::string batch, free_a, free_b;
    for (char c : a) {
        if (!contains(b, c))
            free_a += c;
        else if (contains(kept, c))
            batch += c;
        else
            step.summed += c;
    }
    for (char c : b)
        if (!contains(a, c)) free_b += c;
    step.labels_result = batch + free_a + free_b;
    for (const std::string* group : {&batch, &free_a, &step.summed})
        for (char c : *group)
            step.order_a.push_back(position_of(a, c));
    for (const std::string* group : {&batch, &step.summed, &free_b})
        for (char c : *group)
            step.order_b.push_back(position_of(b, c));
    const std::size_t count = extents.size_of(batch), rows = extents.size_of(free_a),
                      inner = extents.size_of(step.summed), cols = extents.size_of(free_b);
    if (!batch.empty()) {
        step.matrix_a.push_back(count);
        step.matrix_b.push_back(count);
    }
    step.matrix_a.push_back(rows);
    step.matrix_a.push_back(inner);
    step.matrix_b.push_back(inner);
    step.matrix_b.push_back(cols);
    step.result = extents.shape_of(step.labels_result);
    const std::string space = step.labels_result + step.summed;
    step.space = extents.shape_of(space);
    for (char c : space) {
        const std::size_t pa = position_of(a, c), pb = position_of(b, c);
        step.place_a.push_back(pa == std::string::npos ? -1 : static_cast<std::ptrdiff_t>(pa));
        step.place_b.push_back(pb == std::string::npos ? -1 : static_cast<std::ptrdiff_t>(pb));
    }
    for (std::size_t axis = step.labels_result.size(); axis < space.size(); ++axis)
        step.space_sum_axes.push_back(static_cast<std::ptrdiff_t>(axis));
    return step;
}

// The pair contracted next: among the pairs that share an index (all pairs when none do), the
// one whose result is smallest; ties go to the one that removes the most elements
// (size(result) - size(a) - size(b) lowest), then to the first pair in order.
std::pair<std::size_t, std::size_t> greedy_pair(const std::vector<std::string>& terms,
                                                const std::string& output,
                                                const label_extents& extents) {
    bool any_shared = false;
    for (std::size_t i = 0; i < terms.size() && !any_shared; ++i)
        for (std::size_t j = i + 1; j < terms.size() && !any_shared; ++j)
            any_shared = terms[i].find_first_of(terms[j]) != std::string::npos;
    std::pair<std::size_t, std::size_t> best{0, 1};
    double best_size = std::numeric_limits<double>::infinity(), best_removed = best_size;
    for (std::size_t i = 0; i < terms.size(); ++i)
        for (std::size_t j = i + 1; j < terms.size(); ++j) {
            if (any_shared && terms[i].find_first_of(terms[j]) == std::string::npos) continue;
            const std::string kept = kept_labels(terms[i], terms[j], terms, i, j, output);
            // Sizes as doubles: products of extents may pass 2^64 in a plan that is never run.
            auto size = [&](const std::string& labels) {
                double n = 1;
                for (char c : labels)
                    n *= static_cast<double>(extents.of(c));
                return n;
            };
            const double result = size(kept);
            const double removed = result - size(terms[i]) - size(terms[j]);
            if (result < best_size || (result == best_size && removed < best_removed)) {
                best = {i, j};
                best_size = result;
                best_removed = removed;
            }
        }
    return best;
}

} // namespace

einsum_plan plan_einsum(const std::string& subscripts, const std::vector<shape_type>& shapes) {
    const written_subscripts written = parse_subscripts(subscripts);
    const std::size_t count = written.inputs.size();
    if (count != shapes.size())
        throw usage_error("einsum: subscripts " + quoted(subscripts) + " name " +
                          std::to_string(count) + " operand(s) but " +
                          std::to_string(shapes.size()) + " were given");

    // How many dimensions each operand's "..." covers; all of them broadcast, right-aligned.
    std::vector<std::size_t> ellipsis_width(count, 0);
    std::size_t ellipsis_rank = 0;
    for (std::size_t k = 0; k < count; ++k) {
        const written_term& term = written.inputs[k];
        const std::size_t rank = shapes[k].size(), named = term.letters.size();
        if (term.has_ellipsis() ? rank < named : rank != named)
            throw shape_error("einsum: operand " + std::to_string(k) + " of shape " +
                              shape_text(shapes[k]) + " has " + std::to_string(rank) +
                              " axes but its subscripts " + quoted(term.letters) + " name " +
                              std::to_string(named) +
                              (term.has_ellipsis() ? " besides \"...\"" : ""));
        if (term.has_ellipsis()) ellipsis_width[k] = rank - named;
        ellipsis_rank = std::max(ellipsis_rank, ellipsis_width[k]);
    }

    // The ellipsis dimensions get letters no term uses, so that every later step sees letters.
    std::string used;
    for (const written_term& term : written.inputs)
        used += term.letters;
    used += written.output.letters;
    std::string ellipsis;
    for (char c = 'A'; c <= 'z' && ellipsis.size() < ellipsis_rank; ++c)
        if (is_letter(c) && !contains(used, c)) ellipsis += c;
    if (ellipsis.size() < ellipsis_rank)
        throw usage_error("einsum: subscripts " + quoted(subscripts) +
                          " use too many indices: the dimensions under \"...\" need " +
                          std::to_string(ellipsis_rank) + " letters no term uses");
    auto expand = [&](const written_term& term, std::size_t width) {
        if (!term.has_ellipsis()) return term.letters;
        return term.letters.substr(0, term.ellipsis_at) + ellipsis.substr(ellipsis_rank - width) +
               term.letters.substr(term.ellipsis_at);
    };
    std::vector<std::string> inputs(count);
    for (std::size_t k = 0; k < count; ++k)
        inputs[k] = expand(written.inputs[k], ellipsis_width[k]);

    // Extents: letters must agree exactly; ellipsis dimensions broadcast (1 against n).
    label_extents extents;
    for (std::size_t k = 0; k < count; ++k)
        for (std::size_t axis = 0; axis < inputs[k].size(); ++axis) {
            const char label = inputs[k][axis];
            const auto slot = static_cast<unsigned char>(label);
            const std::size_t extent = shapes[k][axis];
            const std::ptrdiff_t seen_in = extents.from[slot];
            if (seen_in < 0 || (contains(ellipsis, label) && extents.extent[slot] == 1)) {
                extents.extent[slot] = extent;
                extents.from[slot] = static_cast<std::ptrdiff_t>(k);
                continue;
            }
            const std::size_t known = extents.extent[slot];
            if (known == extent || (contains(ellipsis, label) && extent == 1)) continue;
            const std::size_t other = static_cast<std::size_t>(seen_in);
            if (contains(ellipsis, label))
                throw shape_error("einsum: the dimensions under \"...\" do not broadcast: extent " +
                                  std::to_string(known) + " in operand " + std::to_string(other) +
                                  " (shape " + shape_text(shapes[other]) + ") against " +
                                  std::to_string(extent) + " in operand " + std::to_string(k) +
                                  " (shape " + shape_text(shapes[k]) + ")");
            throw shape_error("einsum: index '" + std::string(1, label) + "' has extent " +
                              std::to_string(known) + " in operand " + std::to_string(other) +
                              " (shape " + shape_text(shapes[other]) + ") but " +
                              std::to_string(extent) + " in operand " + std::to_string(k) +
                              " (shape " + shape_text(shapes[k]) + ")" +
                              (other == k ? ", where it repeats" : ""));
        }

    // The output's indices.
    std::string output;
    if (written.explicit_output) {
        const std::string& letters = written.output.letters;
        for (std::size_t i = 0; i < letters.size(); ++i) {
            if (letters.find(letters[i], i + 1) != std::string::npos)
                throw usage_error("einsum: output index '" + std::string(1, letters[i]) +
                                  "' appears more than once in " + quoted(subscripts));
            bool in_input = false;
            for (const written_term& term : written.inputs)
                in_input = in_input || contains(term.letters, letters[i]);
            if (!in_input)
                throw usage_error("einsum: output index '" + std::string(1, letters[i]) + "' of " +
                                  quoted(subscripts) + " appears in no input");
        }
        if (!written.output.has_ellipsis() && ellipsis_rank > 0)
            throw usage_error("einsum: " + quoted(subscripts) +
                              " has \"...\" covering dimensions in its inputs but not in its "
                              "output (NumPy refuses this too: write \"...\" in the output)");
        output = written.output.has_ellipsis() ? expand(written.output, ellipsis_rank) : letters;
    } else {
        // NumPy's implicit output: the ellipsis dimensions, then the letters that appear once
        // in all the inputs together, in ASCII order (upper case first).
        std::array<int, 128> appearances{};
        for (const written_term& term : written.inputs)
            for (char c : term.letters)
                ++appearances[static_cast<unsigned char>(c)];
        output = ellipsis;
        for (int c = 0; c < 128; ++c)
            if (appearances[static_cast<std::size_t>(c)] == 1) output += static_cast<char>(c);
    }

    einsum_plan plan;
    plan.output_labels = output;
    std::string& text = plan.path.description;
    text = "einsum " + quoted(subscripts) + " over " + std::to_string(count) + " operand(s)";
    if (!ellipsis.empty()) text += "; \"...\" stands for " + quoted(ellipsis);
    text += "\n";

    // Each operand's view: repeated indices walked once (a diagonal), broadcast extent-1
    // dimensions dropped.
    std::vector<std::string> views(count);
    for (std::size_t k = 0; k < count; ++k) {
        einsum_prepare prep;
        std::string& view = views[k];
        for (std::size_t axis = 0; axis < inputs[k].size(); ++axis) {
            const char label = inputs[k][axis];
            if (contains(ellipsis, label) && shapes[k][axis] == 1 && extents.of(label) != 1)
                continue; // broadcast: the operand does not depend on this index
            const std::size_t at = position_of(view, label);
            if (at != std::string::npos) {
                prep.axis_groups[at].push_back(axis);
                continue;
            }
            view += label;
            prep.axis_groups.push_back({axis});
            prep.view_shape.push_back(shapes[k][axis]);
        }
        plan.operands.push_back(std::move(prep));
    }
    // Then each sums the indices that neither the output nor another operand has.
    for (std::size_t k = 0; k < count; ++k) {
        einsum_prepare& prep = plan.operands[k];
        const std::string& view = views[k];
        for (std::size_t axis = 0; axis < view.size(); ++axis) {
            bool needed = contains(output, view[axis]);
            for (std::size_t other = 0; other < count && !needed; ++other)
                needed = other != k && contains(views[other], view[axis]);
            if (needed)
                prep.labels += view[axis];
            else
                prep.sum_axes.push_back(static_cast<std::ptrdiff_t>(axis));
        }
        prep.shape = extents.shape_of(prep.labels);
        text += "  operand " + std::to_string(k) + " " + quoted(inputs[k]) + " " +
                shape_text(shapes[k]);
        if (view != inputs[k]) text += ": view " + quoted(view) + " " + shape_text(prep.view_shape);
        if (!prep.sum_axes.empty())
            text += (view != inputs[k] ? ", then sum to " : ": sum to ") + quoted(prep.labels) +
                    " " + shape_text(prep.shape);
        text += "\n";
    }

    // Three or more operands with no index left to sum: one product kernel over the output.
    plan.fused_product = count >= 3;
    for (const einsum_prepare& prep : plan.operands)
        for (char label : prep.labels)
            plan.fused_product = plan.fused_product && contains(output, label);
    if (plan.fused_product) {
        for (einsum_prepare& prep : plan.operands)
            for (char label : output) {
                const std::size_t at = position_of(prep.labels, label);
                prep.output_place.push_back(
                    at == std::string::npos ? -1 : static_cast<std::ptrdiff_t>(at));
            }
        text += "  one element-wise product of all " + std::to_string(count) + " operands -> " +
                shape_text(extents.shape_of(output)) + "\n";
    }

    // Pairwise contractions, greedily.
    std::vector<std::string> terms;
    if (plan.fused_product)
        terms.push_back(output);
    else
        for (const einsum_prepare& prep : plan.operands)
            terms.push_back(prep.labels);
    while (terms.size() > 1) {
        const auto [first, second] = greedy_pair(terms, output, extents);
        einsum_contraction step = plan_contraction(terms, first, second, output, extents);
        text += "  step " + std::to_string(plan.contractions.size() + 1) + ": contract (" +
                std::to_string(first) + ", " + std::to_string(second) + ") " +
                quoted(step.labels_a + "," + step.labels_b + "->" + step.labels_result) + ": ";
        if (step.summed.empty()) {
            text += "element-wise product";
        } else {
            text += "matrix product " + shape_text(step.matrix_a) + " @ " +
                    shape_text(step.matrix_b) + " over " + quoted(step.summed);
        }
        text += " -> " + shape_text(step.result) + "\n";
        terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(second));
        terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(first));
        terms.push_back(step.labels_result);
        plan.path.pairs.emplace_back(first, second);
        plan.contractions.push_back(std::move(step));
    }

    const std::string& last = terms.front();
    for (char label : output)
        plan.output_order.push_back(position_of(last, label));
    plan.output_shape = extents.shape_of(output);
    text += "  output " + quoted(output) + " " + shape_text(plan.output_shape);
    if (last != output) text += ": transpose of " + quoted(last);
    text += "\n";
    return plan;
}

} // namespace detail

namespace linalg {
einsum_path_info einsum_path(const std::string& subscripts, const std::vector<shape_type>& shapes) {
    return detail::plan_einsum(subscripts, shapes).path;
}
} // namespace linalg

} // namespace clarray
