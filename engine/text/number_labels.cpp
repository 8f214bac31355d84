// Abbreviations that label a number (number_labels.h).
#include "text/number_labels.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>

#include "text/numbers.h"

namespace nmt {
namespace {

struct Label {
  std::string_view en, de;
  // what the models write instead, besides the other language's abbreviation: en->de, de->en
  std::vector<std::string_view> de_misreadings, en_misreadings;
  // other ways the source writes it: English, German ("no.", "No" before a number)
  std::vector<std::string_view> en_forms, de_forms;
  // de->en: any word of letters with a final dot before the number is a misreading ("Abschn. 3.2"
  // came out "sniff. 3.2", "distinct. 3.2"; "Kap. 4.1" "Cape. 4.1"): the model knows no such word
  bool any_dotted_word_from_de = false;
};

const std::vector<Label>& labels() {
  static const std::vector<Label> kLabels = {
      {"No.", "Nr.", {"Nein.", "Nein", "nein.", "nein", "Nr", "Nummer", "No"}, {"Nr", "Number"}, {"no.", "No"}, {}},
      {"Nos.", "Nrn.", {"Nein.", "nein.", "Nos", "Nrn", "Nr."}, {"Nrn", "Nr.", "No."}, {"nos."}, {}},
      {"p.", "S.", {"p", "S"}, {"S", "P."}, {}, {}},
      {"pp.", "S.", {"pp", "Pp."}, {}, {}, {}},  // (German "S." is one page or more: de->en the first, "p.")
      {"Fig.", "Abb.", {"Fig", "Abb"}, {"Abb", "Figure."}, {}, {}},
      {"Sec.", "Abschn.", {"Sec", "Sek.", "Sekt."}, {}, {"Sect.", "sec."}, {}, true},
      {"Ch.", "Kap.", {"Ch"}, {}, {"ch."}, {}, true},
  };
  return kLabels;
}

// Whether `word` is letters and a final dot, at most 10 bytes ("sniff.", "Cape.").
bool dotted_word(std::string_view word) {
  if (word.size() < 2 || word.size() > 10 || word.back() != '.') return false;
  return std::all_of(word.begin(), word.end() - 1, [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
}

// The word right before byte `at` of `text` with one space between ("Nein." of "Nein. 5"), or "".
std::string_view word_before(std::string_view text, size_t at) {
  if (at < 2 || text[at - 1] != ' ') return {};
  size_t b = at - 1;
  while (b > 0 && text[b - 1] != ' ' && text[b - 1] != '(' && text[b - 1] != '\n') --b;
  return text.substr(b, at - 1 - b);
}

struct Unit {
  std::string_view abbreviation;           // as both languages write it after a number: "5.000 m"
  std::vector<std::string_view> misreadings;  // other units or scales the models write for it
};

const std::vector<Unit>& units() {
  static const std::vector<Unit> kUnits = {
      {"m", {"minutes", "minute", "miles", "mile", "million", "millions", "Minuten", "Meilen", "Millionen", "Mio.", "Mio"}},
      {"km", {"miles", "mile", "Meilen"}},
      {"kg", {"pounds", "lbs", "Pfund"}},
      {"cm", {"inches", "inch", "Zoll"}},
  };
  return kUnits;
}

// The word right after byte `at` of `text` with one space between, without a final mark that ends
// a sentence or clause ("miles" of "5 miles." but "Mio." of "5 Mio. Euro"), or "".
std::string_view word_after(std::string_view text, size_t at) {
  if (at >= text.size() || text[at] != ' ') return {};
  size_t e = at + 1;
  while (e < text.size() && text[e] != ' ' && !std::strchr(",;:!?)\n", text[e])) ++e;
  return text.substr(at + 1, e - at - 1);
}

bool currency_sign_before(std::string_view text, size_t at) {
  if (at > 0 && text[at - 1] == ' ') --at;
  for (std::string_view sign : {"$", "\xE2\x82\xAC", "\xC2\xA3"})
    if (at >= sign.size() && text.compare(at - sign.size(), sign.size(), sign) == 0) return true;
  return false;
}

// de->en: the model copies the dot of a German scale's abbreviation ("2,3 Mio. €" came out "2.3m. €",
// "1,5 Mio. €" "1.5 million. €"), and leaves the sign after the amount. The edits (last first) that
// write the target's scale word after a number whose source has "Mio." or "Mrd." as the English
// word without a dot ("million", "billion"), and a currency sign right after it before the number
// ("€2.3 million"). Only a scale word that stands for the source's (m, million, mio for Mio.; bn,
// billion, mrd for Mrd.), only where a dot or a sign follows it.
std::vector<TextEdit> german_scale_abbreviations(std::string_view source, std::string_view target, size_t fixed) {
  const ByteSpans source_numbers = find_numbers(source, "de", true);
  const ByteSpans target_numbers = find_numbers(target, "en", true);
  std::vector<bool> used(target_numbers.size(), false);
  std::vector<TextEdit> edits;
  for (auto [sb, se] : source_numbers) {
    const std::string_view after = source.substr(se, 6);
    const bool million = after.rfind(" Mio.", 0) == 0, billion = after.rfind(" Mrd.", 0) == 0;
    if (!million && !billion) continue;
    const std::string digits = digits_of(source.substr(sb, se - sb));
    for (size_t t = 0; t < target_numbers.size(); ++t) {
      const auto [tb, te] = target_numbers[t];
      if (used[t] || digits_of(target.substr(tb, te - tb)) != digits) continue;
      used[t] = true;
      size_t w = te + (te < target.size() && target[te] == ' ' ? 1 : 0), e = w;
      while (e < target.size() && std::isalpha(static_cast<unsigned char>(target[e]))) ++e;
      std::string word(target.substr(w, e - w));
      for (char& c : word) c = char(std::tolower(static_cast<unsigned char>(c)));
      const bool same = million ? (word == "m" || word == "million" || word == "mio")
                                : (word == "bn" || word == "billion" || word == "mrd" || word == "mr");  // ("1.5 Mr. Euro")
      if (!same || tb < fixed) break;
      size_t end = e;
      const bool dot = end < target.size() && target[end] == '.' && end + 1 < target.size();  // (not the sentence's end)
      if (dot) ++end;
      std::string_view sign;
      for (std::string_view c : {"\xE2\x82\xAC", "$", "\xC2\xA3"})
        if (target.compare(end, 1 + c.size(), " " + std::string(c)) == 0) sign = c;
      if (!dot && sign.empty()) break;
      const size_t sign_end = end + (sign.empty() ? 0 : 1 + sign.size());
      // ("million. €" at the end: the dot was the sentence's, the sign put after it)
      const bool ends = dot && !sign.empty() && target.find_first_not_of(' ', sign_end) == std::string_view::npos;
      edits.push_back({te, sign_end - te, std::string(" ") + (million ? "million" : "billion") + (ends ? "." : "")});
      if (!sign.empty() && !currency_sign_before(target, tb)) edits.push_back({tb, 0, std::string(sign)});
      break;
    }
  }
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.at > b.at; });
  return edits;
}

// Whether `word` is a club's abbreviation: 2-5 ASCII letters, a capital first and one more ("FC",
// "FSV", "VfB", "SpVgg").
bool club_abbreviation(std::string_view word) {
  if (word.size() < 2 || word.size() > 5 || !std::isupper(static_cast<unsigned char>(word[0]))) return false;
  if (!std::all_of(word.begin(), word.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }))
    return false;
  return std::count_if(word.begin(), word.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }) >= 2;
}

