// The text passes' list and the function that applies their edits; see passes.h.
#include "text/passes.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "text/casing.h"
#include "text/clock_times.h"
#include "text/final_marks.h"
#include "text/gender_forms.h"
#include "text/memory.h"
#include "text/no_break_spaces.h"
#include "text/number_commas.h"
#include "text/number_labels.h"
#include "text/numbers.h"
#include "text/quotes.h"
#include "text/repeated_words.h"
#include "text/utf8.h"
#include "text/verbatim.h"
#include "text/word_alignment.h"
#include "retries.h"

namespace nmt {
namespace {

// ---- source passes: what the model reads (same length as the sentence) ----

// Adds `spans` to the sorted `to`, each once (n log n: a sentence can hold thousands of addresses).
void add_spans(std::vector<std::pair<size_t, size_t>>& to, std::vector<std::pair<size_t, size_t>> spans) {
  std::sort(spans.begin(), spans.end());
  spans.erase(std::unique(spans.begin(), spans.end()), spans.end());
  if (!std::is_sorted(to.begin(), to.end())) std::sort(to.begin(), to.end());
  std::vector<std::pair<size_t, size_t>> added;
  std::set_difference(spans.begin(), spans.end(), to.begin(), to.end(), std::back_inserter(added));
  const size_t old_size = to.size();
  to.insert(to.end(), added.begin(), added.end());
  std::inplace_merge(to.begin(), to.begin() + old_size, to.end());
}

void mask_verbatim(SourceSentence& s) {  // "see https://example.org" -> "see <one unknown piece>"
  std::vector<std::pair<size_t, size_t>> spans = verbatim_spans(s.sentence);
  if (s.language == "de") {  // "USB-C" (the de->en model dropped the "-C")
    const std::vector<std::pair<size_t, size_t>> codes = variant_codes(s.sentence, spans);
    spans.insert(spans.end(), codes.begin(), codes.end());
  }
  add_spans(s.masked, spans);
}

void mask_terms(SourceSentence& s) {  // each glossary term masked as an address is; written as its target term
  if (!s.glossary || s.in_code) return;
  s.terms = s.glossary->find(s.sentence, s.masked);
  std::vector<std::pair<size_t, size_t>> spans;
  for (const TextEdit& t : s.terms) spans.emplace_back(t.at, t.at + t.length);
  add_spans(s.masked, spans);
}

void look_up_memory(SourceSentence& s) {  // "Thank you!" -> its human translation (units.cpp forces it)
  if (!s.memory || !s.terms.empty()) return;
  const std::string_view found = s.memory->find(s.sentence);
  if (!found.empty()) s.memory_translation = with_final_marks(found, s.sentence);
}

void recase_source(SourceSentence& s) {  // "THE MEETING IS CANCELLED." -> "The meeting is cancelled."
  if (s.truecaser && s.how != SentenceCase::normal) s.shown = s.truecaser->recase(s.shown, s.how);
}

void hide_emphasis(SourceSentence& s) {  // "**Note:**" read as "Note:"
  s.shown = blank_marks(s.shown, find_emphasis(s.sentence, s.masked));
}

void read_gender(SourceSentence& s) {  // "Kund*innen" read as "Kundinnen"
  if (s.language == "de") s.shown = read_gender_forms(s.shown, s.masked);
}

// ---- target passes: the translation repaired ----

void write_capitals(TargetSentence& s) {  // a sentence that came in capitals goes out in capitals
  if (!s.in_capitals) return;
  const size_t kept = std::min(s.fixed, s.target.size());  // (a prefix stays as given)
  s.target = s.target.substr(0, kept) + to_upper_same_length(std::string_view(s.target).substr(kept));
  s.capitals_written = true;
  // "IMPRESS" -> "IMPRESSUM" (not where the model wrote an unknown piece: pass_through fills it in later)
  const DecodedSentence* d = s.decoded;
  if (d && std::find(d->target_ids.begin(), d->target_ids.end(), d->unk_id) == d->target_ids.end())
    apply_edits(s, cut_names(s.source, d->source_tokens, s.target, s.spans, s.fixed));
}

// Emoji, other scripts, deleted characters such as U+FFFD: copied over, not lost (or an unknown
// piece the model wrote itself: "Ky" <unk> "to" for "Kyoto", never shown as " ⁇ "); spaced as the
// source without its emphasis marks ("**nmt_nfkc**" is a word of its own).
void pass_through(TargetSentence& s) {
  const DecodedSentence* d = s.decoded;
  if (!d) return;
  const bool wrote_unknown = std::find(d->target_ids.begin(), d->target_ids.end(), d->unk_id) != d->target_ids.end();
  if (!has_unknown(d->source_tokens, d->unk_id) && d->dropped.empty() && !wrote_unknown) return;
  const std::string copy_from = blank_marks(d->copy_source.empty() ? s.source : d->copy_source, d->emphasis, ' ');
  Rewrites rewrites = d->rewrites;  // glossary terms and dates: text of the target language, so in capitals too
  if (s.capitals_written)
    for (auto& [begin, text] : rewrites) text = to_upper_same_length(text);
  pass_through_unknown(copy_from, d->source_tokens, d->unk_id, d->target_ids, d->attention, s.target, s.spans, s.fixed,
                       d->dropped, rewrites, s.currency_on);
}

// The source's numbers (not those inside addresses and names from code).
ByteSpans source_numbers(const TargetSentence& s) { return find_numbers(s.source, s.from, false, s.source_verbatim); }

// The sentence and its translation as the rules below read them: the source's verbatim spans and
// their copies in the target written over (same lengths: the rules' offsets hold), so that no rule
// reads or changes a number, dash, "~" or quotation mark of an address or code.
struct OutsideCopies {
  std::string source, target;
};
OutsideCopies outside_copies(const TargetSentence& s) {
  OutsideCopies o{std::string(s.source), s.target};
  for (auto [b, e] : s.source_verbatim) o.source.replace(b, e - b, e - b, 'x');
  for (auto [b, e] : verbatim_copies(s)) o.target.replace(b, e - b, e - b, 'x');
  return o;
}

// Where the target writes a number against the letters before it ("heute45" for "... $45 today":
// the model dropped the "$" piece and wrote "45" without its space) that the source never writes
// against a letter: a space there. A name that ends in its number in the source ("Windows11",
// "MP3") keeps it.
std::vector<TextEdit> glued_numbers(std::string_view source, std::string_view target, size_t fixed) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const auto letter_before = [](std::string_view text, size_t at) {
    if (at == 0) return false;
    size_t start = at - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    char32_t cp = 0;
    decode_utf8(text, start, cp);
    return is_letter(cp);
  };
  std::vector<TextEdit> edits;
  for (size_t b = std::max<size_t>(fixed, 1); b < target.size(); ++b) {
    if (!digit(target[b]) || digit(target[b - 1]) || !letter_before(target, b)) continue;
    size_t e = b;
    while (e < target.size() && digit(target[e])) ++e;
    const std::string_view number = target.substr(b, e - b);
    bool in_source = false, glued_in_source = false;
    for (size_t at = source.find(number); at != std::string_view::npos; at = source.find(number, at + 1)) {
      if ((at > 0 && digit(source[at - 1])) || (at + number.size() < source.size() && digit(source[at + number.size()])))
        continue;  // part of another number
      in_source = true;
      glued_in_source = glued_in_source || letter_before(source, at);
    }
    if (in_source && !glued_in_source) edits.push_back(TextEdit{b, 0, " ", true});
    b = e;
  }
  std::reverse(edits.begin(), edits.end());
  return edits;
}

void number_separators(TargetSentence& s) {  // "1,234.56" copied into German -> "1.234,56" (same length)
  localize_copied_numbers(s.source, source_numbers(s), s.target, s.from, s.to, s.fixed, verbatim_copies(s));
  const OutsideCopies o = outside_copies(s);
  apply_edits(s, glued_numbers(o.source, o.target, s.fixed));  // "heute45" -> "heute 45"
}

void currency(TargetSentence& s) {  // "für mehr als 180" -> "für mehr als 180 $"
  const OutsideCopies o = outside_copies(s);
  std::vector<TextEdit> edits;
  for (auto& [at, sign] : currency_insertions(o.source, source_numbers(s), o.target, s.to, s.fixed))
    edits.push_back(TextEdit{at, 0, std::move(sign), true});
  apply_edits(s, edits);
}

void ranges(TargetSentence& s) {  // "3–5", "2-3"
  const OutsideCopies o = outside_copies(s);
  apply_edits(s, range_dashes(o.source, o.target, s.fixed));
}
void approximate(TargetSentence& s) {  // "~50 $"
  const OutsideCopies o = outside_copies(s);
  apply_edits(s, approximate_marks(o.source, o.target, s.fixed));
}
void labels(TargetSentence& s) {  // "Nr. 5", not "Nein. 5"
  const OutsideCopies o = outside_copies(s);
  apply_edits(s, number_labels(o.source, o.target, s.from, s.to, s.fixed));
}
void commas(TargetSentence& s) {  // "12, 10115 Berlin"
  const OutsideCopies o = outside_copies(s);
  apply_edits(s, number_commas(o.source, o.target, s.fixed));
}
void ordinals(TargetSentence& s) {  // "October 3th" -> "3rd"
  if (s.to == "en") apply_edits(s, english_ordinal_endings(outside_copies(s).target, s.fixed));
}

// "at 6 p.m." -> "um 6 Uhr" -> "um 18 Uhr"; "um 9 Uhr" -> "at 9 p.m." -> "at 9 a.m." (one direction
// or the other: never both). The words it writes are sure.
void clock_times(TargetSentence& s) {
  const OutsideCopies o = outside_copies(s);
  std::vector<TextEdit> edits = evening_hours(o.source, o.target, s.from, s.to, s.fixed);
  for (TextEdit& e : english_clock_times(o.source, o.target, s.from, s.to, s.fixed)) edits.push_back(std::move(e));
  apply_edits(s, edits, /*sure=*/true);
}

void repeats(TargetSentence& s) {  // "Alonso Alonso"
  const OutsideCopies o = outside_copies(s);
  apply_edits(s, repeated_words(o.source, o.target, s.fixed));
}
void marks(TargetSentence& s) {  // "!!", "???"; a "." the model left out after a copy ("... with `git commit`")
  apply_edits(s, final_marks(s.source, s.target, s.fixed));
  ByteSpans copies = verbatim_copies(s);
  // and a glossary term written last ("Ohne Kündigungsfrist geht nichts." -> "There's nothing
  // without notice period")
  if (s.decoded)
    for (const auto& [begin, text] : s.decoded->rewrites)
      if (const size_t at = s.target.rfind(text); at != std::string::npos && at >= s.fixed)
        copies.emplace_back(at, at + text.size());
  apply_edits(s, final_mark_after_copy(s.source, s.source_verbatim, s.target, copies, s.fixed));
}
void quotes(TargetSentence& s) {  // "..." -> „...“ in German (a quote inside copied code opens or closes none)
  const OutsideCopies o = outside_copies(s);
  apply_edits(s, invented_quotation_mark(o.source, o.target, s.fixed));  // (any target language)
  apply_edits(s, quotes_around_code(s.source, s.source_verbatim, s.target, verbatim_copies(s), s.fixed));  // » `--force`«
  if (s.to == "de") apply_edits(s, german_quotation_marks(outside_copies(s).target, s.fixed));
}
void capital_start(TargetSentence& s) {  // "Schätzungen reichen" -> "estimates" -> "Estimates"
  if (!s.prefixed && s.starts_sentence) apply_edits(s, capitalized_start(s.source, s.target));
  // a line that goes on with a sentence, or a long sentence's later chunk: "and bought milk" -> "And ..." -> "and ..."
  if (!s.prefixed && !s.starts_sentence && !s.in_capitals) apply_edits(s, continued_start(s.source, s.target, s.to));
  if (!s.in_capitals) apply_edits(s, names_as_written(s.source, s.target, s.fixed));  // "linkedIn" -> "LinkedIn"
}

// "**Note:**" -> "**Hinweis:**": each mark next to the target words aligned with what it marks.
void emphasis_marks(TargetSentence& s) {
  const DecodedSentence* d = s.decoded;
  if (!d || d->emphasis.empty()) return;
  const AttentionSpans spans = attention_spans(s);
  WordAlignment words = align_words(s.source, spans.source, s.target, spans.target,
                                    spans.attended ? d->attention.data() : nullptr, int(spans.target.size()),
                                    int(spans.source.size()));
  // a glossary term (or a date) written for an unknown piece is known to stand for its source text:
  // its marks go around it ("*invoice*" -> "*Rechnung*"), wherever the piece's attention went
  std::vector<TextEdit> terms;
  for (const auto& [begin, text] : d->rewrites)
    for (const Token& t : d->source_tokens)
      if (t.id == d->unk_id && t.begin <= begin && begin < t.end) terms.push_back({begin, t.end - begin, text});
  align_terms(terms, s.target, words);
  std::vector<TextEdit> edits;
  for (auto& [at, mark] : place_emphasis(s.source, d->emphasis, words, s.target, s.fixed))
    edits.push_back(TextEdit{at, 0, std::move(mark), true});
  std::reverse(edits.begin(), edits.end());  // (placed in order of position; applied last first)
  apply_edits(s, edits);
}

constexpr const char* kRawNumbers = "raw_numbers";

const std::vector<Pass> kPasses = {
    // name, stage, alias, doc, source work, retry work, target work, on a copied sentence too
    {"verbatim", PassStage::source, nullptr,
     "web and e-mail addresses, `code`, hashtags, names from code and long runs are copied, not translated (text/verbatim.h)",
     mask_verbatim, nullptr, nullptr, false},
    {"glossary", PassStage::source, nullptr,
     "the user's glossary: each source term is shown as one unknown piece and written as its target term where the model "
     "puts it (text/glossary.h)",
     mask_terms, nullptr, nullptr, false},
    {"memory", PassStage::source, "model_only",
     "a short everyday sentence the model file's translation memory holds gets its human translation (text/memory.h)",
     look_up_memory, nullptr, nullptr, false},
    {"casing", PassStage::source, "keep_case",
     "a sentence in capitals, Title Case or all lower case is recased for the model (text/casing.h)", recase_source,
     nullptr, nullptr, false},
    {"emphasis", PassStage::source, nullptr, "Markdown emphasis marks (**, _, ~~) are read as invisible (text/emphasis.h)",
     hide_emphasis, nullptr, nullptr, false},
    {"gender_forms", PassStage::source, nullptr,
     "German gender forms (Kund*innen, jede:r) are read as the feminine ones (text/gender_forms.h)", read_gender, nullptr,
     nullptr, false},
    {"retry_empty", PassStage::retry, nullptr,
     "a sentence whose translation came out empty is translated again without the tokens that write nothing (retries.h)",
     nullptr, retry_empty, nullptr, false},
    {"numbers", PassStage::retry, kRawNumbers,
     "a sentence whose translation lost a number or a date is translated again with it copied, written the target's way "
     "(retries.h, text/numbers.h, text/dates.h)",
     nullptr, retry_numbers, nullptr, false},
    {"capitals", PassStage::target, nullptr, "a sentence that came in capitals goes out in capitals (text/casing.h)",
     nullptr, nullptr, write_capitals, true},
    {"pass_through", PassStage::target, nullptr,
     "emoji, other scripts and what the vocabulary cannot write are copied where the model attended to them "
     "(text/pass_through.h)",
     nullptr, nullptr, pass_through, false},
    {"number_separators", PassStage::target, kRawNumbers,
     "numbers copied as the source writes them get the target's separators: 1,234.56 -> 1.234,56 (text/numbers.h), "
     "and a space where the model wrote one against a word (heute45 -> heute 45)",
     nullptr, nullptr, number_separators, true},
    {"currency", PassStage::target, kRawNumbers, "a currency sign the model left out goes back by its amount (text/numbers.h)",
     nullptr, nullptr, currency, true},
    {"ranges", PassStage::target, kRawNumbers,
     "a range keeps the source's en dash (3–5), and a range the model wrote as a score (2:3) its dash (text/numbers.h)",
     nullptr, nullptr, ranges, true},
    {"approximate", PassStage::target, kRawNumbers, "the source's ~ stays on its number: ~$50 (text/numbers.h)", nullptr, nullptr,
     approximate, true},
    {"number_labels", PassStage::target, kRawNumbers,
     "the abbreviation before a number in the target's way: No. 5 <-> Nr. 5 (text/number_labels.h)", nullptr, nullptr,
     labels, true},
    {"number_commas", PassStage::target, kRawNumbers,
     "a comma between two numbers stays a comma: Friedrichstraße 12, 10115 Berlin (text/number_commas.h)", nullptr, nullptr,
     commas, false},
    {"ordinals", PassStage::target, kRawNumbers, "English ordinals get their endings: 3rd, not 3th (text/numbers.h)",
     nullptr, nullptr, ordinals, true},
    {"clock_times", PassStage::target, kRawNumbers,
     "clock times get the right half of the day: 6 p.m. -> 18 Uhr, um 9 Uhr -> 9 a.m. (text/clock_times.h)", nullptr, nullptr,
     clock_times, true},
    {"repeated_words", PassStage::target, nullptr, "a word the model wrote twice in a row is written once (text/repeated_words.h)",
     nullptr, nullptr, repeats, false},
    {"final_marks", PassStage::target, nullptr, "the source's final !! or ??? end the translation too (text/final_marks.h)",
     nullptr, nullptr, marks, false},
    {"quotes", PassStage::target, nullptr,
     "German translations get „German quotation marks“; a lone quote the source has none of goes (text/quotes.h)", nullptr, nullptr,
     quotes, false},
    {"capital_start", PassStage::target, nullptr,
     "a sentence that starts with a capital starts its translation with one, and a name with a capital inside is "
     "written as the source writes it (text/casing.h)", nullptr, nullptr,
     capital_start, false},
    {"emphasis_marks", PassStage::target, nullptr,
     "the emphasis marks go back next to the words aligned with what they mark (text/emphasis.h)", nullptr, nullptr,
     emphasis_marks, false},
    {"no_break_spaces", PassStage::target, nullptr,
     "a no-break space between two words stays where the translation keeps them side by side (text/no_break_spaces.h)",
     nullptr, nullptr, keep_no_break_spaces, false},
};

}  // namespace

