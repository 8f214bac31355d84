// The Transformer encoder-decoder forward pass over weights that live in the model file.
//
// Three kinds of state, as in llama2.c: the hyper-parameters (ModelConfig), read-only weight
// views (Weights: pointers into the model file, int8 + per-row scale or f32), and run state
// (EncoderOutput for a batch of sentences; DecoderState with the self-attention key/value cache).
// The search (search/beam_search.h) drives the decoder one step at a time and reorders its rows.
//
// A batch of sentences is laid out without padding: the rows of all sentences one after another,
// so every Linear runs once over all tokens of the batch, and attention runs per sentence.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "common/profile.h"
#include "common/result.h"
#include "model/model_file.h"

namespace nmt {

// y[M, out] = x[M, in] · W^T + bias, W either int8 with one scale per output row or f32.
struct Linear {
  const int8_t* q = nullptr;    // [out, in] int8 weights, or nullptr for f32
  const float* scale = nullptr; // [out]
  const float* w = nullptr;     // [out, in] f32 weights when q == nullptr
  const float* bias = nullptr;  // [out] or nullptr
  const int32_t* sums = nullptr; // [out] Σ of each int8 row (the shifted 7-bit scheme, kernels.h)
  int out = 0, in = 0;
};

struct LayerNorm {
  const float* gamma = nullptr;  // [d_model]
  const float* beta = nullptr;   // [d_model]
};

struct Attention {
  Linear q_proj, k_proj, v_proj, o_proj;  // each [d_model, d_model]
};

struct FeedForward {
  Linear fc1, fc2;  // [d_ff, d_model], [d_model, d_ff]: fc2(relu(fc1(x)))
};

struct EncoderLayer {
  Attention self_attn;
  FeedForward ffn;
  LayerNorm norm1, norm2;  // around self-attention, around the feed-forward
};

struct DecoderLayer {
  Attention self_attn, cross_attn;
  FeedForward ffn;
  LayerNorm norm1, norm2, norm3;  // around self-attention, cross-attention, feed-forward
};

struct Weights {
  Linear embed;  // [vocab_size, d_model]: embedding rows and (tied) output projection, no bias
  std::vector<EncoderLayer> encoder;
  std::vector<DecoderLayer> decoder;
  LayerNorm encoder_norm, decoder_norm;  // pre-norm only
};

// Some rows of the output projection (the lexical shortlist's tokens, model/shortlist.h), gathered
// into one matrix so that a decoder step computes only their logits with one GEMM.
struct OutputRows {
  std::vector<int> ids;          // ascending target token ids
  std::vector<int8_t> q;         // [ids, d_model] their int8 rows (an int8 model)
  std::vector<float> scale;      // [ids]
  std::vector<int32_t> sums;     // [ids] their row sums (an int8 model)
  std::vector<float> w;          // [ids, d_model] their f32 rows (an f32 model)
  Linear linear;                 // a view of the rows above
};

// Scratch buffers reused across calls so the decoder loop does not allocate.
struct Workspace {
  std::vector<float> normed, sublayer_out;  // [rows, d_model]: LN(x) and f(LN(x)) around a residual
  std::vector<float> q, k, v, context;      // [rows, d_model]
  std::vector<float> hidden;                // [rows, d_ff]
  std::vector<float> scores;                // [rows or 1, keys]
  std::vector<int8_t> quantized;            // activations quantized for the int8 GEMM
  std::vector<float> row_scales;
  std::vector<int32_t> row_zeros;           // the shifted scheme's zero points (kernels::quantize_rows_u7)
  std::vector<float> x;                     // [rows, d_model] the decoder step's residual stream
  std::vector<int> positions;               // [rows] the decoder step's position of each row
  std::vector<float> short_logits;          // [rows, shortlist] an OutputRows step's logits (the search reads them)
};

// The encoder's output for a batch of sentences, plus each decoder layer's cross-attention keys
// and values (computed once per batch, not once per step).
struct EncoderOutput {
  std::vector<int> lengths;  // source tokens of each sentence (including eos)
  std::vector<int> offsets;  // first row of each sentence
  int total_rows = 0;
  int max_length = 0;
  std::vector<float> memory;                       // [total_rows, d_model]
  std::vector<std::vector<float>> cross_k, cross_v; // per decoder layer: [total_rows, d_model]
};

// Decoder run state for a set of hypotheses ("rows"), each tied to one sentence of the batch.
struct DecoderState {
  int rows = 0;
  int steps = 0;     // tokens consumed so far = position of the next input token
  int capacity = 0;  // most steps this state can run
  // Steps each row's self-attention cache has room for now: it grows with the steps taken, up to
  // `capacity`, so a batch holds the length its translations reach, not its longest sentence's
  // limit (1.5x its tokens + 10) for every row from the first step.
  int stride = 0;
  std::vector<int> sentence;                       // [rows] sentence of each row
  std::vector<std::vector<float>> self_k, self_v;  // per layer: [rows, stride, d_model]
  std::vector<float> spare;                        // reordering buffer, swapped with a cache
  std::vector<float> spare_weights;                // reordering buffer for cross_weights
  // Cross-attention weights of the last step: per layer [rows, n_heads, batch max_length].
  std::vector<std::vector<float>> cross_weights;
  Workspace ws;
};

class Transformer {
 public:
  // Binds and checks every tensor the config implies (dtypes, shapes); errors name the tensor.
  static Result<Transformer> create(const ModelFile& file);

