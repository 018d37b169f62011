#include "model/value.h"

#include <array>

#include <algorithm>

namespace model {

Val readValue(int read) {
  Val v;
  auto e = std::make_shared<Expr>();
  e->read = read;
  v.e = std::move(e);
  return v;
}

Val lift(std::vector<Val> args, ValueFn f) {
  if (std::all_of(args.begin(), args.end(), [](const Val& a) { return a.known(); })) {
    std::vector<int64_t> ks;
    for (const Val& a : args) ks.push_back(a.k);
    return Val(f(ks));
  }
  Val v;
  auto e = std::make_shared<Expr>();
  e->f = std::move(f);
  e->args = std::move(args);
  v.e = std::move(e);
  return v;
}

Val lift(const Val& a, const std::function<int64_t(int64_t)>& f) {
  return lift(std::vector<Val>{a}, [f](std::span<const int64_t> x) { return f(x[0]); });
}

Val lift(const Val& a, const Val& b, const std::function<int64_t(int64_t, int64_t)>& f) {
  return lift(std::vector<Val>{a, b}, [f](std::span<const int64_t> x) { return f(x[0], x[1]); });
}

std::optional<int64_t> evaluate(const Val& v, const ReadLookup& lookup) {
  if (v.known()) return v.k;
  if (v.e->read >= 0) return lookup(v.e->read);
  // the arguments on the stack: the explicit engine evaluates on every step of its search
  constexpr size_t kFew = 8;
  std::array<int64_t, kFew> few;
  std::vector<int64_t> many(v.e->args.size() > kFew ? v.e->args.size() : 0);
  int64_t* ks = many.empty() ? few.data() : many.data();
  for (size_t i = 0; i < v.e->args.size(); ++i) {
    const auto x = evaluate(v.e->args[i], lookup);
    if (!x) return std::nullopt;
    ks[i] = *x;
  }
  return v.e->f(std::span<const int64_t>(ks, v.e->args.size()));
}

namespace {
void collectReads(const Val& v, std::vector<int>& out) {
  if (v.known()) return;
  if (v.e->read >= 0) {
    out.push_back(v.e->read);
    return;
  }
  for (const Val& a : v.e->args) collectReads(a, out);
}
}  // namespace

std::vector<int> readsOf(const Val& v) {
  std::vector<int> out;
  collectReads(v, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool isReadOf(const Val& v, int read) { return !v.known() && v.e->read == read; }

}  // namespace model
