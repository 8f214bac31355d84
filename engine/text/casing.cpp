// Sentence case detection and recasing (casing.h).
#include "text/casing.h"

#include <algorithm>
#include <iterator>

#include "text/utf8.h"
#include "text/verbatim.h"

namespace nmt {
namespace {

// The lower case of `c` where it has one of the same UTF-8 length, else `c`.
char32_t lower_of(char32_t c) {
  if (c < 0x80) return c >= 'A' && c <= 'Z' ? c + 32 : c;
  if (c >= 0xC0 && c <= 0xDE) return c == 0xD7 ? c : c + 32;  // Latin-1, not ×
  if (c >= 0x100 && c <= 0x17F) {                             // Latin Extended-A: pairs
    if (c == 0x130 || c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17F) return c;  // İ ı ĸ ŉ ſ
    if (c == 0x178) return 0xFF;                                                     // Ÿ
    const bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    return (c % 2 == 1) == odd_upper ? c + 1 : c;
  }
  if (c >= 0x391 && c <= 0x3A9) return c == 0x3A2 ? c : c + 32;  // Greek
  if (c == 0x386) return 0x3AC;
  if (c >= 0x388 && c <= 0x38A) return c + 37;
  if (c == 0x38C) return 0x3CC;
  if (c == 0x38E || c == 0x38F) return c + 63;
  if (c >= 0x410 && c <= 0x42F) return c + 32;  // Cyrillic
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  return c;
}

// The upper case of `c` where it has one of the same UTF-8 length, else `c` (ß, µ stay).
char32_t upper_of(char32_t c) {
  if (c < 0x80) return c >= 'a' && c <= 'z' ? c - 32 : c;
  if (c >= 0xE0 && c <= 0xFE) return c == 0xF7 ? c : c - 32;  // not ÷
  if (c == 0xFF) return 0x178;
  if (c >= 0x100 && c <= 0x17F) {
    if (c == 0x130 || c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17F) return c;
    const bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    return (c % 2 == 1) != odd_upper ? c - 1 : c;
  }
  if (c >= 0x3B1 && c <= 0x3C9) return c == 0x3C2 ? 0x3A3 : c - 32;  // final sigma -> Σ
  if (c == 0x3AC) return 0x386;
  if (c >= 0x3AD && c <= 0x3AF) return c - 37;
  if (c == 0x3CC) return 0x38C;
  if (c == 0x3CD || c == 0x3CE) return c - 63;
  if (c >= 0x430 && c <= 0x44F) return c - 32;
  if (c >= 0x450 && c <= 0x45F) return c - 80;
  return c;
}

bool is_upper_letter(char32_t c) { return lower_of(c) != c; }
bool is_lower_letter(char32_t c) { return upper_of(c) != c; }

// `text` with every character mapped by `f`; the mappings keep each character's UTF-8 length.
template <class F>
std::string map_chars(std::string_view text, F f) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const Decoded d = decode_at(text, i);
    if (d.cp == 0xFFFD) {
      out.append(text.substr(i, d.length));  // invalid bytes stay as they are
    } else {
      append_utf8(out, f(d.cp));
    }
    i += d.length;
  }
  return out;
}

bool is_word_char(char32_t c) { return is_letter(c) || is_digit(c) || is_mark(c); }

// A word of the sentence and what its letters are.
struct Word {
  size_t begin = 0, end = 0;  // bytes
  int chars = 0, letters = 0, digits = 0, upper = 0, lower = 0;
  bool first_upper = false, rest_upper = false;
  bool in_capitals() const { return upper > 0 && lower == 0; }
  bool capitalized() const { return first_upper && !rest_upper && lower > 0; }
};

