// Included first by every SIMD kernel file: xsimd, with one known-noisy warning silenced, and the
// float max/min/zeroing the hot kernels use (one instruction each in WebAssembly).
// GCC 12's own AVX-512 intrinsic headers (_mm512_undefined_*) trip -Wuninitialized once inlined
// under -march=native: a known false positive. (The pragma covers the including file only.)
#pragma once

#if defined(__GNUC__) && !defined(__clang__) && defined(__AVX512F__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <xsimd/xsimd.hpp>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace nmt::kernels::simd {

using Floats = xsimd::batch<float>;

// xsimd::max(a, b) and xsimd::min(a, b), bit for bit (a > b ? a : b and a < b ? a : b: b when
// either is NaN, b for ±0 against ∓0). In WebAssembly xsimd goes through Emscripten's SSE
// emulation, a compare and a bitselect (four x86 instructions under V8); wasm's pmax(b, a) and
// pmin(b, a) are defined as exactly those expressions and are one instruction each (the max of
// 8000 logits in Node: 3.9 -> 1.8 us).
inline Floats max(const Floats& a, const Floats& b) {
#if defined(__wasm_simd128__)
  return Floats(__m128(wasm_f32x4_pmax(v128_t(__m128(b)), v128_t(__m128(a)))));
#else
  return xsimd::max(a, b);
#endif
}
inline Floats min(const Floats& a, const Floats& b) {
#if defined(__wasm_simd128__)
  return Floats(__m128(wasm_f32x4_pmin(v128_t(__m128(b)), v128_t(__m128(a)))));
#else
  return xsimd::min(a, b);
#endif
}

// The lane-wise maximum of `init` and the batches of x[0, n) (n a multiple of the batch size), in
// four running maxima, not one: one is a chain of dependent max instructions (8000 logits: 2000 in
// a row), four overlap. The maximum of floats does not depend on the order they are taken in
// (without NaN; a zero maximum may come out as -0 or +0, which give the same x - max and max + log Σ).
inline Floats max_over(const Floats& init, const float* x, size_t n) {
  constexpr size_t W = Floats::size;
  Floats m0 = init, m1 = init, m2 = init, m3 = init;
  size_t i = 0;
  for (; i + 4 * W <= n; i += 4 * W) {
    m0 = max(m0, Floats::load_unaligned(x + i));
    m1 = max(m1, Floats::load_unaligned(x + i + W));
    m2 = max(m2, Floats::load_unaligned(x + i + 2 * W));
    m3 = max(m3, Floats::load_unaligned(x + i + 3 * W));
  }
  for (; i < n; i += W) m0 = max(m0, Floats::load_unaligned(x + i));
  return max(max(m0, m1), max(m2, m3));
}

// xsimd::select(mask, 0, v): +0.0 where mask is set (a comparison's all-ones lanes), else v. In
// WebAssembly one and-not instead of xsimd's blendv emulation (a shift and a bitselect).
inline Floats zero_where(const xsimd::batch_bool<float>& mask, const Floats& v) {
#if defined(__wasm_simd128__)
  return Floats(__m128(wasm_v128_andnot(v128_t(__m128(v)), v128_t(__m128(mask)))));
#else
  return xsimd::select(mask, Floats(0.0f), v);
#endif
}

}  // namespace nmt::kernels::simd
