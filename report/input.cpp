#include "report/input.h"

#include <zlib.h>

#include <fstream>
#include <sstream>

#include "litmus/test.h"

namespace report {

namespace {

using Json = nlohmann::ordered_json;

bool has(const Json& j, const char* key) { return j.contains(key); }

// A `litmus run --json` line: a refused test carries test, file, family, verdict, reason, status.
bool isRun(const Json& j) { return has(j, "test") && has(j, "verdict") && has(j, "status") && has(j, "reason"); }
// A `litmus check --json` object: the outcome's keys (litmus/outcome.cpp, toJson).
bool isCheck(const Json& j) { return has(j, "test") && has(j, "quantifier") && has(j, "states") && has(j, "status"); }
// A `litmus suite --json` line: the outcome nested, with the suite's verdict.
bool isSuite(const Json& j) { return has(j, "path") && has(j, "verdict") && has(j, "outcome") && j["outcome"].is_object(); }

Record classify(Json j, const std::string& path, int line) {
  if (!j.is_object())
    throw litmus::Error({path, line, 1}, "expected a JSON object per line");
  if (isSuite(j) && isCheck(j["outcome"])) {
    Json out = j["outcome"];
    out["file"] = j["path"];
    out["suiteVerdict"] = j["verdict"];
    out["expect"] = {{"verdict", j.value("expected", "")}};
    return {"check", std::move(out), path, line};
  }
  if (isCheck(j)) return {"check", std::move(j), path, line};
  if (isRun(j)) return {"run", std::move(j), path, line};
  throw litmus::Error({path, line, 1},
                      "neither a `litmus run --json` line (test, verdict, reason, status) nor a "
                      "`litmus check --json` or `litmus suite --json` object (test, quantifier, states, status)");
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