std::vector<Word> words_of(std::string_view s) {
  std::vector<Word> words;
  for (size_t i = 0; i < s.size();) {
    Decoded d = decode_at(s, i);
    if (!is_word_char(d.cp)) {
      i += d.length;
      continue;
    }
    Word w;
    w.begin = i;
    for (; i < s.size() && is_word_char((d = decode_at(s, i)).cp); i += d.length) {
      const bool up = is_upper_letter(d.cp);
      if (w.chars == 0) w.first_upper = up;
      else w.rest_upper |= up;
      ++w.chars;
      w.letters += is_letter(d.cp);
      w.digits += is_digit(d.cp);
      w.upper += up;
      w.lower += is_lower_letter(d.cp);
    }
    w.end = i;
    words.push_back(w);
  }
  return words;
}

// At least 3 in 4 of the characters that are not spaces are letters: words people wrote, not code or
// markup ("<img src=x onerror=alert(1)>" is all lower case too).
bool prose_like(std::string_view s) {
  size_t letters = 0, visible = 0;
  for (size_t i = 0; i < s.size();) {
    const Decoded d = decode_at(s, i);
    i += d.length;
    if (is_whitespace(d.cp)) continue;
    ++visible;
    letters += is_letter(d.cp);
  }
  return letters * 4 >= visible * 3;
}

}  // namespace

std::string to_lower_same_length(std::string_view text) { return map_chars(text, lower_of); }
std::string to_upper_same_length(std::string_view text) {
  // ß in capitals is SS, the same two bytes ("STRAßE" was written)
  std::string upper = map_chars(text, upper_of);
  for (size_t at = upper.find("\xC3\x9F"); at != std::string::npos; at = upper.find("\xC3\x9F", at + 2)) upper.replace(at, 2, "SS");
  return upper;
}

std::vector<TextEdit> capitalized_start(std::string_view source, std::string_view target) {
  // the first letter or digit, past quotes, brackets and other punctuation; its byte offset
  auto first_word_char = [](std::string_view text, char32_t& cp) {
    for (size_t i = 0; i < text.size();) {
      const Decoded d = decode_at(text, i);
      if (is_letter(d.cp) || is_digit(d.cp)) {
        cp = d.cp;
        return i;
      }
      i += d.length;
    }
    return text.size();
  };
  char32_t s = 0, t = 0;
  first_word_char(source, s);
  const size_t at = first_word_char(target, t);
  if (!is_upper(s) || at == target.size() || !is_letter(t) || is_upper(t)) return {};
  size_t end = at;  // the first word: every letter of it in lower case
  while (end < target.size()) {
    const Decoded d = decode_at(target, end);
    if (!is_letter(d.cp) && !is_mark(d.cp)) break;
    if (is_upper(d.cp)) return {};
    end += d.length;
  }
  const size_t length = decode_at(target, at).length;
  const std::string capital = to_upper_same_length(target.substr(at, length));
  if (capital == target.substr(at, length)) return {};  // a letter without a capital of its length
  return {TextEdit{at, length, capital}};
}

