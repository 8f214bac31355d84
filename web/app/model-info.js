/**
 * "About the models" (#model-info): adds each loaded model's facts to its list (#model-dl) in
 * plain words: size and shape of the Transformer, how it was trained, and for "Best" search which
 * model of the other direction checks the candidates. The fixed text around it is in index.html.
 */
import { el, text, formatBytes } from './dom.js';
import { langName, fromOf, toOf } from './state.js';

export function showModelInfo(dir, info) {
  if (!info) return;
  const add = (k, v) => {
    el.modelDl.append(text(document.createElement('dt'), k), text(document.createElement('dd'), v));
  };
  const c = info.config || {};
  if (info.reverse) {
    add('Reranking', `${langName(toOf(dir))} → ${langName(fromOf(dir))} model (${formatBytes(info.reverse.bytes)}) checks the ${langName(fromOf(dir))} → ${langName(toOf(dir))} beam's candidates`);
    return;
  }
  add(`${langName(fromOf(dir))} → ${langName(toOf(dir))}`,
    `${formatBytes(info.file_bytes)}, int8 · Transformer: ${c.encoder_layers} encoder and ${c.decoder_layers} decoder layers, ` +
    `width ${c.d_model}, ${c.n_heads} attention heads, ${c.vocab_size} word pieces shared by both languages`);
  const train = (info.provenance || {}).train || {};
  if (train.seconds) {
    const hours = (train.seconds / 3600).toFixed(0);
    const tokens = train.target_tokens ? `, ${(train.target_tokens / 1e6).toFixed(0)} million target word pieces seen` : '';
    add('Training', `trained by this project on a 2-core CPU: ${train.rounds || 1} rounds, about ${hours} hours` +
      `${train.epochs ? `, ${train.epochs.toFixed(1)} passes over the data` : ''}${tokens}`);
  }
}
