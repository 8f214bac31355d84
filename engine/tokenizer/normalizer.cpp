// SentencePiece normalizer (see normalizer.h). The control flow of normalize() deliberately
// follows sentencepiece's Normalizer::Normalize step by step (0.1.97, the version the golden files
// come from), because its whitespace handling has quirks that the tokens depend on: leading spaces
// are skipped only while a whole step normalizes to exactly " ", a step's leading spaces are dropped
// after a space, and the offsets of dropped trailing spaces are rolled back.
#include "tokenizer/normalizer.h"

#include <cstring>

namespace nmt {
namespace {

constexpr char kSpaceSymbol[] = "\xE2\x96\x81";  // U+2581 "▁"
constexpr size_t kSpaceSymbolLen = 3;
constexpr char kReplacementChar[] = "\xEF\xBF\xBD";  // U+FFFD

// darts-clone unit layout: bit 8 = has_leaf, bit 9 = offset scaling, bits 10.. = offset;
// label() keeps bit 31 so that leaf units (bit 31 set) never equal a byte label.
inline bool has_leaf(uint32_t u) { return (u >> 8) & 1; }
inline uint32_t value(uint32_t u) { return u & 0x7FFFFFFFu; }
inline uint32_t label(uint32_t u) { return u & 0x800000FFu; }
inline uint32_t offset(uint32_t u) { return (u >> 10) << ((u & (1u << 9)) >> 6); }

inline bool is_trail(uint8_t c) { return (c & 0xC0) == 0x80; }
inline bool valid_cp(uint32_t c) { return c < 0xD800 || (c >= 0xE000 && c <= 0x10FFFF); }

// Length of the valid UTF-8 character at the start of s, or 0 if it is malformed (overlong forms,
// surrogates and values past U+10FFFF included), as sentencepiece's IsValidDecodeUTF8 decides.
size_t valid_utf8_len(std::string_view s) {
  const auto* b = reinterpret_cast<const uint8_t*>(s.data());
  const size_t n = s.size();
  if (b[0] < 0x80) return 1;
  if (n >= 2 && (b[0] & 0xE0) == 0xC0) {
    const uint32_t cp = ((b[0] & 0x1Fu) << 6) | (b[1] & 0x3Fu);
    if (is_trail(b[1]) && cp >= 0x80 && valid_cp(cp)) return 2;
  } else if (n >= 3 && (b[0] & 0xF0) == 0xE0) {
    const uint32_t cp = ((b[0] & 0x0Fu) << 12) | ((b[1] & 0x3Fu) << 6) | (b[2] & 0x3Fu);
    if (is_trail(b[1]) && is_trail(b[2]) && cp >= 0x800 && valid_cp(cp)) return 3;
  } else if (n >= 4 && (b[0] & 0xF8) == 0xF0) {
    const uint32_t cp = ((b[0] & 0x07u) << 18) | ((b[1] & 0x3Fu) << 12) |
                        ((b[2] & 0x3Fu) << 6) | (b[3] & 0x3Fu);
    if (is_trail(b[1]) && is_trail(b[2]) && is_trail(b[3]) && cp >= 0x10000 && valid_cp(cp))
      return 4;
  }
  return 0;
}

}  // namespace

Result<Normalizer> Normalizer::create(const NormalizerSpec& spec,
                                      const std::vector<std::string>& user_symbols) {
  Normalizer n;
  n.spec_ = spec;
  const std::string& blob = spec.precompiled_charsmap;
  if (!blob.empty()) {
    // Layout: u32 little-endian trie size in bytes, the trie's u32 units, then the replacements.
    if (blob.size() <= 4) return Error{"precompiled_charsmap is too short"};
    const auto* b = reinterpret_cast<const uint8_t*>(blob.data());
    const uint32_t trie_bytes = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24);
    if (trie_bytes == 0 || trie_bytes % 4 != 0 || trie_bytes > blob.size() - 4)
      return Error{"precompiled_charsmap has an invalid trie size"};
    n.units_.resize(trie_bytes / 4);
    for (size_t i = 0; i < n.units_.size(); ++i) {
      const uint8_t* u = b + 4 + 4 * i;
      n.units_[i] = u[0] | (u[1] << 8) | (u[2] << 16) | (static_cast<uint32_t>(u[3]) << 24);
    }
    n.replacements_ = blob.substr(4 + trie_bytes);
  }
  std::vector<std::pair<std::string, int>> entries;
  for (const std::string& s : user_symbols) entries.emplace_back(s, 0);
  n.user_symbols_ = ByteTrie(entries);
  n.spec_.precompiled_charsmap.clear();  // parsed; no need to keep a second copy
  return n;
}

