// Pass-through of what the vocabulary cannot write: emoji, other scripts, rare symbols. The tokenizer
// turns each run of such characters into the unknown piece, and the model can only write " ⁇ " for
// it, or leave it out. Both lose the reader's text, so after decoding:
//   1. every unknown piece the model wrote gets the source run it attends to most (unused runs
//      first), the classic "unk replacement";
//   2. every source run still unused that is a word of its own (not a letter inside a word, like the
//      "ç" of "Barça") is inserted after the target word aligned to the source word before it (or
//      before the word aligned to the one after it, at the sentence start).
// Target spans are updated so alignments and confidence go on working over the new text.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "tokenizer/sentencepiece.h"

namespace nmt {

// True if any of the tokens is the unknown piece.
bool has_unknown(const std::vector<Token>& source_tokens, int unk_id);

// source: the sentence text the tokens' [begin, end) index; target_ids / spans: the decoded target
// (without eos) and each id's byte span in `target`; attention: [target_ids.size() (+1 for eos),
// source_tokens.size() + 1 (eos)] row-major, the alignment layer's mean cross-attention (may be
// empty: then the runs are placed by position alone). The first `fixed_bytes` of the target (a
// forced prefix, kept verbatim) are neither replaced nor inserted into.
void pass_through_unknown(const std::string& source, const std::vector<Token>& source_tokens, int unk_id,
                          const std::vector<int>& target_ids, const std::vector<float>& attention,
                          std::string& target, std::vector<std::pair<size_t, size_t>>& spans, size_t fixed_bytes = 0);

}  // namespace nmt
