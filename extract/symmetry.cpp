// Identical CTAs (docs/extract.md, E8): when the CTAs of a launch share nothing but cluster
// barriers (no CTA reaches another's shared memory, no global word one CTA writes is accessed by
// another) and their code is the same up to the names of their own shared locations, every
// verdict of the whole launch is that of one CTA: each execution of the launch is an execution of
// each CTA, and a hang, race or failed check in one is one in each. The test keeps the first CTA.
#include <cctype>
#include <map>
#include <set>

#include "extract/symmetry.h"

namespace extract {

namespace {

// The code of a CTA's groups with its shared locations named as the first CTA's.
std::string ctaSignature(const std::vector<Group>& groups, int cta, const std::map<std::string, std::string>& rename) {
  std::string s;
  for (const Group& g : groups) {
    if (g.cta != cta) continue;
    for (const Line& l : g.code.lines) {
      std::string text = l.label + ":";
      for (size_t i = 0; i < l.text.size();) {
        if (!std::isalpha(static_cast<unsigned char>(l.text[i])) && l.text[i] != '_') {
          text += l.text[i++];
          continue;
        }
        size_t e = i;
        while (e < l.text.size() && (std::isalnum(static_cast<unsigned char>(l.text[e])) || l.text[e] == '_')) ++e;
        const std::string word = l.text.substr(i, e - i);
        auto it = rename.find(word);
        text += it == rename.end() ? word : it->second;
        i = e;
      }
      s += text + "@" + std::to_string(l.origin.line) + "\n";
    }
    s += "members " + std::to_string(g.members.size()) + "\n";
    for (const litmus::Cond& c : g.code.errors) s += "?" + litmus::formatCondition(c) + "\n";
  }
  return s;
}

bool independent(const std::vector<Group>& groups, const std::vector<MemObject>& objects) {
  std::map<std::pair<int, int64_t>, std::set<int>> writers, users;  // global word -> CTAs
  for (const Group& g : groups)
    for (const Access& a : g.code.accesses) {
      const MemObject& o = objects[a.obj];
      if (o.kind == MemObject::Kind::Shared) {
        if (o.cta != g.cta) return false;
        continue;
      }
      for (int64_t w = a.offset / 4; w * 4 < a.offset + std::max(a.bytes, 1); ++w) {
        users[{a.obj, w}].insert(g.cta);
        if (a.write) writers[{a.obj, w}].insert(g.cta);
      }
    }
  for (const auto& [word, ctas] : writers)
    if (users[word].size() > 1) return false;
  return true;
}

}  // namespace

void keepOneOfIdenticalCtas(std::vector<Group>& groups, const std::vector<MemObject>& objects,
                            std::vector<std::string>& notes) {
  std::set<int> ctas;
  for (const Group& g : groups) ctas.insert(g.cta);
  if (ctas.size() < 2 || !independent(groups, objects)) return;
  const int first = *ctas.begin();
  std::map<std::string, std::string> toFirst;  // "full_c3" -> "full_c0"
  std::map<std::pair<std::string, int>, std::string> byVariable;
  for (const MemObject& o : objects)
    if (o.kind == MemObject::Kind::Shared) byVariable[{o.ptxName, o.cta}] = o.name;
  std::string want;
  for (int cta : ctas) {
    std::map<std::string, std::string> rename;
    for (const MemObject& o : objects)
      if (o.kind == MemObject::Kind::Shared && o.cta == cta) rename[o.name] = byVariable[{o.ptxName, first}];
    const std::string sig = ctaSignature(groups, cta, rename);
    if (cta == first) want = sig;
    else if (sig != want) return;
  }
  std::erase_if(groups, [&](const Group& g) { return g.cta != first; });
  notes.push_back("note: the launch's " + std::to_string(ctas.size()) +
                  " CTAs share nothing but cluster barriers and run the same code: the test keeps CTA " +
                  std::to_string(first) + " (docs/extract.md, E8)");
}

}  // namespace extract
