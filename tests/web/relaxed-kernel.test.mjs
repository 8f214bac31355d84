/**
 * The relaxed-SIMD int8 GEMMs (build-wasm/relaxed_gemm.wasm, engine/kernels/gemm_relaxed.c) in
 * Chromium and Firefox ESR, against plain JavaScript references of kernels.h's gemm_u7i8_nt and
 * gemm_i8_nt, on random shapes including odd sizes (M 1..5, N 1..9 and wider, K 1..1040 with
 * tails), with sentinel padding around every buffer: the output must be bit-identical and nothing
 * outside C may change.
 * The 7-bit activations given to gemm_u7i8_nt are 0..127 (the "i7" operand's defined range, where
 * every browser computes the same); tests/engine/test_kernels.cpp proves quantize_rows_u7 never
 * leaves it. gemm_i8_nt gets 8-bit activations (quantize_rows gives -127..127) and makes its own
 * i7 operands from them, two parts in 0..127 whatever the byte: its inputs here are every byte
 * value, -128 included, which it reads as 0 (a defined result, not the browser's). Both browsers
 * matching the same exact reference bit for bit is the proof that they agree.
 * Node 20 cannot compile relaxed SIMD, so here it must fail WebAssembly.validate (the worker's
 * feature test), which is why the Node tests run the SIMD128 engine.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, launchChromium } from './_helpers.mjs';
import { FIREFOX, launchFirefox } from './_firefox.mjs';
import { RELAXED_PROBE } from '../../web/relaxed-simd.js';

const KERNEL = process.env.NMT_RELAXED_GEMM || path.join(ROOT, 'build-wasm/relaxed_gemm.wasm');
const skip = existsSync(KERNEL) ? false : 'build-wasm/relaxed_gemm.wasm is missing: run scripts/build.sh';

test('Node 20 does not validate relaxed SIMD (the Node tests run the SIMD128 path)', () => {
  assert.equal(WebAssembly.validate(RELAXED_PROBE), false);
});

/** Runs in the page: the kernel vs the reference on each shape; returns the mismatches. */
async function checkShapes({ bytes, probe, shapes, seed }) {
  if (!WebAssembly.validate(new Uint8Array(probe))) return { validated: false };
  const memory = new WebAssembly.Memory({ initial: 256 });  // 16 MiB
  const { instance } = await WebAssembly.instantiate(new Uint8Array(bytes), { env: { memory } });
  const { gemm_u7i8_nt: gemmU7, gemm_i8_nt: gemmI8 } = instance.exports;
  let state = seed >>> 0;
  const rand = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const PAD = 64;  // bytes of sentinel on each side of every buffer
  let next = 1024;
  const alloc = (bytesLen) => {
    const at = next + PAD;
    next = (at + bytesLen + PAD + 15) & ~15;
    return at;
  };
  const failures = [];
  for (const [kernel, M, N, K, bias, extreme] of shapes) {
    const u7 = kernel === 'u7';
    next = 1024;
    new Uint8Array(memory.buffer).fill(0xA5);  // the sentinel
    const pU = alloc(M * K), pAs = alloc(4 * M), pZ = alloc(4 * M), pB = alloc(N * K), pBs = alloc(4 * N);
    const pSum = alloc(4 * N), pBias = alloc(4 * N), pC = alloc(4 * M * N);
    const u8 = new Uint8Array(memory.buffer), i8 = new Int8Array(memory.buffer);
    const f32 = new Float32Array(memory.buffer), i32 = new Int32Array(memory.buffer);
    // u7: 0..127; i8: any byte (extreme rows: -127 and 127)
    for (let i = 0; i < M * K; i++) {
      if (u7) u8[pU + i] = extreme ? 127 : int(0, 127);
      else i8[pU + i] = extreme ? (i % 3 ? -127 : 127) : int(-128, 127);
    }
    for (let i = 0; i < N * K; i++) i8[pB + i] = extreme ? (i % 2 ? -128 : 127) : int(-128, 127);
    for (let m = 0; m < M; m++) {
      f32[pAs / 4 + m] = Math.fround(0.001 + rand() * 0.05);
      i32[pZ / 4 + m] = !u7 || rand() < 0.25 ? 0 : int(1, 127);  // quantize_rows_u7: any zero point in 0..127
    }
    for (let n = 0; n < N; n++) {
      f32[pBs / 4 + n] = Math.fround(0.001 + rand() * 0.02);
      f32[pBias / 4 + n] = Math.fround(rand() * 2 - 1);
      let s = 0;
      for (let k = 0; k < K; k++) s += i8[pB + n * K + k];
      i32[pSum / 4 + n] = s;
    }
    const before = u8.slice(0, next + PAD);
    if (u7) gemmU7(pU, pAs, pZ, pB, pBs, pSum, bias ? pBias : 0, pC, M, N, K);
    else gemmI8(pU, pAs, pB, pBs, pSum, bias ? pBias : 0, pC, M, N, K);
    const after = new Uint8Array(memory.buffer);
    const out = new Float32Array(memory.buffer, pC, M * N);
    // Every float step rounded to float32 as C++ does (a double result of one +, ×, or int→float
    // of float32 inputs, rounded once, is the correctly rounded float32).
    for (let m = 0; m < M && failures.length < 20; m++) {
      for (let n = 0; n < N; n++) {
        let sum = 0;
        const a = u7 ? u8 : i8;  // the kernel's own operand; gemm_i8_nt reads -128 as 0
        for (let k = 0; k < K; k++) sum += (a[pU + m * K + k] === -128 ? 0 : a[pU + m * K + k]) * i8[pB + n * K + k];
        sum = (sum - i32[pZ / 4 + m] * i32[pSum / 4 + n]) | 0;
        const scale = Math.fround(f32[pAs / 4 + m] * f32[pBs / 4 + n]);
        const want = Math.fround(Math.fround(Math.fround(sum) * scale) + (bias ? f32[pBias / 4 + n] : 0));
        if (!Object.is(out[m * N + n], want)) failures.push({ kernel, M, N, K, m, n, got: out[m * N + n], want });
      }
    }
    for (let i = 0; i < before.length; i++) {
      if (i >= pC && i < pC + 4 * M * N) continue;
      if (after[i] !== before[i]) {
        failures.push({ kernel, M, N, K, wroteOutsideC: i - pC });
        break;
      }
    }
  }
  return { validated: true, failures };
}

