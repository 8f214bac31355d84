// The retry passes; see retries.h.
#include "retries.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <optional>

#include "text/dates.h"
#include "text/numbers.h"
#include "text/pass_through.h"
#include "text/verbatim.h"

namespace nmt {
namespace {

// The length of a percent sign or a unit's symbol that both languages write after a number at
// `end` ("%", " %", " m", " kg"), else 0.
size_t unit_symbol_after(std::string_view text, size_t end) {
  if (text.compare(end, 1, "%") == 0) return 1;
  if (text.compare(end, 1, " ") != 0) return 0;
  size_t e = end + 1;
  while (e < text.size() && std::isalpha(static_cast<unsigned char>(text[e]))) ++e;
  if (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) || static_cast<unsigned char>(text[e]) >= 0x80)) return 0;
  const std::string_view word = text.substr(end + 1, e - end - 1);
  for (std::string_view symbol : {"%", "mm", "cm", "m", "km", "mg", "g", "kg", "ml", "l", "h", "min", "ha", "kW", "MW", "GB", "MB", "km/h"})
    if (word == symbol) return e - end;
  return text.compare(end, 2, " %") == 0 ? 2 : 0;
}

// The text a hypothesis' tokens spell (without eos), before anything is copied into it.
std::string hypothesis_text(const Hypothesis& h, const SentencePiece& tokenizer, int eos_id) {
  std::vector<int> ids;
  for (int id : h.tokens)
    if (id != eos_id) ids.push_back(id);
  return tokenizer.decode(ids);
}

// A unit the model ran on a whole sentence of its own (not copied, not from the memory, not a chunk).
bool whole_translated_sentence(const Unit& u, const TextPiece& piece) {
  return !u.tokens.empty() && !u.copied && u.memory_ids.empty() && u.begin == piece.begin && u.end == piece.end;
}

// One sentence to translate again: its unit read with what it lost masked, the numbers its first
// translation kept, and how many unknown pieces the model must write for the retry to count.
struct NumberRetry {
  size_t unit;
  Unit again;
  ByteSpans kept;
  size_t masks;  // how many unknown pieces its source has, when a lost number is one digit; else 0
  Unit plain;     // the fallback: the sentence read again with its lost numbers written the target's way
  // the last resort, where neither is better: the lost numbers (sign, "%" and all) put into the
  // plain reading next to their neighbour word's translation, and how a German ordinal is written
  ByteSpans inserts;
  Rewrites insert_rewrites;
};

// The source numbers that `first` made a date's day with a month the source never says: "He was born
// on the 4th." came out "Er wurde am 4. Dezember geboren." (where the source has no date with a
// month's name, and no word for the month).
std::vector<size_t> days_given_a_month(std::string_view sentence, std::string_view language, const ByteSpans& numbers,
                                       const std::vector<NamedDate>& dates, std::string_view first,
                                       std::string_view target_language) {
  std::vector<size_t> out;
  if (!dates.empty() || names_a_month(sentence, language)) return out;
  for (const NamedDate& d : find_named_dates(first, target_language))
    for (size_t k = 0; k < numbers.size(); ++k)
      if (digits_of(sentence.substr(numbers[k].first, numbers[k].second - numbers[k].first)) == std::to_string(d.day) &&
          std::find(out.begin(), out.end(), k) == out.end()) {
        out.push_back(k);
        break;
      }
  return out;
}

