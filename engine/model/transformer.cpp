// The forward pass: embeddings -> encoder layers -> decoder steps with a key/value cache -> logits.
// The maths mirrors weights/recipe/model.py line for line (engine/FORMAT.md, "Maths").
#include "model/transformer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "common/profile.h"
#include "kernels/kernels.h"

namespace nmt {
namespace {

void ensure(std::vector<float>& v, size_t n) {
  if (v.size() < n) v.resize(n);
}

// Scaled dot-product attention of one head:
//   out[tq, hd] = softmax(q[tq, hd] · k[tk, hd]^T / sqrt(hd)) · v[tk, hd]
// q, k, v, out are column slices of wider row-major matrices (row strides ldq, ldkv, ldo).
// probs[tq, tk] keeps the attention weights.
void attend_head(const float* q, int ldq, const float* k, const float* v, int ldkv, int tq, int tk, int hd,
                 float* probs, float* out, int ldo) {
  NMT_PROFILE(attention);
  kernels::gemm_f32_nt(q, ldq, k, ldkv, nullptr, probs, tk, tq, tk, hd);
  const float root = std::sqrt(float(hd));
  for (int i = 0; i < tq * tk; ++i) probs[i] /= root;  // divide (not multiply): same rounding as PyTorch
  {
    NMT_PROFILE(softmax);
    kernels::softmax_rows(probs, tq, tk);
  }
  kernels::gemm_f32_nn(probs, tk, v, ldkv, out, ldo, tq, hd, tk);
}

struct Binder {
  const ModelFile& file;
  std::string error;

  const float* f32(const std::string& name, std::vector<int64_t> shape) {
    if (!error.empty()) return nullptr;
    auto t = file.tensor(name, DType::f32, shape);
    if (!t) {
      error = t.error();
      return nullptr;
    }
    const float* values = t->as<float>();
    const size_t count = t->bytes / sizeof(float);
    for (size_t i = 0; i < count; ++i) {
      // A NaN or infinite weight (or scale) would turn every translation into garbage or silence.
      if (!std::isfinite(values[i])) {
        error = "tensor " + name + " holds a non-finite value (NaN or infinity) at index " + std::to_string(i);
        return nullptr;
      }
      if (name.size() > 6 && name.compare(name.size() - 6, 6, ".scale") == 0 && !(values[i] > 0.0f)) {
        error = "tensor " + name + " holds a scale that is not positive at index " + std::to_string(i);
        return nullptr;
      }
    }
    return values;
  }

  Linear linear(const std::string& prefix, int out, int in, bool bias = true) {
    Linear l;
    l.out = out;
    l.in = in;
    if (!error.empty()) return l;
    const TensorView* w = file.find(prefix + ".weight");
    if (w && w->dtype == DType::i8) {
      auto q = file.tensor(prefix + ".weight", DType::i8, {out, in});
      if (!q) {
        error = q.error();
        return l;
      }
      l.q = q->as<int8_t>();
      l.scale = f32(prefix + ".weight.scale", {out});
    } else {
      l.w = f32(prefix + ".weight", {out, in});
    }
    if (bias) l.bias = f32(prefix + ".bias", {out});
    return l;
  }

  Attention attention(const std::string& prefix, int d) {
    return {linear(prefix + ".q_proj", d, d), linear(prefix + ".k_proj", d, d), linear(prefix + ".v_proj", d, d),
            linear(prefix + ".o_proj", d, d)};
  }

  FeedForward ffn(const std::string& prefix, int d, int d_ff) {
    return {linear(prefix + ".fc1", d_ff, d), linear(prefix + ".fc2", d, d_ff)};
  }

