#include "gpu-runner/wait_trace.h"

#include <sys/mman.h>

#include <set>
#include <sstream>

namespace gpu {

namespace {

// Barriers a thread can wait in; arrivals go on.
bool blocks(const litmus::Instr& in) {
  using litmus::BarOp;
  if (in.op != litmus::Opcode::Bar) return false;
  return in.barOp == BarOp::Sync || in.barOp == BarOp::RedPopc || in.barOp == BarOp::RedAnd ||
         in.barOp == BarOp::RedOr || in.barOp == BarOp::ClusterWait;
}

// Labels that a branch after them jumps to: the heads of the thread's loops.
std::set<std::string> loopHeads(const litmus::Thread& t) {
  std::set<std::string> seen, heads;
  for (const litmus::Instr& in : t.code) {
    if (in.op == litmus::Opcode::Label) seen.insert(in.target);
    if (in.op == litmus::Opcode::Bra && seen.count(in.target)) heads.insert(in.target);
  }
  return heads;
}

std::string lineOf(const litmus::Instr& in) {
  return in.loc.line > 0 ? " (line " + std::to_string(in.loc.line) + ")" : "";
}

}  // namespace

WaitSites waitSites(const litmus::Test& test) {
  WaitSites s;
  s.names = {"", "finished", "the start barrier (harness)", "pre-stress and the spin barrier (harness)",
             "the test's code, before any of its waits",
             "the end-of-thread waits (harness: mbarrier phases, bulk groups, late copies)",
             "the join for the shared results (harness)"};
  for (size_t t = 0; t < test.threads.size(); ++t) {
    const auto& code = test.threads[t].code;
    const std::set<std::string> heads = loopHeads(test.threads[t]);
    for (size_t i = 0; i < code.size(); ++i) {
      std::string name;
      if (code[i].op == litmus::Opcode::Label && heads.count(code[i].target)) {
        size_t k = i + 1;  // the loop's first instruction names it
        while (k < code.size() && code[k].op == litmus::Opcode::Label) ++k;
        name = code[i].target + ":" + (k < code.size() ? " " + code[k].text + lineOf(code[k]) : "");
      } else if (blocks(code[i])) {
        name = code[i].text + lineOf(code[i]);
      } else {
        continue;
      }
      s.ids[{static_cast<int>(t), i}] = static_cast<uint32_t>(s.names.size());
      s.names.push_back(name);
    }
  }
  return s;
}

WaitTrace summarizeTrace(const uint64_t* slots, size_t n, const std::vector<std::string>& threads,
                         const WaitSites& sites) {
  WaitTrace w;
  w.taken = true;
  for (size_t i = 0; i < n; ++i) w.launch = std::max(w.launch, static_cast<uint32_t>(slots[i] >> 32));
  if (w.launch == 0) return w;
  // (thread, site) -> lanes, and the warps (slot / 32) with a lane there
  std::map<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, std::set<size_t>>> at;
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<uint32_t>(slots[i] >> 32) != w.launch) continue;
    auto& e = at[{static_cast<uint32_t>(slots[i] >> 16) & 0xffff, static_cast<uint32_t>(slots[i]) & 0xffff}];
    ++e.first;
    e.second.insert(i / 32);
  }
  for (const auto& [key, e] : at) {
    const auto [thread, site] = key;
    WaitTrace::Row row;
    row.thread = thread < threads.size() ? threads[thread] : "(no thread)";
    row.site = site < sites.names.size() ? sites.names[site] : "site " + std::to_string(site) + " (unknown)";
    row.lanes = e.first;
    row.warps = e.second.size();
    w.rows.push_back(row);
  }
  return w;
}

std::string formatTrace(const WaitTrace& t) {
  if (!t.taken) return "";
  if (t.launch == 0) return "Waits: no testing thread of any launch reached its first trace point\n";
  std::ostringstream os;
  os << "Waits when the watchdog fired (launch " << t.launch
     << "; per litmus thread, warps (lanes) at each site):\n";
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const WaitTrace::Row& r = t.rows[i];
    const bool first = i == 0 || t.rows[i - 1].thread != r.thread;
    os << (first ? "  " + r.thread + ": " : "; ") << r.warps << " (" << r.lanes << ") "
       << (r.site == "finished" ? "" : "at ") << r.site;
    if (i + 1 == t.rows.size() || t.rows[i + 1].thread != r.thread) os << "\n";
  }
  return os.str();
}

TraceRegion::TraceRegion() {
  void* p = mmap(nullptr, bytes(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p != MAP_FAILED) slots_ = static_cast<uint64_t*>(p);
}

TraceRegion::~TraceRegion() {
  if (slots_) munmap(slots_, bytes());
}

}  // namespace gpu