// The retry of unit `i` when its first translation lost a number or a date; none otherwise.
std::optional<NumberRetry> number_retry(const RetryRound& round, size_t i) {
  const Unit& u = round.units[i];
  const TextPiece& piece = round.pieces[u.piece];
  if (!whole_translated_sentence(u, piece)) return std::nullopt;
  const SourceReader& reader = round.reader;
  const std::string_view sentence(round.text.data() + u.begin, u.end - u.begin);
  ByteSpans addresses = verbatim_spans(sentence);  // and the glossary's terms: their numbers are no numbers
  for (const TextEdit& t : u.terms) addresses.emplace_back(t.at, t.at + t.length);
  std::sort(addresses.begin(), addresses.end());
  const ByteSpans numbers = find_numbers(sentence, reader.language, false, addresses);
  const std::vector<NamedDate> dates = find_named_dates(sentence, reader.language);
  if (numbers.empty() && dates.empty()) return std::nullopt;
  const std::string first = hypothesis_text(round.hyps[i], reader.tokenizer, reader.config.eos_id);
  std::vector<size_t> missing = missing_numbers(sentence, numbers, first, round.target_language);
  for (size_t k : days_given_a_month(sentence, reader.language, numbers, dates, first, round.target_language))
    if (std::find(missing.begin(), missing.end(), k) == missing.end()) missing.push_back(k);
  std::vector<NamedDate> lost_dates;  // shown whole as an unknown piece, written the target's way
  for (const NamedDate& d : dates)
    if (!has_named_date(first, d, round.target_language)) lost_dates.push_back(d);
  if (missing.empty() && lost_dates.empty()) return std::nullopt;
  ByteSpans lost, had, added, inserts;  // added: the spans masked now, besides the first reading's
  Rewrites insert_rewrites;
  Rewrites rewrites = u.rewrites;
  for (const NamedDate& d : lost_dates) {
    added.emplace_back(d.begin, d.end);
    rewrites.emplace_back(d.begin, write_named_date(d, round.target_language));
  }
  const auto in_lost_date = [&](const std::pair<size_t, size_t>& n) {
    return std::any_of(lost_dates.begin(), lost_dates.end(), [&](const NamedDate& d) { return d.begin <= n.first && n.second <= d.end; });
  };
  for (size_t k = 0; k < numbers.size(); ++k) {
    if (in_lost_date(numbers[k])) continue;  // (the date's own numbers come back with it)
    if (std::find(missing.begin(), missing.end(), k) == missing.end()) {
      had.push_back(numbers[k]);
      continue;
    }
    lost.push_back(numbers[k]);
    auto [b, e] = numbers[k];
    b -= minus_sign_before(sentence, b);  // a negative number is shown and copied with its sign
    if (const size_t ending = round.target_language == "de" ? english_ordinal_ending(sentence, e) : 0) {
      // an English ordinal is shown with its ending and written the German way: "1st" -> "1."
      rewrites.emplace_back(b, std::string(sentence.substr(b, e - b)) + ".");
      insert_rewrites.push_back(rewrites.back());
      added.emplace_back(b, e + ending);
      inserts.emplace_back(b, e + ending);
      continue;
    }
    if (reader.language == "de" && round.target_language == "en" && is_german_ordinal(sentence, b, e)) {
      // a German ordinal is shown with its dot and written the English way: "3." -> "3rd"
      rewrites.emplace_back(b, std::string(sentence.substr(b, e - b)) + english_ordinal_suffix(sentence.substr(b, e - b)));
      insert_rewrites.push_back(rewrites.back());
      added.emplace_back(b, e + 1);
      inserts.emplace_back(b, e + 1);
      continue;
    }
    inserts.emplace_back(b, e + unit_symbol_after(sentence, e));
    // a one-digit number takes the space before it: a mask needs 2 bytes
    if (e - b == 1 && b > 0 && sentence[b - 1] == ' ') --b;
    if (e - b >= 2) added.emplace_back(b, e);  // (one that starts the sentence cannot be shown)
  }
  if (added.empty()) return std::nullopt;
  ByteSpans masked = u.masked;
  masked.insert(masked.end(), added.begin(), added.end());
  std::sort(masked.begin(), masked.end());
  Unit r = reread_sentence(round.text, piece, u.piece, u.source_case, masked, reader);
  if (r.tokens.empty()) return std::nullopt;
  r.source_case = u.source_case;
  r.fired = u.fired;
  r.fired.push_back("numbers");
  r.terms = u.terms;
  r.dropped = u.dropped;
  r.emphasis = u.emphasis;
  r.masked = std::move(masked);
  r.copy_source = localize_numbers(sentence, lost, reader.language, round.target_language);
  r.rewrites = std::move(rewrites);
  // (an ordinal is shown with its ending: "3rd", its place the model's attention to it)
  const bool one_digit = std::any_of(lost.begin(), lost.end(), [&](const auto& n) {
    const bool ordinal = round.target_language == "de" ? english_ordinal_ending(sentence, n.second) > 0
                                                        : reader.language == "de" && is_german_ordinal(sentence, n.first, n.second);
    return n.second - n.first == 1 && !ordinal;
  });
  // (a date the model leaves out goes next to its neighbour word)
  const size_t masks = one_digit ? r.masked.size() - lost_dates.size() : 0;
  // The fallback reads the sentence unmasked with its lost numbers as the target writes them
  // ("3.450" shown as "3,450", same length: the spans hold), which the model copies where it garbles
  // two unknown pieces ("Am <unk> kamen <unk> Menschen" -> "The <unk> people came on <unk> people").
  Unit plain;
  if (lost_dates.empty()) {
    std::string shown = round.text;
    shown.replace(u.begin, u.end - u.begin, localize_numbers(sentence, lost, reader.language, round.target_language));
    plain = reread_sentence(shown, piece, u.piece, u.source_case, u.masked, reader);
    plain.source_case = u.source_case;
    plain.fired = r.fired;
    plain.terms = u.terms;
    plain.dropped = u.dropped;
    plain.emphasis = u.emphasis;
    plain.masked = u.masked;
    plain.copy_source = u.copy_source;
    plain.rewrites = u.rewrites;
  }
  return NumberRetry{i, std::move(r), std::move(had), masks, std::move(plain), std::move(inserts), std::move(insert_rewrites)};
}

