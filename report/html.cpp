#include "report/html.h"

#include <filesystem>
#include <map>

#include "checker/graph.h"

namespace report {

namespace {

using Json = nlohmann::ordered_json;

std::string htmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// JSON inside <script>: "</" would end the element and "<!--" change how it is parsed; "<\/" and
// "\u003c!--" are the same JSON strings.
std::string scriptSafe(std::string s) {
  for (size_t at = 0; (at = s.find("</", at)) != std::string::npos; at += 3) s.replace(at, 2, "<\\/");
  for (size_t at = 0; (at = s.find("<!--", at)) != std::string::npos; at += 9) s.replace(at, 1, "\\u003c");
  return s;
}

// A test's family: the run's own, else the directory its file is in (the catalogue's layout).
std::string familyOf(const Json& d) {
  const std::string f = d.value("family", "");
  if (!f.empty()) return f;
  const std::string dir = std::filesystem::path(d.value("file", "")).parent_path().filename().string();
  return dir.empty() ? d.value("test", "?") : dir;
}

Json entry(const Record& r, const PageOptions& o, std::map<std::string, Graph>& cache) {
  Json e = r.data;
  e["kind"] = r.kind;
  e["source"] = r.source + ":" + std::to_string(r.line);
  e["familyKey"] = familyOf(r.data);
  // The same test in several files (a run and a check) is drawn once per forbidden state.
  const std::string key = r.kind + "|" + r.data.value("file", "") + "|" + r.data.value("test", "");
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, forbiddenGraph(r, o.graphs)).first;
  if (!it->second.svg.empty()) e["graphSvg"] = it->second.svg;
  if (!it->second.state.empty()) e["graphState"] = it->second.state;
  if (!it->second.note.empty()) e["graphNote"] = it->second.note;
  return e;
}

}  // namespace

std::string renderPage(const std::vector<Record>& records, const std::vector<std::string>& sources,
                       const PageOptions& o) {
  Json data;
  data["title"] = o.title;
  data["sources"] = sources;
  data["graphviz"] = checker::haveGraphviz();
  data["graphsEnabled"] = o.graphs.enabled;
  Json tests = Json::array();
  std::map<std::string, Graph> cache;
  for (size_t i = 0; i < records.size(); ++i) {
    tests.push_back(entry(records[i], o, cache));
    if (o.progress) o.progress(i + 1, records.size());
  }
  data["tests"] = std::move(tests);
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<title>" + htmlEscape(o.title) + "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n";
  page += "<header><h1>" + htmlEscape(o.title) + "</h1><p id=\"sources\"></p></header>\n";
  page += "<noscript><p class=\"warn\">This report is drawn by its inline script: enable JavaScript "
          "(nothing is fetched from the network).</p></noscript>\n";
  page += "<main id=\"report\"><p id=\"loading\">Drawing the report...</p></main>\n";
  page += "<script type=\"application/json\" id=\"data\">" + scriptSafe(data.dump(-1, ' ', false, Json::error_handler_t::replace)) + "</script>\n";
  page += "<script>\n" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace report
