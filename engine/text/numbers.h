// Numbers a translation must keep: finds a text's numbers, and the source numbers (and currency
// signs) a translation lacks. The translator translates a sentence that lost one again, with the
// numbers it lost shown to the model as unknown pieces and copied in, written the target language's
// way, as it does for addresses (text/verbatim.h); a lost currency sign is put back in place.
// Why: the model drops and garbles numbers: "214.000 Personen" -> "000 people", "50.000 Besucher" ->
// "5,000 visitors", "im Juni 2014" -> "in June", "555-0199" -> "55-0199" (measured on the
// back-translated news: a number lost in ~9% of German and ~8% of English sentences with one).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/text_edit.h"

namespace nmt {

// The currency signs whose loss changes what an amount means, with the names a translation may use
// instead (lower case, as lower_words gives them: "US-Dollar" -> "us", "dollar"). The numbers pass
// puts a lost sign back; pass_through leaves out a sign the translation already names.
struct Currency {
  std::string_view sign;
  std::vector<std::string_view> names;
};
const std::vector<Currency>& currencies();

using ByteSpans = std::vector<std::pair<size_t, size_t>>;

// The numbers of `text` as [begin, end) bytes: runs of ASCII digits joined by single separators
// between digits (. , : ' as in "1,234.56", "20:25", "0,5774", "3'000"), groups of thousands
// written with spaces ("55 000", "5 000 000"), and dates ("12/03/2025", "1.10.20"). With `words_too` false
// (a source), numbers that are part of a word ("G7", "1990er", "MP3"; not those before a unit
// of measure or a.m./p.m.: "3.5kg", "2,5GHz", "9am") and numbers inside
// `skip` (addresses) are left out (ordinals stay: English "1st", "21st", German "2. Weltkrieg",
// "am 7. Oktober": is_german_ordinal).
ByteSpans find_numbers(std::string_view text, std::string_view language, bool words_too, const ByteSpans& skip = {});

// The length of an English ordinal's ending at `at` of `text`, right after its digits ("st" of
// "1st", "21st", "3rd"; not before a letter or a hyphen: "1stly", "3rd-party"), else 0. An English
// source's ordinal is a number to keep (find_numbers): German writes it "1." or as a word ("ersten").
size_t english_ordinal_ending(std::string_view text, size_t at);

// The English ordinal ending of a number whose digits end `digits`: "st" of "1" and "21", "nd" of
// "22", "rd" of "3", "th" of "11", "12", "13" and "4".
const char* english_ordinal_suffix(std::string_view digits);

// Whether the number at [begin, end) of German `text` is an ordinal: one or two digits, ". " and a
// word ("2. Weltkrieg", "am 7. Oktober", "die 3. Auflage"). A German source's ordinal is a number to
// keep; English writes it "3rd", "3", "third" or "III".
bool is_german_ordinal(std::string_view text, size_t begin, size_t end);

// The bytes of the minus sign ('-' or U+2212) that makes the number at `begin` of `text` negative
// ("-5", "(−3", "-5–-10"), or 0 (none, or a hyphen after a letter or digit: "5-10", "COVID-19").
size_t minus_sign_before(std::string_view text, size_t begin);

// The indices of the source's `numbers` that `target` lacks. Each needs its own number of the target
// with the same digits (separators may differ: "50.000" -> "50,000", "9,5" -> "9.5"; a date's must
// still make a date: "12.03.2025" -> "12/03/2025", not "12,03,2025"; a decimal or a time keeps one:
// "9.30" -> "9:30", not "930", while "1.000" may be "1000"), or for an hour
// (up to 24, alone or before minutes) the same 12 hours apart ("19 Uhr" -> "7 p.m.", "20:25" ->
// "8:25") or a full hour written with minutes ("5 Uhr" -> "5:00", "17 Uhr" -> "5.00"), or for a number up to twelve the word for it in `target_language` ("2 Mädchen" -> "two
// girls", "1 Tag" -> "one day"; "en" and "de"). A number after a '-' that makes it negative needs
// one after a minus too (no hour, no word). An English ordinal needs a German one ("1st" -> "1.",
// "erste"; "1st" copied) when `target_language` is "de"; a German one ("3. Auflage") its digits
// ("3rd", "3"), an English ordinal or number word ("third", "three") or a Roman numeral ("II") in
// English. The second year of a range may be written short or in
// full ("2020–2021" -> "2020–21", range_dashes writes it back). Also counted as lacking: a source
// number whose target number is given a currency the source never names ("£150" -> "150 £ Euro"),
// or another scale or unit ("200 m" -> "200 Mio.", "$2.5 billion" -> "2,5 Billionen", "300 m" -> "300 miles"),
// and one the target writes a number against that the source never says, or says fewer times
// (not its numbers, words or hours: "3rd", "zwanzig", "nineties", "noon", "5 p.m." -> 17):
// "2020–2021" -> "2020-20-2021" lacks both, "2019 ... September 2019" for one 2019 lacks it; a
// number left over where one is lost is taken for that one garbled ("2022" -> "20222").
std::vector<size_t> missing_numbers(std::string_view source, const ByteSpans& numbers, std::string_view target,
                                    std::string_view target_language);

// The indices of the source's `numbers` written with a currency sign ($ € £ ¥, before or after the
// number) that `target` lacks. Each amount needs the sign or the currency's name on its own target
// number (the one with its digits): the sign just before it, or the sign or name just after it or
// its scale word ("$5,000" -> "5.000 Dollar", "225 Millionen $"), or a name just before it ("USD
// 25"); a range shares one ("$21 million to $22 million" -> "21 bis 22 Millionen Dollar": joined by
// - – bis to und and oder or). So "$25 ... and $10" -> "25 ... und $10" lacks the first. An amount
// the target writes without its digits ("fünf Dollar") needs the currency named anywhere. The
// model drops the "$" of ~9% of English amounts ("fined $5,000" -> "5.000").
std::vector<size_t> unpriced_numbers(std::string_view source, const ByteSpans& numbers, std::string_view target);

// Where the signs of the unpriced numbers go in `target`, as (byte offset, text) pairs, last first:
// each goes with the target number that has its digits, written as `to` writes amounts: English
// before the number ("$10,000"), German after it and its scale word ("5,50 $", "225 Millionen $"),
// but before a number that starts a compound ("$3,1-Billionen-Projekt").
// Only a sign the source has; the first `fixed` bytes (a forced prefix) stay. Cheaper and surer
// than translating again: the model already placed the number.
std::vector<std::pair<size_t, std::string>> currency_insertions(std::string_view source, const ByteSpans& numbers,
                                                               std::string_view target, std::string_view to,
                                                               size_t fixed = 0);

// The edits (last first) that take out a currency the model gave an amount besides the source's:
// for each source amount with a sign, its target number (the first with its digits) loses another
// currency's name after it, its scale word and its own sign ("2 Millionen £ Euro" for "£2 million" ->
// "2 Millionen £"; "€1,2 Milliarden Pfund" -> "€1,2 Milliarden"), and another currency's sign right
// before it becomes the source's ("$1.2 billion" for "1,2 Mrd. €" -> "€1.2 billion"); only a currency
// the source never names, only after the first `fixed` bytes. The numbers retry leaves these where
// its own translation is no better.
std::vector<TextEdit> foreign_currencies(std::string_view source, const ByteSpans& numbers, std::string_view target,
                                         size_t fixed = 0);

// Whether `target` names a currency (its sign or its name) that `source` has neither the sign nor the
// name of: shown an amount as an unknown piece, the model guesses one ("$225 million" -> "$225
// Millionen Pfund"; € and £ are unknown pieces in its training data).
bool adds_currency(std::string_view source, std::string_view target);

// `text` with the numbers at `spans` written as the `to` language writes them, same length: between
// English and German the thousands and decimal separators swap where the form says which is which
// ("1,234.56" <-> "1.234,56", "50,000" <-> "50.000", "9.5" <-> "9,5"; "55 000" -> "55,000" in English,
// "55.000" in German). Times, dates ("1.10.2020"), labels ("Python 3.11", "Kapitel 3.2": a version,
// chapter or model number after a name or a word for one), clock times ("9.00 a.m.", "20,15 Uhr"),
// plain digit runs and other languages are left as written.
std::string localize_numbers(std::string_view text, const ByteSpans& spans, std::string_view from, std::string_view to);

// The target's numbers with the digits of one of the source's `numbers` whose form says how the
// target language writes it (localize_numbers changes it), but written otherwise at the same length,
// rewritten the target's way in place: the model often copies "1,234.56" into a German translation
// as it is, or mixes the two ("1,234,567" -> "1.234,567"). So is a number with a dot or comma that
// the target writes as the source does (a date without its year, a version), where the model
// turned it ("am 12.03." -> "on 12,03"). The first `fixed` bytes (a forced prefix) stay, and so do
// the target's spans in `keep` (its addresses and code, copied verbatim: "example.com/item/1,234.5").
void localize_copied_numbers(std::string_view source, const ByteSpans& numbers, std::string& target,
                             std::string_view from, std::string_view to, size_t fixed = 0, const ByteSpans& keep = {});

// The edits that give each English ordinal in `target` its right ending: "October 3th" -> "3rd"
// (the de->en model writes one now and then: "Two days before the 1th May"), "11st" -> "11th",
// "22th" -> "22nd". Only after the first `fixed` bytes (a forced prefix).
std::vector<TextEdit> english_ordinal_endings(std::string_view target, size_t fixed = 0);

// The edits that write a range of numbers with the source's dash: where the source has "A–B" (en
// dash) and the target "A-B" ("in 3–5 business days" -> "in 3-5 Werktage" -> "3–5", "12–14 June" ->
// "12–14. Juni"), or the source "A-B" or "A–B" and the target "A:B", which reads as a score or a
// ratio ("in 2-3 days" -> "in 2:3 Tagen" -> "2-3"; unless the source writes "A:B" too), or the
// target "A.B" / "A,B" for the source's range of one- or two-digit ends, which reads as one number
// ("3–5 May" -> "3.5. Mai" -> "3.–5. Mai", "3–5 hours" -> "3,5 Stunden" -> "3–5"; unless the source
// writes that number too); a range of years the target wrote short gets the source's second year
// ("2019–2020" -> "2019–20" -> "2019–2020"). Only the same digits on both sides, only after the first
// `fixed` bytes (a forced prefix).
std::vector<TextEdit> range_dashes(std::string_view source, std::string_view target, size_t fixed = 0);

// The edits that keep the source's "~" (about) on its number: en->de dropped it or moved it ("It
// costs ~$50." -> "Es kostet 50 ~ Dollar.", "takes ~3 hours" -> "dauert 3 Stunden"). Each source
// number after a "~" (at a word's start, a currency sign and one space allowed between: "~50",
// "~$50", "~ 3") gets "~" before the target's number with its digits (before a sign written before
// it: "~$50"), unless one is there; a "~" standing alone between spaces in the target goes, where
// the source has none. Only after the first `fixed` bytes (a forced prefix). Last first.
std::vector<TextEdit> approximate_marks(std::string_view source, std::string_view target, size_t fixed = 0);

// "1,234.56" -> "123456"
std::string digits_of(std::string_view number);

// The words of `text` (runs of letters), ASCII letters lower-cased: "US-Dollar" -> "us", "dollar".
std::vector<std::string> lower_words(std::string_view text);

}  // namespace nmt
