// CUDA C++ versions of two pattern-library families (litmus/patterns/families.py): the TMA
// pipeline and the warp-specialized pipeline, each with the bugs its family seeds. The
// synchronization is inline PTX in the style of CUTLASS (cutlass/arch/barrier.h): scoped wait
// loops, roles from shfl.sync and elect.sync, barrier addresses computed from a shared base.
//
// tests/extract/pipelines.ptx is what `nvcc -ptx -arch sm_90a` (CUDA 13.0) makes of this file;
// tests/extract/check.sh extracts each kernel and compares the verdict with the pattern's.
#include <cstdint>

namespace {

constexpr int kStages = 2;
constexpr uint32_t kStageBytes = 16;

// The bugs, as in families.py; one kernel per variant.
enum Bug {
  kNone,
  kNoExpectTx,         // the last fill announces no bytes
  kNoEmptyWait,        // refill without waiting for the consumers
  kWrongParity,        // the consumers' last wait on the previous phase's parity
  kConsumerNoRelease,  // the last consumer warp never releases a stage
  kNoConsumerProxyFence,  // release without fence.proxy.async
  kEmptyCount1,        // empty counts one consumer warp's release, not all
  kRelaxedWait,        // the consumer's waits are .relaxed: they acquire nothing
  kRelaxedArrive,      // the consumer's releases are .relaxed: they release nothing
};

__device__ __forceinline__ uint32_t smem(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void init(uint64_t* bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(bar)), "r"(count));
}

template <bool relaxed = false>
__device__ __forceinline__ void wait(uint64_t* bar, uint32_t parity) {
  if (relaxed)
    asm volatile(
        "{\n\t.reg .pred P1;\n\t"
        "LAB_WAIT:\n\t"
        "mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 P1, [%0], %1;\n\t"
        "@P1 bra DONE;\n\t"
        "bra LAB_WAIT;\n\t"
        "DONE:\n\t}" ::"r"(smem(bar)),
        "r"(parity)
        : "memory");
  else
    asm volatile(
        "{\n\t.reg .pred P1;\n\t"
        "LAB_WAIT:\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
        "@P1 bra DONE;\n\t"
        "bra LAB_WAIT;\n\t"
        "DONE:\n\t}" ::"r"(smem(bar)),
        "r"(parity)
        : "memory");
}

__device__ __forceinline__ void arriveExpectTx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(bar)), "r"(bytes) : "memory");
}

template <bool relaxed = false>
__device__ __forceinline__ void arrive(uint64_t* bar) {
  if (relaxed) asm volatile("mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [%0];" ::"r"(smem(bar)) : "memory");
  else asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(bar)) : "memory");
}

__device__ __forceinline__ void copy(void* dst, const void* src, uint32_t bytes, uint64_t* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(smem(dst)),
               "l"(src), "r"(bytes), "r"(smem(bar))
               : "memory");
}

__device__ __forceinline__ bool electOne() {
  uint32_t pred = 0;
  asm volatile("{\n\t.reg .pred P;\n\telect.sync _|P, 0xffffffff;\n\tselp.u32 %0, 1, 0, P;\n\t}" : "=r"(pred));
  return pred != 0;
}

// The pipeline's shared storage, in dynamic shared memory: the barriers first, then the stages.
struct Storage {
  uint64_t full[kStages];
  uint64_t empty[kStages];
  alignas(16) uint32_t stage[kStages][kStageBytes / 4];
};

// The producer: fills the stages by bulk copies, waiting for a stage's release before refilling it.
template <Bug bug>
__device__ void produce(Storage& s, const uint32_t* in, int tiles) {
  for (int k = 0; k < tiles; ++k) {
    const int i = k % kStages, n = k / kStages;
    if (n > 0 && bug != kNoEmptyWait) wait(&s.empty[i], (n - 1) & 1);
    if (bug == kNoExpectTx && k == tiles - 1) arrive(&s.full[i]);
    else arriveExpectTx(&s.full[i], kStageBytes);
    copy(s.stage[i], in + 4 * k, kStageBytes, &s.full[i]);
  }
}

