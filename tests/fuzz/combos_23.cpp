// Fuzz case runners of dtype combinations 2 and 3 (fuzz_cases.hpp's `combos`).
#include "fuzz_cases.hpp"

namespace fz {
template void run_combo_at<2>(case_ctx&);
template void run_combo_at<3>(case_ctx&);
} // namespace fz
