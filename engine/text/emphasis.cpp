// Markdown emphasis marks: found, blanked for the model, put back by the alignment (emphasis.h).
#include "text/emphasis.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>

#include "text/utf8.h"

namespace nmt {
namespace {

// The code point before byte `at` (0 at the start).
char32_t before(std::string_view text, size_t at) {
  if (at == 0) return 0;
  size_t start = at - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  char32_t cp;
  decode_utf8(text, start, cp);
  return cp;
}

char32_t after(std::string_view text, size_t at) { return at < text.size() ? decode_at(text, at).cp : 0; }

// A letter or digit touching a mark makes it part of a word ("2*3", "snake_case").
bool word_char(char32_t c) { return is_letter(c) || is_digit(c); }

struct Run {
  size_t begin, end;
  char c;
  bool can_open, can_close;
};

}  // namespace

std::vector<EmphasisMark> find_emphasis(std::string_view sentence, const std::vector<std::pair<size_t, size_t>>& skip) {
  // the runs that may open or close
  std::vector<Run> runs;
  size_t next_skip = 0;  // `skip` is sorted
  for (size_t i = 0; i < sentence.size();) {
    const char c = sentence[i];
    if (c != '*' && c != '_' && c != '~') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < sentence.size() && sentence[end] == c) ++end;
    while (next_skip < skip.size() && skip[next_skip].second <= i) ++next_skip;
    const bool skipped = next_skip < skip.size() && skip[next_skip].first < end;
    const size_t n = end - i;
    const bool length_ok = c == '~' ? n == 2 : n <= 3;
    if (!skipped && length_ok) {
      const char32_t b = before(sentence, i), a = after(sentence, end);
      // (as CommonMark's flanking runs, without emphasis inside a word)
      const bool can_open = !word_char(b) && a != 0 && !is_whitespace(a);
      const bool can_close = i > 0 && !is_whitespace(b) && !word_char(a);
      if (can_open || can_close) runs.push_back({i, end, c, can_open, can_close});
    }
    i = end;
  }
  // pair them: a closing run takes the nearest open run of the same marks on its line (one stack
  // per kind of run, so that each run is looked at once: linear on hostile input)
  std::vector<size_t> open[3][3];  // indices into runs, by mark ("*", "_", "~") and length - 1
  std::vector<bool> paired(runs.size(), false);
  std::vector<size_t> partner(runs.size(), 0);
  size_t scanned = 0;  // newlines are looked for once, between one run and the next
  for (size_t r = 0; r < runs.size(); ++r) {
    const Run& run = runs[r];
    if (sentence.substr(scanned, run.begin - scanned).find('\n') != std::string_view::npos)
      for (auto& by_length : open)  // pairs stay on one line
        for (auto& stack : by_length) stack.clear();
    scanned = run.begin;
    std::vector<size_t>& stack = open[run.c == '*' ? 0 : run.c == '_' ? 1 : 2][run.end - run.begin - 1];
    bool closed = false;
    if (run.can_close && !stack.empty()) {
      const Run& o = runs[stack.back()];
      const std::string_view inside = sentence.substr(o.end, run.begin - o.end);
      if (inside.find_first_not_of(" \t") != std::string_view::npos) {
        paired[stack.back()] = paired[r] = true;
        partner[stack.back()] = r;
        partner[r] = stack.back();
        stack.pop_back();
        closed = true;
      }
    }
    if (!closed && run.can_open) stack.push_back(r);
  }
  std::vector<EmphasisMark> marks;
  const size_t first_visible = sentence.find_first_not_of(" \t\r\n");
  const size_t last_visible = sentence.find_last_not_of(" \t\r\n");
  for (size_t r = 0; r < runs.size(); ++r) {
    const Run& run = runs[r];
    EmphasisMark m;
    m.begin = run.begin;
    m.end = run.end;
    if (paired[r]) {
      const Run& p = runs[partner[r]];
      m.opens = p.begin > run.begin;
      m.marks_begin = m.opens ? run.end : p.end;
      m.marks_end = m.opens ? p.begin : run.begin;
    } else if (run.can_open && run.begin == first_visible && run.end < sentence.size()) {
      m.opens = true;  // opens a sentence whose partner is in a later one
      m.marks_begin = run.end;
      m.marks_end = sentence.size();
    } else if (run.can_close && last_visible != std::string_view::npos && run.end == last_visible + 1) {
      m.opens = false;  // closes one opened in an earlier sentence
      m.marks_begin = 0;
      m.marks_end = run.begin;
    } else {
      continue;  // a lone "*" inside a sentence: the model's
    }
    marks.push_back(m);
  }
  return marks;
}

