// The command line: good input parses, bad input is a UsageError with a clear message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../gpu_guard.hpp"
#include "tp/cli.hpp"
#include "tp/error.hpp"

namespace {

tp::CliSpec spec() {
  tp::CliSpec s;
  s.description = "test";
  s.default_sizes = {256, 512};
  s.exercise_flag = true;
  return s;
}

tp::Options parse(std::vector<std::string> args, const tp::CliSpec& s = spec()) {
  args.insert(args.begin(), "prog");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return tp::parse_cli(s, static_cast<int>(argv.size()), argv.data());
}

TEST(Cli, DefaultsComeFromTheSpec) {
  const tp::Options o = parse({});
  ASSERT_EQ(o.shapes.size(), 2u);
  EXPECT_EQ(o.shapes[1].rows, 512);
  EXPECT_EQ(o.shapes[1].cols, 512);
  EXPECT_EQ(o.dtypes, std::vector<tp::DType>{tp::DType::f32});
  EXPECT_EQ(o.reps, 20);
  EXPECT_FALSE(o.exercise);
  EXPECT_FALSE(o.warm_l2);
  EXPECT_TRUE(o.csv_path.empty());
}

TEST(Cli, ParsesSizesDtypesRepsCsvExercise) {
  const tp::Options o = parse({"--sizes", "1024,4096", "--dtype", "half,bf16", "--reps", "5",
                               "--csv", "out.csv", "--exercise", "--warm-l2"});
  ASSERT_EQ(o.shapes.size(), 2u);
  EXPECT_EQ(o.shapes[0].rows, 1024);
  EXPECT_EQ(o.shapes[1].cols, 4096);
  EXPECT_EQ(o.dtypes, (std::vector<tp::DType>{tp::DType::f16, tp::DType::bf16}));
  EXPECT_EQ(o.reps, 5);
  EXPECT_EQ(o.csv_path, "out.csv");
  EXPECT_TRUE(o.exercise);
  EXPECT_TRUE(o.warm_l2);
}

TEST(Cli, PredictGoesWithExerciseAndIsAPercentage) {
  EXPECT_DOUBLE_EQ(parse({"--exercise", "--predict", "45.5"}).predict, 45.5);
  EXPECT_DOUBLE_EQ(parse({"--exercise"}).predict, 0.0);
  EXPECT_THROW(parse({"--predict", "45"}), tp::UsageError);  // no --exercise
  EXPECT_THROW(parse({"--exercise", "--predict", "0"}), tp::UsageError);
  EXPECT_THROW(parse({"--exercise", "--predict", "-3"}), tp::UsageError);
  EXPECT_THROW(parse({"--exercise", "--predict", "fast"}), tp::UsageError);
}

TEST(Cli, RowsAndColsGiveOneRectangle) {
  const tp::Options o = parse({"--rows", "3", "--cols", "70000"});
  ASSERT_EQ(o.shapes.size(), 1u);
  EXPECT_EQ(o.shapes[0].rows, 3);
  EXPECT_EQ(o.shapes[0].cols, 70000);
}

TEST(Cli, SizesMixSquaresAndRectangles) {
  const tp::Options o = parse({"--sizes", "1024,4000x6000"});
  ASSERT_EQ(o.shapes.size(), 2u);
  EXPECT_EQ(o.shapes[0].cols, 1024);
  EXPECT_EQ(o.shapes[1].rows, 4000);
  EXPECT_EQ(o.shapes[1].cols, 6000);
  for (const char* bad : {"4000x", "x6000", "4000x0", "4000xabc", "4000x6000x2"}) {
    EXPECT_THROW(parse({"--sizes", bad}), tp::UsageError) << bad;
  }
}

TEST(Cli, DtypeAllMeansAllFour) {
  EXPECT_EQ(parse({"--dtype", "all"}).dtypes.size(), 4u);
}

TEST(Cli, ProgramsThatDoNotTimeRejectTimingFlags) {
  tp::CliSpec untimed = spec();
  untimed.timing_flags = false;
  EXPECT_NO_THROW(parse({"--sizes", "64"}, untimed));
  for (const char* flag : {"--warm-l2", "--csv=x.csv", "--reps=3"}) {
    EXPECT_THROW(parse({flag}, untimed), tp::UsageError) << flag;
  }
}

TEST(Cli, KernelsOnlyWhereTheProgramOffersThem) {
  EXPECT_THROW(parse({"--kernels", "copy"}), tp::UsageError);
  tp::CliSpec filtered = spec();
  filtered.kernels_flag = true;
  EXPECT_TRUE(parse({}, filtered).kernels.empty());
  EXPECT_EQ(parse({"--kernels", "copy,coarsen"}, filtered).kernels, (std::vector<std::string>{"copy", "coarsen"}));
}

TEST(Cli, ProgramOptionsTakeNumberListsInTheirRange) {
  std::vector<int> gpus = {2};  // the default, kept when the flag is absent
  tp::CliSpec own = spec();
  own.int_lists.push_back({"--gpus", "GPU counts", &gpus, 1, 8});
  parse({}, own);
  EXPECT_EQ(gpus, std::vector<int>{2});
  parse({"--gpus", "2,4"}, own);
  EXPECT_EQ(gpus, (std::vector<int>{2, 4}));
  EXPECT_THROW(parse({"--gpus", "9"}, own), tp::UsageError);
  EXPECT_THROW(parse({"--gpus", "two"}, own), tp::UsageError);
  EXPECT_THROW(parse({"--gpus", "2"}), tp::UsageError);  // a program that does not offer it
}

TEST(Cli, HelpIsNotAnError) {
  EXPECT_THROW(parse({"--help"}), tp::HelpRequested);
}

class CliBadInput : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(CliBadInput, IsAUsageErrorWithAMessage) {
  try {
    parse(GetParam());
    FAIL() << "accepted";
  } catch (const tp::UsageError& e) {
    EXPECT_GT(std::string(e.what()).size(), 10u);
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line: " << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cli, CliBadInput,
    ::testing::Values(std::vector<std::string>{"--sizes", "0"},
                      std::vector<std::string>{"--sizes", "-5"},
                      std::vector<std::string>{"--sizes=-5"},
                      std::vector<std::string>{"--sizes", "abc"},
                      std::vector<std::string>{"--sizes", "12x"},
                      std::vector<std::string>{"--sizes", "99999999999"},
                      std::vector<std::string>{"--dtype", "int7"},
                      std::vector<std::string>{"--foo"},
                      std::vector<std::string>{"--rows", "5"},
                      std::vector<std::string>{"--rows", "0", "--cols", "5"},
                      std::vector<std::string>{"--sizes", "8", "--rows", "3", "--cols", "4"},
                      std::vector<std::string>{"--reps", "0"},
                      std::vector<std::string>{"--reps", "many"}));

TEST(GpuPolicy, RunsWithADeviceSkipsOrFailsWithout) {
  using tp::testing::GpuPolicy;
  using tp::testing::gpu_policy;
  EXPECT_EQ(gpu_policy(1, nullptr), GpuPolicy::run);
  EXPECT_EQ(gpu_policy(1, "1"), GpuPolicy::run);
  EXPECT_EQ(gpu_policy(0, nullptr), GpuPolicy::skip);
  EXPECT_EQ(gpu_policy(0, "0"), GpuPolicy::skip);
  EXPECT_EQ(gpu_policy(0, "1"), GpuPolicy::fail);
}

}  // namespace
