// Element addresses and vector atom/red in the model (docs/model.md D21): every (root location,
// offset) is a location of its own, and a vector atom/red of width n is n RMWs, one per element,
// in element order.
#include <doctest/doctest.h>

#include "checker/checker.h"
#include "litmus/parse.h"
#include "semantics/semantics.h"
#include "tests/semantics/value_with.h"

namespace {

litmus::Test yaml(const std::string& text) { return litmus::parseYaml(text, "inline.yaml"); }

using model::EventKind;

}  // namespace

TEST_CASE("the address table: x+K is a location of its own, an alias y+K is x+K") {
  const litmus::Test t = yaml(R"(name: elements
locations:
  x: {init: [1, 2, 3]}
  z: 9
  y: {alias-of: x}
threads:
  P0:
    code: |
      st.global.u32 [x+4], 5;
      ld.global.u32 %r0, [y+4];
      ld.global.u32 %r1, [z];
condition: exists (x+8 == 3 /\ [y+12] == 0)
)");
  const model::Program p = model::buildProgram(t);
  // the declared locations first, at offset 0, as before; then the elements in first-use order
  REQUIRE(p.vaNames.size() == 7);
  CHECK(p.vaNames[0] == "x");
  CHECK(p.vaNames[2] == "y");
  CHECK(p.vaNames[3] == "x+4");
  CHECK(p.vaNames[4] == "y+4");
  CHECK(p.vaNames[5] == "x+8");
  CHECK(p.vaNames[6] == "y+12");
  REQUIRE(p.locNames.size() == 5);  // x, z, x+4, x+8, x+12
  CHECK(p.locName(0) == "x");
  CHECK(p.locName(1) == "z");
  CHECK(p.locName(2) == "x+4");
  CHECK(p.locName(3) == "x+8");
  CHECK(p.locName(4) == "x+12");
  CHECK(p.locNames[2] == "x");  // the root declaration; the offset is apart
  CHECK(p.locOffset[2] == 4);
  CHECK(p.locInit == std::vector<int64_t>{1, 9, 2, 3, 0});
  CHECK(p.vaLoc[p.vaOf("x+4")] == p.vaLoc[p.vaOf("y+4")]);
  CHECK(p.vaLoc[p.vaOf("x")] == p.vaLoc[p.vaOf("y")]);
  CHECK(p.vaLoc[p.vaOf("x+4")] != p.vaLoc[p.vaOf("x")]);
  CHECK(p.vaDecl[p.vaOf("y+4")] == 2);
  CHECK(p.vaOf("x+16") == -1);
  CHECK(p.vaOf("w") == -1);

  const auto dom = model::valueDomain(p, 2);
  const auto tr = model::enumerateTraces(p, 0, dom, 2).traces;
  // the store to x+4 and the load of y+4 touch one location through two virtual addresses
  const auto& ev = tr.at(0).events;
  CHECK(ev[0].loc == 2);
  CHECK(ev[1].loc == 2);
  CHECK(ev[0].va == 0);  // Event::va is the declared name used, Event::offset the element
  CHECK(ev[1].va == 2);
  CHECK(ev[0].offset == 4);
  CHECK(ev[1].offset == 4);
  CHECK(ev[2].offset == 0);
  CHECK(ev[2].loc == 1);
}

TEST_CASE("a v2 atom is two RMWs on two locations, in element order") {
  const litmus::Test t = yaml(R"(name: v2
locations: {x: {init: [0x3F800000, 0x40000000]}}
threads:
  P0:
    code: |
      atom.acq_rel.gpu.global.v2.f32.add {%a, %b}, [x], {1.0, 0.5};
condition: exists (P0:a == 0)
)");
  const model::Program p = model::buildProgram(t);
  const int x0 = p.vaLoc[p.vaOf("x")], x4 = p.vaLoc[p.vaOf("x+4")];
  CHECK(x0 != x4);
  model::Domain dom(p.locNames.size());
  dom[x0] = {0x3F800000};  // 1.0
  dom[x4] = {0x40000000};  // 2.0
  const auto traces = model::enumerateTraces(p, 0, dom, 2).traces;
  REQUIRE(traces.size() == 1);
  const auto& tr = traces[0];
  REQUIRE(tr.events.size() == 4);
  CHECK(tr.events[0].kind == EventKind::Read);
  CHECK(tr.events[1].kind == EventKind::Write);
  CHECK(tr.events[2].kind == EventKind::Read);
  CHECK(tr.events[3].kind == EventKind::Write);
  CHECK(tr.events[0].loc == x0);
  CHECK(tr.events[1].loc == x0);
  CHECK(tr.events[2].loc == x4);
  CHECK(tr.events[3].loc == x4);
  CHECK(tr.rmw == std::vector<std::pair<int, int>>{{0, 1}, {2, 3}});
  for (int i = 0; i < 4; ++i) CHECK(tr.events[i].po == i);
  CHECK(valueWith(tr, tr.vals[1], dom) == 0x40000000);  // 1.0 + 1.0
  CHECK(valueWith(tr, tr.vals[3], dom) == 0x40200000);  // 2.0 + 0.5
  // each element is split like a scalar atom: acquire reads, release writes
  CHECK((tr.events[0].sem == litmus::Sem::Acquire));
  CHECK((tr.events[2].sem == litmus::Sem::Acquire));
  CHECK((tr.events[1].sem == litmus::Sem::Release));
  CHECK((tr.events[3].sem == litmus::Sem::Release));
  CHECK(tr.events[0].atomic);
  // a write depends on its own element's read only
  CHECK(tr.dep == std::vector<std::pair<int, int>>{{0, 1}, {2, 3}});
  const auto& info = p.threads[0];
  CHECK(valueWith(tr, tr.regVals[info.regId.at("a")], dom) == 0x3F800000);
  CHECK(valueWith(tr, tr.regVals[info.regId.at("b")], dom) == 0x40000000);
}