std::string blank_marks(std::string_view text, const std::vector<EmphasisMark>& marks, char fill) {
  std::string out(text);
  for (const EmphasisMark& m : marks)
    for (size_t k = m.begin; k < m.end && k < out.size(); ++k) out[k] = fill;
  return out;
}

namespace {

std::string_view text_of(std::string_view text, const Span& w) { return text.substr(w.begin, w.end - w.begin); }

bool is_function_word(std::string_view w) {  // articles and prepositions, English and German
  static const char* const kWords[] = {"the", "a", "an", "of", "to", "in", "on", "at", "for", "with", "by", "from",
                                       "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem",
                                       "einer", "eines", "auf", "im", "zu", "zum", "zur", "mit", "von", "vom", "für",
                                       "über", "bei", "nach", "aus", "um"};
  std::string lower(w);
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  return std::any_of(std::begin(kWords), std::end(kWords), [&](const char* k) { return lower == k; });
}

// Target words [first, last] for source words [s0, s1); first == nt when none is found.
struct Range {
  size_t first, last;
};

// The marked text as the translation has it, once, as a whole word (a name, a number, code copied
// over): its words. The attention may stray to a neighbour ("*Sie max_value*").
Range copied_words(std::string_view source, std::string_view target, const WordAlignment& a, size_t s0, size_t s1) {
  const size_t nt = a.target_words.size();
  const std::string_view text = source.substr(a.source_words[s0].begin, a.source_words[s1 - 1].end - a.source_words[s0].begin);
  if (!word_char(decode_at(text, 0).cp)) return {nt, 0};
  const auto bounded = [&](size_t at) {  // no letter, digit or "_" joins it to a neighbour
    const char32_t b = before(target, at), c = after(target, at + text.size());
    return !word_char(b) && b != '_' && !word_char(c) && c != '_';
  };
  size_t found = std::string_view::npos, times = 0;
  for (size_t at = target.find(text); at != std::string_view::npos && times < 2; at = target.find(text, at + 1))
    if (bounded(at)) found = at, ++times;
  if (times != 1) return {nt, 0};
  Range r{nt, 0};
  bool ends = false;
  for (size_t t = 0; t < nt; ++t) {
    if (a.target_words[t].begin == found) r.first = t;
    if (a.target_words[t].end == found + text.size()) r.last = t, ends = true;
  }
  return r.first < nt && ends && r.last >= r.first ? r : Range{nt, 0};
}

// The target words the alignment links to the marked words, from the first to the last.
Range linked_words(const std::vector<size_t>& first_link, const std::vector<size_t>& last_link, size_t nt, size_t s0,
                   size_t s1) {
  Range r{nt, 0};
  for (size_t s = s0; s < s1; ++s)
    if (first_link[s] < nt) {
      r.first = std::min(r.first, first_link[s]);
      r.last = std::max(r.last, last_link[s]);
    }
  return r;
}

// An article or preposition the translation needs at the edge of the marked words is not theirs,
// unless the source marked one ("Click **Save**" -> "Klicken Sie auf **Speichern**").
void drop_function_words(std::string_view source, std::string_view target, const WordAlignment& a, size_t s0, size_t s1,
                         Range& r) {
  const auto& tw = a.target_words;
  if (!is_function_word(text_of(source, a.source_words[s0])))
    while (r.first < r.last && is_function_word(text_of(target, tw[r.first]))) ++r.first;
  if (!is_function_word(text_of(source, a.source_words[s1 - 1])))
    while (r.last > r.first && is_function_word(text_of(target, tw[r.last]))) --r.last;
}

// Punctuation the marks hold, where the translation has it right beside the words ("*42%*").
void take_punctuation(std::string_view source, std::string_view target, const WordAlignment& a, size_t s0, size_t s1,
                      Range& r) {
  const auto& tw = a.target_words;
  const std::string_view last_source = text_of(source, a.source_words[s1 - 1]), first_source = text_of(source, a.source_words[s0]);
  if (r.last + 1 < tw.size() && !word_char(decode_at(last_source, 0).cp) && text_of(target, tw[r.last + 1]) == last_source &&
      tw[r.last + 1].begin == tw[r.last].end)
    ++r.last;
  if (r.first > 0 && !word_char(decode_at(first_source, 0).cp) && text_of(target, tw[r.first - 1]) == first_source &&
      tw[r.first - 1].end == tw[r.first].begin)
    --r.first;
}

}  // namespace

