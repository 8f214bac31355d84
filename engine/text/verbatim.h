// Web addresses and e-mail addresses: text to copy, not to translate. The model cut them into
// pieces and "translated" those ("support@mycompany.de" -> "Support@meincompany.de",
// "https://www.beispiel.de/kontakt" -> "https://www.de/Intact"). The translator shows the model an
// unknown piece in their place and copies the address itself into the translation where the model
// puts that piece, as it does for emoji (text/pass_through.h).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nmt {

// The addresses in `text`, as [begin, end) bytes in order:
//   - web addresses: "http://", "https://", "ftp://" or "www." (any case) at the start of a word,
//     up to the next whitespace;
//   - e-mail addresses: local@domain.tld (letters, digits and . _ % + - on the left; letters,
//     digits, dots and hyphens on the right, ending in a dot and two or more letters).
// Trailing punctuation that ends the sentence or clause (. , ; : ! ? ' ") is not part of the
// address, nor is a closing bracket the address did not open.
std::vector<std::pair<size_t, size_t>> verbatim_spans(std::string_view text);

// `text` with each span's bytes replaced by private-use characters of the same total length (no
// vocabulary has them, and SentencePiece merges a run of unknown characters into one unknown piece),
// so the tokens of the result span the input's bytes. Spans shorter than 2 bytes are left as they are.
std::string mask_spans(std::string_view text, const std::vector<std::pair<size_t, size_t>>& spans);

}  // namespace nmt
