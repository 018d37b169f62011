// The verdicts and report of `litmus run`: the observed histogram next to what the model allows.
#include <algorithm>
#include <cstdio>
#include <ostream>

#include "checker/checker.h"
#include "run/run.h"
#include "schema/record.h"

namespace runcli {

namespace {

using Json = nlohmann::ordered_json;

std::string rate(double count, double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g/s", seconds > 0 ? count / seconds : 0.0);
  return buf;
}

bool listed(const Model& m, const litmus::State& s) {
  return std::binary_search(m.allowed.begin(), m.allowed.end(), s);
}

// Does the model allow this state? true/false when it can say, nullopt when it cannot.
std::optional<bool> allows(const Model& m, const litmus::State& s) {
  if (m.kind == Model::Kind::Decided) return listed(m, s);
  if (m.kind == Model::Kind::Bounded && listed(m, s)) return true;  // an execution within the bound
  return std::nullopt;
}

const char* mark(const Model& m, const litmus::State& s) {
  const std::optional<bool> a = allows(m, s);
  if (a) return *a ? "allowed" : "forbidden";
  return m.kind == Model::Kind::Bounded ? "unlisted" : "?";
}

const char* observation(uint64_t hits, uint64_t total) {
  return hits == 0 ? "Never" : hits == total ? "Always" : "Sometimes";
}

Json stateJson(const litmus::Test& test, const litmus::State& s, uint64_t unknown = 0) {
  Json o = Json::object();
  for (size_t i = 0; i < test.observed.size() && i < s.values.size(); ++i) {
    const bool missing = (unknown >> std::min<size_t>(i, 63)) & 1;
    o[litmus::formatTerm(test.observed[i])] = missing ? Json(nullptr) : Json(s.values[i]);
  }
  return o;
}

std::vector<std::string> threadNames(const litmus::Test& test, uint64_t mask) {
  std::vector<std::string> out;
  for (size_t t = 0; t < test.threads.size(); ++t)
    if ((mask >> std::min<size_t>(t, 63)) & 1) out.push_back(test.threads[t].name);
  return out;
}

Json conditionAllowed(const litmus::Test& test, const Model& m) {
  const std::optional<bool> a = conditionReachable(test, m);
  return a ? Json(*a) : Json(nullptr);
}

bool seen(const gpu::RunResult& r, const litmus::State& s) {
  return std::any_of(r.histogram.begin(), r.histogram.end(), [&](const auto& e) { return e.first == s; });
}

uint64_t recorded(const gpu::RunResult& r) {
  uint64_t n = 0;
  for (const auto& e : r.histogram) n += e.second;
  return n;
}

}  // namespace

std::optional<bool> conditionReachable(const litmus::Test& test, const Model& m) {
  const bool some = std::any_of(m.allowed.begin(), m.allowed.end(), [&](const litmus::State& s) {
    return litmus::evalCondition(test.condition, test.observed, s);
  });
  if (m.kind == Model::Kind::Decided || (m.kind == Model::Kind::Bounded && some)) return some;
  return std::nullopt;
}

Model askModel(const litmus::Test& test, int unroll, double timeoutSeconds) {
  checker::Options opt;
  opt.unroll = unroll;
  opt.timeoutSeconds = timeoutSeconds;
  try {
    const checker::Result res = checker::check(test, opt);
    return modelOf(test, &res.outcome, "");
  } catch (const litmus::Error& e) {  // the model refuses the test
    return modelOf(test, nullptr, e.what());
  }
}

Model modelOf(const litmus::Test& test, const litmus::Outcome* outcome, const std::string& refusal) {
  (void)test;
  Model m;
  if (!outcome) {
    m.note = refusal;
    return m;
  }
  if (outcome->status != litmus::Status::Done) {
    m.kind = Model::Kind::Unknown;
    m.note = outcome->statusDetail.empty() ? "unknown" : outcome->statusDetail;
    return m;
  }
  m.kind = outcome->loopBound >= 0 ? Model::Kind::Bounded : Model::Kind::Decided;
  if (outcome->loopBound >= 0) m.note = "loop bound " + std::to_string(outcome->loopBound) + " (--unroll)";
  m.allowed = outcome->states;
  std::sort(m.allowed.begin(), m.allowed.end());
  m.hang = outcome->hang;
  return m;
}

const char* statusWord(gpu::RunStatus s) {
  switch (s) {
    case gpu::RunStatus::Ok: return "ok";
    case gpu::RunStatus::NoDriver: return "no-driver";
    case gpu::RunStatus::NoDevice: return "no-device";
    case gpu::RunStatus::Timeout: return "timeout";
    case gpu::RunStatus::Error: return "error";
  }
  return "?";
}

std::string formatNotRecorded(const litmus::Test& test, const gpu::NotRecorded& n) {
  std::string out;
  for (size_t i = 0; i < test.observed.size() && i < n.state.values.size(); ++i) {
    const bool missing = (n.missingTerms >> std::min<size_t>(i, 63)) & 1;
    out += litmus::formatTerm(test.observed[i]) + "=" + (missing ? "?" : std::to_string(n.state.values[i])) + "; ";
  }
  for (const std::string& t : threadNames(test, n.missingThreads)) out += "(" + t + " did not finish) ";
  if (!out.empty()) out.pop_back();
  return out;
}

Judgement judge(const litmus::Test& test, const gpu::RunResult& r, const Model& model) {
  Judgement j;
  if (r.status == gpu::RunStatus::Timeout) {
    const bool knows = model.kind == Model::Kind::Decided || model.kind == Model::Kind::Bounded;
    j.hangExpected = knows && !model.hang.empty();
    j.verdict = j.hangExpected ? Verdict::Hung : Verdict::Timeout;
    j.reason = j.hangExpected ? "the model says it can hang: " + model.hang
               : model.kind == Model::Kind::Decided
                   ? "the model says every execution terminates"
                   : std::string("the model (") + judge::toString(model.kind) + ") found no way for it to hang";
    return j;
  }
  if (r.status != gpu::RunStatus::Ok) {
    j.reason = r.message;
    return j;
  }
  judge::RunCounts c{model.kind, model.note, model.hang, !model.allowed.empty()};
  for (const auto& [state, count] : r.histogram) {
    const std::optional<bool> a = allows(model, state);
    if (a && !*a) c.violations += count, ++c.forbiddenStates;
    if (!a && model.kind == Model::Kind::Bounded) c.unlisted += count;
    if (litmus::evalCondition(test.condition, test.observed, state)) j.conditionCount += count;
  }
  c.notRecorded = r.notRecordedCount();
  c.overflow = r.overflow;
  j.violations = c.violations;
  j.unlisted = c.unlisted;
  const judge::RunJudgement v = judge::judgeRun(c);
  j.verdict = v.verdict;
  j.reason = v.reason;
  return j;
}

void printRun(std::ostream& os, const litmus::Test& test, const gpu::RunResult& r, const Model& model,
              const Judgement& j, uint64_t seed, const std::string& note) {
  os << "Test " << test.name << " on " << r.device << ", seed " << seed << "\n";
  os << "Histogram (" << r.histogram.size() << " states)\n";
  for (const auto& [state, count] : r.histogram) {
    const bool hit = litmus::evalCondition(test.condition, test.observed, state);
    std::string count_ = std::to_string(count);
    count_.resize(std::max<size_t>(count_.size(), 10), ' ');
    os << count_ << (hit ? "*> " : ":> ") << litmus::formatState(test.observed, state) << "  "
       << mark(model, state) << "\n";
  }
  for (const gpu::NotRecorded& n : r.notRecorded)
    os << "Not recorded " << n.count << " instances: " << formatNotRecorded(test, n) << "\n";
  for (const auto& [state, count] : r.histogram)
    if (const std::optional<bool> a = allows(model, state); a && !*a)
      os << "VIOLATION " << litmus::formatState(test.observed, state) << " observed " << count
         << " times; the model forbids it\n";
  if (model.kind == Model::Kind::Decided || model.kind == Model::Kind::Bounded)
    for (const litmus::State& s : model.allowed)
      if (!seen(r, s)) os << "Never observed (allowed) " << litmus::formatState(test.observed, s) << "\n";
  if (model.kind != Model::Kind::Decided) os << "Model: " << judge::toString(model.kind) << ", " << model.note << "\n";
  const uint64_t rec = recorded(r);
  os << "Condition " << litmus::toString(test.quantifier) << " " << litmus::formatCondition(test.condition)
     << ": " << j.conditionCount << " of " << rec << (rec == r.instances ? "" : " recorded") << " ("
     << observation(j.conditionCount, rec) << ")\n";
  if (r.overflow) os << "Overflow " << r.overflow << " instances did not fit the histogram table\n";
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.4g", r.seconds);
  os << "Instances " << r.instances << " in " << secs
     << " s: " << rate(static_cast<double>(r.instances), r.seconds) << ", condition "
     << rate(static_cast<double>(j.conditionCount), r.seconds) << ", " << r.launches << " launches\n";
  if (r.stoppedByDeadline)
    os << "Deadline: stopped launching at 3/4 of --timeout with fewer instances than -n; every launch finished "
          "(the stress profile made them slow, not stuck)\n";
  os << note;
  os << "Verdict " << judge::toString(j.verdict) << ": " << j.reason << "\n\n";
}

namespace {

// --trace-waits (docs/wait-trace.md): where the last launch's threads were when the watchdog
// fired; null when the run was not traced or did not time out.
Json waitsJson(const gpu::WaitTrace& w) {
  if (!w.taken) return Json(nullptr);
  Json rows = Json::array();
  for (const gpu::WaitTrace::Row& r : w.rows)
    rows.push_back({{"thread", r.thread}, {"site", r.site}, {"warps", r.warps}, {"lanes", r.lanes}});
  return Json{{"launch", w.launch}, {"sites", rows}};
}

}  // namespace

Json runJson(const litmus::Test& test, const gpu::RunResult& r, const Model& model, const Judgement& j,
             uint64_t seed) {
  Json o = schema::begin(schema::Kind::Run);
  o["test"] = test.name;
  o["file"] = test.file;
  o["family"] = litmus::familyOf(test);
  o["verdict"] = judge::toString(j.verdict);
  o["reason"] = j.reason;
  o["status"] = statusWord(r.status);
  o["message"] = r.message;
  o["device"] = r.device;
  o["gpus"] = r.gpus;                  // the device ordinals that ran it (docs/gpu-runner.md, "Several GPUs")
  o["gpuInstances"] = r.gpuInstances;  // per GPU: its share, or every instance of a test across GPUs
  o["seed"] = seed;
  o["instances"] = r.instances;
  o["launches"] = r.launches;
  o["seconds"] = r.seconds;
  o["stoppedBy"] = r.status != gpu::RunStatus::Ok ? Json(nullptr) : Json(gpu::stoppedBy(r));
  o["jitSeconds"] = r.jitSeconds;
  o["overheadSeconds"] = r.overheadSeconds;
  o["freshWorker"] = r.freshWorker;
  o["notRecorded"] = r.notRecordedCount();
  o["overflow"] = r.overflow;
  o["model"] = judge::toString(model.kind);
  o["modelNote"] = model.note;
  o["modelHang"] = model.hang;  // the wording of a violation where no execution finishes (merge)
  o["hangExpected"] = j.hangExpected;
  o["violations"] = j.violations;
  o["unlisted"] = j.unlisted;
  o["condition"] = j.conditionCount;
  o["conditionAllowed"] = conditionAllowed(test, model);
  Json hist = Json::array();
  for (const auto& [state, count] : r.histogram) {
    const std::optional<bool> a = allows(model, state);
    hist.push_back({{"state", stateJson(test, state)},
                    {"count", count},
                    {"condition", litmus::evalCondition(test.condition, test.observed, state)},
                    {"allowed", a ? Json(*a) : Json(nullptr)}});
  }
  o["histogram"] = hist;
  Json missing = Json::array();
  for (const gpu::NotRecorded& n : r.notRecorded)
    missing.push_back({{"state", stateJson(test, n.state, n.missingTerms)},
                       {"unfinished", threadNames(test, n.missingThreads)},
                       {"count", n.count}});
  o["notRecordedStates"] = missing;
  Json never = Json::array();
  if (model.kind == Model::Kind::Decided || model.kind == Model::Kind::Bounded)
    for (const litmus::State& s : model.allowed)
      if (!seen(r, s)) never.push_back(stateJson(test, s));
  o["neverObserved"] = never;
  o["waits"] = waitsJson(r.waits);
  // why (Coverage in run.h); a rare state's rate is below 3/instances with 95% confidence
  o["neverObservedReason"] = never.empty() ? Json(nullptr) : Json(unseenReason(r, model));
  o["rareBelow"] = never.empty() || r.status != gpu::RunStatus::Ok || r.instances == 0
                       ? Json(nullptr) : Json(3.0 / static_cast<double>(r.instances));
  return o;
}

Json refusedJson(const litmus::Test& test, const std::string& reason) {
  Json o = schema::begin(schema::Kind::Run);
  o["test"] = test.name;
  o["file"] = test.file;
  o["family"] = litmus::familyOf(test);
  o["verdict"] = judge::toString(Verdict::Refused);
  o["reason"] = reason;
  o["status"] = "refused";
  return o;
}

}  // namespace runcli
