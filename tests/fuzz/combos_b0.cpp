// Breadth fuzz case runners of combinations 0,1,2 (breadth_cases.hpp's breadth_combos).
#include "breadth_cases.hpp"

namespace fz {
template void run_breadth_at<0>(case_ctx&, bool);
template void run_breadth_at<1>(case_ctx&, bool);
template void run_breadth_at<2>(case_ctx&, bool);
} // namespace fz
