// Greedy and beam search over a batch; see beam_search.h.
#include "search/beam_search.h"

#include <algorithm>
#include <cmath>

#include "kernels/kernels.h"

namespace nmt {
namespace {

// An alive hypothesis is one decoder row; `limit` is its sentence's most target tokens; `coverage`
// the attention each source token has received so far (only kept when the coverage penalty is on).
struct Alive {
  Hypothesis hyp;
  int sentence = 0;
  int limit = 0;
  std::vector<float> coverage;
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

// Appends the attention of decoder row `row` (just computed) to the hypothesis.
void record_attention(const Transformer& model, const EncoderOutput& enc, const DecoderState& st, int row, int layer,
                      int sentence, bool all_heads, Hypothesis& h) {
  const ModelConfig& c = model.config();
  const int len = enc.lengths[sentence], heads = c.n_heads, stride = enc.max_length;
  const float* w = &st.cross_weights[layer][size_t(row) * heads * stride];
  const size_t at = h.attention.size();
  h.attention.resize(at + len, 0.0f);
  for (int hh = 0; hh < heads; ++hh)
    for (int j = 0; j < len; ++j) h.attention[at + j] += w[hh * stride + j] / float(heads);
  if (all_heads) {
    for (int l = 0; l < c.decoder_layers; ++l) {
      const float* wl = &st.cross_weights[l][size_t(row) * heads * stride];
      for (int hh = 0; hh < heads; ++hh) h.heads.insert(h.heads.end(), wl + hh * stride, wl + hh * stride + len);
    }
  }
}

struct Candidate {
  float log_prob;
  int row;
  int token;
};

}  // namespace

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
  const ModelConfig& c = model.config();
  const int sentences = int(enc.lengths.size());
  const int beam = std::max(1, o.beam_size);
  const int layer = o.alignment_layer >= 0 && o.alignment_layer < c.decoder_layers ? o.alignment_layer
                                                                                   : c.decoder_layers - 1;
  const bool keep = o.keep_attention || o.keep_all_heads;
  const bool cover = beam > 1 && o.coverage_penalty != 0.0f;

  std::vector<Alive> alive;
  std::vector<int> row_sentence;
  int capacity = 1;
  for (int s = 0; s < sentences; ++s) {
    Alive a;
    a.sentence = s;
    a.limit = max_target_tokens(c, enc.lengths[s], o);
    capacity = std::max(capacity, a.limit);
    alive.push_back(std::move(a));
    row_sentence.push_back(s);
  }
  DecoderState st = model.start(enc, row_sentence, capacity);
  std::vector<std::vector<Hypothesis>> finished(sentences);
  std::vector<int> inputs(alive.size(), c.bos_id);
  std::vector<float> logits, probs;
  std::vector<int> best;

