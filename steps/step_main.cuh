/// @file steps/step_main.cuh
/// @brief The main of every step's benchmark (steps/NN_name/main.cu): the step's kernels side by
/// side, and with --exercise the learner's kernel as one more row.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "launchers.hpp"
#include "registry.hpp"

namespace tp {

/// Runs bench_main over `kernels` (plus `exercise` when --exercise is given), for the sizes
/// 1024 to 16384 square unless the command line says otherwise. `solution` names the kernel
/// of `kernels` that the exercise rebuilds: --exercise prints the learner's kernel as % of it.
inline int step_main(int argc, char** argv, const std::string& title, std::vector<Kernel> kernels,
                     Kernel exercise, const std::string& solution) {
  CliSpec spec;
  spec.description = title + " (cold L2, median of --reps runs)";
  spec.default_sizes = {1024, 2048, 4096, 8192, 16384};
  spec.exercise_flag = true;
  return bench_main(argc, argv, spec, [&](const Options& options) {
    std::vector<Kernel> list = kernels;
    if (options.exercise) list.push_back(exercise);
    return list;
  }, [&](const Options& options, const std::vector<Measurement>& results) {
    return exercise_note(results, exercise.name, solution, options.predict);
  });
}

}  // namespace tp
