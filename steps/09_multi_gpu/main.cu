// 09_multi_gpu: the transpose across GPUs beside NCCL's all-to-all of the same blocks (our
// baseline). First the parts of the pipelined version alone: its chunks' exchanges (and the
// exchanges of the other chunk counts, 1 included), the ranks' check alone, its local work
// (every pack and place, no exchange; and its packs and places apart);
// then the all-to-all and the local work at once with no dependency (and each one's own time
// while the other ran), and the all-to-all beside two stand-ins for the local work: one that
// holds the SMs without touching memory, one that streams DRAM from few SMs (neighbours.cuh);
// and the pipelined schedule with its exchanges timed inside it (and the 1-chunk one), a plan
// whose events that the caller's stream waits for are created without timing, and one call of
// step09::transpose (a plan made, checked and run per call). Then the planned transposes: one
// exchange after transposing while packing (1 chunk), and pipelined (4 chunks; --chunks for
// others); --kernels runs some versions only. One thread per GPU, or one process per GPU with
// --processes N. The comparison and CSV come from rank 0; times are the slowest rank's.
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "09_multi_gpu/exercise.cuh"
#include "09_multi_gpu/kernel.cuh"
#include "09_multi_gpu/neighbours.cuh"
#include "09_multi_gpu/ranks.hpp"
#include "09_multi_gpu/shards.hpp"
#include "tp/buffer.hpp"
#include "tp/cli.hpp"
#include "tp/data.hpp"
#include "tp/device.hpp"
#include "tp/report.hpp"
#include "tp/timing.hpp"

namespace {

using namespace tp;
using tp::step09::Layout;

struct Settings {
  Options options;
  std::vector<int> gpus;                         // --gpus: GPU counts, one measurement each
  std::vector<int> chunks = {step09::kChunks};   // --chunks: the pipelined versions
  std::vector<int> processes;                    // --processes N: one process per GPU instead
};

constexpr int kAlltoall = 0, kExercise = -1, kLocalWork = -2, kBothAtOnce = -3, kExchanges = -4, kCheck = -5,
              kPacks = -6, kPlaces = -7, kBesideSpin = -8, kBesideStream = -9, kPipelinedTimed = -10,
              kLocalWorkOneChunk = -11, kOneCall = -12, kUntimedEvents = -13;
constexpr int kStreamPasses = 3;  // the DRAM stand-in copies the shard 3 times: it outlasts the all-to-all

struct Version {
  std::string name;
  int chunks;                   // the transpose's chunks, or one of the constants above
  int count = step09::kChunks;  // the chunks of kExchanges, kPipelinedTimed and kUntimedEvents
  bool transposes() const {
    return chunks > 0 || chunks == kExercise || timed() || chunks == kOneCall || chunks == kUntimedEvents;
  }
  bool timed() const { return chunks == kPipelinedTimed; }
  bool beside() const { return chunks == kBothAtOnce || chunks == kBesideSpin || chunks == kBesideStream; }
};

std::vector<Version> versions(const Settings& s) {
  std::vector<Version> v = {{"nccl_alltoall", kAlltoall}, {"exchanges", kExchanges},
                            {"exchanges_one_chunk", kExchanges, 1}, {"check", kCheck},
                            {"local_work", kLocalWork}, {"local_work_one_chunk", kLocalWorkOneChunk},
                            {"packs", kPacks}, {"places", kPlaces},
                            {"both_at_once", kBothAtOnce}, {"beside_spin", kBesideSpin},
                            {"beside_stream", kBesideStream}, {"pipelined_timed", kPipelinedTimed},
                            {"one_chunk_timed", kPipelinedTimed, 1},
                            {"pipelined_untimed_events", kUntimedEvents}, {"one_call", kOneCall},
                            {"one_chunk", 1}};
  for (int c : s.chunks) {  // the exchanges alone at the other chunk counts asked for
    if (c != step09::kChunks && c != 1) v.push_back({"exchanges_" + std::to_string(c), kExchanges, c});
  }
  for (int c : s.chunks) v.push_back({c == step09::kChunks ? "pipelined" : "pipelined_" + std::to_string(c), c});
  if (s.options.exercise) v.push_back({"exercise", kExercise});
  const std::vector<std::string>& only = s.options.kernels;  // --kernels: these, after the all-to-all
  for (const std::string& name : only) {
    if (std::none_of(v.begin(), v.end(), [&](const Version& x) { return x.name == name; })) {
      std::string known;
      for (const Version& x : v) known += (known.empty() ? "" : ", ") + x.name;
      throw UsageError("--kernels: no version is named '" + name + "' (the versions: " + known +
                       (s.options.exercise ? "" : "; 'exercise' with --exercise") + ")");
    }
  }
  if (only.empty()) return v;
  std::vector<Version> kept;
  for (const Version& x : v) {
    if (x.chunks == kAlltoall || std::find(only.begin(), only.end(), x.name) != only.end()) kept.push_back(x);
  }
  return kept;
}


/// NCCL's all-to-all of the bytes the transpose exchanges, from `in` as they are into `to`.
template <typename T>
void alltoall(T* to, const T* in, const Layout& l, ncclComm_t comm, cudaStream_t stream) {
  if (l.rows % l.ranks == 0 && l.cols % l.ranks == 0) {  // even blocks: ncclAlltoAll, as bytes
    const std::size_t bytes = std::size_t(l.in_rows() * l.cols) * sizeof(T) / l.ranks;
    TP_NCCL_CHECK(ncclAlltoAll(in, to, bytes, ncclUint8, comm, stream));
  } else {  // uneven: the same pieces as one chunk of the transpose
    step09::send_receive(to, in, Layout{l.rows, l.cols, l.ranks, l.rank, 1}, 0, comm, stream);
  }
}

/// The local work of `pipelined` alone: every pack and place of its chunks, no exchange (the
/// received pieces are placed as the buffer holds them); or only its packs, or only its places;
/// or, with chunks = 1, the local work of `one_chunk`.
template <typename T>
void local_work(T* out, const T* in, const Layout& l, cudaStream_t stream, bool packs = true, bool places = true,
                int chunks = step09::kChunks) {
  const Layout lk{l.rows, l.cols, l.ranks, l.rank, chunks};
  step09::Staging<T> staging(lk, stream);
  for (int k = 0; k < lk.chunks; ++k) {
    T* send = staging.send(k % lk.buffers());
    if (packs) step09::pack(send, in, lk, k, stream);
    if (places) {
      step09::place_own(out, send, lk, k, stream);
      step09::place_received(out, staging.recv(k % lk.buffers()), lk, k, stream);
    }
  }
}

/// The two parts' own times inside `both_at_once`, which time_work times together: an event
/// at the start and one at the end of each part, read at the next run, once they have fired.
class PartClocks {
 public:
  PartClocks() {
    for (cudaEvent_t* e : {&start_, &end_[0], &end_[1]}) TP_CUDA_CHECK(cudaEventCreate(e));
  }
  ~PartClocks() {
    for (cudaEvent_t e : {start_, end_[0], end_[1]}) cudaEventDestroy(e);
  }
  PartClocks(const PartClocks&) = delete;
  PartClocks& operator=(const PartClocks&) = delete;