// The words of `text` (runs of letters, lower-cased ASCII; other bytes kept) of five bytes or more,
// a word written twice in a row once (the repeated_words pass writes it once: "Alonso Alonso").
std::vector<std::string> long_words(std::string_view text) {
  std::vector<std::string> words;
  std::string w, last;
  for (size_t i = 0; i <= text.size(); ++i) {
    const unsigned char c = i < text.size() ? static_cast<unsigned char>(text[i]) : ' ';
    if (std::isalpha(c) || c >= 0x80) {
      w += char(std::tolower(c));
      continue;
    }
    if (w.empty()) continue;
    if (w.size() >= 5 && w != last) words.push_back(w);
    last = std::move(w);
    w.clear();
  }
  return words;
}

}  // namespace

bool doubles_a_word(std::string_view first, std::string_view second) {
  std::vector<std::string> a = long_words(first), b = long_words(second);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  for (size_t i = 0; i < b.size();) {
    size_t j = i;
    while (j < b.size() && b[j] == b[i]) ++j;
    const auto [lo, hi] = std::equal_range(a.begin(), a.end(), b[i]);
    if (j - i >= 2 && hi - lo <= 1 && j - i > size_t(hi - lo)) return true;
    i = j;
  }
  return false;
}

namespace {

// Moves tokens [from, from + n) of `h` to stand before token `to` (an index of the tokens without
// them), with their rows of every per-token array (probabilities, attention, heads, read-out).
void move_tokens(Hypothesis& h, size_t from, size_t n, size_t to) {
  const size_t count = h.tokens.size();
  const auto move_rows = [&](auto& rows) {
    if (rows.empty() || rows.size() % count) return;
    const size_t width = rows.size() / count;
    auto group = rows.begin() + long(from * width);
    if (to < from) std::rotate(rows.begin() + long(to * width), group, group + long(n * width));
    else std::rotate(group, group + long(n * width), rows.begin() + long((to + n) * width));
  };
  move_rows(h.tokens);
  move_rows(h.token_log_probs);
  move_rows(h.attention);
  move_rows(h.heads);
  move_rows(h.readout);
}

// A number's piece: digits and separators ("▁15", ".", "30"), or the space before one.
bool number_piece(const std::string& piece) {
  const std::string text = piece.rfind("\xE2\x96\x81", 0) == 0 ? piece.substr(3) : piece;
  return text.find_first_not_of("0123456789.,:") == std::string::npos;
}

// Removes tokens [from, from + n) of `h`, with their rows of every per-token array.
void erase_tokens(Hypothesis& h, size_t from, size_t n) {
  const size_t count = h.tokens.size();
  const auto erase_rows = [&](auto& rows) {
    if (rows.empty() || rows.size() % count) return;
    const size_t width = rows.size() / count;
    rows.erase(rows.begin() + long(from * width), rows.begin() + long((from + n) * width));
  };
  erase_rows(h.tokens);
  erase_rows(h.token_log_probs);
  erase_rows(h.attention);
  erase_rows(h.heads);
  erase_rows(h.readout);
}

// How many unknown pieces stand next to another one or to a number (a lone space piece between
// allowed): a number the model wrote beside another ("considered to be <unk> 2,500." for "Seit dem
// <unk> gelten 2.500 neue Regeln.") where the source has them apart says nothing of where it goes.
size_t unknowns_beside_numbers(const std::vector<int>& ids, const SentencePiece& tokenizer) {
  const int unk = tokenizer.unk_id();
  const auto numeric = [&](long k) {
    if (k < 0 || size_t(k) >= ids.size()) return false;
    if (ids[size_t(k)] == unk) return true;
    const std::string& piece = tokenizer.id_to_piece(ids[size_t(k)]);
    return number_piece(piece) && piece.find_first_of("0123456789") != std::string::npos;
  };
  const auto space = [&](long k) { return k >= 0 && size_t(k) < ids.size() && tokenizer.id_to_piece(ids[size_t(k)]) == "\xE2\x96\x81"; };
  size_t n = 0;
  for (long k = 0; k < long(ids.size()); ++k) {
    if (ids[size_t(k)] != unk) continue;
    const long before = space(k - 1) ? k - 2 : k - 1, after = space(k + 1) ? k + 2 : k + 1;
    n += numeric(before) || numeric(after);
  }
  return n;
}

// The numbers `text` writes, as their digits: runs of digits, joined by . , : / between two digits
// ("15:30" -> "1530"), sorted.
std::vector<std::string> digit_runs(std::string_view text) {
  const auto digit = [&](size_t k) { return k < text.size() && text[k] >= '0' && text[k] <= '9'; };
  const auto separator = [&](size_t k) {
    return k < text.size() && std::string_view(".,:/").find(text[k]) != std::string_view::npos;
  };
  std::vector<std::string> runs;
  for (size_t k = 0; k < text.size(); ++k) {
    if (!digit(k)) continue;
    std::string run(1, text[k]);
    for (; digit(k + 1) || (separator(k + 1) && digit(k + 2)); ++k)
      if (digit(k + 1)) run += text[k + 1];
    runs.push_back(std::move(run));
  }
  std::sort(runs.begin(), runs.end());
  return runs;
}

// How many of `runs` are not in `others` (both sorted; one of theirs for each).
size_t runs_not_in(const std::vector<std::string>& runs, const std::vector<std::string>& others) {
  std::vector<std::string> left;
  std::set_difference(runs.begin(), runs.end(), others.begin(), others.end(), std::back_inserter(left));
  return left.size();
}

// The retry's translation with its unknown pieces filled as the pass_through pass fills them.
std::string with_copies(const RetryRound& round, const Unit& again, const Hypothesis& second, std::string_view sentence) {
  const SentencePiece& tokenizer = round.reader.tokenizer;
  std::vector<int> ids;
  for (int id : second.tokens)
    if (id != round.reader.config.eos_id) ids.push_back(id);
  std::vector<std::pair<size_t, size_t>> spans;
  std::string text = tokenizer.decode(ids, &spans);
  drop_doubled_spaces(text, spans);
  const std::string source = again.copy_source.size() == sentence.size() ? again.copy_source : std::string(sentence);
  pass_through_unknown(source, again.tokens, tokenizer.unk_id(), ids, second.attention, text, spans, 0, again.dropped,
                       again.rewrites);
  return text;
}

// Whether the retry's translation `second` replaces the first one of its sentence (retries.h).
bool number_retry_is_better(const RetryRound& round, const NumberRetry& retry, const Hypothesis& second) {
  const SentencePiece& tokenizer = round.reader.tokenizer;
  const int eos_id = round.reader.config.eos_id;
  const std::string_view sentence(round.text.data() + retry.again.begin, retry.again.end - retry.again.begin);
  const std::string text = hypothesis_text(second, tokenizer, eos_id);
  if (!missing_numbers(sentence, retry.kept, text, round.target_language).empty()) return false;
  const std::string first = hypothesis_text(round.hyps[retry.unit], tokenizer, eos_id);
  // with its copies in place, more numbers besides the first translation's than that one lost: it
  // wrote one of its own ("at the October 5 00 3:30 p.m." for "am 5. Oktober um 15:30 Uhr", where
  // the first had "October 5:30 p.m."); missing_numbers sees only one written against a source
  // number or with its digits
  const std::vector<std::string> source_runs = digit_runs(sentence);
  const std::vector<std::string> first_runs = digit_runs(first);
  const std::vector<std::string> retry_runs = digit_runs(with_copies(round, retry.again, second, sentence));
  if (runs_not_in(retry_runs, first_runs) > runs_not_in(source_runs, first_runs)) return false;
  // a currency the source does not name, guessed for an amount shown as an unknown piece ("$ <unk>
  // million" -> "Millionen Pfund": € and £ are unknown pieces in the training data)
  if (adds_currency(sentence, text) && !adds_currency(sentence, first)) return false;
  // a lone digit only where the model wrote it: put next to a word ("nach 3 Washington" for "to
  // Washington at 3 p.m.") it says nothing, unlike a year or an amount
  const long written = std::count(second.tokens.begin(), second.tokens.end(), tokenizer.unk_id());
  if (size_t(written) < retry.masks) return false;
  // more unknown pieces than its source has: one written twice ("on <unk> on <unk>"), whose copy
  // only one can take, the other's words left behind ("on 12.03.2024 on .")
  if (written > std::count(retry.again.ids.begin(), retry.again.ids.end(), tokenizer.unk_id())) return false;
  return !doubles_a_word(first, text);
}

// Whether the source words on either side of `span` were translated side by side: the target
// token that attends most to the source token before it is the last of a word ("Etwa" of "About"),
// and the one that attends most to the token after it starts the next word ("in"). Only there does
// a number put between them stand where the source has it (not "in die 5 Atmosphäre" for "enters
// the atmosphere, at about 5am", whose words around the 5 the model left out).
bool translated_around(const std::vector<Token>& source, const Hypothesis& target, const SentencePiece& tokenizer,
                       std::pair<size_t, size_t> span) {
  const size_t rows = target.tokens.size(), cols = source.size() + 1;
  if (rows == 0 || target.attention.size() < rows * cols) return false;
  long before = -1, after = -1;
  for (size_t i = 0; i < source.size(); ++i) {
    if (source[i].end <= span.first) before = long(i);
    if (after < 0 && source[i].begin >= span.second && source[i].end > span.second) after = long(i);
  }
  if (before < 0 || after < 0) return false;
  const auto best = [&](size_t column) {
    size_t row = 0;
    for (size_t t = 1; t < rows; ++t)
      if (target.attention[t * cols + column] > target.attention[row * cols + column]) row = t;
    return row;
  };
  const size_t left = best(size_t(before)), right = best(size_t(after));
  if (right <= left) return false;
  for (size_t t = left + 1; t <= right; ++t) {
    const bool starts_word = tokenizer.id_to_piece(target.tokens[t]).rfind("\xE2\x96\x81", 0) == 0;
    const bool punctuation = tokenizer.id_to_piece(target.tokens[t]).find_first_of(".,;:!?)") == 0;
    if ((t < right) == (starts_word || punctuation)) return false;  // pieces of one word, then the next word
  }
  return true;
}

// The plain retry's unit with the lost numbers put in (NumberRetry::inserts), where its translation
// `third` lost no more than those and wrote no number the source lacks; with the text it comes out
// as. Else nothing: the first translation stays. Why: the model leaves some numbers out of every
// reading ("About 1 in 5 adults smoke." -> "Etwa in 5 Erwachsenen rauchen.", the retry "In 5
// Erwachsenen rauchen fünf Erwachsene."); put next to the translation of the word before it
// (pass_through_unknown's dropped runs), the number is there ("Etwa 1 in 5 Erwachsenen rauchen.").
std::optional<Unit> plain_with_numbers_put_in(const RetryRound& round, const NumberRetry& retry, const Hypothesis& third) {
  if (retry.inserts.empty() || third.attention.empty()) return std::nullopt;
  const SentencePiece& tokenizer = round.reader.tokenizer;
  const int eos_id = round.reader.config.eos_id;
  const std::string_view sentence(round.text.data() + retry.plain.begin, retry.plain.end - retry.plain.begin);
  const std::string text = hypothesis_text(third, tokenizer, eos_id);
  if (runs_not_in(digit_runs(text), digit_runs(sentence)) > 0) return std::nullopt;  // a number garbled, not left out
  ByteSpans skip = verbatim_spans(sentence);
  for (const TextEdit& t : retry.plain.terms) skip.emplace_back(t.at, t.at + t.length);
  std::sort(skip.begin(), skip.end());
  const ByteSpans numbers = find_numbers(sentence, round.reader.language, false, skip);
  const std::vector<size_t> lost = missing_numbers(sentence, numbers, text, round.target_language);
  for (size_t k : lost) {
    const auto inserted = [&](const std::pair<size_t, size_t>& s) { return s.first <= numbers[k].first && numbers[k].second <= s.second; };
    if (std::none_of(retry.inserts.begin(), retry.inserts.end(), inserted)) return std::nullopt;
  }
  Unit put_in = retry.plain;
  for (const auto& s : retry.inserts) {
    const auto lost_here = [&](size_t k) { return s.first <= numbers[k].first && numbers[k].second <= s.second; };
    if (!std::any_of(lost.begin(), lost.end(), lost_here)) continue;  // (not one the plain reading kept)
    if (!translated_around(retry.plain.tokens, third, tokenizer, s)) return std::nullopt;
    put_in.dropped.push_back(s);
  }
  if (put_in.dropped.size() == retry.plain.dropped.size()) return std::nullopt;
  std::sort(put_in.dropped.begin(), put_in.dropped.end());
  put_in.rewrites.insert(put_in.rewrites.end(), retry.insert_rewrites.begin(), retry.insert_rewrites.end());
  std::string with_numbers = with_copies(round, put_in, third, sentence);
  localize_copied_numbers(sentence, numbers, with_numbers, round.reader.language, round.target_language);
  if (!missing_numbers(sentence, numbers, with_numbers, round.target_language).empty()) return std::nullopt;
  const std::string first = hypothesis_text(round.hyps[retry.unit], tokenizer, eos_id);
  if ((adds_currency(sentence, text) && !adds_currency(sentence, first)) || doubles_a_word(first, text)) return std::nullopt;
  return put_in;
}

// Whether the plain retry (NumberRetry::plain) replaces the first translation: it keeps every
// number of the source (as the number_separators pass writes it back: "24,07,2016" -> "24.07.2016"),
// names no currency the source lacks, and doubles no word.
bool plain_retry_is_better(const RetryRound& round, const NumberRetry& retry, const Hypothesis& second) {
  const SentencePiece& tokenizer = round.reader.tokenizer;
  const int eos_id = round.reader.config.eos_id;
  const Unit& plain = retry.plain;
  const std::string_view sentence(round.text.data() + plain.begin, plain.end - plain.begin);
  std::string text = hypothesis_text(second, tokenizer, eos_id);
  ByteSpans skip = verbatim_spans(sentence);
  for (const TextEdit& t : plain.terms) skip.emplace_back(t.at, t.at + t.length);
  std::sort(skip.begin(), skip.end());
  const ByteSpans numbers = find_numbers(sentence, round.reader.language, false, skip);
  localize_copied_numbers(sentence, numbers, text, round.reader.language, round.target_language);
  if (!missing_numbers(sentence, numbers, text, round.target_language).empty()) return false;
  const std::string first = hypothesis_text(round.hyps[retry.unit], tokenizer, eos_id);
  if (adds_currency(sentence, text) && !adds_currency(sentence, first)) return false;
  return !doubles_a_word(first, text);
}

}  // namespace

