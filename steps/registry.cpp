// The registry's list of steps (steps/registry.hpp); each step's kernels are in its kernels.cu.
#include "registry.hpp"

#include <algorithm>
#include <utility>

#include "tp/error.hpp"  // UsageError

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

std::vector<Kernel> only_named(std::vector<Kernel> kernels, const std::vector<std::string>& names) {
  if (names.empty()) return kernels;
  for (const std::string& name : names) {
    const bool known = std::any_of(kernels.begin(), kernels.end(), [&](const Kernel& k) { return k.name == name; });
    if (!known) throw UsageError("--kernels: no kernel is named '" + name + "'");
  }
  kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                               [&](const Kernel& k) { return std::find(names.begin(), names.end(), k.name) == names.end(); }),
                kernels.end());
  return kernels;
}

}  // namespace tp::registry