  void start(cudaStream_t stream) {
    read();
    TP_CUDA_CHECK(cudaEventRecord(start_, stream));
  }
  /// Part 0 (the all-to-all) or 1 (the local work) is done once `stream` gets here.
  void done(int part, cudaStream_t stream) {
    TP_CUDA_CHECK(cudaEventRecord(end_[part], stream));
    pending_ = true;
  }
  /// Part `part`'s statistics over the last `reps` runs (the timed ones).
  Stats stats(int part, int reps) {
    read();
    const std::vector<double>& all = samples_[part];
    return summarize(std::vector<double>(all.end() - reps, all.end()));
  }

 private:
  void read() {
    if (!pending_) return;
    for (int part = 0; part < 2; ++part) {
      float ms = 0;
      TP_CUDA_CHECK(cudaEventSynchronize(end_[part]));
      TP_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, end_[part]));
      samples_[part].push_back(ms);
    }
    pending_ = false;
  }
  cudaEvent_t start_ = nullptr, end_[2] = {nullptr, nullptr};
  std::vector<double> samples_[2];
  bool pending_ = false;
};

/// The exchanges of `pipelined` alone: its chunks' all-to-alls one after the other, no local
/// work (the send buffers are sent as they are); with chunks = 1, the exchange of `one_chunk`.
template <typename T>
void exchanges(const Layout& l, ncclComm_t comm, cudaStream_t stream, int chunks = step09::kChunks) {
  const Layout lk{l.rows, l.cols, l.ranks, l.rank, chunks};
  step09::Staging<T> staging(lk, stream);
  for (int k = 0; k < lk.chunks; ++k) {
    step09::send_receive(staging.recv(k % lk.buffers()), staging.send(k % lk.buffers()), lk, k, comm, stream);
  }
}

