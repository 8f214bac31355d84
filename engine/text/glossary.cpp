// The user's glossary; see glossary.h.
#include "text/glossary.h"

#include <algorithm>

#include "text/casing.h"
#include "text/utf8.h"

namespace nmt {
namespace {

// Whether a word goes on across byte `at` of `text` from the left (a letter or digit before it).
bool word_before(std::string_view text, size_t at) {
  if (at == 0) return false;
  size_t start = at - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  const char32_t cp = decode_at(text, start).cp;
  return is_letter(cp) || is_digit(cp) || is_mark(cp);
}

bool word_after(std::string_view text, size_t at) {
  if (at >= text.size()) return false;
  const char32_t cp = decode_at(text, at).cp;
  return is_letter(cp) || is_digit(cp) || is_mark(cp);
}

// Whether `text` (valid UTF-8) holds a control character (C0 with tab and line breaks, DEL, C1).
bool has_control(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    const auto c = decode_at(text, at);
    if (is_control(c.cp)) return true;
    at += std::max<size_t>(c.length, 1);
  }
  return false;
}

// `term` without the spaces around it (" invoice " is the term "invoice": it was never found).
std::string_view trimmed(std::string_view term) {
  while (!term.empty()) {
    const auto first = decode_at(term, 0);
    if (!is_whitespace(first.cp)) break;
    term.remove_prefix(std::max<size_t>(first.length, 1));
  }
  while (!term.empty()) {
    size_t start = term.size() - 1;
    while (start > 0 && (static_cast<unsigned char>(term[start]) & 0xC0) == 0x80) --start;
    if (!is_whitespace(decode_at(term, start).cp)) break;
    term.remove_suffix(term.size() - start);
  }
  return term;
}

std::string quoted(const std::string& term) {
  return "\"" + (term.size() > 40 ? term.substr(0, 40) + "..." : term) + "\"";
}

}  // namespace

std::string glossary_error(const Glossary& glossary) {
  if (glossary.size() > kMaxGlossaryTerms)
    return "the glossary has " + std::to_string(glossary.size()) + " terms; at most " + std::to_string(kMaxGlossaryTerms);
  for (const auto& [source, target] : glossary) {
    if (source.size() < 2) return "the glossary's source term " + quoted(source) + " is shorter than 2 bytes";
    if (target.empty()) return "the glossary's term " + quoted(source) + " has an empty target term";
    if (source.size() > kMaxGlossaryTermBytes || target.size() > kMaxGlossaryTermBytes)
      return "the glossary's term " + quoted(source) + " is longer than " + std::to_string(kMaxGlossaryTermBytes) + " bytes";
    if (!is_valid_utf8(source) || !is_valid_utf8(target)) return "the glossary's term " + quoted(source) + " is not valid UTF-8";
    if (source.find_first_not_of(" \t\n\r") == std::string::npos) return "the glossary has a source term of spaces only";
    // (the spaces around a term are no part of it)
    if (trimmed(source).size() < 2) return "the glossary's source term " + quoted(source) + " is shorter than 2 bytes";
    if (trimmed(target).empty()) return "the glossary's term " + quoted(source) + " has an empty target term";
    // (written into the translation as they are: a NUL or a line break in it, or a source term
    // never found, as the input's control characters are read as spaces)
    if (has_control(source) || has_control(target))
      return "the glossary's term " + quoted(source) + " has a control character (a tab, line break or other)";
  }
  return "";
}

std::vector<TextEdit> find_terms(std::string_view sentence, const Glossary& glossary,
                                 const std::vector<std::pair<size_t, size_t>>& skip) {
  std::vector<TextEdit> found;
  if (glossary.empty()) return found;
  const std::string lower = to_lower_same_length(sentence);  // (the same length: offsets hold)
  for (const auto& [given_source, given_target] : glossary) {
    const std::string_view source = trimmed(given_source), target = trimmed(given_target);
    if (source.size() < 2 || target.empty()) continue;
    const std::string term = to_lower_same_length(source);
    for (size_t at = lower.find(term); at != std::string::npos; at = lower.find(term, at + 1)) {
      const size_t end = at + term.size();
      if (word_before(sentence, at) || word_after(sentence, end)) continue;
      if (std::any_of(skip.begin(), skip.end(), [&](const auto& s) { return at < s.second && end > s.first; })) continue;
      // a term that ends in the sentence's full stop ("Acme Inc." at the end) leaves that stop to
      // the model when the target term has none ("Acme GmbH"): else the sentence lost it
      const bool ends_sentence = sentence.find_first_not_of(" \t\r\n", end) == std::string_view::npos;
      const bool stop_left = ends_sentence && term.back() == '.' && term.size() > 1 && !target.empty() && target.back() != '.';
      found.push_back({at, term.size() - (stop_left ? 1 : 0), std::string(target)});
    }
  }
  // longest first, then leftmost; a match that overlaps one taken is dropped
  std::stable_sort(found.begin(), found.end(), [](const TextEdit& a, const TextEdit& b) {
    return a.length != b.length ? a.length > b.length : a.at < b.at;
  });
  std::vector<TextEdit> taken;
  for (TextEdit& m : found)
    if (std::none_of(taken.begin(), taken.end(), [&](const TextEdit& t) { return m.at < t.at + t.length && t.at < m.at + m.length; }))
      taken.push_back(std::move(m));
  std::sort(taken.begin(), taken.end(), [](const TextEdit& a, const TextEdit& b) { return a.at < b.at; });
  return taken;
}

}  // namespace nmt
