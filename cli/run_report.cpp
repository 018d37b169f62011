// The report of `litmus run`: the observed histogram next to what the model allows.
#include <algorithm>
#include <cstdio>
#include <ostream>

#include "cli/run.h"

namespace runcli {

namespace {

std::string rate(double count, double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g/s", seconds > 0 ? count / seconds : 0.0);
  return buf;
}

bool isAllowed(const Verdict& v, const litmus::State& s) {
  return std::binary_search(v.allowed.begin(), v.allowed.end(), s);
}

const char* observation(uint64_t hits, uint64_t total) {
  return hits == 0 ? "Never" : hits == total ? "Always" : "Sometimes";
}

void jsonState(std::ostream& os, const litmus::Test& test, const litmus::State& s) {
  os << "{";
  for (size_t i = 0; i < test.observed.size() && i < s.values.size(); ++i)
    os << (i ? "," : "") << "\"" << litmus::jsonEscape(litmus::formatTerm(test.observed[i]))
       << "\":" << s.values[i];
  os << "}";
}

// Does some state the model allows satisfy the condition's body (a weak outcome worth looking for)?
bool conditionAllowed(const litmus::Test& test, const Verdict& v) {
  return std::any_of(v.allowed.begin(), v.allowed.end(),
                     [&](const litmus::State& s) { return litmus::evalCondition(test.condition, test.observed, s); });
}

}  // namespace

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

Verdict judge(const litmus::Test& test, const gpu::RunResult& r, const litmus::Outcome* model) {
  Verdict v;
  if (model && model->status == litmus::Status::Done) {
    v.modelKnown = true;
    v.modelHang = model->hang;
    v.allowed = model->states;
    std::sort(v.allowed.begin(), v.allowed.end());
  } else {
    v.modelNote =
        model ? "the model gave no answer (" + model->statusDetail + ")" : "the model cannot check this test";
  }
  for (const auto& [state, count] : r.histogram) {
    if (v.modelKnown && !isAllowed(v, state)) v.violations += count;
    if (litmus::evalCondition(test.condition, test.observed, state)) v.conditionCount += count;
  }
  return v;
}

void printRun(std::ostream& os, const litmus::Test& test, const gpu::RunResult& r, const Verdict& v,
              uint64_t seed) {
  os << "Test " << test.name << " on " << r.device << ", seed " << seed << "\n";
  os << "Histogram (" << r.histogram.size() << " states)\n";
  for (const auto& [state, count] : r.histogram) {
    const bool hit = litmus::evalCondition(test.condition, test.observed, state);
    std::string count_ = std::to_string(count);
    count_.resize(std::max<size_t>(count_.size(), 10), ' ');
    os << count_ << (hit ? "*> " : ":> ") << litmus::formatState(test.observed, state);
    os << "  " << (!v.modelKnown ? "?" : isAllowed(v, state) ? "allowed" : "forbidden") << "\n";
  }
  for (const auto& [state, count] : r.histogram)
    if (v.modelKnown && !isAllowed(v, state))
      os << "VIOLATION " << litmus::formatState(test.observed, state) << " observed " << count
         << " times; the model forbids it\n";
  if (v.modelKnown)
    for (const litmus::State& s : v.allowed) {
      const bool seen =
          std::any_of(r.histogram.begin(), r.histogram.end(), [&](const auto& e) { return e.first == s; });
      if (!seen) os << "Never observed (allowed) " << litmus::formatState(test.observed, s) << "\n";
    }
  if (!v.modelKnown) os << "Model: " << v.modelNote << "\n";
  if (v.modelKnown && v.allowed.empty() && !r.histogram.empty())  // every execution hangs
    os << "The model says no execution finishes (" << v.modelHang << "); the GPU finished " << r.instances
       << " instances\n";
  os << "Condition " << litmus::toString(test.quantifier) << " " << litmus::formatCondition(test.condition)
     << ": " << v.conditionCount << " of " << r.instances << " ("
     << observation(v.conditionCount, r.instances) << ")\n";
  if (r.unrecorded) os << "Unrecorded " << r.unrecorded << " (the histogram table was full)\n";
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.4g", r.seconds);
  os << "Instances " << r.instances << " in " << secs
     << " s: " << rate(static_cast<double>(r.instances), r.seconds) << ", condition "
     << rate(static_cast<double>(v.conditionCount), r.seconds) << ", " << r.launches << " launches\n\n";
}

void printRunJson(std::ostream& os, const litmus::Test& test, const gpu::RunResult& r, const Verdict& v,
                  uint64_t seed) {
  os << "{\"test\":\"" << litmus::jsonEscape(test.name) << "\",\"file\":\"" << litmus::jsonEscape(test.file)
     << "\",\"status\":\"" << statusWord(r.status) << "\",\"message\":\"" << litmus::jsonEscape(r.message)
     << "\",\"device\":\"" << litmus::jsonEscape(r.device) << "\",\"seed\":" << seed
     << ",\"instances\":" << r.instances << ",\"launches\":" << r.launches << ",\"seconds\":" << r.seconds
     << ",\"unrecorded\":" << r.unrecorded << ",\"model\":" << (v.modelKnown ? "true" : "false")
     << ",\"hangExpected\":" << (v.hangExpected ? "true" : "false")
     << ",\"violations\":" << v.violations << ",\"condition\":" << v.conditionCount
     << ",\"conditionAllowed\":" << (!v.modelKnown ? "null" : conditionAllowed(test, v) ? "true" : "false")
     << ",\"histogram\":[";
  for (size_t i = 0; i < r.histogram.size(); ++i) {
    const auto& [state, count] = r.histogram[i];
    os << (i ? "," : "") << "{\"state\":";
    jsonState(os, test, state);
    os << ",\"count\":" << count
       << ",\"condition\":" << (litmus::evalCondition(test.condition, test.observed, state) ? "true" : "false")
       << ",\"allowed\":"
       << (!v.modelKnown         ? "null"
           : isAllowed(v, state) ? "true"
                                 : "false")
       << "}";
  }
  os << "],\"neverObserved\":[";
  bool first = true;
  for (const litmus::State& s : v.allowed) {
    if (std::any_of(r.histogram.begin(), r.histogram.end(), [&](const auto& e) { return e.first == s; }))
      continue;
    os << (first ? "" : ",");
    jsonState(os, test, s);
    first = false;
  }
  os << "]}";
}

}  // namespace runcli