const SHAPES = [];
for (const kernel of ['u7', 'i8']) {
  for (const M of [1, 2, 3, 4, 5]) {
    for (const N of [1, 2, 3, 4, 5, 7, 9, 64]) {
      for (const K of [1, 15, 16, 17, 31, 32, 33, 48, 100, 256]) SHAPES.push([kernel, M, N, K, (M + N + K) % 2 === 0, false]);
    }
  }
  SHAPES.push([kernel, 8, 37, 1024, true, false], [kernel, 4, 513, 256, false, false], [kernel, 1, 1000, 1040, true, false]);
  SHAPES.push([kernel, 2, 4, 1024, true, true], [kernel, 1, 4, 1024, true, true], [kernel, 3, 5, 17, false, true]);  // largest products and sums
}

const BROWSERS = [
  ['Chromium', launchChromium, false],
  ['Firefox ESR', launchFirefox, existsSync(FIREFOX) ? false : `${FIREFOX} is missing`],
];
for (const [name, launch, browserSkip] of BROWSERS) {
  test(`relaxed kernels = references, bit for bit, on odd shapes with sentinel padding (${name})`, { skip: skip || browserSkip, timeout: 180_000 }, async () => {
    const browser = await launch();
    try {
      const page = await (await browser.newContext()).newPage();
      const result = await page.evaluate(checkShapes, {
        bytes: [...readFileSync(KERNEL)], probe: [...RELAXED_PROBE], shapes: SHAPES, seed: 12345,
      });
      assert.equal(result.validated, true, `${name} validates relaxed SIMD`);
      assert.deepEqual(result.failures, []);
    } finally {
      await browser.close();
    }
  });
}
