// Forced target prefixes (see forced_prefix.h): the prefix's pieces, the constraint on the token
// after them, and the output text that keeps the prefix verbatim.
#include "search/forced_prefix.h"

#include <algorithm>
#include <tuple>

#include "text/utf8.h"

namespace nmt {
namespace {

const std::string kSpace = "\xE2\x96\x81";  // "▁", SentencePiece's word start

// The last character of a non-empty UTF-8 string.
char32_t last_char(std::string_view text) {
  size_t at = text.size() - 1;
  while (at > 0 && (uint8_t(text[at]) & 0xC0) == 0x80) --at;
  return decode_at(text, at).cp;
}

// Every ordinary piece that starts with `start` (sorted ids): the tokens allowed after a prefix.
std::vector<int> pieces_starting_with(const SentencePiece& tokenizer, const std::string& start) {
  std::vector<int> ids;
  for (int id = 0; id < tokenizer.vocab_size(); ++id) {
    if (id == tokenizer.unk_id() || id == tokenizer.bos_id() || id == tokenizer.eos_id() || id == tokenizer.pad_id())
      continue;
    if (tokenizer.id_to_piece(id).compare(0, start.size(), start) == 0) ids.push_back(id);
  }
  return ids;
}

// A piece as decode() spells it: "▁" as a space, except a leading one while the text is empty.
std::string surface(std::string piece, bool text_empty) {
  if (text_empty && piece.compare(0, kSpace.size(), kSpace) == 0) piece.erase(0, kSpace.size());
  std::string out;
  for (size_t at = 0; at < piece.size();) {
    if (piece.compare(at, kSpace.size(), kSpace) == 0) {
      out += ' ';
      at += kSpace.size();
    } else {
      out += piece[at++];
    }
  }
  return out;
}

}  // namespace

TargetPrefix make_target_prefix(const SentencePiece& tokenizer, std::string_view text) {
  TargetPrefix p;
  p.text = std::string(text);
  p.heal_begin = text.size();
  if (text.empty()) return p;
  const std::vector<Token> tokens = tokenizer.encode(text);
  for (const Token& t : tokens) {
    p.forced.tokens.push_back(t.id);
    p.spans.emplace_back(t.begin, t.end);
  }
  const char32_t last = last_char(text);
  std::string next_starts;  // what the token after the forced ones must start with
  if (is_whitespace(last)) {
    next_starts = kSpace;  // a new word
  } else if (!tokens.empty() && (is_letter(last) || is_digit(last) || is_mark(last))) {
    // Maybe inside a word: the last piece is left to the model, among the pieces that start with it.
    std::vector<int> next = pieces_starting_with(tokenizer, tokens.back().piece);
    if (!next.empty()) {  // (empty for an unknown character: then it is forced like the others)
      next_starts = tokens.back().piece;
      p.heal_begin = tokens.back().begin;
      p.forced.tokens.pop_back();
      p.spans.pop_back();
    }
  }
  if (!next_starts.empty()) p.forced.next = pieces_starting_with(tokenizer, next_starts);
  p.model_text = tokenizer.decode(p.forced.tokens);
  p.model_text += surface(next_starts, p.model_text.empty());
  return p;
}

std::string prefixed_decode(const TargetPrefix& prefix, const SentencePiece& tokenizer, const std::vector<int>& ids,
                            std::vector<std::pair<size_t, size_t>>* spans) {
  std::vector<std::pair<size_t, size_t>> model_spans;
  const std::string decoded = tokenizer.decode(ids, &model_spans);
  // What the model's tokens spell for the prefix is replaced by the prefix itself.
  const size_t replaced = std::min(prefix.model_text.size(), decoded.size());
  std::string text = prefix.text + decoded.substr(replaced);
  if (!spans) return text;
  spans->clear();
  const size_t forced = prefix.forced.tokens.size();
  size_t floor = 0;  // spans never go back
  for (size_t i = 0; i < ids.size(); ++i) {
    size_t b, e;
    if (i < forced && i < prefix.spans.size()) {
      std::tie(b, e) = prefix.spans[i];
    } else {
      // After the prefix: the same place in the text behind it; a healed piece starts where it
      // started in the prefix.
      auto shifted = [&](size_t x) { return x < replaced ? prefix.text.size() : x - replaced + prefix.text.size(); };
      b = i == forced && prefix.heal_begin < prefix.text.size() ? prefix.heal_begin : shifted(model_spans[i].first);
      e = shifted(model_spans[i].second);
    }
    b = std::min(std::max(b, floor), text.size());
    e = std::min(std::max(e, b), text.size());
    spans->emplace_back(b, e);
    floor = b;
  }
  return text;
}

}  // namespace nmt
