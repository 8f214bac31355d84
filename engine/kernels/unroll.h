// NMT_UNROLL: fully unroll the next loop. The GEMM kernels keep register blocks in arrays indexed
// by compile-time loops; unless those loops are unrolled the accumulators live in memory
// (GCC -O2 does not unroll them on its own).
#pragma once

#if defined(__clang__)
#define NMT_UNROLL _Pragma("unroll")
#else
#define NMT_UNROLL _Pragma("GCC unroll 16")
#endif