// A consumer: waits for each stage, reads it, checks it against the input and releases it.
template <Bug bug>
__device__ void consume(Storage& s, const uint32_t* in, int tiles, bool releases) {
  for (int k = 0; k < tiles; ++k) {
    const int i = k % kStages, n = k / kStages;
    uint32_t parity = n & 1;
    if (bug == kWrongParity && k == tiles - 1) parity ^= 1;
    wait<bug == kRelaxedWait>(&s.full[i], parity);
    if (s.stage[i][0] != in[4 * k]) __trap();
    if (k + kStages < tiles && releases) {
      if (bug != kNoConsumerProxyFence) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      arrive<bug == kRelaxedArrive>(&s.empty[i]);
    }
  }
}

template <Bug bug>
__device__ void initBarriers(Storage& s, uint32_t consumers) {
  for (int i = 0; i < kStages; ++i) {
    init(&s.full[i], 1);
    init(&s.empty[i], bug == kEmptyCount1 ? 1 : consumers);
  }
}

// Warp 0 produces (its elected lane); lane 0 of warps 1..consumers consumes, one arrival per
// consumer warp on `empty`. The other lanes only take part in __syncthreads: a lane that waited
// for a stage without taking part in its release could fall two phases behind and wait forever
// (the extraction of an earlier version of this file showed that hang).
template <Bug bug>
__device__ void pipeline(const uint32_t* in, int tiles, int consumers) {
  extern __shared__ __align__(128) unsigned char shared[];
  Storage& s = *reinterpret_cast<Storage*>(shared);
  const int warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  if (warp == 0 && electOne()) initBarriers<bug>(s, consumers);
  __syncthreads();
  if (warp == 0) {
    if (electOne()) produce<bug>(s, in, tiles);
  } else if (threadIdx.x % 32 == 0) {
    consume<bug>(s, in, tiles, !(bug == kConsumerNoRelease && warp == consumers));
  }
}

// The TMA pipeline whose other consumer lanes wait for each stage too, as a CUTLASS warpgroup's
// threads do, without taking part in its release: under the PTX model such a lane can fall two
// phases behind and wait forever. `litmus extract` shows that hang with --no-lockstep; by default
// the lanes run in lockstep with lane 0 (docs/extract.md, E7) and the test terminates.
__device__ void waitingLanes(const uint32_t* in, int tiles) {
  extern __shared__ __align__(128) unsigned char shared[];
  Storage& s = *reinterpret_cast<Storage*>(shared);
  const int warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
  if (warp == 0 && electOne()) initBarriers<kNone>(s, 1);
  __syncthreads();
  if (warp == 0) {
    if (electOne()) produce<kNone>(s, in, tiles);
    return;
  }
  for (int k = 0; k < tiles; ++k) {
    const int i = k % kStages, n = k / kStages;
    wait(&s.full[i], n & 1);
    if (threadIdx.x % 32 != 0) continue;
    if (s.stage[i][0] != in[4 * k]) __trap();
    if (k + kStages < tiles) {
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      arrive(&s.empty[i]);
    }
  }
}

// The same pipeline within one warp: lane 0 produces, every other lane consumes (launch with
// 1 + consumers threads). Identical consumers are what `litmus extract` merges, so the check
// compares this kernel's test with and without merging.
template <Bug bug>
__device__ void lanePipeline(const uint32_t* in, int tiles) {
  extern __shared__ __align__(128) unsigned char shared[];
  Storage& s = *reinterpret_cast<Storage*>(shared);
  const int consumers = blockDim.x - 1;
  if (threadIdx.x == 0) initBarriers<bug>(s, consumers);
  __syncthreads();
  if (threadIdx.x == 0) produce<bug>(s, in, tiles);
  else consume<bug>(s, in, tiles, !(bug == kConsumerNoRelease && threadIdx.x == consumers));
}

}  // namespace