/// The exchanges' own times inside `pipelined_timed`: an event at the transpose's start on the
/// caller's stream, and one before and one after each chunk's exchange on the exchange stream,
/// read at the next run. A run's samples: the sum over its chunks (the time the exchange stream
/// spent exchanging), and each exchange's start and end from the transpose's start (its timeline).
class ExchangeClocks {
 public:
  explicit ExchangeClocks(int chunks) : start_(chunks), end_(chunks), starts_(chunks), ends_(chunks) {
    TP_CUDA_CHECK(cudaEventCreate(&begin_));
    for (int k = 0; k < chunks; ++k) {
      TP_CUDA_CHECK(cudaEventCreate(&start_[k]));
      TP_CUDA_CHECK(cudaEventCreate(&end_[k]));
    }
  }
  ~ExchangeClocks() {
    cudaEventDestroy(begin_);
    for (std::size_t k = 0; k < start_.size(); ++k) {
      cudaEventDestroy(start_[k]);
      cudaEventDestroy(end_[k]);
    }
  }
  ExchangeClocks(const ExchangeClocks&) = delete;
  ExchangeClocks& operator=(const ExchangeClocks&) = delete;

  void begin(cudaStream_t caller) {
    read();
    TP_CUDA_CHECK(cudaEventRecord(begin_, caller));
  }
  void start(int k, cudaStream_t side) { TP_CUDA_CHECK(cudaEventRecord(start_[k], side)); }
  void end(int k, cudaStream_t side) {
    TP_CUDA_CHECK(cudaEventRecord(end_[k], side));
    pending_ = true;
  }
  /// Statistics of the sums over the last `reps` runs (the timed ones).
  Stats stats(int reps) {
    read();
    return summarize(std::vector<double>(samples_.end() - reps, samples_.end()));
  }
  /// Statistics of exchange k's start (or end) from the transpose's start, over the last `reps` runs.
  Stats at(int k, bool end, int reps) {
    read();
    const std::vector<double>& v = end ? ends_[k] : starts_[k];
    return summarize(std::vector<double>(v.end() - reps, v.end()));
  }

 private:
  void read() {
    if (!pending_) return;
    double sum = 0;
    for (std::size_t k = 0; k < start_.size(); ++k) {
      float from = 0, to = 0;
      TP_CUDA_CHECK(cudaEventSynchronize(end_[k]));
      TP_CUDA_CHECK(cudaEventElapsedTime(&from, begin_, start_[k]));
      TP_CUDA_CHECK(cudaEventElapsedTime(&to, begin_, end_[k]));
      starts_[k].push_back(from);
      ends_[k].push_back(to);
      sum += to - from;
    }
    samples_.push_back(sum);
    pending_ = false;
  }
  cudaEvent_t begin_ = nullptr;
  std::vector<cudaEvent_t> start_, end_;
  std::vector<double> samples_;
  std::vector<std::vector<double>> starts_, ends_;
  bool pending_ = false;
};

/// The buffers and the exchange stream of `pipelined_timed`, kept from run to run as a plan
/// keeps them.
template <typename T>
struct Pipeline {
  Pipeline(const Layout& l, cudaStream_t stream) : staging(l, stream) {}
  step09::Staging<T> staging;  // allocated and freed on the caller's stream
  step09::SideStream side;
};

/// `pipelined` (or, with chunks = 1, `one_chunk`) with its exchanges timed: the loop of
/// step09::Plan::run on `p`'s buffers and stream, with an event before and after each exchange
/// (none without `clocks`). An exchange's start event fires when its stream reaches it: when
/// its pack and the exchange before it are done.
template <typename T>
void pipelined_timed(T* out, const T* in, const Layout& l, ncclComm_t comm, cudaStream_t stream,
                     ExchangeClocks* clocks, Pipeline<T>& p) {
  if (clocks != nullptr) clocks->begin(stream);
  for (int k = 0; k < l.chunks; ++k) {
    T* send = p.staging.send(k % l.buffers());
    step09::pack(send, in, l, k, stream);
    p.side.after(stream);
    if (clocks != nullptr) clocks->start(k, p.side.get());
    step09::send_receive(p.staging.recv(k % l.buffers()), send, l, k, comm, p.side.get());
    if (clocks != nullptr) clocks->end(k, p.side.get());
    p.side.exchanged(k);
    step09::place_own(out, send, l, k, stream);
    if (k > 0) {
      p.side.wait_exchanged(stream, k - 1);
      step09::place_received(out, p.staging.recv((k - 1) % l.buffers()), l, k - 1, stream);
    }
  }
  p.side.wait_exchanged(stream, l.chunks - 1);
  step09::place_received(out, p.staging.recv((l.chunks - 1) % l.buffers()), l, l.chunks - 1, stream);
}