void drop_number_after_unknown(Hypothesis& second, std::string_view source, const SentencePiece& tokenizer) {
  std::vector<std::string> said;  // the source's numbers' digits
  for (size_t k = 0; k < source.size(); ++k) {
    if (source[k] < '0' || source[k] > '9' || (k > 0 && source[k - 1] >= '0' && source[k - 1] <= '9')) continue;
    std::string run;
    for (size_t j = k; j < source.size() && source[j] >= '0' && source[j] <= '9'; ++j) run += source[j];
    said.push_back(run);
  }
  std::vector<int>& ids = second.tokens;
  for (size_t u = 0; u < ids.size(); ++u) {
    if (ids[u] != tokenizer.unk_id()) continue;
    size_t from = u + 1;
    if (from < ids.size() && tokenizer.id_to_piece(ids[from]) == "\xE2\x96\x81") ++from;  // a lone space piece
    size_t to = from;
    std::string digits;  // the first run of digits of the number
    bool first_run = true;
    for (; to < ids.size(); ++to) {
      const std::string& piece = tokenizer.id_to_piece(ids[to]);
      const bool starts_word = piece.rfind("\xE2\x96\x81", 0) == 0;
      // (its first piece may be glued to the unknown one: "<unk>" "15")
      if ((to > from && starts_word) || !number_piece(piece) || piece == "\xE2\x96\x81") break;
      for (char c : piece)
        if (c >= '0' && c <= '9') {
          if (first_run) digits += c;
        } else if (!digits.empty()) {
          first_run = false;
        }
    }
    // (a number's final separator is the sentence's: "15." ends in the full stop)
    while (to > from && tokenizer.id_to_piece(ids[to - 1]).find_first_of("0123456789") == std::string::npos) --to;
    if (to == from || digits.empty() || std::find(said.begin(), said.end(), digits) != said.end()) continue;
    erase_tokens(second, u + 1, to - u - 1);
  }
}