// The TMA pipeline: one consumer warp (launch with 64 threads).
extern "C" __global__ void tma_pipeline(const uint32_t* in, int tiles) { pipeline<kNone>(in, tiles, 1); }
extern "C" __global__ void tma_pipeline_no_expect_tx(const uint32_t* in, int tiles) { pipeline<kNoExpectTx>(in, tiles, 1); }
extern "C" __global__ void tma_pipeline_no_empty_wait(const uint32_t* in, int tiles) { pipeline<kNoEmptyWait>(in, tiles, 1); }
extern "C" __global__ void tma_pipeline_wrong_parity(const uint32_t* in, int tiles) { pipeline<kWrongParity>(in, tiles, 1); }
extern "C" __global__ void tma_pipeline_consumer_no_release(const uint32_t* in, int tiles) {
  pipeline<kConsumerNoRelease>(in, tiles, 1);
}
extern "C" __global__ void tma_pipeline_no_consumer_proxy_fence(const uint32_t* in, int tiles) {
  pipeline<kNoConsumerProxyFence>(in, tiles, 1);
}
extern "C" __global__ void tma_pipeline_relaxed_wait(const uint32_t* in, int tiles) { pipeline<kRelaxedWait>(in, tiles, 1); }
extern "C" __global__ void tma_pipeline_relaxed_arrive(const uint32_t* in, int tiles) { pipeline<kRelaxedArrive>(in, tiles, 1); }

extern "C" __global__ void tma_pipeline_waiting_lanes(const uint32_t* in, int tiles) { waitingLanes(in, tiles); }

// Warp specialization: two consumer warps (launch with 96 threads).
extern "C" __global__ void warp_specialized(const uint32_t* in, int tiles) { pipeline<kNone>(in, tiles, 2); }
extern "C" __global__ void warp_specialized_no_expect_tx(const uint32_t* in, int tiles) { pipeline<kNoExpectTx>(in, tiles, 2); }
extern "C" __global__ void warp_specialized_no_empty_wait(const uint32_t* in, int tiles) { pipeline<kNoEmptyWait>(in, tiles, 2); }
extern "C" __global__ void warp_specialized_wrong_parity(const uint32_t* in, int tiles) { pipeline<kWrongParity>(in, tiles, 2); }
extern "C" __global__ void warp_specialized_consumer_no_release(const uint32_t* in, int tiles) {
  pipeline<kConsumerNoRelease>(in, tiles, 2);
}
extern "C" __global__ void warp_specialized_no_consumer_proxy_fence(const uint32_t* in, int tiles) {
  pipeline<kNoConsumerProxyFence>(in, tiles, 2);
}
extern "C" __global__ void warp_specialized_empty_count_1(const uint32_t* in, int tiles) {
  pipeline<kEmptyCount1>(in, tiles, 2);
}

// One warp: lane 0 produces, the other lanes consume.
extern "C" __global__ void lane_pipeline(const uint32_t* in, int tiles) { lanePipeline<kNone>(in, tiles); }
extern "C" __global__ void lane_pipeline_no_expect_tx(const uint32_t* in, int tiles) { lanePipeline<kNoExpectTx>(in, tiles); }
extern "C" __global__ void lane_pipeline_no_empty_wait(const uint32_t* in, int tiles) { lanePipeline<kNoEmptyWait>(in, tiles); }
extern "C" __global__ void lane_pipeline_wrong_parity(const uint32_t* in, int tiles) { lanePipeline<kWrongParity>(in, tiles); }
extern "C" __global__ void lane_pipeline_consumer_no_release(const uint32_t* in, int tiles) {
  lanePipeline<kConsumerNoRelease>(in, tiles);
}
extern "C" __global__ void lane_pipeline_no_consumer_proxy_fence(const uint32_t* in, int tiles) {
  lanePipeline<kNoConsumerProxyFence>(in, tiles);
}
extern "C" __global__ void lane_pipeline_empty_count_1(const uint32_t* in, int tiles) { lanePipeline<kEmptyCount1>(in, tiles); }
