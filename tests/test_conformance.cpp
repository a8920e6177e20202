// The dtype x function conformance matrix against NumPy (docs/testing.md, "Conformance matrix"):
// the driver. The functions are in test_conformance_*.cpp, the reference data in
// tests/data/conformance/ (tests/data/make_conformance.py). The default run is a fixed sample
// (every function, dtype, view kind and storage policy at least once); CLARRAY_CONFORMANCE=full
// runs every (function, dtype) pair.
#include "conformance/conformance.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#ifndef CLARRAY_CONFORMANCE_DIR
#define CLARRAY_CONFORMANCE_DIR CLARRAY_TEST_SOURCE_DIR "/data/conformance"
#endif

namespace conf {

std::map<std::string, function_entry>& registry() {
    static std::map<std::string, function_entry> r;
    return r;
}

std::string npy_dtype(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    char head[256] = {};
    f.read(head, sizeof head - 1);
    const std::string h(head, static_cast<std::size_t>(f.gcount()));
    const std::size_t p = h.find("'descr': '");
    if (p == std::string::npos) return "";
    const std::string d = h.substr(p + 10, h.find('\'', p + 10) - p - 10);
    static const std::map<std::string, std::string> names = {
        {"|b1", "bool"},      {"|i1", "int8"},       {"<i2", "int16"},   {"<i4", "int32"},
        {"<i8", "int64"},     {"|u1", "uint8"},      {"<u2", "uint16"},  {"<u4", "uint32"},
        {"<u8", "uint64"},    {"<f2", "float16"},    {"<f4", "float32"}, {"<f8", "float64"},
        {"<c8", "complex64"}, {"<c16", "complex128"}};
    auto it = names.find(d);
    return it == names.end() ? d : it->second;
}

void compare_float(const std::vector<long double>& got, const std::vector<long double>& want,
                   const std::vector<std::size_t>& shape_got,
                   const std::vector<std::size_t>& shape_want, float_format f, tolerance tol,
                   std::vector<std::string>& failures, const std::string& what) {
    if (shape_got != shape_want) {
        std::ostringstream s;
        s << what << ": shape (";
        for (auto v : shape_got)
            s << v << ",";
        s << ") vs NumPy's (";
        for (auto v : shape_want)
            s << v << ",";
        s << ")";
        failures.push_back(s.str());
        return;
    }
    const long double eps = std::ldexp(1.0L, 1 - f.digits);
    long double scale = 0;
    for (long double w : want)
        if (std::isfinite(w)) scale = std::max(scale, std::fabs(w));
    const bool half = f.digits == 11;
    const bool complex = f.complex;
    std::size_t bad = 0, first = 0;
    long double worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const long double g = got[i], w = want[i];
        bool ok;
        if (std::isnan(w) || std::isnan(g))
            ok = std::isnan(w) && std::isnan(g);
        else if (std::isinf(w) || std::isinf(g))
            ok = g == w;
        else {
            int e = 0;
            std::frexp(w, &e);
            const long double ulp = std::ldexp(1.0L, std::max(e, f.min_exp) - f.digits);
            const long double err = std::fabs(g - w);
            long double allowed = (tol.ulps + (half ? 1 : 0)) * ulp + tol.rel * eps * scale;
            // complex: the error of a part is relative to the value's magnitude
            if (complex) allowed += 4 * eps * std::max(std::fabs(w), std::fabs(want[i ^ 1]));
            ok = err <= allowed;
            if (!ok) worst = std::max(worst, err / ulp);
        }
        if (!ok && bad++ == 0) first = i;
    }
    if (bad) {
        std::ostringstream s;
        s.precision(10);
        s << what << ": " << bad << " of " << got.size() << " values differ, first at flat "
          << first << ": " << static_cast<double>(got[first]) << " vs NumPy "
          << static_cast<double>(want[first]) << " (worst finite error "
          << static_cast<double>(worst) << " ulp; tolerance " << tol.ulps << " ulp + " << tol.rel
          << " eps * max|NumPy|)";
        failures.push_back(s.str());
    }
}

} // namespace conf

