// Hypotheses -> the translation: each unit's decoded text repaired by the target passes
// (text/passes.h), its alignments, and the sentences joined with the text between them.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "search/beam_search.h"
#include "search/forced_prefix.h"
#include "text/passes.h"
#include "text/segmenter.h"
#include "tokenizer/sentencepiece.h"
#include "translator.h"
#include "units.h"

namespace nmt {

// The model's source and target languages.
struct Languages {
  std::string from, to;
};

// How the units' translations are written.
struct TargetWriter {
  const SentencePiece& tokenizer;
  int eos_id;
  bool alignments;             // token and word alignments too
  const TargetPrefix* prefix;  // the one sentence's translation starts with it verbatim; null: none
  Languages languages;
  const PassSwitches& switches;
  // decoder_layers x n_heads when the result has every head's attention (options.all_heads), else
  // 0: a copied unit's identity attention is built for each of them
  size_t heads_per_token = 0;
};

// Takes each sentence as soon as it is assembled, with the translation so far (its text up to the
// sentence's end), instead of its going into Translation::sentences: the JSON writer
// (result_json.h) writes it and lets it go.
using SentenceSink = std::function<void(SentenceTranslation&& sentence, const Translation& so_far)>;

// The translation's text and sentences into `out` (or, with a `sink`, to it): the gaps between
// sentences copied verbatim, each sentence replaced by the translations of its units (joined by a
// space where the source has one). Each unit and its hypothesis are used up as its sentence is made
// (their tokens, ids and attention moved into it or let go), so a long text's tokens and matrices
// are not held twice.
void assemble(const std::string& text, const std::vector<TextPiece>& pieces, std::vector<Unit>& units,
              std::vector<Hypothesis>& hyps, const TargetWriter& writer, Translation& out,
              const SentenceSink* sink = nullptr);

}  // namespace nmt
