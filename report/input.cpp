#include "report/input.h"

#include <zlib.h>

#include <fstream>
#include <sstream>

#include "litmus/test.h"
#include "schema/record.h"

namespace report {

namespace {

using Json = nlohmann::ordered_json;

// A record as the page reads it: a suite record becomes the check record of its outcome, with
// the suite's decision and failure.
Record classify(Json j, const std::string& path, int line) {
  schema::Kind kind;
  try {
    kind = schema::kindOf(j);
  } catch (const std::invalid_argument& e) {
    throw litmus::Error({path, line, 1}, e.what());
  }
  if (kind == schema::Kind::Suite) {
    const schema::SuiteRecord s = schema::suiteRecordOf(j);
    Json out = s.outcome;
    out["file"] = s.path;
    out["expect"] = {{"verdict", litmus::toString(s.expected)}, {"met", schema::optionalBool(s.verdictMet)}};
    out["decision"] = judge::toString(s.verdict);
    out["failures"] = s.verdict == judge::Decision::Fail ? Json::array({s.message}) : Json::array();
    return {"check", std::move(out), path, line};
  }
  return {schema::isRun(kind) ? "run" : "check", std::move(j), path, line};
}

std::string inflate(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw litmus::Error({path, 0, 0}, "cannot read the file");
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  int err = Z_OK;
  const std::string why = n < 0 ? gzerror(f, &err) : "";
  gzclose(f);
  if (n < 0) throw litmus::Error({path, 0, 0}, "not a valid gzip file: " + why);
  return out;
}

}  // namespace

std::string readMaybeGzip(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw litmus::Error({path, 0, 0}, "cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  std::string bytes = text.str();
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
      static_cast<unsigned char>(bytes[1]) == 0x8b)
    return inflate(path);
  return bytes;
}

std::vector<Record> readResults(const std::string& path) {
  const std::string text = readMaybeGzip(path);
  std::vector<Record> out;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Json j;
    try {
      j = Json::parse(line);
    } catch (const Json::parse_error& e) {
      const int col = e.byte > 0 ? static_cast<int>(std::min<size_t>(e.byte, line.size() + 1)) : 1;
      std::string why = e.what();
      const size_t at = why.find("error: ");
      throw litmus::Error({path, n, col}, "not JSON: " + (at == std::string::npos ? why : why.substr(at + 7)));
    }
    out.push_back(classify(std::move(j), path, n));
  }
  if (out.empty()) throw litmus::Error({path, 0, 0}, "no results in the file");
  return out;
}

}  // namespace report
