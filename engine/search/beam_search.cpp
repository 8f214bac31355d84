// Greedy and beam search over a batch; see beam_search.h.
//
// BatchSearch holds one search's state: the decoder rows (one per alive hypothesis), each
// sentence's finished hypotheses, and the step's logits. Every step runs the decoder once for all
// rows, normalizes the logits (each row's log-sum-exp, so a token's log-probability is its logit
// minus it), then extends the hypotheses (greedy: each row's argmax, or with sample_top_k a token
// drawn from its k most probable; beam: per sentence, the best extensions in order until the beam
// is full), finishes those that ended, and keeps the decoder rows of the survivors. A sentence with a forced prefix (SearchOptions::forced) has one row while
// it is forced: each step extends it by the prefix's next token; then, while a row spells the
// prefix's last word (its heal), only the pieces that go on spelling it are allowed; then the
// search goes on as usual.
#include "search/beam_search.h"

#include <algorithm>
#include <cmath>

#include "common/profile.h"
#include "kernels/kernels.h"
#include "search/sampling.h"

namespace nmt {
namespace {

// An alive hypothesis is one decoder row; `limit` is its sentence's most target tokens; `coverage`
// the attention each source token has received so far (only kept when the coverage penalty is on).
struct Alive {
  Hypothesis hyp;
  int sentence = 0;
  int limit = 0;
  int spelled = 0;  // bytes of its forced prefix's heal spelled so far
  std::vector<float> coverage;
};

// One way to extend an alive hypothesis: decoder row `row` followed by `token`.
struct Candidate {
  float log_prob;  // the extended hypothesis' log-probability
  int row;
  int token;
};

// Adds decoder row `row`'s attention at `layer` (mean over heads) to `coverage`.
void add_coverage(const Transformer& model, const EncoderOutput& enc, const DecoderState& st, int row, int layer,
                  int sentence, std::vector<float>& coverage) {
  const int len = enc.lengths[sentence], heads = model.config().n_heads, stride = enc.max_length;
  const float* w = &st.cross_weights[layer][size_t(row) * heads * stride];
  coverage.resize(len, 0.0f);
  for (int hh = 0; hh < heads; ++hh)
    for (int j = 0; j < len; ++j) coverage[j] += w[hh * stride + j] / float(heads);
}

// The read-out head (SearchOptions::readout_layer/head) within the model's layers and heads.
std::pair<int, int> readout_head(const ModelConfig& c, const SearchOptions& o) {
  return {std::clamp(o.readout_layer, 0, c.decoder_layers - 1), std::clamp(o.readout_head, 0, c.n_heads - 1)};
}

// Appends the attention of decoder row `row` (just computed) to the hypothesis: the alignment
// layer's mean over heads, the read-out head's, and with all_heads every layer's every head.
void record_attention(const Transformer& model, const EncoderOutput& enc, const DecoderState& st, int row, int layer,
                      std::pair<int, int> readout, int sentence, bool all_heads, Hypothesis& h) {
  const ModelConfig& c = model.config();
  const int len = enc.lengths[sentence], heads = c.n_heads, stride = enc.max_length;
  const float* w = &st.cross_weights[layer][size_t(row) * heads * stride];
  const size_t at = h.attention.size();
  h.attention.resize(at + len, 0.0f);
  for (int hh = 0; hh < heads; ++hh)
    for (int j = 0; j < len; ++j) h.attention[at + j] += w[hh * stride + j] / float(heads);
  const float* r = &st.cross_weights[readout.first][(size_t(row) * heads + size_t(readout.second)) * stride];
  h.readout.insert(h.readout.end(), r, r + len);
  if (all_heads) {
    for (int l = 0; l < c.decoder_layers; ++l) {
      const float* wl = &st.cross_weights[l][size_t(row) * heads * stride];
      for (int hh = 0; hh < heads; ++hh) h.heads.insert(h.heads.end(), wl + hh * stride, wl + hh * stride + len);
    }
  }
}

// The decoder layer whose cross-attention the alignments and the coverage penalty use.
int alignment_layer(const ModelConfig& c, const SearchOptions& o) {
  return o.alignment_layer >= 0 && o.alignment_layer < c.decoder_layers ? o.alignment_layer : c.decoder_layers - 1;
}

class BatchSearch {
  static constexpr int kBlock = 32;  // tokens per block of the beam's top-k scan

