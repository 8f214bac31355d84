// The translation's JSON (to_json, translator.h) written a sentence at a time: Translator::
// translate_json hands each sentence to add() as soon as it is assembled and lets it go, so a long
// text's result is held once, as its JSON, instead of as every sentence's matrices and then the JSON.
#pragma once

#include <memory>
#include <string>

#include "translator.h"

namespace nmt {

class Utf16Offsets;

class ResultJsonWriter {
 public:
  // Appends the start of the result to `out`, which must outlive the writer.
  ResultJsonWriter(const TranslateOptions& options, std::string& out);
  ~ResultJsonWriter();
  // One sentence of `so_far`, whose source_text is the whole input and whose text has the
  // translation up to this sentence's end at least; sentences in order.
  void add(const SentenceTranslation& sentence, const Translation& so_far);
  // The rest of the result: the source, the statistics and the text of the finished translation `t`.
  void finish(const Translation& t);

 private:
  // UTF-16 units of the translation's text before the character holding byte `at` (as
  // Utf16Offsets, which would need the whole text), counted on from the last call: `at` only grows.
  size_t target_units(const std::string& text, size_t at);

  const TranslateOptions& options_;
  std::string& out_;
  std::unique_ptr<Utf16Offsets> source16_;  // made on the first sentence
  size_t sentences_ = 0;
  size_t counted_bytes_ = 0, counted_units_ = 0, char_start_units_ = 0;
};

}  // namespace nmt
