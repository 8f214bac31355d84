// Clock-time fixes: edits that set a translation's clock times to the hours the source says, written
// the target's way (German 24-hour clock "um 19:30 Uhr", English 12-hour "at 7:30 p.m."). Each
// function returns edits of the target; applying them is the caller's work.
// Why: the model copies the digits and guesses the half of the day. en-de wrote most English p.m.
// hours as morning ones ("at 6 p.m." -> "um 6 Uhr"); de-en guesses "p.m." for morning hours ("um 9
// Uhr" -> "at 9 p.m.", "um 6 Uhr" -> "at 6:00 p.m."), "a.m." for noon ("12.00 Uhr" -> "12:00 a.m.")
// and keeps German hours beside a p.m. ("23 Uhr" -> "23 p.m."): a time off by 12 hours, which no
// check of the digits can see.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "text/text_edit.h"

namespace nmt {

// English afternoon and evening hours that the German translation wrote as morning ones ("at 6 p.m."
// -> "um 6 Uhr", "7:30 p.m." -> "7:30 Uhr"): each such hour goes 12 up ("um 18 Uhr", "19:30 Uhr").
// The edits replace the hour alone, last first. The first hour of a range that ends in p.m. counts
// too ("from 1 to 2 pm" -> "von 13 bis 14 Uhr"). Only from "en" to "de", only for a target number
// with the hour's digits that reads as a time (before " Uhr", with minutes, or starting the range)
// and has no word for the time of day after it ("abends"); the first `fixed` bytes (a prefix) stay.
// A p.m. hour the target writes only as a word before " Uhr" ("at 8 pm" -> "um acht Uhr") becomes
// its digits 12 up ("um 20 Uhr"), unless "abends" or "morgens" follows. And "half past seven" (or
// "half seven") translated "halb sieben" becomes "halb acht": German says 7:30 by the next hour.
// Where the source says one hour more than once, each with a.m. or p.m. ("at 8 am and 8 pm"), and
// the target writes it as often in digits or words, the p.m. one is the target's in the same place
// ("um 8 Uhr und ... um acht Uhr" -> "um 20 Uhr", not the first); one the target wrote 12 up
// already ("20 Uhr") leaves the others alone. An a.m. hour the target put 12 up ("9.30 a.m." -> "21.30 Uhr") goes back, unless the source has
// that hour with p.m. too; and "Uhr" written before a time after um/gegen/ab/bis/von ("um Uhr 16.15",
// the numbers retry's copy) goes after it.
std::vector<TextEdit> evening_hours(std::string_view source, std::string_view target, std::string_view from,
                                    std::string_view to, size_t fixed = 0);

// German clock times ("um 19:30 Uhr", "von 14 bis 16 Uhr", "um 8 Uhr abends") that the English
// translation wrote with the wrong half of the day or on the 24-hour clock beside a mark ("7:30",
// "14 to 16 p.m.", "9 p.m.", "23 p.m."), written the English way: "7:30 p.m.", "2 to 4 p.m.",
// "9 a.m.", "11 p.m.". A German hour 0-11 is a morning one unless a word for the afternoon,
// evening or night is said beside it ("um 8 Uhr abends", "Sonntagabend um 8 Uhr"); 12 is noon.
// A target hour the model wrote as the German one, without a mark ("at 9:30", "at 7 o'clock"),
// stays. Only from "de" to "en", only for a target number with the time's hour (either clock) and
// minutes that reads as a time (a mark after it, minutes, a range, or "at"/"from"/"until"... before
// it); the edits replace the number and its mark, last first; the first `fixed` bytes stay. Where
// the source says its one time in words ("halb acht" 7:30, "Viertel nach acht" 8:15, "Viertel vor
// neun" / "dreiviertel neun" 8:45) and the target has one clock time with those minutes at another
// hour ("at 2:30"), that time gets the source's hour ("at 7:30"). Where the source has a date and a
// time ("am 3. Oktober um 15:30 Uhr") and the target one number of the date's day and the time's
// minutes right after the month's name ("on October 3:30 p.m."), that number becomes the day, then
// the time: "on October 3 at 3:30 p.m.". A clock time right after one of the source's (one space
// between) that the source never says ("um 4.15 Uhr" -> "at 4.15 2:30": the retry's copy beside the
// model's own time) goes.
std::vector<TextEdit> english_clock_times(std::string_view source, std::string_view target, std::string_view from,
                                          std::string_view to, size_t fixed = 0);

}  // namespace nmt
