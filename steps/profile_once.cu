// profile_once: launches every registered kernel (and cuBLAS) exactly once per case, with no
// timing, flushing or verification kernels in between, so that a profiler sees one launch per
// kernel. scripts/profile.sh runs it under Nsight Compute and
// matches the profiler's rows to the "launch," lines this program prints, in order.
// lab_profile_once (built with -DTP_LAB=ON) is the same program with all the lab's kernels
// after the main line's (steps/extra_kernels.hpp).
//
//   ncu --clock-control none -o report build/bin/profile_once --sizes 8192 --dtype float,half
//   ... profile_once --sizes 11584 --dtype half --kernels copy_vec16,coarsen   (a subset, by name)
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "extra_kernels.hpp"
#include "references.cuh"
#include "registry.hpp"

int main(int argc, char** argv) {
  return tp::guarded_main([&] {
    tp::CliSpec spec;
    spec.description = "Launch every registered kernel once per case (for Nsight Compute)";
    spec.default_sizes = {8192};
    spec.default_dtypes = {tp::DType::f32, tp::DType::f16};
    spec.timing_flags = false;
    spec.kernels_flag = true;
    const tp::Options options = tp::parse_cli(spec, argc, argv);
    tp::require_device();
    TP_CUDA_CHECK(cudaSetDevice(0));
    const tp::DeviceInfo device = tp::query_device(0);
    const tp::references::Libraries libraries;
    std::vector<tp::Kernel> kernels = tp::registry::all();
#ifdef TP_EXTRA_KERNELS
    for (tp::Kernel& k : tp::extra::kernels()) kernels.push_back(std::move(k));  // lab_profile_once
#endif
    for (tp::Kernel& k : libraries.kernels()) kernels.push_back(std::move(k));
    kernels = tp::registry::only_named(std::move(kernels), options.kernels);

    // Machine-readable lines for scripts/profile.sh: the device, then one line per launch.
    std::printf("device,%s,%s,%s,%s,%s\n", device.name.c_str(), device.cc().c_str(),
                device.cuda().c_str(), tp::git_sha(), device.slug().c_str());
    for (tp::DType dtype : options.dtypes) {
      for (tp::Shape shape : options.shapes) {
        tp::Case c(dtype, shape, options.seed);
        for (const tp::Kernel& k : kernels) {
          // In place: squares only. A rectangle in place is several launches (its passes), and
          // profile.sh matches one profiled kernel to each line printed here.
          if (!k.supports(dtype) || (k.op == tp::Op::transpose_inplace && shape.rows != shape.cols)) continue;
          c.launch(k, nullptr);
          TP_CUDA_CHECK(cudaDeviceSynchronize());
          std::printf("launch,%s,%s,%s,%d,%d\n", k.step.c_str(), k.name.c_str(),
                      tp::dtype_name(dtype).c_str(), shape.rows, shape.cols);
        }
      }
    }
    return 0;
  });
}