const std::vector<Pass>& passes() { return kPasses; }

const Pass* find_pass(std::string_view name) {
  for (const Pass& p : kPasses)
    if (name == p.name) return &p;
  return nullptr;
}

std::string pass_names() {
  std::string out;
  for (const Pass& p : kPasses) out += (out.empty() ? "" : ", ") + std::string(p.name);
  return out;
}

PassSwitches::PassSwitches(const std::vector<std::string>& off, bool raw_numbers, bool keep_case, bool model_only)
    : off_(off) {
  for (const Pass& p : kPasses) {
    if (!p.alias) continue;
    const std::string_view alias = p.alias;
    if ((alias == "raw_numbers" && raw_numbers) || (alias == "keep_case" && keep_case) || (alias == "model_only" && model_only))
      off_.push_back(p.name);
  }
}

bool PassSwitches::on(std::string_view name) const { return std::find(off_.begin(), off_.end(), name) == off_.end(); }

void run_source_passes(SourceSentence& s, const PassSwitches& on, std::vector<std::string>* fired) {
  for (const Pass& p : kPasses) {
    if (!p.source || !on.on(p)) continue;
    const std::string before = fired ? s.shown : std::string();
    const size_t masked = s.masked.size();
    const size_t remembered = s.memory_translation.size();
    p.source(s);
    if (fired && (s.shown != before || s.masked.size() != masked || s.memory_translation.size() != remembered))
      fired->push_back(p.name);
  }
}

