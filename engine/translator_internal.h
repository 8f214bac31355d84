// The Translator's insides, for the engine's own tests and benchmarks (not part of the public API:
// translator.h stays free of the model, tokenizer and search headers and of nlohmann/json).
//
//   #include "translator_internal.h"
//   const nmt::Translator::Impl& m = translator->impl();
//   m.tokenizer.encode("Hello");                    // SentencePiece tokens
//   m.model.encode({ids});                          // the Transformer, one step at a time
//   m.translate_ids({ids}, m.search_options(opts)); // token ids in, best hypotheses out
#pragma once

#include <optional>
#include <vector>

#include "common/aligned_buffer.h"
#include "model/model_file.h"
#include "model/shortlist.h"
#include "model/transformer.h"
#include "search/beam_search.h"
#include "text/casing.h"
#include "text/memory.h"
#include "tokenizer/sentencepiece.h"
#include "translator.h"

namespace nmt {

struct Translator::Impl {
  AlignedBuffer bytes;      // the model file; `file` and `model` point into it
  ModelFile file;
  SentencePiece tokenizer;
  Transformer model;
  std::optional<Shortlist> shortlist;  // the model file's lexical shortlist, if it has one
  // The model file's word lists (text/casing.h) for recasing sentences in capitals or Title Case:
  // sources, and the prefixes of translations written in capitals. Empty without one.
  Truecaser source_case, target_case;
  // The model file's translation memory (text/memory.h); empty without one.
  TranslationMemory memory;
  // The target tokens that write nothing: eos, unk and the pieces that spell only a space ("▁"),
  // ascending. A translation made of them alone is tried again without them first.
  std::vector<int> silent_tokens;

  // The search options `options` ask for, with this model's alignment layer.
  SearchOptions search_options(const TranslateOptions& options) const;
  // Sentences as token ids (without eos; cut to the model's max_length) -> the best hypothesis of
  // each, searched as one batch (with sample_top_k, each sentence's stream seeded as translate()
  // seeds it: sentence_seed(options.seed, its ids with eos)).
  std::vector<Hypothesis> translate_ids(const std::vector<std::vector<int>>& sources, const SearchOptions& options) const;
};

}  // namespace nmt
