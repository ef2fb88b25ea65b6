/// @file steps/09_multi_gpu/ranks.hpp
/// @brief Two ways to start one rank per GPU, for step 09's benchmark and tests: threads of
/// this process (NCCL's ncclCommInitAll), or one process per GPU (ncclCommInitRank, the way
/// MPI or torchrun start ranks). The rank's work is the same function either way.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "tp/error.hpp"
#include "tp/nccl.hpp"

namespace tp::step09 {

/// One rank's work: returns 0 on success, an exit status otherwise.
using RankWork = std::function<int(int rank, ncclComm_t comm)>;

namespace detail {
inline int run_rank(int rank, ncclComm_t comm, const RankWork& work) {
  try {
    return work(rank, comm);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    return 1;
  }
}
}  // namespace detail

/// GPUs 0 .. gpus - 1, one thread each, communicators from ncclCommInitAll. A rank that fails
/// leaves the others possibly waiting inside NCCL, so the process then exits at once.
inline int run_threads(int gpus, const RankWork& work) {
  std::vector<ncclComm_t> comms(gpus);
  TP_NCCL_CHECK(ncclCommInitAll(comms.data(), gpus, nullptr));  // devices 0 .. gpus - 1
  std::vector<std::thread> threads;
  std::vector<int> status(gpus, 0);
  for (int r = 0; r < gpus; ++r) {
    threads.emplace_back([&, r] {
      TP_CUDA_CHECK(cudaSetDevice(r));
      status[r] = detail::run_rank(r, comms[r], work);
      if (status[r] != 0) std::_Exit(status[r]);  // the other ranks may never return
    });
  }
  for (std::thread& t : threads) t.join();
  for (ncclComm_t c : comms) TP_NCCL_CHECK(ncclCommDestroy(c));
  return 0;
}

/// run_processes()' exit status when the machine has fewer GPUs than processes (77, the code
/// ctest counts as "skipped").
constexpr int kTooFewGpus = 77;

/// One child process per GPU. The parent touches neither CUDA nor NCCL (a child of a process
/// that did could not use the GPU): rank 0 creates NCCL's unique id and hands it to the
/// others through pipes. If a child fails, the others are stopped. Returns 0 when all pass.
inline int run_processes(int gpus, const RankWork& work) {
  std::vector<int> pipes(2 * gpus);
  for (int r = 0; r < gpus; ++r) {
    if (pipe(&pipes[2 * r]) != 0) throw std::runtime_error("pipe() failed");
  }
  std::vector<pid_t> children;
  for (int r = 0; r < gpus; ++r) {
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork() failed");
    if (pid > 0) {
      children.push_back(pid);
      continue;
    }
    int status = 1;  // the child: rank r on GPU r
    try {
      int devices = 0;
      if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < gpus) {
        std::fprintf(stderr, "rank %d: %d processes need %d GPUs, this machine has %d\n", r, gpus, gpus, devices);
        _exit(kTooFewGpus);
      }
      TP_CUDA_CHECK(cudaSetDevice(r));
      ncclUniqueId id;
      if (r == 0) {
        TP_NCCL_CHECK(ncclGetUniqueId(&id));
        for (int p = 1; p < gpus; ++p) {
          if (write(pipes[2 * p + 1], &id, sizeof id) != ssize_t(sizeof id)) throw std::runtime_error("write() failed");
        }
      } else if (read(pipes[2 * r], &id, sizeof id) != ssize_t(sizeof id)) {
        throw std::runtime_error("rank 0 sent no NCCL id");
      }
      ncclComm_t comm;
      TP_NCCL_CHECK(ncclCommInitRank(&comm, gpus, id, r));
      status = detail::run_rank(r, comm, work);
      TP_NCCL_CHECK(ncclCommDestroy(comm));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rank %d: %s\n", r, e.what());
    }
    std::fflush(nullptr);
    _exit(status);
  }
  for (int fd : pipes) close(fd);
  int failed = 0;
  for (std::size_t done = 0; done < children.size(); ++done) {
    int status = 0;
    if (wait(&status) < 0) break;
    if (failed == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {  // the first to fail says why
      failed = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
      for (pid_t c : children) kill(c, SIGTERM);  // the others would wait for it forever
    }
  }
  return failed;
}

}  // namespace tp::step09