std::vector<TextEdit> continued_start(std::string_view source, std::string_view target, std::string_view target_language) {
  // German words that are never capitalized inside a sentence
  static constexpr std::string_view kGermanSmallWords[] = {
      "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines", "kein", "keine",
      "ich", "du", "er", "sie", "es", "wir", "ihr", "man", "mich", "mir", "dich", "dir", "uns", "euch", "ihn", "ihm",
      "ihnen", "sich", "mein", "meine", "dein", "deine", "sein", "seine", "unser", "unsere", "dieser", "diese", "dieses",
      "und", "oder", "aber", "denn", "sondern", "doch", "dass", "weil", "wenn", "als", "ob", "obwohl", "damit", "sowie",
      "in", "im", "an", "am", "auf", "aus", "bei", "beim", "mit", "nach", "von", "vom", "zu", "zum", "zur", "für",
      "über", "unter", "vor", "hinter", "neben", "zwischen", "durch", "gegen", "ohne", "um", "bis", "seit", "während",
      "dann", "also", "auch", "noch", "nur", "schon", "sehr", "so", "wie", "was", "wer", "wo", "deshalb", "daher",
      "darum", "jedoch", "trotzdem", "sonst", "nicht", "nie", "hier", "dort", "da", "jetzt", "heute"};
  const Word* first_source = nullptr;
  const std::vector<Word> source_words = words_of(source);
  if (!source_words.empty()) first_source = &source_words[0];
  if (!first_source || !is_lower_letter(decode_at(source, first_source->begin).cp)) return {};
  const std::vector<Word> target_words = words_of(target);
  if (target_words.empty()) return {};
  const Word& w = target_words[0];
  if (!w.capitalized()) return {};  // already small, in capitals, a capital inside ("iPhone"), a digit first
  const std::string_view word = target.substr(w.begin, w.end - w.begin);
  const std::string lower = to_lower_same_length(word);
  if (target_language == "de") {
    if (std::find(std::begin(kGermanSmallWords), std::end(kGermanSmallWords), lower) == std::end(kGermanSmallWords))
      return {};
  } else {
    if (word == "I") return {};
    for (const Word& s : source_words)
      if (source.substr(s.begin, s.end - s.begin) == word) return {};  // a name, as the source writes it
  }
  const size_t length = decode_at(target, w.begin).length;
  return {TextEdit{w.begin, length, lower.substr(0, length)}};
}

std::vector<TextEdit> names_as_written(std::string_view source, std::string_view target, size_t fixed) {
  std::vector<std::string> names;  // the source's words with a capital inside and a small letter
  for (const Word& w : words_of(source))
    if (w.rest_upper && w.lower > 0) names.emplace_back(source.substr(w.begin, w.end - w.begin));
  std::vector<TextEdit> edits;
  if (names.empty()) return edits;
  for (const Word& w : words_of(target)) {
    if (w.begin < fixed) continue;
    const std::string_view word = target.substr(w.begin, w.end - w.begin);
    const std::string lower = to_lower_same_length(word);
    for (const std::string& name : names)
      if (name.size() == word.size() && name != word && to_lower_same_length(name) == lower) {
        edits.push_back(TextEdit{w.begin, w.end - w.begin, name});
        break;
      }
  }
  std::reverse(edits.begin(), edits.end());
  return edits;
}

