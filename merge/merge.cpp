#include "merge/merge.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>

namespace merge {

const char* toString(Kind k) {
  switch (k) {
    case Kind::Check: return "check --json";
    case Kind::Suite: return "suite --json";
    case Kind::Run: return "run --json";
  }
  return "?";
}

Kind kindOf(const Json& r) {
  if (!r.is_object()) throw std::invalid_argument("not a JSON object");
  if (r.contains("path") && r.contains("outcome")) return Kind::Suite;
  if (r.contains("test") && r.contains("file") && r.contains("failures")) return Kind::Check;
  if (r.contains("test") && r.contains("file") && r.contains("verdict") && r.contains("status"))
    return Kind::Run;
  throw std::invalid_argument("not a result of check --json, suite --json or run --json");
}

namespace {

// ---- adding up runs ----------------------------------------------------------------------------

uint64_t count(const Json& r, const char* key) {
  return r.contains(key) && r[key].is_number() ? r[key].get<uint64_t>() : 0;
}

// A state object's values in the order of its keys (the test's observed terms), for sorting as
// the runner sorts its histogram.
Json values(const Json& state) {
  Json v = Json::array();
  for (const auto& [key, value] : state.items()) v.push_back(value);
  return v;
}

Json addHistograms(const std::vector<Json>& runs) {
  std::map<std::string, Json> byState;  // keyed by the state's JSON text
  for (const Json& r : runs)
    for (const Json& e : r.value("histogram", Json::array())) {
      auto [it, fresh] = byState.emplace(e["state"].dump(), e);
      if (!fresh) it->second["count"] = it->second["count"].get<uint64_t>() + e["count"].get<uint64_t>();
    }
  std::vector<Json> entries;
  for (auto& [key, e] : byState) entries.push_back(std::move(e));
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Json& a, const Json& b) { return values(a["state"]) < values(b["state"]); });
  return Json(entries);
}

Json addNotRecorded(const std::vector<Json>& runs) {
  Json out = Json::array();
  std::map<std::string, size_t> at;
  for (const Json& r : runs)
    for (const Json& e : r.value("notRecordedStates", Json::array())) {
      const std::string key = e["state"].dump() + e["unfinished"].dump();
      if (auto it = at.find(key); it != at.end()) {
        Json& c = out[it->second]["count"];
        c = c.get<uint64_t>() + e["count"].get<uint64_t>();
      } else {
        at[key] = out.size();
        out.push_back(e);
      }
    }
  return out;
}

// The allowed states no run observed: those every run lists, less any the sum observed.
Json intersectNever(const std::vector<Json>& runs, const Json& histogram) {
  std::set<std::string> seen;
  for (const Json& e : histogram) seen.insert(e["state"].dump());
  Json out = Json::array();
  for (const Json& s : runs.front().value("neverObserved", Json::array())) {
    const std::string key = s.dump();
    const bool everywhere = std::all_of(runs.begin(), runs.end(), [&](const Json& r) {
      const Json never = r.value("neverObserved", Json::array());
      return std::any_of(never.begin(), never.end(), [&](const Json& t) { return t.dump() == key; });
    });
    if (everywhere && !seen.count(key)) out.push_back(s);
  }
  return out;
}

// `run --gpus` records: the instances per GPU ordinal summed over the runs (a test across GPUs
// lists every GPU with all its instances, so the sums stay consistent).
void addGpus(const std::vector<Json>& runs, Json& out) {
  std::map<int64_t, uint64_t> perGpu;
  for (const Json& r : runs) {
    if (!r.contains("gpus") || !r["gpus"].is_array()) continue;
    const Json& gpus = r["gpus"];
    const Json counts = r.value("gpuInstances", Json::array());
    for (size_t i = 0; i < gpus.size(); ++i)
      if (gpus[i].is_number_integer())
        perGpu[gpus[i].get<int64_t>()] += i < counts.size() && counts[i].is_number_unsigned() ? counts[i].get<uint64_t>() : 0;
  }
  if (perGpu.empty()) return;
  Json gpus = Json::array(), counts = Json::array();
  for (const auto& [gpu, n] : perGpu) {
    gpus.push_back(gpu);
    counts.push_back(n);
  }
  out["gpus"] = gpus;
  out["gpuInstances"] = counts;
}

