#include "checker/checker.h"

#include "checker/explicit_engine.h"

namespace checker {

const char* toString(Engine e) {
  switch (e) {
    case Engine::Auto: return "auto";
    case Engine::Explicit: return "explicit";
    case Engine::Smt: return "smt";
    case Engine::Both: return "both";
  }
  return "?";
}

std::optional<Engine> parseEngine(const std::string& s) {
  for (Engine e : {Engine::Auto, Engine::Explicit, Engine::Smt, Engine::Both})
    if (s == toString(e)) return e;
  return std::nullopt;
}

Result check(const litmus::Test& test, const Options& options) {
  switch (options.engine) {
    case Engine::Auto:
    case Engine::Explicit: return checkExplicit(test, options);
    case Engine::Smt:
    case Engine::Both: break;
  }
  throw litmus::Error({test.file, 0, 0}, std::string("engine '") + toString(options.engine) +
                                             "' is not available yet");
}

}  // namespace checker
