// Writing the mutants, the index and the summary (output.h).
#include "mutate/output.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

namespace mutate {
namespace {

namespace fs = std::filesystem;

// TSV fields hold no tabs or line breaks.
std::string field(std::string s) {
  for (char& c : s)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return s.empty() ? "-" : s;
}

std::string fileOf(const Mutant& m) {
  return m.yaml.empty() ? "" : std::string(toString(m.verdict)) + "/" + m.name + ".yaml";
}

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  if (!(out << text) || !(out.flush()))
    throw litmus::Error({path.string(), 0, 0}, "cannot write this file");
}

// Per category: killable, equivalent, unknown, invalid, and the killable the runner refuses.
using Counts = std::array<int, 5>;
std::map<Category, Counts> countByCategory(const Generated& g) {
  std::map<Category, Counts> out;
  for (Category c : allCategories()) out[c] = {};
  for (const Mutant& m : g.mutants) {
    ++out[m.category][static_cast<size_t>(m.verdict)];
    if (m.verdict == Verdict::Killable && m.runner != "runs") ++out[m.category][4];
  }
  return out;
}

}  // namespace

void prepareOutput(const std::string& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) throw litmus::Error({dir, 0, 0}, "not a directory");
    if (!fs::is_empty(dir, ec))
      throw litmus::Error({dir, 0, 0}, "the output directory is not empty (mutants of an earlier run "
                                       "would be run and scored with the new ones)");
  }
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) throw litmus::Error({dir, 0, 0}, "cannot create directory");
}

void writeOutput(const std::string& dir, const Generated& g) {
  for (const char* sub : {"killable", "equivalent", "unknown"}) fs::create_directories(fs::path(dir) / sub);
  std::string index = std::string(kIndexHeader) + "\n";
  for (const Mutant& m : g.mutants) {
    const std::string file = fileOf(m);
    if (!file.empty()) writeFile(fs::path(dir) / file, m.yaml);
    index += field(m.name) + "\t" + field(m.original) + "\t" + toString(m.category) + "\t" +
             toString(m.verdict) + "\t" + (m.negated ? "negation" : "condition") + "\t" + field(m.runner) + "\t" + field(file) + "\t" + field(m.change) +
             "\t" + field(m.why) + "\n";
  }
  writeFile(fs::path(dir) / "index.tsv", index);
  std::map<std::string, int> perOriginal;
  for (const Mutant& m : g.mutants)
    if (!m.yaml.empty()) ++perOriginal[m.original];
  std::string originals = "test\tfile\tstatus\tmutants\twhy\n";
  for (const Original& o : g.originals)
    originals += field(o.name) + "\t" + field(o.file) + "\t" + (o.mutated ? "mutated" : "skipped") + "\t" +
                 std::to_string(perOriginal[o.name]) + "\t" + field(o.why) + "\n";
  writeFile(fs::path(dir) / "originals.tsv", originals);
}

void printSummary(std::ostream& os, const Generated& g, const std::string& dir) {
  int mutated = 0;
  for (const Original& o : g.originals) mutated += o.mutated;
  os << "Originals: " << g.originals.size() << " read, " << mutated << " mutated, "
     << g.originals.size() - static_cast<size_t>(mutated) << " skipped (originals.tsv says why)\n";
  os << std::left << std::setw(20) << "category" << std::right << std::setw(9) << "killable" << std::setw(12)
     << "equivalent" << std::setw(9) << "unknown" << std::setw(9) << "invalid" << std::setw(16)
     << "runner refuses" << "\n";
  Counts total{};
  for (const auto& [c, n] : countByCategory(g)) {
    os << std::left << std::setw(20) << toString(c) << std::right << std::setw(9) << n[0] << std::setw(12)
       << n[1] << std::setw(9) << n[2] << std::setw(9) << n[3] << std::setw(16) << n[4] << "\n";
    for (size_t i = 0; i < total.size(); ++i) total[i] += n[i];
  }
  os << std::left << std::setw(20) << "total" << std::right << std::setw(9) << total[0] << std::setw(12)
     << total[1] << std::setw(9) << total[2] << std::setw(9) << total[3] << std::setw(16) << total[4] << "\n";
  if (dir.empty()) return;
  os << "Wrote " << dir << "/index.tsv; the killable mutants are " << dir << "/killable/\n"
     << "Run:   litmus run " << dir << "/killable --json RESULTS.json\n"
     << "Score: litmus mutate --score RESULTS.json " << dir << "/index.tsv\n";
}

nlohmann::ordered_json summaryJson(const Generated& g) {
  nlohmann::ordered_json out, cats = nlohmann::ordered_json::object();
  for (const auto& [c, n] : countByCategory(g))
    cats[toString(c)] = {{"killable", n[0]}, {"equivalent", n[1]}, {"unknown", n[2]}, {"invalid", n[3]},
                         {"runnerRefuses", n[4]}};
  int mutated = 0;
  for (const Original& o : g.originals) mutated += o.mutated;
  out["originals"] = g.originals.size();
  out["mutated"] = mutated;
  out["categories"] = cats;
  return out;
}

}  // namespace mutate
