// Fuzz case runners of dtype combinations 8 and 9 (fuzz_cases.hpp's `combos`).
#include "fuzz_cases.hpp"

namespace fz {
template void run_combo_at<8>(case_ctx&);
template void run_combo_at<9>(case_ctx&);
} // namespace fz
