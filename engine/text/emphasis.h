// Markdown emphasis in plain text ("**Note:** Save often.", "a *very* good idea", "__Tip:__",
// "~~old~~ new"): finds the marks, hides them from the model, and puts each back into the
// translation next to the target words aligned with the words it marks, as a word processor keeps
// bold on the translated words.
// Why: people paste text from chats, README files and notes with these marks, and the models
// mangled them: "This is **very** important." -> "Das ist **very** wichtig." (the marked word left
// untranslated), "**Warning:** Do not open the door." -> "**Warning:* Nicht die Tür öffnen.", "Das
// ist **sehr** wichtig." -> "This is **sehr* important.". (Read as spaces, the marks made the model
// write "auch ." -> "also ." and "( foo )"; each mark byte becomes U+0001 instead, which the
// tokenizer's normalizer deletes, so the text keeps its length and token spans stay spans of the
// text as given.)
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/word_alignment.h"

namespace nmt {

// One mark of a pair ("**" before "Note:", or the "**" after it), or a mark that opens a sentence
// or closes it without its partner in the sentence (a paragraph in italics that the segmenter cut
// into sentences: "*This is one." "This is two.*").
struct EmphasisMark {
  size_t begin = 0, end = 0;              // the mark's bytes in the sentence
  size_t marks_begin = 0, marks_end = 0;  // the text it marks: for an opening mark, from after it to its
                                          // closing mark (or the sentence's end); for a closing one, from
                                          // its opening mark (or the sentence's start) to it
  bool opens = false;
};

// The emphasis marks of `sentence`, in order: runs of 1-3 "*" or "_", or "~~", that open (after no
// letter or digit, before a non-space) and close (after a non-space, before no letter or digit) a
// pair of the same run on the same line, with text between them: "(*see below*)",
// "**RESOLVE**(x)", "_**must**_"; not inside a word ("2*3", "snake_case").
// A mark without its partner counts only at the very start or end of the sentence. Marks inside
// `skip` (addresses, code, identifiers: text/verbatim.h) are not marks. A "*" between spaces
// ("2 * 3") or before a space ("* item") is none either: the model copies those.
std::vector<EmphasisMark> find_emphasis(std::string_view sentence, const std::vector<std::pair<size_t, size_t>>& skip);

// `text` with each mark's bytes replaced by `fill`: U+0001, which the normalizer deletes, for what
// the model reads; spaces for what the copy of an address or a name beside a mark is spaced by
// ("**nmt_nfkc**" must not glue the name to the word before it).
std::string blank_marks(std::string_view text, const std::vector<EmphasisMark>& marks, char fill = '\x01');

// Where each mark goes in the translation, as (target byte, mark text), in order of position (at one
// position, closing marks first): an opening mark before the first target word aligned with the
// words it marks, a closing one after the last. Where the translation has each marked word as it is
// written, once (a name, a number, code copied over), those are the words; else a target word counts
// as aligned with a source word by `alignment`'s hard link, or, where no target word links to the
// marked words, the one that gives them the most attention; with no attention at all, opening marks go at the start and
// closing ones at the end. Marks that would go before byte `fixed` (a forced prefix) are left out.
std::vector<std::pair<size_t, std::string>> place_emphasis(std::string_view source, const std::vector<EmphasisMark>& marks,
                                                           const WordAlignment& alignment, std::string_view target,
                                                           size_t fixed = 0);

}  // namespace nmt
