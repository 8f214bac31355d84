// Forced target prefixes (see forced_prefix.h): the prefix's pieces, the pieces that may spell its
// last word, and the output text that keeps the prefix verbatim.
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

// The tokens that can spell `heal` (piece text, "▁" for spaces) from each byte on: at k, the
// ordinary pieces that heal[k:] starts with (spelling part of it) or that start with heal[k:]
// (spelling the rest, maybe more). Empty when no sequence of pieces spells it all (an unknown
// character): the prefix is then forced as the tokenizer cut it.
std::vector<std::vector<HealStep>> heal_steps(const SentencePiece& tokenizer, const std::string& heal) {
  std::vector<std::vector<HealStep>> steps(heal.size());
  std::vector<char> reachable(heal.size() + 1, 0);
  reachable[0] = 1;
  for (size_t k = 0; k < heal.size(); ++k) {
    if (!reachable[k]) continue;  // (k is then not a character boundary either)
    const std::string_view rest = std::string_view(heal).substr(k);
    for (int id = 0; id < tokenizer.vocab_size(); ++id) {
      if (id == tokenizer.unk_id() || id == tokenizer.bos_id() || id == tokenizer.eos_id() || id == tokenizer.pad_id())
        continue;
      const std::string& piece = tokenizer.id_to_piece(id);
      if (piece.empty()) continue;
      if (piece.size() >= rest.size() ? piece.compare(0, rest.size(), rest) == 0 : rest.compare(0, piece.size(), piece) == 0) {
        const size_t bytes = std::min(piece.size(), rest.size());
        steps[k].push_back({id, int(bytes)});
        reachable[k + bytes] = 1;
      }
    }
  }
  // Only steps from which the rest can still be spelled (no dead ends for the search).
  std::vector<char> can_finish(heal.size() + 1, 0);
  can_finish[heal.size()] = 1;
  for (size_t k = heal.size(); k-- > 0;) {
    std::vector<HealStep>& at = steps[k];
    at.erase(std::remove_if(at.begin(), at.end(), [&](const HealStep& h) { return !can_finish[k + size_t(h.bytes)]; }),
             at.end());
    can_finish[k] = !at.empty();
  }
  if (!can_finish[0]) steps.clear();
  return steps;
}

// How many of the last tokens form the prefix's last word: back to the one that starts a word
// ("▁..."), at most 8.
size_t last_word_tokens(const std::vector<Token>& tokens) {
  size_t n = 0;
  while (n < tokens.size() && n < 8) {
    ++n;
    if (tokens[tokens.size() - n].piece.compare(0, kSpace.size(), kSpace) == 0) break;
  }
  return n;
}

// A piece's text as decode() spells it: "▁" as a space, except a leading one while the text is empty.
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
  size_t keep = tokens.size();  // tokens forced as the tokenizer cut them
  std::string heal;              // what the pieces after them must spell
  const char32_t last = last_char(text);
  if (is_whitespace(last)) {
    heal = kSpace;  // a new word
  } else if (!tokens.empty() && (is_letter(last) || is_digit(last) || is_mark(last))) {
    keep = tokens.size() - last_word_tokens(tokens);  // maybe inside a word: the model spells it
    for (size_t i = keep; i < tokens.size(); ++i) heal += tokens[i].piece;
  }
  if (!heal.empty()) p.forced.heal = heal_steps(tokenizer, heal);
  if (p.forced.heal.empty()) {  // nothing to spell, or it cannot be spelled: force every piece
    keep = tokens.size();
    heal.clear();
  } else if (keep < tokens.size()) {
    p.heal_begin = tokens[keep].begin;
  }
  for (size_t i = 0; i < keep; ++i) {
    p.forced.tokens.push_back(tokens[i].id);
    p.spans.emplace_back(tokens[i].begin, tokens[i].end);
  }
  p.model_text = tokenizer.decode(p.forced.tokens);
  p.model_text += surface(heal, p.model_text.empty());
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
