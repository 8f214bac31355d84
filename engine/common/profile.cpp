// The profiler's bookkeeping (see profile.h): a stack of open scopes, the time charged to each
// category, and the GEMM shapes seen.
#include "common/profile.h"

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
};

struct State {
  double totals[int(Category::count)] = {};
  double started = 0.0;  // reset()
  double last = 0.0;     // when the running category last started being charged
  std::vector<Frame> stack;
  std::vector<Shape> shapes;
};

State& state() {
  static State s;
  return s;
}

Category current(const State& s) { return s.stack.empty() ? Category::other : s.stack.back().category; }

}  // namespace

namespace detail {
bool g_on = false;

void enter(Category c) {
  State& s = state();
  const double t = now_ms();
  s.totals[int(current(s))] += t - s.last;
  s.last = t;
  s.stack.push_back({c, t, -1});
}

void leave() {
  State& s = state();
  if (s.stack.empty()) return;  // (profiling was reset inside a scope)
  const double t = now_ms();
  const Frame f = s.stack.back();
  s.totals[int(f.category)] += t - s.last;
  s.last = t;
  if (f.shape >= 0) s.shapes[size_t(f.shape)].ms += t - f.start;
  s.stack.pop_back();
}

void count_gemm(int m, int n, int k) {
  State& s = state();
  if (s.stack.empty()) return;
  int i = 0;
  while (i < int(s.shapes.size()) && !(s.shapes[i].m == m && s.shapes[i].n == n && s.shapes[i].k == k)) ++i;
  if (i == int(s.shapes.size())) s.shapes.push_back({m, n, k});
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
  s.started = s.last = now_ms();
}

std::string report_json() {
  const State& s = state();
  const double t = now_ms();
  double totals[int(Category::count)];
  for (int c = 0; c < int(Category::count); ++c) totals[c] = s.totals[c];
  totals[int(current(s))] += t - s.last;  // the running category, up to now
  char buf[160];
  std::snprintf(buf, sizeof buf, "{\"total_ms\":%.4f,\"categories\":{", t - s.started);
  std::string out = buf;
  for (int c = 0; c < int(Category::count); ++c) {
    std::snprintf(buf, sizeof buf, "%s\"%s\":%.4f", c ? "," : "", name(Category(c)), totals[c]);
    out += buf;
  }
  out += "},\"gemm_shapes\":[";
  for (size_t i = 0; i < s.shapes.size(); ++i) {
    const Shape& g = s.shapes[i];
    std::snprintf(buf, sizeof buf, "%s{\"m\":%d,\"n\":%d,\"k\":%d,\"calls\":%lld,\"ms\":%.4f}", i ? "," : "", g.m, g.n,
                  g.k, g.calls, g.ms);
    out += buf;
  }
  out += "]}";
  return out;
}

}  // namespace nmt::profile