/// The second part beside the all-to-all: the local work, or one of its stand-ins (the spinning
/// one for `cover_ms`, about as long as the all-to-all alone took).
template <typename T>
void neighbour(const Version& v, T* out, const T* in, const Layout& l, double cover_ms, cudaStream_t stream) {
  if (v.chunks == kBothAtOnce) return local_work(out, in, l, stream);
  if (v.chunks == kBesideSpin) return step09::neighbours::hold_sms(cover_ms, stream);
  const std::size_t bytes = std::min(l.in_rows() * l.cols, l.out_rows() * l.rows) * sizeof(T) / 16 * 16;
  step09::neighbours::stream_from_few_sms(out, in, bytes, kStreamPasses, stream);
}

/// Enqueues one run of version `v` on this rank (`clocks`: where the versions beside the
/// all-to-all time their parts; `cover_ms`: the all-to-all's time alone).
template <typename T>
void run(const Version& v, T* out, const T* in, const Layout& l, ncclComm_t comm, cudaStream_t stream,
         step09::Plan<T>* plan, Pipeline<T>* pipeline, PartClocks* clocks = nullptr, double cover_ms = 0,
         ExchangeClocks* exchange_clocks = nullptr) {
  if (v.chunks > 0) return plan->run(stream);
  if (v.chunks == kOneCall) return step09::transpose(out, in, int(l.rows), int(l.cols), comm, stream);
  if (v.chunks == kUntimedEvents) return plan->run(stream);
  if (v.timed()) {
    const Layout lk{l.rows, l.cols, l.ranks, l.rank, v.count};
    return pipelined_timed(out, in, lk, comm, stream, exchange_clocks, *pipeline);
  }
  if (v.chunks == kExercise) return step09::exercise::transpose(out, in, int(l.rows), int(l.cols), comm, stream);
  if (v.chunks == kLocalWork) return local_work(out, in, l, stream);
  if (v.chunks == kLocalWorkOneChunk) return local_work(out, in, l, stream, true, true, 1);
  if (v.chunks == kPacks) return local_work(out, in, l, stream, true, false);
  if (v.chunks == kPlaces) return local_work(out, in, l, stream, false, true);
  if (v.chunks == kExchanges) return exchanges<T>(l, comm, stream, v.count);
  if (v.chunks == kCheck) {  // the ranks' check that every transpose begins with, alone
    step09::agree(out, in, l.rows, l.cols, step09::kChunks, comm, stream);
    return;
  }
  if (v.chunks == kAlltoall) return alltoall(out, in, l, comm, stream);
  // Beside: the all-to-all (into a buffer of its own, on the high-priority stream) and the local
  // work (or a stand-in) at the same time, with no dependency: as much overlap as the GPU gives.
  if (clocks != nullptr) clocks->start(stream);
  const Layout one{l.rows, l.cols, l.ranks, l.rank, 1};
  step09::Staging<T> spare(one, stream);  // its receive buffer holds out_rows x rows
  step09::SideStream side;
  side.after(stream);
  alltoall(spare.recv(0), in, l, comm, side.get());
  if (clocks != nullptr) clocks->done(0, side.get());
  side.exchanged(0);
  neighbour(v, out, in, l, cover_ms, stream);
  if (clocks != nullptr) clocks->done(1, stream);
  side.wait_exchanged(stream, 0);
}

/// `values` replaced by their maximum (or sum) over the ranks.
void over_ranks(std::vector<double>& values, ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream) {
  DeviceBuffer d(values.size() * sizeof(double));
  d.upload(values.data(), d.bytes());
  TP_NCCL_CHECK(ncclAllReduce(d.data(), d.data(), values.size(), ncclDouble, op, comm, stream));
  TP_CUDA_CHECK(cudaStreamSynchronize(stream));
  d.download(values.data(), d.bytes());
}

