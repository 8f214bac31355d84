// The WebAssembly module's interface (embind): a thin layer over translator.h.
//
//   import createEngine from './engine.js';
//   const Module = await createEngine({ wasmBinary });
//   const t = new Module.Translator();
//   const error = t.load(bytes);                 // Uint8Array; '' on success, else a message
//   const info = JSON.parse(t.info());           // config, languages, provenance, file_bytes
//   t.loadReverse(otherBytes);                   // optional: the other direction's model, for reranking
//   const r = JSON.parse(t.translate(text, JSON.stringify({ beam: 4, alignments: true, rerank: true })));
//   // r = { ok: true, result: {...} } or { ok: false, error: '...' }  (result: see engine/README.md)
//   const p = JSON.parse(t.translate('The house is small.', JSON.stringify({ prefix: 'Das Gebäude' })));  // one sentence
//   const s = JSON.parse(t.sentences('The cat sleeps. It is tired.'));  // { ok: true, result: [[0, 15], [16, 28]] }
//   // the sentences translate() reads, as UTF-16 ranges of the text (the worker cuts a long line between them)
//   const a = JSON.parse(t.alternatives('The house is small.', JSON.stringify({ prefix: 'Das ', alternatives: 5 })));
//   // a = { ok: true, result: { alternatives: [{ word, probability, continuation }] } }
//   t.delete();
//   const specs = JSON.parse(Module.optionSpecs());  // the decoding options' table (engine/options.h)
//   Module.relaxedModule = await WebAssembly.compile(relaxedGemmBytes);  // build-wasm/relaxed_gemm.wasm
//   Module.setSimd('relaxed');                   // true once its kernel runs the int8 GEMMs ('simd128': back)
//
// Strings cross the boundary as JSON so the JS side needs no embind value types, and nothing here
// throws: every failure comes back as a message.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/profile.h"
#include "kernels/kernels.h"
#include "text/utf8.h"
#include "translator.h"

// Copies a Uint8Array (an emval handle) to `to` in the engine's memory. Not through
// val::call("set", bytes): embind's method caller keeps the last arguments it was given for good
// (Emscripten 3.1.6), so the caller's copy of the model (~11 MB) would stay alive in its worker.
EM_JS(void, nmt_copy_bytes, (void* bytes, uint8_t* to), {
  HEAPU8.set(Emval.toValue(bytes), to);
});

// The relaxed-SIMD int8 GEMMs (engine/kernels/gemm_relaxed.c) are a separate module: instantiated
// here on the engine's own memory from the compiled module the worker put in Module.relaxedModule.
// Its two exports go into the table entries of relaxed_gemm_slot and relaxed_gemm_i8_slot (same
// signatures), so the engine calls them through those pointers: a plain indirect call, where an
// import called each through JavaScript (one JS hop per GEMM, ~17 per decoder step). Returns 2 when
// the module also has the exact 8-bit GEMM (the output projection's), 1 when only the 7-bit one.
EM_JS(int, nmt_relaxed_attach, (int slot, int slot_i8), {
  if (!Module.relaxedGemm) {
    if (!Module.relaxedModule) return 0;
    var instance = new WebAssembly.Instance(Module.relaxedModule, { env: { memory: wasmMemory } });
    Module.relaxedGemm = instance.exports.gemm_u7i8_nt;
    Module.relaxedGemmI8 = instance.exports.gemm_i8_nt;
    wasmTable.set(slot, Module.relaxedGemm);
    if (Module.relaxedGemmI8) wasmTable.set(slot_i8, Module.relaxedGemmI8);
  }
  return Module.relaxedGemmI8 ? 2 : 1;
});

// The slots' own code (the scalar references) runs only if one is called before its attach.
__attribute__((noinline)) void relaxed_gemm_slot(const uint8_t* U, const float* a_scale, const int32_t* zero,
                                                 const int8_t* B, const float* b_scale, const int32_t* b_sums,
                                                 const float* bias, float* C, int M, int N, int K) {
  nmt::kernels::ref::gemm_u7i8_nt(U, a_scale, zero, B, b_scale, b_sums, bias, C, M, N, K);
}
__attribute__((noinline)) void relaxed_gemm_i8_slot(const int8_t* A, const float* a_scale, const int8_t* B,
                                                    const float* b_scale, const int32_t*, const float* bias, float* C,
                                                    int M, int N, int K) {
  nmt::kernels::ref::gemm_i8_nt(A, a_scale, B, b_scale, bias, C, M, N, K);
}

