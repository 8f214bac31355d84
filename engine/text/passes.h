// The text passes: every rule the engine applies around the model, in one ordered list.
//
// A sentence travels through them in three stages:
//   source  before tokenizing: spans the model must not translate are masked as one unknown piece
//           each (addresses and names from code, the user's glossary terms), the translation
//           memory is looked up, and what the model reads is rewritten at the same length
//           (recased, emphasis marks and gender signs made invisible), so token spans stay spans
//           of the text as given;
//   retry   after decoding: a sentence whose translation came out empty or lost a number is
//           translated again (retries.h: these need the model, which the translator lends them);
//   target  after decoding: the translation is repaired (numbers, dates, clock times, labels,
//           quotes, final marks, repeats, pass-through of what the vocabulary cannot write).
// kPasses (passes.cpp) is the list, in the order the passes run; `translator.info.passes` shows
// it. translate, alternatives, a forced prefix, HTML (the JS side calls the same entry points) and
// the CLI all run it. Each pass can be switched off by name (TranslateOptions::passes_off, JSON
// `"passes": {"numbers": false}`, CLI `--no-pass numbers`); the older flags (raw_numbers,
// keep_case, model_only) are aliases that switch off the passes that name them.
//
// Each pass is one function of its stage's shape: a source pass edits a SourceSentence, a retry
// pass a RetryRound, a target pass a TargetSentence. Most target passes are a rule function of
// text/ that returns edits (text/text_edit.h), applied by apply_edits, which keeps the token spans
// (and so alignments and token probabilities) valid. A new rule: one file in text/ and one line in
// kPasses.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/emphasis.h"
#include "text/format_characters.h"
#include "text/glossary.h"
#include "text/pass_through.h"
#include "text/text_edit.h"

namespace nmt {

class Truecaser;
class TranslationMemory;
enum class SentenceCase;
struct RetryRound;  // retries.h

enum class PassStage { source, retry, target };

// One sentence as the source passes read it: what the model is shown of it (`shown`, the sentence
// rewritten at its length, with the `masked` spans shown as one unknown piece each), and what it
// is forced through (`memory_translation`).
struct SourceSentence {
  SourceSentence(std::string_view sentence, std::string_view language, SentenceCase how, const Truecaser* truecaser,
                 std::vector<std::pair<size_t, size_t>> masked = {})
      : sentence(sentence), language(language), how(how), truecaser(truecaser), masked(std::move(masked)),
        shown(without_format_characters(sentence)) {}
  std::string_view sentence;   // as given
  std::string_view language;   // the source language
  SentenceCase how;            // how the sentence is cased (text/casing.h)
  const Truecaser* truecaser;  // null: no recasing
  std::vector<std::pair<size_t, size_t>> masked;  // sorted; the passes add to it
  std::string shown;           // starts as `sentence` without its invisible format characters (text/format_characters.h)
  const GlossaryIndex* glossary = nullptr;  // null: none
  bool in_code = false;        // in a fenced code block (copied as it is: no glossary terms)
  const TranslationMemory* memory = nullptr;  // null: not looked up
  std::vector<TextEdit> terms;  // the glossary's terms found (masked too), bytes of the sentence
  std::string memory_translation;  // the memory's translation, ending as the sentence ends; or empty
};

// What the passes that place text by the model's attention need of a decoded sentence: its
// source tokens, its target ids (without eos) and the alignment layer's attention
// ([target ids (+ eos), source tokens + eos]). Absent for alternatives (next words, no attention).
struct DecodedSentence {
  const std::vector<Token>& source_tokens;
  int unk_id;
  const std::vector<int>& target_ids;
  const std::vector<float>& attention;
  bool has_eos;                // the hypothesis ended with eos (its attention has that row)
  std::string_view copy_source;  // what unknown pieces are copied from (text/pass_through.h)
  const std::vector<std::pair<size_t, size_t>>& dropped;
  const Rewrites& rewrites;
  const std::vector<EmphasisMark>& emphasis;
};

// One sentence's translation as the target passes see it.
struct TargetSentence {
  std::string_view source;  // the sentence as given
  std::string_view from, to;  // the languages
  std::string target;       // the translation, edited in place
  std::vector<std::pair<size_t, size_t>> spans;  // each target token's bytes in `target`
  std::vector<float> token_probs;  // each token's probability (empty: not kept)
  size_t fixed = 0;         // the first bytes (a forced prefix) stay as they are
  bool prefixed = false;    // a prefix was given (even an empty translation start counts)
  bool copied = false;      // the target is the source's own text (nothing to translate)
  bool starts_sentence = true;  // false for a long sentence's later chunks and a line that goes on with one (units.h)
  bool in_capitals = false;     // the source came in capitals (text/casing.h)
  bool in_code = false;         // in a Markdown code block: copied as it is, no target pass runs
  bool capitals_written = false;  // the capitals pass wrote it in capitals: so are the terms written after it
  const DecodedSentence* decoded = nullptr;  // null: passes that need attention are skipped
  bool currency_on = false;  // the currency pass runs (set by run_target_passes): it places lost signs
  std::vector<std::string> fired;  // run_target_passes adds the name of each pass that changed `target`
  // the source's verbatim spans (text/verbatim.h), found once by run_target_passes for every pass
  std::vector<std::pair<size_t, size_t>> source_verbatim;
};

struct Pass {
  const char* name;
  PassStage stage;
  const char* alias;  // the older option that switches it off too ("raw_numbers"), or null
  const char* doc;
  void (*source)(SourceSentence&);  // a source pass's work
  void (*retry)(RetryRound&);       // a retry pass's work (retries.h)
  void (*target)(TargetSentence&);  // a target pass's work
  bool on_copied;     // runs on a sentence copied as it is, too
};

// The passes in the order they run.
const std::vector<Pass>& passes();
// The pass named `name`, or null.
const Pass* find_pass(std::string_view name);
// "verbatim, memory, ..." (for messages).
std::string pass_names();

// Which passes run for one request: every one but those switched off by name or by an alias.
class PassSwitches {
 public:
  PassSwitches() = default;
  PassSwitches(const std::vector<std::string>& off, bool raw_numbers, bool keep_case, bool model_only);
  bool on(std::string_view name) const;
  bool on(const Pass& pass) const { return on(pass.name); }