size_t Normalizer::charsmap_match(std::string_view input, std::string_view* out) const {
  // darts-clone commonPrefixSearch, keeping the longest hit; every index is bounds-checked since
  // the units come from the model file.
  if (units_.empty()) return 0;
  const size_t n = units_.size();
  size_t best_len = 0;
  uint32_t best_value = 0;
  size_t node = offset(units_[0]);
  for (size_t i = 0; i < input.size(); ++i) {
    const uint8_t c = static_cast<uint8_t>(input[i]);
    node ^= c;
    if (node >= n) break;
    const uint32_t unit = units_[node];
    if (label(unit) != c) break;
    node ^= offset(unit);
    if (node >= n) break;
    if (has_leaf(unit)) {
      best_len = i + 1;
      best_value = value(units_[node]);
    }
  }
  if (best_len == 0 || best_value >= replacements_.size()) return 0;
  // Replacement strings are NUL-terminated inside the blob.
  const char* s = replacements_.data() + best_value;
  const size_t max = replacements_.size() - best_value;
  const void* nul = std::memchr(s, '\0', max);
  *out = std::string_view(s, nul ? static_cast<size_t>(static_cast<const char*>(nul) - s) : max);
  return best_len;
}

std::pair<std::string_view, size_t> Normalizer::normalize_prefix(std::string_view input) const {
  if (!user_symbols_.empty()) {
    int unused;
    const size_t len = user_symbols_.longest_prefix(input.data(), input.size(), &unused);
    if (len > 0) return {input.substr(0, len), len};
  }
  std::string_view replacement;
  if (const size_t len = charsmap_match(input, &replacement)) return {replacement, len};
  if (const size_t len = valid_utf8_len(input)) return {input.substr(0, len), len};
  return {std::string_view(kReplacementChar, 3), 1};  // one malformed byte -> U+FFFD
}

void Normalizer::normalize(std::string_view input, std::string* normalized,
                           std::vector<size_t>* norm_to_orig) const {
  normalized->clear();
  norm_to_orig->clear();
  size_t consumed = 0;

  // Skip leading whitespace (steps that normalize to exactly one space).
  if (spec_.remove_extra_whitespaces) {
    while (!input.empty()) {
      const auto [sp, len] = normalize_prefix(input);
      if (sp != " ") break;
      input.remove_prefix(len);
      consumed += len;
    }
  }
  if (input.empty()) {
    norm_to_orig->push_back(consumed);
    return;
  }

  normalized->reserve(input.size() * 3 / 2 + kSpaceSymbolLen);
  norm_to_orig->reserve(input.size() * 3 / 2 + kSpaceSymbolLen + 1);
  auto append_space = [&] {
    if (spec_.escape_whitespaces) {
      normalized->append(kSpaceSymbol, kSpaceSymbolLen);
      norm_to_orig->insert(norm_to_orig->end(), kSpaceSymbolLen, consumed);
    } else {
      normalized->push_back(' ');
      norm_to_orig->push_back(consumed);
    }
  };

  // The dummy "▁" maps to the offset of the first kept character.
  if (spec_.add_dummy_prefix) append_space();

  bool is_prev_space = spec_.remove_extra_whitespaces;
  while (!input.empty()) {
    auto [sp, len] = normalize_prefix(input);
    if (is_prev_space) {
      while (!sp.empty() && sp.front() == ' ') sp.remove_prefix(1);
    }
    if (!sp.empty()) {
      for (char c : sp) {
        if (c == ' ' && spec_.escape_whitespaces) {
          normalized->append(kSpaceSymbol, kSpaceSymbolLen);
          norm_to_orig->insert(norm_to_orig->end(), kSpaceSymbolLen, consumed);
        } else {
          normalized->push_back(c);
          norm_to_orig->push_back(consumed);
        }
      }
      is_prev_space = sp.back() == ' ';
    }
    consumed += len;
    input.remove_prefix(len);
    if (!spec_.remove_extra_whitespaces) is_prev_space = false;
  }

  // Drop trailing spaces; the text then ends where the first dropped space began.
  if (spec_.remove_extra_whitespaces) {
    const std::string_view space = spec_.escape_whitespaces
                                       ? std::string_view(kSpaceSymbol, kSpaceSymbolLen)
                                       : std::string_view(" ");
    while (normalized->size() >= space.size() &&
           std::string_view(*normalized).substr(normalized->size() - space.size()) == space) {
      const size_t length = normalized->size() - space.size();
      consumed = (*norm_to_orig)[length];
      normalized->resize(length);
      norm_to_orig->resize(length);
    }
  }
  norm_to_orig->push_back(consumed);
}

}  // namespace nmt
