#include <doctest/doctest.h>

#include "checker/checker.h"
#include "litmus/parse.h"
#include "semantics/semantics.h"
#include "tests/semantics/value_with.h"

namespace {

litmus::Test yaml(const std::string& text) { return litmus::parseYaml(text, "inline.yaml"); }

const char* kFailedCas = R"(name: cas-fail
locations: {x: 3}
threads:
  P0:
    code: |
      atom.relaxed.gpu.global.cas.b32 %r0, [x], 5, 7;
condition: exists (P0:r0 == 3)
)";

}  // namespace

// Decision (docs/model.md): a failed atom.cas still writes, as the ISA's semantics block says
// (`*a = operation(*a, b, c)`): the write puts back the value it read.
TEST_CASE("a failed cas is a read and a write of the old value") {
  const litmus::Test t = yaml(kFailedCas);
  const model::Program p = model::buildProgram(t);
  const auto dom = model::valueDomain(p, 2);
  const auto traces = model::enumerateTraces(p, 0, dom, 2).traces;
  REQUIRE(traces.size() == 1);
  const auto& ev = traces[0].events;
  REQUIRE(ev.size() == 2);
  CHECK(ev[0].kind == model::EventKind::Read);
  CHECK(ev[1].kind == model::EventKind::Write);
  CHECK(valueWith(traces[0], traces[0].vals[1], dom) == 3);  // the read returns 3
  CHECK(traces[0].rmw.size() == 1);
}

TEST_CASE("atom halves: acquire on the read, release on the write; red never acquires") {
  const litmus::Test t = yaml(R"(name: halves
locations: {x: 0}
threads:
  P0:
    code: |
      atom.acq_rel.gpu.global.add.u32 %r0, [x], 1;
      red.release.gpu.global.add.u32 [x], 1;
condition: exists (x == 2)
)");
  const model::Program p = model::buildProgram(t);
  const auto traces = model::enumerateTraces(p, 0, {{0}}, 2).traces;
  REQUIRE(traces.size() == 1);
  const auto& ev = traces[0].events;
  REQUIRE(ev.size() == 4);
  CHECK((ev[0].sem == litmus::Sem::Acquire));
  CHECK((ev[1].sem == litmus::Sem::Release));
  CHECK(ev[2].red);
  CHECK((ev[2].sem == litmus::Sem::Relaxed));
  CHECK((ev[3].sem == litmus::Sem::Release));
}

TEST_CASE("volatile is relaxed.sys; shared memory caps the scope at the cluster") {
  const litmus::Test t = yaml(R"(name: lowering
locations: {x: 0, s: {space: shared}}
threads:
  P0:
    code: |
      st.volatile.global.u32 [x], 1;
      st.relaxed.sys.shared.u32 [s], 1;
condition: exists (x == 1)
)");
  const model::Program p = model::buildProgram(t);
  const auto ev = model::enumerateTraces(p, 0, {{0}, {0}}, 2).traces.at(0).events;
  CHECK((ev[0].sem == litmus::Sem::Relaxed));
  CHECK((ev[0].scope == litmus::Scope::Sys));
  CHECK((ev[1].scope == litmus::Scope::Cluster));
}

TEST_CASE("the value domain closes over register arithmetic but not thin air") {
  const litmus::Test t = yaml(R"(name: lb-add
locations: {x: 0, y: 0}
threads:
  P0:
    code: |
      ld.global.u32 %r0, [x];
      add.u32 %r1, %r0, 1;
      st.global.u32 [y], %r1;
  P1:
    code: |
      ld.global.u32 %r0, [y];
      st.global.u32 [x], %r0;
condition: exists (P0:r0 == 1)
)");
  const model::Program p = model::buildProgram(t);
  const auto dom = model::valueDomain(p, 2);
  // Chains of at most 2 writes: y gets 1 (from x = 0), x gets 1, y gets 2, and so on, bounded.
  CHECK(dom[1].count(1));
  CHECK(dom[0].size() <= 4);
  // ... yet no consistent execution lets P0 read 1: that would need the cycle rf | dep.
  const auto r = checker::check(t, {});
  CHECK(r.outcome.positive == 0);
  CHECK(r.outcome.negative > 0);
}

TEST_CASE("side-effect-free spin loops are not unrolled; loops that write are bounded") {
  const litmus::Test spin = yaml(R"(name: spin
locations: {f: 0}
threads:
  P0:
    code: |
      st.release.gpu.global.u32 [f], 1;
  P1:
    code: |
      L: ld.acquire.gpu.global.u32 %r0, [f];
      setp.ne.u32 %p, %r0, 1;
      @%p bra L;
condition: exists (P1:r0 == 1)
)");
  const auto r = checker::check(spin, {});
  CHECK_FALSE(r.bounded);
  CHECK(r.outcome.states.size() == 1);
  CHECK(r.outcome.positive == 1);
}