namespace {

using nlohmann::json;

std::string error_json(const std::string& message) {
  return json{{"ok", false}, {"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

// One copy, straight from the JS array into the aligned buffer the weights will live in.
nmt::Result<std::unique_ptr<nmt::Translator>> load_bytes(const emscripten::val& bytes) {
  if (!bytes.instanceof(emscripten::val::global("Uint8Array"))) return nmt::Error{"expected a Uint8Array"};
  nmt::AlignedBuffer data = nmt::AlignedBuffer::allocate(bytes["length"].as<size_t>());
  nmt_copy_bytes(bytes.as_handle(), data.data());
  return nmt::Translator::load(std::move(data));
}

class WasmTranslator {
 public:
  std::string load(const emscripten::val& bytes) {
    translator_.reset();
    reverse_.reset();
    auto loaded = load_bytes(bytes);
    if (!loaded) return loaded.error();
    translator_ = std::move(loaded.value());
    return "";
  }

  // The other direction's model, for reranking (search/rerank.h); '' on success, else a message.
  std::string loadReverse(const emscripten::val& bytes) {
    reverse_.reset();
    if (!translator_) return "no model loaded: call load() first";
    auto loaded = load_bytes(bytes);
    if (!loaded) return loaded.error();
    const std::string why = translator_->check_reverse(*loaded.value());
    if (!why.empty()) return "cannot rerank with this model: " + why;
    reverse_ = std::move(loaded.value());
    return "";
  }

  std::string info() const { return translator_ ? translator_->info_json() : error_json("no model loaded"); }

  std::string translate(const std::string& text, const std::string& options_json) const {
    NMT_PROFILE(other);  // the profiler counts the time inside the engine's entry points
    if (!translator_) return error_json("no model loaded: call load() first");
    // Checked against the table in options.h: a bad value is an error, never clamped.
    auto options = nmt::options_from_json(options_json);
    if (!options) return error_json(options.error());
    const nmt::TranslateOptions& o = options.value();
    // written a sentence at a time (each let go once written): the result is held once, as its JSON
    std::string out = R"({"ok":true,"result":)";
    const std::string error = translator_->translate_json(text, o, reverse_.get(), out);  // o.rerank: whether to use it
    if (!error.empty()) return error_json(error);
    out += '}';
    return out;
  }

  // {"ok":true,"result":[[begin, end], ...]}: the sentences translate() reads in `text`
  // (Translator::sentence_ranges), in UTF-16 units of `text`, as every range the engine returns.
  std::string sentences(const std::string& text) const {
    if (!translator_) return error_json("no model loaded: call load() first");
    const nmt::Utf16Offsets utf16(nmt::sanitize_utf8(text));
    json ranges = json::array();
    for (auto [b, e] : translator_->sentence_ranges(text)) ranges.push_back({utf16(b), utf16(e)});
    return json{{"ok", true}, {"result", std::move(ranges)}}.dump();
  }

  // The next words after options.prefix (options.alternatives of them), as Translator::alternatives.
  std::string alternatives(const std::string& source, const std::string& options_json) const {
    NMT_PROFILE(other);
    if (!translator_) return error_json("no model loaded: call load() first");
    auto options = nmt::options_from_json(options_json);
    if (!options) return error_json(options.error());
    auto result = translator_->alternatives(source, options.value());
    if (!result) return error_json(result.error());
    return R"({"ok":true,"result":)" + nmt::to_json(result.value()) + "}";
  }

 private:
  std::unique_ptr<nmt::Translator> translator_;
  std::unique_ptr<nmt::Translator> reverse_;
};

// The int8 scheme (kernels.h) and its kernels:
//   'relaxed'        shifted7, 7-bit activations in every Linear, on the relaxed kernels (false if
//                    no module was given): the default where the browser has relaxed SIMD
//   'relaxed-mixed'  mixed, the output projection on 8 bits, on the relaxed kernels (its exact 8-bit
//                    GEMM included): the previous default, kept to measure one against the other
//   'shifted7', 'mixed'  the same schemes on the built-in SIMD128 kernels (bit-identical results,
//                    for tests where relaxed SIMD is missing)
//   'simd128'        the 8-bit scheme everywhere.  Anything else: false.
// Asymmetric 7-bit rows everywhere moved BLEU by -0.11..+0.12 on the six dev sets (greedy and
// beam 4), mixed by -0.14..+0.17, and shifted7 runs the output projection at the 7-bit kernel's
// speed (kernels/shifted.cpp; docs/benchmarks.md).
bool set_simd(const std::string& kind) {
  namespace k = nmt::kernels;
  if (kind == "relaxed" || kind == "relaxed-mixed") {
    // (a function pointer in wasm is its index in the table)
    const int attached = nmt_relaxed_attach(int(reinterpret_cast<intptr_t>(&relaxed_gemm_slot)),
                                            int(reinterpret_cast<intptr_t>(&relaxed_gemm_i8_slot)));
    if (!attached) return false;
    k::set_u7_gemm(relaxed_gemm_slot);
    k::set_i8_gemm(attached == 2 ? relaxed_gemm_i8_slot : nullptr);
    k::set_int8_scheme(kind == "relaxed" ? k::Int8Scheme::shifted7 : k::Int8Scheme::mixed);
  } else if (kind == "shifted7" || kind == "mixed" || kind == "simd128") {
    k::set_u7_gemm(nullptr);
    k::set_i8_gemm(nullptr);
    k::set_int8_scheme(kind == "simd128" ? k::Int8Scheme::exact8
                       : kind == "mixed" ? k::Int8Scheme::mixed
                                         : k::Int8Scheme::shifted7);
  } else {
    return false;
  }
  return true;
}

}  // namespace

EMSCRIPTEN_BINDINGS(nmt_engine) {
  emscripten::class_<WasmTranslator>("Translator")
      .constructor<>()
      .function("load", &WasmTranslator::load)
      .function("loadReverse", &WasmTranslator::loadReverse)
      .function("info", &WasmTranslator::info)
      .function("translate", &WasmTranslator::translate)
      .function("sentences", &WasmTranslator::sentences)
      .function("alternatives", &WasmTranslator::alternatives);
  emscripten::function("optionSpecs", &nmt::option_specs_json);
  emscripten::function("setSimd", &set_simd);
  // Opt-in profiler (engine/common/profile.h), for the benchmarks: profileEnable(true) turns it on
  // and zeroes it, profileReport() is its JSON.
  emscripten::function("profileEnable", &nmt::profile::set_enabled);
  emscripten::function("profileReport", &nmt::profile::report_json);
}
