// Word finding and token-to-word alignment (see word_alignment.h). find_words is one forward pass
// with a small amount of look-ahead (one character after an apostrophe, hyphen or decimal point;
// the parts of an emoji sequence). align_words maps each token to a word by span overlap (binary
// search over the sorted words), pools the attention into a word matrix and normalizes its rows.
#include "text/word_alignment.h"

#include <algorithm>
#include <cmath>

#include "text/casing.h"
#include "text/format_characters.h"
#include "text/utf8.h"

namespace nmt {

namespace {


constexpr char32_t kZwnj = 0x200C, kZwj = 0x200D;

// Invisible format characters that belong to no word (zero-width space, BOM, bidi controls).
bool is_ignorable(char32_t cp) {
  return cp == 0x200B || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF;
}

// The styled letters and digits of "𝐛𝐨𝐥𝐝" or "𝔉𝔯𝔞𝔨𝔱𝔲𝔯" text (Mathematical Alphanumeric Symbols).
bool is_styled_alphanumeric(char32_t cp) { return cp >= 0x1D400 && cp <= 0x1D7FF; }

bool is_word_char(char32_t cp) { return is_letter(cp) || is_digit(cp) || is_mark(cp) || is_styled_alphanumeric(cp); }

// Kept inside a word when a word character follows: don't, Kaiser-Wilhelm, צה״ל.
bool is_inner_joiner(char32_t cp) {
  return cp == '\'' || cp == 0x2019 /* ’ */ || cp == '-' || cp == 0x2010 || cp == 0x2011 ||
         cp == 0x05BE /* maqaf */ || cp == 0x05F3 || cp == 0x05F4 /* geresh, gershayim */;
}

// Kept inside a word unconditionally: joiners of Persian/Indic spelling, soft hyphen.
bool is_silent_in_word(char32_t cp) { return cp == kZwnj || cp == kZwj || cp == 0xAD; }

bool is_regional_indicator(char32_t cp) { return cp >= 0x1F1E6 && cp <= 0x1F1FF; }

// Parts that extend an emoji: variation selectors, keycap, skin tones, tag characters.
bool is_emoji_modifier(char32_t cp) {
  return is_mark(cp) || (cp >= 0x1F3FB && cp <= 0x1F3FF) || (cp >= 0xE0020 && cp <= 0xE007F);
}

// End of the word (letters/digits/marks) that starts at `i`.
size_t word_end(std::string_view s, size_t i) {
  bool last_was_digit = false;
  char32_t last = 0;
  // a word joiner or BOM belongs to a word only with letters after it: "ש\uFEFF " ends before it
  size_t format_run = std::string_view::npos;
  const auto end = [&] { return format_run != std::string_view::npos ? format_run : i; };
  while (i < s.size()) {
    const Decoded c = decode_at(s, i);
    if (is_word_char(c.cp)) {
      last_was_digit = is_digit(c.cp);
      last = c.cp;
      format_run = std::string_view::npos;
      i += c.length;
      continue;
    }
    if (is_silent_in_word(c.cp) || is_dropped_format_character(c.cp)) {
      if (!is_silent_in_word(c.cp) && format_run == std::string_view::npos) format_run = i;
      i += c.length;
      continue;
    }
    const size_t after = i + c.length;
    if (after >= s.size()) break;
    const char32_t next = decode_at(s, after).cp;
    // a zero-width space or a direction mark inside a word of a cased script, which the model
    // reads as one word (text/format_characters.h): "beau\u200Btiful"
    const auto cased = [](char32_t cp) { return has_case(cp) || (cp >= '0' && cp <= '9'); };
    const bool inside = is_format_character_inside_words(c.cp) && cased(last) && cased(next);
    const bool joins = (is_inner_joiner(c.cp) && is_word_char(next)) || inside;
    const bool number = (c.cp == '.' || c.cp == ',') && last_was_digit && is_digit(next);  // 3.14
    if (!joins && !number) break;
    i = after;  // the word character after it is taken by the next iteration
  }
  return end();
}

// End of the emoji that starts at `i`: one pictograph or flag with its modifiers and any
// ZWJ-joined pictographs (👩‍👩‍👧, 👍🏽, 🇩🇪).
size_t emoji_end(std::string_view s, size_t i) {
  const Decoded first = decode_at(s, i);
  i += first.length;
  if (is_regional_indicator(first.cp)) {
    if (i < s.size()) {
      const Decoded second = decode_at(s, i);
      if (is_regional_indicator(second.cp)) i += second.length;
    }
    return i;
  }
  while (i < s.size()) {
    const Decoded c = decode_at(s, i);
    if (is_emoji_modifier(c.cp)) {
      i += c.length;
    } else if (c.cp == kZwj && i + c.length < s.size() &&
               is_emoji(decode_at(s, i + c.length).cp)) {
      i += c.length + decode_at(s, i + c.length).length;
    } else {
      break;
    }
  }
  return i;
}

// Combining marks after a single-character word (a CJK ideograph, a symbol) stay with it.
size_t marks_end(std::string_view s, size_t i) {
  while (i < s.size()) {
    const Decoded c = decode_at(s, i);
    if (!is_mark(c.cp)) break;
    i += c.length;
  }
  return i;
}

// Index of the word each token overlaps most, or -1. Words are sorted and disjoint.
std::vector<int> tokens_to_words(const std::vector<Span>& token_spans, size_t count,
                                 const std::vector<Span>& words, size_t text_size) {
  std::vector<int> word_of(count, -1);
  for (size_t t = 0; t < count; ++t) {
    const size_t begin = std::min(token_spans[t].begin, text_size);
    const size_t end = std::min(token_spans[t].end, text_size);
    if (end <= begin) continue;
    auto it = std::partition_point(words.begin(), words.end(),
                                   [&](const Span& w) { return w.end <= begin; });
    size_t best_overlap = 0;
    for (; it != words.end() && it->begin < end; ++it) {
      const size_t overlap = std::min(end, it->end) - std::max(begin, it->begin);
      if (overlap > best_overlap) {
        best_overlap = overlap;
        word_of[t] = static_cast<int>(it - words.begin());
      }
    }
  }
  return word_of;
}

}  // namespace

std::vector<std::vector<int>> word_tokens(const std::vector<Span>& words, const std::vector<Span>& token_spans,
                                          size_t count, size_t text_size) {
  count = std::min(count, token_spans.size());
  std::vector<std::vector<int>> tokens(words.size());
  const std::vector<int> word_of = tokens_to_words(token_spans, count, words, text_size);
  for (size_t t = 0; t < count; ++t)
    if (word_of[t] >= 0) tokens[size_t(word_of[t])].push_back(int(t));
  for (size_t w = 0; w < words.size(); ++w) {
    if (!tokens[w].empty()) continue;
    for (size_t t = 0; t < count; ++t)
      if (token_spans[t].begin < words[w].end && token_spans[t].end > words[w].begin) tokens[w].push_back(int(t));
  }
  return tokens;
}

std::vector<Span> find_words(std::string_view sentence) {
  std::vector<Span> words;
  size_t i = 0;
  while (i < sentence.size()) {
    const Decoded c = decode_at(sentence, i);
    size_t end;
    if (is_whitespace(c.cp) || is_ignorable(c.cp) || c.cp == kZwj || c.cp == kZwnj) {
      i += c.length;
      continue;
    } else if (is_word_char(c.cp)) {
      end = word_end(sentence, i);
    } else if (is_emoji(c.cp) || is_regional_indicator(c.cp)) {
      end = emoji_end(sentence, i);
    } else {
      end = marks_end(sentence, i + c.length);  // an ideograph, or punctuation / a symbol
    }
    words.push_back({i, end});
    i = end;
  }
  return words;
}

WordAlignment align_words(std::string_view source, const std::vector<Span>& source_token_spans,
                          std::string_view target, const std::vector<Span>& target_token_spans,
                          const float* soft, int target_tokens, int source_tokens) {
  WordAlignment a;
  a.source_words = find_words(source);
  a.target_words = find_words(target);
  const size_t ws = a.source_words.size(), wt = a.target_words.size();
  a.matrix.assign(wt * ws, 0.0f);
  if (soft == nullptr || target_tokens <= 0 || source_tokens <= 0 || ws == 0 || wt == 0) return a;

  const size_t columns = static_cast<size_t>(source_tokens);
  const size_t rows = static_cast<size_t>(target_tokens);
  const std::vector<int> source_word = tokens_to_words(
      source_token_spans, std::min(columns, source_token_spans.size()), a.source_words,
      source.size());
  const std::vector<std::vector<int>> target_word_tokens =
      word_tokens(a.target_words, target_token_spans, rows, target.size());

  // Sum per source word, accumulated per target word (double: many small weights).
  std::vector<double> sum(wt * ws, 0.0);
  std::vector<int> tokens_in_word(wt, 0);
  auto add_token_row = [&](size_t w, size_t t) {  // target token t's attention, into target word w
    ++tokens_in_word[w];
    const float* row = soft + t * columns;
    for (size_t s = 0; s < source_word.size(); ++s) {
      const float v = row[s];
      if (source_word[s] < 0 || !(v > 0.0f) || !std::isfinite(v)) continue;
      sum[w * ws + static_cast<size_t>(source_word[s])] += v;
    }
  };
  // (a target word that owns no token, e.g. the "." inside the token "▁1.", takes the attention
  // of the tokens that overlap it, so every word the UI shows has a row: word_tokens)
  for (size_t w = 0; w < wt; ++w)
    for (int t : target_word_tokens[w]) add_token_row(w, static_cast<size_t>(t));

  // Average over the word's target tokens, then normalize the row. Rows with (almost) no mass
  // (the attention went to tokens outside any word, such as </s>) stay zero and get no link.
  constexpr double kMinMass = 1e-6;
  for (size_t w = 0; w < wt; ++w) {
    if (tokens_in_word[w] == 0) continue;
    double* row = &sum[w * ws];
    double total = 0.0;
    for (size_t s = 0; s < ws; ++s) total += row[s] / tokens_in_word[w];
    if (total < kMinMass) continue;
    size_t best = 0;
    for (size_t s = 0; s < ws; ++s) {
      a.matrix[w * ws + s] = static_cast<float>(row[s] / tokens_in_word[w] / total);
      if (row[s] > row[best]) best = s;
    }
    a.links.push_back({static_cast<int>(w), static_cast<int>(best)});
  }
  return a;
}

namespace {

// A word of no letters or digits: punctuation, a symbol, an emoji.
bool is_punctuation(std::string_view text, const Span& w) {
  for (size_t i = w.begin; i < w.end;) {
    const Decoded c = decode_at(text, i);
    if (is_letter(c.cp) || is_digit(c.cp) || is_styled_alphanumeric(c.cp)) return false;
    i += c.length;
  }
  return true;
}

std::vector<bool> punctuation_of(std::string_view text, const std::vector<Span>& words) {
  std::vector<bool> out;
  for (const Span& w : words) out.push_back(is_punctuation(text, w));
  return out;
}

}  // namespace

std::vector<float> next_step_rows(const float* rows, int row_count, int tokens, int columns) {
  std::vector<float> out;
  if (rows == nullptr || tokens <= 0 || columns <= 0 || row_count <= 0) return out;
  out.resize(size_t(tokens) * size_t(columns), 0.0f);
  for (int t = 0; t < tokens && t < row_count; ++t) {
    const int from = t + 1 < row_count ? t + 1 : t;
    std::copy_n(rows + size_t(from) * size_t(columns), size_t(columns), out.begin() + ptrdiff_t(size_t(t) * size_t(columns)));
  }
  return out;
}

std::vector<std::pair<int, int>> readout_links(const std::vector<float>& matrix, const std::vector<bool>& target_punctuation,
                                               const std::vector<bool>& source_punctuation,
                                               const AlignmentReadout& readout) {
  const size_t wt = target_punctuation.size(), ws = source_punctuation.size();
  std::vector<std::pair<int, int>> links;
  if (matrix.size() < wt * ws || ws == 0) return links;
  auto at = [&](size_t t, size_t s) { return matrix[t * ws + s]; };
  auto same_kind = [&](size_t t, size_t s) { return target_punctuation[t] == source_punctuation[s]; };
  // each target word: its most attended source word of its own kind
  for (size_t t = 0; t < wt; ++t) {
    int best = -1;
    for (size_t s = 0; s < ws; ++s)
      if (same_kind(t, s) && at(t, s) > 0.0f && (best < 0 || at(t, s) > at(t, size_t(best)))) best = int(s);
    if (best < 0) continue;
    if (target_punctuation[t] && at(t, size_t(best)) < readout.punctuation_min) continue;
    links.push_back({int(t), best});
  }
  // each source word: the target word of its kind that attends to it most, if strongly enough
  for (size_t s = 0; s < ws; ++s) {
    int best = -1;
    for (size_t t = 0; t < wt; ++t)
      if (same_kind(t, s) && (best < 0 || at(t, s) > at(size_t(best), s))) best = int(t);
    if (best >= 0 && at(size_t(best), s) >= readout.column_min && at(size_t(best), s) > 0.0f) links.push_back({best, int(s)});
  }
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  return links;
}

WordAlignment read_alignment(std::string_view source, const std::vector<Span>& source_token_spans,
                             std::string_view target, const std::vector<Span>& target_token_spans,
                             const float* soft, int target_tokens, int source_tokens,
                             const AlignmentReadout& readout) {
  WordAlignment a = align_words(source, source_token_spans, target, target_token_spans, soft, target_tokens, source_tokens);
  if (a.links.empty()) return a;  // no attention reached any word
  a.links = readout_links(a.matrix, punctuation_of(target, a.target_words), punctuation_of(source, a.source_words), readout);
  return a;
}

WordAlignment symmetrize(const WordAlignment& forward, const WordAlignment& reverse, Symmetrization how) {
  WordAlignment out = forward;
  const int wt = int(forward.target_words.size()), ws = int(forward.source_words.size());
  if (int(reverse.target_words.size()) != ws || int(reverse.source_words.size()) != wt) return out;  // not the same texts
  std::vector<char> in_forward(size_t(wt) * size_t(ws), 0), in_union(size_t(wt) * size_t(ws), 0), kept(size_t(wt) * size_t(ws), 0);
  auto cell = [&](int t, int s) { return size_t(t) * size_t(ws) + size_t(s); };
  for (auto [t, s] : forward.links) in_forward[cell(t, s)] = in_union[cell(t, s)] = 1;
  std::vector<char> target_aligned(size_t(wt), 0), source_aligned(size_t(ws), 0);
  for (auto [s, t] : reverse.links) {  // reverse's target is forward's source
    if (s < 0 || s >= ws || t < 0 || t >= wt) continue;
    in_union[cell(t, s)] = 1;
    if (in_forward[cell(t, s)]) kept[cell(t, s)] = 1, target_aligned[size_t(t)] = source_aligned[size_t(s)] = 1;
  }
  if (how == Symmetrization::grow_diag) {
    // grow: a link of either read-out next to a kept one, that aligns a word not yet aligned
    for (bool grew = true; grew;) {
      grew = false;
      for (int t = 0; t < wt; ++t)
        for (int s = 0; s < ws; ++s) {
          if (!kept[cell(t, s)]) continue;
          for (int dt = -1; dt <= 1; ++dt)
            for (int ds = -1; ds <= 1; ++ds) {
              const int nt = t + dt, ns = s + ds;
              if ((dt == 0 && ds == 0) || nt < 0 || nt >= wt || ns < 0 || ns >= ws) continue;
              if (!in_union[cell(nt, ns)] || kept[cell(nt, ns)]) continue;
              if (target_aligned[size_t(nt)] && source_aligned[size_t(ns)]) continue;
              kept[cell(nt, ns)] = 1;
              target_aligned[size_t(nt)] = source_aligned[size_t(ns)] = 1;
              grew = true;
            }
        }
    }
  }
  out.links.clear();
  for (int t = 0; t < wt; ++t)
    for (int s = 0; s < ws; ++s)
      if (kept[cell(t, s)]) out.links.push_back({t, s});
  return out;
}

void align_terms(const std::vector<TextEdit>& terms, std::string_view target, WordAlignment& w) {
  const size_t cols = w.source_words.size();
  if (terms.empty() || cols == 0 || w.matrix.size() < w.target_words.size() * cols) return;
  std::vector<size_t> searched_to(terms.size(), 0);
  bool changed = false;
  for (size_t i = 0; i < terms.size(); ++i) {
    const TextEdit& term = terms[i];
    if (term.text.empty()) continue;
    size_t from = 0;  // after the copies the same text's earlier terms took
    for (size_t j = 0; j < i; ++j)
      if (terms[j].text == term.text) from = std::max(from, searched_to[j]);
    const size_t at = target.find(term.text, from);
    if (at == std::string_view::npos) continue;
    searched_to[i] = at + term.text.size();
    const Span written{at, at + term.text.size()};
    const Span source{term.at, term.at + term.length};
    std::vector<int> sources, targets;
    for (size_t c = 0; c < cols; ++c)
      if (w.source_words[c].begin < source.end && source.begin < w.source_words[c].end) sources.push_back(int(c));
    for (size_t r = 0; r < w.target_words.size(); ++r)
      if (w.target_words[r].begin < written.end && written.begin < w.target_words[r].end) targets.push_back(int(r));
    if (sources.empty() || targets.empty()) continue;
    w.links.erase(std::remove_if(w.links.begin(), w.links.end(),
                                 [&](const std::pair<int, int>& l) {
                                   return std::find(targets.begin(), targets.end(), l.first) != targets.end();
                                 }),
                  w.links.end());
    // as many words on both sides ("Acme Cloud" -> "Acme Cloud", "Zeta Sky"): word for word, in order
    // (an element on "Cloud" stays on "Cloud"); else each target word to all of them
    const bool word_for_word = sources.size() == targets.size();
    for (size_t k = 0; k < targets.size(); ++k) {
      const std::vector<int> own = word_for_word ? std::vector<int>{sources[k]} : sources;
      float* row = w.matrix.data() + size_t(targets[k]) * cols;
      std::fill(row, row + cols, 0.0f);
      for (int c : own) {
        row[c] = 1.0f / float(own.size());
        w.links.emplace_back(targets[k], c);
      }
    }
    changed = true;
  }
  if (changed) std::sort(w.links.begin(), w.links.end());
}

namespace {

// The character that ends just before byte `i` (0 at the start).
char32_t char_before(std::string_view text, size_t i) {
  if (i == 0) return 0;
  size_t start = i - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  return decode_at(text, start).cp;
}

// [at, end) starts and ends between words, not inside one (a copied "45" is not the end of "1945").
bool on_word_edges(std::string_view text, size_t at, size_t end) {
  const auto inside = [&](size_t i) {
    return i > 0 && i < text.size() && is_word_char(char_before(text, i)) && is_word_char(decode_at(text, i).cp);
  };
  return at < end && !inside(at) && !inside(end);
}

std::vector<int> words_in(const std::vector<Span>& words, size_t begin, size_t end) {
  std::vector<int> out;
  for (size_t k = 0; k < words.size(); ++k)
    if (words[k].begin < end && begin < words[k].end) out.push_back(int(k));
  return out;
}

// Replaces word `t`'s links and row by links to `sources`, evenly weighted.
void link_only(WordAlignment& w, int t, const std::vector<int>& sources) {
  const size_t cols = w.source_words.size();
  float* row = w.matrix.data() + size_t(t) * cols;
  std::fill(row, row + cols, 0.0f);
  for (int c : sources) {
    row[c] = 1.0f / float(sources.size());
    w.links.emplace_back(t, c);
  }
}

}  // namespace

void align_copies(const std::vector<TextEdit>& copies, std::string_view source, std::string_view target, WordAlignment& w) {
  const size_t cols = w.source_words.size();
  if (copies.empty() || cols == 0 || w.matrix.size() < w.target_words.size() * cols) return;
  const std::string lower_target = to_lower_same_length(target), lower_source = to_lower_same_length(source);
  const auto source_word = [&](int c) {
    return std::string_view(lower_source).substr(w.source_words[size_t(c)].begin, w.source_words[size_t(c)].end - w.source_words[size_t(c)].begin);
  };
  const auto target_word = [&](int r) {
    return std::string_view(lower_target).substr(w.target_words[size_t(r)].begin, w.target_words[size_t(r)].end - w.target_words[size_t(r)].begin);
  };
  std::vector<size_t> order(copies.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return copies[a].at < copies[b].at; });
  std::vector<std::pair<std::string, size_t>> searched_to;  // per written text: where its next copy is looked for
  bool changed = false;
  for (size_t i : order) {
    const TextEdit& copy = copies[i];
    if (copy.text.empty() || copy.at + copy.length > source.size()) continue;
    // where the stretch is written as the text given, or else as the source's own text
    std::string text;
    size_t at = std::string::npos;
    std::vector<std::pair<std::string, size_t>>::iterator from;
    for (const std::string_view written : {std::string_view(copy.text), source.substr(copy.at, copy.length)}) {
      text = to_lower_same_length(written);
      from = std::find_if(searched_to.begin(), searched_to.end(), [&](const auto& p) { return p.first == text; });
      if (from == searched_to.end()) from = searched_to.insert(searched_to.end(), {text, 0});
      at = lower_target.find(text, from->second);
      while (at != std::string::npos && !on_word_edges(target, at, at + text.size())) at = lower_target.find(text, at + 1);
      if (at != std::string::npos) break;
    }
    if (at == std::string::npos) continue;
    from->second = at + text.size();
    const std::vector<int> sources = words_in(w.source_words, copy.at, copy.at + copy.length);
    const std::vector<int> targets = words_in(w.target_words, at, at + text.size());
    if (sources.empty() || targets.empty()) continue;
    w.links.erase(std::remove_if(w.links.begin(), w.links.end(),
                                 [&](const std::pair<int, int>& l) {
                                   return std::find(targets.begin(), targets.end(), l.first) != targets.end() ||
                                          std::find(sources.begin(), sources.end(), l.second) != sources.end();
                                 }),
                  w.links.end());
    // the same text first, in order; then the rest of each kind
    std::vector<int> paired(targets.size(), -1);
    std::vector<bool> taken(sources.size(), false);
    for (size_t k = 0; k < targets.size(); ++k)
      for (size_t c = 0; c < sources.size(); ++c)
        if (!taken[c] && source_word(sources[c]) == target_word(targets[k])) {
          paired[k] = sources[c];
          taken[c] = true;
          break;
        }
    for (const bool punctuation : {false, true}) {
      std::vector<size_t> rest_targets;
      std::vector<int> rest_sources, kind_sources;
      for (size_t k = 0; k < targets.size(); ++k)
        if (paired[k] < 0 && is_punctuation(target, w.target_words[size_t(targets[k])]) == punctuation) rest_targets.push_back(k);
      for (size_t c = 0; c < sources.size(); ++c) {
        if (is_punctuation(source, w.source_words[size_t(sources[c])]) != punctuation) continue;
        kind_sources.push_back(sources[c]);
        if (!taken[c]) rest_sources.push_back(sources[c]);
      }
      for (size_t j = 0; j < rest_targets.size(); ++j) {
        const size_t k = rest_targets[j];
        if (rest_sources.size() == rest_targets.size()) link_only(w, targets[k], {rest_sources[j]});
        else if (!rest_sources.empty()) link_only(w, targets[k], rest_sources);
        else if (!kind_sources.empty()) link_only(w, targets[k], kind_sources);
        else link_only(w, targets[k], punctuation ? std::vector<int>{} : sources);
      }
    }
    for (size_t k = 0; k < targets.size(); ++k)
      if (paired[k] >= 0) link_only(w, targets[k], {paired[k]});
    changed = true;
  }
  if (changed) std::sort(w.links.begin(), w.links.end());
}

