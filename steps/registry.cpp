// The registry's list of steps (steps/registry.hpp); each step's kernels are in its kernels.cu.
#include "registry.hpp"

#include <utility>

namespace tp::registry {

Kernel in_tour(Kernel k) {
  k.in_tour = true;
  return k;
}

Kernel headline(const std::vector<Kernel>& step) {
  for (const Kernel& k : step) {
    if (k.in_tour) return k;
  }
  return step.front();
}

std::vector<Kernel> versus_previous(const std::vector<Kernel>& previous, std::vector<Kernel> current) {
  current.insert(current.begin(), headline(previous));
  return current;
}

std::vector<Kernel> all() {
  std::vector<Kernel> kernels;
  for (auto step : {step00(), step01(), step02(), step03(), step04(), step05(), step06(), step07(), step08()}) {
    for (Kernel& k : step) kernels.push_back(std::move(k));
  }
  return kernels;
}

}  // namespace tp::registry
