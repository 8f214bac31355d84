// translator.h is the public API and stays opaque: this file includes it first and alone, so it
// fails to compile if the header starts reaching nlohmann/json or the engine's internal headers
// (model file, Transformer, tokenizer, search), and then uses the API the way the header's usage
// example does.
#include "translator.h"

#ifdef NLOHMANN_JSON_VERSION_MAJOR
#error "translator.h reaches nlohmann/json: keep third-party types out of the public header"
#endif

// Each alias conflicts with the real class if translator.h has declared it (via an internal header).
namespace nmt {
using ModelFile = void;
using ModelConfig = void;
using Transformer = void;
using SentencePiece = void;
using SearchOptions = void;
using Hypothesis = void;
}  // namespace nmt

#include <doctest/doctest.h>

#include <string>

TEST_CASE("the public header alone loads a model, translates and returns JSON") {
  auto loaded = nmt::Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE(loaded.ok());
  const nmt::Translator& t = *loaded.value();
  CHECK(t.file_bytes() > 0);
  CHECK(t.info_json().find("\"file_bytes\"") != std::string::npos);
  nmt::TranslateOptions options;
  options.alignments = true;
  auto result = t.translate("Hello world. How are you?", options);
  REQUIRE(result.ok());
  CHECK(result->sentences.size() == 2);
  CHECK(nmt::to_json(result.value(), options).find("\"word_alignments\"") != std::string::npos);
}
