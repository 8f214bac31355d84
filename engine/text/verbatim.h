// Web addresses, e-mail addresses, `code` and very long unbroken runs: text to copy, not to translate. The model cut them into
// pieces and "translated" those ("support@mycompany.de" -> "Support@meincompany.de",
// "https://www.beispiel.de/kontakt" -> "https://www.de/Intact"). The translator shows the model an
// unknown piece in their place and copies the address itself into the translation where the model
// puts that piece, as it does for emoji (text/pass_through.h).
// Code between backticks ("Run `npm install` first") is copied too: the model had learned the
// German manual pages' »quotes« for it ("Führt »npm install« zuerst aus").
// A run of more than kLongRun characters without a space is no word either: a path, a hash, base64,
// a formula, or a long line of one letter. The model cut it into hundreds of pieces and lost or
// repeated some (20,000 random letters came out as 17,933 characters after a minute); it is copied.
// The longest German compounds in the corpus are under 60 letters.
// Emoticons standing alone are copied (":-)", ";)", ":D", "<3": de->en wrote ":-", ";", ":").
// Hashtags and mentions are copied ("#berlin" -> "#Netz", "@anna" -> "@Anna" before), and codes
// of hyphen-joined digit groups ("978-3-96-449970-4" came out "978-396-449970-4").
// Names from code, file names and paths are copied too ("package.json", "child_process.fork()",
// "max_connections", "getElementById", "/etc/apt/sources.list"): the model translated their
// parts ("Paket.json", "Kind_process.fork()", "Prozess.dlopen()"); in the Node.js, Rust and
// Valgrind manuals it kept only 54% of dotted names, 59% of snake_case and 67% of camelCase ones.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nmt {

constexpr size_t kLongRun = 64;  // characters (code points)

// The addresses in `text`, as [begin, end) bytes in order:
//   - web addresses: "http://", "https://", "ftp://" or "www." (any case) at the start of a word,
//     up to the next whitespace;
//   - e-mail addresses: local@domain.tld (letters, digits and . _ % + - on the left; letters,
//     digits, dots and hyphens on the right, ending in a dot and two or more letters).
// Trailing punctuation that ends the sentence or clause (. , ; : ! ? ' ") is not part of the
// address, nor is a closing bracket the address did not open. Then code between backticks, with
// its backticks (an address inside it is part of it). Then every other run of more than kLongRun
// characters up to whitespace that none of those overlaps, trimmed the same way and without an
// opening bracket or quote before it. Then hashtags and mentions ("#travel", "@anna": "#" or "@" and
// a letter at a word's start). Then emoticons between whitespace (verbatim.cpp, `emoticon_length`;
// a final . , ! or ? may follow). Then codes of three or more digit groups joined by hyphens
// ("978-3-96-449970-4", "555-371-2323": the models dropped their hyphens; a range "3-5" is left to
// the number passes). Then the identifiers no span holds: snake_case, dotted names
// ("package.json", not "z.B."), lowerCamelCase ("getElementById", not "iPhone"), names that end in
// a number ("Windows11", "Check24", a password "Sunflower2024"; not "MP3", "G7"), names with "::",
// "$VARIABLES" and paths, each without the punctuation after it, cut at hyphens ("VimRC" of
// "VimRC-Dateien") unless it is a path (verbatim.cpp, `reads_as_code`). Runs of fullwidth or
// mathematical letters and digits ("ＡＢＣ", "𝒳") are copied too: the tokenizer folds them to plain
// ones, which the model would write instead. The spans never overlap.
std::vector<std::pair<size_t, size_t>> verbatim_spans(std::string_view text);

// Abbreviations in capitals with a one-letter variant after a hyphen ("USB-C", "DVD-R", "PCI-E";
// also before a German compound's hyphen, "USB-C-Kabel") that no span of `taken` holds, in order.
// The de->en model drops the letter ("Mein USB-C Kabel ist kaputt." came out "My USB cable is
// broken.", "DVD-R" "DVD r"), so the verbatim pass masks them in German; the en->de model writes
// them well ("USB-C-Kabel") and would lose the compound's hyphen if they were masked. Not a word
// after the hyphen ("LOG-IN"), nor a single capital before it ("X-Ray").
std::vector<std::pair<size_t, size_t>> variant_codes(std::string_view text, const std::vector<std::pair<size_t, size_t>>& taken);

// The byte length of the emoticon standing alone at byte `i` of `text` (":-)", "<3"; see
// verbatim_spans), else 0.
size_t emoticon_at(std::string_view text, size_t i);

// Markdown's fenced code blocks: from a line that starts with ``` or ~~~ (after up to three spaces)
// to the next line that starts with the same fence, both lines included, as [begin, end) bytes of
// `text`. Their sentences are copied as they are ("npm install --save-dev" came out "Npm install
// --save-dev"). A fence never closed is not a block: a stray ``` must not leave the rest of a text
// untranslated.
std::vector<std::pair<size_t, size_t>> fenced_code_blocks(std::string_view text);

// Markdown's indented code blocks that read as code, as [begin, end) bytes of `text` (from the first
// line's start to the last non-blank line's end). As CommonMark defines them: lines indented by four
// or more columns (a tab reaches the next multiple of four) after a blank line, a heading, a fenced
// block or the text's start (an indented line cannot interrupt a paragraph), with the blank and
// indented lines after them; in a list, an item's continuation is no code unless it is indented four
// more than the item's text. People indent prose too (poems, quotations, paragraphs of e-mails), so
// a block is copied only when it reads as code: more of its lines show code ("f(x)", "a = b", "{",
// "--flag", "$ ", "::", "->", a final ";") than read as prose (a capital and a small letter first, or
// a sentence's final mark), or none reads as prose and the line before it ends in ":" ("Run the
// tests:" before "    npm test"). Read as text, "npm test" came out "Npmtest".
std::vector<std::pair<size_t, size_t>> indented_code_blocks(std::string_view text);

// Both kinds of Markdown code blocks, fenced and indented, sorted: their sentences are copied as
// they are (units.cpp).
std::vector<std::pair<size_t, size_t>> code_blocks(std::string_view text);

// `text` with each span's bytes replaced by private-use characters of the same total length (no
// vocabulary has them, and SentencePiece merges a run of unknown characters into one unknown piece),
// so the tokens of the result span the input's bytes. Spans shorter than 2 bytes are left as they are.
std::string mask_spans(std::string_view text, const std::vector<std::pair<size_t, size_t>>& spans);

}  // namespace nmt
