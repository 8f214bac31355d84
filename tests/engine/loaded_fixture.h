// Model files loaded as a Translator, for the engine tests that translate with them: a fixture by
// name, any bytes (a fixture rewritten by model_bytes.h), or the error such bytes are refused with;
// and what a loaded model gives for a source: its token ids, its units, its first decoder step's logits.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model_bytes.h"
#include "text/passes.h"
#include "text/segmenter.h"
#include "translator.h"
#include "translator_internal.h"
#include "units.h"

namespace test_model_bytes {

inline std::unique_ptr<nmt::Translator> load_bytes(const std::vector<uint8_t>& bytes) {
  auto t = nmt::Translator::load(bytes.data(), bytes.size());
  REQUIRE_MESSAGE(t.ok(), t.error());
  return std::move(t.value());
}

// tests/fixtures/<name>, e.g. "tiny.nmt"
inline std::unique_ptr<nmt::Translator> load_fixture(const std::string& name) {
  return load_bytes(read_bytes(fixture(name)));
}

// Empty when the bytes load.
inline std::string load_error(const std::vector<uint8_t>& bytes) {
  auto t = nmt::Translator::load(bytes.data(), bytes.size());
  return t.ok() ? std::string() : t.error();
}

// A text's source token ids as the tokenizer gives them (no eos).
inline std::vector<int> source_ids(const nmt::Translator::Impl& m, const std::string& text) {
  std::vector<int> ids;
  for (const nmt::Token& t : m.tokenizer.encode(text)) ids.push_back(t.id);
  return ids;
}

// `text`'s units as translate() reads them (no casing, glossary or memory).
inline std::vector<nmt::Unit> units_of(const nmt::Translator::Impl& m, const std::string& text) {
  const nmt::PassSwitches switches;
  const std::string language = m.file.source_language();
  const nmt::SourceReader reader{m.tokenizer, m.model.config(), language, switches, nullptr, nullptr, nullptr};
  return nmt::read_units(text, nmt::segment_text(text, language), reader);
}

// The model's first-step logits for a source (ids without eos), over the whole vocabulary.
inline std::vector<float> first_step_logits(const nmt::Translator::Impl& m, std::vector<int> ids) {
  const nmt::ModelConfig& c = m.model.config();
  ids.push_back(c.eos_id);
  const nmt::EncoderOutput enc = m.model.encode({ids});
  nmt::DecoderState st = m.model.start(enc, {0}, 1);
  std::vector<float> logits(size_t(c.vocab_size));
  const int bos = c.bos_id;
  m.model.step(enc, st, &bos, logits.data());
  return logits;
}

}  // namespace test_model_bytes
