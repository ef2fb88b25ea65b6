// What --exercise prints under each case: the learner's kernel as % of cudaMemcpy and of the
// step's own kernel, and the learner's --predict beside the measurement.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tp/harness.hpp"

namespace {

tp::Measurement measured(const tp::Kernel& k, double gbps, double pct, bool ok = true) {
  tp::Measurement m;
  m.kernel = &k;
  m.gbps = gbps;
  m.pct_of_memcpy = pct;
  if (!ok) m.check.mismatches = 1;
  return m;
}

tp::Kernel named(const std::string& name) {
  tp::Kernel k;
  k.step = "03_unroll";
  k.name = name;
  return k;
}

struct Note : ::testing::Test {
  const tp::Kernel own = named("unroll4"), mine = named("exercise_unroll");
};

TEST_F(Note, GivesTheLearnersKernelAsPercentOfMemcpyAndOfTheStepsOwn) {
  const std::string note = tp::exercise_note({measured(own, 2000, 50), measured(mine, 1500, 37.5)},
                                             "exercise_unroll", "unroll4", 0);
  EXPECT_EQ(note, "your kernel: 37.5% of cudaMemcpy, 75.0% of the step's own kernel (unroll4)\n");
}

TEST_F(Note, PutsThePredictionBesideTheMeasurement) {
  const std::string note = tp::exercise_note({measured(own, 2000, 50), measured(mine, 1500, 37.5)},
                                             "exercise_unroll", "unroll4", 45);
  EXPECT_NE(note.find("your prediction: 45.0% of cudaMemcpy; measured 37.5%, 7.5 points below it\n"),
            std::string::npos)
      << note;
}

TEST_F(Note, SaysWhenTheLearnersKernelFailedAndIsEmptyWithoutIt) {
  EXPECT_NE(tp::exercise_note({measured(own, 2000, 50), measured(mine, 1500, 37.5, false)}, "exercise_unroll",
                              "unroll4", 45)
                .find("FAILED verification"),
            std::string::npos);
  EXPECT_EQ(tp::exercise_note({measured(own, 2000, 50)}, "exercise_unroll", "unroll4", 45), "");
}

}  // namespace
