/**
 * Relaxed SIMD for the engine's int8 GEMM: the feature test and the kernel module's URL.
 *
 * The engine (engine.wasm) is SIMD128 only; relaxed_gemm.wasm (engine/kernels/gemm_relaxed.c,
 * built by clang-19) holds the GEMM with i32x4.relaxed_dot_i8x16_i7x16_add_s. A module with one
 * relaxed instruction fails to compile where relaxed SIMD is missing (Safari, Node 20), so the
 * worker first validates RELAXED_PROBE, a module of one function using that instruction:
 *
 *   (func (param v128 v128 v128) (result v128)
 *     local.get 0  local.get 1  local.get 2  i32x4.relaxed_dot_i8x16_i7x16_add_s)
 */
export const RELAXED_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x08, 0x01, 0x60, 0x03, 0x7b, 0x7b, 0x7b, 0x01, 0x7b, // type: (v128 v128 v128) -> v128
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x0a, 0x0d, 0x01, 0x0b, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, // code: no locals, three local.get
  0xfd, 0x93, 0x02, 0x0b, // i32x4.relaxed_dot_i8x16_i7x16_add_s (0xfd 0x113), end
]);

/** The values of Translator.create's `simd` option (default 'simd128'); 'auto' is relaxed where the browser has it. */
export const SIMD_CHOICES = ['auto', 'relaxed', 'simd128'];

export const relaxedSimdSupported = () => typeof WebAssembly === 'object' && WebAssembly.validate(RELAXED_PROBE);

/** relaxed_gemm.wasm sits beside engine.wasm. */
export const relaxedKernelUrl = (wasmUrl) => new URL('relaxed_gemm.wasm', wasmUrl).href;