  LayerNorm norm(const std::string& prefix, int d) { return {f32(prefix + ".weight", {d}), f32(prefix + ".bias", {d})}; }
};

}  // namespace

Result<Transformer> Transformer::create(const ModelFile& file) {
  Transformer t;
  t.cfg_ = file.config();
  const ModelConfig& c = t.cfg_;
  const int d = c.d_model;
  Binder b{file, {}};
  t.w_.embed = b.linear("embed", c.vocab_size, d, /*bias=*/false);
  for (int i = 0; i < c.encoder_layers; ++i) {
    const std::string p = "encoder_layers." + std::to_string(i);
    t.w_.encoder.push_back({b.attention(p + ".self_attn", d), b.ffn(p + ".ffn", d, c.d_ff), b.norm(p + ".sub1.norm", d),
                            b.norm(p + ".sub2.norm", d)});
  }
  for (int i = 0; i < c.decoder_layers; ++i) {
    const std::string p = "decoder_layers." + std::to_string(i);
    t.w_.decoder.push_back({b.attention(p + ".self_attn", d), b.attention(p + ".cross_attn", d),
                            b.ffn(p + ".ffn", d, c.d_ff), b.norm(p + ".sub1.norm", d), b.norm(p + ".sub2.norm", d),
                            b.norm(p + ".sub3.norm", d)});
  }
  if (c.pre_norm) {
    t.w_.encoder_norm = b.norm("encoder_norm", d);
    t.w_.decoder_norm = b.norm("decoder_norm", d);
  }
  if (!b.error.empty()) return Error{b.error};

  // Row sums of every int8 weight matrix, for the shifted scheme (a few ms for a 10 MB model).
  std::vector<Linear*> all{&t.w_.embed};
  for (EncoderLayer& l : t.w_.encoder)
    all.insert(all.end(), {&l.self_attn.q_proj, &l.self_attn.k_proj, &l.self_attn.v_proj, &l.self_attn.o_proj,
                           &l.ffn.fc1, &l.ffn.fc2});
  for (DecoderLayer& l : t.w_.decoder)
    all.insert(all.end(), {&l.self_attn.q_proj, &l.self_attn.k_proj, &l.self_attn.v_proj, &l.self_attn.o_proj,
                           &l.cross_attn.q_proj, &l.cross_attn.k_proj, &l.cross_attn.v_proj, &l.cross_attn.o_proj,
                           &l.ffn.fc1, &l.ffn.fc2});
  for (Linear* l : all) {
    if (!l->q) continue;
    t.row_sums_.emplace_back(size_t(l->out));
    kernels::row_sums_i8(l->q, l->out, l->in, t.row_sums_.back().data());
    l->sums = t.row_sums_.back().data();
  }

  // PE[p, 2i] = sin(p * exp(2i * -ln(10000)/d)), PE[p, 2i+1] = cos(...), in float32 like the reference.
  t.positions_.assign(size_t(c.max_length + 1) * d, 0.0f);
  const float step = float(-std::log(10000.0) / d);
  for (int p = 0; p <= c.max_length; ++p) {
    for (int i = 0; i < d; i += 2) {
      const float angle = float(p) * std::exp(float(i) * step);
      t.positions_[size_t(p) * d + i] = std::sin(angle);
      if (i + 1 < d) t.positions_[size_t(p) * d + i + 1] = std::cos(angle);
    }
  }
  return t;
}

void Transformer::linear(const Linear& l, const float* x, int rows, float* y, Workspace& ws,
                         profile::Category category) const {
  linears_impl({{&l, y}}, x, rows, ws, category);
}

void Transformer::linears(std::initializer_list<std::pair<const Linear*, float*>> layers, const float* x, int rows,
                          Workspace& ws) const {
  linears_impl(layers, x, rows, ws, profile::Category::gemm);
}

void Transformer::linears_impl(std::initializer_list<std::pair<const Linear*, float*>> layers, const float* x,
                               int rows, Workspace& ws, profile::Category category) const {
  bool quantized = false;  // ws.quantized holds x's rows
  // gemm_logits is the output projection (step()): the `mixed` scheme keeps it on 8 bits.
  const bool shifted =
      kernels::int8_scheme_for(category == profile::Category::gemm_logits) == kernels::Int8Scheme::shifted7;
  for (const auto& [l, y] : layers) {
    if (l->q) {
      if (!quantized) {
        NMT_PROFILE(quantize);
        if (ws.quantized.size() < size_t(rows) * l->in) ws.quantized.resize(size_t(rows) * l->in);
        ensure(ws.row_scales, rows);
        if (shifted) {
          if (ws.row_zeros.size() < size_t(rows)) ws.row_zeros.resize(size_t(rows));
          kernels::quantize_rows_u7(x, reinterpret_cast<uint8_t*>(ws.quantized.data()), ws.row_scales.data(),
                                    ws.row_zeros.data(), rows, l->in);
        } else {
          kernels::quantize_rows(x, ws.quantized.data(), ws.row_scales.data(), rows, l->in);
        }
        quantized = true;
      }
      profile::GemmScope timed(category, rows, l->out, l->in);
      if (shifted)
        kernels::gemm_u7i8_nt(reinterpret_cast<const uint8_t*>(ws.quantized.data()), ws.row_scales.data(),
                              ws.row_zeros.data(), l->q, l->scale, l->sums, l->bias, y, rows, l->out, l->in);
      else
        kernels::gemm_i8_nt_sums(ws.quantized.data(), ws.row_scales.data(), l->q, l->scale, l->sums, l->bias, y, rows,
                                 l->out, l->in);
    } else {
      profile::GemmScope timed(category, rows, l->out, l->in);
      kernels::gemm_f32_nt(x, l->in, l->w, l->in, l->bias, y, l->out, rows, l->out, l->in);
    }
  }
}

void Transformer::norm(const LayerNorm& n, const float* x, int rows, float* y) const {
  NMT_PROFILE(layer_norm);
  kernels::layer_norm_rows(x, n.gamma, n.beta, y, rows, cfg_.d_model, cfg_.norm_eps);
}

// x[r] = embed[token] * sqrt(d_model) + PE[position]
void Transformer::embed(const int* tokens, const int* positions, int rows, float* x) const {
  const int d = cfg_.d_model;
  const float root = std::sqrt(float(d));
  for (int r = 0; r < rows; ++r) {
    const int tok = tokens[r] >= 0 && tokens[r] < cfg_.vocab_size ? tokens[r] : cfg_.unk_id;
    const float* pe = &positions_[size_t(positions[r]) * d];
    float* out = x + size_t(r) * d;
    if (w_.embed.q) {
      const int8_t* q = w_.embed.q + size_t(tok) * d;
      const float s = w_.embed.scale[tok];
      for (int i = 0; i < d; ++i) out[i] = float(q[i]) * s * root + pe[i];
    } else {
      const float* w = w_.embed.w + size_t(tok) * d;
      for (int i = 0; i < d; ++i) out[i] = w[i] * root + pe[i];
    }
  }
}

void Transformer::feed_forward(const FeedForward& f, const float* x, int rows, float* y, Workspace& ws) const {
  ensure(ws.hidden, size_t(rows) * cfg_.d_ff);
  linear(f.fc1, x, rows, ws.hidden.data(), ws);
  kernels::relu(ws.hidden.data(), size_t(rows) * cfg_.d_ff);
  linear(f.fc2, ws.hidden.data(), rows, y, ws);
}

template <class F>
void Transformer::residual(const LayerNorm& n, float* x, int rows, Workspace& ws, F&& f) const {
  const size_t count = size_t(rows) * cfg_.d_model;
  ensure(ws.normed, count);
  ensure(ws.sublayer_out, count);
  if (cfg_.pre_norm) {  // x = x + f(LN(x))
    norm(n, x, rows, ws.normed.data());
    f(ws.normed.data(), ws.sublayer_out.data());
    kernels::add(x, ws.sublayer_out.data(), x, count);
  } else {  // x = LN(x + f(x))
    f(x, ws.sublayer_out.data());
    kernels::add(x, ws.sublayer_out.data(), ws.sublayer_out.data(), count);
    norm(n, ws.sublayer_out.data(), rows, x);
  }
}

EncoderOutput Transformer::encode(const std::vector<std::vector<int>>& sentences) const {
  const int d = cfg_.d_model, heads = cfg_.n_heads, hd = cfg_.head_dim();
  EncoderOutput e;
  std::vector<int> tokens, positions;
  for (const auto& s : sentences) {
    e.offsets.push_back(e.total_rows);
    e.lengths.push_back(int(s.size()));
    e.total_rows += int(s.size());
    e.max_length = std::max(e.max_length, int(s.size()));
    for (size_t i = 0; i < s.size(); ++i) {
      tokens.push_back(s[i]);
      positions.push_back(int(i));
    }
  }
  const int n = e.total_rows;
  std::vector<float> x(size_t(n) * d);
  embed(tokens.data(), positions.data(), n, x.data());
  Workspace ws;
  for (const EncoderLayer& layer : w_.encoder) {
    // self-attention: every token of a sentence attends to every token of the same sentence
    residual(layer.norm1, x.data(), n, ws, [&](const float* h, float* y) {
      const Attention& a = layer.self_attn;
      ensure(ws.q, size_t(n) * d);
      ensure(ws.k, size_t(n) * d);
      ensure(ws.v, size_t(n) * d);
      ensure(ws.context, size_t(n) * d);
      linears({{&a.q_proj, ws.q.data()}, {&a.k_proj, ws.k.data()}, {&a.v_proj, ws.v.data()}}, h, n, ws);
      ensure(ws.scores, size_t(e.max_length) * e.max_length);
      for (size_t s = 0; s < sentences.size(); ++s) {
        const size_t off = size_t(e.offsets[s]) * d;
        const int len = e.lengths[s];
        for (int hh = 0; hh < heads; ++hh)
          attend_head(&ws.q[off + hh * hd], d, &ws.k[off + hh * hd], &ws.v[off + hh * hd], d, len, len, hd,
                      ws.scores.data(), &ws.context[off + hh * hd], d);
      }
      linear(a.o_proj, ws.context.data(), n, y, ws);
    });
    residual(layer.norm2, x.data(), n, ws,
             [&](const float* h, float* y) { feed_forward(layer.ffn, h, n, y, ws); });
  }
  if (cfg_.pre_norm) norm(w_.encoder_norm, x.data(), n, x.data());

  // Cross-attention keys and values depend only on the encoder output: compute them once.
  for (const DecoderLayer& layer : w_.decoder) {
    e.cross_k.emplace_back(size_t(n) * d);
    e.cross_v.emplace_back(size_t(n) * d);
    linears({{&layer.cross_attn.k_proj, e.cross_k.back().data()}, {&layer.cross_attn.v_proj, e.cross_v.back().data()}},
            x.data(), n, ws);
  }
  e.memory = std::move(x);
  return e;
}

DecoderState Transformer::start(const EncoderOutput& enc, const std::vector<int>& row_sentence, int capacity,
                                int first_stride) const {
  DecoderState s;
  s.rows = int(row_sentence.size());
  s.capacity = std::min(capacity, cfg_.max_length + 1);
  s.stride = std::max(1, std::min(first_stride, s.capacity));
  s.sentence = row_sentence;
  const size_t per_layer = size_t(s.rows) * s.stride * cfg_.d_model;
  s.self_k.assign(cfg_.decoder_layers, std::vector<float>(per_layer));
  s.self_v.assign(cfg_.decoder_layers, std::vector<float>(per_layer));
  s.cross_weights.assign(cfg_.decoder_layers,
                         std::vector<float>(size_t(s.rows) * cfg_.n_heads * std::max(1, enc.max_length)));
  return s;
}

// Gives each row's self-attention cache room for more steps (a quarter more, at least 16, at
// most the capacity), copying the steps taken: a copy of what one reorder copies, every few steps.
// Allocated for the rows alive now (the beams of finished sentences are gone by then); the
// reordering buffer is let go, the next reorder allocates it at the new size.
static void grow_caches(DecoderState& st, int d) {
  const int stride = std::min(st.capacity, st.stride + std::max(16, st.stride / 4));
  const size_t used = size_t(st.steps) * d;
  for (auto* caches : {&st.self_k, &st.self_v}) {
    for (std::vector<float>& cache : *caches) {
      std::vector<float> grown(size_t(st.rows) * stride * d);
      for (int r = 0; r < st.rows; ++r)
        std::memcpy(&grown[size_t(r) * stride * d], &cache[size_t(r) * st.stride * d], sizeof(float) * used);
      cache.swap(grown);
    }
  }
  std::vector<float>().swap(st.spare);
  st.stride = stride;
}

void Transformer::step(const EncoderOutput& enc, DecoderState& st, const int* tokens, float* logits,
                       const OutputRows* output) const {
  const int d = cfg_.d_model, heads = cfg_.n_heads, hd = cfg_.head_dim();
  const int rows = st.rows, pos = st.steps, cap = st.capacity;
  if (rows == 0 || pos >= cap) return;
  if (pos >= st.stride) grow_caches(st, d);
  const int stride = st.stride;
  Workspace& ws = st.ws;
  ensure(ws.x, size_t(rows) * d);
  ws.positions.assign(rows, pos);
  float* x = ws.x.data();
  embed(tokens, ws.positions.data(), rows, x);
  ensure(ws.q, size_t(rows) * d);
  ensure(ws.k, size_t(rows) * d);
  ensure(ws.v, size_t(rows) * d);
  ensure(ws.context, size_t(rows) * d);
  ensure(ws.scores, size_t(std::max(cap, enc.max_length)));

  for (int l = 0; l < cfg_.decoder_layers; ++l) {
    const DecoderLayer& layer = w_.decoder[l];
    // masked self-attention: the cache holds positions 0..pos, so "masking" is attending only to them
    residual(layer.norm1, x, rows, ws, [&](const float* h, float* y) {
      const Attention& a = layer.self_attn;
      linears({{&a.q_proj, ws.q.data()}, {&a.k_proj, ws.k.data()}, {&a.v_proj, ws.v.data()}}, h, rows, ws);
      for (int r = 0; r < rows; ++r) {
        float* kc = &st.self_k[l][size_t(r) * stride * d];
        float* vc = &st.self_v[l][size_t(r) * stride * d];
        std::memcpy(kc + size_t(pos) * d, &ws.k[size_t(r) * d], sizeof(float) * d);
        std::memcpy(vc + size_t(pos) * d, &ws.v[size_t(r) * d], sizeof(float) * d);
        for (int hh = 0; hh < heads; ++hh)
          attend_head(&ws.q[size_t(r) * d + hh * hd], d, kc + hh * hd, vc + hh * hd, d, 1, pos + 1, hd,
                      ws.scores.data(), &ws.context[size_t(r) * d + hh * hd], d);
      }
      linear(a.o_proj, ws.context.data(), rows, y, ws);
    });
    // cross-attention over the row's sentence; its weights are kept for the alignments
    residual(layer.norm2, x, rows, ws, [&](const float* h, float* y) {
      const Attention& a = layer.cross_attn;
      linear(a.q_proj, h, rows, ws.q.data(), ws);
      for (int r = 0; r < rows; ++r) {
        const int s = st.sentence[r];
        const size_t off = size_t(enc.offsets[s]) * d;
        const int len = enc.lengths[s];
        for (int hh = 0; hh < heads; ++hh) {
          attend_head(&ws.q[size_t(r) * d + hh * hd], d, &enc.cross_k[l][off + hh * hd], &enc.cross_v[l][off + hh * hd],
                      d, 1, len, hd, ws.scores.data(), &ws.context[size_t(r) * d + hh * hd], d);
          float* keep = &st.cross_weights[l][(size_t(r) * heads + hh) * enc.max_length];
          std::memcpy(keep, ws.scores.data(), sizeof(float) * len);
          std::fill(keep + len, keep + enc.max_length, 0.0f);
        }
      }
      linear(a.o_proj, ws.context.data(), rows, y, ws);
    });
    residual(layer.norm3, x, rows, ws,
             [&](const float* h, float* y) { feed_forward(layer.ffn, h, rows, y, ws); });
  }
  if (cfg_.pre_norm) norm(w_.decoder_norm, x, rows, x);
  if (!output) {
    linear(w_.embed, x, rows, logits, ws, profile::Category::gemm_logits);  // tied output projection
  } else {
    const int n = int(output->ids.size());
    ensure(ws.short_logits, size_t(rows) * n);
    linear(output->linear, x, rows, ws.short_logits.data(), ws, profile::Category::gemm_logits);
    NMT_PROFILE(other);
    for (int r = 0; r < rows; ++r) {
      float* row = logits + size_t(r) * cfg_.vocab_size;
      std::fill(row, row + cfg_.vocab_size, -INFINITY);
      const float* computed = &ws.short_logits[size_t(r) * n];
      for (int i = 0; i < n; ++i) row[output->ids[size_t(i)]] = computed[i];
    }
  }
  st.steps++;
}

OutputRows Transformer::output_rows(const std::vector<int>& ids) const {
  const int d = cfg_.d_model, n = int(ids.size());
  OutputRows o;
  o.ids = ids;
  o.linear.out = n;
  o.linear.in = d;
  if (w_.embed.q) {
    o.q.resize(size_t(n) * d);
    o.scale.resize(size_t(n));
    o.sums.resize(size_t(n));
    for (int i = 0; i < n; ++i) {
      std::memcpy(&o.q[size_t(i) * d], w_.embed.q + size_t(ids[size_t(i)]) * d, size_t(d));
      o.scale[size_t(i)] = w_.embed.scale[ids[size_t(i)]];
      o.sums[size_t(i)] = w_.embed.sums[ids[size_t(i)]];
    }
    o.linear.q = o.q.data();
    o.linear.scale = o.scale.data();
    o.linear.sums = o.sums.data();
  } else {
    o.w.resize(size_t(n) * d);
    for (int i = 0; i < n; ++i)
      std::memcpy(&o.w[size_t(i) * d], w_.embed.w + size_t(ids[size_t(i)]) * d, sizeof(float) * d);
    o.linear.w = o.w.data();
  }
  return o;
}

void Transformer::select_rows(DecoderState& st, const std::vector<int>& parents) const {
  NMT_PROFILE(reorder);
  const int d = cfg_.d_model, stride = st.stride, new_rows = int(parents.size());
  // Every row kept in place (greedy, until a sentence of the batch ends): nothing to copy. Without
  // this a greedy step copied each row's whole cache onto itself (~0.2 ms of a 13 ms sentence).
  bool identity = new_rows == st.rows;
  for (int r = 0; identity && r < new_rows; ++r) identity = parents[r] == r;
  if (identity) return;
  const size_t used = size_t(st.steps) * d;  // only the filled part of each row's cache is copied
  for (int l = 0; l < cfg_.decoder_layers; ++l) {
    for (auto* cache : {&st.self_k[l], &st.self_v[l]}) {
      // gather into the spare buffer, then swap: no allocation until the rows or the stride grow
      ensure(st.spare, size_t(new_rows) * stride * d);
      for (int r = 0; r < new_rows; ++r)
        std::memcpy(&st.spare[size_t(r) * stride * d], &(*cache)[size_t(parents[r]) * stride * d], sizeof(float) * used);
      cache->swap(st.spare);
    }
    std::vector<float>& cw = st.cross_weights[l];
    const size_t per_row = cw.size() / std::max(1, st.rows);
    st.spare_weights.resize(size_t(new_rows) * per_row);  // (its size is cw's size from here on)
    for (int r = 0; r < new_rows; ++r)
      std::memcpy(&st.spare_weights[size_t(r) * per_row], &cw[size_t(parents[r]) * per_row], sizeof(float) * per_row);
    cw.swap(st.spare_weights);
  }
  std::vector<int> sentence(new_rows);
  for (int r = 0; r < new_rows; ++r) sentence[r] = st.sentence[parents[r]];
  st.sentence.swap(sentence);
  st.rows = new_rows;
}

}  // namespace nmt
