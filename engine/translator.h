// The engine's public API: load a model file, translate text, get alignments.
//
// Basic usage:
//
//   #include "translator.h"
//   auto loaded = nmt::Translator::load_file("weights/en-de/model.nmt");
//   if (!loaded) { fprintf(stderr, "%s\n", loaded.error().c_str()); return 1; }
//   nmt::Translator& t = *loaded.value();
//   nmt::TranslateOptions options;           // beam 4, no alignments (defaults: options.h)
//   options.alignments = true;
//   auto result = t.translate("The cat sleeps. It is tired.", options);
//   if (result) puts(result->text.c_str());  // "Die Katze schläft. Sie ist müde."
//   puts(nmt::to_json(result.value(), options).c_str());   // tokens, attention, word alignments
//
// The pipeline, top-down (each step in its own folder). The text rules below (numbers, dates,
// clock times, quotes, casing, pass-through, the glossary, ...) are passes in one ordered list,
// text/passes.h, each switched off by name (options.passes_off; info_json lists them):
//   text/segmenter     text -> paragraphs and sentences (gaps kept verbatim, with the marks
//                      between a menu's items: "Home » News")
//   tokenizer/         sentence -> SentencePiece tokens with byte spans (a sentence with no word
//                      in it, only digits, punctuation or emoji, is copied: text/pass_through)
//   text/memory        a short everyday sentence the translation memory holds -> its human
//                      translation, which the search is forced through
//   model/transformer  tokens -> encoder output; decoder steps -> logits (+ cross-attention)
//   search/            logits -> greedy / beam search hypotheses
//   text/numbers       a sentence that lost a number -> translated again with it copied;
//                      a currency sign left out -> put back by its amount
//   text/dates         a sentence that lost a date with a month's name -> translated again with
//                      it written the target's way ("am 24. Juli" -> "on July 24")
//   text/clock_times   a time with the wrong half of the day -> written right ("6 p.m." written
//                      "6 Uhr" -> "18 Uhr"; "um 8 Uhr" written "at 8 p.m." -> "at 8 a.m.")
//   text/repeated_words  a word written twice in a row -> once
//   text/final_marks   the source's final "!!" or "???" -> the translation's
//   text/quotes        a German translation's straight quotes -> „German ones“
//   text/casing        a sentence that starts with a capital -> so does its translation
//   text/word_alignment  cross-attention -> word-level alignments
//
// This header is opaque: it includes only the standard library and the small types it returns
// (Result, AlignedBuffer, the options, WordAlignment, Alternative). The model, tokenizer and search live behind
// Translator::Impl; tests and benchmarks that need them include translator_internal.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/aligned_buffer.h"
#include "common/result.h"
#include "options.h"
#include "search/alternative.h"
#include "text/word_alignment.h"

namespace nmt {

struct TokenSpan {
  std::string piece;  // "▁Hallo", or "</s>"
  size_t begin, end;  // bytes within the sentence text (empty for </s>)
};

struct SentenceTranslation {
  std::string source, target;
  size_t source_begin = 0, source_end = 0;  // bytes in Translation::source_text
  size_t target_begin = 0, target_end = 0;  // bytes in Translation::text
  std::vector<int> source_ids, target_ids;  // source with eos; target as generated (eos included if produced)
  // [target_ids] each token's probability under the model, p(token | source, the tokens before it):
  // the chosen hypothesis' (with reranking, the chosen candidate's forward probabilities)
  std::vector<float> token_probs;
  // log p(target) / ((5 + target_ids) / 6)^alpha, + the coverage penalty (beam), + the reverse model's
  // weighted, normalized log p(source | target) (reranking): what the search ranked it by
  float score = 0.0f;
  // Nothing the model can translate (only digits, punctuation, symbols or emoji, or words only in
  // scripts the vocabulary lacks: text/pass_through.h has_no_words, has_no_known_words): the target
  // is the source's own text, not the model's
  bool copied = false;
  // From the translation memory (text/memory.h): the target is a human translation of the sentence,
  // decoded through the model (its attention and alignments are the model's), each token sure
  bool from_memory = false;
  // The text passes (text/passes.h) that changed this sentence, in the order they ran: what the model
  // read (source passes, "verbatim" when something was copied, "memory"), a retry that replaced its
  // first translation, and the repairs of its text (target passes)
  std::vector<std::string> passes;
  // With options.alignments:
  std::vector<TokenSpan> source_tokens, target_tokens;  // one per id
  std::vector<float> attention;  // [target_ids, source_ids]: alignment layer, mean over heads
  std::vector<float> heads;      // [target_ids, decoder_layers, n_heads, source_ids] (options.all_heads)
  WordAlignment words;
  // [words.target_words] the product of each word's tokens' probabilities (word_tokens): the
  // model's probability of the word, given the source and the words before it
  std::vector<float> target_word_probs;
};

struct Translation {
  std::string source_text;  // the input after cleaning (invalid UTF-8 replaced, control chars removed)
  std::string text;         // the translation, with the input's paragraph breaks and spacing
  std::vector<SentenceTranslation> sentences;
  int source_tokens = 0, target_tokens = 0;
  int decoder_layers = 0, n_heads = 0;  // shape of SentenceTranslation::heads
  double ms_total = 0, ms_encode = 0, ms_decode = 0;
};

class Translator {
 public:
  // Copies the bytes once into an aligned buffer; weights are then used in place.
  static Result<std::unique_ptr<Translator>> load(const uint8_t* data, size_t size);
  // Takes a buffer the caller filled (the WASM binding copies straight from JS into it).
  static Result<std::unique_ptr<Translator>> load(AlignedBuffer bytes);
  static Result<std::unique_ptr<Translator>> load_file(const std::string& path);
  ~Translator();