 public:
  BatchSearch(const Transformer& model, const EncoderOutput& enc, const SearchOptions& o)
      : model_(model),
        c_(model.config()),
        enc_(enc),
        o_(o),
        beam_(std::max(1, o.beam_size)),
        layer_(alignment_layer(model.config(), o)),
        readout_(readout_head(model.config(), o)),
        keep_(o.keep_attention || o.keep_all_heads),
        cover_(beam_ > 1 && o.coverage_penalty != 0.0f),
        finished_(enc.lengths.size()) {
    if (beam_ == 1 && o.sample_top_k > 0)
      for (size_t s = 0; s < enc.lengths.size(); ++s)
        streams_.emplace_back(s < o.sample_seeds.size() ? o.sample_seeds[s] : sentence_seed(o.seed, {}));
  }

  // Steps until no hypothesis is alive; each sentence's `nbest` best finished hypotheses, best first.
  std::vector<std::vector<Hypothesis>> run(int nbest) {
    start();
    while (!alive_.empty()) {
      run_decoder();
      NMT_PROFILE(search);
      normalize();
      constrain();
      if (beam_ == 1)
        greedy_step();
      else
        beam_step();
      if (next_.empty()) break;
      keep_survivors();
    }
    return best_first(nbest);
  }

 private:
  // One empty hypothesis per sentence (its first input is bos); the decoder state is sized for the
  // longest sentence's limit.
  void start() {
    std::vector<int> row_sentence;
    int capacity = 1;
    for (int s = 0; s < int(enc_.lengths.size()); ++s) {
      Alive a;
      a.sentence = s;
      a.limit = max_target_tokens(c_, enc_.lengths[s], o_);
      // Room for the whole prefix and its heal (the translator refuses longer prefixes).
      if (const ForcedTokens* f = forced(s)) {
        a.limit = std::min(c_.max_length, std::max(a.limit, int(f->tokens.size() + f->heal.size()) + 2));
        a.spelled = f->spelled;
      }
      capacity = std::max(capacity, a.limit);
      alive_.push_back(std::move(a));
      row_sentence.push_back(s);
    }
    st_ = model_.start(enc_, row_sentence, capacity);
    inputs_.assign(alive_.size(), c_.bos_id);
  }

  // logits[rows, vocab] for every alive row's next token; the next step starts empty.
  void run_decoder() {
    logits_.resize(alive_.size() * size_t(c_.vocab_size));
    model_.step(enc_, st_, inputs_.data(), logits_.data(), o_.output_rows);
    next_.clear();
    parents_.clear();
    next_inputs_.clear();
  }

  // Each row's log-sum-exp (the SIMD kernel): a token's log-probability is its logit - lse. Under a
  // shortlist, over the listed tokens' logits only (the others are -inf: they add nothing).
  void normalize() {
    lse_.resize(alive_.size());
    if (const OutputRows* o = o_.output_rows)
      kernels::logsumexp_rows(st_.ws.short_logits.data(), int(alive_.size()), int(o->ids.size()), lse_.data());
    else
      kernels::logsumexp_rows(logits_.data(), int(alive_.size()), c_.vocab_size, lse_.data());
  }

  // log p(token | row's hypothesis) = logit - lse.
  float token_log_prob(int row, int token) const { return logits_[size_t(row) * c_.vocab_size + token] - lse_[row]; }

  // The sentence's forced prefix, or null.
  const ForcedTokens* forced(int sentence) const {
    if (size_t(sentence) >= o_.forced.size()) return nullptr;
    const ForcedTokens& f = o_.forced[size_t(sentence)];
    return f.tokens.empty() && f.heal.empty() ? nullptr : &f;
  }

  // The token row `row` must take next (its prefix is not done yet), or -1.
  int forced_token(int row) const {
    const ForcedTokens* f = forced(alive_[row].sentence);
    const size_t at = alive_[row].hyp.tokens.size();
    return f && at < f->tokens.size() ? f->tokens[at] : -1;
  }

  // The tokens row `row` may take while it spells its prefix's heal, or null when it is free.
  const std::vector<HealStep>* healing(int row) const {
    const ForcedTokens* f = forced(alive_[row].sentence);
    if (!f || alive_[row].hyp.tokens.size() < f->tokens.size() || alive_[row].spelled >= int(f->heal.size())) return nullptr;
    return &f->heal[size_t(alive_[row].spelled)];
  }

