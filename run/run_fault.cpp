// A launch that faults (docs/gpu-runner.md, "Faults"): the driver's error says only that the kernel
// died (CUDA_ERROR_LAUNCH_FAILED, 719, with no instruction), and the context is gone, so nothing
// can be read back from the GPU. What the runner can say comes from the model: it asks for the
// mbarrier state each arrival finds. An arrival on a phase with no arrival pending (or fewer than
// its count) is one the ISA does not define (an mbarrier's pending count is the arrivals still
// expected in the current phase, §9.7.13.15.1-2; more arrivals than that are undefined behaviour,
// docs/findings.md F5); the H100 and H200 kill the kernel on it.
#include <algorithm>
#include <map>
#include <sstream>

#include "checker/checker.h"
#include "base/error.h"
#include "litmus/parse.h"
#include "litmus/ptx_format.h"
#include "run/run.h"

namespace runcli {

namespace {

using litmus::Instr;
using litmus::MbarOp;

// An arrival the probe watches: thread t's instruction i, whose state before the arrival the
// probe's register `reg` (pending count) holds, and the arrivals it makes.
struct Watched {
  size_t thread = 0, instr = 0;
  std::string reg;
  int64_t count = 1;
};

// A pending count's register before its arrival runs (a count is never negative).
constexpr int64_t kNotReached = -1;

bool localArrive(const Instr& in) {
  return in.op == litmus::Opcode::Mbarrier && (in.mbarOp == MbarOp::Arrive || in.mbarOp == MbarOp::ArriveDrop) &&
         in.space != litmus::Space::SharedCluster && in.args.size() >= 2;
}

// A backward branch (a wait loop, or any loop) of thread code jumps to the end instead: a thread
// that would wait forever stops. The model lists final states only of executions that finish, and
// an arrival that finds no arrival pending usually makes a waiter hang; in the probe that waiter
// gives up, and its execution is listed. A failed iteration of a wait loop changes nothing (D19),
// so the probe's executions up to an arrival are those of the test: it names no arrival the test
// cannot make. (Barriers count a thread that ended as arrived, D25: in a test whose thread gives
// up a wait before a barrier, another may pass that barrier in the probe only.)
std::vector<Instr> loopsEnd(const std::vector<Instr>& code, const litmus::SourceLoc& loc) {
  std::map<std::string, size_t> labels;
  for (size_t i = 0; i < code.size(); ++i)
    if (code[i].op == litmus::Opcode::Label) labels[code[i].target] = i;
  std::vector<Instr> out = code;
  for (size_t i = 0; i < out.size(); ++i) {
    const auto at = labels.find(out[i].target);
    if (out[i].op != litmus::Opcode::Bra || at == labels.end() || at->second > i) continue;
    out[i].target = "FLT_END";
    out[i].text = litmus::formatInstr(out[i]);
  }
  out.push_back(litmus::parseInstruction("FLT_END:", loc, litmus::Dialect::Ptx));
  return out;
}

// The probe: the test with every local arrival's state kept in a register and its pending count
// read from it, and a condition that names those counts (so the model lists their values).
litmus::Test probeOf(const litmus::Test& test, std::vector<Watched>& watched) {
  litmus::Test probe = test;
  for (size_t t = 0; t < probe.threads.size(); ++t) {
    std::vector<Instr> code;
    for (const Instr& in : test.threads[t].code) {
      code.push_back(in);
      if (!localArrive(in)) continue;
      const std::string n = std::to_string(watched.size());
      std::string state = "flt_s" + n;
      if (in.args[0].kind == litmus::Operand::Kind::Reg && in.args[0].name != "_") state = in.args[0].name;
      else code.back().args[0] = litmus::parseInstruction("mov.b64 %" + state + ", 0", in.loc, litmus::Dialect::Ptx).args[0];
      code.back().text = litmus::formatInstr(code.back());
      code.push_back(litmus::parseInstruction("mbarrier.pending_count.b64 %flt_p" + n + ", %" + state, in.loc,
                                              litmus::Dialect::Ptx));
      int64_t count = 1;
      if (!in.expectTx && in.args.size() > 2 && in.args[2].kind == litmus::Operand::Kind::Imm) count = in.args[2].imm;
      watched.push_back({t, static_cast<size_t>(&in - test.threads[t].code.data()), "flt_p" + n, count});
      probe.threads[t].initRegs["flt_p" + n] = kNotReached;
    }
    probe.threads[t].code = loopsEnd(code, test.threads[t].loc);
  }
  if (watched.empty()) return probe;
  std::string cond;
  for (const Watched& w : watched)
    cond += (cond.empty() ? "" : " \\/ ") + probe.threads[w.thread].name + ":" + w.reg + " == 0";
  probe.observed.clear();
  probe.expect = litmus::Expect::None;
  probe.liveness.clear();
  litmus::parseFinalCondition("exists (" + cond + ")", test.conditionLoc, probe);
  litmus::validate(probe);
  return probe;
}

}  // namespace

bool launchFault(const gpu::RunResult& r) {
  return r.status == gpu::RunStatus::Error &&
         (r.message.find("CUDA_ERROR_LAUNCH_FAILED") != std::string::npos ||
          r.message.find("CUDA_ERROR_ILLEGAL_INSTRUCTION") != std::string::npos ||
          r.message.find("CUDA_ERROR_ILLEGAL_ADDRESS") != std::string::npos ||
          r.message.find("CUDA_ERROR_MISALIGNED_ADDRESS") != std::string::npos ||
          r.message.find("CUDA_ERROR_HARDWARE_STACK_ERROR") != std::string::npos);
}

Fault diagnoseFault(const litmus::Test& test, double timeoutSeconds) {
  Fault f;
  std::vector<Watched> watched;
  litmus::Outcome out;
  try {
    const litmus::Test probe = probeOf(test, watched);
    if (watched.empty()) {
      f.summary = "the test has no mbarrier arrival that could over-arrive; the fault's instruction is unknown";
      return f;
    }
    checker::Options opt;
    opt.timeoutSeconds = timeoutSeconds;
    out = checker::check(probe, opt).outcome;
  } catch (const litmus::Error& e) {
    f.summary = std::string("the model cannot say which instruction faulted: ") + e.what();
    return f;
  }
  if (out.status != litmus::Status::Done) {
    f.summary = "the model cannot say which instruction faulted: " + out.statusDetail;
    return f;
  }
  for (size_t k = 0; k < watched.size(); ++k) {
    const Watched& w = watched[k];
    int64_t least = -1;  // the fewest pending arrivals this arrival finds in an allowed state
    for (const litmus::State& s : out.states)
      if (k < s.values.size() && s.values[k] != kNotReached && (least < 0 || s.values[k] < least)) least = s.values[k];
    if (least < 0 || least >= w.count) continue;
    const litmus::Thread& th = test.threads[w.thread];
    const Instr& in = th.code[w.instr];
    FaultSite site;
    site.thread = th.name;
    site.instruction = litmus::shownText(in);
    site.line = in.loc.line;
    site.pending = least;
    site.count = w.count;
    f.sites.push_back(site);
  }
  if (f.sites.empty()) {
    f.summary = "in no execution of the model does an mbarrier arrival find fewer pending arrivals than it "
                "makes; the fault's instruction is unknown (not undefined behaviour the model knows of)";
    return f;
  }
  f.undefined = true;
  std::ostringstream os;
  for (const FaultSite& s : f.sites)
    os << (&s == &f.sites.front() ? "" : "; ") << s.thread << "'s '" << s.instruction << "' (line " << s.line
       << ") can arrive when its phase has " << s.pending << " arrival" << (s.pending == 1 ? "" : "s")
       << " pending, fewer than its " << s.count << (s.pending == 0 ? " (or before its mbarrier.init is visible)" : "");
  f.summary = os.str() + ": more arrivals than a phase expects, and arrivals on an mbarrier not initialised, are "
                         "undefined in the ISA (§9.7.13.15), the likely fault";
  return f;
}

nlohmann::ordered_json faultJson(const Fault& f) {
  nlohmann::ordered_json j;
  j["undefined"] = f.undefined;
  j["summary"] = f.summary;
  j["sites"] = nlohmann::ordered_json::array();
  for (const FaultSite& s : f.sites)
    j["sites"].push_back({{"thread", s.thread}, {"instruction", s.instruction}, {"line", s.line},
                          {"pending", s.pending}, {"count", s.count}});
  return j;
}

}  // namespace runcli
