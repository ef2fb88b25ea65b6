// The main of every test binary: GoogleTest's, plus an exit code that tells ctest a run was
// skipped. A test that needs a GPU skips itself without one (tests/gpu_guard.hpp); ctest then
// shows the entry as skipped (exit 77, SKIP_RETURN_CODE in cmake/Helpers.cmake), but only
// when nothing failed: an entry whose CPU tests fail fails, whatever else was skipped.
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int failed = RUN_ALL_TESTS();
  const ::testing::UnitTest& run = *::testing::UnitTest::GetInstance();
  if (failed == 0 && run.skipped_test_count() > 0) return 77;
  return failed;
}