namespace {

// Runs of two or more words of one and the same mark, each right after the one before: [first, last].
std::vector<std::pair<int, int>> mark_runs(std::string_view text, const std::vector<Span>& words) {
  std::vector<std::pair<int, int>> runs;
  const auto same_mark = [&](size_t a, size_t b) {
    return words[b].begin == words[a].end && is_punctuation(text, words[a]) &&
           text.substr(words[a].begin, words[a].end - words[a].begin) == text.substr(words[b].begin, words[b].end - words[b].begin);
  };
  for (size_t k = 0; k < words.size();) {
    size_t end = k + 1;
    while (end < words.size() && same_mark(end - 1, end)) ++end;
    if (end - k >= 2) runs.emplace_back(int(k), int(end - 1));
    k = end;
  }
  return runs;
}

}  // namespace

void align_mark_runs(std::string_view source, std::string_view target, WordAlignment& w) {
  const size_t cols = w.source_words.size(), rows = w.target_words.size();
  if (cols < 2 || rows < 2 || w.matrix.size() < rows * cols) return;
  const std::vector<std::pair<int, int>> source_runs = mark_runs(source, w.source_words);
  const std::vector<std::pair<int, int>> target_runs = mark_runs(target, w.target_words);
  if (source_runs.empty() || target_runs.empty()) return;
  const int from = source_runs.back().first, to = source_runs.back().second;
  const int first = target_runs.back().first, last = target_runs.back().second;
  const auto mark_of = [](std::string_view text, const Span& s) { return text.substr(s.begin, s.end - s.begin); };
  if (size_t(to) + 1 != cols || size_t(last) + 1 != rows || to - from != last - first ||
      mark_of(source, w.source_words[size_t(from)]) != mark_of(target, w.target_words[size_t(first)]))
    return;
  w.links.erase(std::remove_if(w.links.begin(), w.links.end(),
                               [&](const std::pair<int, int>& l) {
                                 return (l.first >= first && l.first <= last) || (l.second >= from && l.second <= to);
                               }),
                w.links.end());
  for (int k = 0; k <= last - first; ++k) link_only(w, first + k, {from + k});
  std::sort(w.links.begin(), w.links.end());
}