  // Rows spelling a heal may only take its allowed tokens: the others' logits become -inf (after
  // normalize(), so the allowed tokens keep their probabilities under the model). A row's first
  // token is none of not_first.
  void constrain() {
    for (int r = 0; r < int(alive_.size()); ++r) {
      if (alive_[r].hyp.tokens.empty())
        for (int token : o_.not_first) forbid(r, token);
      const std::vector<HealStep>* allowed = healing(r);
      if (!allowed) continue;
      float* row = &logits_[size_t(r) * c_.vocab_size];
      auto at = allowed->begin();
      for (int v = 0; v < c_.vocab_size; ++v) {
        while (at != allowed->end() && at->id < v) ++at;
        if (at == allowed->end() || at->id != v) row[v] = -INFINITY;
      }
    }
  }

  // Token `token` not allowed in row `row` (its logit -inf, in the shortlist's row too).
  void forbid(int row, int token) {
    logits_[size_t(row) * c_.vocab_size + token] = -INFINITY;
    if (const OutputRows* o = o_.output_rows) {
      const auto at = std::lower_bound(o->ids.begin(), o->ids.end(), token);
      if (at != o->ids.end() && *at == token) st_.ws.short_logits[size_t(row) * o->ids.size() + size_t(at - o->ids.begin())] = -INFINITY;
    }
  }

  // Row `row` extended by its prefix's next token.
  void force(int row, int token) {
    const float lp = token_log_prob(row, token);
    extend(row, token, alive_[row].hyp.log_prob + lp, lp);
  }

  // The logits row `row` chooses among: under a shortlist, only the listed tokens' (ascending ids,
  // so "the first of equals" is still the lowest id), except while the row spells a heal, whose
  // disallowed tokens constrain() set to -inf in the full row; else the full row.
  struct RowLogits {
    const float* values;
    int n;
    const int* ids;  // value i is token ids[i]; null: token i
    int token(int i) const { return ids ? ids[i] : i; }
  };
  RowLogits row_logits(int row) const {
    if (const OutputRows* o = o_.output_rows; o && !healing(row))
      return {&st_.ws.short_logits[size_t(row) * o->ids.size()], int(o->ids.size()), o->ids.data()};
    return {&logits_[size_t(row) * c_.vocab_size], c_.vocab_size, nullptr};
  }

  // Greedy: the argmax of the logits, as the reference does (ties: lowest id), or with sampling a
  // token drawn from the k most probable; a prefix's token while it is forced.
  void greedy_step() {
    const int rows = int(alive_.size());
    best_.resize(rows);
    if (!streams_.empty()) {
      sample_step();
      return;
    }
    if (o_.output_rows) {
      for (int r = 0; r < rows; ++r) {
        const RowLogits l = row_logits(r);
        kernels::argmax_rows(l.values, 1, l.n, &best_[r]);
        best_[r] = l.token(best_[r]);
      }
    } else {
      kernels::argmax_rows(logits_.data(), rows, c_.vocab_size, best_.data());
    }
    for (int r = 0; r < rows; ++r) {
      const int token = forced_token(r);
      force(r, token >= 0 ? token : best_[r]);
    }
  }

  // Greedy with sampling: each free row's token drawn with its sentence's stream (a greedy sentence
  // has one row), over the logits the argmax would take (the shortlist's, or a heal's allowed ones).
  void sample_step() {
    for (int r = 0; r < int(alive_.size()); ++r) {
      int token = forced_token(r);
      if (token < 0) {
        const RowLogits l = row_logits(r);
        const double u = streams_[size_t(alive_[r].sentence)].uniform();
        token = l.token(sampler_.draw(l.values, l.n, o_.sample_top_k, u));
      }
      force(r, token);
    }
  }

  // Beam: per sentence (its rows are adjacent), the best 2*beam extensions of its rows, taken in
  // order until `beam` continue; then the sentence stops if none of them can still win.
  void beam_step() {
    const int rows = int(alive_.size());
    const int blocks = (c_.vocab_size + kBlock - 1) / kBlock;
    block_max_.resize(size_t(rows) * blocks);
    for (int r = 0; r < rows; ++r) {
      const RowLogits l = row_logits(r);
      kernels::block_max(l.values, l.n, kBlock, &block_max_[size_t(r) * blocks]);
    }
    for (int r0 = 0, r1 = 0; r0 < rows; r0 = r1) {
      const int sentence = alive_[r0].sentence;
      while (r1 < rows && alive_[r1].sentence == sentence) ++r1;
      if (const int token = forced_token(r0); token >= 0) {  // (a sentence has one row while forced)
        force(r0, token);
        continue;
      }
      select_survivors(best_candidates(r0, r1, size_t(2 * beam_)));
      if (sentence_done(sentence)) drop_alive(sentence);
    }
  }