/// One rank's part of one case (dtype, shape): every version verified, then timed.
template <typename T>
bool measure(const Settings& s, Shape shape, int rank, ncclComm_t comm, CsvWriter* csv) {
  int ranks = 0;
  TP_NCCL_CHECK(ncclCommCount(comm, &ranks));
  const Layout l{shape.rows, shape.cols, ranks, rank, 1};
  const DeviceInfo device = query_device(rank);
  cudaStream_t stream;
  TP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  DeviceBuffer in(std::size_t(l.in_rows() * l.cols) * sizeof(T)), out(std::size_t(l.out_rows() * l.rows) * sizeof(T));
  in.upload(step09::input_block<T>(l, s.options.seed).data(), in.bytes());
  const std::vector<T> expected = step09::expected_block<T>(l, s.options.seed);
  std::vector<T> got(expected.size());
  L2Flusher flusher(device.l2_bytes);

  const std::size_t bytes = 2 * std::size_t(shape.rows) * shape.cols * sizeof(T);  // the whole matrix, read and written
  Table table({"version", "ms", "GB/s", "% of all-to-all", "x previous", "verified"});
  double alltoall_ms = 0, previous_ms = 0;
  bool all_ok = true;
  for (const Version& v : versions(s)) {
    std::unique_ptr<step09::Plan<T>> plan;  // the transposes: planned once, outside the timed runs
    if (v.chunks > 0 || v.chunks == kUntimedEvents) {
      plan = std::make_unique<step09::Plan<T>>(out.as<T>(), in.as<T>(), shape.rows, shape.cols, comm, stream,
                                               v.chunks > 0 ? v.chunks : v.count,
                                               v.chunks > 0 ? cudaEventDefault : cudaEventDisableTiming);
    }
    std::unique_ptr<Pipeline<T>> pipeline;  // pipelined_timed's buffers and stream, kept as a plan keeps them
    if (v.timed()) pipeline = std::make_unique<Pipeline<T>>(Layout{l.rows, l.cols, l.ranks, rank, v.count}, stream);
    out.poison(stream);
    run(v, out.as<T>(), in.as<T>(), l, comm, stream, plan.get(), pipeline.get(), nullptr, alltoall_ms);
    TP_CUDA_CHECK(cudaStreamSynchronize(stream));
    out.download(got.data(), out.bytes());
    const CompareResult check = compare_bits(expected.data(), got.data(), l.out_rows(), l.rows);
    std::vector<double> wrong = {double(check.mismatches)};
    over_ranks(wrong, ncclSum, comm, stream);
    const bool verified = v.transposes() && wrong[0] == 0;  // the parts alone do not transpose
    if (v.transposes() && !verified) {
      all_ok = false;
      std::fprintf(stderr, "rank %d, %s: %s\n", rank, v.name.c_str(), check.describe().c_str());
    }
    PartClocks clocks;
    ExchangeClocks exchange_clocks(v.count);
    const Stats mine = time_work(
        [&](cudaStream_t st) {
          run(v, out.as<T>(), in.as<T>(), l, comm, st, plan.get(), pipeline.get(), &clocks, alltoall_ms,
              &exchange_clocks);
        },
        stream, s.options.reps, s.options.warm_l2 ? nullptr : &flusher, 2);
    // One row of the table and the CSV: the slowest rank's times.
    auto report = [&](const std::string& name, const Stats& stats) {
      std::vector<double> ms = {stats.median_ms, stats.min_ms, stats.max_ms};
      over_ranks(ms, ncclMax, comm, stream);
      if (v.chunks == kAlltoall) alltoall_ms = ms[0];
      if (rank == 0) {
        table.add_row({name, format("%.3f", ms[0]), format("%.0f", bytes / ms[0] / 1e6),
                       format("%.1f", 100 * alltoall_ms / ms[0]),
                       v.transposes() && previous_ms > 0 ? format("%.2f", previous_ms / ms[0]) : "",
                       !v.transposes() ? "-" : verified ? "yes" : "NO"});
        if (csv != nullptr) {
          CsvRow row{device.name, device.cc(), device.cuda(), git_sha(), v.chunks == kAlltoall ? "ref" : "09_multi_gpu",
                     name, dtype_name(dtype_of<T>()), shape.rows, shape.cols, static_cast<long long>(bytes),
                     stats.reps, ms[0], ms[1], ms[2], bytes / ms[0] / 1e6, 100 * alltoall_ms / ms[0], verified};
          csv->write(row, std::to_string(ranks));
        }
      }
      return ms[0];
    };
    const double ms = report(v.name, mine);
    if (v.beside()) {  // each part's own time while the other ran
      report(v.name + "_alltoall", clocks.stats(0, mine.reps));
      report(v.name + (v.chunks == kBothAtOnce ? "_local" : "_neighbour"), clocks.stats(1, mine.reps));
    }
    if (v.timed()) {
      report(v.name + "_exchanges", exchange_clocks.stats(mine.reps));
      for (int k = 0; k < v.count; ++k) {  // the timeline: each exchange's start and end
        report(v.name + "_exchange" + std::to_string(k) + "_start", exchange_clocks.at(k, false, mine.reps));
        report(v.name + "_exchange" + std::to_string(k) + "_end", exchange_clocks.at(k, true, mine.reps));
      }
    }
    if (v.chunks > 0 || v.chunks == kExercise) previous_ms = ms;
    if (rank == 0 && v.chunks == kExercise && s.options.predict > 0) {
      std::printf("your prediction: %.1f%% of the all-to-all's speed; measured %.1f%%\n", s.options.predict,
                  100 * alltoall_ms / ms);
    }
  }
  if (rank == 0) {
    std::printf("\n%s %d x %d on %d GPUs (%s); %% of all-to-all = its time / this time\n%s",
                dtype_name(dtype_of<T>()).c_str(), shape.rows, shape.cols, ranks, device.name.c_str(),
                table.render().c_str());
    std::fflush(stdout);
  }
  TP_CUDA_CHECK(cudaStreamDestroy(stream));
  return all_ok;
}

