// libFuzzer harness: the text layer on arbitrary bytes (engine/text/utf8.h, segmenter.h).
// Input: byte 0 picks the segmenter's language (en / de / other), the rest is the text.
// Checked: decode_utf8 always makes progress within the text; sanitize_utf8 gives valid UTF-8, is
// idempotent and keeps valid input's UTF-16 length; Utf16Offsets starts at 0, never decreases,
// steps by 1 or 2 per character and ends at the UTF-16 length; segment_text's pieces are
// non-empty, in order, cover the text exactly, start and end on character boundaries, gaps are
// whitespace (and item separators standing alone in it, or a list number at a line's start) and sentences neither start nor end with whitespace. verbatim_spans (addresses,
// code, long runs) are non-empty, in order, apart, on character boundaries, and mask_spans keeps the
// text's length and validity. find_emphasis' marks are in order, apart, outside the verbatim spans,
// made of "*", "_" or "~", and mark text beside them; blank_marks keeps the length and validity;
// place_emphasis (no attention: at the ends) puts every mark in the target once, in order. memory_key gives valid UTF-8 and is its own key; find_named_dates' dates are in order and valid,
// and each, written either way, is found in what was written; a memory table made of
// the text's lines loads or says why, and finds what it holds. With a tab (source before it, a
// translation after): range_dashes', english_ordinal_endings', approximate_marks' and number_labels' edits are last first, apart,
// inside the translation and after its forced prefix; localize_copied_numbers keeps its length,
// its prefix and its validity.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.h"
#include "text/dates.h"
#include "text/emphasis.h"
#include "text/segmenter.h"
#include "text/memory.h"
#include "text/number_labels.h"
#include "text/numbers.h"
#include "text/utf8.h"
#include "text/verbatim.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kLangs[] = {"en", "de", "fr"};
  const std::string_view lang = kLangs[data[0] % 3];
  const std::string_view raw(reinterpret_cast<const char*>(data + 1), size - 1);

  // decode_utf8 on raw bytes: 1..4 bytes, never past the end.
  for (size_t i = 0; i < raw.size();) {
    char32_t cp = 0;
    const size_t n = nmt::decode_utf8(raw, i, cp);
    FUZZ_CHECK(n >= 1 && n <= 4 && i + n <= raw.size());
    FUZZ_CHECK(cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF));
    i += n;
  }

  const std::string clean = nmt::sanitize_utf8(raw);
  size_t units = 0;
  FUZZ_CHECK(fuzz::valid_utf8(clean, &units));
  FUZZ_CHECK(nmt::sanitize_utf8(clean) == clean);
  size_t raw_units = 0;
  if (fuzz::valid_utf8(raw, &raw_units)) FUZZ_CHECK(raw_units == units);  // offsets index the caller's string

  const nmt::Utf16Offsets offsets(clean);
  FUZZ_CHECK(offsets(0) == 0);
  FUZZ_CHECK(offsets(clean.size()) == units);
  FUZZ_CHECK(offsets(clean.size() + 7) == units);
  size_t previous = 0;
  for (size_t b = 0; b <= clean.size(); ++b) {
    const size_t u = offsets(b);
    FUZZ_CHECK(u >= previous && u <= units);
    if (b > 0 && fuzz::is_char_boundary(clean, b) && b < clean.size()) FUZZ_CHECK(u - previous >= 1 && u - previous <= 2);
    if (!fuzz::is_char_boundary(clean, b)) FUZZ_CHECK(u == previous);  // inside a character: its start
    previous = u;
  }

  for (const std::string_view text : {std::string_view(clean), raw}) {
    const bool valid = fuzz::valid_utf8(text);
    const auto pieces = nmt::segment_text(text, lang);
    size_t at = 0;
    for (const nmt::TextPiece& p : pieces) {
      FUZZ_CHECK(p.begin == at && p.begin < p.end && p.end <= text.size());
      at = p.end;
      if (!valid) continue;  // the engine segments sanitized text only; raw bytes just must not crash
      FUZZ_CHECK(fuzz::is_char_boundary(text, p.begin) && fuzz::is_char_boundary(text, p.end));
      const std::string_view piece = text.substr(p.begin, p.end - p.begin);
      if (p.is_sentence) {
        char32_t first = 0, last = 0;
        nmt::decode_utf8(piece, 0, first);
        size_t l = piece.size() - 1;
        while (l > 0 && !fuzz::is_char_boundary(piece, l)) --l;
        nmt::decode_utf8(piece, l, last);
        FUZZ_CHECK(!nmt::is_whitespace(first) && !nmt::is_whitespace(last));
      } else {
        char32_t previous = 0;
        bool list_number = false;     // "12. " or "3) " at a line's start, then only spaces
        bool line_start = p.begin == 0;  // only whitespace since the text's or a line's start
        for (size_t i = 0; i < piece.size();) {
          char32_t cp = 0;
          i += nmt::decode_utf8(piece, i, cp);
          const bool separator = nmt::is_item_separator(cp) && p.begin > 0 && i < piece.size() &&
                                 nmt::is_whitespace(previous);  // " » " between two items
          if (nmt::is_newline(cp) || cp == U'\t') line_start = true;
          if ((cp >= '0' && cp <= '9') && ((line_start && !list_number) || (list_number && previous >= '0' && previous <= '9'))) {
            list_number = true;
          } else if (list_number && (cp == '.' || cp == ')') && previous >= '0' && previous <= '9') {
            FUZZ_CHECK(i < piece.size() && (piece[i] == ' ' || piece[i] == '\t'));  // a space after it
          } else if (line_start && !list_number && (cp == '>' || cp == '#')) {
            // a block quote's or a heading's marks at a line's start (segmenter.cpp line_marks_at)
          } else {
            FUZZ_CHECK(nmt::is_whitespace(cp) || nmt::is_newline(cp) || separator);
            FUZZ_CHECK(!list_number || cp == ' ' || cp == '\t');
          }
          previous = cp;
        }
      }
    }
    FUZZ_CHECK(at == text.size());
  }

  const auto spans = nmt::verbatim_spans(clean);
  size_t after = 0;
  for (auto [b, e] : spans) {
    FUZZ_CHECK(b >= after && b < e && e <= clean.size());
    FUZZ_CHECK(fuzz::is_char_boundary(clean, b) && fuzz::is_char_boundary(clean, e));
    after = e;
  }
  const std::string masked = nmt::mask_spans(clean, spans);
  FUZZ_CHECK(masked.size() == clean.size() && fuzz::valid_utf8(masked));

  const auto marks = nmt::find_emphasis(clean, spans);
  size_t mark_end = 0;
  for (const nmt::EmphasisMark& m : marks) {
    FUZZ_CHECK(m.begin >= mark_end && m.begin < m.end && m.end <= clean.size());
    for (size_t k = m.begin; k < m.end; ++k) FUZZ_CHECK(clean[k] == '*' || clean[k] == '_' || clean[k] == '~');
    for (auto [b, e] : spans) FUZZ_CHECK(m.end <= b || e <= m.begin);
    FUZZ_CHECK(m.marks_begin <= m.marks_end && m.marks_end <= clean.size());
    FUZZ_CHECK(m.opens ? m.marks_begin == m.end : m.marks_end == m.begin);
    mark_end = m.end;
  }
  const std::string blanked = nmt::blank_marks(clean, marks);
  FUZZ_CHECK(blanked.size() == clean.size() && fuzz::valid_utf8(blanked));
  const std::string target = "Ein Satz.";
  const auto placed = nmt::place_emphasis(clean, marks, nmt::WordAlignment{}, target);
  FUZZ_CHECK(placed.size() == marks.size());
  for (size_t k = 0; k < placed.size(); ++k) {
    FUZZ_CHECK(placed[k].first <= target.size() && (k == 0 || placed[k - 1].first <= placed[k].first));
    FUZZ_CHECK(placed[k].first == 0 || placed[k].first == target.size());  // no attention: at the ends
  }

  const std::string key = nmt::memory_key(clean);
  FUZZ_CHECK(fuzz::valid_utf8(key) && nmt::memory_key(key) == key);
  if (auto memory = nmt::TranslationMemory::from_table(clean)) {
    // the first line's key, when it is written as a key, finds a translation (not necessarily its
    // own: a later line may have the same key)
    const size_t tab = clean.find('\t'), line_end = clean.find('\n');
    const std::string first = tab < line_end && tab != std::string::npos ? clean.substr(0, tab) : "";
    if (!first.empty() && nmt::memory_key(first) == first) FUZZ_CHECK(!memory->find(first).empty());
  }
  // dates with a month's name: in order, apart, valid; each written either way is found again
  size_t date_end = 0;
  for (const nmt::NamedDate& d : nmt::find_named_dates(clean, lang)) {
    FUZZ_CHECK(d.begin >= date_end && d.begin < d.end && d.end <= clean.size());
    FUZZ_CHECK(d.day >= 1 && d.day <= 31 && d.month >= 1 && d.month <= 12 && (d.year == 0 || (d.year >= 1000 && d.year <= 2999)));
    date_end = d.end;
    for (const char* to : {"en", "de"}) FUZZ_CHECK(nmt::has_named_date(nmt::write_named_date(d, to), d, to));
  }
  // the number edits on a translation (the text after the first tab, the source before it): last
  // first, apart, inside it and after a forced prefix; numbers rewritten in place at their length
  const size_t tab = clean.find('\t');
  if (tab != std::string::npos) {
    const std::string_view source = std::string_view(clean).substr(0, tab);
    std::string target = clean.substr(tab + 1);
    const size_t fixed = target.size() / 3;
    for (const auto& edits : {nmt::range_dashes(source, target, fixed), nmt::english_ordinal_endings(target, fixed),
                              nmt::approximate_marks(source, target, fixed), nmt::number_labels(source, target, "en", "de", fixed),
                              nmt::number_labels(source, target, "de", "en", fixed)}) {
      size_t before = target.size() + 1;
      for (const nmt::TextEdit& e : edits) {
        FUZZ_CHECK(e.at >= fixed && e.at + e.length <= target.size() && e.at + e.length <= before);
        before = e.at;
      }
    }
    const std::string copied = target;
    for (const char* from : {"en", "de"}) {
      const char* to = from[0] == 'e' ? "de" : "en";
      std::string localized = copied;
      nmt::localize_copied_numbers(source, nmt::find_numbers(source, from, false), localized, from, to, fixed);
      FUZZ_CHECK(localized.size() == copied.size() && localized.compare(0, fixed, copied, 0, fixed) == 0);
      FUZZ_CHECK(fuzz::valid_utf8(localized));
    }
  }
  return 0;
}
