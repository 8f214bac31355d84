// See no_break_spaces.h.
#include "text/no_break_spaces.h"

#include <algorithm>
#include <string>

#include "text/passes.h"
#include "text/utf8.h"

namespace nmt {
namespace {

// The no-break space that alone separates two source words (punctuation beside it allowed:
// "Mr." + U+00A0 + "Smith"), or an empty view when the gap holds any other space, a letter or a digit.
std::string_view no_break_gap(std::string_view source, Span before, Span after) {
  if (before.end > after.begin || after.begin > source.size()) return {};
  std::string_view kept;
  for (size_t i = before.end; i < after.begin;) {
    const auto [cp, length] = decode_at(source, i);
    if (is_no_break_space(cp) && kept.empty()) kept = source.substr(i, length);
    else if (is_whitespace(cp) || is_letter(cp) || is_digit(cp) || is_no_break_space(cp)) return {};
    i += length;
  }
  return kept;
}

std::string_view text_of(std::string_view text, Span s) { return text.substr(s.begin, s.end - s.begin); }

}  // namespace

bool is_no_break_space(char32_t cp) { return cp == 0x00A0 || cp == 0x202F || cp == 0x2007; }

bool has_no_break_space(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const auto [cp, length] = decode_at(text, i);
    if (is_no_break_space(cp)) return true;
    i += length;
  }
  return false;
}

std::vector<TextEdit> no_break_spaces(std::string_view source, std::string_view target, const WordAlignment& words,
                                      size_t fixed) {
  const std::vector<Span>& sw = words.source_words;
  const std::vector<Span>& tw = words.target_words;
  std::vector<std::vector<size_t>> linked(tw.size());  // each target word's source words
  for (auto [t, i] : words.links)
    if (t >= 0 && i >= 0 && size_t(t) < tw.size() && size_t(i) < sw.size()) linked[size_t(t)].push_back(size_t(i));
  const auto as_written = [&](size_t t, size_t i) { return text_of(target, tw[t]) == text_of(source, sw[i]); };
  std::vector<TextEdit> edits;
  for (size_t k = 0; k + 1 < tw.size(); ++k) {
    const size_t space = tw[k].end;
    if (space < fixed || tw[k + 1].begin != space + 1 || target[space] != ' ') continue;
    std::string_view written;
    if (words.links.empty()) {  // no attention: only two words both written as in the source ("10 km")
      for (size_t i = 0; i < sw.size() && written.empty(); ++i)
        for (size_t j = i + 1; j < sw.size() && j <= i + 3 && written.empty(); ++j)
          if (as_written(k, i) && as_written(k + 1, j)) written = no_break_gap(source, sw[i], sw[j]);
    }
    for (size_t i : linked[k])
      for (size_t j : linked[k + 1])
        if (j > i && written.empty() && (as_written(k, i) || as_written(k + 1, j))) written = no_break_gap(source, sw[i], sw[j]);
    if (!written.empty()) edits.push_back(TextEdit{space, 1, std::string(written)});
  }
  std::reverse(edits.begin(), edits.end());  // (applied last first)
  return edits;
}

void keep_no_break_spaces(TargetSentence& s) {
  const DecodedSentence* d = s.decoded;
  if (!d) return;
  if (!has_no_break_space(s.source)) return;
  const AttentionSpans spans = attention_spans(s);
  if (spans.target.empty() || !spans.attended) {  // (not kept: the words as written)
    apply_edits(s, no_break_spaces(s.source, s.target, WordAlignment{find_words(s.source), find_words(s.target), {}, {}}, s.fixed));
    return;
  }
  // (the rows of the steps that wrote each token, as emphasis_marks reads them)
  const WordAlignment words = align_words(s.source, spans.source, s.target, spans.target, d->attention.data(),
                                          int(spans.target.size()), int(spans.source.size()));
  apply_edits(s, no_break_spaces(s.source, s.target, words, s.fixed));
}

}  // namespace nmt
