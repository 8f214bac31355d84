// The decoding options: one table of their names, defaults and allowed ranges, and the options
// struct built from it.
//
// Every interface reads this table: TranslateOptions (below) and SearchOptions take their defaults
// from it, the `nmt` command parses and checks its flags with it (--beam, --length-penalty, ...:
// the name with '-' for '_'), and the WASM binding checks the JSON options a page sends with it
// and hands the table to JavaScript (optionSpecs()), where web/options.js must be the same table
// (tests/wasm/options.test.mjs), and from which scripts/gen-options.mjs writes the JS types
// (web/translator.d.ts) and docs/api.md's options table. A value out of range is an error naming
// the option and its range (option_error), never clamped.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

namespace nmt {

// switches: an object of names to true or false (the text passes, text/passes.h); terms: an object
// of source terms to target terms (the glossary, text/glossary.h)
enum class OptionKind { integer, number, flag, text, switches, terms };

struct OptionSpec {
  const char* name;  // the JSON key (snake_case); the command-line flag is --name with '-' for '_'
  OptionKind kind;
  double fallback;   // the default (0 or 1 for a flag; text options default to "", switches to {})
  double min, max;   // allowed values, inclusive (integer and number)
  bool cli;          // the `nmt` command takes it
  const char* doc;
};

namespace option {
inline constexpr OptionSpec beam{"beam", OptionKind::integer, 4, 1, 16, true, "beam size; 1 = greedy search"};
// alpha and beta were tuned together on dev (weights/EXPERIMENTS.md, "Decoding")
inline constexpr OptionSpec length_penalty{"length_penalty", OptionKind::number, 0.6, 0, 2, true,
                                           "GNMT length penalty alpha for ranking finished beams (0 = raw log-probability)"};
inline constexpr OptionSpec coverage_penalty{"coverage_penalty", OptionKind::number, 0.1, 0, 2, true,
                                             "GNMT coverage penalty beta: marks down beams that skipped source words (0 = off)"};
inline constexpr OptionSpec max_length_ratio{"max_length_ratio", OptionKind::number, 1.5, 0.1, 4, true,
                                             "target tokens <= source tokens * ratio + 10 (and <= the model's max_length)"};
inline constexpr OptionSpec reverse_weight{"reverse_weight", OptionKind::number, 0.3, 0, 5, true,
                                           "with a reverse model: weight of log p(source | candidate) when reranking"};
inline constexpr OptionSpec rerank{"rerank", OptionKind::flag, 1, 0, 1, false,
                                   "rerank the beam's candidates with the reverse model, when one is loaded"};
inline constexpr OptionSpec alignments{"alignments", OptionKind::flag, 0, 0, 1, true,
                                       "keep the cross-attention and compute word alignments"};
inline constexpr OptionSpec all_heads{"all_heads", OptionKind::flag, 0, 0, 1, true,
                                      "with alignments: also keep every decoder layer's every head"};
// A cap on the alignment JSON: a 255-token chunk's attention matrices are the bulk of a result.
inline constexpr OptionSpec attention_limit{"attention_limit", OptionKind::integer, 0, 0, 1024, true,
                                            "with alignments: leave out the token attention (and heads) of sentences with more than this many source or target tokens; word alignments stay (0 = no limit)"};
// A forced target prefix (search/forced_prefix.h) and how many next words alternatives() lists
// after it (search/alternatives.h).
inline constexpr OptionSpec prefix{"prefix", OptionKind::text, 0, 0, 0, true,
                                   "one sentence only: the translation starts with this text, kept exactly, and the search continues after it"};
inline constexpr OptionSpec alternatives{"alternatives", OptionKind::integer, 5, 1, 20, true,
                                         "list this many next words after the prefix, most probable first, each with the rest of the sentence (greedy)"};
// The lexical shortlist (model/shortlist.h): faster, and the translation may differ where the full
// vocabulary would pick a token outside the list (weights/EXPERIMENTS.md measures it).
inline constexpr OptionSpec shortlist{"shortlist", OptionKind::flag, 0, 0, 1, true,
                                      "decode over the model's lexical shortlist, when it has one (the likely target pieces of the source's pieces), instead of the whole vocabulary: faster, may differ slightly"};
// Sampling instead of the argmax (search/sampling.h), for back-translation: beam 1 only (a beam
// with it is an error, sampling_error), temperature 1; each sentence draws from its own random
// stream, seeded by `seed` and its source tokens, so batching does not change what it draws.
inline constexpr OptionSpec sample_top_k{"sample_top_k", OptionKind::integer, 0, 0, 1000000, true,
                                         "beam 1 only: draw each next token from the model's k most probable ones (renormalized; k >= the vocabulary = unrestricted) instead of taking the most probable (0 = off)"};
inline constexpr OptionSpec seed{"seed", OptionKind::integer, 0, 0, 2147483647, true,
                                 "with sample_top_k: the random stream (the same seed and sentence draw the same translation)"};
// Sentences in capitals, Title Case or all lower case are recased for the model (text/casing.h); this
// turns it off.
inline constexpr OptionSpec keep_case{"keep_case", OptionKind::flag, 0, 0, 1, true,
                                      "translate sentences as they are written, instead of recasing those in capitals, in Title Case or all in lower case for the model (and writing a sentence in capitals back in capitals)"};
// A sentence whose translation lost or changed one of its numbers or dates is translated again with
// them copied (text/dates.h), a currency sign the model left out is put back and clock times get the right half of the
// day (text/numbers.h, text/clock_times.h); versions keep their dot, English ordinals their ending and
// ranges their en dash (text/numbers.h). This leaves the model's first translation.
inline constexpr OptionSpec raw_numbers{"raw_numbers", OptionKind::flag, 0, 0, 1, true,
                                        "leave numbers as the model writes them, instead of translating a sentence that lost or changed one of its numbers again with the numbers copied (in the target language's separators) and its dates with a month's name written the target language's way (3. Oktober 2023, October 3, 2023), putting back a currency sign it left out, writing clock times with the right half of the day (English p.m. hours on the 24-hour clock in German, German hours with a.m. or p.m. in English), keeping the dot of version and section numbers (Python 3.11), the English ordinal endings (3rd, not 3th) and the source's en dash in ranges (3–5)"};
// Whole short sentences that the model file's translation memory holds get its human translation
// (text/memory.h); this leaves every sentence to the model.
// The text passes (text/passes.h) run on every request; this switches some off by name. The flags
// above (keep_case, raw_numbers, model_only) are aliases: each switches off the passes that name it.
inline constexpr OptionSpec passes{"passes", OptionKind::switches, 0, 0, 0, false,
                                   "switch text passes off by name (CLI --no-pass NAME): {numbers: false}; translator.info.passes lists them in the order they run"};
// The user's glossary (text/glossary.h): each source term found comes out as its target term.
inline constexpr OptionSpec glossary{"glossary", OptionKind::terms, 0, 0, 0, false,
                                     "source terms to target terms (CLI --glossary FILE, a TSV): each term found in a sentence, as a whole word in any letter case (a word the term writes in capitals only in capitals), comes out as its target term (a term mapped to itself stays untranslated); overlapping terms: the longest wins"};
inline constexpr OptionSpec model_only{"model_only", OptionKind::flag, 0, 0, 1, true,
                                       "translate every sentence with the model, also the short everyday ones whose human translation the model file's translation memory holds"};
}  // namespace option

inline constexpr const OptionSpec* kOptionSpecs[] = {
    &option::beam,         &option::length_penalty, &option::coverage_penalty, &option::max_length_ratio,
    &option::reverse_weight, &option::rerank,       &option::alignments,       &option::all_heads,
    &option::attention_limit, &option::prefix,    &option::alternatives,     &option::shortlist,
    &option::sample_top_k,  &option::seed,           &option::keep_case,        &option::raw_numbers,
    &option::model_only,   &option::passes,         &option::glossary,
};

struct TranslateOptions {
  int beam_size = int(option::beam.fallback);
  float length_penalty = float(option::length_penalty.fallback);
  float coverage_penalty = float(option::coverage_penalty.fallback);
  float max_length_ratio = float(option::max_length_ratio.fallback);
  int max_length_offset = 10;     // (fixed) the "+ 10" of max_length_ratio
  float reverse_weight = float(option::reverse_weight.fallback);
  bool rerank = option::rerank.fallback != 0;  // only with a reverse model (Translator::translate's `reverse`)
  bool alignments = option::alignments.fallback != 0;
  bool all_heads = option::all_heads.fallback != 0;
  int attention_limit = int(option::attention_limit.fallback);  // 0 = no limit
  std::string prefix;             // "" = none (Translator::translate then takes any text)
  int alternatives = int(option::alternatives.fallback);  // Translator::alternatives' count
  bool shortlist = option::shortlist.fallback != 0;  // no effect when the model has no shortlist
  int sample_top_k = int(option::sample_top_k.fallback);  // 0 = the argmax (greedy); needs beam_size 1
  int seed = int(option::seed.fallback);                  // with sample_top_k
  bool keep_case = option::keep_case.fallback != 0;        // false: capitals / Title Case recased (text/casing.h)
  bool raw_numbers = option::raw_numbers.fallback != 0;    // false: lost numbers put back (text/numbers.h)
  bool model_only = option::model_only.fallback != 0;      // false: the translation memory's sentences (text/memory.h)
  std::vector<std::string> passes_off;  // the text passes switched off by name (text/passes.h)
  std::vector<std::pair<std::string, std::string>> glossary;  // (source term, target term): text/glossary.h
  int batch_tokens = 2048;        // sentences are batched up to this many source tokens
  int batch_rows = 64;            // and up to this many decoder rows (sentences x beam)
};

// "an integer from 1 to 16", "a number from 0 to 2", "true or false", "a string", "an object of
// pass names (verbatim, memory, ...) to true or false".
std::string allowed_values(const OptionSpec& spec);
// "<shown_name> must be <allowed_values> (got <got>)": the one wording every interface uses.
std::string option_error(const OptionSpec& spec, std::string_view shown_name, std::string_view got);
// True when `value` is allowed (in range; a whole number for an integer option; 0 or 1 for a flag).
bool option_allowed(const OptionSpec& spec, double value);
// A whole-string number as the command line gives it ("4", "0.6"); false for "abc", "4x", "", "nan".
bool parse_number(std::string_view text, double& out);

// The option's value in / into TranslateOptions (flags as 0 and 1; a text option reads as its
// fallback and is set directly, TranslateOptions::prefix).
double get_option(const TranslateOptions& options, const OptionSpec& spec);
void set_option(TranslateOptions& options, const OptionSpec& spec, double value);

// Empty unless sampling is asked for with a beam: "<top_k_name> must be 0 unless <beam_name> is 1
// (got <top_k_name> K with <beam_name> B)", named as the interface names them.
std::string sampling_error(const TranslateOptions& options, std::string_view beam_name, std::string_view top_k_name);
// Empty when every option in `options` is allowed (and sampling_error has nothing to say), else
// the first error.
std::string check_options(const TranslateOptions& options);
// The options a JSON object names (keys as in the table; others ignored), the rest default.
// "" means {}. Errors: not a JSON object, a value of the wrong type or out of range.
Result<TranslateOptions> options_from_json(std::string_view json);
// The table as JSON: [{name, kind, default, min, max, doc}] (flags: default true/false, no range;
// switches: default {} and `names`, the names it takes, in order; terms: default {}).
std::string option_specs_json();

}  // namespace nmt