void put_number_where_first_had_one(Hypothesis& second, const std::vector<int>& first, const SentencePiece& tokenizer) {
  const std::vector<int>& r = second.tokens;
  if (std::count(r.begin(), r.end(), tokenizer.unk_id()) != 1) return;
  size_t at = size_t(std::find(r.begin(), r.end(), tokenizer.unk_id()) - r.begin()), n = 1;
  if (at > 0 && tokenizer.id_to_piece(r[at - 1]) == "\xE2\x96\x81") --at, ++n;  // its space
  std::vector<int> rest(r.begin(), r.begin() + long(at));
  rest.insert(rest.end(), r.begin() + long(at + n), r.end());
  if (first.size() <= rest.size()) return;
  const size_t run = first.size() - rest.size();
  // whether `first` is rest[0, i) + a number of its own (a word of digits and separators) + rest[i, end)
  const auto number_at = [&](size_t i) {
    if (!std::equal(rest.begin(), rest.begin() + long(i), first.begin()) ||
        !std::equal(rest.begin() + long(i), rest.end(), first.begin() + long(i + run)))
      return false;
    bool digits = false;
    for (size_t k = i; k < i + run; ++k) {
      const std::string& piece = tokenizer.id_to_piece(first[k]);
      if (!number_piece(piece)) return false;
      digits |= piece.find_first_of("0123456789") != std::string::npos;
    }
    const std::string& starts = tokenizer.id_to_piece(first[i]);
    const std::string after = i < rest.size() ? tokenizer.id_to_piece(rest[i]) : std::string();
    const bool word_start = starts.rfind("\xE2\x96\x81", 0) == 0;
    const bool word_end = after.empty() || !std::isdigit(static_cast<unsigned char>(after[0]));
    return digits && word_start && word_end;
  };
  if (number_at(at)) return;  // where the first translation had it
  for (size_t i = 0; i <= rest.size(); ++i)
    if (number_at(i)) {
      move_tokens(second, at, n, i);
      return;
    }
}

