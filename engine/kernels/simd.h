// Included first by every SIMD kernel file: xsimd, with one known-noisy warning silenced.
// GCC 12's own AVX-512 intrinsic headers (_mm512_undefined_*) trip -Wuninitialized once inlined
// under -march=native: a known false positive. (The pragma covers the including file only.)
#pragma once

#if defined(__GNUC__) && !defined(__clang__) && defined(__AVX512F__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <xsimd/xsimd.hpp>
