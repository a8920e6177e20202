#!/usr/bin/env bash
# Compiles the ```cpp code blocks of Markdown files with -fsyntax-only: the examples in the
# README and the docs must stay true to the headers. A block that defines `main` is a
# translation unit as written. Any other block is a fragment: the fragments of a file are
# compiled in one translation unit, each as the body of a function of its own with a
# `ca::context ctx` and a `ca::queue q`, after `#include <clarray/clarray.hpp>`,
# `namespace ca = clarray;` and the standard headers they are likely to use.
#
# CLARRAY_DOC_SKIP_INCLUDE=<header>: blocks that include <header> are skipped (the build leaves
# out what it needs, e.g. clarray/interop/dlpack.hpp without DLPack).
# Usage: scripts/check-doc-examples.sh [--self-test] -- CXX [FLAGS...] -- FILE.md...
#   CXX and FLAGS (include directories, definitions, -std=c++17) compile each block.
# Exit status 0: every block compiles; 1: a block failed (its file and line and the compiler's
# messages are printed) or a file has no cpp block.
set -euo pipefail

# A translation unit of fragments (FILE.md BLOCK...): the headers, then each block as the body of
# a function with `ctx` and `q` (named by the block's line, which #line gives its messages), and a
# main that calls them.
fragments_tu() {
    local md=$1 block line
    shift
    printf '#include <clarray/clarray.hpp>\n#include <cmath>\n#include <complex>\n'
    printf '#include <iostream>\n#include <numeric>\n#include <vector>\n'
    printf 'namespace ca = clarray;\n'
    for block in "$@"; do
        line=${block##*_}
        line=${line%.cpp}
        printf 'static void block_%s() {\n    ca::context ctx = ca::context::from_env();\n' "$line"
        printf '    ca::queue q(ctx);\n#line %s "%s"\n' "$line" "$md"
        cat "$block"
        printf '}\n'
    done
    printf 'int main() {\n'
    for block in "$@"; do
        line=${block##*_}
        printf '    block_%s();\n' "${line%.cpp}"
    done
    printf '}\n'
}

compile_blocks() { # compile_blocks CXX FLAGS... -- FILES...
    local cxx=() files=() seen_sep=0
    for arg in "$@"; do
        if ((seen_sep)); then files+=("$arg"); elif [[ $arg == -- ]]; then seen_sep=1; else cxx+=("$arg"); fi
    done
    local tmp failures=0 blocks=0
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    for f in "${files[@]}"; do
        # Each block to its own file, named by the line it starts on.
        awk -v dir="$tmp" -v base="$(basename "$f" .md)" '
            /^```cpp[ \t]*$/ { inside = 1; start = FNR + 1; out = dir "/" base "_" start ".cpp"; next }
            /^```/ && inside { inside = 0; close(out); next }
            inside { print > out }
        ' "$f"
        local n=0 fragments=()
        for block in "$tmp/$(basename "$f" .md)"_*.cpp; do
            [[ -e $block ]] || continue
            n=$((n + 1))
            local line=${block##*_}
            line=${line%.cpp}
            if [[ -n ${CLARRAY_DOC_SKIP_INCLUDE:-} ]] &&
                grep -qF "#include <$CLARRAY_DOC_SKIP_INCLUDE>" "$block"; then
                echo "$f:$line: skipped (includes <$CLARRAY_DOC_SKIP_INCLUDE>, not built here)"
                continue
            fi
            if ! grep -qE '\bint main\(' "$block"; then
                fragments+=("$block")
                continue
            fi
            local tu=${block%.cpp}.tu.cpp
            { printf '#line %s "%s"\n' "$line" "$f"; cat "$block"; } >"$tu"
            if ! "${cxx[@]}" -fsyntax-only -x c++ "$tu" 2>"$tmp/err"; then
                echo "$f:$line: this cpp block does not compile:"
                cat "$tmp/err"
                failures=$((failures + 1))
            fi
        done
        # The fragments of a file share one translation unit (the headers are parsed once), each
        # in a function of its own; #line makes a message name the block's file and line.
        if ((${#fragments[@]})); then
            local tu=$tmp/$(basename "$f" .md).fragments.cpp
            fragments_tu "$f" "${fragments[@]}" >"$tu"
            # On a failure each fragment is compiled alone, to name the blocks that fail.
            if ! "${cxx[@]}" -fsyntax-only -x c++ "$tu" 2>"$tmp/err_all"; then
                local failed_alone=0
                for block in "${fragments[@]}"; do
                    local line=${block##*_}
                    line=${line%.cpp}
                    fragments_tu "$f" "$block" >"${block%.cpp}.tu.cpp"
                    if ! "${cxx[@]}" -fsyntax-only -x c++ "${block%.cpp}.tu.cpp" 2>"$tmp/err"; then
                        echo "$f:$line: this cpp block does not compile:"
                        cat "$tmp/err"
                        failed_alone=$((failed_alone + 1))
                    fi
                done
                if ((failed_alone == 0)); then # only together: the whole translation unit's messages
                    echo "$f: the cpp blocks compile alone but not together:"
                    cat "$tmp/err_all"
                    failed_alone=1
                fi
                failures=$((failures + failed_alone))
            fi
        fi
        if ((n == 0)); then
            echo "$f: no cpp block"
            failures=$((failures + 1))
        fi
        blocks=$((blocks + n))
    done
    if ((failures)); then
        echo "check-doc-examples: $failures failure(s) in ${#files[@]} file(s)" >&2
        return 1
    fi
    echo "check-doc-examples: $blocks block(s) of ${#files[@]} file(s) compile"
}

self_test() { # self_test CXX FLAGS... : a good and a bad block must be told apart
    local tmp
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    printf '# t\n\n```cpp\nauto a = ca::zeros<float>(q, {3});\na += 1.0f;\n```\n' >"$tmp/good.md"
    printf '# t\n\n```cpp\nauto a = ca::zeros<float>(q, {3});\na.no_such_member();\n```\n' \
        >"$tmp/bad.md"
    compile_blocks "$@" -- "$tmp/good.md" >/dev/null ||
        { echo "self-test: a good block failed" >&2; return 1; }
    local out
    if out=$(compile_blocks "$@" -- "$tmp/bad.md" 2>&1); then
        echo "self-test: a bad block compiled" >&2
        return 1
    fi
    [[ $out == *"bad.md:4"* ]] || { echo "self-test: the failure did not name bad.md:4: $out" >&2; return 1; }
    echo "check-doc-examples: self-test passed"
}

self=0
[[ ${1:-} == --self-test ]] && { self=1; shift; }
[[ ${1:-} == -- ]] || { echo "usage: $0 [--self-test] -- CXX [FLAGS...] -- FILE.md..." >&2; exit 2; }
shift
if ((self)); then
    args=()
    for a in "$@"; do [[ $a == -- ]] && break; args+=("$a"); done
    self_test "${args[@]}"
else
    compile_blocks "$@"
fi