  // The k most probable (row, token) extensions of rows [r0, r1), best first (ties: first seen).
  // An extension's log-probability is the hypothesis' log p + (logit - lse), computed as
  // logit + shift with shift = log p - lse. A block of kBlock tokens whose largest logit m gives
  // m + shift ≤ the k-th best so far holds no candidate (float addition is monotonic), so it is
  // skipped; every other token is compared exactly as a full scan would.
  std::vector<Candidate> best_candidates(int r0, int r1, size_t k) const {
    const int blocks = (c_.vocab_size + kBlock - 1) / kBlock;
    std::vector<Candidate> cand;
    for (int r = r0; r < r1; ++r) {
      const RowLogits l = row_logits(r);
      const float* bm = &block_max_[size_t(r) * blocks];
      const float shift = alive_[r].hyp.log_prob - lse_[r];
      for (int b = 0; b < (l.n + kBlock - 1) / kBlock; ++b) {
        if (cand.size() >= k && !(bm[b] + shift > cand.back().log_prob)) continue;
        const int end = std::min(l.n, (b + 1) * kBlock);
        for (int v = b * kBlock; v < end; ++v) {
          const float lp = l.values[v] + shift;
          if (cand.size() < k || lp > cand.back().log_prob) {
            Candidate x{lp, r, l.token(v)};
            auto pos = std::upper_bound(cand.begin(), cand.end(), x,
                                        [](const Candidate& a, const Candidate& b) { return a.log_prob > b.log_prob; });
            cand.insert(pos, x);
            if (cand.size() > k) cand.pop_back();
          }
        }
      }
    }
    return cand;
  }

  // Takes the candidates in order: eos (or the limit) finishes a hypothesis, the others continue
  // until `beam` of them do.
  void select_survivors(const std::vector<Candidate>& cand) {
    int kept = 0;
    for (const Candidate& x : cand) {
      if (kept >= beam_ || x.log_prob == -INFINITY) break;  // (-inf: not allowed after a prefix)
      if (extend(x.row, x.token, x.log_prob, token_log_prob(x.row, x.token))) ++kept;
    }
  }

  // Done once `beam` hypotheses have ended and none of the alive ones can still beat the best of
  // them: log-probs only fall, so an alive hypothesis scores at most log_prob / lp(limit) (its
  // coverage penalty is at most 0).
  bool sentence_done(int sentence) const {
    if (int(finished_[sentence].size()) < beam_) return false;
    float best_finished = -INFINITY;
    for (const Hypothesis& h : finished_[sentence]) best_finished = std::max(best_finished, h.score);
    for (size_t k = next_.size(); k-- > 0 && next_[k].sentence == sentence;)
      if (next_[k].hyp.log_prob / length_penalty(next_[k].limit, o_.length_penalty) > best_finished) return false;
    return true;
  }

  // Removes the sentence's hypotheses (the last ones added) from the next step.
  void drop_alive(int sentence) {
    while (!next_.empty() && next_.back().sentence == sentence) {
      next_.pop_back();
      parents_.pop_back();
      next_inputs_.pop_back();
    }
  }

  // Row `row`'s hypothesis followed by `token` (of log-probability `token_lp`; `log_prob` is the
  // extended hypothesis'), with its attention and coverage: finished when the token is eos or the
  // limit is reached, else alive in the next step. True when it stays alive.
  bool extend(int row, int token, float log_prob, float token_lp) {
    const Alive& from = alive_[row];
    Alive a;
    a.sentence = from.sentence;
    a.limit = from.limit;
    a.spelled = healing(row) ? spelled_after(*forced(from.sentence), from.spelled, token) : from.spelled;
    a.hyp.tokens = from.hyp.tokens;
    a.hyp.tokens.push_back(token);
    a.hyp.token_log_probs = from.hyp.token_log_probs;
    a.hyp.token_log_probs.push_back(token_lp);
    a.hyp.log_prob = log_prob;
    if (keep_) {
      a.hyp.attention = from.hyp.attention;
      a.hyp.heads = from.hyp.heads;
      a.hyp.readout = from.hyp.readout;
      record_attention(model_, enc_, st_, row, layer_, readout_, a.sentence, o_.keep_all_heads, a.hyp);
    }
    if (cover_) {
      a.coverage = from.coverage;
      add_coverage(model_, enc_, st_, row, layer_, a.sentence, a.coverage);
    }
    const int len = int(a.hyp.tokens.size());
    if (token == c_.eos_id || len >= a.limit) {
      finish(std::move(a));
      return false;
    }
    parents_.push_back(row);
    next_inputs_.push_back(token);
    next_.push_back(std::move(a));
    return true;
  }