// Runs whose status is ok, added up: the first one's fields, the counts summed.
Json addUp(const std::vector<Json>& runs) {
  Json out = runs.front();
  for (const Json& r : runs)
    if (r.value("model", "") != out.value("model", "") || r.value("modelNote", "") != out.value("modelNote", ""))
      throw std::invalid_argument("runs of " + out.value("test", "?") + " disagree on the model (" +
                                  out.value("model", "") + " vs " + r.value("model", "") + ")");
  for (const char* key : {"instances", "launches", "notRecorded", "overflow", "violations", "unlisted", "condition"}) {
    uint64_t sum = 0;
    for (const Json& r : runs) sum += count(r, key);
    if (out.contains(key)) out[key] = sum;
  }
  for (const char* key : {"seconds", "jitSeconds", "overheadSeconds"}) {
    double sum = 0;
    for (const Json& r : runs) sum += r.value(key, 0.0);
    if (out.contains(key)) out[key] = sum;
  }
  std::set<std::string> devices;
  Json seeds = Json::array();
  for (const Json& r : runs) {
    devices.insert(r.value("device", ""));
    seeds.push_back(r.value("seed", Json(nullptr)));
    if (r.value("stoppedBy", Json(nullptr)) == "budget") out["stoppedBy"] = "budget";
  }
  if (devices.size() > 1) {
    std::string all;
    for (const std::string& d : devices) all += (all.empty() ? "" : ", ") + d;
    out["device"] = all;
  }
  out["seeds"] = seeds;
  addGpus(runs, out);
  out["histogram"] = addHistograms(runs);
  out["notRecordedStates"] = addNotRecorded(runs);
  out["neverObserved"] = intersectNever(runs, out["histogram"]);
  return out;
}

// Worst first: the verdict a merged record takes when its runs disagree.
int rank(const std::string& verdict) {
  static const char* const kOrder[] = {"error", "violation", "timeout", "refused", "inconclusive", "hung", "ok"};
  for (int i = 0; i < 7; ++i)
    if (verdict == kOrder[i]) return i;
  return -1;  // unknown words first: never hidden
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

}  // namespace

// The wording of runcli::judge (run/run_report.cpp), from the counts a run record carries.
void rejudge(Json& r) {
  if (r.value("status", "") != "ok") return;
  const std::string model = r.value("model", ""), note = r.value("modelNote", "");
  const uint64_t violations = count(r, "violations"), notRecorded = count(r, "notRecorded");
  uint64_t forbidden = 0;
  bool anyAllowed = !r.value("neverObserved", Json::array()).empty();
  for (const Json& e : r.value("histogram", Json::array())) {
    forbidden += e["allowed"] == Json(false);
    anyAllowed = anyAllowed || e["allowed"] == Json(true);
  }
  if (violations) {
    r["verdict"] = "violation";
    const std::string was = r.value("reason", "");
    const std::string prefix = "the model says no execution finishes (", tail = "); the GPU finished ";
    if (!anyAllowed && was.rfind(prefix, 0) == 0 && was.find(tail) != std::string::npos)
      r["reason"] = was.substr(0, was.find(tail) + tail.size()) + std::to_string(violations) + " instances";
    else
      r["reason"] = std::to_string(violations) + " instances in " + std::to_string(forbidden) +
                    " states the model forbids";
    if (notRecorded) r["reason"] = r["reason"].get<std::string>() + "; " + std::to_string(notRecorded) + " instances not recorded";
    return;
  }
  std::vector<std::string> why;
  if (model == "unknown") why.push_back("the model gave no answer (" + note + ")");
  if (model == "unavailable") why.push_back("the model cannot check this test (" + note + ")");
  if (const uint64_t u = count(r, "unlisted"))
    why.push_back(std::to_string(u) + " instances in states the model does not list within its " + note +
                  " (they may need more unrolling)");
  if (notRecorded)
    why.push_back(std::to_string(notRecorded) + " instances not recorded (result slots their threads did not write)");
  if (const uint64_t o = count(r, "overflow"))
    why.push_back(std::to_string(o) + " instances did not fit the histogram table");
  r["verdict"] = why.empty() ? "ok" : "inconclusive";
  r["reason"] = !why.empty() ? joined(why)
                : model == "bounded" ? "every observed state is one the model lists within its " + note
                                     : std::string("every observed state is allowed");
}

