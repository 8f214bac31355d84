// See pass_through.h. Runs of unknown source pieces are copied into the translation by attention.
#include "text/pass_through.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_map>

#include "text/casing.h"
#include "text/numbers.h"
#include "text/utf8.h"

namespace nmt {
namespace {

struct UnknownRun {
  size_t first, last;  // source token indices, inclusive (unknown runs only)
  size_t begin, end;   // bytes in the source
  bool used = false;
  bool dropped = false;        // characters the tokenizer deleted: no token of their own
  long prev = -1, next = -1;   // the tokens before and after the run (-1: none)
};

// Word ends by ASCII whitespace: a byte test that never lands inside a multi-byte character (the
// target is the model's own decoding, whose spaces are ASCII).
bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::vector<UnknownRun> unknown_runs(const std::string& source, const std::vector<Token>& toks, int unk_id,
                                     const Rewrites& rewrites) {
  // a piece written as something else (a glossary term, a date) is a run of its own: it never joins
  // an emoji beside it ("invoice 😀"), whose text would be lost and the term not written
  const auto rewritten = [&](size_t i) {
    size_t begin = toks[i].begin;
    while (begin < toks[i].end && begin < source.size() && is_ascii_space(source[begin])) ++begin;
    return std::any_of(rewrites.begin(), rewrites.end(), [&](const auto& r) { return r.first == begin; });
  };
  std::vector<UnknownRun> runs;
  bool last_rewritten = false;
  for (size_t i = 0; i < toks.size(); ++i) {
    if (toks[i].id != unk_id) continue;
    const bool own = rewritten(i);
    // one run across the lone word-boundary pieces between unknown ones ("שלום עולם" stays whole)
    const bool joins = !own && !last_rewritten && !runs.empty() &&
                       (runs.back().last + 1 == i || (runs.back().last + 2 == i && toks[i - 1].piece == "\xE2\x96\x81"));
    last_rewritten = own;
    if (joins) {
      runs.back().last = i;
      runs.back().end = toks[i].end;
    } else {
      runs.push_back({i, i, toks[i].begin, toks[i].end});
    }
  }
  for (UnknownRun& r : runs) {  // the span of an unknown piece may carry the space before it
    r.end = std::min(r.end, source.size());
    for (char32_t cp; r.begin < r.end;) {
      const size_t length = decode_utf8(source, r.begin, cp);
      if (!is_whitespace(cp)) break;
      r.begin += length;
    }
    // and characters the normalizer deleted after it: an emphasis mark, read as spaces here
    // ("**nmt_nfkc**", text/emphasis.h)
    while (r.end > r.begin && is_ascii_space(source[r.end - 1])) --r.end;
  }
  runs.erase(std::remove_if(runs.begin(), runs.end(), [](const UnknownRun& r) { return r.begin >= r.end; }), runs.end());
  for (UnknownRun& r : runs) {
    // (not a lone "▁" before a run that stands alone: the space of "cake 🎂 was" has no word, and
    // its attention went anywhere: "Der Kuchen war 🎂 köstlich"; one before a run written against
    // the next word, "~$50", starts that word)
    r.prev = long(r.first) - 1;
    const bool alone = r.end >= source.size() || is_ascii_space(source[r.end]);
    while (alone && r.prev >= 0 && toks[size_t(r.prev)].piece == "\xE2\x96\x81") --r.prev;
    r.next = r.last + 1 < toks.size() ? long(r.last + 1) : -1;
  }
  return runs;
}

// The dropped ranges as runs: the token before is the last one ending at or before the run (a
// token's span may reach back over the deleted characters before it, "▁b" of "a \uFFFD b"), the
// token after the first one ending after it.
void add_dropped_runs(std::vector<UnknownRun>& runs, const std::vector<Token>& toks,
                      const std::vector<std::pair<size_t, size_t>>& dropped, size_t source_size) {
  for (auto [b, e] : dropped) {
    e = std::min(e, source_size);
    if (b >= e) continue;
    UnknownRun r{0, 0, b, e};
    r.dropped = true;
    for (size_t i = 0; i < toks.size(); ++i) {
      if (toks[i].end <= b) r.prev = long(i);
      if (toks[i].end > e && r.next < 0) r.next = long(i);
    }
    runs.push_back(r);
  }
  std::stable_sort(runs.begin(), runs.end(), [](const UnknownRun& x, const UnknownRun& y) { return x.begin < y.begin; });
}

bool is_word_character(char32_t cp) { return is_letter(cp) || is_digit(cp) || is_mark(cp); }

// Whether the run is only Latin letters with diacritics (and combining marks): "ç" of "Barça", "ğ"
// of "Erdoğan". Inside a word, the model spells such a word with letters it has ("Barca"), so the
// run is its to spell. Anything else inside a word (CJK, kana, Hangul, emoji, another script:
// "I like日本", "ab😀cd") is copied: the model cannot write it, and leaving it out loses the text.
bool latin_letters(std::string_view run) {
  if (run.empty()) return false;
  for (size_t i = 0; i < run.size();) {
    const auto [cp, length] = decode_at(run, i);
    const bool latin = (cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7) || (cp >= 0x1E00 && cp <= 0x1EFF) ||
                       (cp >= 0x300 && cp <= 0x36F);
    if (!latin) return false;
    i += length;
  }
  return true;
}

// The character that ends right before byte `at` (0 at the start).
char32_t character_before(const std::string& text, size_t at) {
  if (at == 0) return 0;
  size_t start = at - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  return decode_at(text, start).cp;
}

// Whether the run touches a letter or digit of the source on either side (part of a bigger word).
bool inside_word(const std::string& source, const UnknownRun& run) {
  char32_t after = 0, before = 0;
  if (run.end < source.size()) decode_utf8(source, run.end, after);
  if (run.begin > 0) {
    size_t start = run.begin - 1;
    while (start > 0 && (static_cast<unsigned char>(source[start]) & 0xC0) == 0x80) --start;
    decode_utf8(source, start, before);
  }
  return is_word_character(before) || is_word_character(after);
}

bool is_quotation_mark(char32_t cp) {
  switch (cp) {
    case '"': case '\'': case 0x2018: case 0x2019: case 0x201A: case 0x201B:  // ' ‘ ’ ‚ ‛
    case 0x201C: case 0x201D: case 0x201E: case 0x201F:                      // “ ” „ ‟
    case 0x00AB: case 0x00BB: case 0x2039: case 0x203A:                      // « » ‹ ›
      return true;
    default:
      return false;
  }
}

// The quotation marks of a text, of any style; an apostrophe between two letters ("don't", "it’s")
// is none.
size_t count_quotation_marks(std::string_view text) {
  size_t count = 0;
  char32_t before = 0;
  for (size_t i = 0; i < text.size();) {
    const auto [cp, length] = decode_at(text, i);
    i += length;
    if (is_quotation_mark(cp)) {
      const char32_t after = i < text.size() ? decode_at(text, i).cp : 0;
      const bool apostrophe = (cp == '\'' || cp == 0x2019) && is_word_character(before) && is_word_character(after);
      if (!apostrophe) ++count;
    }
    before = cp;
  }
  return count;
}

bool only_quotation_marks(std::string_view run) {
  if (run.empty()) return false;
  for (size_t i = 0; i < run.size();) {
    const auto [cp, length] = decode_at(run, i);
    if (!is_quotation_mark(cp)) return false;
    i += length;
  }
  return true;
}

size_t count_of(std::string_view text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// The column among the first `count` of row t of `att` (`cols` wide) with the most attention (the
// first of equals); -1 when count is 0.
long most_attended(const std::vector<float>& att, size_t cols, size_t t, size_t count) {
  long best = -1;
  for (size_t s = 0; s < count; ++s)
    if (best < 0 || att[t * cols + s] > att[t * cols + size_t(best)]) best = long(s);
  return best;
}

// The source token that target row t attends to most, when it is one mark (no letter, digit or
// space: "«", "»", "§") not written yet, of which the target holds fewer than the source; else -1.
long unwritable_mark(const std::string& source, const std::vector<Token>& toks, const std::vector<float>& att,
                     size_t cols, size_t t, const std::string& target, const std::vector<bool>& written) {
  const long best = most_attended(att, cols, t, toks.size());
  if (best < 0 || written[size_t(best)]) return -1;
  const Token& token = toks[size_t(best)];
  if (token.end > source.size() || token.begin >= token.end) return -1;
  std::string_view text = std::string_view(source).substr(token.begin, token.end - token.begin);
  while (!text.empty() && is_ascii_space(text.front())) text.remove_prefix(1);
  if (text.empty()) return -1;
  const auto [cp, length] = decode_at(text, 0);
  if (length != text.size() || is_word_character(cp) || is_whitespace(cp) || cp < 0x80) return -1;
  return count_of(target, text) < count_of(source, text) ? best : -1;
}

// Attention of target row t on source tokens [first, last].
float attention_on(const std::vector<float>& att, size_t cols, size_t t, size_t first, size_t last) {
  float sum = 0.0f;
  for (size_t j = first; j <= last; ++j) sum += att[t * cols + j];
  return sum;
}

// Replaces target[span] by `text` and shifts the spans after it.
void replace_span(std::string& target, std::vector<std::pair<size_t, size_t>>& spans, size_t k, const std::string& text) {
  const auto [b, e] = spans[k];
  target.replace(b, e - b, text);
  const long delta = long(text.size()) - long(e - b);
  spans[k] = {b, b + text.size()};
  for (size_t i = k + 1; i < spans.size(); ++i) spans[i] = {size_t(long(spans[i].first) + delta), size_t(long(spans[i].second) + delta)};
}


size_t word_end(const std::string& target, size_t pos) {
  while (pos < target.size() && !is_ascii_space(target[pos])) ++pos;
  return pos;
}

size_t word_begin(const std::string& target, size_t pos) {
  while (pos > 0 && !is_ascii_space(target[pos - 1])) --pos;
  return pos;
}

// Whether the source run at `begin` follows punctuation (whitespace between allowed): "Great! 🎉".
bool follows_punctuation(const std::string& source, size_t begin) {
  size_t k = begin;
  while (k > 0 && is_ascii_space(source[k - 1])) --k;
  return k > 0 && std::strchr(".,;:!?)\"'", source[k - 1]) != nullptr;
}

// The target token that attends most to source token j (or -1 without attention / target).
long best_target_for(const std::vector<float>& att, size_t rows, size_t cols, size_t j) {
  if (att.empty() || rows == 0) return -1;
  long best = 0;
  for (size_t t = 1; t < rows; ++t)
    if (att[t * cols + j] > att[size_t(best) * cols + j]) best = long(t);
  return best;
}

// Whether `text` (lower case) holds the word `word`.
bool has_word(std::string_view text, std::string_view word) {
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !std::isalpha(static_cast<unsigned char>(text[at - 1]));
    const size_t end = at + word.size();
    const bool ends = end >= text.size() || !std::isalpha(static_cast<unsigned char>(text[end]));
    if (starts && ends) return true;
  }
  return false;
}

// A run that is a currency sign of an amount ("€" of "€50", "~€" of "~€50", "€" of "25 €") that is
// not to be written: the translation already names that currency ("50 Euro", "€25"), or the
// currency pass puts the sign back by its amount (`by_amount`: it is on), where the model placed the
// number, not where the sign's attention went ("1,5 € Millionen Euro").
bool currency_left_to_amount(const std::string& source, const UnknownRun& run, const std::string& target, bool by_amount) {
  std::string_view text = std::string_view(source).substr(run.begin, run.end - run.begin);
  while (!text.empty() && (text.front() == '~' || is_ascii_space(text.front()))) text.remove_prefix(1);
  const auto digit_at = [&](size_t i) { return i < source.size() && source[i] >= '0' && source[i] <= '9'; };
  if (text.empty() && run.end > run.begin) {  // a lone "~" of "~$50": the approximate pass's
    const size_t after = run.end + (source.compare(run.end, 1, "$") == 0 ? 1 : 0);
    return by_amount && digit_at(after);
  }
  const bool digit_after = digit_at(run.end) || (digit_at(run.end + 1) && source[run.end] == ' ');
  const bool digit_before = (run.begin >= 1 && digit_at(run.begin - 1)) || (run.begin >= 2 && source[run.begin - 1] == ' ' && digit_at(run.begin - 2));
  if (!digit_after && !digit_before) return false;
  const std::string lower = to_lower_same_length(target);
  for (const Currency& c : currencies()) {
    if (text != c.sign) continue;
    if (by_amount || target.find(c.sign) != std::string::npos) return true;
    return std::any_of(c.names.begin(), c.names.end(), [&](std::string_view n) { return has_word(lower, n); });
  }
  return false;
}

// Whether the source has a quotation mark right before and right after the run ("„X“", "\"X\"").
bool quoted_in_source(const std::string& source, const UnknownRun& run) {
  if (run.begin == 0 || run.end >= source.size()) return false;
  size_t start = run.begin - 1;
  while (start > 0 && (static_cast<unsigned char>(source[start]) & 0xC0) == 0x80) --start;
  return is_quotation_mark(decode_at(source, start).cp) && is_quotation_mark(decode_at(source, run.end).cp);
}

}  // namespace

void drop_doubled_spaces(std::string& target, std::vector<std::pair<size_t, size_t>>& spans, size_t fixed) {
  for (size_t k = 0; k + 1 < spans.size(); ++k) {
    const auto [b, e] = spans[k];
    const size_t next = spans[k + 1].first;
    if (b < fixed || e != b + 1 || target[b] != ' ' || next != e || next >= target.size() || target[next] != ' ') continue;
    target.erase(b, 1);
    spans[k].second = b;
    for (size_t j = k + 1; j < spans.size(); ++j) spans[j] = {spans[j].first - 1, spans[j].second - 1};
  }
}

void replace_at(std::string& target, std::vector<std::pair<size_t, size_t>>& spans, size_t at, size_t length,
                const std::string& text) {
  target.replace(at, length, text);
  const long delta = long(text.size()) - long(length);
  for (auto& s : spans)
    for (size_t* p : {&s.first, &s.second})
      if (*p >= at + length) *p = size_t(long(*p) + delta);
      else if (*p > at) *p = std::min(*p, at + text.size());
}

void insert_at(std::string& target, std::vector<std::pair<size_t, size_t>>& spans, size_t at, const std::string& text) {
  target.insert(at, text);
  for (auto& s : spans) {
    if (s.first >= at) s.first += text.size();
    if (s.second > at || (s.second == at && s.first > at)) s.second += text.size();
  }
}


bool has_no_words(std::string_view sentence) {
  for (size_t i = 0; i < sentence.size();) {
    const auto [cp, length] = decode_at(sentence, i);
    if (is_letter(cp) || is_cjk_ideograph(cp)) return false;
    i += length;
  }
  return true;
}

bool has_no_known_words(const std::vector<Token>& tokens, int unk_id) {
  for (const Token& t : tokens)
    if (t.id != unk_id && !has_no_words(t.piece)) return false;
  return true;
}

bool has_unknown(const std::vector<Token>& source_tokens, int unk_id) {
  return std::any_of(source_tokens.begin(), source_tokens.end(), [&](const Token& t) { return t.id == unk_id; });
}

namespace {

// Letters (and digits) of a word: ASCII ones and every byte of a multi-byte character.
bool word_byte(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u >= 0x80;
}

// The length of the character at byte i when it belongs to a word (an ASCII letter or digit, or a
// multi-byte character but a space: "20\u00A0°C" is two words, the no-break space no letter of
// either), else 0.
size_t word_character_at(std::string_view text, size_t i) {
  if (static_cast<unsigned char>(text[i]) < 0x80) return word_byte(text[i]) ? 1 : 0;
  const auto [cp, length] = decode_at(text, i);
  return is_whitespace(cp) ? 0 : length;
}

// Where the word that ends at byte `end` of `text` begins (`end` when no word character is before it).
size_t word_start_before(std::string_view text, size_t end) {
  while (end > 0) {
    size_t start = end - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    if (word_character_at(text, start) != end - start) break;
    end = start;
  }
  return end;
}

// Where the word that starts at byte `begin` of `text` ends.
size_t word_end_after(std::string_view text, size_t begin) {
  for (size_t length; begin < text.size() && (length = word_character_at(text, begin)) > 0;) begin += length;
  return begin;
}

}  // namespace

// An unknown piece the model wrote inside a word of a name whose letter its training data lacked
// ("Ky" <unk> "to" for "Kyoto": the data had "Kyōto"), with no unknown run of the source to copy:
// the source word that reads like the target word around it, with 1-3 characters in the unknown
// piece's place, gives those characters ("o"); one that reads exactly so first ("República", not
// "Republic", for "Rep" <unk> "blica"). Empty when no source word does.
std::string letters_from_source(const std::string& source, const std::string& target, size_t b, size_t e) {
  const size_t l = word_start_before(target, b);  // the letters just before it (none after a space: it starts a word)
  const size_t r = word_end_after(target, e);       // and just after it (none before a space: the word ends with it)
  const std::string left = target.substr(l, b - l), right = target.substr(e, r - e);
  if (left.empty() && right.empty()) return "";
  // first a word that is exactly left + 1-3 characters + right, then one where more follows the
  // right part (the model goes on with another unknown piece: "T" <unk> "ky" <unk>)
  for (const bool exact : {true, false}) {
    for (size_t i = 0; i < source.size();) {
      if (word_character_at(source, i) == 0) {
        i += decode_at(source, i).length;
        continue;
      }
      const size_t j = word_end_after(source, i);
      const std::string_view word(source.data() + i, j - i);
      i = j;
      if (word.size() <= left.size() || word.compare(0, left.size(), left) != 0) continue;
      const std::string_view rest = word.substr(left.size());
      for (size_t x = 1; x <= 4 && x <= rest.size(); ++x) {
        const std::string_view after = rest.substr(x);
        const bool fits = exact ? after == right
                                : !right.empty() && after.size() > right.size() && after.compare(0, right.size(), right) == 0;
        if (!fits) continue;
        const std::string_view fill = rest.substr(0, x);
        size_t k = 0;  // whole characters only, at most three
        int chars = 0;
        while (k < fill.size()) {
          const unsigned char c = static_cast<unsigned char>(fill[k]);
          k += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
          ++chars;
        }
        const unsigned char next = x < rest.size() ? static_cast<unsigned char>(rest[x]) : 0;
        if (k == fill.size() && chars <= 3 && !(next >= 0x80 && next < 0xC0)) return std::string(fill);
      }
    }
  }
  return "";
}

void pass_through_unknown(const std::string& source, const std::vector<Token>& source_tokens, int unk_id,
                          const std::vector<int>& target_ids, const std::vector<float>& attention,
                          std::string& target, std::vector<std::pair<size_t, size_t>>& spans, size_t fixed_bytes,
                          const std::vector<std::pair<size_t, size_t>>& dropped, const Rewrites& rewrites,
                          bool signs_by_amount) {
  // what a run is written as: its source text, or what `rewrites` says for it (a date)
  const auto run_text = [&](const UnknownRun& run) {
    for (const auto& [begin, text] : rewrites)
      if (begin == run.begin) return text;
    return source.substr(run.begin, run.end - run.begin);
  };
  std::vector<UnknownRun> runs = unknown_runs(source, source_tokens, unk_id, rewrites);
  add_dropped_runs(runs, source_tokens, dropped, source.size());
  const size_t cols = source_tokens.size() + 1;  // + eos
  const size_t rows = target_ids.size();
  const bool have_attention = attention.size() >= rows * cols && rows > 0;
  const std::vector<float> att = have_attention ? attention : std::vector<float>{};
  // A forced prefix is kept verbatim and may already carry runs (the page forces the translation so
  // far, emoji and all): each run it holds, in source order, is used.
  // (in any letter case: a term the capitals pass writes in capitals, given in a prefix as written)
  const std::string fixed = to_lower_same_length(std::string_view(target.data(), std::min(fixed_bytes, target.size())));
  for (size_t r = 0, from = 0; r < runs.size() && from < fixed.size(); ++r) {
    const std::string text = to_lower_same_length(run_text(runs[r]));
    const size_t at = fixed.find(text, from);
    if (at == std::string_view::npos) continue;
    runs[r].used = true;
    from = at + text.size();
  }

  // A currency sign that is not to be written counts as used: no unknown piece takes it, no step
  // inserts it (nor does unwritable_mark give it).
  std::vector<bool> marks_written(source_tokens.size(), false);
  for (UnknownRun& run : runs) {
    if (run.used || !currency_left_to_amount(source, run, target, signs_by_amount)) continue;
    run.used = true;
    for (size_t k = run.first; k <= run.last; ++k) marks_written[k] = true;
  }

  // 1. The model's own unknown pieces take the unused run they look at most (in source order
  //    without attention). The unknown surface " ⁇ " carries a space on each side: kept where
  //    it separates words.
  UnknownRun mark_run{};
  for (size_t t = 0; t < rows; ++t) {
    if (target_ids[t] != unk_id || spans[t].first < fixed_bytes) continue;
    {  // inside a word: the letters of the source word it reads as ("Ky" <unk> "to" -> "Kyoto",
       // "Erdo" <unk> "an" -> "Erdoğan", using up the run "ğ"); not another run the model looked at
      const auto [b, e] = spans[t];
      const bool inside = b > 0 && word_byte(target[b - 1]) && e < target.size() && word_byte(target[e]);
      const std::string fill = inside ? letters_from_source(source, target, b, e) : "";
      if (!fill.empty()) {
        for (UnknownRun& run : runs)
          if (!run.used && !run.dropped && run_text(run) == fill) {
            run.used = true;
            break;
          }
        replace_span(target, spans, t, fill);
        continue;
      }
    }
    size_t pick = 0;
    float best = -1e9f;
    for (size_t r = 0; r < runs.size(); ++r) {
      if (runs[r].dropped) continue;  // the model never saw these: no unknown piece of theirs
      const float a = have_attention ? attention_on(att, cols, t, runs[r].first, runs[r].last) : -float(r);
      if (!runs[r].used && a > best) best = a, pick = r;
    }
    if (best == -1e9f) {  // more unknown pieces than runs: the extra ones are filled from a source word
      const auto [b, e] = spans[t];  // ("Ky" <unk> "to" -> "Kyoto"), else dropped, not doubled
      const size_t inner_b = target.compare(b, 1, " ") == 0 ? b + 1 : b;  // the piece's surface " ⁇ "
      const size_t inner_e = e > inner_b && target[e - 1] == ' ' ? e - 1 : e;
      const std::string fill = inner_e > inner_b ? letters_from_source(source, target, b, e) : "";
      if (!fill.empty()) {
        replace_span(target, spans, t, fill);
        continue;
      }
      // a mark the source has as a known piece that the model can only write as the unknown one
      // ("«" of "«no»"): the source token it looks at most, when that is such a mark
      long mark = have_attention ? unwritable_mark(source, source_tokens, att, cols, t, target, marks_written) : -1;
      if (mark >= 0) {  // the "~" of "~$50" is the approximate pass's to place (not "50 ~ Dollar")
        UnknownRun tilde{size_t(mark), size_t(mark), source_tokens[size_t(mark)].begin, source_tokens[size_t(mark)].end};
        while (tilde.begin < tilde.end && is_ascii_space(source[tilde.begin])) ++tilde.begin;
        if (currency_left_to_amount(source, tilde, target, signs_by_amount)) mark = -1;
      }
      if (mark < 0) {
        replace_span(target, spans, t, b > 0 && e < target.size() && target[b - 1] != ' ' && target[e] != ' ' ? " " : "");
        // no space left before a final mark ("25 £ ." after the sign of "£25" went)
        const bool mark_follows = b + 1 < target.size() && target[b] == ' ' && std::strchr(".,;:!?", target[b + 1]) &&
                                  (b + 2 == target.size() || target[b + 2] == ' ');
        if (mark_follows && b > 0 && target[b - 1] != ' ') replace_at(target, spans, b, 1, "");
        const bool lone_space_before = t > 0 && spans[t - 1].first + 1 == b && spans[t - 1].second == b && target[b - 1] == ' ';
        if (lone_space_before && b < target.size() && target[b] == ' ') replace_span(target, spans, t - 1, "");
        continue;
      }
      marks_written[size_t(mark)] = true;
      mark_run = {size_t(mark), size_t(mark), source_tokens[size_t(mark)].begin, source_tokens[size_t(mark)].end};
      while (is_ascii_space(source[mark_run.begin])) ++mark_run.begin;  // "▁«"
    }
    // The run's spacing as the source has it, without doubling a space the target already has.
    const UnknownRun& run = best == -1e9f ? mark_run : runs[pick];
    const auto [b, e] = spans[t];
    char32_t after = 0;
    if (run.end < source.size()) decode_utf8(source, run.end, after);
    const bool space_before_run = run.begin == 0 || is_whitespace(character_before(source, run.begin));  // (a no-break one too)
    const bool space_after_run = is_whitespace(after);
    const bool lead = space_before_run && b > 0 && target[b - 1] != ' ';
    // after it: a space where the source has one, or where the unknown surface kept two words
    // apart, but never before punctuation, and never inside a source word: a letter the vocabulary
    // lacks, followed by the rest of its word ("Erdo" "ğ" "an": "Erdoğan", not "Erdoğ an")
    char32_t next = 0;
    if (e < target.size()) decode_utf8(target, e, next);
    const bool word_follows = is_letter(next) || is_digit(next) || is_cjk_ideograph(next) || is_emoji(next);
    const bool trail = word_follows && (space_after_run || (target[e - 1] == ' ' && !is_word_character(after)));
    replace_span(target, spans, t, (lead ? " " : "") + run_text(run) + (trail ? " " : ""));
    if (best != -1e9f) runs[pick].used = true;
  }

  // 1b. A run written as something else (a glossary term) that no unknown piece took goes where
  //     the model began an unknown piece and wrote something else: a lone "▁" that looks at the
  //     run more than at any other source token ("Nutzen Sie jetzt ▁." for "Use Acme Cloud now.":
  //     "Nutzen Sie jetzt Zeta Sky.", not by the translation of the word before it, "Nutzen Zeta
  //     Sky Sie jetzt.").
  for (size_t t = 0; have_attention && t < rows && t < spans.size(); ++t) {
    const auto [b, e] = spans[t];
    // (its space may be gone: drop_doubled_spaces takes it out before an unknown piece's " ⁇ ")
    const bool emptied = e == b && t + 1 < rows && target_ids[t + 1] == unk_id;
    if (b < fixed_bytes || !(emptied || (e == b + 1 && target[b] == ' '))) continue;
    const size_t looked_at = size_t(std::max(0L, most_attended(att, cols, t, cols)));
    for (UnknownRun& run : runs) {
      if (run.used || run.dropped || looked_at < run.first || looked_at > run.last) continue;
      if (std::none_of(rewrites.begin(), rewrites.end(), [&](const auto& r) { return r.first == run.begin; })) break;
      char32_t next = 0;
      if (e < target.size()) decode_utf8(target, e, next);
      const bool word_follows = is_letter(next) || is_digit(next) || is_cjk_ideograph(next) || is_emoji(next) || next == ' ';
      const bool space_before = b > 0 && target[b - 1] != ' ';
      replace_span(target, spans, t, (space_before ? " " : "") + run_text(run) + (word_follows && next != ' ' ? " " : ""));
      run.used = true;
      break;
    }
  }

  // 2. Runs the model left out go next to the translation of their neighbour word, when they are
  //    words of their own: a Latin letter inside a word ("ç" of "Barça") is the model's to spell (but
  //    "日本" of "I like日本" is not: latin_letters). Deleted
  //    characters never reached the model, so they go in wherever they stand. A quotation mark the
  //    vocabulary lacks (‘ « ‚) that the model wrote in a style of its own ("»maybe«" for "‘maybe’")
  //    is not written a second time: not while the target has as many quotation marks as the source.
  const bool quotes_all_there = count_quotation_marks(target) >= count_quotation_marks(source);
  for (UnknownRun& run : runs) {
    if (run.used || (!run.dropped && inside_word(source, run) &&
                     latin_letters(std::string_view(source).substr(run.begin, run.end - run.begin))))
      continue;
    if (!run.dropped && quotes_all_there && only_quotation_marks(std::string_view(source).substr(run.begin, run.end - run.begin)))
      continue;
    const std::string text = run_text(run);
    size_t at = target.size();
    bool before = false;
    if (run.prev >= 0) {  // after the target word aligned to the source token before the run
      const long t = best_target_for(att, rows, cols, size_t(run.prev));
      if (t >= 0) at = word_end(target, spans[size_t(t)].second > spans[size_t(t)].first ? spans[size_t(t)].second - 1 : spans[size_t(t)].first);
    } else if (run.next >= 0) {  // at the start: before the word aligned to the next one
      const long t = best_target_for(att, rows, cols, size_t(run.next));
      at = t >= 0 ? word_begin(target, spans[size_t(t)].first) : 0;
      if (t >= 0 && at < target.size() && target[at] == ' ') ++at;
      before = true;
    }
    if (!have_attention) {  // by position: at the same relative place
      at = run.prev < 0 ? 0 : target.size();
      before = run.prev < 0;
    }
    // after a word that ends in punctuation the run did not follow in the source ("crisis." for
    // "Krise 2007 Unterstützung"): before that punctuation, not after the sentence's full stop
    if (!before && !follows_punctuation(source, run.begin))
      while (at > 0 && at <= target.size() && std::strchr(".,;:!?", target[at - 1]) && at - 1 > word_begin(target, at - 1)) --at;
    at = std::min(std::max(at, fixed_bytes), target.size());
    // written against its word in the source ("brand™", "m²"): against the word's translation too
    const auto word_char_before = [](const std::string& t, size_t i) {
      if (i == 0) return false;
      size_t start = i - 1;
      while (start > 0 && (static_cast<unsigned char>(t[start]) & 0xC0) == 0x80) --start;
      char32_t cp = 0;
      decode_utf8(t, start, cp);
      return is_word_character(cp);
    };
    // a term the source quotes ("„Kündigungsfrist“ ist ein Wort.") for which the model wrote its
    // quotation marks as apostrophes and nothing between them ("''' is a word."): in the quotes
    const bool rewritten = std::any_of(rewrites.begin(), rewrites.end(), [&](const auto& r) { return r.first == run.begin; });
    if (rewritten && !before && quoted_in_source(source, run)) {
      size_t marks = at;
      while (marks > fixed_bytes && (target[marks - 1] == '\'' || target[marks - 1] == '"')) --marks;
      if (at - marks >= 2 && (marks == 0 || target[marks - 1] == ' ')) {
        replace_at(target, spans, marks, at - marks, "\"" + text + "\"");
        run.used = true;
        continue;
      }
    }
    const bool glued = !run.dropped && word_char_before(source, run.begin) && word_char_before(target, at);
    const std::string piece = before ? text + (at < target.size() ? " " : "") : (at > 0 && !glued ? " " : "") + text;
    insert_at(target, spans, at, piece);
    run.used = true;
  }

  // 3. A copied run that the source follows with a mark at once ("`npm test`.") is not set apart from
  //    it by the space the model wrote before its own mark ("dann `npm test` ."). Last first, so that
  //    each offset still holds.
  //    Runs with the same text ("\uFFFD!" three times) each take the next copy, never one twice:
  //    removing one space twice would cut into the character after it.
  std::vector<size_t> spaces;
  std::unordered_map<std::string, size_t> searched_to;  // per text: where its next copy is looked for
  for (const UnknownRun& run : runs) {
    if (run.end >= source.size() || !std::strchr(".,;:!?", source[run.end])) continue;
    const std::string text = source.substr(run.begin, run.end - run.begin) + " " + source[run.end];
    size_t& from = searched_to.emplace(text, fixed_bytes).first->second;
    const size_t at = target.find(text, from);
    if (at == std::string::npos) continue;
    spaces.push_back(at + text.size() - 2);
    from = at + text.size();
  }
  // A lone "▁" the model wrote before its final mark (it began an unknown piece there and left it
  // out: "jetzt ." for "now."): no space before the mark, where the source never writes one so.
  for (size_t t = 0; t + 1 < spans.size() && t < target_ids.size(); ++t) {
    const auto [b, e] = spans[t];
    if (b < fixed_bytes || e != b + 1 || target[b] != ' ' || spans[t + 1].first != e || e >= target.size()) continue;
    const char mark = target[e];
    const bool lone_mark = std::strchr(".,;:!?", mark) && (e + 1 == target.size() || target[e + 1] == ' ');
    if (lone_mark && b > 0 && target[b - 1] != ' ' && source.find(std::string(" ") + mark) == std::string::npos)
      spaces.push_back(b);
  }
  std::sort(spaces.rbegin(), spaces.rend());
  spaces.erase(std::unique(spaces.begin(), spaces.end()), spaces.end());
  for (size_t at : spaces)
    if (target[at] == ' ') replace_at(target, spans, at, 1, "");
}

bool is_invisible(char32_t cp) {
  return cp == 0x00AD || cp == 0x034F || cp == 0x061C || cp == 0x115F || cp == 0x1160 || cp == 0x17B4 || cp == 0x17B5 ||
         (cp >= 0x180B && cp <= 0x180F) || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2060 && cp <= 0x206F) || cp == 0x3164 || (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFEFF ||
         cp == 0xFFA0 || (cp >= 0xFFF0 && cp <= 0xFFF8) || (cp >= 0x1BCA0 && cp <= 0x1BCA3) ||
         (cp >= 0x1D173 && cp <= 0x1D17A) || (cp >= 0xE0000 && cp <= 0xE0FFF);
}

std::vector<std::pair<size_t, size_t>> dropped_runs(const std::string& source,
                                                    const std::function<bool(std::string_view)>& deleted) {
  std::vector<std::pair<size_t, size_t>> runs;
  std::unordered_map<char32_t, bool> asked;  // one question per distinct character
  bool open = false;  // the last run may still grow (only whitespace / invisible characters since)
  for (size_t i = 0; i < source.size();) {
    char32_t cp;
    const size_t length = decode_utf8(source, i, cp);
    bool lost = false;
    if (cp >= 0x80 && !is_whitespace(cp) && !is_control(cp) && !is_invisible(cp)) {
      auto it = asked.find(cp);
      if (it == asked.end()) it = asked.emplace(cp, deleted(std::string_view(source).substr(i, length))).first;
      lost = it->second;
    }
    if (lost) {
      if (open) runs.back().second = i + length;
      else runs.emplace_back(i, i + length);
      open = true;
    } else if (!(is_whitespace(cp) || is_invisible(cp))) {
      open = false;  // text the tokenizer writes: the run ends
    }
    i += length;
  }
  return runs;
}

}  // namespace nmt
