// Fuzz case runners of dtype combinations 6 and 7 (fuzz_cases.hpp's `combos`).
#include "fuzz_cases.hpp"

namespace fz {
template void run_combo_at<6>(case_ctx&);
template void run_combo_at<7>(case_ctx&);
} // namespace fz
