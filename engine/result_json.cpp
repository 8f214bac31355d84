// The translation as JSON (to_json, translator.h): the format the WASM module and `nmt --alignments`
// return (engine/README.md). Offsets are UTF-16 code units, as JavaScript strings index; numbers
// are rounded so a long document's result stays small.
#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "result_json.h"
#include "text/utf8.h"
#include "translator.h"

namespace nmt {

namespace {

using nlohmann::json;

// [begin, end) in bytes -> [begin, end) in UTF-16 units.
json range_json(const Utf16Offsets& map, size_t b, size_t e) { return json::array({map(b), map(e)}); }

// [{piece, range}], ranges in UTF-16 units within the sentence.
json tokens_json(const std::vector<TokenSpan>& toks, const Utf16Offsets& map) {
  json a = json::array();
  for (const TokenSpan& k : toks) a.push_back({{"piece", k.piece}, {"range", {map(k.begin), map(k.end)}}});
  return a;
}

// Probabilities rounded to 4 decimals (0.0001 at least, so none reads as impossible).
json probs_json(const std::vector<float>& p) {
  json a = json::array();
  for (float x : p) a.push_back(std::max(1e-4, std::round(double(x) * 1e4) / 1e4));
  return a;
}

// Attention weights at 5 decimals: ~3x less JSON than float's full precision (a 255-token chunk's
// matrices were ~12 MiB), and a row of 255 still sums to 1 within ~1e-4.
double rounded_weight(float x) { return std::round(double(x) * 1e5) / 1e5; }

std::vector<double> row_json(const float* p, size_t n) {
  std::vector<double> row(n);
  for (size_t i = 0; i < n; ++i) row[i] = rounded_weight(p[i]);
  return row;
}

// A row-major [rows, cols] matrix as an array of rows.
json matrix_json(const float* m, size_t rows, size_t cols) {
  json a = json::array();
  for (size_t r = 0; r < rows; ++r) a.push_back(row_json(m + r * cols, cols));
  return a;
}

// Every head's attention, stored per target token as [layers, heads, cols]; returned as
// [layer][head][row][col].
json heads_json(const SentenceTranslation& s, int decoder_layers, int n_heads) {
  const size_t rows = s.target_tokens.size(), cols = s.source_tokens.size();
  const size_t per_token = size_t(decoder_layers) * n_heads * cols;
  json layers = json::array();
  for (int l = 0; l < decoder_layers; ++l) {
    json heads = json::array();
    for (int hh = 0; hh < n_heads; ++hh) {
      json m = json::array();
      for (size_t r = 0; r < rows; ++r) {
        const float* p = &s.heads[r * per_token + (size_t(l) * n_heads + hh) * cols];
        m.push_back(row_json(p, cols));
      }
      heads.push_back(std::move(m));
    }
    layers.push_back(std::move(heads));
  }
  return layers;
}

// A copied sentence's attention: each target token on the source token it copies.
bool attention_is_identity(const SentenceTranslation& s) {
  const size_t n = s.source_tokens.size();
  if (s.target_tokens.size() != n || s.attention.size() != n * n) return false;
  for (size_t r = 0; r < n; ++r)
    for (size_t c = 0; c < n; ++c)
      if (s.attention[r * n + c] != (r == c ? 1.0f : 0.0f)) return false;
  return true;
}

// The word attention as written is 0 but at the word links, where it is each link's weight.
bool word_attention_is_links(const WordAlignment& w) {
  const size_t nsw = w.source_words.size();
  std::vector<bool> linked(w.matrix.size(), false);
  for (auto [t, s] : w.links) {
    const size_t at = size_t(t) * nsw + size_t(s);
    if (t < 0 || s < 0 || size_t(s) >= nsw || at >= linked.size()) return false;
    linked[at] = true;
  }
  for (size_t k = 0; k < w.matrix.size(); ++k)
    if (!linked[k] && rounded_weight(w.matrix[k]) != 0.0) return false;
  return true;
}

// The word alignment: source_words, target_words, word_attention, word_alignments. A copied
// sentence's word attention, 0 but at its links, is left out (word_attention_from_links): its
// words x words zeros were most of a long copied text's JSON.
void add_words_json(const WordAlignment& w, const Utf16Offsets& ss, const Utf16Offsets& ts, bool copied, json& j) {
  json sw = json::array(), tw = json::array();
  for (const Span& x : w.source_words) sw.push_back({ss(x.begin), ss(x.end)});
  for (const Span& x : w.target_words) tw.push_back({ts(x.begin), ts(x.end)});
  j["source_words"] = std::move(sw);
  j["target_words"] = std::move(tw);
  const size_t nsw = w.source_words.size(), ntw = w.target_words.size();
  if (copied && w.matrix.size() == ntw * nsw && word_attention_is_links(w)) j["word_attention_from_links"] = true;
  else j["word_attention"] = matrix_json(w.matrix.data(), ntw, nsw);
  json links = json::array();
  for (auto [tw_i, sw_i] : w.links) links.push_back({tw_i, sw_i, nsw ? rounded_weight(w.matrix[size_t(tw_i) * nsw + sw_i]) : 0.0});
  j["word_alignments"] = std::move(links);
}

// One sentence: texts, ranges (`target_range` in UTF-16 units of the translation), score and token
// probabilities; with options.alignments its tokens, attention (and heads) and word alignment,
// offsets within the sentence.
json sentence_json(const SentenceTranslation& s, const Translation& t, const Utf16Offsets& src16,
                   const json& target_range, const TranslateOptions& options) {
  json j;
  j["source"] = s.source;
  j["target"] = s.target;
  j["source_range"] = range_json(src16, s.source_begin, s.source_end);
  j["target_range"] = target_range;
  j["score"] = s.score;
  j["token_probs"] = probs_json(s.token_probs);
  if (s.copied) j["copied"] = true;
  if (s.from_memory) j["memory"] = true;
  if (!s.passes.empty()) j["passes"] = s.passes;
  if (!options.alignments) return j;
  const Utf16Offsets ss(s.source), ts(s.target);
  j["source_tokens"] = tokens_json(s.source_tokens, ss);
  j["target_tokens"] = tokens_json(s.target_tokens, ts);
  const size_t limit = size_t(options.attention_limit);
  if (limit == 0 || (s.source_tokens.size() <= limit && s.target_tokens.size() <= limit)) {
    // a copied sentence's tokens x tokens identity is left out (identity_attention): most of a long
    // copied text's JSON; kept with all_heads (the page's heatmap asks for one sentence's heads)
    if (s.copied && !options.all_heads && attention_is_identity(s)) {
      j["identity_attention"] = true;
    } else {
      j["attention"] = matrix_json(s.attention.data(), s.target_tokens.size(), s.source_tokens.size());
      if (options.all_heads && !s.heads.empty()) j["heads"] = heads_json(s, t.decoder_layers, t.n_heads);
    }
  }
  add_words_json(s.words, ss, ts, s.copied, j);
  j["target_word_probs"] = probs_json(s.target_word_probs);
  return j;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::string to_json(const std::vector<Alternative>& alternatives) {
  json list = json::array();
  for (const Alternative& a : alternatives)
    list.push_back({{"word", a.word},
                    {"probability", std::max(1e-4, std::round(double(a.probability) * 1e4) / 1e4)},
                    {"continuation", a.continuation}});
  return json{{"alternatives", std::move(list)}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Written a sentence at a time, in the key order one dump of the whole object has (keys sorted):
// a long text's tree of every sentence's numbers took several times the string it became.
ResultJsonWriter::ResultJsonWriter(const TranslateOptions& options, std::string& out) : options_(options), out_(out) {
  out_ += "{\"sentences\":[";
}

ResultJsonWriter::~ResultJsonWriter() = default;

size_t ResultJsonWriter::target_units(const std::string& text, size_t at) {
  const auto continuation = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
  for (; counted_bytes_ < std::min(at, text.size()); ++counted_bytes_) {
    const auto b = static_cast<unsigned char>(text[counted_bytes_]);
    if (continuation(text[counted_bytes_])) continue;
    char_start_units_ = counted_units_;
    counted_units_ += b >= 0xF0 && b <= 0xF4 ? 2 : 1;  // (Utf16Offsets' count: per lead byte)
  }
  // inside a character: the units before it (text written later starts a character of its own)
  return at < text.size() && continuation(text[at]) ? char_start_units_ : counted_units_;
}

void ResultJsonWriter::add(const SentenceTranslation& sentence, const Translation& so_far) {
  if (!source16_) source16_ = std::make_unique<Utf16Offsets>(so_far.source_text);
  if (sentences_++) out_ += ',';
  const size_t begin = target_units(so_far.text, sentence.target_begin);
  const json target_range = json::array({begin, target_units(so_far.text, sentence.target_end)});
  out_ += dump(sentence_json(sentence, so_far, *source16_, target_range, options_));
}

void ResultJsonWriter::finish(const Translation& t) {
  out_ += "],\"source_text\":" + dump(t.source_text);
  out_ += ",\"stats\":" + dump({{"source_tokens", t.source_tokens},
                                 {"target_tokens", t.target_tokens},
                                 {"ms", {{"total", t.ms_total}, {"encode", t.ms_encode}, {"decode", t.ms_decode}}}});
  out_ += ",\"text\":" + dump(t.text) + "}";
}

std::string to_json(const Translation& t, const TranslateOptions& options) {
  std::string out;
  ResultJsonWriter writer(options, out);
  for (const SentenceTranslation& s : t.sentences) writer.add(s, t);
  writer.finish(t);
  return out;
}

}  // namespace nmt
