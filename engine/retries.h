// The retry passes (text/passes.h, stage "retry"): after the first translation, a sentence whose
// translation came out empty, or lost one of its numbers or dates, is translated again with the
// model, differently; the second translation replaces the first where it is better by the pass's
// stated rule.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "search/beam_search.h"
#include "text/segmenter.h"
#include "units.h"

namespace nmt {

// What a retry pass sees of a request: its text, units and their hypotheses (which it may
// replace), how to read a sentence again, and the model to translate units again.
struct RetryRound {
  const std::string& text;
  const std::vector<TextPiece>& pieces;
  const SourceReader& reader;             // how the sources were read (units.h)
  std::string target_language;
  const std::vector<int>& silent_tokens;  // the target tokens that write nothing, ascending
  const SearchOptions& search;            // the first translation's search
  // Translates units again (batching.h translate_units) with these search options.
  std::function<std::vector<Hypothesis>(const std::vector<Unit>&, const SearchOptions&)> translate;
  std::vector<Unit>& units;
  std::vector<Hypothesis>& hyps;
};

// "retry_empty": a sentence whose translation came out empty (the model wrote only tokens that
// write nothing: "sehr" alone came out "▁" and eos) is translated again with none of them allowed
// as its first token: no text is lost to an empty translation. One that wrote an unknown piece
// where its source has a glossary term is not empty (the term is written there): made again, "The
// invoice" with invoice -> Rechnung came out "„Da“ Rechnung", a word the source never says.
void retry_empty(RetryRound& round);

// "numbers": a sentence whose translation lost or changed one of its numbers (text/numbers.h) or
// named dates (text/dates.h) is translated again, with what it lost shown to the model as unknown
// pieces (like addresses) and copied in, written the target language's way ("50.000" -> "50,000").
// The second translation replaces the first only if it keeps every number the first one kept,
// writes (its unknown pieces filled) no more numbers besides the first's than the first lost (not
// "at the October 5 00 3:30 p.m." for "am 5. Oktober um 15:30 Uhr": the 00 is its own), guesses
// no currency the source does not name, where a lost number is one digit the model itself wrote
// the unknown pieces (else the digit would be put next to a word), it writes no more unknown
// pieces than its source has (one written twice: "on <unk> on <unk>"), and it doubles no word
// (doubles_a_word). One that writes an unknown piece beside a number or another unknown piece the
// source has apart ("considered to be <unk> 2,500.") stands only if the fallback is not better.
// The fallback, where the second is not better (and no named date was lost): the sentence is read
// once more unmasked, its lost numbers written the target's way in place ("3.450" -> "3,450"),
// and that translation replaces the first only if it keeps every number of the source (as the
// number_separators pass writes it back), guesses no currency and doubles no word. The last
// resort, where that reading only left lost numbers out (it garbled none and wrote no number the
// source lacks): each is put in next to the translation of the word before it (with its sign, a
// "%" or a unit's symbol after it: "100 m"), where the words on its two sides were translated side
// by side (by their attention): "About 1 in 5 adults" -> "Etwa 1 in 5 Erwachsenen", which every
// reading wrote "Etwa in 5". Else the first translation stays. Sentences cut into chunks are left as they are (a chunk's numbers may sit in
// the next one).
void retry_numbers(RetryRound& round);

// Whether `second` writes a word (letters, 5 bytes or more, any case; twice in a row counts once)
// twice or more that `first` writes at most once ("ging", "with" or a word a long sentence repeats
// may come once more): a retry that writes "people" twice ("The 24.07.2016 people came on 3,450
// people." for "Am 24.07.2016 kamen 3.450 Menschen.") is not better than the first translation.
bool doubles_a_word(std::string_view first, std::string_view second);

// The numbers retry may write a number of its own right after an unknown piece ("from 13 to <unk>
// 15." for "von 13 bis 22 Uhr": the model read the piece as an hour and gave it minutes), which
// counts as invented and made the whole retry be rejected. Rule (used by retry_numbers; here for
// the tests): a number (a word of digits and separators, a lone space piece between allowed) right
// after an unknown piece whose first digits the source never writes goes, with its rows.
void drop_number_after_unknown(Hypothesis& second, std::string_view source, const SentencePiece& tokenizer);

// The numbers retry's word order (used by retry_numbers; here for the tests). The retry may write
// the first translation's words with the lost number as its unknown piece in another place ("am
// Samstag 17:30 um Uhr" where the first had "am Samstag um 15.30 Uhr": the model had rarely seen
// "um <unk> Uhr"). Rule: when the retry's tokens without its one unknown piece (and the lone space
// token before it) are the first translation's tokens without one run of number pieces (digits and
// . , :), the unknown piece moves, with its rows of attention and probabilities, to where that run
// was: the first translation's word order, the source's number. Any other retry is left as it is.
void put_number_where_first_had_one(Hypothesis& second, const std::vector<int>& first, const SentencePiece& tokenizer);

}  // namespace nmt
