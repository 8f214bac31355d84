// Next-word alternatives as translate() would write them; see alternative_text.h.
#include "alternative_text.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace nmt {

// What the unknown pieces of the unit stand for (addresses, emoji: their source text), in order,
// less those the prefix already holds: what a continuation's unknown pieces are filled with.
std::vector<std::string> unused_runs(const Unit& u, int unk_id, std::string_view prefix) {
  std::vector<std::string> runs;
  size_t from = 0;
  for (const Token& t : u.tokens) {
    if (t.id != unk_id) continue;
    std::string run = t.piece;
    for (const auto& [begin, written] : u.rewrites)  // a glossary term: its target term
      if (begin >= t.begin && begin < t.end) run = written;
    run.erase(0, run.find_first_not_of(' '));
    if (run.empty()) continue;
    const size_t at = prefix.find(run, from);
    if (at != std::string_view::npos) {
      from = at + run.size();
      continue;
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

// The spaces the decoder writes on both sides of an unknown piece (" ⁇ "), once it is filled: none
// at the start of the translation, none doubled with the continuation's, none before punctuation
// or at the end (" Notice period " + " is" was offered for a glossary term).
namespace {

void trim_filled_spaces(Alternative& a, const std::string& prefix) {
  const auto closes = [](char c) { return std::strchr(".,;:!?)", c) != nullptr; };
  if (prefix.empty() || std::isspace(static_cast<unsigned char>(prefix.back())))
    a.word.erase(0, a.word.find_first_not_of(' ') == std::string::npos ? a.word.size() : a.word.find_first_not_of(' '));
  while (!a.word.empty() && a.word.back() == ' ' &&
         (a.continuation.empty() || a.continuation[0] == ' ' || closes(a.continuation[0])))
    a.word.pop_back();
  while (!a.continuation.empty() && a.continuation.back() == ' ') a.continuation.pop_back();
}

}  // namespace

// An alternative's unknown pieces (" ⁇ ") as the text they stand for, in order; with none left, one
// inside a word as the letters of the source word that reads so ("Ky ⁇ to" -> "Kyoto",
// text/pass_through.h letters_from_source), else dropped; the doubled spaces that leaves behind
// collapsed: the menu must never offer "⁇", nor a continuation that lost an address.
void fill_unknown(Alternative& a, const std::vector<std::string>& runs, const std::string& source, const std::string& prefix) {
  static const std::string kUnknown = "\xE2\x81\x87";  // U+2047, the decoded unknown piece
  const bool filled = (a.word + a.continuation).find(kUnknown) != std::string::npos;
  size_t next = 0;
  for (std::string* s : {&a.word, &a.continuation}) {
    if (s->find(kUnknown) == std::string::npos) continue;
    const std::string before = prefix + (s == &a.continuation ? a.word : "");  // the text before *s
    std::string out;
    for (size_t i = 0; i < s->size();) {
      if (s->compare(i, kUnknown.size(), kUnknown) == 0) {
        std::string letters;
        if (next >= runs.size()) {  // its surface " ⁇ " as a span of the whole text
          const std::string text = before + out + s->substr(i) + (s == &a.word ? a.continuation : "");
          const size_t at = before.size() + out.size();
          const size_t b = !out.empty() && out.back() == ' ' ? at - 1 : at;
          const size_t e = i + kUnknown.size() < s->size() && (*s)[i + kUnknown.size()] == ' ' ? at + kUnknown.size() + 1
                                                                                               : at + kUnknown.size();
          letters = letters_from_source(source, text, b, e);
        }
        if (!letters.empty()) {  // "Ky" + "o" + "to": no space on either side
          if (!out.empty() && out.back() == ' ') out.pop_back();
          out += letters;
          i += kUnknown.size();
          if (i < s->size() && (*s)[i] == ' ') ++i;
          continue;
        }
        if (next < runs.size()) out += runs[next++];
        i += kUnknown.size();
        // the unknown piece's own space before punctuation: "name@example.org ." -> "name@example.org."
        if (i + 1 < s->size() && (*s)[i] == ' ' && std::strchr(".,;:!?)", (*s)[i + 1])) ++i;
        continue;
      }
      if ((*s)[i] == ' ' && !out.empty() && out.back() == ' ') {
        ++i;
        continue;
      }
      out += (*s)[i++];
    }
    *s = std::move(out);
  }
  if (filled) trim_filled_spaces(a, prefix);
}

// The one next word of a copied sentence after its first `at` bytes (the spaces before it and the
// characters up to the next space), sure, with the rest as its continuation; none at its end.
std::vector<Alternative> copied_next_word(const std::string& sentence, size_t at) {
  size_t end = at;
  while (end < sentence.size() && std::isspace(static_cast<unsigned char>(sentence[end]))) ++end;
  while (end < sentence.size() && !std::isspace(static_cast<unsigned char>(sentence[end]))) ++end;
  if (end == at) return {};
  return {Alternative{sentence.substr(at, end - at), 1.0f, sentence.substr(end)}};
}

// An alternative as translate() would write it after the prefix: the target passes run over the
// prefix, word and continuation as one text (text/passes.h; those that place text by the attention
// have none to read here: fill_unknown has copied what the unknown pieces stand for), and never
// touch the prefix. The word and its continuation are kept apart as two spans of that text.
void rewrite_alternative(Alternative& a, const std::string& prefix, bool prefixed, const std::string& source,
                         bool in_capitals, const Languages& languages, const PassSwitches& switches) {
  TargetSentence t;
  t.source = source;
  t.from = languages.from;
  t.to = languages.to;
  t.target = prefix + a.word + a.continuation;
  const size_t word_end = prefix.size() + a.word.size();
  t.spans = {{0, prefix.size()}, {prefix.size(), word_end}, {word_end, t.target.size()}};
  t.fixed = prefix.size();
  t.prefixed = prefixed;
  t.in_capitals = in_capitals;
  run_target_passes(t, switches);
  a.word = t.target.substr(t.spans[1].first, t.spans[1].second - t.spans[1].first);
  a.continuation = t.target.substr(t.spans[1].second);
}

// Alternatives that read the same (two spellings written in capitals, an unknown piece filled) are
// one word: its probabilities added, the first one's continuation kept.
std::vector<Alternative> merge_same_words(std::vector<Alternative> words) {
  std::vector<Alternative> out;
  for (Alternative& a : words) {
    const bool empty = a.word.find_first_not_of(' ') == std::string::npos;
    auto same = std::find_if(out.begin(), out.end(), [&](const Alternative& b) { return b.word == a.word; });
    if (same != out.end()) same->probability += a.probability;
    else if (!empty) out.push_back(std::move(a));
  }
  std::stable_sort(out.begin(), out.end(), [](const Alternative& x, const Alternative& y) { return x.probability > y.probability; });
  return out;
}

}  // namespace nmt
