// German quotation marks (quotes.h).
#include "text/quotes.h"

#include <algorithm>
#include <cstring>

#include "text/utf8.h"

namespace nmt {
namespace {

const std::string_view kLowOpen = "\xE2\x80\x9E";    // „ U+201E
const std::string_view kHighClose = "\xE2\x80\x9C";  // “ U+201C: German closing, English opening
const std::string_view kEnglishClose = "\xE2\x80\x9D";  // ” U+201D

// Whether the character before byte `at` lets a quotation open there.
bool opens_after(std::string_view text, size_t at) {
  if (at == 0) return true;
  const char c = text[at - 1];
  if (std::strchr(" \t\n([{/:-", c)) return true;
  size_t start = at - 1;  // a dash or a no-break space before it
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  const char32_t cp = decode_at(text, start).cp;
  return is_whitespace(cp) || cp == 0x2013 || cp == 0x2014;
}

// Whether the character at byte `at` lets a quotation close before it.
bool closes_before(std::string_view text, size_t at) {
  if (at >= text.size()) return true;
  const char32_t cp = decode_at(text, at).cp;
  return !is_letter(cp) && !is_digit(cp);
}

// The edits with the sentence starting outside a quotation (or inside one: `open`); false if the
// quotes do not pair up.
bool pair_quotes(std::string_view target, size_t fixed, bool open, std::vector<TextEdit>& edits) {
  const bool started_inside = open;
  for (size_t i = 0; i < target.size();) {
    const std::string_view rest = target.substr(i);
    size_t length = 1;
    if (rest.substr(0, kLowOpen.size()) == kLowOpen) {  // already German
      if (open) return false;
      open = true;
      length = kLowOpen.size();
    } else if (rest[0] == '"' || rest.substr(0, kHighClose.size()) == kHighClose ||
               rest.substr(0, kEnglishClose.size()) == kEnglishClose) {
      length = rest[0] == '"' ? 1 : kHighClose.size();
      const bool english_close = rest.substr(0, kEnglishClose.size()) == kEnglishClose;
      if (!open && !english_close && opens_after(target, i)) {
        if (i >= fixed) edits.push_back({i, length, std::string(kLowOpen)});
        open = true;
      } else if (open && closes_before(target, i + length) &&
                 !(started_inside && edits.empty() && i > 0 && target[i - 1] >= '0' && target[i - 1] <= '9')) {
        // (a sentence's first quote right after a digit, closing nothing it opened, is an inch
        // or a second mark: "5\" lang")
        // "“" closing a German quotation is right as it is
        if (i >= fixed && rest.substr(0, length) != kHighClose) edits.push_back({i, length, std::string(kHighClose)});
        open = false;
      } else {
        return false;  // a quote inside a word, or one that neither opens nor closes
      }
    } else {
      length = decode_at(target, i).length;
    }
    i += std::max<size_t>(length, 1);
  }
  return true;  // (still open: the quotation goes on in the next sentence)
}

}  // namespace

std::vector<TextEdit> german_quotation_marks(std::string_view target, size_t fixed) {
  // a quotation of several sentences is cut by the segmenter: one sentence opens it, a later one
  // closes it ("Ich bin müde." / "Ich will schlafen."")
  for (bool starts_inside : {false, true}) {
    std::vector<TextEdit> edits;
    if (pair_quotes(target, fixed, starts_inside, edits)) {
      std::reverse(edits.begin(), edits.end());
      return edits;
    }
  }
  return {};
}

std::vector<TextEdit> invented_quotation_mark(std::string_view source, std::string_view target, size_t fixed) {
  static constexpr std::string_view kDouble[] = {"\"", "\xE2\x80\x9E", "\xE2\x80\x9C", "\xE2\x80\x9D", "\xC2\xAB", "\xC2\xBB"};
  // (single quotes count too: ‘ ‚ ‹ › and a ' that opens a quotation, not an apostrophe)
  static constexpr std::string_view kSingle[] = {"\xE2\x80\x98", "\xE2\x80\x9A", "\xE2\x80\xB9", "\xE2\x80\xBA"};
  for (std::string_view q : kDouble)
    if (source.find(q) != std::string_view::npos) return {};
  for (std::string_view q : kSingle)
    if (source.find(q) != std::string_view::npos) return {};
  for (size_t i = source.find('\''); i != std::string_view::npos; i = source.find('\'', i + 1))
    if (opens_after(source, i)) return {};
  size_t at = std::string_view::npos, length = 0, count = 0;
  for (std::string_view q : kDouble)
    for (size_t i = target.find(q); i != std::string_view::npos; i = target.find(q, i + q.size())) {
      ++count;
      at = i;
      length = q.size();
    }
  if (count == 0) {  // a lone ' between spaces ("Gib den ' Rechnung." for "Pay the invoice."): no apostrophe
    for (size_t i = target.find(" ' "); i != std::string_view::npos; i = target.find(" ' ", i + 1))
      if (i + 1 >= fixed) return {{i + 1, 2, ""}};
    if (fixed == 0 && target.compare(0, 2, "' ") == 0) return {{0, 2, ""}};
    return {};
  }
  if (count != 1 || at < fixed) return {};
  // the space it leaves: at the start, doubled, or before a mark
  const bool space_before = at > 0 && target[at - 1] == ' ';
  const bool space_after = at + length < target.size() && target[at + length] == ' ';
  const bool mark_after = at + length < target.size() && std::strchr(".,;:!?", target[at + length]);
  if (space_after && (at == 0 || space_before)) ++length;
  else if (space_before && (mark_after || at + length == target.size()) && at - 1 >= fixed) --at, ++length;
  return {{at, length, ""}};
}

namespace {

// The byte length of the quotation mark of `marks` that ends right before `at`, else 0.
size_t mark_before(std::string_view text, size_t at, const std::vector<std::string_view>& marks) {
  for (std::string_view m : marks)
    if (at >= m.size() && text.compare(at - m.size(), m.size(), m) == 0) return m.size();
  return 0;
}

size_t mark_after(std::string_view text, size_t at, const std::vector<std::string_view>& marks) {
  for (std::string_view m : marks)
    if (text.compare(at, m.size(), m) == 0) return m.size();
  return 0;
}

}  // namespace

std::vector<TextEdit> quotes_around_code(std::string_view source, const std::vector<std::pair<size_t, size_t>>& source_spans,
                                         std::string_view target, const std::vector<std::pair<size_t, size_t>>& copies,
                                         size_t fixed) {
  static const std::vector<std::string_view> kOpening = {"\xC2\xBB", "\xE2\x80\x9E", "\xE2\x80\x9C", "\"", "\xC2\xAB"};
  static const std::vector<std::string_view> kClosing = {"\xC2\xAB", "\xE2\x80\x9C", "\xE2\x80\x9D", "\"", "\xC2\xBB"};
  static const std::vector<std::string_view> kAny = {"\xC2\xBB", "\xC2\xAB", "\xE2\x80\x9E", "\xE2\x80\x9C",
                                                                   "\xE2\x80\x9D", "\"", "'", "\xE2\x80\x98", "\xE2\x80\x99", "\xE2\x80\x9A"};
  std::vector<TextEdit> edits;
  for (auto [b, e] : copies) {
    const std::string_view copy = target.substr(b, e - b);
    const bool code = std::any_of(source_spans.begin(), source_spans.end(), [&](auto s) {
      if (source[s.first] != '`' || source.substr(s.first, s.second - s.first) != copy) return false;
      size_t before = s.first, after = s.second;  // the source's own quotes around it: the writer's
      while (before > 0 && source[before - 1] == ' ') --before;
      while (after < source.size() && source[after] == ' ') ++after;
      return !mark_before(source, before, kAny) && !mark_after(source, after, kAny);
    });
    if (!code) continue;
    const size_t open_end = b > 0 && target[b - 1] == ' ' ? b - 1 : b;
    const size_t open = mark_before(target, open_end, kOpening);
    const size_t close_start = e < target.size() && target[e] == ' ' ? e + 1 : e;
    const size_t close = mark_after(target, close_start, kClosing);
    if (!open || !close || open_end - open < fixed) continue;
    edits.push_back({e, close_start + close - e, ""});
    edits.push_back({open_end - open, b - (open_end - open), ""});
  }
  std::sort(edits.begin(), edits.end(), [](const TextEdit& x, const TextEdit& y) { return x.at > y.at; });
  return edits;
}

}  // namespace nmt
