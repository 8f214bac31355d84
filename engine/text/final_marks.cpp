// A sentence's final run of "!" and "?" (final_marks.h).
#include "text/final_marks.h"

#include <cstring>

#include "text/utf8.h"

namespace nmt {
namespace {

bool is_mark(char c) { return c == '.' || c == '!' || c == '?'; }

// [begin, end) of the final run of marks, before closing quotes, brackets and spaces; begin == end
// when there is none. (Closing quotes are ASCII or the UTF-8 of “ ” » « ‘ ’, whose bytes are >= 0x80.)
std::pair<size_t, size_t> final_run(std::string_view text) {
  size_t end = text.size();
  while (end > 0) {
    const unsigned char c = static_cast<unsigned char>(text[end - 1]);
    if (c == ' ' || c == '"' || c == '\'' || c == ')' || c == ']' || c == '*' || c == '_' || c == '~' || c >= 0x80) --end;
    else break;
  }
  // a non-ASCII byte is only skipped as part of a closing quote or an emoji after the marks ("I
  // love it!!! 😍"): back off if it was a letter
  for (size_t k = end; k < text.size(); ++k)
    if (static_cast<unsigned char>(text[k]) >= 0x80) {
      static const char* const kClosers[] = {"\xE2\x80\x9C", "\xE2\x80\x9D", "\xC2\xBB", "\xC2\xAB", "\xE2\x80\x98", "\xE2\x80\x99"};
      bool closer = false;
      for (const char* q : kClosers)
        if (text.compare(k, std::strlen(q), q) == 0) closer = true, k += std::strlen(q) - 1;
      if (!closer) {
        char32_t cp = 0;
        const size_t n = decode_utf8(text, k, cp);
        const bool emoji = is_emoji(cp) || cp == 0xFE0F || cp == 0x200D || (cp >= 0x1F3FB && cp <= 0x1F3FF);
        if (!emoji) return {text.size(), text.size()};
        k += n - 1;
      }
    }
  size_t begin = end;
  while (begin > 0 && is_mark(text[begin - 1])) --begin;
  return {begin, end};
}

}  // namespace

std::vector<TextEdit> final_marks(std::string_view source, std::string_view target, size_t fixed) {
  const auto [sb, se] = final_run(source);
  const std::string_view marks = source.substr(sb, se - sb);
  // an ordinal's dot and the sentence's full stop are one dot: "She came 3rd." -> "Sie kam 3.", not
  // the "3.." of a number copied as a German ordinal with the model's own full stop after it (the
  // second dot goes: the first is the copy's)
  if (marks == ".") {
    const auto [tb, te] = final_run(target);
    if (te - tb == 2 && target.compare(tb, 2, "..") == 0 && tb > fixed && is_digit(static_cast<unsigned char>(target[tb - 1])))
      return {TextEdit{tb + 1, 1, ""}};
  }
  if (marks.size() < 2 || marks.find('.') != std::string_view::npos) return {};
  const auto [tb, te] = final_run(target);
  if (tb == te || tb < fixed || target.substr(tb, te - tb) == marks) return {};
  return {TextEdit{tb, te - tb, std::string(marks)}};
}

std::vector<TextEdit> final_mark_after_copy(std::string_view source, const std::vector<std::pair<size_t, size_t>>& source_spans,
                                            std::string_view target, const std::vector<std::pair<size_t, size_t>>& copies,
                                            size_t fixed) {
  size_t source_end = source.size();
  while (source_end > 0 && source[source_end - 1] == ' ') --source_end;
  size_t marks = source_end;
  while (marks > 0 && is_mark(source[marks - 1])) --marks;
  if (marks == source_end || source_end - marks > 3) return {};
  for (auto [b, e] : source_spans)
    if (b < source_end && marks < e) return {};  // the mark is the address's
  size_t target_end = target.size();
  while (target_end > 0 && target[target_end - 1] == ' ') --target_end;
  const std::string_view mark = source.substr(marks, source_end - marks);
  // a copy that ends in the mark already (a number copied as the German ordinal "3." for "She came
  // 3rd."): one dot, not "3.."
  if (target_end >= mark.size() && target.compare(target_end - mark.size(), mark.size(), mark) == 0) return {};
  for (auto [b, e] : copies)
    if (e == target_end && b >= fixed && e > b)
      return {TextEdit{target_end, 0, std::string(mark), true}};
  return {};
}

}  // namespace nmt
