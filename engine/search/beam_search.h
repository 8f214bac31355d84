// Search: turning the decoder's next-token distributions into translations.
//
// Greedy (beam_size 1: the argmax at every step, exactly what the PyTorch reference does) and beam
// search (beam_size > 1: the beam_size best partial translations per sentence, scored by summed
// log-probability, finished ones ranked with the GNMT length penalty ((5 + len) / 6)^alpha) and,
// optionally, its coverage penalty: beta * sum over source tokens of log(min(attention received, 1)),
// which marks down a translation that stopped before attending to the whole source).
// Both run a whole batch of sentences together: every alive hypothesis of every sentence is one
// row of the decoder state. Each hypothesis also carries each token's log-probability (what the
// confidence shown for a word is made of) and, when asked, the cross-attention row of each token it
// produced, taken at the step that produced it: that is what the alignments show.
// With sample_top_k (beam_size 1 only), greedy draws each free token from the model's k most
// probable ones instead of taking the argmax (search/sampling.h).
// A sentence may be given a forced target prefix (search/forced_prefix.h): its hypotheses start
// with those tokens, each scored like any other, and the search takes over after them.
#pragma once

#include <cstdint>
#include <vector>

#include "model/transformer.h"
#include "options.h"

namespace nmt {

// One token allowed while a forced prefix's last bytes are spelled (ForcedTokens::heal).
struct HealStep {
  int id;
  int bytes;  // how many of the bytes left it spells (all of them: it may go on beyond them)
};

// What a sentence's translation must start with: `tokens`, then pieces that spell the prefix's
// last bytes (its last word, or the "▁" of a trailing space) in whatever pieces the model picks:
// heal[k] are the tokens allowed once k of those bytes are spelled (sorted by id; heal.size() is
// their number, 0 = none). search/forced_prefix.h makes one from text.
struct ForcedTokens {
  std::vector<int> tokens;
  std::vector<std::vector<HealStep>> heal;
  int spelled = 0;  // bytes of the heal already spelled by `tokens` (alternatives force some)
};

// How many bytes of `forced`'s heal are spelled after `token`, when `spelled` were before it.
int spelled_after(const ForcedTokens& forced, int spelled, int token);

struct SearchOptions {
  // Defaults as TranslateOptions (options.h); Translator::Impl::search_options fills these from it.
  int beam_size = int(option::beam.fallback);  // 1 = greedy
  // alpha; 0 = rank by raw log-probability
  float length_penalty = float(option::length_penalty.fallback);
  // beta; 0 = off. Uses the alignment layer's attention (mean over heads)
  float coverage_penalty = float(option::coverage_penalty.fallback);
  // target tokens <= source tokens (with eos) * ratio + offset
  float max_length_ratio = float(option::max_length_ratio.fallback);
  int max_length_offset = TranslateOptions().max_length_offset;
  int alignment_layer = -1;         // decoder layer whose cross-attention is kept (-1: the last)
  bool keep_attention = false;      // alignment-layer attention, mean over heads (and the read-out head's)
  // The cross-attention head the word alignments are read from (text/word_alignment.h,
  // AlignmentReadout): layer 0, head 1, chosen on the hand-aligned dev set for the shipped models
  // (`npm run bench:align` prints every head's AER). Clamped to the model's layers and heads.
  int readout_layer = 0, readout_head = 1;
  bool keep_all_heads = false;      // every layer and head as well
  std::vector<ForcedTokens> forced; // empty, or one per sentence of the batch (empty tokens = none)
  // The lexical shortlist of this batch (model/shortlist.h): only these tokens can be produced;
  // null = the whole vocabulary. It must hold every forced and heal token.
  const OutputRows* output_rows = nullptr;
  // Sampling (beam_size 1 only; the Translator refuses it with a beam): 0 = the argmax; else each
  // token not forced is drawn from the k most probable (among the shortlist's, under one), with
  // sentence s's random stream seeded by sample_seeds[s] (sentence_seeds(seed, the batch's source
  // ids); a sentence without one uses sentence_seed(seed, {})).
  int sample_top_k = int(option::sample_top_k.fallback);
  int seed = int(option::seed.fallback);
  std::vector<uint64_t> sample_seeds;
  // Tokens a hypothesis may not start with (ascending). Empty for a first translation (as the
  // PyTorch reference searches); the translator's second try of a sentence whose translation came
  // out empty ("sehr" alone: the model wrote a lone "▁" and ended) holds the tokens that write
  // nothing (eos, unk, "▁").
  std::vector<int> not_first;
};

struct Hypothesis {
  std::vector<int> tokens;       // generated ids without bos; ends with eos when the model ended it
  std::vector<float> token_log_probs;  // [tokens] log p(token | source, the tokens before it) under the model
  float log_prob = 0.0f;         // sum of the tokens' log-probabilities
  float score = 0.0f;            // log_prob / length penalty + coverage penalty (beam only): what beams are ranked by
  std::vector<float> attention;  // [tokens, source_len]: alignment layer, mean over heads
  std::vector<float> heads;      // [tokens, decoder_layers, n_heads, source_len] when keep_all_heads
  // [tokens, source_len] with keep_attention: the read-out head's attention at the step that
  // produced each token (so row k + 1 is the step whose input was token k: next_step_rows)
  std::vector<float> readout;
  // [source ids, tokens without eos + 1] with a reverse model and alignments: the reverse model's
  // read-out head reading this translation back into its source (rerank.h reverse_readout)
  std::vector<float> reverse_readout;
};

// The best hypothesis of every sentence of the encoded batch, in batch order.
std::vector<Hypothesis> search(const Transformer& model, const EncoderOutput& enc, const SearchOptions& options);

// The same search, keeping each sentence's `nbest` best finished hypotheses, best first (beam search
// finishes at least beam_size per sentence, greedy one). For reranking (search/rerank.h).
std::vector<std::vector<Hypothesis>> search_nbest(const Transformer& model, const EncoderOutput& enc,
                                                  const SearchOptions& options, int nbest);

// The GNMT length penalty ((5 + length) / 6)^alpha that a finished hypothesis' log-probability is
// divided by (1 when alpha is 0). Reranking normalizes the reverse model's score with it too.
float length_penalty(int length, float alpha);

// The GNMT coverage penalty of a finished hypothesis: beta * sum_j log(min(coverage[j], 1)), where
// coverage[j] is the attention source token j received over all target steps. 0 when fully covered.
float coverage_penalty(const std::vector<float>& coverage, float beta);

// Most target tokens allowed for a source of this many tokens (including eos).
int max_target_tokens(const ModelConfig& cfg, int source_tokens, const SearchOptions& options);

}  // namespace nmt
