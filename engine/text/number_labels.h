// Writes the abbreviations that label a number ("No. 12345", "no. 5", "Nos. 3", "p. 45", "Fig. 3",
// "Sec. 3.2", "Ch. 4" in English; "Nr. 12345", "Nrn. 3", "S. 45", "Abb. 3", "Abschn. 3.2", "Kap. 4"
// in German), and the units of measure after one, the target language's
// way: the target's word right before the number, where it is the source's abbreviation copied or
// a known misreading of it, becomes the target language's abbreviation.
// Why: the models read the labels as words or copy them: en-de wrote "Order No. 12345" as "Order
// Nein. 12345" and "Room No. 5" as "Room Nein. 5"; de-en kept "Nr. 12345" and "S. 45" in English.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "text/text_edit.h"

namespace nmt {

// The edits (last first) that write each labelled number's abbreviation the `to` language's way,
// for `from` -> `to` between "en" and "de": the source has the label right before a number (one
// space between), the target the number with the same digits and, right before it, the label as
// the source writes it or a misreading ("Nein."). Only after the first `fixed` bytes (a forced prefix).
// The edits of number_units come with them, and a percent sign after a number written the `to`
// language's way: German "50 %" (DIN 5008; en->de wrote "50%"), English "50%" (not in a word:
// "50%ig", "88%-Marke"), and German "3 °C" (not an angle: "90°"), and those of foreign_currencies
// (numbers.h: "2 Millionen £ Euro" -> "2 Millionen £"); de->en also a German scale's abbreviation as the word ("1,5 Mrd. €" ->
// "€1.5 billion"), a club's ordinal ("1. FC Köln" written "1 FC Cologne" -> "1. FC Cologne") and
// the first of two ordinals ("Der 1. und 2. Preis" written "The 1, and 2nd Price" -> "1st and 2nd").
std::vector<TextEdit> number_labels(std::string_view source, std::string_view target, std::string_view from,
                                    std::string_view to, size_t fixed = 0);

// The edits (last first) that give a number back the unit of measure the source writes after it
// (one space between: "5.000 m", "300 m", "10 km", "5 kg", "20 cm"), where the target's number with
// the same digits has another unit or a scale the models write for it instead: de-en wrote "Die
// Strecke ist 5.000 m lang." as "The route is 5,000 minutes." and "300 m" as "300 miles"; the word
// becomes the source's abbreviation ("5,000 m"). Not after a currency sign ("$5 m": five million).
std::vector<TextEdit> number_units(std::string_view source, std::string_view target, std::string_view from,
                                   std::string_view to, size_t fixed = 0);

}  // namespace nmt