void run_retry_passes(RetryRound& round, const PassSwitches& on) {
  for (const Pass& p : kPasses)
    if (p.retry && on.on(p)) p.retry(round);
}

void run_target_passes(TargetSentence& s, const PassSwitches& on) {
  s.source_verbatim = verbatim_spans(s.source);
  s.currency_on = on.on("currency");
  if (s.in_code) return;  // "total = 1,234.56" in a code block stays so
  for (const Pass& p : kPasses) {
    if (!p.target || (s.copied && !p.on_copied) || !on.on(p)) continue;
    const std::string before = s.target;
    p.target(s);
    if (s.target != before) s.fired.push_back(p.name);
  }
  place_line_breaks(s);  // (no switch: the text keeps its lines whatever the passes do)
}

namespace {

// The word alignment of the alignment layer's attention (each target token's own row: this mean over
// heads says what the token was translated from without the read-out head's one-step shift).
WordAlignment attention_words(const TargetSentence& s) {
  if (!s.decoded) return {};
  const AttentionSpans spans = attention_spans(s);
  if (spans.target.empty() || !spans.attended) return {};
  return read_alignment(s.source, spans.source, s.target, spans.target, s.decoded->attention.data(),
                        int(spans.target.size()), int(spans.source.size()));
}

}  // namespace

