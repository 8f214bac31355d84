// Alternatives (see alternatives.h): the next piece's distribution after the prefix, its most
// probable pieces expanded into words and sentences by one batched greedy search, merged by word.
#include "search/alternatives.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "kernels/kernels.h"
#include "text/utf8.h"

namespace nmt {
namespace {

const std::string kSpace = "\xE2\x96\x81";  // "▁"

// log p(next token | source, the prefix's forced tokens) for sentence 0 of `enc`; the tokens the
// prefix does not allow next get -inf.
std::vector<float> next_token_log_probs(const Transformer& model, const EncoderOutput& enc, const ForcedTokens& forced) {
  const ModelConfig& c = model.config();
  DecoderState st = model.start(enc, {0}, int(forced.tokens.size()) + 1);
  std::vector<float> logits(size_t(c.vocab_size));
  int input = c.bos_id;
  for (size_t i = 0;; ++i) {
    model.step(enc, st, &input, logits.data());
    if (i == forced.tokens.size()) break;
    input = forced.tokens[i];
  }
  float lse = 0.0f;
  kernels::logsumexp_rows(logits.data(), 1, c.vocab_size, &lse);
  std::vector<float> out(logits.size(), -INFINITY);
  if (forced.spelled >= int(forced.heal.size())) {
    for (size_t v = 0; v < logits.size(); ++v) out[v] = logits[v] - lse;
  } else {
    for (const HealStep& h : forced.heal[size_t(forced.spelled)]) out[size_t(h.id)] = logits[size_t(h.id)] - lse;
  }
  return out;
}

// The `n` most probable tokens that can start a word (not a control or unknown token), best first
// (ties: lowest id, as greedy's argmax).
std::vector<int> top_tokens(const std::vector<float>& log_probs, size_t n, const SentencePiece& tokenizer) {
  std::vector<int> ids;
  for (int v = 0; v < int(log_probs.size()); ++v) {
    const bool special = v == tokenizer.unk_id() || v == tokenizer.bos_id() || v == tokenizer.eos_id() || v == tokenizer.pad_id();
    if (!special && log_probs[size_t(v)] > -INFINITY) ids.push_back(v);
  }
  n = std::min(n, ids.size());
  std::partial_sort(ids.begin(), ids.begin() + long(n), ids.end(), [&](int a, int b) {
    return log_probs[size_t(a)] != log_probs[size_t(b)] ? log_probs[size_t(a)] > log_probs[size_t(b)] : a < b;
  });
  ids.resize(n);
  return ids;
}

// Sentence 0 of `enc` as `n` sentences: every one reads the same encoder rows.
EncoderOutput repeat_sentence(const EncoderOutput& enc, size_t n) {
  EncoderOutput out = enc;
  out.offsets.assign(n, enc.offsets[0]);
  out.lengths.assign(n, enc.lengths[0]);
  out.max_length = enc.lengths[0];
  return out;
}

bool word_char(char32_t cp) { return is_letter(cp) || is_digit(cp) || is_mark(cp); }

bool has_word_char(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    const Decoded d = decode_at(text, at);
    if (word_char(d.cp)) return true;
    at += d.length;
  }
  return false;
}

// The index of the first token after the word that starts at tokens[first]: the next piece that
// starts a word, eos, or punctuation after letters or digits (apostrophes and hyphens stay inside;
// so does an unknown piece right after letters: "Ky" <unk> "to" is one word, "Kyoto").
size_t word_end(const SentencePiece& tokenizer, const std::vector<int>& tokens, size_t first) {
  bool letters = has_word_char(tokenizer.id_to_piece(tokens[first]));
  for (size_t i = first + 1; i < tokens.size(); ++i) {
    const std::string& piece = tokenizer.id_to_piece(tokens[i]);
    if (tokens[i] == tokenizer.eos_id() || piece.compare(0, kSpace.size(), kSpace) == 0) return i;
    if (tokens[i] == tokenizer.unk_id() && letters) continue;
    const char32_t cp = decode_at(piece, 0).cp;
    if (letters && !word_char(cp) && cp != U'\'' && cp != U'-' && cp != U'\u2019') return i;
    letters = letters || has_word_char(piece);
  }
  return tokens.size();
}

// One expanded candidate: its word, its probability and the rest of its sentence.
Alternative describe(const Hypothesis& h, size_t at, const TargetPrefix& prefix, const SentencePiece& tokenizer) {
  const size_t end = word_end(tokenizer, h.tokens, at);
  float log_prob = 0.0f;
  for (size_t i = at; i < end; ++i) log_prob += h.token_log_probs[i];
  std::vector<int> ids;
  for (int id : h.tokens)
    if (id != tokenizer.eos_id()) ids.push_back(id);
  std::vector<std::pair<size_t, size_t>> spans;
  const std::string text = prefixed_decode(prefix, tokenizer, ids, &spans);
  const size_t from = prefix.text.size();
  const size_t to = std::max(from, end < ids.size() ? spans[end].first : text.size());
  return {text.substr(from, to - from), std::exp(log_prob), text.substr(to)};
}

}  // namespace