 private:
  std::vector<std::string> off_;
};

// Runs the source passes that are on over `s` (in order); adds the name of each that changed what
// the model reads (or found the memory's translation) to `fired`, when given.
void run_source_passes(SourceSentence& s, const PassSwitches& on, std::vector<std::string>* fired = nullptr);
// Runs the retry passes that are on over `round` (in order).
void run_retry_passes(RetryRound& round, const PassSwitches& on);
// Runs the target passes that are on over `s` (in order), after finding `s.source_verbatim`; none
// for a sentence in a code block (`in_code`), which stays as the source writes it.
void run_target_passes(TargetSentence& s, const PassSwitches& on);

// The spans of the source's and the target's tokens, each list with the empty span of its end (the
// column of the source's end of sentence, the row of the target's), as the decoder's attention rows
// and columns stand: what align_words and read_alignment read `s.decoded->attention` with.
struct AttentionSpans {
  std::vector<Span> source, target;
  bool attended = false;  // the decoder's attention holds a row for each target span
};
AttentionSpans attention_spans(const TargetSentence& s);

// Writes the source's line breaks into the translation: a sentence of hard-wrapped lines
// (text/segmenter.h) is read as one, and each of its line breaks, with the spaces around it as the
// source has them, takes the place of the space before the target word that says the source word
// after the break (the attention read as the word alignments are); with no such word, where the break
// stands in the source, in proportion; with no space left, at the end. The translation then has as
// many line breaks as its source, in order. run_target_passes ends with it (no switch turns it off).
void place_line_breaks(TargetSentence& s);

// Applies `edits` (last first, as the rule functions return them) to the target: an edit with
// `outside` set inserts text outside any token, any other replaces bytes inside the token that
// holds them; the spans after it shift. With `sure`, the tokens that hold written text get
// probability 1 (the rule is sure of them: the model's doubt was about what it replaced). An edit
// inside a verbatim copy (verbatim_copies) is left out: no pass changes an address or code.
void apply_edits(TargetSentence& s, const std::vector<TextEdit>& edits, bool sure = false);

// Where the target holds a verbatim copy: the text of each of the source's verbatim spans
// (`s.source_verbatim`: addresses, code, names from code), wherever the target has it.
std::vector<std::pair<size_t, size_t>> verbatim_copies(const TargetSentence& s);

}  // namespace nmt
