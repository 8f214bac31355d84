// Text -> units: the sentences of a text, read by the source passes (text/passes.h) and tokenized,
// as the units the model translates (a sentence, or a chunk of one too long for the model).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "model/model_file.h"
#include "search/forced_prefix.h"
#include "text/casing.h"
#include "text/emphasis.h"
#include "text/glossary.h"
#include "text/pass_through.h"
#include "text/passes.h"
#include "text/segmenter.h"
#include "text/text_edit.h"
#include "tokenizer/sentencepiece.h"

namespace nmt {

class TranslationMemory;

// A unit of translation: one sentence, or a chunk of a sentence too long for the model.
struct Unit {
  size_t begin = 0, end = 0;  // bytes in the cleaned text
  size_t piece = 0;           // index of its sentence in the segmentation
  std::vector<Token> tokens;  // spans relative to `begin`
  std::vector<int> ids;       // the tokens' ids + eos, as the encoder takes them; empty without tokens
  // Visible characters the tokenizer deleted (U+FFFD): bytes relative to `begin`, copied over by
  // text/pass_through.h so that no text is lost.
  std::vector<std::pair<size_t, size_t>> dropped;
  // How its sentence was cased: an upper or title sentence is tokenized recased (text/casing.h),
  // and an upper one's translation is written in capitals.
  SentenceCase source_case = SentenceCase::normal;
  // What the unknown pieces are copied from when not the source itself: the source with the numbers
  // the model was shown as unknown pieces written the target language's way (text/numbers.h); and
  // the dates it was shown so, as the target language writes them (text/dates.h).
  std::string copy_source;
  Rewrites rewrites;
  // Its sentence has nothing the model can translate (text/pass_through.h has_no_words,
  // has_no_known_words): copied, not run.
  bool copied = false;
  // The translation memory's translation of its sentence (text/memory.h), as target ids + eos that
  // the search is forced through; empty when the model translates it.
  std::vector<int> memory_ids;
  bool starts_sentence = true;  // false for a long sentence's later chunks, and for a sentence that goes on
                                // from an earlier line in lower case (text/segmenter.h continues_a_line)
  // Markdown emphasis marks in it ("**Note:**"), bytes relative to `begin`: the model reads the
  // sentence without them, and they go back next to the words aligned with what they mark (text/emphasis.h).
  std::vector<EmphasisMark> emphasis;
  std::vector<std::string> fired;  // the passes that changed it before decoding and the retries that replaced it
  // The glossary's terms in it (text/glossary.h), bytes relative to `begin`: each shown to the model
  // as one unknown piece, and written as its target term (`rewrites` has them too).
  std::vector<TextEdit> terms;
  // The spans of its sentence the source passes masked (addresses, names from code, glossary terms),
  // bytes relative to the sentence's start: a retry reads the sentence with these masked again.
  // Empty for a chunk of a long sentence (no retry reads a chunk again).
  std::vector<std::pair<size_t, size_t>> masked;
};

// The most tokens (eos aside) of a unit cut from a long sentence. The models were trained on
// sentences far shorter than max_length and leave out or garble much of a longer one: 50 run-on
// texts of 8 flores-dev sentences joined by "and"/"und" (about 230 tokens each) score chrF en-de
// 43.6 whole, 53.0 cut at 128; de-en 47.9, 58.0. No flores-dev sentence is that long.
constexpr size_t kChunkTokens = 128;

// The most bytes of text a unit cut from a long sentence spans (a run of characters the vocabulary
// lacks, longer than this, is cut into unknown pieces of at most this much). A 128-token chunk of
// prose spans ~1,000 bytes; but one unknown piece can span a whole line of CJK or emoji, each
// character a word of the word alignment, whose words x words matrices grew with the square of
// the line (32,000 such characters in one raw WASM call with alignments aborted the engine).
constexpr size_t kChunkBytes = 4096;

// How a request reads its sources: the model's tokenizer and limits, and what the source passes
// need (text/passes.h SourceSentence).
struct SourceReader {
  const SentencePiece& tokenizer;
  const ModelConfig& config;
  std::string language;               // the source language
  const PassSwitches& switches;       // the passes this request runs
  const Truecaser* truecaser;         // the source's word list; null: sentences are not recased
  const GlossaryIndex* glossary;      // null: none
  const TranslationMemory* memory;    // null: not looked up (alternatives, a forced prefix)
  // the longest unit cut from a long sentence (at most the model's max_length - 1; a prefix's
  // sentence, which must stay one unit, may take all of that)
  size_t chunk_tokens = kChunkTokens;
  // the most bytes of such a unit (kChunkBytes; SIZE_MAX where the sentence must stay one unit)
  size_t chunk_bytes = kChunkBytes;
};

// The sentences of `text` (`pieces`, segment_text) -> units of tokens, long sentences cut into
// chunks the model can take. Each sentence is read through the source passes: what the model reads
// has the sentence's length, so the tokens' spans are spans of the text as given.
std::vector<Unit> read_units(const std::string& text, const std::vector<TextPiece>& pieces, const SourceReader& reader);

// A whole sentence (`piece` of the text, index `p`) read again with `masked` spans shown as one
// unknown piece each (a retry's lost numbers), as one unit; empty tokens when it has more than the
// model takes.
Unit reread_sentence(const std::string& text, const TextPiece& piece, size_t p, SentenceCase how,
                     const std::vector<std::pair<size_t, size_t>>& masked, const SourceReader& reader);

// A forced prefix needs one sentence (a unit: a sentence the model takes whole) and must leave the
// model room to go on after it. When that sentence is in capitals, so is its translation, and a
// prefix taken from it is recased for the model by the target language's `truecaser` (if given);
// addresses in it are masked as in the source; the translation still starts with the prefix as given.
Result<TargetPrefix> prefix_for(const std::vector<Unit>& units, const std::string& prefix_text,
                                const SentencePiece& tokenizer, const ModelConfig& c, const Truecaser* truecaser);

}  // namespace nmt
