// Sentence segmentation: cuts user text into the sentences the model translates one at a time and
// the whitespace between them, which is kept verbatim so the translation can be reassembled with
// the same paragraph breaks, newlines and spaces. Rule-based (English and German rules), one linear
// pass, no exceptions. (A sentence too long for the model is cut later, into token chunks:
// units.cpp's chunk_tokens.)
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace nmt {

// The text cut into pieces that, concatenated, give back the text exactly: sentences to translate
// and the whitespace between them (kept verbatim: paragraph breaks, newlines, spaces).
struct TextPiece {
  size_t begin, end;  // byte offsets into the text
  bool is_sentence;   // false: a gap of whitespace (and item separators such as " » ", " | ")
};

// lang: "en" or "de" (anything else gets the English rules). A sentence ends at . ! ? … (and
// closing quotes/brackets after them) followed by whitespace and an upper-case letter, a digit, a
// letter of a script without case or an opening quote/bracket; after a face (":)", ";-)", not "<3";
// an emoji of a face or a hand, "🙏", "👍🏽", not "❤️" or "🍕") that follows a word, before a capital
// ("Thanks :) See you", "Danke 🙏 Bis bald"); at 。！？ whatever follows; and at
// every newline and tab (a tab separates the cells of a pasted table, so the tabs stay and each cell
// is translated on its own), but for a single line break inside a sentence of a hard-wrapped text
// (the line before has two words or more, ends in a letter, a digit or a comma, and it or the next
// is long or it ends on a word no sentence ends on; the next starts small, or with a capital after an article or a
// preposition; no list item, heading, quote, code or table; the sentence spans at most 400 bytes
// up to it: docs/text-rules.md), which stays inside the sentence (text/passes.h place_line_breaks
// writes it into the translation); and around a mark that separates the items of
// a menu or breadcrumb (| ¦ » › • · ∙ ◦ ‣ →) standing alone between spaces on one line after a
// sentence: "Home » News » Sport" is three sentences, and the gaps " » " keep the marks. A list
// number at the start of a line or cell ("1. ", "12) ", before a word, a number or a quote; not a
// German date, "3. Oktober 2023") is in the gap before its item: the item is translated alone and
// the number copied; so are Markdown's marks of a quote or a heading there ("> ", "## "). No split after common abbreviations (Dr. e.g. z. B. usw.
// ...; but one that also ends sentences, such as Inc. etc. U.S. usw., does before a word that starts
// one: "from Acme Inc. It works" is two), single initials (J. R. R. Tolkien), German ordinals ("am 3. Oktober", "Ludwig XIV. war"; not before a pronoun,
// an article or a conjunction: "Nr. 5. Er ist nett." is two sentences), "No. 5"-style
// abbreviations before a number; decimals,
// URLs and e-mail addresses never split because no whitespace follows their dots. Whitespace-only
// text gives only gaps; empty text gives no pieces. Sentences never start or end with whitespace.
std::vector<TextPiece> segment_text(std::string_view text, std::string_view lang);

// Whether sentence piece `p` of `text` goes on with a sentence that an earlier line began: a line
// break lies between it and the sentence before it, which ends with no . ! ? …, and it starts with
// a small letter ("the list:\nred apples and\ngreen pears", a hard-wrapped paragraph). Its
// translation is no sentence start either (text/casing.h continued_start).
bool continues_a_line(std::string_view text, const std::vector<TextPiece>& pieces, size_t p);

// Marks that separate the items of a menu or a breadcrumb, or the cells of a table typed with bars
// (| ¦ » › • · ∙ ◦ ‣ →), where one stands alone between spaces: "Startseite » Wirtschaft » Zinsen".
// Read as part of one sentence they came out as quotes or were lost ("Economy \" interest rates").
bool is_item_separator(char32_t cp);

}  // namespace nmt
