// The profiler's bookkeeping (see profile.h): a stack of open scopes, the time charged to each
// category, and the GEMM shapes seen.
#include "common/profile.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#endif

namespace nmt::profile {
namespace {

double now_ms() {
#if defined(__EMSCRIPTEN__)
  return emscripten_get_now();
#else
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

struct Frame {
  Category category;
  double start;   // when the scope opened (for its shape's inclusive time)
  int shape;      // index into shapes, or -1
};

struct Shape {
  int m, n, k;
  long long calls = 0;
  double ms = 0.0;
  std::vector<float> samples;  // the first kSamples calls' times, for the median
};
constexpr size_t kSamples = 4096;

struct State {
  double totals[int(Category::count)] = {};  // time inside the outermost scopes only
  double started = 0.0;  // reset()
  double last = 0.0;     // when the running category last started being charged
  std::vector<Frame> stack;
  std::vector<Shape> shapes;
  long long clock_reads = 0;    // 2 per scope
  // Clock reads charged to each category: about one per scope of it (the second half of the entry
  // read and the first of the exit read) and one per scope opened inside it.
  long long reads_in[int(Category::count)] = {};
  double clock_read_ms = 0.0;   // one clock read's cost, measured by reset()
};

State& state() {
  static State s;
  return s;
}

// The category being charged now; time outside every scope (the engine idle) is not charged.
int current(const State& s) { return s.stack.empty() ? -1 : int(s.stack.back().category); }

}  // namespace

namespace detail {
bool g_on = false;

void enter(Category c) {
  State& s = state();
  const double t = now_ms();
  if (current(s) >= 0) {
    s.totals[current(s)] += t - s.last;
    s.reads_in[current(s)]++;
  }
  s.reads_in[int(c)]++;
  s.last = t;
  s.stack.push_back({c, t, -1});
  s.clock_reads++;
}

void leave() {
  State& s = state();
  if (s.stack.empty()) return;  // (profiling was reset inside a scope)
  const double t = now_ms();
  const Frame f = s.stack.back();
  s.totals[int(f.category)] += t - s.last;
  s.last = t;
  if (f.shape >= 0) {
    Shape& g = s.shapes[size_t(f.shape)];
    g.ms += t - f.start;
    if (g.samples.size() < kSamples) g.samples.push_back(float(t - f.start));
  }
  s.stack.pop_back();
  s.clock_reads++;
}

void count_gemm(int m, int n, int k) {
  State& s = state();
  if (s.stack.empty()) return;
  int i = 0;
  while (i < int(s.shapes.size()) && !(s.shapes[i].m == m && s.shapes[i].n == n && s.shapes[i].k == k)) ++i;
  if (i == int(s.shapes.size())) s.shapes.push_back(Shape{m, n, k, 0, 0.0, {}});
  s.shapes[size_t(i)].calls++;
  s.stack.back().shape = i;
}
}  // namespace detail

const char* name(Category c) {
  switch (c) {
    case Category::other: return "other";
    case Category::gemm: return "gemm";
    case Category::gemm_logits: return "gemm_logits";
    case Category::quantize: return "quantize";
    case Category::attention: return "attention";
    case Category::softmax: return "softmax";
    case Category::layer_norm: return "layer_norm";
    case Category::search: return "search";
    case Category::reorder: return "reorder";
    case Category::count: break;
  }
  return "?";
}

bool enabled() { return detail::g_on; }

void set_enabled(bool on) {
  detail::g_on = on;
  reset();
}

void reset() {
  State& s = state();
  s = State{};
  // The clock's own cost, so a report can say how much of the profile is the profiler's.
  const double t0 = now_ms();
  double t = t0;
  for (int i = 0; i < 1000; ++i) t = now_ms();
  s.clock_read_ms = (t - t0) / 1000;
  s.started = s.last = now_ms();
}

std::string report_json() {
  const State& s = state();
  const double t = now_ms();
  double totals[int(Category::count)];
  for (int c = 0; c < int(Category::count); ++c) totals[c] = s.totals[c];
  if (current(s) >= 0) totals[current(s)] += t - s.last;  // the running category, up to now
  double total = 0.0;
  for (double v : totals) total += v;
  char buf[200];
  std::snprintf(buf, sizeof buf, "{\"total_ms\":%.4f,\"wall_ms\":%.4f,\"clock_reads\":%lld,\"clock_read_ms\":%.7f,\"categories\":{",
                total, t - s.started, s.clock_reads, s.clock_read_ms);
  std::string out = buf;
  for (int c = 0; c < int(Category::count); ++c) {
    std::snprintf(buf, sizeof buf, "%s\"%s\":%.4f", c ? "," : "", name(Category(c)), totals[c]);
    out += buf;
  }
  out += "},\"categories_less_clock\":{";  // minus the estimated cost of the clock reads in each
  for (int c = 0; c < int(Category::count); ++c) {
    const double less = std::max(0.0, totals[c] - double(s.reads_in[c]) * s.clock_read_ms);
    std::snprintf(buf, sizeof buf, "%s\"%s\":%.4f", c ? "," : "", name(Category(c)), less);
    out += buf;
  }
  out += "},\"gemm_shapes\":[";
  for (size_t i = 0; i < s.shapes.size(); ++i) {
    const Shape& g = s.shapes[i];
    std::vector<float> sorted = g.samples;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted.empty() ? 0.0 : sorted[sorted.size() / 2];
    std::snprintf(buf, sizeof buf, "%s{\"m\":%d,\"n\":%d,\"k\":%d,\"calls\":%lld,\"ms\":%.4f,\"median_ms\":%.6f}",
                  i ? "," : "", g.m, g.n, g.k, g.calls, g.ms, median);
    out += buf;
  }
  out += "]}";
  return out;
}

}  // namespace nmt::profile
