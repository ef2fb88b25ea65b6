/// @file cli.hpp
/// @brief The command line shared by every benchmark binary (CLI11).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tp/dtype.hpp"

namespace tp {

/// A matrix shape: rows x cols, row-major.
struct Shape {
  int rows = 0;
  int cols = 0;
};

/// "rows x cols" written compactly, e.g. "4096x4096": table columns and test names.
std::string shape_name(Shape shape);

/// What a benchmark run should measure.
struct Options {
  std::vector<Shape> shapes;   ///< from --sizes (squares) or --rows/--cols
  std::vector<DType> dtypes;   ///< from --dtype
  int reps = 20;               ///< timed repetitions per kernel
  std::string csv_path;        ///< --csv: append result rows here ("" = no CSV)
  bool exercise = false;       ///< --exercise: add the learner's kernel
  double predict = 0;          ///< --predict: the learner's prediction, % of cudaMemcpy (0 = none)
  bool warm_l2 = false;        ///< --warm-l2: skip the L2 flush (to show how a warm cache lies)
  std::uint64_t seed = 2024;   ///< input data seed
  std::vector<std::string> kernels;  ///< --kernels: only these kernels, by name (empty = all)
};

/// A program's own option that takes whole numbers, e.g. step 09's `--gpus 2,4`.
struct IntListOption {
  std::string flag;         ///< e.g. "--gpus"
  std::string help;         ///< one line for --help
  std::vector<int>* values;  ///< filled when the flag is given (left as it is otherwise: the default)
  int min = 1;              ///< every value must lie in [min, max]
  int max = 1 << 20;
};

/// What a program accepts and what it measures by default.
struct CliSpec {
  std::string description;               ///< first line of --help
  std::vector<int> default_sizes;        ///< squares measured without --sizes/--rows/--cols
  std::vector<DType> default_dtypes = {DType::f32};
  bool exercise_flag = false;            ///< offer --exercise and --predict
  std::string predict_of = "cudaMemcpy";  ///< what --predict is a % of (step 09: the all-to-all's speed)
  bool timing_flags = true;              ///< offer --reps, --csv and --warm-l2
  bool kernels_flag = false;             ///< offer --kernels (a subset of the kernels, by name)
  std::vector<IntListOption> int_lists;  ///< the program's own options (comma-separated numbers)
};

/// Thrown by parse_cli when --help was asked for; what() is the help text.
class HelpRequested : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses the command line. Throws tp::UsageError with a one-line message for bad input
/// (unknown flag, non-positive or non-numeric size, unknown dtype, --rows without --cols, ...),
/// and tp::HelpRequested for --help.
Options parse_cli(const CliSpec& spec, int argc, const char* const* argv);

}  // namespace tp