std::vector<TextEdit> cut_names(std::string_view source, const std::vector<Token>& source_tokens, std::string_view target,
                                const std::vector<std::pair<size_t, size_t>>& target_spans, size_t fixed) {
  const std::vector<Word> target_words = words_of(target);
  const auto text_of = [](std::string_view text, const Word& w) { return text.substr(w.begin, w.end - w.begin); };
  const auto has_word = [&](const std::string& word) {
    return std::any_of(target_words.begin(), target_words.end(),
                       [&](const Word& w) { return to_upper_same_length(text_of(target, w)) == word; });
  };
  const auto chars_in = [](std::string_view text) {
    size_t n = 0;
    for (size_t i = 0; i < text.size(); i += decode_at(text, i).length) ++n;
    return n;
  };
  static constexpr std::string_view kEndings[] = {"E", "EN", "ER", "ES", "EM", "N", "S", "ED", "D", "ST"};
  std::vector<TextEdit> edits;
  std::vector<bool> used(target_words.size(), false);
  for (const Word& name : words_of(source)) {
    if (!name.in_capitals() || name.letters < 4) continue;
    const std::string word = to_upper_same_length(text_of(source, name));
    if (has_word(word)) continue;
    // the pieces the model read for it, without the word-start mark; none where one crosses its edges
    std::vector<std::string> pieces;
    for (const Token& t : source_tokens) {
      if (t.end <= name.begin || t.begin >= name.end) continue;
      if (t.begin + 1 < name.begin || t.end > name.end) {
        pieces.clear();
        break;
      }
      std::string_view piece = t.piece;
      if (piece.substr(0, 3) == "\xE2\x96\x81") piece.remove_prefix(3);
      pieces.emplace_back(piece);
    }
    std::string read;
    for (const std::string& p : pieces) read += p;
    if (read.size() != word.size()) continue;
    bool inner_capital = false;  // "SQLite": a name or an acronym
    for (size_t i = decode_at(read, 0).length; i < read.size(); i += decode_at(read, i).length)
      inner_capital = inner_capital || is_upper_letter(decode_at(read, i).cp);
    for (size_t k = 0; k < target_words.size(); ++k) {
      const Word& w = target_words[k];
      const std::string cut = to_upper_same_length(text_of(target, w));
      if (used[k] || w.begin < fixed || cut.size() >= word.size() || word.compare(0, cut.size(), cut) != 0) continue;
      const size_t kept = chars_in(cut), left = chars_in(word) - kept;
      if (kept < 3 || kept < left || left > 3) continue;
      // the target word is the name's first pieces: its tokens end where those pieces end
      std::vector<size_t> piece_ends, token_ends;
      for (size_t length = 0, p = 0; p + 1 < pieces.size() && length < cut.size(); ++p) piece_ends.push_back(length += pieces[p].size());
      for (const auto& [b, e] : target_spans)
        if (e > w.begin && e <= w.end) token_ends.push_back(e - w.begin);
      std::sort(token_ends.begin(), token_ends.end());
      const bool first_pieces = !piece_ends.empty() && piece_ends == token_ends;
      const std::string_view rest = std::string_view(word).substr(cut.size());
      const bool an_ending = std::find(std::begin(kEndings), std::end(kEndings), rest) != std::end(kEndings);
      const bool doubled = rest.size() == 1 && rest[0] == cut.back();  // "Stopp" -> "Stop", "Programm" -> "Program"
      if (!inner_capital && !(first_pieces && left <= 2 && !an_ending && !doubled)) continue;
      used[k] = true;
      edits.push_back(TextEdit{w.end, 0, std::string(text_of(source, name).substr(cut.size()))});
      break;
    }
  }
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.at > b.at; });
  return edits;
}

SentenceCase sentence_case(std::string_view sentence, std::string_view language) {
  // small words a heading in Title Case capitalizes, a name seldom ("Contact Us", "Sign In", "Terms Of Service")
  static constexpr std::string_view kSmallWords[] = {"us", "in", "of", "up", "out", "on", "off", "to", "the", "and",
                                                     "or", "for", "at", "by", "with", "from", "it", "me", "now"};
  int counted = 0, in_capitals = 0, long_words = 0, long_capitalized = 0, upper = 0, capitalized = 0;
  bool small_word_capitalized = false;  // after the first word
  Word capitals_word;
  // words of addresses and code are copied, not read: "USE THE max_retries SETTING" is in capitals
  const std::vector<std::pair<size_t, size_t>> copied = verbatim_spans(sentence);
  size_t next_copied = 0;
  for (const Word& w : words_of(sentence)) {
    while (next_copied < copied.size() && copied[next_copied].second <= w.begin) ++next_copied;
    if (next_copied < copied.size() && copied[next_copied].first < w.end) continue;
    upper += w.upper;
    if (w.letters < 2) continue;
    if (w.capitalized()) {
      ++capitalized;
      const std::string word = to_lower_same_length(sentence.substr(w.begin, w.end - w.begin));
      small_word_capitalized |= counted > 0 && std::find(std::begin(kSmallWords), std::end(kSmallWords), word) != std::end(kSmallWords);
    }
    ++counted;
    in_capitals += w.in_capitals();
    if (w.in_capitals()) capitals_word = w;
    if (w.chars >= 4) {
      ++long_words;
      long_capitalized += w.capitalized() || w.in_capitals();
    }
  }
  if (in_capitals >= 2 && in_capitals * 4 >= counted * 3) return SentenceCase::upper;
  // one word in capitals, of 4 letters or more and with a vowel: no abbreviation ("HTML", "USA"),
  // a word ("ACHTUNG!" came out "NOTING!", "SETTINGS" "ZEICHEN", "NEWS" "NEWENN", "KING" "ZEICHEN");
  // one the word list writes in capitals ("NASA") is read so (Truecaser::recase)
  if (counted == 1 && in_capitals == 1 && capitals_word.letters >= 4 &&
      sentence.substr(capitals_word.begin, capitals_word.end - capitals_word.begin).find_first_of("AEIOUY") != std::string_view::npos)
    return SentenceCase::upper;
  if (language == "en" && counted >= 4 && long_words >= 3 && long_capitalized == long_words) return SentenceCase::title;
  // a heading or a button of 2 or 3 words, a small word capitalized too: "Contact Us" came out "Kontakt Us"
  if (language == "en" && counted >= 2 && counted <= 3 && capitalized == counted && small_word_capitalized)
    return SentenceCase::title;
  if (upper == 0 && counted >= 1 && prose_like(sentence)) return counted >= 3 ? SentenceCase::lower : SentenceCase::fragment;
  return SentenceCase::normal;
}

