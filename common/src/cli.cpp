#include "tp/cli.hpp"

#include <CLI/CLI.hpp>

#include <climits>
#include <string>
#include <vector>

#include "tp/error.hpp"

namespace tp {
namespace {

// A positive matrix dimension, or a UsageError that quotes the offending text.
int parse_dimension(const std::string& flag, const std::string& text) {
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw UsageError(flag + ": '" + text + "' is not a whole number");
  }
  if (value <= 0 || value > INT_MAX) {
    throw UsageError(flag + ": " + text + " is out of range (1 to " + std::to_string(INT_MAX) + ")");
  }
  return static_cast<int>(value);
}

std::string join_dtype_names() {
  std::string s;
  for (DType t : kAllDTypes) s += dtype_name(t) + "|";
  return s + "all";
}

}  // namespace

std::string shape_name(Shape shape) {
  return std::to_string(shape.rows) + "x" + std::to_string(shape.cols);
}

Options parse_cli(const CliSpec& spec, int argc, const char* const* argv) {
  CLI::App app{spec.description};
  app.allow_extras(false);

  std::vector<std::string> sizes, dtypes;
  std::string rows, cols;
  Options options;
  std::string default_sizes, default_dtypes;
  for (int n : spec.default_sizes) default_sizes += (default_sizes.empty() ? "" : ",") + std::to_string(n);
  for (DType t : spec.default_dtypes) default_dtypes += (default_dtypes.empty() ? "" : ",") + dtype_name(t);
  app.add_option("--sizes", sizes, "sizes, comma separated: N for N x N, RxC for R rows and C columns (default " + default_sizes + ")")
      ->delimiter(',')
      ->allow_extra_args(false);
  auto* rows_opt = app.add_option("--rows", rows, "rows of one rectangular shape (with --cols)");
  auto* cols_opt = app.add_option("--cols", cols, "columns of one rectangular shape (with --rows)");
  app.add_option("--dtype", dtypes, "element type(s): " + join_dtype_names() + ", comma separated (default " + default_dtypes + ")")
      ->delimiter(',')
      ->allow_extra_args(false);
  app.add_option("--seed", options.seed, "seed of the input data");
  if (spec.timing_flags) {
    app.add_option("--reps", options.reps, "timed repetitions per kernel (median, min, max)")
        ->capture_default_str();
    app.add_option("--csv", options.csv_path, "append one CSV row per result to this file");
    app.add_flag("--warm-l2", options.warm_l2,
                 "do not flush L2 between repetitions (for comparison only: inflates GB/s for "
                 "matrices that fit in L2)");
  }
  if (spec.exercise_flag) {
    app.add_flag("--exercise", options.exercise, "also run your kernel from exercise.cuh");
    app.add_option("--predict", options.predict,
                   "with --exercise: your prediction for your kernel, % of " + spec.predict_of + ", printed "
                   "beside the measurement");
  }
  if (spec.kernels_flag) {
    app.add_option("--kernels", options.kernels, "only these kernels, by name, comma separated (default: all)")
        ->delimiter(',')
        ->allow_extra_args(false);
  }

  std::vector<std::vector<std::string>> int_texts(spec.int_lists.size());
  for (std::size_t i = 0; i < spec.int_lists.size(); ++i) {
    app.add_option(spec.int_lists[i].flag, int_texts[i], spec.int_lists[i].help)->delimiter(',')->allow_extra_args(false);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    throw HelpRequested(app.help());
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }

  if (rows_opt->count() != cols_opt->count()) throw UsageError("--rows and --cols go together");
  if (!sizes.empty() && rows_opt->count()) throw UsageError("use either --sizes or --rows/--cols, not both");
  if (options.reps < 1 || options.reps > 100000) throw UsageError("--reps must be between 1 and 100000");
  if (spec.exercise_flag && app.count("--predict")) {
    if (!options.exercise) throw UsageError("--predict goes with --exercise (it is a prediction for your kernel)");
    if (!(options.predict > 0 && options.predict <= 1000)) {
      throw UsageError("--predict is a % of " + spec.predict_of + ": a number above 0 and at most 1000");
    }
  }

  for (std::size_t i = 0; i < spec.int_lists.size(); ++i) {
    const IntListOption& option = spec.int_lists[i];
    if (int_texts[i].empty()) continue;
    option.values->clear();
    for (const std::string& text : int_texts[i]) {
      const int value = parse_dimension(option.flag, text);
      if (value < option.min || value > option.max) {
        throw UsageError(option.flag + ": " + text + " is out of range (" + std::to_string(option.min) + " to " +
                         std::to_string(option.max) + ")");
      }
      option.values->push_back(value);
    }
  }

  if (rows_opt->count()) {
    options.shapes.push_back({parse_dimension("--rows", rows), parse_dimension("--cols", cols)});
  }
  for (const std::string& s : sizes) {
    const std::size_t x = s.find('x');
    if (x == std::string::npos) {
      const int n = parse_dimension("--sizes", s);  // "N": a square
      options.shapes.push_back({n, n});
    } else {                                        // "RxC": a rectangle
      options.shapes.push_back({parse_dimension("--sizes", s.substr(0, x)),
                                parse_dimension("--sizes", s.substr(x + 1))});
    }
  }
  if (options.shapes.empty()) {
    for (int n : spec.default_sizes) options.shapes.push_back({n, n});
  }

  for (const std::string& d : dtypes) {
    if (d == "all") {
      options.dtypes.assign(kAllDTypes.begin(), kAllDTypes.end());
      break;
    }
    options.dtypes.push_back(parse_dtype(d));
  }
  if (options.dtypes.empty()) options.dtypes = spec.default_dtypes;
  return options;
}

}  // namespace tp
