// Scoring a GPU run of the mutants (score.h).
#include "mutate/score.h"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "mutate/output.h"
#include "schema/record.h"

namespace mutate {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, '\t')) out.push_back(cell);
  if (!line.empty() && line.back() == '\t') out.push_back("");
  return out;
}

// MC Mutants' own result on NVIDIA, counted from the artifact's data (docs/mutation.md).
constexpr const char* kReference =
    "MC Mutants (Levine et al., ASPLOS'23), NVIDIA GPU, their parallel testing environment (PTE): 32 of "
    "32 mutants killed (100%): reversing po 8/8, weakening po 6/6, weakening sw 18/18; counted from "
    "github.com/reeselevine/mc-mutants-artifact pte/nvidia.json with its rule (killed: some run saw the "
    "weak behaviour). Their mutants are 32 WebGPU tests, ours PTX tests: side by side, not comparable.";

std::string percent(int a, int b) {
  if (b == 0) return "-";
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << 100.0 * a / b << "%";
  return os.str();
}

void add(Tally& t, const RunRecord* r, bool negated) {
  ++t.killable;
  if (r && r->violation) ++t.violations;
  if (r && (negated ? r->misses : r->hits) > 0) {
    ++t.killed;
  } else if (r && r->ran) {
    ++t.notKilled;
  } else {
    ++t.notRun;
    ++t.notRunWhy[r ? (r->status.empty() ? "no status" : r->status) : "not in the results"];
  }
}

void merge(Tally& into, const Tally& t) {
  into.killable += t.killable;
  into.killed += t.killed;
  into.notKilled += t.notKilled;
  into.notRun += t.notRun;
  into.violations += t.violations;
  for (const auto& [why, n] : t.notRunWhy) into.notRunWhy[why] += n;
}

// "<original>~<category>-<k>" -> category
std::optional<Category> categoryOfName(const std::string& name) {
  const size_t tilde = name.rfind('~'), dash = name.rfind('-');
  if (tilde == std::string::npos || dash == std::string::npos || dash < tilde) return std::nullopt;
  return parseCategory(std::string_view(name).substr(tilde + 1, dash - tilde - 1));
}

nlohmann::ordered_json tallyJson(const Tally& t) {
  return {{"killable", t.killable}, {"killed", t.killed}, {"notKilled", t.notKilled}, {"notRun", t.notRun},
          {"notRunWhy", t.notRunWhy}, {"violations", t.violations},
          {"score", t.killable ? nlohmann::ordered_json(static_cast<double>(t.killed) / t.killable)
                               : nlohmann::ordered_json(nullptr)}};
}

void printRow(std::ostream& os, const std::string& name, const Tally& t) {
  os << std::left << std::setw(20) << name << std::right << std::setw(9) << t.killable << std::setw(8)
     << t.killed << std::setw(12) << t.notKilled << std::setw(9) << t.notRun << std::setw(8)
     << percent(t.killed, t.killable) << "\n";
}

}  // namespace

std::vector<IndexEntry> readIndex(const std::string& text, const std::string& file) {
  std::vector<IndexEntry> out;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (n == 1) {
      if (line != kIndexHeader) throw litmus::Error({file, 1, 1}, "not a mutant index (its first line is not the header of index.tsv)");
      continue;
    }
    if (line.empty()) continue;
    const std::vector<std::string> cells = split(line);
    if (cells.size() != 9) throw litmus::Error({file, n, 1}, "expected 9 tab-separated fields");
    const std::optional<Category> c = parseCategory(cells[2]);
    if (!c) throw litmus::Error({file, n, 1}, "unknown category '" + cells[2] + "'");
    if (cells[4] != "condition" && cells[4] != "negation")
      throw litmus::Error({file, n, 1}, "unknown kills '" + cells[4] + "' (expected condition or negation)");
    out.push_back({cells[0], *c, cells[3], cells[4] == "negation"});
  }
  if (n == 0) throw litmus::Error({file, 0, 0}, "empty index");
  return out;
}

std::map<std::string, RunRecord> readResults(const std::string& text, const std::string& file) {
  std::map<std::string, RunRecord> out;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const schema::Json j = schema::Json::parse(line, nullptr, false);
    schema::RunHead head;
    try {
      head = schema::runHeadOf(j);
    } catch (const std::invalid_argument& e) {
      throw litmus::Error({file, n, 1}, std::string("not a `litmus run --json` line: ") + e.what());
    }
    RunRecord& r = out[head.test];
    r.status = head.status;
    if (const auto it = j.find("condition"); it != j.end() && it->is_number_unsigned()) r.hits += it->get<uint64_t>();
    if (const auto it = j.find("histogram"); it != j.end() && it->is_array())
      for (const schema::Json& h : *it)
        if (h.is_object() && h.value("condition", true) == false && h.contains("count") && h["count"].is_number_unsigned())
          r.misses += h["count"].get<uint64_t>();
    r.ran = r.ran || r.status == "ok";
    r.violation = r.violation || head.verdict == judge::RunVerdict::Violation;
  }
  return out;
}

Score score(const std::vector<IndexEntry>& index, const std::map<std::string, RunRecord>& results,
            bool fromNames) {
  std::map<Category, Tally> per;
  auto find = [&](const std::string& name) -> const RunRecord* {
    const auto it = results.find(name);
    return it == results.end() ? nullptr : &it->second;
  };
  if (fromNames) {
    for (const auto& [name, r] : results)
      if (const std::optional<Category> c = categoryOfName(name)) add(per[*c], &r, false);
  } else {
    for (const IndexEntry& e : index)
      if (e.verdict == "killable") add(per[e.category], find(e.mutant), e.negated);
  }
  Score s;
  s.fromNames = fromNames;
  for (Category c : allCategories()) {
    s.categories.emplace_back(c, per[c]);
    merge(s.total, per[c]);
  }
  return s;
}

void printScore(std::ostream& os, const Score& s) {
  os << "Mutation score: " << s.total.killed << " of " << s.total.killable << " killable mutants killed ("
     << percent(s.total.killed, s.total.killable) << ")\n";
  if (s.fromNames)
    os << "(no index: every result named <original>~<category>-<k> counted as killable, killed by its condition)\n";
  os << std::left << std::setw(20) << "category" << std::right << std::setw(9) << "killable" << std::setw(8)
     << "killed" << std::setw(12) << "not killed" << std::setw(9) << "not run" << std::setw(8) << "score"
     << "\n";
  for (const auto& [c, t] : s.categories) printRow(os, toString(c), t);
  printRow(os, "total", s.total);
  if (!s.total.notRunWhy.empty()) {
    os << "Not run:";
    const char* sep = " ";
    for (const auto& [why, n] : s.total.notRunWhy) {
      os << sep << n << " " << why;
      sep = ", ";
    }
    os << "\n";
  }
  if (s.total.violations)
    os << "Violations: " << s.total.violations
       << " of the killable mutants showed a state the model forbids (see their results)\n";
  os << "Reference: " << kReference << "\n";
}

nlohmann::ordered_json scoreJson(const Score& s) {
  nlohmann::ordered_json cats = nlohmann::ordered_json::object();
  for (const auto& [c, t] : s.categories) cats[toString(c)] = tallyJson(t);
  return {{"categories", cats},
          {"total", tallyJson(s.total)},
          {"fromNames", s.fromNames},
          {"reference", {{"source", kReference}, {"killed", 32}, {"mutants", 32}}}};
}

}  // namespace mutate
