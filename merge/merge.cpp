#include "merge/merge.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>

namespace merge {

const char* commandOf(Kind k) {
  switch (k) {
    case Kind::Check: return "check --json";
    case Kind::Suite: return "suite --json";
    case Kind::Run:
    case Kind::MergedRun: return "run --json";
  }
  return "?";
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
    const Json by = r.value("stoppedBy", Json(nullptr));
    if (by == "budget" || (by == "deadline" && out.value("stoppedBy", Json(nullptr)) != "budget")) out["stoppedBy"] = by;
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

int rank(const std::string& verdict) {
  const auto v = judge::runVerdictOf(verdict);
  return v ? judge::badness(*v) : -1;  // unknown words first: never hidden
}

}  // namespace

// The verdict of the judge (judge/run_verdict.h) from the counts a run record carries.
void rejudge(Json& r) {
  if (r.value("status", "") != "ok") return;
  judge::RunCounts c;
  c.model = judge::modelKindOf(r.value("model", "")).value_or(judge::ModelKind::Unavailable);
  c.note = r.value("modelNote", "");
  c.hang = r.value("modelHang", "");
  c.modelAllowsSome = !r.value("neverObserved", Json::array()).empty();
  for (const Json& e : r.value("histogram", Json::array())) {
    c.forbiddenStates += e["allowed"] == Json(false);
    c.modelAllowsSome = c.modelAllowsSome || e["allowed"] == Json(true);
  }
  c.violations = count(r, "violations");
  c.unlisted = count(r, "unlisted");
  c.notRecorded = count(r, "notRecorded");
  c.overflow = count(r, "overflow");
  const judge::RunJudgement j = judge::judgeRun(c);
  r["verdict"] = judge::toString(j.verdict);
  r["reason"] = j.reason;
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
  out["kind"] = schema::toString(Kind::MergedRun);
  out["runs"] = runs.size();
  out["verdicts"] = verdicts;
  return out;
}

namespace {

// Run and merged-run records merge together.
Kind family(Kind k) { return k == Kind::MergedRun ? Kind::Run : k; }

std::string where(const Input& in) { return in.file + ":" + std::to_string(in.line) + ":1: error: "; }

std::string keyOf(Kind k, const Json& r) {
  switch (k) {
    case Kind::Suite: return r.value("path", "");
    case Kind::Check: return r.value("file", "");
    case Kind::Run:
    case Kind::MergedRun: return r.value("file", "") + '\n' + r.value("test", "");
  }
  return "";
}

// Suite's entries for listed tests that were not found come after the others (suite/suite.cpp).
bool listedMissing(Kind k, const Json& r) {
  return k == Kind::Suite && r.value("outcome", Json::object()).value("unknownReason", "") == "not-run" &&
         r.value("verdict", "") == "ERROR";
}

}  // namespace

Merged mergeAll(const std::vector<Input>& inputs) {
  Merged m;
  if (inputs.empty()) return m;
  try {
    m.kind = family(schema::kindOf(inputs.front().record));
  } catch (const std::invalid_argument& e) {
    m.errors.push_back(where(inputs.front()) + e.what());
    return m;
  }
  std::map<std::pair<bool, std::string>, std::vector<const Input*>> groups;  // sorted as printed
  for (const Input& in : inputs) {
    Kind k;
    try {
      k = family(schema::kindOf(in.record));
    } catch (const std::invalid_argument& e) {
      m.errors.push_back(where(in) + e.what());
      continue;
    }
    if (k != m.kind) {
      m.errors.push_back(where(in) + "a result of " + commandOf(k) + " among results of " + commandOf(m.kind));
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
