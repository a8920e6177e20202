// Fuzz case runners of dtype combinations 4 and 5 (fuzz_cases.hpp's `combos`).
#include "fuzz_cases.hpp"

namespace fz {
template void run_combo_at<4>(case_ctx&);
template void run_combo_at<5>(case_ctx&);
} // namespace fz
