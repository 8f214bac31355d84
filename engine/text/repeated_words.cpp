// Words the model wrote twice (repeated_words.h).
#include "text/repeated_words.h"

#include <algorithm>

#include "text/utf8.h"

namespace nmt {
namespace {

struct Word {
  size_t begin, end;  // bytes
  size_t letters;
};

// The runs of letters of `text` with their byte ranges and lengths in characters.
std::vector<Word> letter_runs(std::string_view text) {
  std::vector<Word> words;
  bool inside = false;
  for (size_t i = 0; i < text.size();) {
    const auto [cp, length] = decode_at(text, i);
    const bool letter = is_letter(cp) || is_mark(cp);
    if (letter && !inside) words.push_back({i, i, 0});
    if (letter) {
      words.back().end = i + length;
      ++words.back().letters;
    }
    inside = letter;
    i += length;
  }
  return words;
}

// Whether word b comes right after word a, one space between them, and reads the same.
bool repeats(std::string_view text, const Word& a, const Word& b) {
  return b.begin == a.end + 1 && text[a.end] == ' ' && text.substr(a.begin, a.end - a.begin) == text.substr(b.begin, b.end - b.begin);
}

// Whether the word at `w` stands alone: no digit, hyphen or apostrophe joined to it ("19-19" is no
// repetition of a word, nor "Baden-Baden").
bool whole(std::string_view text, const Word& w) {
  auto joined = [](char c) { return (c >= '0' && c <= '9') || c == '-' || c == '\'' || c == '_'; };
  return (w.begin == 0 || !joined(text[w.begin - 1])) && (w.end == text.size() || !joined(text[w.end]));
}

}  // namespace

std::vector<TextEdit> repeated_words(std::string_view source, std::string_view target, size_t fixed) {
  const std::vector<Word> source_words = letter_runs(source);
  for (size_t k = 1; k < source_words.size(); ++k)
    if (repeats(source, source_words[k - 1], source_words[k])) return {};  // meant, perhaps
  const std::vector<Word> words = letter_runs(target);
  std::vector<TextEdit> edits;
  for (size_t k = 0; k + 1 < words.size();) {
    const Word& first = words[k];
    size_t last = k;
    while (last + 1 < words.size() && repeats(target, words[last], words[last + 1]) && whole(target, words[last + 1])) ++last;
    const std::string_view word = target.substr(first.begin, first.end - first.begin);
    if (last > k && first.letters >= 4 && whole(target, first) && word != "that" && word != "That" &&
        first.end >= fixed)
      edits.push_back({first.end, words[last].end - first.end, ""});  // " Ende Ende" after the first
    k = last + 1;
  }
  std::reverse(edits.begin(), edits.end());
  return edits;
}

}  // namespace nmt
