/**
 * Greedy and beam search over the ONNX export of a model (weights/recipe/export_onnx.py), on ONNX
 * Runtime: the same loop in Node (onnxruntime-node) and in the browser (onnxruntime-web). The caller
 * passes the `ort` module, so this file imports nothing and runs in both.
 *
 * The rules are the engine's (engine/search/beam_search.cpp, weights/recipe/model.py's greedy() and
 * beam_search()): source = pieces + eos, at most max_length; target length limit
 * min(max_length, floor(source length * 1.5) + 10); beam keeps, per step, the 2*beam best
 * (hypothesis, token) extensions, finishes those ending in eos or at the limit with score
 * log_prob / ((5 + length) / 6)^0.6 + 0.1 * sum_j log(min(coverage_j, 1)), and stops when `beam` have
 * finished and no alive one can still beat the best.
 */

/**
 * The K best (value, row * V + token) of logProbs[row][token] + parent[row], best first, into
 * values/index (length K). Returns how many were filled. (The log-softmax itself runs in the graph,
 * on ONNX Runtime's kernels.)
 */
export function topK(logProbs, rows, V, parent, values, index) {
  const K = values.length;
  let filled = 0;
  for (let row = 0; row < rows; row++) {
    const base = row * V;
    const shift = parent[row];
    let threshold = filled === K ? values[K - 1] - shift : -Infinity;
    for (let v = 0; v < V; v++) {
      const x = logProbs[base + v];
      if (x <= threshold) continue;
      const value = x + shift;
      let j = filled < K ? filled++ : K - 1;
      while (j > 0 && values[j - 1] < value) {
        values[j] = values[j - 1];
        index[j] = index[j - 1];
        j--;
      }
      values[j] = value;
      index[j] = base + v;
      if (filled === K) threshold = values[K - 1] - shift;
    }
  }
  return filled;
}

export class OrtTranslator {
  /**
   * @param ort       onnxruntime-node or onnxruntime-web
   * @param info      build/onnx/<dir>/model.json (config, alignment layer, pieces)
   * @param encoder   an ort.InferenceSession of encoder.onnx
   * @param decoder   an ort.InferenceSession of decoder.onnx
   */
  constructor(ort, info, encoder, decoder) {
    this.ort = ort;
    this.info = info;
    this.cfg = info.config;
    this.encoder = encoder;
    this.decoder = decoder;
    this.heads = this.cfg.n_heads;
    this.headDim = this.cfg.d_model / this.cfg.n_heads;
    this.layers = this.cfg.decoder_layers;
  }

