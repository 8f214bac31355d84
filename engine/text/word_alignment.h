// Word alignment for the UI: turns the model's token-level cross-attention (which source tokens a
// target token looked at) into word-level links, so hovering a word in the translation can
// highlight the source words it came from. Words are found here, independently of the tokenizer;
// tokens are attached to words by their byte spans.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace nmt {

struct Span {
  size_t begin, end;  // byte offsets within one sentence's text
};

// Words of a sentence: maximal runs of letters/digits/marks (Latin, Greek, Cyrillic, Hebrew,
// Arabic, ...), with inner apostrophes/hyphens kept (don't, Kaiser-Wilhelm) and inner . , between
// digits (3.14, 1,000); each CJK ideograph and each emoji (with its modifiers, ZWJ sequence or flag
// pair) is its own word; each other non-space character (punctuation, symbols) is its own word.
// Zero-width and bidi control characters belong to no word.
std::vector<Span> find_words(std::string_view sentence);

struct WordAlignment {
  std::vector<Span> source_words, target_words;
  // [target_words.size() x source_words.size()], row-major: soft weight of each source word for
  // each target word; each row sums to 1, or is all 0 when no attention reached a word.
  std::vector<float> matrix;
  // Hard alignment: (target word, source word) = argmax of each matrix row (rows all ~0 skipped).
  std::vector<std::pair<int, int>> links;
};

// The tokens of each word, by span: a token belongs to the word its span overlaps most (tokens
// overlapping no word, such as </s>, belong to none); a word that owns no token (the "." inside the
// token "▁1.", which belongs to "1") takes every token that overlaps it. Only the first `count`
// spans are read; spans past `text_size` are clipped.
std::vector<std::vector<int>> word_tokens(const std::vector<Span>& words, const std::vector<Span>& token_spans,
                                          size_t count, size_t text_size);

// token_spans: byte span of each token in its sentence (a token may have an empty span, e.g. </s>);
// soft: [target_tokens x source_tokens] row-major cross-attention (rows sum to ~1).
// A token belongs to the word its span overlaps most (tokens overlapping no word are ignored). Word
// weight = sum over the source tokens of the word, averaged over the target tokens of the word;
// each row then renormalized to sum 1 over the words (if it has any mass). Spans past the text are
// clipped; spans beyond target_tokens/source_tokens rows/columns and non-finite or negative
// weights are ignored; a null `soft` gives an all-zero matrix and no links.
WordAlignment align_words(std::string_view source, const std::vector<Span>& source_token_spans,
                          std::string_view target, const std::vector<Span>& target_token_spans,
                          const float* soft, int target_tokens, int source_tokens);

}  // namespace nmt
