// Fuzz case runners of dtype combinations 0 and 1 (fuzz_cases.hpp's `combos`).
#include "fuzz_cases.hpp"

namespace fz {
template void run_combo_at<0>(case_ctx&);
template void run_combo_at<1>(case_ctx&);
} // namespace fz
