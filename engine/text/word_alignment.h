// Word alignment for the UI: turns the model's token-level cross-attention (which source tokens a
// target token looked at) into word-level links, so hovering a word in the translation can
// highlight the source words it came from. Words are found here, independently of the tokenizer;
// tokens are attached to words by their byte spans.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "text/text_edit.h"

namespace nmt {

struct Span {
  size_t begin, end;  // byte offsets within one sentence's text
};

// Words of a sentence: maximal runs of letters/digits/marks (Latin, Greek, Cyrillic, Hebrew,
// Arabic, ..., styled "𝐛𝐨𝐥𝐝" letters), with inner apostrophes/hyphens kept (don't, Kaiser-Wilhelm) and inner . , between
// digits (3.14, 1,000); each CJK ideograph and each emoji (with its modifiers, ZWJ sequence or flag
// pair) is its own word; each other non-space character (punctuation, symbols) is its own word.
// Zero-width and bidi control characters belong to no word.
std::vector<Span> find_words(std::string_view sentence);

struct WordAlignment {
  std::vector<Span> source_words, target_words;
  // [target_words.size() x source_words.size()], row-major: soft weight of each source word for
  // each target word; each row sums to 1, or is all 0 when no attention reached a word.
  std::vector<float> matrix;
  // Hard alignment, (target word, source word) pairs: align_words gives the argmax of each matrix
  // row (rows all ~0 skipped); read_alignment and symmetrize may give a word several links.
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

// How the alignment shown to users (Sentence.wordAlignments, the page's highlight and the heatmap's
// word view) is read out of the cross-attention. Chosen on the hand-aligned dev set
// (tests/fixtures/align/, `npm run bench:align`): one head, read one step late ("shift"), pooled
// into words as align_words does; then
//   - each target word links to the source word it attends to most (row argmax),
//   - each source word links to the target word that attends to it most, when that weight is at
//     least column_min (a compound or particle verb attended by several words: one-to-many),
//   - punctuation links only with punctuation, and only when it has at least punctuation_min of the
//     row (a comma with no counterpart stays unaligned); words link only with words.
struct AlignmentReadout {
  float column_min = 0.1f;
  float punctuation_min = 0.05f;
};

// Each target token's row of attention read one step late: the row of the decoder step whose
// *input* is the token (row k + 1 of `rows`, the step that predicted the next token), which shows
// what the token was translated from; the row of the step that produced a token describes the
// next one. rows: [row_count, columns], one per step (row_count >= tokens); a token with no later
// row (a translation cut at the length limit) keeps its own.
std::vector<float> next_step_rows(const float* rows, int row_count, int tokens, int columns);

// The word alignment of `soft` ([target_tokens, source_tokens], the read-out head's shifted
// attention: next_step_rows) with the read-out's links. The matrix is align_words'.
WordAlignment read_alignment(std::string_view source, const std::vector<Span>& source_token_spans,
                             std::string_view target, const std::vector<Span>& target_token_spans,
                             const float* soft, int target_tokens, int source_tokens,
                             const AlignmentReadout& readout = {});

// The links of a word matrix ([target words, source words] rows summing to 1, or all 0) under
// `readout`; target_punctuation / source_punctuation say which words are punctuation or symbols.
std::vector<std::pair<int, int>> readout_links(const std::vector<float>& matrix, const std::vector<bool>& target_punctuation,
                                               const std::vector<bool>& source_punctuation,
                                               const AlignmentReadout& readout = {});

// Symmetrization with the other direction's model: `forward` aligns this translation's target to
// its source; `reverse` the same two texts the other way round (its target words are forward's
// source words). intersection keeps the links both read-outs make (on the dev set: precision ~97,
// recall ~89); grow_diag (Koehn et al. 2003) then adds the links of either that neighbour a kept
// one (also diagonally) and bring in a word not yet aligned on one side (more recall, less
// precision, a higher AER there). The matrix stays forward's; links are (target, source), sorted.
enum class Symmetrization { intersection, grow_diag };
WordAlignment symmetrize(const WordAlignment& forward, const WordAlignment& reverse,
                         Symmetrization how = Symmetrization::intersection);

// Glossary terms (`terms`: each source term's bytes and its target term, as text/glossary.h finds
// them) in the alignment `w` of a sentence and its translation `target`: each written term's words
// link to its source term's words, and only to them (word for word when both have as many words,
// else each to all of them). The model saw the term as one unknown piece (and may have put it by
// another masked piece, or left it out, when pass_through writes it next to a neighbour with no
// token of its own), but which source term each written term stands for is known. The k-th time a
// term's target text is in the translation stands for the k-th source term with that text (the
// masked source holds no other copy of it for the model to write).
void align_terms(const std::vector<TextEdit>& terms, std::string_view target, WordAlignment& w);

// The stretches of the translation the engine copied or wrote for a known source stretch, not the
// model: `copies` holds each source stretch (at, length: bytes of `source`) and the text written
// for it (a glossary term; a run the model was shown as one unknown piece: an address, code, an
// emoji, a date written the target's way; characters the tokenizer deleted). The model's attention
// saw each as one piece (all of an address's words went to one of them), or never saw it (a run
// inserted after decoding has no token, so no attention), but which source words it stands for is
// known. The k-th time a text is in the target, as whole words and in any letter case, stands for
// the k-th stretch written so (where it is not there, the source's own text copied stands for it); its words then link to the stretch's words and only to them: each to
// the unlinked source word of the same text ("https" to "https", "2023" to "2023"), the rest of each
// kind (words, punctuation) in order when both sides have as many ("Mai" to "May", "." to ","), else
// each to all of them; and no other target word links into the stretch. Rows are rewritten to match.
void align_copies(const std::vector<TextEdit>& copies, std::string_view source, std::string_view target, WordAlignment& w);

// The final marks of a sentence written two or more times without a space ("!!", "???"), which the
// final marks pass writes as the source ends, often into the one token of the model's "?": when the
// target ends with a run of the mark and length the source ends with, the runs link mark for mark,
// and only to each other.
void align_mark_runs(std::string_view source, std::string_view target, WordAlignment& w);

// Target words the engine wrote, without attention of their own, that have no link yet: a word
// outside every token (no token span overlaps it: a currency sign or number put back, a run
// inserted after decoding), and a word written like a source word in `unseen` (stretches of the
// source the model never read: emphasis marks, which go back into a token's text). Each links to
// a source word of the same text (in any letter case; for the second kind, one in `unseen`), in
// order: the first not yet taken after the source word the target word before it links to, else
// the first not yet taken.
void align_written_words(std::string_view source, std::string_view target, const std::vector<Span>& target_token_spans,
                         WordAlignment& w, const std::vector<Span>& unseen = {});

}  // namespace nmt
