// Opt-in profiler: where a translation's time goes, by category (GEMM, attention, softmax, ...).
//
// Off by default; while off a scope costs one load and one branch. Turned on (set_enabled), each
// scope reads the clock on entry and exit and charges the time in between to its category,
// exclusively: an inner scope pauses the outer one, so the categories add up to the time spent
// inside outermost scopes (an entry point opens an `other` scope; time between calls is not
// counted), and whatever runs in no inner scope is "other". Single-threaded by design
// (one engine per worker / process). GEMM scopes also count the operations (2 per multiply-add)
// per (M, N, K) shape, so a benchmark can compare the achieved GOP/s with a micro-benchmark's.
//
//   nmt::profile::set_enabled(true); nmt::profile::reset();
//   ... translate ...
//   std::string json = nmt::profile::report_json();
//
//   void f() { NMT_PROFILE(layer_norm); ... }   // charges f's body to layer_norm
#pragma once

#include <cstdint>
#include <string>

namespace nmt::profile {

enum class Category : int {
  other,        // in no finer scope: tokenizer, embeddings, residual adds, relu, alignments, JSON, ...
  gemm,         // int8 / f32 Linear layers of the encoder and decoder
  gemm_logits,  // the output projection (vocabulary logits)
  quantize,     // activation rows to int8 before an int8 GEMM
  attention,    // scores q·k, weights × values, scaling, key/value cache writes
  softmax,      // attention softmax
  layer_norm,
  search,       // log-sum-exp, argmax / top-k, extending and finishing hypotheses
  reorder,      // beam: copying the surviving hypotheses' key/value caches and attention rows
  count
};

const char* name(Category c);

// Whether scopes measure; reset() zeroes the totals and starts the wall clock.
bool enabled();
void set_enabled(bool on);
void reset();
// {"total_ms": Σ categories, "wall_ms": since reset(), "clock_reads": n, "clock_read_ms": one read's cost,
//  "categories":{"gemm":ms,...}, "categories_less_clock":{...} (each less its clock reads' estimated cost),
//  "gemm_shapes":[{"m":..,"n":..,"k":..,"calls":..,"ms":..,"median_ms": one call's median}, ...]}
std::string report_json();

namespace detail {
extern bool g_on;
void enter(Category c);
void leave();
void count_gemm(int m, int n, int k);
}  // namespace detail

class Scope {
 public:
  explicit Scope(Category c) : on_(detail::g_on) {
    if (on_) detail::enter(c);
  }
  ~Scope() {
    if (on_) detail::leave();
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  bool on_;
};

// A GEMM scope that also files its shape; time is charged to `c` (gemm or gemm_logits).
class GemmScope {
 public:
  GemmScope(Category c, int m, int n, int k) : scope_(c) {
    if (detail::g_on) detail::count_gemm(m, n, k);
  }

 private:
  Scope scope_;
};

}  // namespace nmt::profile

#define NMT_PROFILE_CAT2(a, b) a##b
#define NMT_PROFILE_CAT(a, b) NMT_PROFILE_CAT2(a, b)
#define NMT_PROFILE(category) \
  ::nmt::profile::Scope NMT_PROFILE_CAT(nmt_profile_scope_, __LINE__)(::nmt::profile::Category::category)