void align_written_words(std::string_view source, std::string_view target, const std::vector<Span>& target_token_spans,
                         WordAlignment& w, const std::vector<Span>& unseen) {
  const size_t cols = w.source_words.size();
  if (cols == 0 || w.matrix.size() < w.target_words.size() * cols) return;
  const std::string lower_target = to_lower_same_length(target), lower_source = to_lower_same_length(source);
  const auto source_text = [&](size_t c) {
    return std::string_view(lower_source).substr(w.source_words[c].begin, w.source_words[c].end - w.source_words[c].begin);
  };
  const auto is_unseen = [&](size_t c) {
    return std::any_of(unseen.begin(), unseen.end(),
                       [&](const Span& u) { return u.begin <= w.source_words[c].begin && w.source_words[c].end <= u.end; });
  };
  std::vector<int> last_source(w.target_words.size(), -1);  // each target word's rightmost linked source word
  for (auto [t, c] : w.links) last_source[size_t(t)] = std::max(last_source[size_t(t)], c);
  std::vector<bool> taken(cols, false);
  bool changed = false;
  for (size_t t = 0; t < w.target_words.size(); ++t) {
    if (last_source[t] >= 0) continue;
    const Span word = w.target_words[t];
    const std::string_view text = std::string_view(lower_target).substr(word.begin, word.end - word.begin);
    const bool has_token = std::any_of(target_token_spans.begin(), target_token_spans.end(),
                                       [&](const Span& k) { return k.begin < word.end && word.begin < k.end; });
    std::vector<int> same;  // the source words of its text (only unseen ones, for a word a token holds)
    for (size_t c = 0; c < cols; ++c)
      if (source_text(c) == text && (!has_token || is_unseen(c))) same.push_back(int(c));
    if (same.empty()) continue;
    // in order: the first after the source word the target word before it links to ("**sehr**":
    // the closing marks to the closing ones), else the first not taken
    int after = -1;
    for (size_t k = t; k-- > 0;)
      if (last_source[k] >= 0) {
        after = last_source[k];
        break;
      }
    int pick = -1;
    for (int c : same)
      if (!taken[size_t(c)] && c > after) {
        pick = c;
        break;
      }
    for (int c : same)
      if (pick < 0 && !taken[size_t(c)]) pick = c;
    if (pick < 0) pick = same.front();
    taken[size_t(pick)] = true;
    last_source[t] = pick;
    link_only(w, int(t), {pick});
    changed = true;
  }
  if (changed) std::sort(w.links.begin(), w.links.end());
}

}  // namespace nmt