AttentionSpans attention_spans(const TargetSentence& s) {
  AttentionSpans spans;
  const DecodedSentence* d = s.decoded;
  if (!d) return spans;
  for (const Token& t : d->source_tokens) spans.source.push_back({t.begin, t.end});
  spans.source.push_back({s.source.size(), s.source.size()});
  for (auto [b, e] : s.spans) spans.target.push_back({b, e});
  if (d->has_eos) spans.target.push_back({s.target.size(), s.target.size()});
  spans.attended = d->attention.size() >= spans.target.size() * spans.source.size();
  return spans;
}

void place_line_breaks(TargetSentence& s) {
  ByteSpans breaks;  // each whitespace run of the source that holds a line break
  for (size_t i = 0; i < s.source.size(); ++i) {
    if (s.source[i] != '\n' && s.source[i] != '\r') continue;
    size_t begin = i, end = i;
    while (begin > 0 && s.source[begin - 1] == ' ') --begin;
    while (end < s.source.size() && (s.source[end] == ' ' || s.source[end] == '\n' || s.source[end] == '\r')) ++end;
    breaks.emplace_back(begin, end);
    i = end;
  }
  if (breaks.empty() || s.target.find_first_of("\r\n") != std::string::npos) return;  // (copied: its own lines)
  const std::vector<Span> target_words = find_words(s.target);
  const ByteSpans copies = verbatim_copies(s);
  // a target word that can start a line: a space before it, past a forced prefix, not in a copy
  const auto can_break_before = [&](size_t k, size_t after) {
    const size_t at = target_words[k].begin;
    return at > after && at > s.fixed && s.target[at - 1] == ' ' &&
           std::none_of(copies.begin(), copies.end(), [&](const auto& c) { return c.first < at && at < c.second; });
  };
  const WordAlignment aligned = attention_words(s);
  std::vector<std::pair<size_t, std::string>> placed;  // (the target word's byte, the source's whitespace)
  size_t after = 0;
  for (auto [begin, end] : breaks) {
    const std::string whitespace(s.source.substr(begin, end - begin));
    size_t word = target_words.size();
    // before the target word said by the source word after the break (or the one after that)
    size_t next = 0;
    while (next < aligned.source_words.size() && aligned.source_words[next].begin < end) ++next;
    for (size_t j = next; j < next + 2 && j < aligned.source_words.size() && word == target_words.size(); ++j)
      for (auto [t, src] : aligned.links)
        if (size_t(src) == j && size_t(t) < target_words.size() && can_break_before(size_t(t), after) && size_t(t) < word) word = size_t(t);
    if (word == target_words.size()) {  // no link: where the break stands in the source, in proportion
      const double ideal = double(begin) * double(s.target.size()) / double(std::max<size_t>(1, s.source.size()));
      for (size_t k = 0; k < target_words.size(); ++k)
        if (can_break_before(k, after) &&
            (word == target_words.size() ||
             std::abs(double(target_words[k].begin) - ideal) < std::abs(double(target_words[word].begin) - ideal)))
          word = k;
    }
    if (word == target_words.size()) {  // no space left to break at: the line ends with the translation
      placed.emplace_back(s.target.size(), whitespace);
      after = s.target.size();
      continue;
    }
    placed.emplace_back(target_words[word].begin, whitespace);
    after = target_words[word].begin;
  }
  for (auto p = placed.rbegin(); p != placed.rend(); ++p) {
    if (p->first == s.target.size() && (s.target.empty() || s.target.back() != ' ')) insert_at(s.target, s.spans, p->first, p->second);
    else replace_at(s.target, s.spans, p->first - 1, 1, p->second);
  }
}

