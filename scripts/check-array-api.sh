#!/usr/bin/env bash
# Checks docs/array-api.md, the table of the Python array API standard (2024.12: core, linalg and
# fft extensions) against the headers:
#  * every name of the standard (STANDARD below) has exactly one row, and no row names another;
#  * every clarray name of a row's second column (in backticks; `name()` forms are members and
#    are not checked, nor operator spellings) is a public name of include/clarray, as listed by
#    scripts/check-api-doc.sh --list (names brought in by `using` count when docs/api.md has them).
# It prints how many standard functions have a clarray equivalent and which rows say `missing`.
#
# Usage: scripts/check-array-api.sh [--strict] [ROOT]   (--strict: a `missing` row fails too)
# Exit status 0: consistent; 1: rows missing, unknown names or (--strict) missing functions;
# 77: ctags is not installed (as check-api-doc.sh).
set -euo pipefail

strict=0
if [[ ${1:-} == --strict ]]; then
    strict=1
    shift
fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
table=$root/docs/array-api.md

STANDARD='
arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones ones_like
tril triu zeros zeros_like
astype can_cast finfo iinfo isdtype result_type
abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert
bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp expm1
floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less less_equal log log1p
log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum multiply
negative nextafter not_equal positive pow real reciprocal remainder round sign signbit sin sinh
square sqrt subtract tan tanh trunc
take take_along_axis
matmul matrix_transpose tensordot vecdot
broadcast_arrays broadcast_to concat expand_dims flip moveaxis permute_dims repeat reshape roll
squeeze stack tile unstack
argmax argmin count_nonzero nonzero searchsorted where
unique_all unique_counts unique_inverse unique_values
argsort sort
cumulative_prod cumulative_sum max mean min prod std sum var
all any diff
e inf nan newaxis pi
linalg::cholesky linalg::cross linalg::det linalg::diagonal linalg::eigh linalg::eigvalsh
linalg::inv linalg::matmul linalg::matrix_norm linalg::matrix_power linalg::matrix_rank
linalg::matrix_transpose linalg::outer linalg::pinv linalg::qr linalg::slogdet linalg::solve
linalg::svd linalg::svdvals linalg::tensordot linalg::trace linalg::vecdot linalg::vector_norm
fft::fft fft::ifft fft::fftn fft::ifftn fft::rfft fft::irfft fft::rfftn fft::irfftn fft::hfft
fft::ihfft fft::fftfreq fft::rfftfreq fft::fftshift fft::ifftshift
'

[[ -f $table ]] || { echo "check-array-api: $table not found" >&2; exit 1; }
public=$("$root/scripts/check-api-doc.sh" --list "$root") || exit $?
# Names docs/api.md lists (first column), for those the headers bring in with `using`.
documented=$(sed -n 's/^| *\(`[^|]*\)|.*/\1/p' "$root/docs/api.md" | grep -o '`[^`]*`' | tr -d '`' |
    sed 's/[(<].*//')
known=$(printf '%s\n%s\n' "$public" "$documented" | sort -u)

fail=0
declare -A seen=()
present=0
missing_list=()
while IFS='|' read -r _ standard clarray _; do
    name=$(sed 's/^ *`\(.*\)` *$/\1/' <<<"$standard")
    [[ $name == standard || $name == ---* || -z $name ]] && continue
    if [[ -n ${seen[$name]:-} ]]; then
        echo "docs/array-api.md: two rows for $name"
        fail=1
    fi
    seen[$name]=1
    if ! grep -qw -- "$name" <<<"$(tr ' ' '\n' <<<"$STANDARD")"; then
        echo "docs/array-api.md: $name is not a name of the standard"
        fail=1
    fi
    if grep -q '^ *missing *$' <<<"$clarray"; then
        missing_list+=("$name")
        continue
    fi
    present=$((present + 1))
    while read -r token; do
        [[ -z $token || $token == *"()" ]] && continue
        token=${token%%(*}
        [[ $token =~ ^[A-Za-z_][A-Za-z_0-9:]*$ ]] || continue # operators
        if ! grep -qx -- "$token" <<<"$known"; then
            echo "docs/array-api.md: $name: clarray name $token is not a public name"
            fail=1
        fi
    done < <(grep -o '`[^`]*`' <<<"$clarray" | tr -d '`')
done < <(grep '^| `' "$table" || true)

total=0
for name in $STANDARD; do
    total=$((total + 1))
    if [[ -z ${seen[$name]:-} ]]; then
        echo "docs/array-api.md: no row for $name"
        fail=1
    fi
done
echo "check-array-api: $present of $total functions of the standard have a clarray equivalent"
if ((${#missing_list[@]})); then
    echo "check-array-api: missing: ${missing_list[*]}"
    ((strict)) && fail=1
fi
exit $fail
