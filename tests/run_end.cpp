// At the end of the run the shared test queue is finished before the process exits: pocl's
// worker threads still running queued commands (a free, a reduction no test read) while static
// destructors run can crash the process after every test passed (docs/internals/quirks.md).
#if CLARRAY_CATCH2_MAJOR == 2
#define CATCH_CONFIG_EXTERNAL_INTERFACES
#endif
#include "support.hpp"

namespace {
#ifdef CLARRAY_CATCH2_3
using listener_base = Catch::EventListenerBase;
#else
using listener_base = Catch::TestEventListenerBase;
#endif

struct finish_queue_at_run_end : listener_base {
    using listener_base::listener_base;
    void testRunEnded(const Catch::TestRunStats&) override { test::finish_shared_queue(); }
};
} // namespace

CATCH_REGISTER_LISTENER(finish_queue_at_run_end)