ByteSpans verbatim_copies(const TargetSentence& s) {
  ByteSpans copies;
  for (auto [b, e] : s.source_verbatim) {
    const std::string_view copy = s.source.substr(b, e - b);
    if (copy.size() < 2) continue;
    for (size_t at = s.target.find(copy); at != std::string::npos; at = s.target.find(copy, at + copy.size()))
      copies.emplace_back(at, at + copy.size());
  }
  return copies;
}

void apply_edits(TargetSentence& s, const std::vector<TextEdit>& edits, bool sure) {
  const ByteSpans copies = edits.empty() ? ByteSpans{} : verbatim_copies(s);
  const auto in_a_copy = [&](const TextEdit& e) {
    return std::any_of(copies.begin(), copies.end(), [&](const auto& c) {
      return e.length > 0 ? e.at < c.second && c.first < e.at + e.length : c.first < e.at && e.at < c.second;
    });
  };
  for (const TextEdit& e : edits) {
    if (in_a_copy(e)) continue;
    if (e.outside) insert_at(s.target, s.spans, e.at, e.text);
    else replace_at(s.target, s.spans, e.at, e.length, e.text);
    if (!sure) continue;
    for (size_t k = 0; k < s.spans.size() && k < s.token_probs.size(); ++k)
      if (s.spans[k].second > e.at && s.spans[k].first < e.at + e.text.size()) s.token_probs[k] = 1.0f;
  }
}

}  // namespace nmt
