// The user's glossary; see glossary.h.
#include "text/glossary.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>

#include "text/casing.h"
#include "text/format_characters.h"
#include "text/gender_forms.h"
#include "text/utf8.h"

namespace nmt {
namespace {

// Whether `cp` joins on to the character before it: a skin tone, a variation selector, a keycap
// ("👍🏽" is one emoji: its "👍" no term), or the joiner inside an emoji sequence.
bool joins_emoji(char32_t cp) {
  return (cp >= 0x1F3FB && cp <= 0x1F3FF) || cp == 0xFE0F || cp == 0xFE0E || cp == 0x20E3 || cp == 0x200D;
}

// Whether a word goes on across byte `at` of `text` from the left (a letter or digit before it).
bool word_before(std::string_view text, size_t at) {
  if (at == 0) return false;
  size_t start = at - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  const char32_t cp = decode_at(text, start).cp;
  return is_letter(cp) || is_digit(cp) || is_mark(cp) || cp == 0x200D;
}

bool word_after(std::string_view text, size_t at) {
  if (at >= text.size()) return false;
  const char32_t cp = decode_at(text, at).cp;
  return is_letter(cp) || is_digit(cp) || is_mark(cp) || joins_emoji(cp);
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


// Letters with an accent, as a combining accent after its base letter makes them (the NFD
// "e\u0301" is "é"): for each accent, its base letters and the letters they make, in lower case.
struct Composition {
  char32_t accent;
  const char* bases;
  const char* composed;
};
constexpr Composition kCompositions[] = {
    {0x300, "aeiou", "àèìòù"},   {0x301, "aeiouyclnrsz", "áéíóúýćĺńŕśź"}, {0x302, "aeioucghjswy", "âêîôûĉĝĥĵŝŵŷ"},
    {0x303, "anoiu", "ãñõĩũ"},   {0x304, "aeiou", "āēīōū"},               {0x306, "aegiou", "ăĕğĭŏŭ"},
    {0x307, "cegz", "ċėġż"},     {0x308, "aeiouy", "äëïöüÿ"},             {0x30A, "au", "åů"},
    {0x30B, "ou", "őű"},         {0x30C, "cdelnrstz", "čďěľňřšťž"},       {0x327, "cgklnrst", "çģķļņŗşţ"},
    {0x328, "aeiu", "ąęįų"},
};

// `base` (a lower-case letter) with `accent` on it, or 0 where no letter of Latin-1 or Latin
// Extended-A is that.
char32_t composed(char32_t base, char32_t accent) {
  for (const Composition& c : kCompositions) {
    if (c.accent != accent) continue;
    const std::string_view bases = c.bases, letters = c.composed;
    const size_t k = base < 0x80 ? bases.find(static_cast<char>(base)) : std::string_view::npos;
    if (k == std::string_view::npos) return 0;
    size_t at = 0;
    for (size_t before = 0; before < k; ++before) at += decode_at(letters, at).length;
    return decode_at(letters, at).cp;
  }
  return 0;
}

// One character of a sentence or a term as terms are matched: in lower case, an accent composed
// with its letter, a typographic apostrophe or hyphen as ' or -, a run of spaces as one ' ';
// `upper`: written as a capital; [begin, end): its bytes.
struct FoldedChar {
  char32_t cp;
  bool upper;
  size_t begin, end;
};

std::vector<FoldedChar> folded(std::string_view text) {
  const std::string lower = to_lower_same_length(text);  // (the same length: offsets hold)
  // a soft hyphen or zero-width space inside a word, which the model does not read either
  // ("in\u00ADvoice" is "invoice"), goes with the character before it
  const std::string read = without_format_characters(text);
  std::vector<FoldedChar> out;
  for (size_t at = 0; at < text.size();) {
    const Decoded given = decode_at(text, at);
    const size_t end = at + std::max<size_t>(given.length, 1);
    if (read[at] == '\x01' && text[at] != '\x01') {
      if (!out.empty()) out.back().end = end;
      at = end;
      continue;
    }
    char32_t cp = decode_at(lower, at).cp;
    bool upper = given.cp != cp;
    if (cp == 0x1E9E) cp = 0xDF, upper = true;  // capital ß
    if (cp == 0x2019 || cp == 0x2018 || cp == 0x02BC) cp = '\'';
    if (cp == 0x2010 || cp == 0x2011) cp = '-';
    const char32_t accented = is_mark(cp) && !out.empty() ? composed(out.back().cp, cp) : 0;
    if (accented) {
      out.back().cp = accented;
      out.back().end = end;
    } else if (is_whitespace(cp) && !out.empty() && out.back().cp == ' ') {
      out.back().end = end;
    } else {
      out.push_back({is_whitespace(cp) ? U' ' : cp, upper, at, end});
    }
    at = end;
  }
  return out;
}

// For each character of `term` (folded from `source`): whether the sentence must write it as a
// capital too: the letters of a word the term writes in capitals ("IT", "US": else "it" and "us"
// were found).
std::vector<bool> capitals_required(const std::vector<FoldedChar>& term) {
  std::vector<bool> required(term.size(), false);
  for (size_t start = 0; start < term.size();) {
    const auto in_word = [&](size_t i) { return is_letter(term[i].cp) || is_digit(term[i].cp); };
    if (!in_word(start)) {
      ++start;
      continue;
    }
    size_t end = start, letters = 0, capitals = 0;
    for (; end < term.size() && in_word(end); ++end) {
      letters += is_letter(term[end].cp);
      capitals += term[end].upper;
    }
    if (letters >= 2 && capitals == letters)
      for (size_t i = start; i < end; ++i) required[i] = term[i].upper;
    start = end;
  }
  return required;
}

// Whether the word before byte `at` joins on with a hyphen ("Basketball-Saison", "e-mail"): the
// term would be the end of a word ("basketballseason" was written).
bool joined_by_hyphen(std::string_view text, size_t at) {
  if (at == 0) return false;
  size_t start = at - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  const char32_t cp = decode_at(text, start).cp;
  return (cp == '-' || cp == 0x2010 || cp == 0x2011) && word_before(text, start);
}
// Whether every letter and digit of `sentence` is one of a term's (`terms`: sorted).
bool only_terms(std::string_view sentence, const std::vector<TextEdit>& terms) {
  auto term = terms.begin();
  for (size_t at = 0; at < sentence.size();) {
    while (term != terms.end() && term->at + term->length <= at) ++term;
    if (term != terms.end() && term->at <= at) {
      at = term->at + term->length;
      continue;
    }
    const Decoded c = decode_at(sentence, at);
    if (is_letter(c.cp) || is_digit(c.cp) || is_cjk_ideograph(c.cp)) return false;
    at += std::max<size_t>(c.length, 1);
  }
  return true;
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

// The glossary's terms, each folded once, sorted by their folded characters: the terms that start
// with the same characters are neighbours, so those that start at a place of the sentence are found
// by narrowing one range character by character, as in a tree of the terms.
struct GlossaryIndex::Terms {
  struct Term {
    std::u32string chars;         // folded
    std::vector<size_t> capitals;  // which of `chars` the sentence must write as capitals
    std::string source, target;    // trimmed, as given
    size_t order;                  // its place in the glossary
  };
  std::vector<Term> terms;
};

GlossaryIndex::GlossaryIndex(const Glossary& glossary) {
  auto index = std::make_shared<Terms>();
  std::set<std::pair<std::string_view, bool>> seen;  // (a term given twice finds nothing more)
  for (size_t order = 0; order < glossary.size(); ++order) {
    const std::string_view source = trimmed(glossary[order].first), target = trimmed(glossary[order].second);
    if (source.size() < 2 || target.empty() || !seen.insert({source, target.back() == '.'}).second) continue;
    const std::vector<FoldedChar> term = folded(source);
    if (term.empty() || term[0].cp == U'\u00DF') continue;  // (no word starts with ß)
    Terms::Term t{{}, {}, std::string(source), std::string(target), order};
    const std::vector<bool> capitals = capitals_required(term);
    for (size_t k = 0; k < term.size(); ++k) {
      t.chars.push_back(term[k].cp);
      if (capitals[k]) t.capitals.push_back(k);
    }
    index->terms.push_back(std::move(t));
  }
  std::sort(index->terms.begin(), index->terms.end(), [](const Terms::Term& a, const Terms::Term& b) {
    return a.chars != b.chars ? a.chars < b.chars : a.order < b.order;
  });
  index_ = std::move(index);
}

std::vector<TextEdit> GlossaryIndex::find(std::string_view sentence, const std::vector<std::pair<size_t, size_t>>& skip) const {
  const std::vector<Terms::Term>& terms = index_->terms;
  if (terms.empty()) return {};
  const std::vector<FoldedChar> text = folded(sentence);
  // where a gender sign joins "in" or "innen" on ("Mitarbeiter*innen": "employees* inside" was
  // written): '\x01' there
  const std::string gender_signs =
      sentence.find_first_of("*_:/") == std::string_view::npos ? std::string() : read_gender_forms(sentence);
  std::vector<size_t> skipped_before(sentence.size() + 1, 0);  // skipped bytes before each byte
  {
    std::vector<int> opened(sentence.size() + 1, 0);
    for (const auto& [b, e] : skip)
      if (b < e && b < sentence.size()) ++opened[b], --opened[std::min(e, sentence.size())];
    int open = 0;
    for (size_t i = 0; i < sentence.size(); ++i) {
      open += opened[i];
      skipped_before[i + 1] = skipped_before[i] + (open > 0);
    }
  }
  struct Match {
    size_t at, length;
    bool exact;  // the sentence writes the term exactly as the glossary does
    const Terms::Term* term;
  };
  std::vector<Match> matches;
  constexpr size_t kTwoCharacters = static_cast<size_t>(-1);  // a term's ß matched by "SS"
  std::vector<size_t> path;  // the character of `text` that matched each of the term's so far
  size_t first = 0, at = 0;
  const auto add = [&](const Terms::Term& term, size_t last) {
    for (size_t k : term.capitals)
      if (path[k] != kTwoCharacters && !text[path[k]].upper) return;
    const size_t end = text[last - 1].end;
    if (word_after(sentence, end) || (end < gender_signs.size() && gender_signs[end] == '\x01')) return;
    if (end < sentence.size() && (sentence[end] == '(' || sentence[end] == '=')) return;  // "invoice()", "invoice=1": code
    if (skipped_before[end] != skipped_before[at]) return;
    // a term that ends in the sentence's full stop ("Acme Inc." at the end) leaves that stop to
    // the model when the target term has none ("Acme GmbH"): else the sentence lost it
    const bool ends_sentence = sentence.find_first_not_of(" \t\r\n", end) == std::string_view::npos;
    const bool stop_left = ends_sentence && sentence[end - 1] == '.' && end - at > 1 && term.target.back() != '.';
    matches.push_back({at, end - at - (stop_left ? 1 : 0), sentence.substr(at, end - at) == term.source, &term});
  };
  // terms[lo, hi) all start with the term characters matched so far (`path`); `next`: the sentence's
  // next character
  const std::function<void(size_t, size_t, size_t)> walk = [&](size_t lo, size_t hi, size_t next) {
    const size_t depth = path.size();
    for (; lo < hi && terms[lo].chars.size() == depth; ++lo) add(terms[lo], next);  // (shorter ones sort first)
    if (lo == hi || next >= text.size()) return;
    const auto narrowed = [&](char32_t cp) {
      const auto below = [&](const Terms::Term& t, char32_t c) { return t.chars[depth] < c; };
      const auto above = [&](char32_t c, const Terms::Term& t) { return c < t.chars[depth]; };
      const auto b = std::lower_bound(terms.begin() + long(lo), terms.begin() + long(hi), cp, below);
      const auto e = std::upper_bound(b, terms.begin() + long(hi), cp, above);
      return std::make_pair(size_t(b - terms.begin()), size_t(e - terms.begin()));
    };
    if (const auto [b, e] = narrowed(text[next].cp); b < e) {
      path.push_back(next);
      walk(b, e, next + 1);
      path.pop_back();
    }
    const bool two_capital_s = text[next].cp == 's' && text[next].upper && next + 1 < text.size() &&
                               text[next + 1].cp == 's' && text[next + 1].upper;
    if (const auto [b, e] = two_capital_s ? narrowed(U'\u00DF') : std::make_pair(lo, lo); b < e) {
      path.push_back(kTwoCharacters);
      walk(b, e, next + 2);
      path.pop_back();
    }
  };
  for (first = 0; first < text.size(); ++first) {
    at = text[first].begin;
    if (word_before(sentence, at) || joined_by_hyphen(sentence, at)) continue;
    if (at >= 2 && sentence.compare(at - 2, 2, "--") == 0) continue;  // "--invoice": an option of a command
    walk(0, terms.size(), first);
  }
  // longest first, then leftmost, then the term the sentence writes exactly ("Apple" over "apple"
  // for "Apple"), then the glossary's order; a match that overlaps one taken is dropped
  std::sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) {
    if (a.length != b.length) return a.length > b.length;
    if (a.at != b.at) return a.at < b.at;
    if (a.exact != b.exact) return a.exact;
    return a.term->order < b.term->order;
  });
  std::map<size_t, size_t> taken;  // start -> end of each match taken (none overlap)
  std::vector<TextEdit> found;
  for (const Match& m : matches) {
    const auto after = taken.lower_bound(m.at);
    if (after != taken.end() && after->first < m.at + m.length) continue;
    if (after != taken.begin() && std::prev(after)->second > m.at) continue;
    taken.emplace(m.at, m.at + m.length);
    found.push_back(TextEdit{m.at, m.length, m.term->target});
  }
  std::sort(found.begin(), found.end(), [](const TextEdit& a, const TextEdit& b) { return a.at < b.at; });
  // a sentence of terms only is copied, not translated, so no pass gives its translation the
  // capital it starts with ("Kündigungsfrist!" -> "notice period!")
  if (!found.empty() && only_terms(sentence, found))
    for (const TextEdit& capital : capitalized_start(sentence, found[0].text))
      found[0].text.replace(capital.at, capital.length, capital.text);
  return found;
}

std::shared_ptr<const GlossaryIndex> glossary_index(const Glossary& glossary) {
  thread_local Glossary last_glossary;
  thread_local std::shared_ptr<const GlossaryIndex> last_index;
  if (glossary.empty()) {  // (and a large one given before is let go)
    last_glossary.clear();
    last_index.reset();
    return nullptr;
  }
  if (!last_index || last_glossary != glossary) {
    last_glossary = glossary;
    last_index = std::make_shared<const GlossaryIndex>(last_glossary);
  }
  return last_index;
}

std::vector<TextEdit> find_terms(std::string_view sentence, const Glossary& glossary,
                                 const std::vector<std::pair<size_t, size_t>>& skip) {
  const std::shared_ptr<const GlossaryIndex> index = glossary_index(glossary);
  return index ? index->find(sentence, skip) : std::vector<TextEdit>{};
}

}  // namespace nmt
