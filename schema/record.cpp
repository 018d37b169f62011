#include "schema/record.h"

#include "base/words.h"

namespace schema {

namespace {
constexpr words::Word<Kind> kKinds[] = {
    {Kind::Check, "check"}, {Kind::Suite, "suite"}, {Kind::Run, "run"}, {Kind::MergedRun, "merged-run"}};
}  // namespace

const char* toString(Kind k) { return words::wordOf(kKinds, k); }
std::optional<Kind> kindFromWord(const std::string& word) { return words::valueOf(kKinds, word); }

Json begin(Kind k) {
  Json out;
  out["schema"] = {{"name", kName}, {"version", kVersion}};
  out["kind"] = toString(k);
  return out;
}

namespace {

bool isString(const Json& r, const char* key) { return r.contains(key) && r[key].is_string(); }

// Records from before the schema: the keys each writer always wrote.
std::optional<Kind> legacyKind(const Json& r) {
  if (r.contains("path") && r.contains("outcome")) return Kind::Suite;
  if (r.contains("test") && r.contains("file") && r.contains("failures")) return Kind::Check;
  if (r.contains("test") && r.contains("file") && r.contains("verdict") && r.contains("status"))
    return r.contains("runs") ? Kind::MergedRun : Kind::Run;
  return std::nullopt;
}

std::string text(const Json& r, const char* key) {
  if (!isString(r, key)) throw std::invalid_argument(std::string("no string '") + key + "'");
  return r[key].get<std::string>();
}

std::optional<bool> optionalBoolOf(const Json& r, const char* key) {
  if (!r.contains(key) || r[key].is_null()) return std::nullopt;
  if (!r[key].is_boolean()) throw std::invalid_argument(std::string("'") + key + "' is not true, false or null");
  return r[key].get<bool>();
}

}  // namespace

Kind kindOf(const Json& r) {
  if (!r.is_object()) throw std::invalid_argument("not a JSON object");
  if (!r.contains("schema")) {
    if (const auto k = legacyKind(r)) return *k;
    throw std::invalid_argument("not a result of check --json, suite --json or run --json (no 'schema' key)");
  }
  const Json& s = r["schema"];
  if (!s.is_object() || s.value("name", "") != kName)
    throw std::invalid_argument(std::string("not a ") + kName + " record");
  if (!s.contains("version") || !s["version"].is_number_integer() || s["version"].get<int>() > kVersion)
    throw std::invalid_argument("schema version " + s.value("version", Json()).dump() + " is newer than " +
                                std::to_string(kVersion) + ", the one this litmus reads");
  const auto k = isString(r, "kind") ? kindFromWord(r["kind"].get<std::string>()) : std::nullopt;
  if (!k) throw std::invalid_argument("unknown record kind " + r.value("kind", Json()).dump());
  return *k;
}

Json optionalBool(const std::optional<bool>& b) { return b ? Json(*b) : Json(nullptr); }

Json toJson(const SuiteRecord& s) {
  Json out = begin(Kind::Suite);
  out["path"] = s.path;
  out["verdict"] = judge::toString(s.verdict);
  out["expected"] = litmus::toString(s.expected);
  out["expectedLiveness"] = s.expectedLiveness.empty() ? Json(nullptr) : Json(s.expectedLiveness);
  out["verdictMet"] = optionalBool(s.verdictMet);
  out["livenessMet"] = optionalBool(s.livenessMet);
  out["message"] = s.message;
  out["outcome"] = s.outcome;
  return out;
}

SuiteRecord suiteRecordOf(const Json& r) {
  if (kindOf(r) != Kind::Suite) throw std::invalid_argument("not a suite record");
  SuiteRecord s;
  s.path = text(r, "path");
  const auto d = judge::decisionOf(text(r, "verdict"));
  if (!d) throw std::invalid_argument("unknown suite verdict '" + text(r, "verdict") + "'");
  s.verdict = *d;
  if (isString(r, "expected")) s.expected = litmus::parseExpect(r["expected"].get<std::string>()).value_or(litmus::Expect::None);
  if (isString(r, "expectedLiveness")) s.expectedLiveness = r["expectedLiveness"].get<std::string>();
  s.verdictMet = optionalBoolOf(r, "verdictMet");
  s.livenessMet = optionalBoolOf(r, "livenessMet");
  if (isString(r, "message")) s.message = r["message"].get<std::string>();
  s.outcome = r.value("outcome", Json::object());
  return s;
}

Json toJson(const litmus::Test& t, const litmus::Outcome& o, const judge::Judgement& j) {
  Json out = begin(Kind::Check);
  out["test"] = o.test;
  out["file"] = t.file;
  if (!t.family.empty()) out["family"] = t.family;  // report groups by it
  const Json outcome = litmus::toJson(o);  // named: items() does not keep it alive
  for (const auto& [key, value] : outcome.items())
    if (key != "test") out[key] = value;
  if (t.expect != litmus::Expect::None)
    out["expect"] = {{"verdict", litmus::toString(t.expect)}, {"met", optionalBool(j.verdictMet)}};
  out["expectLiveness"] = {{"declared", t.liveness.empty() ? Json(nullptr) : Json(t.liveness)},
                           {"met", optionalBool(j.livenessMet)}};
  out["decision"] = judge::toString(j.decision);
  out["verdictMet"] = optionalBool(j.verdictMet);
  out["livenessMet"] = optionalBool(j.livenessMet);
  out["failures"] = j.decision == judge::Decision::Fail ? j.reasons : std::vector<std::string>{};
  return out;
}

CheckRecord checkRecordOf(const Json& r) {
  if (kindOf(r) != Kind::Check) throw std::invalid_argument("not a check record");
  CheckRecord c;
  c.test = text(r, "test");
  c.file = text(r, "file");
  c.failures = r.value("failures", std::vector<std::string>{});
  if (isString(r, "decision")) {
    const auto d = judge::decisionOf(r["decision"].get<std::string>());
    if (!d) throw std::invalid_argument("unknown decision '" + r["decision"].get<std::string>() + "'");
    c.decision = *d;
  } else {  // before the schema: failures, else unknown by status, else passed
    c.decision = !c.failures.empty()                ? judge::Decision::Fail
                 : r.value("status", "") != "done" ? judge::Decision::Unknown
                                                   : judge::Decision::Pass;
  }
  c.verdictMet = optionalBoolOf(r, "verdictMet");
  c.livenessMet = optionalBoolOf(r, "livenessMet");
  return c;
}

RunHead runHeadOf(const Json& r) {
  if (!isRun(kindOf(r))) throw std::invalid_argument("not a run record");
  RunHead h;
  h.test = text(r, "test");
  h.file = text(r, "file");
  const auto v = judge::runVerdictOf(text(r, "verdict"));
  if (!v) throw std::invalid_argument("unknown run verdict '" + text(r, "verdict") + "'");
  h.verdict = *v;
  h.reason = r.value("reason", "");
  h.status = text(r, "status");
  return h;
}

}  // namespace schema
