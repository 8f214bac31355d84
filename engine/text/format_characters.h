// Invisible format characters a user pastes inside words: a soft hyphen from a hyphenated web page
// ("beau\u00ADti\u00ADful"), a zero-width space or joiner from a chat app or a PDF, a word joiner, a
// byte order mark in the middle of a text. SentencePiece's nmt_nfkc keeps the soft hyphen and the
// word joiner as unknown pieces (the model wrote "Das begehrte\u00AD \u00AD Haus" for "The
// beau\u00ADti\u00ADful house") and reads a zero-width space, a zero-width (non-)joiner, a direction
// mark or a BOM as a space ("beau ti ful": "Der Gurthaus"). The model reads the word whole instead;
// the characters are left out of the translation (nothing visible is lost: they have no glyph).
#pragma once

#include <string>
#include <string_view>

namespace nmt {

// True for a character that is dropped from what the model reads wherever it is: the soft hyphen
// (U+00AD), the word joiner (U+2060), the invisible operators (U+2061..U+2064) and the BOM / zero-width
// no-break space (U+FEFF). Each only joins or hyphenates; none ever separates two words.
bool is_dropped_format_character(char32_t cp);

// True for a character that is dropped where it stands inside a word (between two letters or
// digits of a cased script: "beau\u200Btiful", "Auf\u200Clage"), and read as before elsewhere: the
// zero-width space (U+200B), non-joiner (U+200C) and joiner (U+200D: between two emoji it joins
// them, "👩‍💻", and stays), the direction marks (U+200E, U+200F) and the direction embeddings and
// isolates (U+202A..U+202E, U+2066..U+2069). A zero-width space between words of a script without
// spaces (Thai) still separates them.
bool is_format_character_inside_words(char32_t cp);

// `sentence` as the model is to read it, at its length: each format character dropped (the two
// kinds above) written as bytes the tokenizer deletes (U+0001, one per byte; the input never holds
// one: sanitize_utf8 makes controls spaces), so the word around it is one word again and the
// tokens' spans still index `sentence` (a deleted byte belongs to the piece after it).
std::string without_format_characters(std::string_view sentence);

}  // namespace nmt
