#include "gpu-runner/params.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "litmus/test.h"

namespace gpu {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Rng::Rng(uint64_t seed) {
  for (auto& w : s_) w = splitmix64(seed);
}

uint64_t Rng::next() {
  auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

// Rejection sampling: a plain modulo would favour small values for large n.
uint64_t Rng::below(uint64_t n) {
  if (n == 0) return 0;
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  for (;;) {
    const uint64_t x = next();
    if (x < limit) return x % n;
  }
}

uint32_t Rng::range(uint32_t lo, uint32_t hi) {
  if (hi <= lo) return lo;
  return lo + static_cast<uint32_t>(below(uint64_t{hi} - lo + 1));
}

bool Rng::chance(int percent) { return static_cast<int>(below(100)) < percent; }

uint64_t gcd(uint64_t a, uint64_t b) {
  while (b) {
    a %= b;
    std::swap(a, b);
  }
  return a;
}

uint64_t modInverse(uint64_t a, uint64_t m) {
  if (m <= 1) return 0;
  int64_t t = 0, newT = 1;
  int64_t r = static_cast<int64_t>(m), newR = static_cast<int64_t>(a % m);
  while (newR != 0) {
    const int64_t q = r / newR;
    t = std::exchange(newT, t - q * newT);
    r = std::exchange(newR, r - q * newR);
  }
  if (t < 0) t += static_cast<int64_t>(m);
  return static_cast<uint64_t>(t);
}

uint64_t coprime(Rng& rng, uint64_t n) {
  if (n <= 2) return 1;
  for (;;) {
    const uint64_t p = 1 + rng.below(n - 1);
    if (gcd(p, n) == 1) return p;
  }
}

namespace {

// One profile key: its range when read from a file, and the range --tune draws from.
struct Field {
  const char* name;
  int Profile::*member;
  int min, max;
  int drawMin, drawMax;
  const char* help;
};

constexpr Field kFields[] = {
    {"threadsPerBlock", &Profile::threadsPerBlock, 32, 1024, 64, 1024, "testing threads per block"},
    {"occupancyPct", &Profile::occupancyPct, 1, 100, 25, 100, "% of the resident capacity used"},
    {"memStride", &Profile::memStride, 1, 64, 1, 32, "words between instances' slots (max)"},
    {"interleavePct", &Profile::interleavePct, 0, 100, 0, 100, "% launches with locations side by side"},
    {"shufflePct", &Profile::shufflePct, 0, 100, 0, 100, "% launches with shuffled role blocks"},
    {"barrierPct", &Profile::barrierPct, 0, 100, 0, 100, "% launches with the spin barrier"},
    {"spinLimit", &Profile::spinLimit, 1, 1000000, 256, 65536, "polls before the barrier gives up"},
    {"delayMax", &Profile::delayMax, 0, 100000, 0, 2000, "random delay after the barrier (clocks)"},
    {"roleSkew", &Profile::roleSkew, 0, 100000, 0, 1000, "delay per litmus-thread index (clocks)"},
    {"stressPct", &Profile::stressPct, 0, 400, 0, 100, "stressing blocks, % of testing blocks"},
    {"stressIters", &Profile::stressIters, 0, 100000, 0, 2048, "accesses per stressing thread"},
    {"stressLineBytes", &Profile::stressLineBytes, 4, 1024, 16, 256, "scratch line size"},
    {"stressLines", &Profile::stressLines, 1, 64, 1, 16, "scratch lines under stress"},
    {"stressPattern", &Profile::stressPattern, 0, 4, 0, 4, "0 st/st 1 st/ld 2 ld/st 3 ld/ld 4 any"},
    {"preStressPct", &Profile::preStressPct, 0, 100, 0, 100, "% launches whose testers pre-stress"},
    {"preStressIters", &Profile::preStressIters, 0, 100000, 0, 256, "pre-stress accesses per tester"},
    {"globalBarrierPct", &Profile::globalBarrierPct, 0, 100, 0, 100, "% barriers with one counter per launch"},
    {"serialPct", &Profile::serialPct, 0, 100, 0, 100, "% launches running all roles in every lane"},
    {"prefetchPct", &Profile::prefetchPct, 0, 100, 0, 100, "% launches whose testers first read locations they load"},
    {"lineStressPct", &Profile::lineStressPct, 0, 100, 0, 100, "% launches whose testers first load their lines"},
    {"lineStressOps", &Profile::lineStressOps, 1, 4096, 1, 128, "reductions per chosen location in those"},
};

uint32_t roundUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
bool powerOfTwo(int v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

std::string formatProfile(const Profile& p) {
  std::ostringstream os;
  os << "# litmus run: stress profile (docs/gpu-runner.md); `litmus run --tune` writes it\n";
  for (const Field& f : kFields) os << f.name << " = " << p.*f.member << "    # " << f.help << "\n";
  return os.str();
}

std::vector<std::pair<std::string, int>> profileValues(const Profile& p) {
  std::vector<std::pair<std::string, int>> out;
  for (const Field& f : kFields) out.emplace_back(f.name, p.*f.member);
  return out;
}

namespace {

// One "key = value" line (comments stripped, not blank) into p.
void parseProfileLine(const std::string& body, const std::string& file, int lineNo, size_t start, Profile& p) {
  const size_t eq = body.find('=');
  const litmus::SourceLoc at{file, lineNo, static_cast<int>(start) + 1};
  if (eq == std::string::npos) throw litmus::Error(at, "expected 'key = value'");
  std::string key = body.substr(start, eq - start);
  key.erase(key.find_last_not_of(" \t") + 1);
  const Field* field = nullptr;
  for (const Field& f : kFields)
    if (key == f.name) field = &f;
  if (!field) throw litmus::Error(at, "unknown profile key '" + key + "'");
  std::string value = body.substr(eq + 1);
  const size_t vs = value.find_first_not_of(" \t");
  value = vs == std::string::npos ? "" : value.substr(vs);
  value.erase(value.find_last_not_of(" \t\r") + 1);
  const litmus::SourceLoc vat{file, lineNo, static_cast<int>(eq + 1 + (vs == std::string::npos ? 0 : vs)) + 1};
  size_t used = 0;
  long v = 0;
  try {
    v = std::stol(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (value.empty() || used != value.size() || v < field->min || v > field->max)
    throw litmus::Error(vat, "bad value '" + value + "' for " + key + " (" + std::to_string(field->min) + ".." +
                                 std::to_string(field->max) + ")");
  p.*field->member = static_cast<int>(v);
}

void checkProfile(const Profile& p, const std::string& file, const std::string& section) {
  const std::string where = section.empty() ? "" : " (section [family " + section + "])";
  if (p.threadsPerBlock % 32 != 0)
    throw litmus::Error({file, 0, 0}, "threadsPerBlock must be a multiple of 32" + where);
  if (!powerOfTwo(p.stressLineBytes))
    throw litmus::Error({file, 0, 0}, "stressLineBytes must be a power of two" + where);
}

constexpr const char* kSection = "[family ";

}  // namespace

ProfileSet parseProfiles(const std::string& text, const std::string& file) {
  ProfileSet set;
  Profile* current = &set.base;
  std::string section;
  std::istringstream in(text);
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    const std::string body = line.substr(0, line.find('#'));
    const size_t start = body.find_first_not_of(" \t\r");
    if (start == std::string::npos) continue;
    if (body[start] != '[') {
      parseProfileLine(body, file, lineNo, start, *current);
      continue;
    }
    std::string header = body.substr(start);
    header.erase(header.find_last_not_of(" \t\r") + 1);
    const size_t n = std::string(kSection).size();
    if (header.compare(0, n, kSection) != 0 || header.back() != ']' || header.size() <= n + 1)
      throw litmus::Error({file, lineNo, static_cast<int>(start) + 1}, "expected a section '[family NAME]'");
    if (current != &set.base) checkProfile(*current, file, section);
    section = header.substr(n, header.size() - n - 1);
    if (set.families.count(section))
      throw litmus::Error({file, lineNo, static_cast<int>(start) + 1}, "a second section for family '" + section + "'");
    current = &(set.families[section] = set.base);  // a section starts from the default profile
  }
  checkProfile(set.base, file, "");
  if (current != &set.base) checkProfile(*current, file, section);
  return set;
}

Profile parseProfile(const std::string& text, const std::string& file) { return parseProfiles(text, file).base; }

const Profile& ProfileSet::forFamily(const std::string& family, std::string* section) const {
  const auto it = families.find(family);
  if (section) *section = it == families.end() ? "default" : family;
  return it == families.end() ? base : it->second;
}

std::string formatProfiles(const ProfileSet& set) {
  std::string out = formatProfile(set.base);
  if (set.families.empty()) return out;
  out += "# Per-family profiles (`litmus run --tune --per-family`): a test of family NAME runs with its\n"
         "# section; a section's keys start from the default profile above.\n";
  for (const auto& [family, p] : set.families) {
    out += std::string("\n") + kSection + family + "]\n";
    for (const Field& f : kFields) out += std::string(f.name) + " = " + std::to_string(p.*f.member) + "\n";
  }
  return out;
}

Profile randomProfile(Rng& rng) {
  Profile p;
  for (const Field& f : kFields)
    p.*f.member =
        static_cast<int>(rng.range(static_cast<uint32_t>(f.drawMin), static_cast<uint32_t>(f.drawMax)));
  p.threadsPerBlock = 32 << rng.range(1, 5);  // 64 .. 1024
  p.stressLineBytes = 16 << rng.range(0, 4);  // 16 .. 256
  return p;
}

namespace {

uint32_t strideBytes(const Shape& s, int words) {
  return roundUp(std::max<uint32_t>(static_cast<uint32_t>(s.slotBytes), 4u * static_cast<uint32_t>(words)),
                 static_cast<uint32_t>(std::max(4, s.slotAlign)));
}

// Per role: which group a hardware cluster serves, which lane and which group of the block an
// instance's thread takes. Co-prime multipliers make each a permutation; the kernel gets inverses.
void drawRoles(const Shape& s, uint32_t U, uint32_t K, Rng& rng, Launch& l) {
  for (int j = 0; j < s.roles; ++j) {
    uint32_t* w = &l.words[kRoleBase + kRoleWords * j];
    const uint64_t mul = coprime(rng, U);
    w[0] = static_cast<uint32_t>(U > 1 ? modInverse(mul, U) : 0);
    w[1] = static_cast<uint32_t>(rng.below(U));
    const uint32_t laneMul = s.laneMode ? 2 * rng.range(0, 15) + 1 : 1;
    const uint32_t laneOffset = s.laneMode ? static_cast<uint32_t>(rng.below(32)) : 0;
    w[2] = static_cast<uint32_t>(modInverse(laneMul, 32)) | laneOffset << 16;
    w[3] = static_cast<uint32_t>(rng.below(K));
  }
}

// Serial roles (kFlagSerial): instance n = G * L + Q of B blocks of L lanes runs its thread t of
// role r in block (G * m + off_r) mod B at lane (Q * m_r + a_r + c_t * L / W_r) mod L, where c_t is
// t's warp in its CTA and W_r the CTA's warps. One m for all roles and off_r = base + r * U put
// the roles of an instance in different blocks; each role's map is a bijection of the instances.
void drawSerialRoles(const Shape& s, uint32_t U, uint32_t L, Rng& rng, Launch& l) {
  const uint32_t B = static_cast<uint32_t>(s.roles) * U;
  const uint64_t mul = coprime(rng, B);
  const uint32_t base = static_cast<uint32_t>(rng.below(B));
  for (int j = 0; j < s.roles; ++j) {
    uint32_t* w = &l.words[kRoleBase + kRoleWords * j];
    w[0] = static_cast<uint32_t>(B > 1 ? modInverse(mul, B) : 0);
    w[1] = static_cast<uint32_t>((uint64_t{base} + uint64_t{U} * static_cast<uint32_t>(j)) % B);
    const uint64_t laneMul = coprime(rng, L);
    w[2] = static_cast<uint32_t>(modInverse(laneMul, L)) | static_cast<uint32_t>(rng.below(L)) << 16;
    w[3] = 0;
  }
}

}  // namespace

uint64_t maxInstances(const Shape& s, const Profile& p) {
  const uint64_t groups = std::max<uint64_t>(1, s.maxTestClusters / std::max(1, s.roles));
  const uint64_t placed = groups * groupsPerBlock(s, p) * (s.laneMode ? 32 : 1);
  // serial launches: an instance per testing lane
  if (s.serial && p.serialPct > 0) return std::max(placed, groups * static_cast<uint64_t>(s.roles) * blockThreads(s, p));
  return placed;
}

uint64_t locationBytes(const Shape& s, const Profile& p) {
  return static_cast<uint64_t>(std::max(1, s.globalLocations)) * maxInstances(s, p) *
         strideBytes(s, p.memStride);
}

uint32_t groupsPerBlock(const Shape& s, const Profile& p) {
  return std::clamp(static_cast<uint32_t>(p.threadsPerBlock) / (32u * static_cast<uint32_t>(s.warpsPerBlock)),
                    1u, static_cast<uint32_t>(s.maxGroupsPerBlock));
}

uint32_t blockThreads(const Shape& s, const Profile& p) {
  return groupsPerBlock(s, p) * static_cast<uint32_t>(s.warpsPerBlock) * 32;
}

Launch drawLaunch(const Shape& s, const Profile& p, Rng& rng) {
  Launch l;
  const uint32_t K = groupsPerBlock(s, p);
  const uint32_t roles = static_cast<uint32_t>(s.roles);
  const uint32_t cap = std::max(1u, s.maxTestClusters / roles);
  const uint32_t hi =
      std::max(1u, static_cast<uint32_t>(uint64_t{cap} * static_cast<uint32_t>(p.occupancyPct) / 100));
  const uint32_t U = rng.range(std::max(1u, hi / 2), hi);
  l.threads = K * static_cast<uint32_t>(s.warpsPerBlock) * 32;
  // Draws only where the keys are on, so that profiles without them keep their launches.
  const bool serial = s.serial && p.serialPct > 0 && rng.chance(p.serialPct);
  const uint32_t N = serial ? roles * U * l.threads : U * K * (s.laneMode ? 32 : 1);
  l.instances = N;
  l.words[kN] = N;
  l.words[kU] = U;
  l.words[kK] = K;
  const bool shuffle = rng.chance(p.shufflePct);
  l.words[kShuffleMul] = shuffle ? static_cast<uint32_t>(coprime(rng, uint64_t{roles} * U)) : 1;
  l.words[kShuffleAdd] = shuffle ? static_cast<uint32_t>(rng.below(uint64_t{roles} * U)) : 0;
  l.words[kStride] = strideBytes(s, static_cast<int>(rng.range(1, static_cast<uint32_t>(p.memStride))));
  l.words[kInterleave] = rng.chance(p.interleavePct) ? 1 : 0;
  l.words[kLocMul] = static_cast<uint32_t>(coprime(rng, N));
  l.words[kLocAdd] = static_cast<uint32_t>(rng.below(N));
  l.words[kLocStep] = static_cast<uint32_t>(rng.below(N));
  l.words[kSpinLimit] = rng.chance(p.barrierPct) ? static_cast<uint32_t>(p.spinLimit) : 0;
  const bool global = l.words[kSpinLimit] > 0 && p.globalBarrierPct > 0 && rng.chance(p.globalBarrierPct);
  l.words[kFlags] = (global ? kFlagGlobalBarrier : 0) | (serial ? kFlagSerial : 0);
  l.words[kDelayMax] = static_cast<uint32_t>(p.delayMax);
  l.words[kRoleSkew] = static_cast<uint32_t>(p.roleSkew);
  l.words[kSeed] = static_cast<uint32_t>(rng.next());
  l.words[kStressIters] = static_cast<uint32_t>(p.stressIters);
  l.words[kStressLines] = static_cast<uint32_t>(p.stressLines);
  l.words[kStressLineBytes] = static_cast<uint32_t>(p.stressLineBytes);
  l.words[kStressPattern] =
      p.stressPattern == 4 ? static_cast<uint32_t>(rng.below(4)) : static_cast<uint32_t>(p.stressPattern);
  l.words[kPreStressIters] = rng.chance(p.preStressPct) ? static_cast<uint32_t>(p.preStressIters) : 0;
  l.words[kScratchLines] = kScratchBytes / static_cast<uint32_t>(p.stressLineBytes);
  if (p.prefetchPct > 0 && rng.chance(p.prefetchPct)) l.words[kPrefetch] = 1;
  if (p.lineStressPct > 0 && rng.chance(p.lineStressPct)) l.words[kLineStress] = static_cast<uint32_t>(p.lineStressOps);
  const uint32_t testClusters = roles * U;
  l.words[kTestClusters] = testClusters;
  const uint32_t stressClusters = (testClusters * static_cast<uint32_t>(p.stressPct) + 99) / 100;
  l.blocks = (testClusters + (p.stressIters > 0 ? stressClusters : 0)) * static_cast<uint32_t>(s.clusterSize);
  if (serial)
    drawSerialRoles(s, U, l.threads, rng, l);
  else
    drawRoles(s, U, K, rng, l);
  return l;
}

}  // namespace gpu
