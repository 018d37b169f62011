// Generated from gpu-runner/self-test/*.yaml by tests/gpu/self_test_data_test.cpp; do not edit.
// Regenerate with UPDATE_GOLDEN=1 build/unit_tests -tc='*self-test*' (gpu-runner/self_test.h).
#include "gpu-runner/self_test.h"

namespace gpu {

const std::vector<SelfTestSource>& selfTestSources() {
  static const std::vector<SelfTestSource> all = {
      {"gpu-runner/self-test/DSMEM-MP+barrier.cluster.yaml", R"yaml(name: self.DSMEM-MP+barrier.cluster
description: "Two CTAs of one cluster (a cluster launch): P0 stores into CTA 1's shared memory through mapa, both pass barrier.cluster, P1 reads 1."
locations:
  x: {space: shared, cta: 1}
threads:
  P0:
    cta: 0
    cluster: 0
    code: |
      mapa.shared::cluster.u32 %a, x, 1;
      st.shared::cluster.u32 [%a], 1;
      barrier.cluster.arrive;
      barrier.cluster.wait;
  P1:
    cta: 1
    cluster: 0
    code: |
      barrier.cluster.arrive;
      barrier.cluster.wait;
      ld.shared.u32 %r0, [x];
observe: [P1:r0, x]
condition: 'exists (P1:r0 == 1 /\ x == 1)'
)yaml"},
      {"gpu-runner/self-test/MP+bar.sync+branch.yaml", R"yaml(name: self.MP+bar.sync+branch
description: "Message passing through bar.sync with a branch after it: barriers and branches run one instance per warp (warp mode). P1 reads 1, takes the branch and skips the mov."
locations:
  x: 0
threads:
  P0:
    cta: 0
    code: |
      st.global.u32 [x], 1;
      bar.sync 0;
  P1:
    cta: 0
    code: |
      bar.sync 0;
      ld.global.u32 %r0, [x];
      setp.eq.u32 %p, %r0, 1;
      @%p bra DONE;
      mov.u32 %r1, 9;
      DONE:
      add.u32 %r2, %r1, 2;
observe: [P1:r0, P1:r1, P1:r2]
condition: 'exists (P1:r0 == 1 /\ P1:r1 == 0 /\ P1:r2 == 2)'
)yaml"},
      {"gpu-runner/self-test/MP+bar.sync.yaml", R"yaml(name: self.MP+bar.sync
description: "Message passing through bar.sync in one CTA: P1 reads after the barrier, so it reads 1 (CTA barriers: one instance group per block)."
locations:
  x: 0
threads:
  P0:
    cta: 0
    code: |
      st.global.u32 [x], 1;
      bar.sync 0;
  P1:
    cta: 0
    code: |
      bar.sync 0;
      ld.global.u32 %r0, [x];
observe: [P1:r0]
condition: 'exists (P1:r0 == 1)'
)yaml"},
      {"gpu-runner/self-test/MP+bar.warp.sync.yaml", R"yaml(name: self.MP+bar.warp.sync
description: "Two test threads at lanes 0 and 1 of one warp (fixed mode): lane 0 stores, both pass bar.warp.sync, lane 1 loads 1."
locations:
  x: 0
threads:
  P0:
    cta: 0
    warp: 0
    code: |
      st.global.u32 [x], 1;
      bar.warp.sync 3;
  P1:
    cta: 0
    warp: 0
    code: |
      bar.warp.sync 3;
      ld.global.u32 %r0, [x];
observe: [P1:r0]
condition: 'exists (P1:r0 == 1)'
)yaml"},
      {"gpu-runner/self-test/alias.yaml", R"yaml(name: self.alias
description: "A generic alias: one thread stores through x and loads through its alias y (the location buffer mapped twice)."
locations:
  x: 0
  y: {alias-of: x}
threads:
  P0:
    code: |
      st.global.u32 [x], 1;
      fence.proxy.alias;
      ld.global.u32 %r0, [y];
observe: [P0:r0, x]
condition: 'exists (P0:r0 == 1 /\ x == 1)'
)yaml"},
      {"gpu-runner/self-test/atom-one-cta.yaml", R"yaml(name: self.atom-one-cta
description: "Two threads (warps) of one CTA add 1 and 2 to a global and a shared location atomically: both end at 3."
locations:
  x: 0
  s: {space: shared}
threads:
  P0:
    cta: 0
    code: |
      red.global.add.u32 [x], 1;
      red.shared.add.u32 [s], 1;
  P1:
    cta: 0
    code: |
      red.global.add.u32 [x], 2;
      red.shared.add.u32 [s], 2;
observe: [x, s]
condition: 'exists (x == 3 /\ s == 3)'
)yaml"},
      {"gpu-runner/self-test/atom-three-clusters.yaml", R"yaml(name: self.atom-three-clusters
description: "Three threads in three clusters (three roles) add 1, 2 and 4 to x atomically: x ends at 7."
locations:
  x: 0
threads:
  P0:
    cta: 0
    cluster: 0
    code: |
      red.global.add.u32 [x], 1;
  P1:
    cta: 1
    cluster: 1
    code: |
      red.global.add.u32 [x], 2;
  P2:
    cta: 2
    cluster: 2
    code: |
      red.global.add.u32 [x], 4;
observe: [x]
condition: 'exists (x == 7)'
)yaml"},
      {"gpu-runner/self-test/atom-two-ctas.yaml", R"yaml(name: self.atom-two-ctas
description: "Two threads in different CTAs (two roles) each add 1 to x atomically: x ends at 2 in every instance, whichever order. An instance whose threads were paired with another instance's slot would end at 1 or 3 or more."
locations:
  x: 0
threads:
  P0:
    cta: 0
    code: |
      atom.global.add.u32 %r0, [x], 1;
  P1:
    cta: 1
    code: |
      atom.global.add.u32 %r0, [x], 1;
observe: [x]
condition: 'exists (x == 2)'
)yaml"},
      {"gpu-runner/self-test/bulk-copy.yaml", R"yaml(name: self.bulk-copy
description: "One thread copies 16 bytes of global g into shared s with cp.async.bulk completing on an mbarrier; the final state is taken after the copy lands (the runner waits for the phase), so every word of s is 6."
locations:
  g: 6
  s: {space: shared}
  m: {space: shared}
threads:
  P0:
    code: |
      mbarrier.init.shared::cta.b64 [m], 1;
      cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [g], 16, [m];
observe: [s, s+4, s+8, s+12]
condition: 'exists (s == 6 /\ s+4 == 6 /\ s+8 == 6 /\ s+12 == 6)'
)yaml"},
      {"gpu-runner/self-test/laneid.yaml", R"yaml(name: self.laneid
description: "Reading %laneid runs one instance per warp (warp mode), the test thread at lane 0."
locations:
  x: 0
threads:
  P0:
    code: |
      mov.u32 %r0, %laneid;
      st.global.u32 [x], 5;
observe: [P0:r0, x]
condition: 'exists (P0:r0 == 0 /\ x == 5)'
)yaml"},
      {"gpu-runner/self-test/mbarrier-handoff.yaml", R"yaml(name: self.mbarrier-handoff
description: "An mbarrier hand-off made certain by bar.sync: P0 initialises m, stores x, arrives; after the second barrier phase P1's test_wait sees phase 0 complete and its load reads 1."
locations:
  x: 0
  m: {space: shared}
threads:
  P0:
    cta: 0
    code: |
      mbarrier.init.shared.b64 [m], 1;
      bar.sync 0;
      st.global.u32 [x], 1;
      mbarrier.arrive.release.cta.shared.b64 %st, [m];
      bar.sync 0;
  P1:
    cta: 0
    code: |
      bar.sync 0;
      bar.sync 0;
      mbarrier.test_wait.acquire.cta.shared.b64 %p, [m], 0;
      ld.global.u32 %r0, [x];
observe: [P1:p, P1:r0]
condition: 'exists (P1:p == 1 /\ P1:r0 == 1)'
)yaml"},
      {"gpu-runner/self-test/registers.yaml", R"yaml(name: self.registers
description: "Register arithmetic only, in two threads of different CTAs: each result slot is written by its own thread."
locations:
  x: 0
threads:
  P0:
    cta: 0
    code: |
      mov.u32 %r0, 5;
      add.u32 %r1, %r0, 3;
  P1:
    cta: 1
    code: |
      mov.u64 %r0, 7;
      mul.lo.u64 %r1, %r0, 6;
observe: [P0:r1, P1:r1]
condition: 'exists (P0:r1 == 8 /\ P1:r1 == 42)'
)yaml"},
      {"gpu-runner/self-test/st-ld-global.yaml", R"yaml(name: self.st-ld-global
description: "One thread stores and loads its own global location (lane mode, one role): its load reads its store, and the location ends at 1."
locations:
  x: 0
threads:
  P0:
    code: |
      st.global.u32 [x], 1;
      ld.global.u32 %r0, [x];
observe: [P0:r0, x]
condition: 'exists (P0:r0 == 1 /\ x == 1)'
)yaml"},
      {"gpu-runner/self-test/st-ld-shared.yaml", R"yaml(name: self.st-ld-shared
description: "One thread stores and loads a shared location; the final value is copied out of shared memory."
locations:
  x: {space: shared}
threads:
  P0:
    code: |
      st.shared.u32 [x], 3;
      ld.shared.u32 %r0, [x];
observe: [P0:r0, x]
condition: 'exists (P0:r0 == 3 /\ x == 3)'
)yaml"},
  };
  return all;
}

}  // namespace gpu