  // Scores an ended hypothesis (length and coverage penalties) and files it under its sentence.
  void finish(Alive a) {
    const int len = int(a.hyp.tokens.size());
    a.hyp.score = a.hyp.log_prob / length_penalty(len, o_.length_penalty) +
                  (cover_ ? coverage_penalty(a.coverage, o_.coverage_penalty) : 0.0f);
    finished_[a.sentence].push_back(std::move(a.hyp));
  }

  // The survivors become the alive rows: the decoder state keeps their parents' rows.
  void keep_survivors() {
    model_.select_rows(st_, parents_);
    alive_ = std::move(next_);
    inputs_ = std::move(next_inputs_);
  }

  // Each sentence's finished hypotheses, best first, at most `nbest` (at least 1).
  std::vector<std::vector<Hypothesis>> best_first(int nbest) {
    for (auto& f : finished_) {
      std::stable_sort(f.begin(), f.end(), [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
      if (int(f.size()) > nbest) f.resize(std::max(1, nbest));
    }
    return std::move(finished_);
  }

  const Transformer& model_;
  const ModelConfig& c_;
  const EncoderOutput& enc_;
  const SearchOptions& o_;
  const int beam_, layer_;
  const std::pair<int, int> readout_;  // the read-out head: layer, head
  const bool keep_;   // record each token's attention
  const bool cover_;  // track coverage for the coverage penalty

  DecoderState st_;
  std::vector<Alive> alive_;           // one per decoder row; a sentence's rows are adjacent
  std::vector<int> inputs_;            // [rows] each row's next input token
  std::vector<float> logits_;          // [rows, vocab] the decoder's logits
  std::vector<float> block_max_;       // [rows, vocab / kBlock] (beam) each block's largest logit
  std::vector<float> lse_;             // [rows] log-sum-exp of each row's logits
  std::vector<int> best_;              // [rows] argmax of each row's logits (greedy)
  std::vector<Alive> next_;            // the next step's alive hypotheses,
  std::vector<int> parents_, next_inputs_;  // their decoder rows now and their next inputs
  std::vector<std::vector<Hypothesis>> finished_;  // [sentences]
  std::vector<SplitMix64> streams_;    // [sentences] with sampling: each one's random stream; else empty
  TopKSampler sampler_;
};

}  // namespace

int spelled_after(const ForcedTokens& forced, int spelled, int token) {
  if (spelled >= int(forced.heal.size())) return spelled;
  const std::vector<HealStep>& allowed = forced.heal[size_t(spelled)];
  auto at = std::lower_bound(allowed.begin(), allowed.end(), token, [](const HealStep& h, int id) { return h.id < id; });
  return at != allowed.end() && at->id == token ? spelled + at->bytes : spelled;
}

float length_penalty(int length, float alpha) {
  return alpha == 0.0f ? 1.0f : std::pow((5.0f + float(length)) / 6.0f, alpha);
}

float coverage_penalty(const std::vector<float>& coverage, float beta) {
  if (beta == 0.0f) return 0.0f;
  float sum = 0.0f;
  for (float c : coverage) sum += std::log(std::min(std::max(c, 1e-6f), 1.0f));  // floor: softmax is never 0, but keep it finite
  return beta * sum;
}

int max_target_tokens(const ModelConfig& cfg, int source_tokens, const SearchOptions& o) {
  const int n = int(std::floor(float(source_tokens) * o.max_length_ratio)) + o.max_length_offset;
  return std::max(1, std::min(n, cfg.max_length));
}

std::vector<std::vector<Hypothesis>> search_nbest(const Transformer& model, const EncoderOutput& enc,
                                                  const SearchOptions& o, int nbest) {
  return BatchSearch(model, enc, o).run(nbest);
}

std::vector<Hypothesis> search(const Transformer& model, const EncoderOutput& enc, const SearchOptions& o) {
  std::vector<std::vector<Hypothesis>> nbest = search_nbest(model, enc, o, 1);
  std::vector<Hypothesis> out(nbest.size());
  for (size_t s = 0; s < nbest.size(); ++s)
    if (!nbest[s].empty()) out[s] = std::move(nbest[s][0]);
  return out;
}

}  // namespace nmt
