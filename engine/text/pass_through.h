// Pass-through of what the vocabulary cannot write: emoji, other scripts, rare symbols. The tokenizer
// turns each run of such characters into the unknown piece, and the model can only write " ⁇ " for
// it, or leave it out. Both lose the reader's text, so after decoding:
//   1. every unknown piece the model wrote gets the source run it attends to most (unused runs
//      first), the classic "unk replacement", spaced as in the source (a letter inside a word stays
//      joined to it: "Erdo" "⁇" "an" -> "Erdoğan"); one with no run to take, that looks most at a
//      mark the source has as a known piece (the model reads « » but writes them as unknown ones:
//      "«no»" -> "⁇ no ⁇"), gets that mark, while the target holds fewer of it than the source;
//   2. every source run still unused that is not a Latin letter inside a word (like the "ç" of
//      "Barça", which the model spells its own way) is inserted after the target word aligned to
//      the source word before it (or before the word aligned to the one after it, at the sentence
//      start): emoji, CJK and other scripts come through even when written against a word. A run of
//      quotation marks (‘ « ‚) is not, while the target has as many quotation marks as the source:
//      the model wrote them its own way ("»maybe«" for "‘maybe’").
// Characters the tokenizer deletes outright (U+FFFD: no piece at all, not even the unknown one)
// are never seen by the model; their visible runs (`dropped_runs`) are inserted the same way as in
// step 2, even inside a word, and a sentence of nothing else becomes its own text, verbatim.
// Target spans are updated so alignments and confidence go on working over the new text.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tokenizer/sentencepiece.h"

namespace nmt {

// True if the sentence holds nothing to translate: no letter of any script (nor a CJK ideograph),
// only digits, punctuation, symbols and emoji ("?!?!... ***", "1,234.56", "* * *"). The model can
// only reshuffle such a sentence ("!!!" -> "!!", "- 12 -" -> "- 12 - 12 -"), so it is copied.
bool has_no_words(std::string_view sentence);

// True if every token that holds a letter is the unknown piece: a sentence in a script the
// vocabulary lacks ("今天天气很好，我们走吧。", "Привет, как дела?"), or one that is only an address
// or a long run (text/verbatim.h). The model could only move its punctuation about ("今天天气很好，
// 我们走吧。" -> "今天天气很好 我们走吧。,"), so it is copied too.
bool has_no_known_words(const std::vector<Token>& tokens, int unk_id);

// True if any of the tokens is the unknown piece.
bool has_unknown(const std::vector<Token>& source_tokens, int unk_id);

// source: the sentence text the tokens' [begin, end) index; target_ids / spans: the decoded target
// (without eos) and each id's byte span in `target`; attention: [target_ids.size() (+1 for eos),
// source_tokens.size() + 1 (eos)] row-major, the alignment layer's mean cross-attention (may be
// empty: then the runs are placed by position alone). The first `fixed_bytes` of the target (a
// forced prefix, kept verbatim) are neither replaced nor inserted into, and the runs they already
// hold (in source order) are not inserted again.
// `dropped`: byte ranges of the source the tokenizer gave no piece for (dropped_runs), inserted
// after the translation of the token before them (before that of the token after them at the
// start; the whole target when the sentence has no tokens).
// A run that is the currency sign of an amount ($ € £ ¥, a "~" before it allowed: "€50", "25 €") is
// not written where the target already names that currency ("50 Euro") or, with `signs_by_amount`
// (the currency pass is on), ever: that pass puts it back by its amount where the model lost it.
// `rewrites`: (a run's first byte, the text written for it instead of its source text): a date the
// model was shown as an unknown piece, written the target language's way (text/dates.h).
using Rewrites = std::vector<std::pair<size_t, std::string>>;
void pass_through_unknown(const std::string& source, const std::vector<Token>& source_tokens, int unk_id,
                          const std::vector<int>& target_ids, const std::vector<float>& attention,
                          std::string& target, std::vector<std::pair<size_t, size_t>>& spans, size_t fixed_bytes = 0,
                          const std::vector<std::pair<size_t, size_t>>& dropped = {}, const Rewrites& rewrites = {},
                          bool signs_by_amount = false);

// An unknown piece the model wrote inside a word of a name whose letter its training data lacked
// ("Ky" <unk> "to" for "Kyoto": the data had "Kyōto"), at target bytes [b, e) (its surface " ⁇ "
// or "⁇"): the 1-3 characters in its place in the source word that reads like the target word around
// it ("o"), exactly so first; empty when no source word does. pass_through_unknown fills such pieces,
// and the alternatives (alternative_text.cpp) theirs.
std::string letters_from_source(const std::string& source, const std::string& target, size_t b, size_t e);

// A token that decodes to a lone space before one that starts with a space: the model wrote a "▁"
// where it began an unknown piece it then left out ("etwa  Millionen"). Its space is dropped (its
// span left empty), so the text never holds two spaces the model did not mean; the first `fixed`
// bytes (a forced prefix) stay.
void drop_doubled_spaces(std::string& target, std::vector<std::pair<size_t, size_t>>& spans, size_t fixed = 0);

// Inserts `text` at byte `at` of the target, outside any token, and shifts the token spans at or
// after it (text the translator adds: a copied run, a currency sign).
void insert_at(std::string& target, std::vector<std::pair<size_t, size_t>>& spans, size_t at, const std::string& text);

// Replaces `length` bytes of the target at byte `at` by `text`, inside one token (a number the
// translator rewrites), and shifts the spans after it.
void replace_at(std::string& target, std::vector<std::pair<size_t, size_t>>& spans, size_t at, size_t length,
                const std::string& text);

// The runs of visible characters in `source` that `deleted` says the tokenizer writes nothing for
// (SentencePiece::normalizes_to_nothing; asked once per distinct non-ASCII character, never for
// whitespace, control or invisible format characters such as U+200B, which are not text to keep):
// [begin, end) bytes, one run across the whitespace and invisible characters between two such
// characters ("\uFFFD \uFFFD" is one run).
std::vector<std::pair<size_t, size_t>> dropped_runs(const std::string& source,
                                                    const std::function<bool(std::string_view)>& deleted);

// Whether the character is invisible on its own: default-ignorable format characters (zero-width
// space and joiners, BOM, soft hyphen, bidi controls, variation selectors, tags).
bool is_invisible(char32_t cp);

}  // namespace nmt
