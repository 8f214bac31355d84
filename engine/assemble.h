// Hypotheses -> the translation: each unit's decoded text repaired by the target passes
// (text/passes.h), its alignments, and the sentences joined with the text between them.
#pragma once

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
};

// The translation's text and sentences into `out`: the gaps between sentences copied verbatim,
// each sentence replaced by the translations of its units (joined by a space where the source has
// one). Moves the hypotheses' attention into the sentences.
void assemble(const std::string& text, const std::vector<TextPiece>& pieces, const std::vector<Unit>& units,
              std::vector<Hypothesis>& hyps, const TargetWriter& writer, Translation& out);

}  // namespace nmt