  const ModelConfig& config() const { return cfg_; }
  const Weights& weights() const { return w_; }

  // sentences: token ids, each ending with eos, each at most max_length long.
  EncoderOutput encode(const std::vector<std::vector<int>>& sentences) const;

  // A decoder state with one row per entry of row_sentence, able to run `capacity` steps; its
  // caches start with room for `first_stride` steps (at most `capacity`) and grow as steps are
  // taken (the results do not depend on it: tests start with the whole capacity to compare).
  static constexpr int kFirstStride = 32;
  DecoderState start(const EncoderOutput& enc, const std::vector<int>& row_sentence, int capacity,
                     int first_stride = kFirstStride) const;

  // One decoder step: tokens[rows] are the inputs at position state.steps; writes logits[rows, vocab]
  // and state.cross_weights; advances state.steps. With `output`, only its tokens get logits and
  // every other token's is -inf (the lexical shortlist).
  void step(const EncoderOutput& enc, DecoderState& state, const int* tokens, float* logits,
            const OutputRows* output = nullptr) const;

  // The output projection's rows for these target ids (ascending, each < vocab_size).
  OutputRows output_rows(const std::vector<int>& ids) const;

  // Keeps only the listed rows, in this order (a row may appear several times): beam reordering.
  void select_rows(DecoderState& state, const std::vector<int>& parents) const;

 private:
  void linear(const Linear& l, const float* x, int rows, float* y, Workspace& ws,
              profile::Category category = profile::Category::gemm) const;
  // y_i = l_i(x) for several Linear layers reading the same x (q/k/v, cross k/v): when all are
  // int8, x is quantized once for all of them (the same rows, so the same results as linear()).
  void linears(std::initializer_list<std::pair<const Linear*, float*>> layers, const float* x, int rows,
               Workspace& ws) const;
  void linears_impl(std::initializer_list<std::pair<const Linear*, float*>> layers, const float* x, int rows,
                    Workspace& ws, profile::Category category) const;
  void norm(const LayerNorm& n, const float* x, int rows, float* y) const;
  void embed(const int* tokens, const int* positions, int rows, float* x) const;
  void feed_forward(const FeedForward& f, const float* x, int rows, float* y, Workspace& ws) const;
  // x = x + f(LN(x)) (pre-norm) or x = LN(x + f(x)) (post-norm); f reads its input, writes its output.
  template <class F>
  void residual(const LayerNorm& n, float* x, int rows, Workspace& ws, F&& f) const;

  ModelConfig cfg_;
  Weights w_;
  std::vector<float> positions_;  // [max_length + 1, d_model] sinusoids
  std::vector<std::vector<int32_t>> row_sums_;  // each int8 Linear's sums (Linear::sums points here)
};

}  // namespace nmt
