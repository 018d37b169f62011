#include "checker/readings_check.h"

#include <string>

#include "model/readings.h"

namespace checker {

std::vector<litmus::Reliance> readingReliances(const litmus::Test& test, const Options& options,
                                               const litmus::Outcome& base, double secondsLeft) {
  std::vector<litmus::Reliance> out;
  if (base.status != litmus::Status::Done) return out;
  for (model::Decision d : model::touched(test)) {
    const int k = static_cast<int>(d);
    if (options.readings.chosen[k]) continue;  // the user or the test chose it
    const model::DecisionInfo& di = model::info(d);
    const model::ReadingInfo& inForce = di.readings[options.readings.of(d)];
    for (size_t alt = 0; alt < di.readings.size(); ++alt) {
      if (static_cast<int>(alt) == options.readings.of(d)) continue;
      const model::ReadingInfo& other = di.readings[alt];
      // What a stronger model cannot change: a Never where every execution terminates stays so
      // (it only removes executions); a weaker one keeps a Sometimes that may hang (it only adds).
      const int stronger = inForce.stronger != 0 ? -inForce.stronger : other.stronger;
      if ((stronger > 0 && base.observation() == litmus::Observation::Never && base.hang.empty()) ||
          (stronger < 0 && base.observation() == litmus::Observation::Sometimes && !base.hang.empty()))
        continue;
      Options o = options;
      o.readings.pick[k] = static_cast<uint8_t>(alt);
      o.readings.chosen[k] = true;
      o.alternatives = false;
      o.explain = o.witnesses = false;
      o.explainState.reset();
      o.spentSeconds = 0;
      o.timeoutSeconds = secondsLeft;
      if (options.timeoutSeconds > 0 && secondsLeft <= 0) {
        out.push_back({std::string(di.id),
                       std::string(inForce.name) + "; under " + std::string(other.name) +
                           " the outcome is not known: no time was left to check it",
                       std::string(inForce.name), std::string(other.name), "Unknown"});
        continue;
      }
      const litmus::Outcome alt_ = check(test, o).outcome;
      if (alt_.status != litmus::Status::Done) {
        out.push_back({std::string(di.id),
                       std::string(inForce.name) + "; under " + std::string(other.name) +
                           " the outcome is not known (" + alt_.statusDetail + ")",
                       std::string(inForce.name), std::string(other.name), "Unknown"});
        continue;
      }
      // liveness counts too: whether some execution hangs, and whether any finishes (D38)
      if (alt_.observation() == base.observation() && alt_.hang.empty() == base.hang.empty() &&
          alt_.vacuous() == base.vacuous())
        continue;
      std::string says = "the outcome is " + std::string(litmus::toString(alt_.observation()));
      if (alt_.vacuous() && !base.vacuous()) says += " and no execution finishes";
      else if (alt_.hang.empty() != base.hang.empty())
        says += alt_.hang.empty() ? " and every execution terminates" : " and it may hang";
      std::string text = std::string(inForce.name) + "; under " + std::string(other.name) + " " + says;
      if (!other.reliedOnBy.empty()) text += " (" + std::string(other.reliedOnBy) + ")";
      out.push_back({std::string(di.id), text, std::string(inForce.name), std::string(other.name),
                     litmus::toString(alt_.observation())});
    }
  }
  return out;
}

}  // namespace checker
