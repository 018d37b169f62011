// Settling lazy values (model/value.h): once each read's write is chosen, a read returns that
// write's value, and every other value follows from the reads of its thread.
#include "semantics/semantics.h"

#include "semantics/collectives.h"

namespace model {

namespace {

class Settler {
 public:
  // partial: reads with no write yet (rfSource -1) have no value; the check is then of what the
  // chosen writes already decide.
  Settler(const std::vector<Event>& events, const std::vector<const Trace*>& traces,
          const std::vector<int>& offset, const std::vector<int>& rfSource, bool partial)
      : events_(events), traces_(traces), offset_(offset), rf_(rfSource), partial_(partial),
        value_(events.size(), 0), state_(events.size(), kTodo) {}

  std::optional<Settled> run() {
    if (!partial_)
      for (size_t e = 0; e < events_.size(); ++e)
        if (!valueOf(static_cast<int>(e))) return std::nullopt;
    Settled out;
    for (size_t t = 0; t < traces_.size(); ++t) {
      const Trace& tr = *traces_[t];
      const ReadLookup look = lookupIn(static_cast<int>(t));
      // a read the path fixed must read its value; the path's decisions must hold
      for (size_t i = 0; i < tr.events.size(); ++i) {
        const int e = offset_[t] + static_cast<int>(i);
        const bool result = tr.events[i].isCollectiveResult();  // its phase gives it (D41)
        if (!(tr.events[i].isRead() || result) || !tr.vals[i].known() || (!result && rf_[e] < 0)) continue;
        const auto v = result ? collective(e) : valueOf(rf_[e]);
        if (v && *v != tr.vals[i].k) return std::nullopt;
      }
      for (const auto& g : tr.guards) {
        const auto v = evaluate(g.v, look);
        if (v && (*v != 0) != g.truth) return std::nullopt;
      }
      if (partial_) continue;
      out.regs.emplace_back();
      for (const Val& v : tr.regVals) out.regs.back().push_back(*evaluate(v, look));
    }
    out.values = std::move(value_);
    return out;
  }

 private:
  enum State : uint8_t { kTodo, kBusy, kDone, kNone };
  const std::vector<Event>& events_;
  const std::vector<const Trace*>& traces_;
  const std::vector<int>& offset_;
  const std::vector<int>& rf_;
  const bool partial_;
  std::vector<int64_t> value_;
  std::vector<State> state_;

  // A collective's result: computed from the operands of its phase's arrivals.
  std::optional<int64_t> collective(int e) {
    std::vector<std::pair<int, int64_t>> ops;
    for (int a : phaseArrivals(events_, e)) {
      const auto v = valueOf(a);
      if (!v) return std::nullopt;
      ops.emplace_back(events_[a].lane, *v);
    }
    return collectiveResult(*events_[e].warpInstr, events_[e].lane, ops);
  }

 public:
  // Each thread's final registers, as far as the chosen writes decide them (partial).
  std::vector<std::vector<std::optional<int64_t>>> registers() {
    std::vector<std::vector<std::optional<int64_t>>> out;
    for (size_t t = 0; t < traces_.size(); ++t) {
      const ReadLookup look = lookupIn(static_cast<int>(t));
      out.emplace_back();
      for (const Val& v : traces_[t]->regVals) out.back().push_back(evaluate(v, look));
    }
    return out;
  }

 private:
  ReadLookup lookupIn(int t) {
    return [this, t](int r) { return valueOf(offset_[t] + r); };
  }

  // The value of event e, settling the reads it depends on first; nullopt on a cycle (or, when
  // partial, a read with no write yet).
  std::optional<int64_t> valueOf(int e) {
    if (state_[e] == kDone) return value_[e];
    if (state_[e] == kBusy || state_[e] == kNone) return std::nullopt;
    const int t = events_[e].thread;
    if (t < 0) {  // an initial write
      state_[e] = kDone;
      return value_[e] = events_[e].value;
    }
    state_[e] = kBusy;
    const Trace& tr = *traces_[t];
    const int i = e - offset_[t];
    std::optional<int64_t> v;
    if (events_[e].isCollectiveResult()) v = collective(e);
    else if (isReadOf(tr.vals[i], i)) v = rf_[e] >= 0 ? valueOf(rf_[e]) : std::nullopt;
    else v = evaluate(tr.vals[i], lookupIn(t));
    if (!v) {
      state_[e] = kNone;
      return std::nullopt;
    }
    state_[e] = kDone;
    return value_[e] = *v;
  }
};

}  // namespace

std::vector<std::vector<std::optional<int64_t>>> partialRegisters(
    const std::vector<Event>& events, const std::vector<const Trace*>& traces,
    const std::vector<int>& offset, const std::vector<int>& rfSource) {
  return Settler(events, traces, offset, rfSource, true).registers();
}

std::optional<Settled> settleValues(const std::vector<Event>& events,
                                    const std::vector<const Trace*>& traces,
                                    const std::vector<int>& offset, const std::vector<int>& rfSource) {
  return Settler(events, traces, offset, rfSource, false).run();
}

bool valuesMayHold(const std::vector<Event>& events, const std::vector<const Trace*>& traces,
                   const std::vector<int>& offset, const std::vector<int>& rfSource) {
  return Settler(events, traces, offset, rfSource, true).run().has_value();
}

}  // namespace model