void retry_empty(RetryRound& round) {
  const std::vector<int>& silent = round.silent_tokens;
  std::vector<size_t> redo;
  std::vector<Unit> again;
  for (size_t u = 0; u < round.units.size(); ++u) {
    const Unit& unit = round.units[u];
    if (unit.tokens.empty() || unit.copied || !unit.memory_ids.empty()) continue;
    const std::vector<int>& tokens = round.hyps[u].tokens;
    if (!std::all_of(tokens.begin(), tokens.end(), [&](int id) { return std::binary_search(silent.begin(), silent.end(), id); }))
      continue;
    // an unknown piece where the source has a glossary term writes the term: "The invoice" ->
    // "Rechnung" is no empty translation (made again, it came out "„Da“ Rechnung")
    const int unk = round.reader.tokenizer.unk_id();
    if (!unit.terms.empty() && std::find(tokens.begin(), tokens.end(), unk) != tokens.end()) continue;
    redo.push_back(u);
    again.push_back(unit);
  }
  if (again.empty()) return;
  SearchOptions opts = round.search;
  opts.not_first = silent;
  std::vector<Hypothesis> second = round.translate(again, opts);
  for (size_t k = 0; k < redo.size(); ++k) {
    round.hyps[redo[k]] = std::move(second[k]);
    round.units[redo[k]].fired.push_back("retry_empty");
  }
}

