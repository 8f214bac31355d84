// The translation memory (memory.h).
#include "text/memory.h"

#include <algorithm>

#include "text/utf8.h"

namespace nmt {
namespace {

bool is_final_mark(char32_t cp) { return cp == '.' || cp == '!' || cp == '?' || cp == U'\u2026'; }

// Bytes of the final run of marks of `text` (0 when it ends otherwise).
size_t final_run_bytes(std::string_view text) {
  size_t at = text.size();
  while (at > 0) {
    size_t start = at - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    char32_t cp;
    decode_utf8(text, start, cp);
    if (!is_final_mark(cp)) break;
    at = start;
  }
  return text.size() - at;
}

}  // namespace

std::string memory_key(std::string_view sentence) {
  std::string out;
  bool space = false;
  for (size_t i = 0; i < sentence.size();) {
    auto [cp, length] = decode_at(sentence, i);
    i += length;
    if (cp == ',') continue;
    if (is_whitespace(cp)) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    if ((cp >= 'A' && cp <= 'Z') || (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7)) cp += 32;
    if (cp == U'\u2019' || cp == U'\u2018') cp = '\'';
    if (cp == U'\u201C' || cp == U'\u201D' || cp == U'\u201E') cp = '"';
    append_utf8(out, cp);
  }
  while (!out.empty()) {  // final marks and spaces
    const size_t marks = final_run_bytes(out);
    if (marks) out.resize(out.size() - marks);
    else if (out.back() == ' ') out.pop_back();
    else break;
  }
  return out;
}

std::string with_final_marks(std::string_view translation, std::string_view source) {
  const size_t theirs = final_run_bytes(translation);
  if (theirs == 0) return std::string(translation);
  const std::string_view kept = translation.substr(0, translation.size() - theirs);
  const size_t ours = final_run_bytes(source);
  if (ours) return std::string(kept) + std::string(source.substr(source.size() - ours));
  return translation.substr(translation.size() - theirs) == "." ? std::string(kept) : std::string(translation);
}

Result<TranslationMemory> TranslationMemory::from(const ModelFile& file) {
  const TensorView* t = file.find("memory");
  if (!t) return TranslationMemory{};
  if (t->dtype != DType::u8 || t->shape.size() != 1) return Error{"model file's memory is not a u8 list of lines"};
  return from_table(std::string_view(reinterpret_cast<const char*>(t->data), t->bytes));
}

Result<TranslationMemory> TranslationMemory::from_table(std::string_view lines) {
  TranslationMemory m;
  if (lines.size() >= UINT32_MAX) return Error{"model file's memory is too large"};
  m.table_ = std::string(lines);
  for (size_t start = 0; start < m.table_.size();) {
    size_t end = m.table_.find('\n', start);
    if (end == std::string::npos) end = m.table_.size();
    if (end > start) {
      const size_t tab = m.table_.find('\t', start);
      if (tab >= end || m.table_.find('\t', tab + 1) < end)
        return Error{"model file's memory has a line without exactly one tab"};
      if (tab + 1 == end) return Error{"model file's memory has a line without a translation"};
      m.entries_.push_back(Entry{uint32_t(start), uint32_t(tab), uint32_t(end)});
    }
    start = end + 1;
  }
  std::stable_sort(m.entries_.begin(), m.entries_.end(), [&](const Entry& a, const Entry& b) { return m.key(a) < m.key(b); });
  return m;
}

std::string_view TranslationMemory::find(std::string_view sentence) const {
  if (entries_.empty()) return {};
  const std::string k = memory_key(sentence);
  if (k.empty()) return {};
  auto it = std::lower_bound(entries_.begin(), entries_.end(), k, [&](const Entry& e, const std::string& x) { return key(e) < x; });
  if (it == entries_.end() || key(*it) != k) return {};
  return std::string_view(table_).substr(it->key_end + 1, it->translation_end - it->key_end - 1);
}

}  // namespace nmt