/// Every case on one set of ranks; returns the rank's exit status.
int measure_all(const Settings& s, int rank, ncclComm_t comm) {
  // Keep the staging memory in the pool between calls, as a long-running program would.
  cudaMemPool_t pool;
  TP_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, rank));
  std::uint64_t keep = UINT64_MAX;
  TP_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  std::unique_ptr<CsvWriter> csv;
  if (rank == 0 && !s.options.csv_path.empty()) csv = std::make_unique<CsvWriter>(s.options.csv_path, "gpus");  // and the number of GPUs
  bool ok = true;
  for (DType t : s.options.dtypes) {
    for (Shape shape : s.options.shapes) {
      if (rank == 0) std::fprintf(stderr, "%s %d x %d: verifying and timing\n", dtype_name(t).c_str(), shape.rows, shape.cols);
      dispatch(t, [&](auto tag) { ok = measure<decltype(tag)>(s, shape, rank, comm, csv.get()) && ok; });
    }
  }
  return ok ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  CliSpec spec;
  spec.description = "Step 09: a transpose across GPUs (NCCL) beside NCCL's all-to-all of the same bytes";
  spec.default_sizes = {16384};
  spec.exercise_flag = true;
  spec.kernels_flag = true;  // --kernels: some versions only (the all-to-all always runs: the baseline)
  spec.predict_of = "the all-to-all's speed (its time / yours)";
  spec.int_lists = {{"--gpus", "GPU counts to measure, comma separated (default: all GPUs)", &s.gpus, 1, 64},
                    {"--chunks", "chunk counts of the pipelined version (default 4)", &s.chunks, 1, 1024},
                    {"--processes", "N: one process per GPU on GPUs 0 .. N-1, instead of threads", &s.processes, 1, 64}};
  try {
    s.options = parse_cli(spec, argc, argv);
    versions(s);  // an unknown name in --kernels fails here, before any GPU work
    if (!s.processes.empty()) {  // the parent must not touch the GPU before it forks
      if (s.processes.size() != 1 || s.processes[0] < 2) throw UsageError("--processes takes one count of at least 2");
      return step09::run_processes(s.processes[0], [&](int rank, ncclComm_t comm) { return measure_all(s, rank, comm); });
    }
    const int devices = device_count();
    if (s.gpus.empty()) s.gpus = {devices};
    int status = 0;
    for (int g : s.gpus) {
      if (g < 2 || g > devices) {
        throw UsageError("--gpus " + std::to_string(g) + ": this machine has " + std::to_string(devices) +
                         " GPUs; step 09 needs at least 2");
      }
      status |= step09::run_threads(g, [&](int rank, ncclComm_t comm) { return measure_all(s, rank, comm); });
    }
    return status;
  } catch (const HelpRequested& h) {
    std::printf("%s", h.what());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