void retry_numbers(RetryRound& round) {
  std::vector<NumberRetry> retries;
  for (size_t i = 0; i < round.units.size(); ++i)
    if (std::optional<NumberRetry> r = number_retry(round, i)) retries.push_back(std::move(*r));
  if (retries.empty()) return;
  std::vector<Unit> again;
  for (const NumberRetry& r : retries) again.push_back(r.again);
  SearchOptions opts = round.search;
  opts.keep_attention = true;  // places the copied numbers
  std::vector<Hypothesis> second = round.translate(again, opts);
  // the retries whose plain reading is tried next: those not better, and those that put a number
  // beside another, which stand only if the plain reading is not better either
  std::vector<size_t> rejected;
  std::vector<bool> fallback(retries.size(), false);
  for (size_t k = 0; k < retries.size(); ++k) {
    const Unit& again = retries[k].again;
    drop_number_after_unknown(second[k], std::string_view(round.text).substr(again.begin, again.end - again.begin), round.reader.tokenizer);
    put_number_where_first_had_one(second[k], round.hyps[retries[k].unit].tokens, round.reader.tokenizer);
    const bool better = number_retry_is_better(round, retries[k], second[k]);
    const bool beside = better && unknowns_beside_numbers(second[k].tokens, round.reader.tokenizer) >
                                      unknowns_beside_numbers(retries[k].again.ids, round.reader.tokenizer);
    if (better && !beside) {
      round.units[retries[k].unit] = std::move(retries[k].again);
      round.hyps[retries[k].unit] = std::move(second[k]);
    } else if (!retries[k].plain.tokens.empty()) {
      rejected.push_back(k);
      fallback[k] = beside;
    } else if (beside) {
      round.units[retries[k].unit] = std::move(retries[k].again);
      round.hyps[retries[k].unit] = std::move(second[k]);
    }
  }
  if (rejected.empty()) return;
  std::vector<Unit> plain;
  for (size_t k : rejected) plain.push_back(retries[k].plain);
  SearchOptions plain_opts = round.search;
  plain_opts.keep_attention = true;  // places the numbers put in as a last resort
  std::vector<Hypothesis> third = round.translate(plain, plain_opts);
  for (size_t j = 0; j < rejected.size(); ++j) {
    NumberRetry& r = retries[rejected[j]];
    if (plain_retry_is_better(round, r, third[j])) {
      round.units[r.unit] = std::move(r.plain);
      round.hyps[r.unit] = std::move(third[j]);
    } else if (fallback[rejected[j]]) {
      round.units[r.unit] = std::move(r.again);
      round.hyps[r.unit] = std::move(second[rejected[j]]);
    } else if (std::optional<Unit> put_in = plain_with_numbers_put_in(round, r, third[j])) {
      round.units[r.unit] = std::move(*put_in);
      round.hyps[r.unit] = std::move(third[j]);
    }
  }
}

}  // namespace nmt