Json mergeRuns(const std::vector<Json>& runs) {
  if (runs.size() == 1) return runs.front();
  std::vector<Json> ok, other;
  for (const Json& r : runs) (r.value("status", "") == "ok" ? ok : other).push_back(r);
  Json out;
  if (!ok.empty()) {
    out = addUp(ok);
    rejudge(out);
  }
  // A run that did not finish (timeout, error, refused) keeps its verdict when it is the worse.
  for (const Json& r : other) {
    if (!out.is_null() && rank(r.value("verdict", "")) >= rank(out.value("verdict", ""))) continue;
    const Json sums = out;
    out = r;
    if (!sums.is_null())
      for (const char* key : {"instances", "launches", "histogram", "notRecordedStates", "neverObserved", "seeds"})
        if (sums.contains(key)) out[key] = sums[key];
  }
  Json verdicts = Json::object();
  for (const Json& r : runs) {
    const std::string v = r.value("verdict", "?");
    verdicts[v] = verdicts.value(v, 0) + 1;
  }
  out["runs"] = runs.size();
  out["verdicts"] = verdicts;
  return out;
}

namespace {

std::string where(const Input& in) { return in.file + ":" + std::to_string(in.line) + ":1: error: "; }

std::string keyOf(Kind k, const Json& r) {
  switch (k) {
    case Kind::Suite: return r.value("path", "");
    case Kind::Check: return r.value("file", "");
    case Kind::Run: return r.value("file", "") + '\n' + r.value("test", "");
  }
  return "";
}

// Suite's entries for listed tests that were not found come after the others (suite/suite.cpp).
bool listedMissing(Kind k, const Json& r) {
  return k == Kind::Suite && r.value("outcome", Json::object()).value("statusDetail", "") == "not run" &&
         r.value("verdict", "") == "ERROR";
}

}  // namespace

Merged mergeAll(const std::vector<Input>& inputs) {
  Merged m;
  if (inputs.empty()) return m;
  try {
    m.kind = kindOf(inputs.front().record);
  } catch (const std::invalid_argument& e) {
    m.errors.push_back(where(inputs.front()) + e.what());
    return m;
  }
  std::map<std::pair<bool, std::string>, std::vector<const Input*>> groups;  // sorted as printed
  for (const Input& in : inputs) {
    Kind k;
    try {
      k = kindOf(in.record);
    } catch (const std::invalid_argument& e) {
      m.errors.push_back(where(in) + e.what());
      continue;
    }
    if (k != m.kind) {
      m.errors.push_back(where(in) + "a result of " + toString(k) + " among results of " + toString(m.kind));
      continue;
    }
    auto& group = groups[{listedMissing(k, in.record), keyOf(k, in.record)}];
    if (!group.empty() && k != Kind::Run) {
      m.errors.push_back(where(in) + "'" + keyOf(k, in.record) + "' is also in " + group.front()->file + ":" +
                         std::to_string(group.front()->line) + " (do the shards overlap?)");
      continue;
    }
    group.push_back(&in);
  }
  for (const auto& [key, group] : groups) {
    std::vector<Json> runs;
    for (const Input* in : group) runs.push_back(in->record);
    try {
      m.records.push_back(mergeRuns(runs));
    } catch (const std::invalid_argument& e) {
      m.errors.push_back(where(*group.back()) + e.what());
    }
  }
  return m;
}

}  // namespace merge
