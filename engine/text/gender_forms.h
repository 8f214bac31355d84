// German gender-inclusive forms ("Kolleg*innen", "Mitarbeiter_innen", "Lehrer:innen", "KundInnen",
// "Ärzt*in"): rewrites each for the de->en model to read as the feminine form, with the gender sign
// turned into U+0001, which the tokenizer's normalizer deletes (the text keeps its length: token
// spans stay spans of the text as given), and the capital "I" of "KundInnen" a small one.
// Why: the model had seen few of them and mangled them ("die Mitarbeiter_innen und Lehrer:innen" ->
// "employees_ women and teachers:", "Unsere Kund*innen" -> "Our roughs"), while it translates the
// feminine forms into the English words that cover everyone ("Kundinnen" -> "customers",
// "Lehrerinnen" -> "teachers").
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nmt {

// `text` with each gender sign ("*", "_", ":", "/" or "/-" between a word's small letter and "in" or
// "innen" that end the word; "*", "_", ":" also before an article's or pronoun's last letter:
// "jede*r", "ein:e") replaced by U+0001 bytes, and the "I" of a plural "...Innen" after a
// small letter lower-cased. Everything else as it is; the same length.
// Not right after or inside a span of `skip` (sorted; a name copied as it is: "city_surplus:in").
std::string read_gender_forms(std::string_view text, const std::vector<std::pair<size_t, size_t>>& skip = {});

}  // namespace nmt