std::vector<Alternative> next_words(const Transformer& model, const SentencePiece& tokenizer, const EncoderOutput& enc,
                                    const TargetPrefix& prefix, int count, const SearchOptions& options,
                                    const std::function<void(Alternative&)>& rewrite) {
  if (count < 1 || enc.lengths.empty()) return {};
  // A few more pieces than words asked for: several pieces can spell the same word.
  const std::vector<int> first = top_tokens(next_token_log_probs(model, enc, prefix.forced),
                                            size_t(std::max(2 * count, count + 5)), tokenizer);
  SearchOptions greedy = options;
  greedy.beam_size = 1;
  greedy.sample_top_k = 0;  // the model's own choices, never sampled
  greedy.keep_attention = greedy.keep_all_heads = false;
  greedy.forced.clear();
  for (int token : first) {
    ForcedTokens f = prefix.forced;  // the prefix, the word's first piece, and the rest of the heal if any
    f.tokens.push_back(token);
    f.spelled = spelled_after(f, f.spelled, token);
    greedy.forced.push_back(std::move(f));
  }
  const std::vector<Hypothesis> hyps = search(model, repeat_sentence(enc, first.size()), greedy);

  std::vector<Alternative> words;
  int chosen = -1;  // the model's own choice: the expansion of the most probable piece
  for (size_t k = 0; k < hyps.size(); ++k) {
    Alternative a = describe(hyps[k], prefix.forced.tokens.size(), prefix, tokenizer);
    if (rewrite) rewrite(a);
    if (a.word.find_first_not_of(' ') == std::string::npos) continue;  // nothing but the prefix's own word
    auto same = std::find_if(words.begin(), words.end(), [&](const Alternative& w) { return w.word == a.word; });
    if (same != words.end()) {
      same->probability += a.probability;  // another spelling of the same word
    } else {
      words.push_back(std::move(a));
      same = words.end() - 1;
    }
    if (k == 0) chosen = int(same - words.begin());
  }
  const std::string chosen_word = chosen >= 0 ? words[size_t(chosen)].word : "";
  std::stable_sort(words.begin(), words.end(),
                   [](const Alternative& a, const Alternative& b) { return a.probability > b.probability; });
  if (words.size() > size_t(count)) {
    // Keep the model's choice: it is less probable than all the others kept, so it goes last.
    auto it = std::find_if(words.begin(), words.end(), [&](const Alternative& w) { return w.word == chosen_word; });
    if (chosen >= 0 && it - words.begin() >= count) std::rotate(words.begin() + (count - 1), it, it + 1);
    words.resize(size_t(count));
  }
  return words;
}

}  // namespace nmt