  while (!alive.empty()) {
    const int rows = int(alive.size());
    logits.resize(size_t(rows) * c.vocab_size);
    model.step(enc, st, inputs.data(), logits.data());

    std::vector<Alive> next;
    std::vector<int> parents, next_inputs;
    auto extend = [&](int row, int token, float log_prob) {
      Alive a;
      a.sentence = alive[row].sentence;
      a.limit = alive[row].limit;
      a.hyp.tokens = alive[row].hyp.tokens;
      a.hyp.tokens.push_back(token);
      a.hyp.log_prob = log_prob;
      if (keep) {
        a.hyp.attention = alive[row].hyp.attention;
        a.hyp.heads = alive[row].hyp.heads;
        record_attention(model, enc, st, row, layer, a.sentence, o.keep_all_heads, a.hyp);
      }
      if (cover) {
        a.coverage = alive[row].coverage;
        add_coverage(model, enc, st, row, layer, a.sentence, a.coverage);
      }
      const int len = int(a.hyp.tokens.size());
      if (token == c.eos_id || len >= a.limit) {
        a.hyp.score = a.hyp.log_prob / length_penalty(len, o.length_penalty) +
                      (cover ? coverage_penalty(a.coverage, o.coverage_penalty) : 0.0f);
        finished[a.sentence].push_back(std::move(a.hyp));
      } else {
        parents.push_back(row);
        next_inputs.push_back(token);
        next.push_back(std::move(a));
      }
    };

    if (beam == 1) {
      // Greedy: the argmax of the logits, as the reference does (no softmax needed).
      best.resize(rows);
      kernels::argmax_rows(logits.data(), rows, c.vocab_size, best.data());
      for (int r = 0; r < rows; ++r) extend(r, best[r], 0.0f);
    } else {
      // Beam: log_softmax each row, then per sentence keep the best 2*beam (row, token) extensions
      // and take them in order: eos ends a hypothesis, others continue until the beam is full.
      // log p = logit - logsumexp; logsumexp = max - log(softmax at the max), with the SIMD softmax
      probs.assign(logits.begin(), logits.end());
      kernels::softmax_rows(probs.data(), rows, c.vocab_size);
      best.resize(rows);
      kernels::argmax_rows(logits.data(), rows, c.vocab_size, best.data());
      for (int r = 0; r < rows; ++r) {
        float* lr = &logits[size_t(r) * c.vocab_size];
        const float mx = lr[best[r]];
        const float lse = mx - std::log(probs[size_t(r) * c.vocab_size + best[r]]);
        const float shift = alive[r].hyp.log_prob - lse;
        for (int v = 0; v < c.vocab_size; ++v) lr[v] += shift;
      }
      const size_t k = size_t(2 * beam);
      int r0 = 0;
      while (r0 < rows) {
        int r1 = r0;
        while (r1 < rows && alive[r1].sentence == alive[r0].sentence) ++r1;  // rows of one sentence are adjacent
        std::vector<Candidate> cand;
        for (int r = r0; r < r1; ++r) {
          const float* lr = &logits[size_t(r) * c.vocab_size];
          for (int v = 0; v < c.vocab_size; ++v) {
            if (cand.size() < k || lr[v] > cand.back().log_prob) {
              Candidate x{lr[v], r, v};
              auto pos = std::upper_bound(cand.begin(), cand.end(), x,
                                          [](const Candidate& a, const Candidate& b) { return a.log_prob > b.log_prob; });
              cand.insert(pos, x);
              if (cand.size() > k) cand.pop_back();
            }
          }
        }
        const int sentence = alive[r0].sentence;
        int kept = 0;
        for (const Candidate& x : cand) {
          if (kept >= beam) break;
          const size_t before = finished[sentence].size();
          extend(x.row, x.token, x.log_prob);
          if (finished[sentence].size() == before) ++kept;
        }
        // Done once `beam` hypotheses have ended and none of the alive ones can still beat the best
        // of them: log-probs only fall, so an alive hypothesis scores at most log_prob / lp(limit)
        // (its coverage penalty is at most 0).
        bool done = int(finished[sentence].size()) >= beam;
        if (done) {
          float best_finished = -INFINITY;
          for (const Hypothesis& h : finished[sentence]) best_finished = std::max(best_finished, h.score);
          for (size_t k = next.size(); k-- > 0 && next[k].sentence == sentence;)
            if (next[k].hyp.log_prob / length_penalty(next[k].limit, o.length_penalty) > best_finished) done = false;
        }
        if (done) {
          while (!next.empty() && next.back().sentence == sentence) {
            next.pop_back();
            parents.pop_back();
            next_inputs.pop_back();
          }
        }
        r0 = r1;
      }
    }
    if (next.empty()) break;
    model.select_rows(st, parents);
    alive = std::move(next);
    inputs = std::move(next_inputs);
  }

  // Each sentence's finished hypotheses, best first.
  for (auto& f : finished) {
    std::stable_sort(f.begin(), f.end(), [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
    if (int(f.size()) > nbest) f.resize(std::max(1, nbest));
  }
  return finished;
}

std::vector<Hypothesis> search(const Transformer& model, const EncoderOutput& enc, const SearchOptions& o) {
  std::vector<std::vector<Hypothesis>> nbest = search_nbest(model, enc, o, 1);
  std::vector<Hypothesis> out(nbest.size());
  for (size_t s = 0; s < nbest.size(); ++s)
    if (!nbest[s].empty()) out[s] = std::move(nbest[s][0]);
  return out;
}

}  // namespace nmt