  // `reverse`, optional: the model of the other direction (de->en for en->de, same vocabulary, see
  // check_reverse); with it, options.rerank and beam_size > 1 the beam's candidates are reranked by
  // how well the reverse model gets the source back (search/rerank.h): better translations, ~2.5x
  // the time. Options outside their ranges (options.h) are an error.
  // With options.prefix (search/forced_prefix.h) `text` must be one sentence, and its translation
  // starts with the prefix, kept exactly; the search continues after it (alignments and token
  // probabilities cover the prefix's tokens too).
  Result<Translation> translate(std::string_view text, const TranslateOptions& options,
                                const Translator* reverse = nullptr) const;
  // translate() as to_json writes its result, byte for byte, appended to `json`; each sentence is
  // written as soon as it is made and let go, so a long text's result is held once, as its JSON,
  // not also as every sentence's matrices (the WASM module's translate()). "" on success, else the
  // error (and nothing appended).
  std::string translate_json(std::string_view text, const TranslateOptions& options, const Translator* reverse,
                             std::string& json) const;
  // The options.alternatives most probable next words after options.prefix ("" = the first word) in
  // a translation of `source`, one sentence; each with the rest of the sentence, decoded greedily
  // (search/alternatives.h). Most probable first; the model's own greedy choice is among them.
  Result<std::vector<Alternative>> alternatives(std::string_view source, const TranslateOptions& options) const;
  // Empty if `reverse` can rerank this model's translations, else why not.
  std::string check_reverse(const Translator& reverse) const;
  // The sentences translate() reads in `text` (text/segmenter.h, the source language's rules), in
  // order: [begin, end) byte ranges of sanitize_utf8(text), which has the same UTF-16 length as
  // `text`. A caller may translate a text a few sentences at a time, cut between them and outside
  // Markdown's fenced code blocks (the WASM worker does, to hand over finished sentences early):
  // each piece of two sentences or more translates as it would in the whole text (one sentence
  // alone may not: a lone "ok then" is a fragment, text/casing.h); the gaps are the caller's to copy.
  std::vector<std::pair<size_t, size_t>> sentence_ranges(std::string_view text) const;

  std::string info_json() const;  // config, languages, provenance, file size, the text passes in order
  size_t file_bytes() const;      // the model file's size

  // The model file, tokenizer and model: defined in translator_internal.h, for tests and benchmarks.
  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  explicit Translator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The translation as JSON (the format the WASM module and `nmt --alignments` return; see
// engine/README.md). Offsets are UTF-16 code units, as JavaScript strings index.
std::string to_json(const Translation& t, const TranslateOptions& options);
// {"alternatives": [{word, probability, continuation}]}, probabilities rounded to 4 decimals.
std::string to_json(const std::vector<Alternative>& alternatives);

}  // namespace nmt
