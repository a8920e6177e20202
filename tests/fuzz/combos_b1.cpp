// Breadth fuzz case runners of combinations 3,4,5 (breadth_cases.hpp's breadth_combos).
#include "breadth_cases.hpp"

namespace fz {
template void run_breadth_at<3>(case_ctx&, bool);
template void run_breadth_at<4>(case_ctx&, bool);
template void run_breadth_at<5>(case_ctx&, bool);
} // namespace fz