namespace {

// ---- known failures: (function, dtype) pairs skipped with a WARN until their fixes land ----
// dtype "*" covers every dtype, "integers" bool and the integer dtypes.
// CLARRAY_CONFORMANCE_KNOWN=1 runs them too (and fails on them).
struct known_failure {
    const char* func;
    const char* dtype;
    const char* defect;
};
const std::vector<known_failure> known_failures = {
#include "conformance/known_failures.inc"
};

const known_failure* known(const std::string& f, const std::string& d) {
    for (const known_failure& k : known_failures)
        if (f == k.func && (d == k.dtype || std::string(k.dtype) == "*" ||
                            (std::string(k.dtype) == "integers" && d.compare(0, 5, "float") != 0 &&
                             d.compare(0, 7, "complex") != 0)))
            return &k;
    return nullptr;
}

std::vector<conf::case_t> read_manifest(const std::string& dir) {
    std::ifstream f(dir + "/manifest.txt");
    REQUIRE(f.good());
    std::vector<conf::case_t> cases;
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream s(line);
        conf::case_t c;
        s >> c.func >> c.dtype >> c.status >> c.nout;
        std::string tok;
        while (s >> tok) {
            const std::size_t colon = tok.find(':');
            c.inputs.push_back({tok.substr(0, colon), tok.substr(colon + 1)});
        }
        cases.push_back(std::move(c));
    }
    return cases;
}

const auto& dtype_names = conf::matrix_dtype_names;
constexpr std::size_t n_dtypes = std::size(conf::matrix_dtype_names);

bool needs_fp64(const std::string& d) {
    return d == "float64" || d == "complex128";
}

} // namespace