std::vector<std::pair<size_t, std::string>> place_emphasis(std::string_view source, const std::vector<EmphasisMark>& marks,
                                                           const WordAlignment& alignment, std::string_view target,
                                                           size_t fixed) {
  struct Placed {
    size_t at;
    bool opens;
    size_t order;
    std::string text;
  };
  std::vector<Placed> placed;
  const auto& words = alignment.source_words;
  const size_t ns = words.size(), nt = alignment.target_words.size();
  // per source word, the first and last target word linked to it (nt: none)
  std::vector<size_t> first_link(ns, nt), last_link(ns, 0);
  for (auto [t, s] : alignment.links)
    if (s >= 0 && size_t(s) < ns && t >= 0 && size_t(t) < nt) {
      first_link[size_t(s)] = std::min(first_link[size_t(s)], size_t(t));
      last_link[size_t(s)] = std::max(last_link[size_t(s)], size_t(t));
    }
  // per target word, the running sum of its attention over the source words (made when first needed)
  std::vector<float> running;
  const bool soft = alignment.matrix.size() == nt * ns && ns > 0;
  for (size_t k = 0; k < marks.size(); ++k) {
    const EmphasisMark& m = marks[k];
    // the source words it marks: those inside [marks_begin, marks_end) (the marks themselves are
    // words too, with no tokens, so nothing links to them)
    const size_t s0 = size_t(std::lower_bound(words.begin(), words.end(), m.marks_begin,
                                              [](const Span& w, size_t at) { return w.begin < at; }) - words.begin());
    size_t s1 = s0;
    while (s1 < ns && words[s1].end <= m.marks_end) ++s1;
    Range r{nt, 0};
    if (s1 > s0) {
      r = copied_words(source, target, alignment, s0, s1);
      if (r.first == nt) {
        r = linked_words(first_link, last_link, nt, s0, s1);
        if (r.first == nt && soft) {  // no target word linked: the one that attends to them most
          if (running.empty()) {
            running.assign(nt * (ns + 1), 0.0f);
            for (size_t t = 0; t < nt; ++t)
              for (size_t s = 0; s < ns; ++s)
                running[t * (ns + 1) + s + 1] = running[t * (ns + 1) + s] + alignment.matrix[t * ns + s];
          }
          float best = 0.0f;
          for (size_t t = 0; t < nt; ++t) {
            const float w = running[t * (ns + 1) + s1] - running[t * (ns + 1) + s0];
            if (w > best) best = w, r = {t, t};
          }
        }
        if (r.first < nt) drop_function_words(source, target, alignment, s0, s1, r);
      }
      if (r.first < nt) take_punctuation(source, target, alignment, s0, s1, r);
    }
    size_t at;
    if (r.first == nt)  // no attention: at the ends
      at = m.opens ? std::min(fixed, target.size()) : target.size();
    else
      at = m.opens ? alignment.target_words[r.first].begin : alignment.target_words[r.last].end;
    if (at < fixed || at > target.size()) continue;
    placed.push_back({at, m.opens, k, std::string(source.substr(m.begin, m.end - m.begin))});
  }
  // by position; at one position closing marks first, then opening ones, each in source order
  std::stable_sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
    if (a.at != b.at) return a.at < b.at;
    if (a.opens != b.opens) return !a.opens;
    return a.order < b.order;
  });
  std::vector<std::pair<size_t, std::string>> out;
  for (Placed& p : placed) out.emplace_back(p.at, std::move(p.text));
  return out;
}

}  // namespace nmt