TEST_CASE("vector red, half and packed lanes") {
  const litmus::Test t = yaml(R"(name: lanes
locations:
  h: {init: {0: 0x3C00, 2: 0x4000, 4: 0x7E00, 6: 0x8000}}
  p: {init: [0x4400C000]}
threads:
  P0:
    init: {q: 0x40003800}
    code: |
      red.global.v4.f16.max.noftz [h], {1.5, 1.0, 2.0, 0};
      atom.global.v2.f16x2.min.noftz {%a, %b}, [p], {%q, %q};
condition: exists (P0:a == 0)
)");
  const model::Program p = model::buildProgram(t);
  model::Domain dom(p.locNames.size());  // every read returns the initial value
  for (size_t l = 0; l < dom.size(); ++l) dom[l] = {p.locInit[l]};
  const auto traces = model::enumerateTraces(p, 0, dom, 2).traces;
  REQUIRE(traces.size() == 1);
  const auto& ev = traces[0].events;
  REQUIRE(ev.size() == 12);
  CHECK(ev[0].red);
  CHECK(ev[0].loc == p.vaLoc[p.vaOf("h")]);
  CHECK(ev[2].loc == p.vaLoc[p.vaOf("h+2")]);
  CHECK(ev[6].loc == p.vaLoc[p.vaOf("h+6")]);
  CHECK(valueWith(traces[0], traces[0].vals[1], dom) == 0x3E00);  // max(1.0, 1.5)
  CHECK(valueWith(traces[0], traces[0].vals[3], dom) == 0x4000);  // max(2.0, 1.0)
  CHECK(valueWith(traces[0], traces[0].vals[5], dom) == 0x4000);  // max(NaN, 2.0) = 2.0
  CHECK(valueWith(traces[0], traces[0].vals[7], dom) == 0x0000);  // max(-0.0, +0.0) = +0.0
  // .f16x2: two lanes per 32-bit element; p+4 starts at 0
  CHECK(ev[8].loc == p.vaLoc[p.vaOf("p")]);
  CHECK(ev[10].loc == p.vaLoc[p.vaOf("p+4")]);
  CHECK(valueWith(traces[0], traces[0].vals[9], dom) == 0x4000C000);   // lanes: low min(-2.0, 0.5), high min(4.0, 2.0)
  CHECK(valueWith(traces[0], traces[0].vals[11], dom) == 0x00000000);  // min(0, 0.5), min(0, 2.0)
  CHECK(valueWith(traces[0], traces[0].regVals[p.threads[0].regId.at("a")], dom) == 0x4400C000);
}

TEST_CASE("two v2 atoms add twice on each element; elements interleave") {
  const litmus::Test t = yaml(R"(name: twice
locations: {x: 0}
threads:
  P0:
    code: |
      atom.global.v2.f32.add {%a, %b}, [x], {1.0, 1.0};
  P1:
    code: |
      atom.global.v2.f32.add {%a, %b}, [x], {1.0, 1.0};
condition: exists (x == 0x40000000 /\ x+4 == 0x40000000 /\ P0:a == 0 /\ P0:b == 0x3F800000)
)");
  const auto r = checker::check(t, {});
  // every execution ends with both elements at 2.0; P0 first on element 0, second on element 1
  CHECK(r.outcome.positive > 0);
  CHECK(r.outcome.states.size() == 4);
  for (const auto& s : r.outcome.states) {
    CHECK(s.values[0] == 0x40000000);
    CHECK(s.values[1] == 0x40000000);
  }
}

// docs/model.md D21 (refining D10): a location's values come from chains of writes to the locations
// that feed it, so two 4-element vector atoms give each element the values of two additions, not
// of eight.
TEST_CASE("the value domain is bounded per location by the writes that can feed it") {
  const litmus::Test t = yaml(R"(name: v4
locations: {x: 0, y: 0}
threads:
  P0:
    code: |
      atom.global.v4.f16.add.noftz {%a, %b, %c, %d}, [x], {1.0, 2.0, 3.0, 0.5};
      ld.global.u32 %r, [y];
      add.u32 %s, %r, 1;
      st.global.u32 [y], %s;
  P1:
    code: |
      atom.global.v4.f16.add.noftz {%a, %b, %c, %d}, [x], {1.0, 2.0, 3.0, 0.5};
      ld.global.u32 %r, [y];
      add.u32 %s, %r, 1;
      st.global.u32 [y], %s;
condition: exists (x == 0)
)");
  const model::Program p = model::buildProgram(t);
  const auto dom = model::valueDomain(p, 2);
  using V = std::set<int64_t>;
  CHECK(dom[p.vaLoc[p.vaOf("x")]] == V{0, 0x3C00, 0x4000});     // 0, 1.0, 2.0
  CHECK(dom[p.vaLoc[p.vaOf("x+2")]] == V{0, 0x4000, 0x4400});   // 0, 2.0, 4.0
  CHECK(dom[p.vaLoc[p.vaOf("x+6")]] == V{0, 0x3800, 0x3C00});   // 0, 0.5, 1.0
  CHECK(dom[p.vaLoc[p.vaOf("y")]] == V{0, 1, 2});               // two increments at most
  const auto r = checker::check(t, {});
  CHECK(r.outcome.positive == 0);
}