// de->en: a German club's name that starts with an ordinal ("1. FC Köln", "1. FSV Mainz 05") keeps
// its "1."; the model wrote "1 FC Cologne", "1, FC Union Berlin" or "1st FC Nuremberg". The edits
// (last first) that write the target's number before the source's abbreviation with its dot.
std::vector<TextEdit> club_ordinals(std::string_view source, std::string_view target, size_t fixed) {
  const ByteSpans target_numbers = find_numbers(target, "en", true);
  std::vector<bool> used(target_numbers.size(), false);
  std::vector<TextEdit> edits;
  for (auto [sb, se] : find_numbers(source, "de", true)) {
    if (se - sb > 2 || !is_german_ordinal(source, sb, se)) continue;
    size_t we = se + 2;
    while (we < source.size() && std::isalpha(static_cast<unsigned char>(source[we]))) ++we;
    const std::string_view club = source.substr(se + 2, we - se - 2);
    if (!club_abbreviation(club) || (we < source.size() && static_cast<unsigned char>(source[we]) >= 0x80)) continue;
    const std::string_view digits = source.substr(sb, se - sb);
    for (size_t t = 0; t < target_numbers.size(); ++t) {
      const auto [tb, te] = target_numbers[t];
      if (used[t] || target.substr(tb, te - tb) != digits || tb < fixed) continue;
      size_t gap = te + english_ordinal_ending(target, te);  // ("1st FC")
      if (gap < target.size() && (target[gap] == ',' || target[gap] == '.')) ++gap;
      if (gap >= target.size() || target[gap] != ' ' || target.compare(gap + 1, club.size(), club) != 0) continue;
      used[t] = true;
      if (target.compare(te, gap + 1 - te, ". ") != 0) edits.push_back({te, gap + 1 - te, ". "});
      break;
    }
  }
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.at > b.at; });
  return edits;
}