  static async create(ort, info, encoderBytesOrPath, decoderBytesOrPath, options = {}) {
    const opts = { executionProviders: options.executionProviders || ['cpu'], graphOptimizationLevel: 'all',
      intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', ...(options.session || {}) };
    const encoder = await ort.InferenceSession.create(encoderBytesOrPath, opts);
    const decoder = await ort.InferenceSession.create(decoderBytesOrPath, opts);
    return new OrtTranslator(ort, info, encoder, decoder);
  }

  /** Piece ids (no eos) -> the model's input: + eos, cut to max_length. */
  source(ids) {
    const src = ids.slice(0, this.cfg.max_length - 1);
    src.push(this.cfg.eos_id);
    return src;
  }

  limit(n) {
    return Math.max(1, Math.min(Math.floor(n * 1.5) + 10, this.cfg.max_length));
  }

  async encode(src) {
    const { ort } = this;
    const ids = new ort.Tensor('int64', BigInt64Array.from(src, BigInt), [1, src.length]);
    const out = await this.encoder.run({ src_ids: ids });
    const cross = [];
    for (let i = 0; i < this.layers; i++) cross.push([out[`cross_k.${i}`], out[`cross_v.${i}`]]);
    return { bias: out.src_bias, cross, n: src.length };
  }

  /** Repeats a [1, ...] tensor `rows` times along the batch axis. */
  tile(t, rows) {
    if (rows === 1) return t;
    const data = new Float32Array(t.data.length * rows);
    for (let r = 0; r < rows; r++) data.set(t.data, r * t.data.length);
    return new this.ort.Tensor('float32', data, [rows, ...t.dims.slice(1)]);
  }

  emptyCache(rows) {
    const cache = [];
    const dims = [rows, this.heads, 0, this.headDim];
    for (let i = 0; i < this.layers; i++) {
      cache.push([new this.ort.Tensor('float32', new Float32Array(0), dims), new this.ort.Tensor('float32', new Float32Array(0), dims)]);
    }
    return cache;
  }

  async step(memory, tokens, position, cache, rows) {
    const { ort } = this;
    const feeds = {
      tokens: new ort.Tensor('int64', BigInt64Array.from(tokens, BigInt), [tokens.length, 1]),
      position: new ort.Tensor('int64', BigInt64Array.from([BigInt(position)]), [1]),
      src_bias: rows.bias,
    };
    for (let i = 0; i < this.layers; i++) {
      feeds[`cross_k.${i}`] = rows.cross[i][0];
      feeds[`cross_v.${i}`] = rows.cross[i][1];
      feeds[`past_k.${i}`] = cache[i][0];
      feeds[`past_v.${i}`] = cache[i][1];
    }
    const out = await this.decoder.run(feeds);
    const next = [];
    for (let i = 0; i < this.layers; i++) next.push([out[`present_k.${i}`], out[`present_v.${i}`]]);
    return { logits: out.logits.data, logProbs: out.log_probs.data, attention: out.attention.data, cache: next };
  }

  /** memory's bias and cross keys/values repeated for `rows` hypotheses (kept per row count). */
  rowsOf(memory, rows) {
    memory.tiled = memory.tiled || new Map();
    if (!memory.tiled.has(rows)) {
      memory.tiled.set(rows, { bias: this.tile(memory.bias, rows), cross: memory.cross.map(([k, v]) => [this.tile(k, rows), this.tile(v, rows)]) });
    }
    return memory.tiled.get(rows);
  }

  /** Greedy decoding of one sentence: piece ids in, target ids out (no bos/eos). */
  async greedy(ids) {
    const src = this.source(ids);
    const memory = await this.encode(src);
    const limit = this.limit(src.length);
    const V = this.cfg.vocab_size;
    const out = [];
    let cache = this.emptyCache(1);
    let token = this.cfg.bos_id;
    for (let step = 0; step < limit; step++) {
      const r = await this.step(memory, [token], step, cache, this.rowsOf(memory, 1));
      cache = r.cache;
      let best = 0;
      for (let v = 1; v < V; v++) if (r.logits[v] > r.logits[best]) best = v;
      if (best === this.cfg.eos_id) break;
      out.push(best);
      token = best;
    }
    return out;
  }

  /** Gathers batch rows `rows` of a [R, H, T, hd] cache tensor. */
  select(t, rows) {
    const per = t.data.length / t.dims[0];
    const data = new Float32Array(per * rows.length);
    rows.forEach((r, i) => data.set(t.data.subarray(r * per, (r + 1) * per), i * per));
    return new this.ort.Tensor('float32', data, [rows.length, ...t.dims.slice(1)]);
  }

  /** Beam search of one sentence (the engine's rules, see the top of this file). */
  async beamSearch(ids, beam = 4, alpha = 0.6, beta = 0.1) {
    const src = this.source(ids);
    const n = src.length;
    const memory = await this.encode(src);
    const limit = this.limit(n);
    const V = this.cfg.vocab_size;
    const K = 2 * beam + 1;
    const lengthPenalty = (len) => (alpha === 0 ? 1 : ((5 + len) / 6) ** alpha);
    const coveragePenalty = (c) => {
      let s = 0;
      for (let j = 0; j < c.length; j++) s += Math.log(Math.min(Math.max(c[j], 1e-6), 1));
      return beta * s;
    };
    let alive = [{ tokens: [], logProb: 0, coverage: new Float32Array(n) }];
    let cache = this.emptyCache(1);
    let inputs = [this.cfg.bos_id];
    const finished = [];
    const topValues = new Float64Array(K);
    const topIndex = new Int32Array(K);
    while (alive.length) {
      const rows = alive.length;
      const r = await this.step(memory, inputs, alive[0].tokens.length, cache, this.rowsOf(memory, rows));
      // top K of log_softmax(logits[row]) + the row's log-prob, over all rows and tokens
      const filled = topK(r.logProbs, rows, V, alive.map((h) => h.logProb), topValues, topIndex);
      const survivors = [];
      const parents = [];
      for (let k = 0; k < filled; k++) {
        if (survivors.length >= beam || k === 2 * beam) break;
        const row = Math.floor(topIndex[k] / V);
        const token = topIndex[k] % V;
        const value = Math.fround(topValues[k]);
        let coverage = null;
        if (beta !== 0) {
          coverage = new Float32Array(n);
          const a = r.attention.subarray(row * n, (row + 1) * n);
          for (let j = 0; j < n; j++) coverage[j] = alive[row].coverage[j] + a[j];
        }
        const hyp = { tokens: [...alive[row].tokens, token], logProb: value, coverage };
        if (token === this.cfg.eos_id || hyp.tokens.length >= limit) {
          hyp.score = value / lengthPenalty(hyp.tokens.length) + (beta !== 0 ? coveragePenalty(coverage) : 0);
          finished.push(hyp);
        } else {
          survivors.push(hyp);
          parents.push(row);
        }
      }
      let next = survivors;
      if (finished.length >= beam) {
        const best = Math.max(...finished.map((h) => h.score));
        if (survivors.every((h) => h.logProb / lengthPenalty(limit) <= best)) next = [];
      }
      if (!next.length) break;
      const same = parents.length === rows && parents.every((p, i) => p === i);
      cache = same ? r.cache : r.cache.map(([k, v]) => [this.select(k, parents), this.select(v, parents)]);
      inputs = next.map((h) => h.tokens[h.tokens.length - 1]);
      alive = next;
    }
    finished.sort((a, b) => b.score - a.score);
    const tokens = finished[0].tokens;
    return tokens[tokens.length - 1] === this.cfg.eos_id ? tokens.slice(0, -1) : tokens;
  }

  translateIds(ids, beam = 1) {
    return beam > 1 ? this.beamSearch(ids, beam) : this.greedy(ids);
  }

  /** Target ids -> text, as SentencePiece decodes (control pieces dropped, unknown as ⁇). */
  detokenize(ids) {
    const { pieces, piece_types: types } = this.info;
    let s = '';
    for (const id of ids) {
      if (types[id] === 3) continue;
      s += types[id] === 2 ? ' ⁇ ' : pieces[id];
    }
    return s.replace(/\u2581/g, ' ').trim();
  }
}
