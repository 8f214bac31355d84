// The lexical shortlist: which target tokens a batch of sentences may produce (Marian's "lexical
// shortlist", as Bergamot uses it).
//
// A model file may carry a table (engine/FORMAT.md, tensors shortlist.*), built from the training
// pairs by weights/recipe/shortlist.py: the most frequent target pieces, and for every source piece
// the target pieces most often seen in translations of sentences that contain it. With the
// `shortlist` option on, a sentence's decoder steps compute logits only for the union of the
// frequent pieces and its source pieces' candidates (a few hundred of the 8,000 rows of the output
// projection); every other token gets logit -inf, so it has probability 0 and is never chosen.
// The translator gives each sentence a batch of its own under the shortlist (translator.cpp,
// make_batches), so a sentence's list, and its translation, never depend on the text around it.
// That is the speed-up and the risk: where the full search would pick a token outside the list,
// the translation differs (weights/EXPERIMENTS.md measures how often and what it costs in BLEU).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/result.h"
#include "model/model_file.h"

namespace nmt {

class Shortlist {
 public:
  // The model file's table, nullopt when it has none; an error when it is there but broken
  // (ids outside the vocabulary, counts that do not add up to the candidates, a partial table).
  static Result<std::optional<Shortlist>> from(const ModelFile& file);

  // The target tokens a batch of these sources (token ids) may produce, ascending: the frequent
  // pieces, eos, unk, each source token's candidates, and `extra` (e.g. a forced prefix's tokens).
  std::vector<int> tokens_for(const std::vector<std::vector<int>>& sources, const std::vector<int>& extra = {}) const;

  int frequent_count() const { return int(frequent_.size()); }
  int vocab_size() const { return vocab_size_; }

 private:
  int vocab_size_ = 0;
  int eos_id_ = 0, unk_id_ = 0;
  std::vector<int> frequent_;
  std::vector<uint32_t> begin_;       // [vocab + 1]: source s's candidates are targets_[begin_[s], begin_[s + 1])
  const uint16_t* targets_ = nullptr; // a view into the model file
};

}  // namespace nmt