Result<Truecaser> Truecaser::from(const ModelFile& file, const std::string& language) {
  const TensorView* t = file.find("truecase." + language);
  if (!t) return Truecaser{};
  if (t->dtype != DType::u8 || t->shape.size() != 1)
    return Error{"model file's truecase." + language + " is not a u8 list of words"};
  return from_list(std::string_view(reinterpret_cast<const char*>(t->data), t->bytes));
}

Truecaser Truecaser::from_list(std::string_view lines) {
  Truecaser tc;
  for (size_t start = 0; start < lines.size();) {
    size_t end = lines.find('\n', start);
    if (end == std::string_view::npos) end = lines.size();
    const std::string_view form = lines.substr(start, end - start);
    start = end + 1;
    if (form.empty() || !is_valid_utf8(form)) continue;
    std::string key = to_lower_same_length(form);
    if (key.size() != form.size()) continue;
    const size_t space = form.find(' ');
    if (space == std::string_view::npos) {
      tc.forms_.emplace(std::move(key), std::string(form));
    } else if (space > 0 && space + 1 < form.size() && form.find(' ', space + 1) == std::string_view::npos) {
      tc.pairs_.emplace(std::move(key), std::string(form));  // two words: "New York"
    }
  }
  return tc;
}

namespace {

// Whether the text from the whitespace before `word` to the whitespace after it, less the quotes,
// brackets, emphasis marks and punctuation around it, is a word (letters, digits, hyphens and
// apostrophes): not a path, a file or an address the word is part of ("~/.bashrc", ".gitignore",
// "example.com"), which is copied as written.
bool plain_word_at(std::string_view sentence, const Word& word) {
  const auto opening = [](char32_t c) {
    return std::u32string_view(U"\"'([{*\u201C\u201E\u2018\u201A\u00AB\u00BB\u00BF\u00A1").find(c) != std::u32string_view::npos;
  };
  const auto closing = [](char32_t c) {
    return std::u32string_view(U"\"')]}*.,;:!?\u201C\u201D\u2018\u2019\u00AB\u00BB").find(c) != std::u32string_view::npos;
  };
  const auto char_before = [&](size_t i) {  // the first byte of the character that ends at i
    do --i;
    while (i > 0 && (static_cast<unsigned char>(sentence[i]) & 0xC0) == 0x80);
    return i;
  };
  size_t b = word.begin, e = word.end;
  while (b > 0 && !is_whitespace(decode_at(sentence, char_before(b)).cp)) b = char_before(b);
  while (e < sentence.size() && !is_whitespace(decode_at(sentence, e).cp)) e += decode_at(sentence, e).length;
  while (b < word.begin && opening(decode_at(sentence, b).cp)) b += decode_at(sentence, b).length;
  while (e > word.end && closing(decode_at(sentence, char_before(e)).cp)) e = char_before(e);
  for (size_t i = b; i < e;) {
    const Decoded d = decode_at(sentence, i);
    if (!is_word_char(d.cp) && d.cp != '-' && d.cp != '\'' && d.cp != 0x2019) return false;
    i += d.length;
  }
  return true;
}

}  // namespace

