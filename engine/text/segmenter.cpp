// Sentence segmentation (see segmenter.h). One forward pass over the text: gaps are runs of
// whitespace (with the item separators standing alone in them); a sentence runs until a newline or until a sentence-ending punctuation run that is
// followed by whitespace and something that can start a sentence, unless the word before a single
// period says it is an abbreviation, an initial or an ordinal. Every look-ahead is bounded by the
// next whitespace run and the position only moves forward, so the pass stays linear.
#include "text/segmenter.h"

#include <algorithm>
#include <string>

#include "text/dates.h"
#include "text/utf8.h"
#include "text/verbatim.h"

namespace nmt {

namespace {

bool is_terminator(char32_t cp) {
  return cp == '.' || cp == '!' || cp == '?' || cp == 0x2026 /* … */ || cp == 0x203C /* ‼ */ ||
         (cp >= 0x2047 && cp <= 0x2049) /* ⁇ ⁈ ⁉ */;
}

// Full-width stops end a sentence even without whitespace after them (CJK has no spaces).
bool is_cjk_terminator(char32_t cp) { return cp == 0x3002 || cp == 0xFF01 || cp == 0xFF1F; }

bool is_closer(char32_t cp) {
  switch (cp) {
    case '"': case '\'': case ')': case ']': case '}':
    case 0x201D: case 0x201C: case 0x2019: case 0x2018:  // ” “ ’ ‘ (German closes with “ and ‘)
    case 0x00BB: case 0x00AB: case 0x203A: case 0x2039:  // » « › ‹ (German uses both directions)
    case 0x300D: case 0x300F: case 0xFF09: case 0x3011: case 0x300B: case 0x3009:  // 」』）】》〉
      return true;
    default:
      return false;
  }
}

bool is_opener(char32_t cp) {
  switch (cp) {
    case '"': case '\'': case '(': case '[': case '{':
    case 0x201C: case 0x201E: case 0x2018: case 0x201A:  // “ „ ‘ ‚
    case 0x00AB: case 0x00BB: case 0x2039: case 0x203A:  // « » ‹ ›
    case 0x00BF: case 0x00A1:                            // ¿ ¡
    case 0x300C: case 0x300E: case 0xFF08: case 0x3010: case 0x300A: case 0x3008:  // 「『（【《〈
      return true;
    default:
      return false;
  }
}

// The byte length of an item separator (segmenter.h) at `i` with whitespace (not a line break) right before and right
// after it, else 0.
size_t separator_at(std::string_view text, size_t i) {
  if (i == 0 || i >= text.size()) return 0;
  const Decoded c = decode_at(text, i);
  const size_t after = i + c.length;
  if (!is_item_separator(c.cp) || after >= text.size()) return 0;
  size_t before = i - 1;
  for (int k = 0; k < 3 && before > 0 && (static_cast<unsigned char>(text[before]) & 0xC0) == 0x80; ++k) --before;
  const char32_t prev = decode_at(text, before).cp, next = decode_at(text, after).cp;
  const auto space = [](char32_t cp) { return is_whitespace(cp) && !is_newline(cp) && cp != U'\t'; };
  if (!space(prev) || !space(next)) return 0;
  // » and › with « or ‹ near them on the line are quotes written with spaces ("» Hallo «", "« Bonjour »")
  if (c.cp == 0x00BB || c.cp == 0x203A) {
    const std::string_view pair = c.cp == 0x00BB ? "\u00AB" : "\u2039";
    const size_t from = i > 200 ? i - 200 : 0;
    const std::string_view near = text.substr(from, 400 + c.length);
    for (size_t at = near.find(pair); at != std::string_view::npos; at = near.find(pair, at + 1)) {
      const size_t lo = std::min(from + at, i), hi = std::max(from + at, i);
      bool line_break = false;
      for (size_t k = lo; k < hi && !line_break; ++k) line_break = text[k] == '\n' || text[k] == '\r';
      if (!line_break) return 0;
    }
  }
  return c.length;
}

bool can_start_sentence(char32_t cp) {
  return is_upper(cp) || is_digit(cp) || is_opener(cp) || is_cjk_ideograph(cp) ||
         (is_letter(cp) && !has_case(cp));  // Arabic, Hebrew, kana, Hangul...: no case to test
}

// Abbreviations, lower-cased, without the final period. Multi-part ones keep inner periods.
constexpr std::string_view kCommonAbbreviations[] = {
    "dr", "prof", "mr", "mrs", "ms", "st", "vs", "etc", "ca", "jr", "sr", "jan", "feb", "mar",
    "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "e.g", "i.e", "z.b", "d.h",
};
constexpr std::string_view kEnglishAbbreviations[] = {
    "mt", "ft", "gen", "col", "lt", "sgt", "capt", "cpt", "rev", "hon", "gov", "sen", "rep",
    "pres", "approx", "dept", "inc", "ltd", "co", "corp", "cf", "al", "univ", "assn", "bros",
    "ave", "blvd", "rd", "a.m", "p.m", "u.s", "u.k", "messrs", "esp", "incl", "misc", "ibid",
};
constexpr std::string_view kGermanAbbreviations[] = {
    "usw", "bzw", "hr", "fr", "frl", "u.a", "vgl", "str", "dipl", "ing", "bzgl", "evtl", "ggf",
    "inkl", "zzgl", "sog", "allg", "bspw", "bsp", "jh", "jhd", "mio", "mrd", "tsd", "mind", "o.ä",
    "u.ä", "s.o", "s.u", "u.u", "usf", "v.a", "z.t", "z.zt", "ggü", "gegr", "geb", "gest", "dt",
    "engl", "franz", "lat", "abschn", "bd", "bde", "hrsg", "tel", "anm", "urspr", "ff", "kap",
    "abb", "tab", "mär", "okt", "dez", "röm", "ev", "kath", "min", "std", "sek", "mo", "di", "mi", "do",
    "sa",  // (not "so": "Das ist so.")
};
// Abbreviations that are also ordinary words ("I said no."): only when a number follows.
constexpr std::string_view kNumberAbbreviations[] = {
    "no", "nos", "nr", "fig", "figs", "pp", "vol", "art", "ch", "sec", "para", "op", "abs",
};

template <size_t N>
bool contains(const std::string_view (&list)[N], std::string_view word) {
  return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

bool all_ascii_digits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "U.S", "Ph.D", "z.B": parts of one or two letters joined by periods.
bool is_dotted_abbreviation(std::string_view token) {
  if (token.find('.') == std::string_view::npos) return false;
  size_t letters_in_part = 0, i = 0;
  while (i < token.size()) {
    char32_t cp;
    i += decode_utf8(token, i, cp);
    if (cp == '.') {
      if (letters_in_part == 0) return false;
      letters_in_part = 0;
    } else if (is_letter(cp)) {
      if (++letters_in_part > 2) return false;
    } else {
      return false;
    }
  }
  return letters_in_part > 0;
}

// German words that start a sentence and never follow an ordinal, which comes before a noun or an
// adjective: "Er wohnt in Nr. 5. Er ist nett." ends after "5.", "am 3. Oktober" does not.
constexpr std::string_view kGermanSentenceStarts[] = {
    "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines",
    "ich", "du", "er", "sie", "es", "wir", "ihr", "man", "dies", "diese", "dieser", "dieses",
    "dann", "aber", "und", "doch", "danach", "deshalb", "trotzdem",
    // adverbs and question words, which no ordinal comes before either ("Siehe Abb. 4. Dort ...")
    "dort", "hier", "heute", "jetzt", "auch", "nun", "bitte", "wie", "was", "wer", "wo", "warum", "wann",
    "ja", "nein", "leider", "zudem", "sonst", "damit", "denn",
};

// A Roman numeral of two or more of I, V and X (II to XXXIX: "XIV", "VIII"; not "CD", "MIX").
bool is_small_roman_numeral(std::string_view token) {
  size_t k = 0;
  while (k < token.size() && k < 3 && token[k] == 'X') ++k;
  const std::string_view units = token.substr(k);
  static constexpr std::string_view kUnits[] = {"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"};
  return token.size() >= 2 && std::find(std::begin(kUnits), std::end(kUnits), units) != std::end(kUnits);
}

// English words that start a sentence and never follow an abbreviation inside one.
constexpr std::string_view kEnglishSentenceStarts[] = {
    "the", "it", "he", "she", "we", "they", "i", "you", "this", "that", "these", "those", "there", "then",
    "but", "and", "so", "our", "my", "his", "her", "its", "their", "if", "when", "however", "also", "after", "in",
};

// Abbreviations that also end sentences ("We bought it from Acme Inc. It works."): before a word
// that starts one (kEnglishSentenceStarts, kGermanSentenceStarts) their period ends the sentence.
// Read as one sentence, the model took the period for the sentence's end and lost or garbled the
// abbreviation ("Acme Incme.", "... ab usw. Wir kommen später." -> "... at 8 o'clock. We'll ...").
// Not "u.a.", which is "among others" inside a sentence as often ("berichteten u.a. Die Welt ...").
constexpr std::string_view kSentenceFinalAbbreviations[] = {
    "etc", "jr", "sr", "inc", "ltd", "co", "corp", "al", "bros", "u.s", "u.k", "a.m", "p.m", "ibid",
    "usw", "usf", "u.ä", "o.ä", "ff", "jh", "jhd", "mio", "mrd", "tsd", "e.v",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "okt", "dez", "mär",
    "mo", "di", "mi", "do", "sa",  // weekdays ("am Mo. Danach ..."); not "Fr.", which is also "Frau"
};

// Decides a single period followed by whitespace and a possible sentence start. `token` is the
// text from the previous whitespace up to the period; `first_token`: nothing precedes it in the
// sentence; `next_word`: the letters that follow.
bool period_ends_sentence(std::string_view token, bool first_token, char32_t next, std::string_view next_word, bool german) {
  // Strip opening quotes/brackets: "(Dr." is "Dr".
  while (!token.empty()) {
    char32_t cp;
    const size_t length = decode_utf8(token, 0, cp);
    if (!is_opener(cp)) break;
    token.remove_prefix(length);
  }
  if (token.empty()) return true;

  char32_t first;
  if (decode_utf8(token, 0, first) == token.size() && is_letter(first)) {
    return !german && first == 'I';  // an initial, except the English pronoun
  }
  std::string next_lower(next_word);
  for (char& c : next_lower) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  if (all_ascii_digits(token)) {
    if (first_token) return false;                  // "1. Introduction"
    if (!german || token.size() > 3) return true;
    return contains(kGermanSentenceStarts, next_lower);  // "am 3. Oktober", but "Nr. 5. Er ..."
  }
  // a ruler's or a pope's number, "Ludwig XIV." (German writes it as an ordinal): as a number's
  // full stop ("LUDWIG XIV. WAR KÖNIG" was cut after "XIV.", and "WAR KÖNIG" came out "KING")
  if (german && !first_token && is_small_roman_numeral(token)) return contains(kGermanSentenceStarts, next_lower);
  // a German range of ordinals, "3.–5." or "3.-5." before its month ("am 3.–5. Mai"): as one ordinal
  if (german && token.size() <= 12) {
    size_t k = 0;
    while (k < token.size() && token[k] >= '0' && token[k] <= '9') ++k;
    const size_t first_digits = k;
    if (k < token.size() && token[k] == '.') ++k;
    const size_t dash = token.compare(k, 3, "\xE2\x80\x93") == 0 ? 3 : token.compare(k, 1, "-") == 0 ? 1 : 0;
    size_t d = k + dash;
    while (d < token.size() && token[d] >= '0' && token[d] <= '9') ++d;
    if (first_digits > 0 && first_digits <= 3 && dash > 0 && d == token.size() && d > k + dash && d - (k + dash) <= 3)
      return contains(kGermanSentenceStarts, next_lower);
  }
  if (token.size() > 16) return true;  // longer than any abbreviation; also bounds the copy below

  std::string lower(token);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  if (contains(kSentenceFinalAbbreviations, lower) &&
      (german ? contains(kGermanSentenceStarts, next_lower) : contains(kEnglishSentenceStarts, next_lower)))
    return true;
  if (contains(kCommonAbbreviations, lower)) return false;
  if (german ? contains(kGermanAbbreviations, lower) : contains(kEnglishAbbreviations, lower)) {
    return false;
  }
  if (contains(kNumberAbbreviations, lower) && is_digit(next)) return false;
  // a street before its number: "Hauptstr. 5"
  if (german && lower.size() > 3 && lower.compare(lower.size() - 3, 3, "str") == 0 && is_digit(next)) return false;
  return !is_dotted_abbreviation(token);
}


// Emoji that close a sentence as a face does: faces, hands and gestures (🙂 🙏 👍 👋 💪 🤝), a party's
// 🎉 🎊; not a heart, which stands for a verb ("I ❤️ NY").
bool ends_like_a_face(char32_t cp) {
  return (cp >= 0x1F600 && cp <= 0x1F64F) || (cp >= 0x1F910 && cp <= 0x1F92F) || (cp >= 0x1F970 && cp <= 0x1F97A) ||
         (cp >= 0x1F44A && cp <= 0x1F450) || cp == 0x1F4AA || cp == 0x1F389 || cp == 0x1F38A || cp == 0x263A ||
         cp == 0x2639 || cp == 0x270C || cp == 0x1F918 || cp == 0x1F919;
}

// Words after which no sentence ends: a line that ends on one was cut inside its sentence.
constexpr std::string_view kEnglishWordsInside[] = {
    "the", "a", "an", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "from", "by", "as",
    "into", "about", "than", "that", "which", "who", "whose", "if", "when", "while", "because", "is", "are",
    "was", "were", "be", "been", "will", "would", "can", "could", "should", "must", "have", "has", "had",
    "my", "your", "our", "their", "his", "her", "its", "this", "these", "those", "not", "very", "some",
};
constexpr std::string_view kGermanWordsInside[] = {
    "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines", "und",
    "oder", "aber", "sondern", "denn", "dass", "weil", "wenn", "als", "ob", "von", "zu", "zum", "zur",
    "mit", "für", "auf", "an", "am", "im", "in", "aus", "bei", "nach", "über", "unter", "vor", "um",
    "durch", "gegen", "ohne", "ist", "sind", "war", "waren", "wird", "werden", "hat", "haben", "kann",
    "mein", "meine", "dein", "sein", "seine", "ihr", "ihre", "unser", "unsere", "sehr", "nicht", "wie",
};

// Of those, the ones no sentence ends on at all (no pronoun, particle or verb: "yes we can", "ruf
// mich an"): before a capital too, the line was cut inside its sentence ("mit dem\nZug").
constexpr std::string_view kEnglishNeverLast[] = {
    "the", "a", "an", "and", "or", "but", "of", "to", "from", "with", "for", "by", "at", "into", "than",
    "my", "your", "our", "their", "his", "its", "whose", "because", "very",
};
constexpr std::string_view kGermanNeverLast[] = {
    "der", "die", "dem", "den", "des", "ein", "eine", "einen", "einem", "einer", "eines", "und", "oder",
    "aber", "von", "zum", "zur", "für", "am", "im", "bei", "unter", "gegen", "ohne", "mein", "meine",
    "unser", "unsere", "ihre", "seine", "sehr", "dass", "weil",
};

// The most bytes a sentence of joined lines spans up to its last line (as web/html/segment.js's
// MAX_JOINED): a list of lines that each look like one going on stays a list.
constexpr size_t kMaxJoinedBytes = 400;

bool looks_like_code_or_table(char ch) {
  return ch == '`' || ch == '|' || ch == '{' || ch == '}' || ch == '=' || ch == '<' || ch == '>' || ch == '\t';
}

// The length of the line break at `at` ("\n", "\r\n" or "\r") inside the sentence that began at
// `start` and whose text ends at `content_end` is only where a hard-wrapped paragraph was cut: the
// line before has two words or more, ends in a letter, a digit or a comma, and is either long (40
// characters or more, or the next is up to its sentence's end) or ends on a word no sentence ends
// on ("the", "und"); each line counted within this sentence only; the next line starts
// (after at most three spaces) with a small letter, or with a capital after such a word ("mit
// dem\nZug", "to the\nStation"); neither is a list item, a heading, a quote or
// indented code, nor has a mark of code or a table; no blank line lies between them; and the
// sentence so far spans at most kMaxJoinedBytes; else 0.
size_t wrapped_line_break(std::string_view text, size_t start, size_t content_end, size_t at, bool german) {
  if (content_end <= start || content_end - start > kMaxJoinedBytes || (text[at] != '\n' && text[at] != '\r')) return 0;
  const size_t length = text[at] == '\r' && at + 1 < text.size() && text[at + 1] == '\n' ? 2 : 1;
  size_t next = at + length;
  for (size_t k = content_end; k < at; ++k)
    if (text[k] != ' ') return 0;
  size_t indent = 0;
  while (next < text.size() && text[next] == ' ' && indent < 4) ++next, ++indent;
  if (indent >= 4 || next >= text.size()) return 0;
  const char32_t first = decode_at(text, next).cp;
  if (!is_letter(first) || !has_case(first)) return 0;
  const bool capital = is_upper(first);  // (only after a word no sentence ends on: "mit dem\nZug")
  // the next line, as far as kMaxJoinedBytes: no code or table, and no list item ("a) ...")
  // and how long its part in this sentence is: up to its line's end or a full stop, ! or ? before a space
  size_t line_end = next, next_characters = 0;
  bool sentence_ended = false;
  while (line_end < text.size() && line_end - next < kMaxJoinedBytes && text[line_end] != '\n' && text[line_end] != '\r') {
    const char ch = text[line_end];
    if (looks_like_code_or_table(ch)) return 0;
    sentence_ended = sentence_ended || ((ch == '.' || ch == '!' || ch == '?') &&
                                        (line_end + 1 == text.size() || text[line_end + 1] == ' '));
    if (!sentence_ended && (static_cast<unsigned char>(ch) & 0xC0) != 0x80) ++next_characters;
    ++line_end;
  }
  if (next + 1 < text.size() && (text[next + 1] == ')' || text[next + 1] == '.')) return 0;
  // the line before
  size_t line_start = content_end;
  while (line_start > 0 && content_end - line_start <= kMaxJoinedBytes && text[line_start - 1] != '\n' && text[line_start - 1] != '\r')
    --line_start;
  const std::string_view line = text.substr(line_start, content_end - line_start);
  size_t lead = 0;
  while (lead < line.size() && line[lead] == ' ') ++lead;
  if (lead >= 4 || lead >= line.size()) return 0;
  const char opener = line[lead];
  if (opener == '-' || opener == '*' || opener == '+' || opener == '#' || opener == '>' || is_digit(decode_at(line, lead).cp) ||
      line.compare(lead, 3, "\u2022") == 0)
    return 0;
  // the line's part in this sentence: a sentence read alone (the JS module's groups of sentences)
  // joins its lines as it does in the whole text
  const std::string_view own = text.substr(std::max(line_start, start), content_end - std::max(line_start, start));
  for (char ch : own)
    if (looks_like_code_or_table(ch)) return 0;
  if (line.find('\t') != std::string_view::npos) return 0;  // a row of a pasted table
  size_t words = 0, characters = 0, last_word = own.size();
  bool in_word = false;
  for (size_t k = 0; k < own.size();) {
    const Decoded d = decode_at(own, k);
    const bool word_char = is_letter(d.cp) || is_digit(d.cp) || is_mark(d.cp) || (in_word && (d.cp == '\'' || d.cp == '-'));
    if (word_char && !in_word) ++words, last_word = k;
    in_word = word_char;
    ++characters;
    k += d.length;
  }
  if (words < 2) return 0;
  size_t last = own.size() - 1;
  while (last > 0 && (static_cast<unsigned char>(own[last]) & 0xC0) == 0x80) --last;
  const char32_t end = decode_at(own, last).cp;
  if (!capital && (end == ',' || ((is_letter(end) || is_digit(end)) && (characters >= 40 || next_characters >= 40)))) return length;
  if (!is_letter(end) && !is_digit(end)) return 0;
  std::string word(own.substr(last_word));
  for (char& c : word) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  if (capital) return (german ? contains(kGermanNeverLast, word) : contains(kEnglishNeverLast, word)) ? length : 0;
  return (german ? contains(kGermanWordsInside, word) : contains(kEnglishWordsInside, word)) ? length : 0;
}

// End (exclusive, trailing whitespace excluded) of the sentence that starts at `start`, which holds
// a non-whitespace character.
size_t sentence_end(std::string_view text, size_t start, bool german) {
  const size_t n = text.size();
  size_t i = start;
  size_t content_end = start;  // just after the last non-whitespace character seen
  size_t word_start = start;   // just after the last whitespace seen
  while (i < n) {
    const Decoded c = decode_at(text, i);
    if (is_whitespace(c.cp)) {
      if (const size_t wrapped = is_newline(c.cp) ? wrapped_line_break(text, start, content_end, i, german) : 0) {
        i += wrapped;  // a hard-wrapped line: the sentence reads on
        word_start = i;
        continue;
      }
      if (is_newline(c.cp) || c.cp == U'\t') return content_end;  // a tab separates cells of a pasted table
      i += c.length;
      word_start = i;
      continue;
    }
    if (i == word_start && content_end > start && separator_at(text, i) > 0) return content_end;  // "News » Sport"
    // a face after a word ends the sentence before a capital, as a full stop does: "Thanks :) See you"
    // (read as one sentence, the model dropped "See you"); not a heart, which stands for a verb ("I <3 NY")
    if (i == word_start && content_end > start && text[i] != '<') {
      const size_t face = emoticon_at(text, i);
      size_t j = i + face;
      while (face > 0 && j < n && (text[j] == ' ' || text[j] == '\t')) ++j;
      if (face > 0 && j > i + face && j < n && text[j] != '\t' && text[j - 1] != '\t' && is_upper(decode_at(text, j).cp))
        return i + face;
    }
    // so does an emoji of a face or a hand that follows a word ("Danke 🙏 Bis bald": read as one
    // sentence, "Bis bald" was lost); not one of a thing, which stands for a word ("Ich liebe 🍕 Pizza")
    if (i == word_start && content_end > start && ends_like_a_face(c.cp)) {
      size_t j = i;
      for (Decoded e = c; j < n && (is_emoji(e.cp) || e.cp == 0xFE0F || e.cp == 0x200D || (e.cp >= 0x1F3FB && e.cp <= 0x1F3FF));) {
        j += e.length;
        if (j < n) e = decode_at(text, j);
      }
      const size_t face_end = j;
      while (j < n && text[j] == ' ') ++j;
      if (j > face_end && j < n && is_upper(decode_at(text, j).cp)) return face_end;
    }
    if (!is_terminator(c.cp) && !is_cjk_terminator(c.cp)) {
      i += c.length;
      content_end = i;
      continue;
    }

    // A run of terminators ("?!", "...") and the closing quotes/brackets after it, taken whole so
    // that a long run of dots is looked at once, not once per dot.
    const size_t run_start = i;
    bool single_period = true, cjk = false;
    while (i < n) {
      const Decoded t = decode_at(text, i);
      if (!is_terminator(t.cp) && !is_cjk_terminator(t.cp)) break;
      single_period = single_period && i == run_start && t.cp == '.';
      cjk = cjk || is_cjk_terminator(t.cp);
      i += t.length;
    }
    while (i < n) {
      const Decoded t = decode_at(text, i);
      if (!is_closer(t.cp)) break;
      i += t.length;
    }
    content_end = i;
    if (i >= n || cjk) return i;
    if (!is_whitespace(decode_at(text, i).cp)) continue;  // "3.14", "e.g.x", "example.com"

    // Look past the whitespace at what comes next.
    size_t j = i;
    while (j < n) {
      const Decoded w = decode_at(text, j);
      if (!is_whitespace(w.cp)) break;
      if (is_newline(w.cp) || w.cp == U'\t') return i;
      j += w.length;
    }
    if (j >= n) return i;
    const char32_t next = decode_at(text, j).cp;
    if (!can_start_sentence(next)) continue;
    if (!single_period) return i;
    const std::string_view token = text.substr(word_start, run_start - word_start);
    size_t word_end = j;  // (bounded like every look-ahead: a word is no longer than the text's next run)
    while (word_end < n && word_end - j < 16 && ((text[word_end] >= 'a' && text[word_end] <= 'z') || (text[word_end] >= 'A' && text[word_end] <= 'Z'))) ++word_end;
    const bool whole_word = word_end >= n || !is_letter(decode_at(text, word_end).cp);
    const std::string_view next_word = whole_word ? text.substr(j, word_end - j) : std::string_view{};
    if (period_ends_sentence(token, word_start == start, next, next_word, german)) return i;
  }
  return content_end;
}

// The byte length of a list number at the start of a line or cell ("1. ", "12) "), with the spaces
// after it, when a word, a number or an opening quote follows on the line; else 0. Read with its item, the
// number became an ordinal or was lost ("2. Am Montag ..." -> "2nd on Monday ...", "8. Seit ..." ->
// "Since ..."), and "3. Bake for 25 minutes" came out "Für 25 Minuten ... Bake.". Not a German
// date ("3. Oktober 2023": dates.h reads one there).
size_t list_marker_at(std::string_view text, size_t i, std::string_view lang) {
  size_t k = i;
  while (k < text.size() && k - i < 3 && text[k] >= '0' && text[k] <= '9') ++k;
  if (k == i || k + 1 >= text.size() || (text[k] != '.' && text[k] != ')') || (text[k + 1] != ' ' && text[k + 1] != '\t'))
    return 0;
  size_t after = k + 1;
  while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
  if (after >= text.size()) return 0;
  const char32_t next = decode_at(text, after).cp;
  if (!is_letter(next) && !is_opener(next) && !is_digit(next)) return 0;
  const std::string_view line = text.substr(i, std::min<size_t>(64, text.size() - i));
  for (const NamedDate& d : find_named_dates(line, lang))
    if (d.begin == 0) return 0;
  return after - i;
}

// The byte length of Markdown's marks at the start of a line: a block quote's ("> ", "> > ") and a
// heading's ("## ") with the spaces after them, else 0. Read with the line, the marks came out
// changed ("## Getting started" -> "### Getting gestartet"); in the gap they are copied.
size_t line_marks_at(std::string_view text, size_t i) {
  size_t k = i;
  while (k < text.size() && text[k] == '>') {
    ++k;
    while (k < text.size() && text[k] == ' ') ++k;
  }
  size_t hashes = k;
  while (hashes < text.size() && text[hashes] == '#' && hashes - k < 7) ++hashes;
  if (hashes > k && hashes - k <= 6 && hashes < text.size() && text[hashes] == ' ') {
    k = hashes;
    while (k < text.size() && text[k] == ' ') ++k;
  }
  // (marks before the line's end are no marks of a line with text)
  return k < text.size() && !is_whitespace(decode_at(text, k).cp) ? k - i : 0;
}

}  // namespace

// (Not '>': "a > b" is too often a comparison; not dashes, which join clauses.)
bool is_item_separator(char32_t cp) {
  switch (cp) {
    case '|': case 0x00A6:                  // | ¦
    case 0x00BB: case 0x203A:               // » ›
    case 0x2022: case 0x00B7: case 0x2219:  // • · ∙
    case 0x25E6: case 0x2023: case 0x2192:  // ◦ ‣ →
      return true;
    default:
      return false;
  }
}

bool continues_a_line(std::string_view text, const std::vector<TextPiece>& pieces, size_t p) {
  if (p >= pieces.size() || !pieces[p].is_sentence) return false;
  size_t before = p;  // the sentence before it
  while (before > 0 && !pieces[--before].is_sentence) {}
  if (before == p || !pieces[before].is_sentence) return false;
  bool line_break = false;
  for (size_t i = pieces[before].end; i < pieces[p].begin;) {
    const Decoded d = decode_at(text, i);
    line_break = line_break || is_newline(d.cp);
    i += d.length;
  }
  if (!line_break) return false;
  // the last character of the sentence before, past closing quotes and brackets
  size_t end = pieces[before].end;
  char32_t last = 0;
  while (end > pieces[before].begin) {
    size_t start = end - 1;
    while (start > pieces[before].begin && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    last = decode_at(text, start).cp;
    if (!is_closer(last)) break;
    end = start;
  }
  if (is_terminator(last) || is_cjk_terminator(last)) return false;
  for (size_t i = pieces[p].begin; i < pieces[p].end;) {  // its first letter, past quotes, brackets and marks
    const Decoded d = decode_at(text, i);
    if (is_letter(d.cp)) return has_case(d.cp) && !is_upper(d.cp);
    if (is_digit(d.cp)) return false;
    i += d.length;
  }
  return false;
}

std::vector<TextPiece> segment_text(std::string_view text, std::string_view lang) {
  const bool german = lang.substr(0, 2) == "de";
  std::vector<TextPiece> pieces;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t gap_end = pos;
    bool same_line = !pieces.empty();  // a sentence before it on this line
    while (gap_end < text.size()) {
      const Decoded c = decode_at(text, gap_end);
      if (is_whitespace(c.cp)) {
        same_line = same_line && !is_newline(c.cp) && c.cp != U'\t';
        gap_end += c.length;
        continue;
      }
      // between two items: kept as written; a quote's or heading's marks and a list number at a
      // line's start too
      if (!same_line) {
        gap_end += line_marks_at(text, gap_end);
        gap_end += list_marker_at(text, gap_end, lang);
        break;  // (one list number a line)
      }
      const size_t mark = separator_at(text, gap_end);
      if (mark == 0) break;
      gap_end += mark;
    }
    if (gap_end > pos) pieces.push_back({pos, gap_end, false});
    pos = gap_end;
    if (pos >= text.size()) break;
    const size_t end = sentence_end(text, pos, german);
    pieces.push_back({pos, end, true});
    pos = end;
  }
  return pieces;
}

}  // namespace nmt
