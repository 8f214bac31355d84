// The int8 GEMM (gemm_int8.cpp) compiled a second time, for AVX-512BW + VNNI, into namespace
// nmt::kernels::avx512: the portable x86-64 build (AVX2) picks it at run time where the CPU has
// both (gemm_int8.cpp's public functions). CMakeLists.txt gives this file its flags and defines
// NMT_AVX512_DISPATCH; elsewhere (wasm, -march=native, other CPUs) it compiles to nothing.
#if defined(NMT_AVX512_DISPATCH)
#define NMT_GEMM_ISA avx512
#define NMT_GEMM_SECOND_COPY
#include "kernels/gemm_int8.cpp"
#endif
