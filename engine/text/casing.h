// Recasing: finds sentences in capitals, in Title Case or all in lower case, writes them as the
// training text would for the model to read (Truecaser), and writes a translation's first letter
// as a capital where its source starts with one (capitalized_start). The translator writes a
// sentence that came in capitals back in capitals.
// Why: the model saw few such sentences ("THE MEETING IS CANCELLED.", "Rates Expected To Rise
// Again", "wir treffen uns am bahnhof in berlin") in training, so it spells capitals out letter by
// letter ("THE MEICHEN IST ISTELLED.") and misreads German nouns written small ("at the groundy
// station"). weights/EXPERIMENTS.md ("Sentences in capitals and Title Case") measures the recasing:
// dev sources in capitals went from BLEU 2.5 / 3.4 to 21.5 / 28.1 (en->de / de->en), in lower case
// from 18.6 / 20.1 to 21.2 / 28.5, and ordinary sentences are left alone (5 of 3,997 English dev
// lines change, no German one).
//
// Which form a word takes comes from the model file's word list (engine/FORMAT.md, truecase.<lang>:
// the words whose usual form in the training text is not all lower case, e.g. "Sitzung", "NASA",
// "iPhone", and the word pairs whose form the words alone get wrong, "New York", "dass sie"; built
// by weights/recipe/truecase.py); a word not in it is written in lower case.
//
// Every case change here keeps the length in bytes (ß in capitals is SS, Turkish dotted I is left as it is),
// so offsets into a recased sentence are offsets into the input, and alignments need no mapping.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/result.h"
#include "model/model_file.h"
#include "text/text_edit.h"
#include "tokenizer/sentencepiece.h"

namespace nmt {

enum class SentenceCase {
  normal,  // anything else: left as it is
  upper,   // most words (3 in 4, at least 2) in capitals, or its one word, of 4+ letters with a vowel
           // ("ACHTUNG!", "NEWS"; not "HTTPS", "USA": abbreviations; "NASA" is, read as the word list writes it)
  title,   // English: at least 4 words, and every word of 4 or more characters capitalized; or 2 or 3
           // words, each capitalized, a small word after the first too ("Contact Us", "Sign In")
  lower,   // at least 3 words, not one capital letter, 3 in 4 characters letters ("i dont know what youre talking about")
  fragment,  // one or two such words ("bahnhof", "setz dich"): each takes its usual form; a single word
             // is not made a capital ("cat" stays "cat": "Cat" reads as a name, "Kat"; "essen" stays a
             // verb). The translator recases a fragment only when it is the whole text: "(see below)"
             // after a sentence stays as written.
};

// How `sentence`, in `language`, is cased (words: runs of letters, digits and combining marks; only
// words of two or more letters count). Title Case is an English convention: German capitalizes every
// noun, so "Die Kirschenzeit ist von Juni bis Juli." would look like it.
SentenceCase sentence_case(std::string_view sentence, std::string_view language);

// `text` with every letter that has a lower (upper) case of the same UTF-8 length mapped to it:
// Latin (Basic, Latin-1, Extended-A), Greek and Cyrillic; in upper case ß is SS (two bytes too).
std::string to_lower_same_length(std::string_view text);
std::string to_upper_same_length(std::string_view text);

// A sentence that starts with a capital letter starts its translation with one. The de→en model
// writes a German sentence's first noun as an English word in lower case ("Schätzungen reichen von"
// -> "estimates range from": 8 flores-dev lines), and the link text "About us" came out "über
// uns". The edit that capitalizes the target's first letter, or nothing: where the source's first
// letter (after any quotes or brackets) is not a capital, or the target's first word is not all in
// lower case ("iPhone", "eBay") or starts with no letter.
std::vector<TextEdit> capitalized_start(std::string_view source, std::string_view target);

// The translation of a sentence that goes on from an earlier line (text/segmenter.h
// continues_a_line: "the list:\nred apples and\ngreen pears") starts as its source does, in lower
// case: the edit that writes the target's first letter small, or nothing. The models start every
// translation with a capital ("Rote Äpfel und", "And bought milk."). Into English, any first word
// but "I" ("I'm") and a word the source writes with that capital (a name: "Berlin"); into German,
// only a word German never capitalizes inside a sentence (an article, a pronoun, a conjunction, a
// preposition, a common adverb: "Aber niemand kam." -> "aber niemand kam."; a noun or another word
// that may be one stays: "Äpfel").
std::vector<TextEdit> continued_start(std::string_view source, std::string_view target, std::string_view target_language);

// A name the source writes with a capital inside ("LinkedIn", "OneDrive", "iPhone") is written so
// in the translation: the edits for each target word that is such a name in other letter case (de->en
// "Ich nutze LinkedIn." came out "I am using linkedIn.", "auf OneDrive" "on oneDrive"). Words in
// capitals ("NASA") are no such names; the first `fixed` bytes stay.
std::vector<TextEdit> names_as_written(std::string_view source, std::string_view target, size_t fixed);

// In the translation of a sentence that came in capitals (`target`, in capitals, its tokens'
// `target_spans`), where the model copied a name it cannot translate and cut it short, the edits
// that write the rest of it: "IMPRESSUM", read as "Impressum", came out "IMPRESS"; "SQLITE IS FAST",
// read as "SQLite is fast", "SQLIT IST SCHNELL". A target word that starts a source word in capitals
// (at least 3 letters and half the word, at most 3 letters left off; the target nowhere holds the
// whole word) gets the rest when that word is a name: the form the model read (its
// `source_tokens`' pieces) has a capital after its first letter ("SQLite", "PostgreSQL"), or the
// target word's tokens are the word's first pieces and what is left off is 1 or 2 letters that
// are no ending of an English or German word form nor a doubled last letter ("Impress|um"; not
// "Partner|s", "Normal|e", "Stop|p": a translation of the word).
std::vector<TextEdit> cut_names(std::string_view source, const std::vector<Token>& source_tokens, std::string_view target,
                                const std::vector<std::pair<size_t, size_t>>& target_spans, size_t fixed);

class Truecaser {
 public:
  // The model file's word list for `language` (tensor truecase.<language>): an empty list (every
  // word recased to lower case) when the file has none, an error when it is there but not u8 bytes.
  static Result<Truecaser> from(const ModelFile& file, const std::string& language);
  // From a list of forms, one a line (the tensor's contents): a word, or two words one space apart
  // whose form differs from their own forms' ("New York"). Lines that are not valid UTF-8 or whose
  // lower case has another length are skipped.
  static Truecaser from_list(std::string_view lines);

  // `sentence`, cased as `how` says it is, written as the training text would write it: in an upper
  // sentence every word without lower-case letters, in a title sentence every capitalized word,
  // takes its usual form (lower case when the list does not have it); the sentence then starts with
  // a capital; in an upper sentence a formula ("H2O", "CO2") and an abbreviation's variant ("USB-C")
  // stay as written. A normal sentence comes back as it is. The result has the length of `sentence`.
  std::string recase(std::string_view sentence, SentenceCase how) const;

  size_t size() const { return forms_.size() + pairs_.size(); }

 private:
  std::unordered_map<std::string, std::string> forms_;  // a word in lower case -> its usual form
  std::unordered_map<std::string, std::string> pairs_;  // "new york" -> "New York" (where forms_ errs)
};

}  // namespace nmt