TEST_CASE("conformance: dtype x function matrix against NumPy", "[conformance]") {
    const std::string dir = CLARRAY_CONFORMANCE_DIR;
    const std::vector<conf::case_t> cases = read_manifest(dir);
    REQUIRE(!cases.empty());
    const char* mode_env = std::getenv("CLARRAY_CONFORMANCE");
    const bool full = mode_env && std::string(mode_env) == "full";
    const char* known_env = std::getenv("CLARRAY_CONFORMANCE_KNOWN");
    const bool run_known = known_env && std::string(known_env) == "1";
    const char* only_env = std::getenv("CLARRAY_CONFORMANCE_ONLY"); // a function name (debugging)
    // "i/n": only the cases whose index is i modulo n (processes sharing the matrix).
    std::size_t shard = 0, shards = 1;
    if (const char* shard_env = std::getenv("CLARRAY_CONFORMANCE_SHARD")) {
        char slash = 0;
        std::istringstream in(shard_env);
        in >> shard >> slash >> shards;
        REQUIRE((in && slash == '/' && shards > 0 && shard < shards));
    }
    const bool fp64 = test::ctx().device().has_fp64();

    // Every function of the manifest has a body here, and every body a manifest entry.
    std::vector<std::string> functions;
    for (const conf::case_t& c : cases)
        if (functions.empty() || functions.back() != c.func) functions.push_back(c.func);
    for (const std::string& f : functions) {
        INFO("function " << f << " of the manifest");
        CHECK(conf::registry().count(f) == 1);
    }
    for (const auto& e : conf::registry()) {
        INFO("function " << e.first << " of the test");
        CHECK(std::find(functions.begin(), functions.end(), e.first) != functions.end());
    }

    // Whether clarray computes the case (NumPy computes it and clarray compiles the dtype).
    auto accepted = [&](const conf::case_t& c) {
        auto it = conf::registry().find(c.func);
        if (it == conf::registry().end()) return false;
        conf::ctx probe(c, dir, it->second.tol);
        return it->second.run(probe, true) == conf::pair_build::built;
    };

    // The default sample: function i runs the first accepted dtype from (5 i) mod 14 on, then
    // every NumPy refusal, then every dtype not yet met runs once with the first function that
    // accepts it.
    std::set<std::size_t> chosen;
    if (!full) {
        std::set<std::string> dtypes_met;
        for (std::size_t fi = 0; fi < functions.size(); ++fi) {
            for (std::size_t k = 0; k < n_dtypes; ++k) {
                const std::string d = dtype_names[(5 * fi + k) % n_dtypes];
                auto it = std::find_if(cases.begin(), cases.end(), [&](const conf::case_t& c) {
                    return c.func == functions[fi] && c.dtype == d;
                });
                if (it != cases.end() && it->status == "ok" && accepted(*it) &&
                    !known(it->func, it->dtype)) {
                    chosen.insert(static_cast<std::size_t>(it - cases.begin()));
                    dtypes_met.insert(d);
                    break;
                }
            }
        }
        // Where NumPy refuses a dtype or raises, clarray must too: cheap (mostly compile-time
        // rejections), all of them run.
        for (std::size_t i = 0; i < cases.size(); ++i)
            if (cases[i].status != "ok") chosen.insert(i);
        for (const char* d : dtype_names) {
            if (dtypes_met.count(d)) continue;
            for (std::size_t i = 0; i < cases.size(); ++i)
                if (cases[i].dtype == d && cases[i].status == "ok" && accepted(cases[i]) &&
                    !known(cases[i].func, d)) {
                    chosen.insert(i);
                    break;
                }
        }
    }

    std::size_t pairs = 0, ran = 0, passed = 0, rejected_compile = 0, rejected_runtime = 0,
                skipped_known = 0, skipped_other = 0, numpy_refuses = 0, not_built = 0;
    std::map<std::string, int> policies, views, dtypes_run;
    std::set<std::string> functions_run;
    std::vector<std::string> failures, rejections;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const conf::case_t& c = cases[i];
        ++pairs;
        if (!full && !chosen.count(i)) continue;
        if (i % shards != shard) continue;
        if (only_env && c.func != only_env) continue;
        auto it = conf::registry().find(c.func);
        if (it == conf::registry().end()) continue; // failed above
        const std::string id = c.func + "/" + c.dtype;
        const known_failure* kf = known(c.func, c.dtype);
        if (kf && !run_known) {
            WARN("known failure skipped: " << id << ": " << kf->defect);
            ++skipped_known;
            continue;
        }
        if (needs_fp64(c.dtype) && !fp64) {
            ++skipped_other;
            continue;
        }
        conf::ctx x(c, dir, it->second.tol);
        if (it->second.run(x, true) == conf::pair_build::not_built) {
            ++not_built;
            continue;
        }
        bool compiled = false;
        std::string error;
        bool dtype_err = false, other_err = false;
        try {
            compiled = it->second.run(x, false) == conf::pair_build::built;
        } catch (const ca::dtype_error& e) {
            compiled = dtype_err = true;
            error = e.what();
        } catch (const std::exception& e) {
            compiled = other_err = true;
            error = e.what();
        }
        if (x.policy.find("unavailable") != std::string::npos) {
            ++skipped_other;
            continue;
        }
        const std::string where =
            id + " [" + x.policy + ", view " + (c.inputs.empty() ? "-" : c.inputs[0].view) + "]";
        std::vector<std::string> problems;
        if (c.status == "typeerror") {
            ++numpy_refuses;
            if (compiled && !dtype_err && !other_err)
                problems.push_back("NumPy refuses the dtype (TypeError), clarray computes it");
            else if (other_err)
                problems.push_back("NumPy refuses the dtype; clarray throws another error than "
                                   "dtype_error: " +
                                   error);
        } else if (c.status == "raises") {
            if (compiled && !dtype_err && !other_err)
                problems.push_back("NumPy raises an error, clarray computes a value");
        } else if (!compiled) {
            ++rejected_compile;
            rejections.push_back(id + " (does not compile)");
            continue;
        } else if (dtype_err) {
            ++rejected_runtime;
            rejections.push_back(id + " (dtype_error: " + error + ")");
            continue;
        } else if (other_err) {
            problems.push_back("throws: " + error);
        } else {
            if (x.checked != c.nout)
                problems.push_back("checked " + std::to_string(x.checked) + " of " +
                                   std::to_string(c.nout) + " outputs");
            problems.insert(problems.end(), x.failures.begin(), x.failures.end());
        }
        if (!compiled) continue; // rejected at compile time where NumPy refuses or raises too
        ++ran;
        ++policies[x.policy];
        ++views[c.inputs.empty() ? "-" : c.inputs[0].view.substr(1)];
        ++dtypes_run[c.dtype];
        functions_run.insert(c.func);
        if (problems.empty()) {
            ++passed;
        } else {
            for (const std::string& p : problems)
                failures.push_back(where + ": " + p);
        }
    }

    std::ostringstream summary;
    summary << "conformance (" << (full ? "full" : "default sample");
    if (shards > 1) summary << ", shard " << shard << "/" << shards;
    summary << "): " << pairs << " (function, dtype) pairs in the matrix (" << functions.size()
            << " functions x " << n_dtypes << " dtypes), " << ran << " ran, " << passed
            << " passed, " << failures.size()
            << " problems; rejected by clarray where NumPy computes: " << rejected_compile
            << " at compile time, " << rejected_runtime
            << " with dtype_error; NumPy refusals checked: " << numpy_refuses
            << "; known failures skipped: " << skipped_known
            << "; skipped (device): " << skipped_other
            << "; not built (the default build's sample; CLARRAY_TEST_FULL=1 builds every pair): "
            << not_built << "\n  policies:";
    for (const auto& p : policies)
        summary << " " << p.first << "=" << p.second;
    summary << "\n  views:";
    for (const auto& v : views)
        summary << " " << v.first << "=" << v.second;
    summary << "\n  dtypes:";
    for (const auto& d : dtypes_run)
        summary << " " << d.first << "=" << d.second;
    if (std::getenv("CLARRAY_CONFORMANCE_VERBOSE")) {
        summary << "\n  rejections:";
        for (const std::string& r : rejections)
            summary << "\n    " << r;
    }
    std::cout << summary.str() << std::endl;
    // A full run must meet every pair: a default build compiles a sample of them.
    if (full) {
        INFO("CLARRAY_CONFORMANCE=full on a build that compiled a sample of the pairs: configure "
             "with CLARRAY_TEST_FULL=1 (scripts/run-all-checks.sh conformance does)");
        CHECK(not_built == 0);
    }
    for (const std::string& f : failures)
        std::cout << "  FAIL " << f << "\n";
    std::cout << std::flush;
    CHECK(failures.empty());
    // Without SVM the cases that rotated onto an SVM policy are skipped (the storage policy of a
    // (function, dtype) is fixed at compile time): only the coverage of the full device is checked.
    const ca::svm_capabilities caps = test::ctx().svm_caps();
    if (!only_env && shards == 1 && caps.coarse && caps.fine) {
        // The sample meets every function, dtype, view kind and storage policy of the device.
        // (a function whose every case clarray computes is a known failure cannot run)
        for (const std::string& f : functions) {
            bool all_known = true;
            for (const conf::case_t& c : cases)
                if (c.func == f && c.status == "ok" && accepted(c) && !known(c.func, c.dtype))
                    all_known = false;
            INFO("function " << f << " ran in the sample");
            CHECK((functions_run.count(f) == 1 || all_known));
        }
        CHECK(dtypes_run.size() == (fp64 ? n_dtypes : n_dtypes - 2));
        CHECK(views.size() >= 4);
        CHECK(policies.size() == 3);
    }
}