std::string Truecaser::recase(std::string_view sentence, SentenceCase how) const {
  std::string out(sentence);
  if (how == SentenceCase::normal) return out;
  const std::vector<Word> words = words_of(sentence);
  // codes in capitals are read as written: a formula ("H2O" came out "HA2O", "CO2", "MP3", "H2SO4": a
  // letter first, a digit, runs of at most 2 letters, the last of 1; not "60TH", "1970S", "A1GP")
  // and an abbreviation's variant ("USB-C", read "USB-c", came out "USB")
  const std::vector<std::pair<size_t, size_t>> codes = variant_codes(sentence, {});
  const auto formula = [&](const Word& w) {
    if (w.digits == 0 || !is_letter(decode_at(sentence, w.begin).cp)) return false;
    size_t run = 0;
    for (size_t i = w.begin; i < w.end; i += decode_at(sentence, i).length) {
      run = is_letter(decode_at(sentence, i).cp) ? run + 1 : 0;
      if (run > 2) return false;
    }
    return run <= 1;
  };
  const auto in_a_code = [&](const Word& w) {
    return formula(w) || std::any_of(codes.begin(), codes.end(), [&](auto c) { return c.first <= w.begin && w.end <= c.second; });
  };
  std::vector<std::string> lower(words.size());  // the words to recase, in lower case ("" = keep)
  for (size_t i = 0; i < words.size(); ++i) {
    const Word& w = words[i];
    const bool recase_it = how == SentenceCase::upper   ? w.in_capitals() && !in_a_code(w)
                           : how == SentenceCase::title ? w.capitalized() || (w.chars == 1 && w.first_upper)
                                                        : w.upper == 0 && w.lower > 0;
    if (recase_it) lower[i] = to_lower_same_length(sentence.substr(w.begin, w.end - w.begin));
  }
  // the sentence's first word starts it with a capital; "2 girls" does not
  // (a fragment of one word keeps its small letter: "cat", not the name "Cat")
  const bool one_word = sentence.find_first_of(" \t\n") == std::string_view::npos;
  const bool capitalize_first = !(how == SentenceCase::fragment && one_word) && !words.empty() && !lower[0].empty() &&
                                is_letter(decode_at(sentence, words[0].begin).cp) && plain_word_at(sentence, words[0]);
  // Two recased words one space apart: their pair's form first (with the word before, then with the
  // word after: "dass sie", "New York"), else the word's own.
  auto pair = [&](size_t a) -> const std::string* {  // words a and a + 1
    if (a + 1 >= words.size() || lower[a].empty() || lower[a + 1].empty() || words[a].end + 1 != words[a + 1].begin ||
        sentence[words[a].end] != ' ')
      return nullptr;
    const auto it = pairs_.find(lower[a] + ' ' + lower[a + 1]);
    return it != pairs_.end() ? &it->second : nullptr;
  };
  for (size_t i = 0; i < words.size(); ++i) {
    if (lower[i].empty()) continue;
    std::string form;
    if (const std::string* p = i > 0 ? pair(i - 1) : nullptr) {
      form = p->substr(lower[i - 1].size() + 1);
    } else if (const std::string* q = pair(i)) {
      form = q->substr(0, lower[i].size());
    } else {
      const auto it = forms_.find(lower[i]);
      form = it != forms_.end() ? it->second : lower[i];
    }
    out.replace(words[i].begin, words[i].end - words[i].begin, form);
  }
  if (capitalize_first) {  // its first letter (after any quote or bracket before the word)
    for (size_t i = 0; i < out.size();) {
      const Decoded d = decode_at(out, i);
      if (is_letter(d.cp)) {
        std::string capital;
        append_utf8(capital, upper_of(d.cp));
        out.replace(i, d.length, capital);
        break;
      }
      i += d.length;
    }
  }
  return out;
}

}  // namespace nmt