// The edits (last first) that write a percent sign after a number the target language's way:
// German with a space ("50 %", as DIN 5008 and the references write it; en->de wrote "50%"),
// English without one ("50%"). Not in a word ("50%ig", "88%-Marke"). German "3 °C" too.
std::vector<TextEdit> percent_signs(std::string_view target, std::string_view to, size_t fixed) {
  std::vector<TextEdit> edits;
  const auto digit = [&](size_t at) { return at < target.size() && target[at] >= '0' && target[at] <= '9'; };
  for (size_t at = target.find('%', fixed); at != std::string_view::npos; at = target.find('%', at + 1)) {
    const size_t after = at + 1;
    if (after < target.size() && (std::isalnum(static_cast<unsigned char>(target[after])) || target[after] == '-' ||
                                  static_cast<unsigned char>(target[after]) >= 0x80))
      continue;
    if (to == "de" && at >= 1 && digit(at - 1) && at - 1 >= fixed) edits.push_back({at, 0, " "});
    if (to == "en" && at >= 2 && target[at - 1] == ' ' && digit(at - 2) && at - 1 >= fixed) edits.push_back({at - 1, 1, ""});
  }
  // German writes degrees Celsius and Fahrenheit apart too ("3 °C"; en->de copied "3°C"); an angle stays ("90°")
  static constexpr std::string_view kDegrees = "\xC2\xB0";  // °
  for (size_t at = target.find(kDegrees, fixed); to == "de" && at != std::string_view::npos; at = target.find(kDegrees, at + 1)) {
    const size_t after = at + kDegrees.size();
    const bool scale = after < target.size() && (target[after] == 'C' || target[after] == 'F') &&
                       !(after + 1 < target.size() && std::isalnum(static_cast<unsigned char>(target[after + 1])));
    if (scale && at >= 1 && digit(at - 1) && at - 1 >= fixed) edits.push_back({at, 0, " "});
  }
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.at > b.at; });
  return edits;
}

// de->en: the first of two German ordinals joined by "und"/"oder" ("Der 1. und 2. Preis") came out
// "The 1, and 2nd Price" or "the 1 and 2nd": the edits (last first) that give it its English ending
// where the second has one ("1st and 2nd"), for a number whose digits are a source ordinal's.
std::vector<TextEdit> listed_ordinals(std::string_view source, std::string_view target, size_t fixed) {
  std::vector<std::string_view> ordinals;
  for (auto [sb, se] : find_numbers(source, "de", true))
    if (is_german_ordinal(source, sb, se)) ordinals.push_back(source.substr(sb, se - sb));
  std::vector<TextEdit> edits;
  if (ordinals.empty()) return edits;
  const ByteSpans numbers = find_numbers(target, "en", true);
  for (size_t t = 0; t + 1 < numbers.size(); ++t) {
    const auto [b, e] = numbers[t];
    const std::string_view digits = target.substr(b, e - b);
    if (b < fixed || std::find(ordinals.begin(), ordinals.end(), digits) == ordinals.end()) continue;
    size_t at = e + ((e < target.size() && (target[e] == ',' || target[e] == '.')) ? 1 : 0);
    const std::string_view rest = target.substr(at);
    const size_t join = rest.rfind(" and ", 0) == 0 ? 5 : rest.rfind(" or ", 0) == 0 ? 4 : 0;
    if (join == 0 || numbers[t + 1].first != at + join || english_ordinal_ending(target, numbers[t + 1].second) == 0) continue;
    edits.push_back({e, at - e, english_ordinal_suffix(digits)});
  }
  std::reverse(edits.begin(), edits.end());
  return edits;
}

}  // namespace

std::vector<TextEdit> number_units(std::string_view source, std::string_view target, std::string_view from,
                                   std::string_view to, size_t fixed) {
  if (!((from == "en" && to == "de") || (from == "de" && to == "en"))) return {};
  const ByteSpans source_numbers = find_numbers(source, from, true);
  const ByteSpans target_numbers = find_numbers(target, to, true);
  std::vector<bool> used(target_numbers.size(), false);
  std::vector<TextEdit> edits;
  for (auto [sb, se] : source_numbers) {
    std::string_view unit = word_after(source, se);
    if (!unit.empty() && unit.back() == '.') unit.remove_suffix(1);  // "200 m."
    const auto known = std::find_if(units().begin(), units().end(), [&](const Unit& u) { return u.abbreviation == unit; });
    if (known == units().end() || currency_sign_before(source, sb)) continue;  // "$5 m": five million
    const std::string digits = digits_of(source.substr(sb, se - sb));
    for (size_t t = 0; t < target_numbers.size(); ++t) {
      const auto [tb, te] = target_numbers[t];
      if (used[t] || digits_of(target.substr(tb, te - tb)) != digits) continue;
      used[t] = true;
      std::string_view word = word_after(target, te);
      const auto misread = [&](std::string_view w) {
        // an English "5 m" may be five million ("a population of 5 m"); a German one is meters
        const bool million = w.substr(0, 3) == "mil" || w.substr(0, 3) == "Mil" || w.substr(0, 3) == "Mio";
        if (million && from == "en") return false;
        return std::find(known->misreadings.begin(), known->misreadings.end(), w) != known->misreadings.end();
      };
      if (!misread(word) && !word.empty() && word.back() == '.') word.remove_suffix(1);  // "miles."
      if (misread(word) && te + 1 >= fixed) edits.push_back({te + 1, word.size(), std::string(unit)});
      break;
    }
  }
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.at > b.at; });
  return edits;
}

std::vector<TextEdit> number_labels(std::string_view source, std::string_view target, std::string_view from,
                                    std::string_view to, size_t fixed) {
  const bool en_de = from == "en" && to == "de", de_en = from == "de" && to == "en";
  if (!en_de && !de_en) return {};
  const ByteSpans source_numbers = find_numbers(source, from, true);
  const ByteSpans target_numbers = find_numbers(target, to, true);
  std::vector<bool> used(target_numbers.size(), false);
  std::vector<TextEdit> edits;
  for (auto [sb, se] : source_numbers) {
    const std::string_view label = word_before(source, sb);
    for (const Label& l : labels()) {
      const std::string_view from_form = en_de ? l.en : l.de, to_form = en_de ? l.de : l.en;
      // the label as the source writes it ("No.", also "no." and "No"; German "s." is "siehe")
      const auto& other_forms = en_de ? l.en_forms : l.de_forms;
      if (label != from_form && std::find(other_forms.begin(), other_forms.end(), label) == other_forms.end()) continue;
      const std::string digits = digits_of(source.substr(sb, se - sb));
      for (size_t t = 0; t < target_numbers.size(); ++t) {
        const auto [tb, te] = target_numbers[t];
        if (used[t] || digits_of(target.substr(tb, te - tb)) != digits) continue;
        used[t] = true;
        const std::string_view before = word_before(target, tb);
        const auto& misreadings = en_de ? l.de_misreadings : l.en_misreadings;
        // the source's label, a misreading, or a garbled copy of it ("Ne." for "No.": short, the same
        // first letter, a final dot)
        const bool garbled = before.size() >= 2 && before.size() <= 4 && before.back() == '.' &&
                             (before[0] | 0x20) == (from_form[0] | 0x20) && before != to_form;
        const bool wrong = before == from_form || before == label || garbled ||
                           std::find(misreadings.begin(), misreadings.end(), before) != misreadings.end() ||
                           (de_en && l.any_dotted_word_from_de && dotted_word(before) && before != to_form);
        const size_t at = tb - 1 - before.size();
        if (wrong && at >= fixed) edits.push_back({at, before.size(), std::string(to_form)});
        break;
      }
      break;
    }
  }
  const std::vector<TextEdit> unit_edits = number_units(source, target, from, to, fixed);
  edits.insert(edits.end(), unit_edits.begin(), unit_edits.end());
  // (a sentence with no word in it, "100%", is copied as it is: pass_through)
  const std::vector<TextEdit> percent_edits = lower_words(source).empty() ? std::vector<TextEdit>{} : percent_signs(target, to, fixed);
  edits.insert(edits.end(), percent_edits.begin(), percent_edits.end());
  const std::vector<TextEdit> currency_edits = foreign_currencies(source, find_numbers(source, from, false), target, fixed);
  edits.insert(edits.end(), currency_edits.begin(), currency_edits.end());
  if (de_en) {
    const std::vector<TextEdit> scale_edits = german_scale_abbreviations(source, target, fixed);
    edits.insert(edits.end(), scale_edits.begin(), scale_edits.end());
    const std::vector<TextEdit> club_edits = club_ordinals(source, target, fixed);
    edits.insert(edits.end(), club_edits.begin(), club_edits.end());
    const std::vector<TextEdit> list_edits = listed_ordinals(source, target, fixed);
    edits.insert(edits.end(), list_edits.begin(), list_edits.end());
  }
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.at > b.at; });
  return edits;
}

}  // namespace nmt
