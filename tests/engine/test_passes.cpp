// The text passes (engine/text/passes.h) without a model. Their tables, one row a line (read_table
// below says how they are written), give a source sentence, a translation as if the model had
// written it, the passes that run (all, all but some, or one alone) and what the translation must
// become. Rows cover every target pass, the order between passes, switching passes off by name and
// by their older flags, a forced prefix, and the source passes' rewriting of what the model reads;
// the glossary's matching and its rules; the options' JSON for both; the numbers retry's word
// order (with the fixture's tokenizer, no model) and the alternatives' filled unknown pieces.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alternative_text.h"
#include "options.h"
#include "fixture_tokens.h"
#include "retries.h"
#include "text/casing.h"
#include "text/glossary.h"
#include "text/memory.h"
#include "text/passes.h"
#include "text/verbatim.h"

namespace {

using nmt::PassSwitches;
using nmt::TargetSentence;

// Every pass on, or every pass but `off`.
PassSwitches all_but(std::vector<std::string> off = {}) { return PassSwitches(off, false, false, false); }

// Only the pass named `name` on.
PassSwitches only(const std::string& name) {
  std::vector<std::string> off;
  for (const nmt::Pass& p : nmt::passes())
    if (name != p.name) off.push_back(p.name);
  return PassSwitches(off, false, false, false);
}

// The translation's tokens as the decoder would span them: one per word with the space before it,
// and a final full stop of its own.
std::vector<std::pair<size_t, size_t>> word_spans(const std::string& text) {
  std::vector<std::pair<size_t, size_t>> spans;
  size_t begin = 0;
  for (size_t i = 1; i <= text.size(); ++i)
    if (i == text.size() || text[i] == ' ' || (text[i] == '.' && i + 1 == text.size())) {
      spans.emplace_back(begin, i);
      begin = i;
    }
  return spans;
}

// A sentence as the decoder hands it to the target passes: `model`, the translation of `source`,
// its tokens spanned as word_spans says, no probabilities kept (token_probs empty).
TargetSentence decoded(std::string_view source, std::string_view from, std::string_view to, std::string model) {
  TargetSentence t;
  t.source = source;
  t.from = from;
  t.to = to;
  t.target = std::move(model);
  t.spans = word_spans(t.target);
  return t;
}

// A row of a pass table: a sentence, its translation as the model wrote it, the passes that run
// and what the translation must become.
struct Row {
  std::string from, to;
  std::string source;
  std::string model;     // the translation as decoded
  std::string expected;  // after the passes
  PassSwitches switches;
  size_t fixed = 0;      // a forced prefix's bytes
  bool in_capitals = false;
};

std::string_view trimmed(std::string_view s) {
  const size_t begin = s.find_first_not_of(' ');
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(' ') - begin + 1);
}

// `s` cut at each `separator`, each part trimmed of the spaces around it.
std::vector<std::string> split(std::string_view s, char separator) {
  std::vector<std::string> parts;
  for (size_t at = 0;;) {
    const size_t end = s.find(separator, at);
    parts.emplace_back(trimmed(s.substr(at, end - at)));
    if (end == std::string_view::npos) return parts;
    at = end + 1;
  }
}

// A pass name as the table writes it; a typo fails here rather than switching nothing.
const std::string& known_pass(const std::string& name) {
  if (nmt::find_pass(name) == nullptr) FAIL("the table names no pass \"" << name << "\"");
  return name;
}

// The table's passes field: "all", "all but NAME...", "only NAME" or "raw_numbers" (the older
// flag), then ", in capitals" (the source came in capitals) or ", prefix N" (a forced prefix of N
// bytes).
void read_passes(const std::string& field, Row& row) {
  const std::vector<std::string> parts = split(field, ',');
  const std::vector<std::string> words = split(parts[0], ' ');
  if (words[0] == "all" && words.size() == 1) {
    row.switches = all_but();
  } else if (words[0] == "all" && words.size() > 2 && words[1] == "but") {
    std::vector<std::string> off;
    for (size_t i = 2; i < words.size(); ++i) off.push_back(known_pass(words[i]));
    row.switches = all_but(off);
  } else if (words[0] == "only" && words.size() == 2) {
    row.switches = only(known_pass(words[1]));
  } else if (words[0] == "raw_numbers" && words.size() == 1) {
    row.switches = PassSwitches({}, /*raw_numbers=*/true, false, false);
  } else {
    FAIL("passes must be \"all\", \"all but NAME...\", \"only NAME\" or \"raw_numbers\" (got \"" << parts[0] << "\")");
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    if (parts[i] == "in capitals") {
      row.in_capitals = true;
    } else if (parts[i].rfind("prefix ", 0) == 0 && parts[i].find_first_not_of("0123456789", 7) == std::string::npos) {
      row.fixed = std::stoul(parts[i].substr(7));
    } else {
      FAIL("after the passes: \"in capitals\" or \"prefix N\" (got \"" << parts[i] << "\")");
    }
  }
}

// The rows of a table written one a line as
//   en>de | passes | source | the model's translation | what it must become
// with the spaces around each field dropped (so no field starts or ends with one, and none holds
// a "|"). A line that starts with "|" goes on with the row above (a long row, a field a line); a
// line that starts with "//" is a comment.
std::vector<Row> read_table(std::string_view table) {
  std::vector<std::string> lines;  // one a row, its continuations joined
  for (const std::string& line : split(table, '\n')) {
    if (line.empty() || line.rfind("//", 0) == 0) continue;
    if (line[0] == '|') {
      if (lines.empty()) FAIL("a table starts with a continuation line: " << line);
      lines.back() += " " + line;
    } else {
      lines.push_back(line);
    }
  }
  std::vector<Row> rows;
  for (const std::string& line : lines) {
    const std::vector<std::string> fields = split(line, '|');
    if (fields.size() != 5) FAIL("a table row has 5 fields, not " << fields.size() << ": " << line);
    const std::vector<std::string> languages = split(fields[0], '>');
    if (languages.size() != 2) FAIL("a table row starts with its languages, as en>de: " << line);
    Row row;
    row.from = languages[0];
    row.to = languages[1];
    read_passes(fields[1], row);
    row.source = fields[2];
    row.model = fields[3];
    row.expected = fields[4];
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string run(const Row& row) {
  TargetSentence t = decoded(row.source, row.from, row.to, row.model);
  t.token_probs.assign(t.spans.size(), 0.5f);
  t.fixed = row.fixed;
  t.prefixed = row.fixed > 0;
  t.in_capitals = row.in_capitals;
  nmt::run_target_passes(t, row.switches);
  return t.target;
}

// Each row of the table through the target passes.
void check_table(std::string_view table) {
  for (const Row& row : read_table(table)) {
    CAPTURE(row.source);
    CAPTURE(row.model);
    CHECK(run(row) == row.expected);
  }
}

}  // namespace

TEST_CASE("passes: one list, in the order they run, each name once") {
  std::vector<std::string> names;
  for (const nmt::Pass& p : nmt::passes()) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"verbatim", "glossary", "memory", "casing", "emphasis", "gender_forms", "retry_empty",
                                          "numbers", "capitals", "pass_through", "number_separators", "currency",
                                          "ranges", "approximate", "number_labels", "number_commas", "ordinals", "clock_times",
                                          "repeated_words", "final_marks", "quotes", "capital_start", "emphasis_marks",
                                          "no_break_spaces"});
  // stages in order: source, then retry, then target
  int stage = 0;
  for (const nmt::Pass& p : nmt::passes()) {
    CHECK(int(p.stage) >= stage);
    stage = int(p.stage);
    CHECK(std::string(p.doc).size() > 20);
    // each pass is one function of its stage's shape
    CHECK((p.stage == nmt::PassStage::source) == (p.source != nullptr));
    CHECK((p.stage == nmt::PassStage::retry) == (p.retry != nullptr));
    CHECK((p.stage == nmt::PassStage::target) == (p.target != nullptr));
    CHECK(nmt::find_pass(p.name) == &p);
  }
  CHECK(nmt::find_pass("nope") == nullptr);
}

TEST_CASE("passes: each target pass alone") {
  check_table(R"(
      // capitals: a sentence that came in capitals goes out in capitals
      en>de | only capitals, in capitals | THE MEETING IS CANCELLED.
                                         | Die Sitzung ist abgesagt.
                                         | DIE SITZUNG IST ABGESAGT.
      en>de | only capitals | The meeting is cancelled. | Die Sitzung ist abgesagt. | Die Sitzung ist abgesagt.
      // number_separators: numbers copied as the source writes them, in the target's way
      en>de | only number_separators | It cost 1,234.56 euros. | Es kostete 1,234.56 Euro. | Es kostete 1.234,56 Euro.
      de>en | only number_separators | Es kostete 1.234,56 Euro. | It cost 1.234,56 euros. | It cost 1,234.56 euros.
      // an address or code copied verbatim keeps its numbers as written (a link broke: "item/1.234,5")
      en>de | only number_separators | Open https://example.com/item/1,234.5 to pay 1,234.5 euros.
            | Öffnen Sie https://example.com/item/1,234.5, um 1,234.5 Euro zu zahlen.
            | Öffnen Sie https://example.com/item/1,234.5, um 1.234,5 Euro zu zahlen.
      en>de | only number_separators | Use `x = 1,234.5;` in JS, not 1,234.5 alone.
            | Verwenden Sie `x = 1,234.5;` in JS, nicht 1,234.5 allein.
            | Verwenden Sie `x = 1,234.5;` in JS, nicht 1.234,5 allein.
      // nor does any other pass (a range's dash, a "~", quotation marks, a capital)
      en>de | only ranges | Set `range = 3-5` for 3–5 days. | Legen Sie `range = 3-5` für 3-5 Tage fest.
            | Legen Sie `range = 3-5` für 3–5 Tage fest.
      en>de | only approximate | See https://example.com/~user/3-5 for ~5 items.
            | Siehe https://example.com/~user/3-5 für 5 Artikel. | Siehe https://example.com/~user/3-5 für ~5 Artikel.
      en>de | only quotes | Run `echo "hi there"` now, he said "go". | Run `echo "hi there"` jetzt, sagte er "go".
            | Run `echo "hi there"` jetzt, sagte er „go“.
      en>de | only quotes | Run `echo "hi` now, he said "go". | Run `echo "hi` jetzt, sagte er "go".
            | Run `echo "hi` jetzt, sagte er „go“.
      de>en | only capital_start | Öffne example.com/start jetzt. | example.com/start open now. | example.com/start open now.
      // a lone quote the source has none of is the model's invention: it goes (it became „ in German)
      en>de | only quotes | The house is big. | "Das ist Haus groß. | Das ist Haus groß.
      en>de | only quotes | Send an e-mail about it. | Senden Sie ein " E-Mail darüber. | Senden Sie ein E-Mail darüber.
      de>en | only quotes | Das Haus ist groß. | The house is big ". | The house is big.
      en>de | only quotes | The Acme tool is big. | Das "Acme" Werkzeug ist groß. | Das „Acme“ Werkzeug ist groß.
      en>de | only quotes | He said 'go' now. | Er sagte "geh jetzt. | Er sagte „geh jetzt.
      de>en | only quotes | Er sagt's dir. | He tells you ". | He tells you.
      // currency: a sign the model left out goes back by its amount
      en>de | only currency | He paid $180 for it. | Er zahlte 180 dafür. | Er zahlte 180 $ dafür.
      // each amount its own sign, though the target names the currency elsewhere (issue 49)
      en>de | only currency | Tickets cost $25 for adults and $10 for children.
                            | Tickets kosten 25 für Erwachsene und $10 für Kinder.
                            | Tickets kosten 25 $ für Erwachsene und $10 für Kinder.
      en>de | only currency | Tickets cost 25 € for adults and 10 € for children.
                            | Tickets kosten 25 für Erwachsene und 10 € für Kinder.
                            | Tickets kosten 25 € für Erwachsene und 10 € für Kinder.
      de>en | only currency | Es kostet £5 oder £7. | It costs 5 or £7. | It costs £5 or £7.
      de>en | only currency | Es kostet 5 € oder 7 €. | It costs 5 euros or 7. | It costs 5 euros or €7.
      // a name or sign next to each amount, or one after a range: nothing to add
      en>de | only currency | Tickets cost $25 for adults and $10 for children.
                            | Tickets kosten 25 Dollar für Erwachsene und 10 US-Dollar für Kinder.
                            | Tickets kosten 25 Dollar für Erwachsene und 10 US-Dollar für Kinder.
      en>de | only currency | It costs $21 million to $22 million.
                            | Es kostet 21 bis 22 Millionen Dollar.
                            | Es kostet 21 bis 22 Millionen Dollar.
      en>de | only currency | It costs $5 or $10. | Es kostet 5 oder 10 Dollar. | Es kostet 5 oder 10 Dollar.
      en>de | only currency | It costs $21 million to $22 million.
                            | Es kostet 21-22 Millionen $.
                            | Es kostet 21-22 Millionen $.
      en>de | only currency | Fees: US$30, or $10 a day.
                            | Gebühren: USD 30 oder 10 pro Tag.
                            | Gebühren: USD 30 oder 10 $ pro Tag.
      // ranges: the source's en dash
      en>de | only ranges | It takes 3–5 days. | Es dauert 3-5 Tage. | Es dauert 3–5 Tage.
      en>de | only ranges | It takes 2-3 days. | Es dauert 2:3 Tage. | Es dauert 2-3 Tage.
      // approximate: the "~" stays on its number
      en>de | only approximate | It takes ~3 hours. | Es dauert 3 Stunden. | Es dauert ~3 Stunden.
      // number_labels
      en>de | only number_labels | Order No. 12345 is late.
                                 | Bestellung Nein. 12345 ist spät.
                                 | Bestellung Nr. 12345 ist spät.
      // number_commas: an address's comma stays
      en>de | only number_commas | Visit us at Friedrichstraße 12, 10115 Berlin.
                                 | Besuchen Sie uns in der Friedrichstraße 12. 10115 Berlin.
                                 | Besuchen Sie uns in der Friedrichstraße 12, 10115 Berlin.
      de>en | only number_commas | Wir sind in der Hauptstraße 5, 80331 München.
                                 | We are at 5. 80331 Munich on Hauptstrasse.
                                 | We are at 5, 80331 Munich on Hauptstrasse.
      en>de | only number_commas | He won in 1990. 2000 people came.
                                 | Er gewann 1990. 2000 Menschen kamen.
                                 | Er gewann 1990. 2000 Menschen kamen.
      // ordinals
      de>en | only ordinals | Am 3. Oktober ist Feiertag. | On October 3th is a holiday. | On October 3rd is a holiday.
      // clock_times, both directions
      en>de | only clock_times | We meet at 6 p.m. | Wir treffen uns um 6 Uhr. | Wir treffen uns um 18 Uhr.
      de>en | only clock_times | Wir treffen uns um 9 Uhr. | We meet at 9 p.m. | We meet at 9 a.m.
      // repeated_words
      en>de | only repeated_words | Fernando Alonso won. | Fernando Alonso Alonso gewann. | Fernando Alonso gewann.
      // final_marks
      en>de | only final_marks | I love you!! | Ich liebe dich! | Ich liebe dich!!
      // quotes (German targets only)
      en>de | only quotes | He said "yes". | Er sagte "ja". | Er sagte „ja“.
      de>en | only quotes | Er sagte "ja". | He said "yes". | He said "yes".
      // capital_start
      de>en | only capital_start | Schätzungen reichen weit. | estimates range widely. | Estimates range widely.
  )");
}

TEST_CASE("passes: capital_start writes a name with a capital inside as the source does") {
  check_table(R"(
      // de->en "Ich nutze LinkedIn." came out "I am using linkedIn.", "auf OneDrive" "on oneDrive"
      de>en | only capital_start | Ich nutze LinkedIn. | I am using linkedIn. | I am using LinkedIn.
      de>en | only capital_start | Die Datei liegt auf OneDrive. | The file is on oneDrive. | The file is on OneDrive.
      de>en | only capital_start | Das iPhone ist neu. | IPhone is new. | iPhone is new.
      // a word in capitals is no such name; another word stays; a sentence in capitals stays so
      en>de | only capital_start | NASA and LinkedIn met. | Nasa und LinkedIn trafen sich. | Nasa und LinkedIn trafen sich.
      en>de | only capital_start | I use LinkedIn. | Ich nutze Linked. | Ich nutze Linked.
  )");
}

TEST_CASE("passes: all of them together, and their order") {
  check_table(R"(
      // nothing to repair: nothing changes
      en>de | all | The house is small. | Das Haus ist klein. | Das Haus ist klein.
      // several passes on one sentence
      en>de | all | "Order No. 5" costs $180!! | "Bestellung Nein. 5" kostet 180! | „Bestellung Nr. 5“ kostet 180 $!!
      // ranges before clock_times: the dash is the source's when the hours go on the 24-hour clock
      en>de | all | Open from 1–2 p.m. | Geöffnet von 1-2 Uhr. | Geöffnet von 13–14 Uhr.
      // capitals before capital_start and quotes: a sentence in capitals stays in capitals
      en>de | all, in capitals | SAY "HELLO"!! | sag "hallo"! | SAG „HALLO“!!
  )");
}

TEST_CASE("passes: no false positives on phone numbers, postcodes, scores and codes") {
  check_table(R"(
      // a phone number's groups are no thousands
      en>de | all | Call us on 0800 555 111.
                  | Rufen Sie uns unter 0800 555 111 an.
                  | Rufen Sie uns unter 0800 555 111 an.
      de>en | all | Rufen Sie 030 123 456 78 an. | Call 030 123 456 78. | Call 030 123 456 78.
      // thousands written with spaces still are
      de>en | all | Es kamen 55 000 Besucher. | There were 55 000 visitors. | There were 55,000 visitors.
      // a score is no range: German writes it with a colon
      en>de | all | The final score was 1-0. | Das Endergebnis war 1:0. | Das Endergebnis war 1:0.
      en>de | all | Chelsea lost 1-3 at home. | Chelsea verlor 1:3 zu Hause. | Chelsea verlor 1:3 zu Hause.
      en>de | all | It takes 2-3 days. | Es dauert 2:3 Tage. | Es dauert 2-3 Tage.
      // codes and IBANs as they are
      en>de | all | My IBAN is DE89 3704 0044 0532 0130 00.
                  | Meine IBAN ist DE89 3704 0044 0532 0130 00.
                  | Meine IBAN ist DE89 3704 0044 0532 0130 00.
      en>de | all | The postcode is 10115. | Die Postleitzahl ist 10115. | Die Postleitzahl ist 10115.
  )");
}

TEST_CASE("passes: switched off by name or by an older flag") {
  check_table(R"(
      en>de | all but ranges | It takes 3–5 days. | Es dauert 3-5 Tage. | Es dauert 3-5 Tage.
      en>de | all but final_marks | I love you!! | ich liebe dich! | Ich liebe dich!
      en>de | all but clock_times | We meet at 6 p.m. | Wir treffen uns um 6 Uhr. | Wir treffen uns um 6 Uhr.
      // raw_numbers switches off every number pass, and only those
      en>de | raw_numbers | He paid $180 at 6 p.m. today!!
                          | Er zahlte heute 180 um 6 Uhr!
                          | Er zahlte heute 180 um 6 Uhr!!
  )");
  const PassSwitches raw({}, true, false, false), keep({}, false, true, false), model_only({}, false, false, true);
  for (const nmt::Pass& p : nmt::passes()) {
    CAPTURE(p.name);
    CHECK(raw.on(p) == !(p.alias && std::string(p.alias) == "raw_numbers"));
    CHECK(keep.on(p) == !(p.alias && std::string(p.alias) == "keep_case"));
    CHECK(model_only.on(p) == !(p.alias && std::string(p.alias) == "model_only"));
  }
  CHECK(!raw.on("numbers"));
  CHECK(!keep.on("casing"));
  CHECK(!model_only.on("memory"));
}

TEST_CASE("passes: a forced prefix stays as it is") {
  check_table(R"(
      // the prefix "ich liebe" is the user's: no capital, but the marks after it are repaired
      en>de | all, prefix 9 | I love you!! | ich liebe dich! | ich liebe dich!!
      en>de | all, prefix 18 | It takes 3–5 days, 2-3 weeks.
                             | Es dauert 3-5 Tage, 2:3 Wochen.
                             | Es dauert 3-5 Tage, 2-3 Wochen.
  )");
}

TEST_CASE("passes: edits keep the token spans, and clock times are sure") {
  TargetSentence t = decoded("We meet at 6 p.m. for $180.", "en", "de", "Wir treffen uns um 6 Uhr für 180.");
  t.token_probs.assign(t.spans.size(), 0.5f);
  nmt::run_target_passes(t, all_but());
  REQUIRE(t.target == "Wir treffen uns um 18 Uhr für 180 $.");
  // every span still covers its word: "18" (was "6") is one token, and it is sure
  std::vector<std::string> words;
  for (auto [b, e] : t.spans) words.push_back(t.target.substr(b, e - b));
  CHECK(words == std::vector<std::string>{"Wir", " treffen", " uns", " um", " 18", " Uhr", " für", " 180", "."});
  CHECK(t.token_probs[4] == 1.0f);
  CHECK(t.token_probs[3] == 0.5f);
  // the sign went in between tokens: no token holds it
  for (auto [b, e] : t.spans) CHECK(t.target.substr(b, e - b).find('$') == std::string::npos);
}

TEST_CASE("passes: the source's verbatim spans are found once, and no pass edits their copies") {
  TargetSentence t = decoded("Costs 1,234.56 at https://shop.example/1,234.56-x \"a\" now.", "en", "de",
                             "Kostet 1,234.56 bei https://shop.example/1,234.56-x \"a\" jetzt.");
  nmt::run_target_passes(t, all_but());
  CHECK(t.source_verbatim == nmt::verbatim_spans(t.source));
  CHECK(t.target == "Kostet 1.234,56 bei https://shop.example/1,234.56-x \xE2\x80\x9E" "a\xE2\x80\x9C jetzt.");
}

TEST_CASE("passes: a copied sentence gets only the passes that run on copies") {
  TargetSentence t = decoded("1,234.56 !!", "en", "de", "1,234.56 !!");
  t.copied = true;
  nmt::run_target_passes(t, all_but());
  CHECK(t.target == "1.234,56 !!");  // the number in German, nothing else touched
}

TEST_CASE("passes: the source passes rewrite what the model reads, at the sentence's length") {
  const nmt::Truecaser truecaser = nmt::Truecaser::from_list("Sitzung\n");
  struct SourceRow {
    const char* language;
    const char* sentence;
    nmt::SentenceCase how;
    PassSwitches switches;
    const char* shown;
  };
  const std::vector<SourceRow> rows = {
      {"de", "DIE SITZUNG IST ABGESAGT.", nmt::SentenceCase::upper, all_but(), "Die Sitzung ist abgesagt."},
      {"de", "DIE SITZUNG IST ABGESAGT.", nmt::SentenceCase::upper, all_but({"casing"}), "DIE SITZUNG IST ABGESAGT."},
      {"en", "This is **very** important.", nmt::SentenceCase::normal, all_but(), "This is \x01\x01very\x01\x01 important."},
      {"en", "This is **very** important.", nmt::SentenceCase::normal, all_but({"emphasis"}), "This is **very** important."},
      {"de", "Liebe Kund*innen", nmt::SentenceCase::normal, all_but(), "Liebe Kund\x01innen"},
      {"en", "Dear Kund*innen", nmt::SentenceCase::normal, all_but(), "Dear Kund*innen"},  // German sources only
  };
  for (const SourceRow& row : rows) {
    CAPTURE(row.sentence);
    nmt::SourceSentence s(row.sentence, row.language, row.how, &truecaser);
    nmt::run_source_passes(s, row.switches);
    CHECK(s.shown == row.shown);
    CHECK(s.shown.size() == std::string(row.sentence).size());
  }
}

TEST_CASE("passes: the verbatim pass masks an abbreviation's one-letter variant (\"USB-C\") in German only") {
  const auto masked = [](std::string_view sentence, std::string_view language) {
    nmt::SourceSentence s(sentence, language, nmt::SentenceCase::normal, nullptr);
    nmt::run_source_passes(s, only("verbatim"));
    std::vector<std::string> out;
    for (auto [b, e] : s.masked) out.emplace_back(sentence.substr(b, e - b));
    return out;
  };
  using List = std::vector<std::string>;
  CHECK(masked("Mein USB-C Kabel ist an example.com angeschlossen.", "de") == List{"USB-C", "example.com"});
  CHECK(masked("My USB-C cable is plugged into example.com.", "en") == List{"example.com"});
}

TEST_CASE("passes: the source passes mask addresses and glossary terms and look up the memory, in order") {
  const nmt::GlossaryIndex glossary_terms({{"Acme Cloud", "Acme Cloud"}, {"Kündigungsfrist", "notice period"}});
  const nmt::TranslationMemory memory = nmt::TranslationMemory::from_table("thank you\tDanke.\n").value();
  struct Read {
    std::vector<std::string> fired;
    std::vector<std::string> masked;  // the masked spans' text
    std::string memory_translation;
  };
  const auto read = [&](std::string_view sentence, const PassSwitches& switches, bool in_code = false) {
    nmt::SourceSentence s(sentence, "en", nmt::SentenceCase::normal, nullptr);
    s.glossary = &glossary_terms;
    s.memory = &memory;
    s.in_code = in_code;
    Read r;
    nmt::run_source_passes(s, switches, &r.fired);
    for (auto [b, e] : s.masked) r.masked.push_back(std::string(sentence.substr(b, e - b)));
    r.memory_translation = s.memory_translation;
    CHECK(s.shown.size() == sentence.size());
    return r;
  };
  using List = std::vector<std::string>;
  // an address and a term: both masked, in the order of the text; each pass listed once
  Read r = read("Acme Cloud is at https://acme.example.org now.", all_but());
  CHECK(r.fired == List{"verbatim", "glossary"});
  CHECK(r.masked == List{"Acme Cloud", "https://acme.example.org"});
  // a term inside an address is the address's (verbatim runs first)
  r = read("See https://example.org/Acme Cloud.", all_but());
  CHECK(r.masked.front() == "https://example.org/Acme");
  // switched off: not masked
  r = read("Acme Cloud is at https://acme.example.org now.", all_but({"verbatim", "glossary"}));
  CHECK(r.masked.empty());
  CHECK(r.fired.empty());
  // in a code block the glossary finds nothing
  CHECK(read("Acme Cloud", all_but(), /*in_code=*/true).masked.empty());
  // the memory: its translation ending as the sentence ends; not for a sentence with a glossary term
  r = read("Thank you!", all_but());
  CHECK(r.memory_translation == "Danke!");
  CHECK(r.fired == List{"memory"});
  CHECK(read("Thank you!", all_but({"memory"})).memory_translation.empty());
  CHECK(read("Thank you!", PassSwitches({}, false, false, /*model_only=*/true)).memory_translation.empty());
  const nmt::GlossaryIndex thanks(nmt::Glossary{{"Thank", "Cheers"}});
  nmt::SourceSentence s("Thank you!", "en", nmt::SentenceCase::normal, nullptr);
  s.glossary = &thanks;
  s.memory = &memory;
  nmt::run_source_passes(s, all_but());
  CHECK(s.terms.size() == 1);
  CHECK(s.memory_translation.empty());
  // read again with spans already masked (a retry's lost numbers): the addresses are not added twice
  const std::string_view again = "Call 0800 555 at https://acme.example.org.";
  nmt::SourceSentence t(again, "en", nmt::SentenceCase::normal, nullptr, {{5, 9}, {17, 41}});
  std::vector<std::string> fired;
  nmt::run_source_passes(t, all_but(), &fired);
  CHECK(t.masked == std::vector<std::pair<size_t, size_t>>{{5, 9}, {17, 41}});
  CHECK(fired.empty());
}

TEST_CASE("glossary: whole words in any letter case, the longest term first, not inside a name from code") {
  const nmt::Glossary glossary = {{"Kündigungsfrist", "notice period"}, {"Acme Cloud", "Acme Cloud"},
                                  {"Acme", "ACME Corp."}, {"Haus", "house"}};
  const auto terms = [&](std::string_view sentence, const std::vector<std::pair<size_t, size_t>>& skip = {}) {
    std::vector<std::string> out;
    for (const nmt::TextEdit& t : nmt::find_terms(sentence, glossary, skip))
      out.push_back(std::string(sentence.substr(t.at, t.length)) + "=" + t.text);
    return out;
  };
  using List = std::vector<std::string>;
  CHECK(terms("Die Kündigungsfrist beträgt drei Monate.") == List{"Kündigungsfrist=notice period"});
  CHECK(terms("die kündigungsfrist") == List{"kündigungsfrist=notice period"});
  CHECK(terms("ACME CLOUD ist schnell, Acme auch.") == List{"ACME CLOUD=Acme Cloud", "Acme=ACME Corp."});
  CHECK(terms("Die Hausaufgabe im Haus.") == List{"Haus=house"});  // whole words only
  CHECK(terms("Kein Begriff hier.").empty());
  CHECK(terms("Das Haus", {{4, 8}}).empty());  // inside an address or a name from code: copied as it is
  CHECK(nmt::find_terms("Haus", {}, {}).empty());
  // a term whose "." ends the sentence leaves it to the sentence when its target has none ("Ich
  // arbeite in Acme GmbH" had lost it)
  const auto found = [](std::string_view sentence, const nmt::Glossary& g) {
    std::vector<std::string> out;
    for (const nmt::TextEdit& t : nmt::find_terms(sentence, g, {})) out.push_back(std::string(sentence.substr(t.at, t.length)));
    return out;
  };
  const nmt::Glossary inc = {{"Acme Inc.", "Acme GmbH"}};
  CHECK(found("I work at Acme Inc.", inc) == List{"Acme Inc"});
  CHECK(found("Acme Inc., a firm, and Acme Inc. here", inc) == List{"Acme Inc.", "Acme Inc."});
  CHECK(found("I work at Acme Inc.", {{"Acme Inc.", "Acme Inc."}}) == List{"Acme Inc."});  // (its own stop)
  // the spaces around a term are no part of it (" invoice " was never found; " Rechnung " wrote "  Rechnung .")
  const std::vector<nmt::TextEdit> spaced = nmt::find_terms("Pay the invoice now.", {{" invoice\xC2\xA0", " Rechnung "}}, {});
  REQUIRE(spaced.size() == 1);
  CHECK(spaced[0].at == 8);
  CHECK(spaced[0].length == 7);
  CHECK(spaced[0].text == "Rechnung");
  CHECK(nmt::glossary_error({{" a ", "x"}}) == "the glossary's source term \" a \" is shorter than 2 bytes");
  CHECK(nmt::glossary_error({{"Haus", "  "}}) == "the glossary's term \"Haus\" has an empty target term");
}

TEST_CASE("glossary: bad glossaries get a clear error") {
  CHECK(nmt::glossary_error({{"Haus", "house"}}).empty());
  CHECK(nmt::glossary_error({{"", "x"}}) == "the glossary's source term \"\" is shorter than 2 bytes");
  CHECK(nmt::glossary_error({{"Haus", ""}}) == "the glossary's term \"Haus\" has an empty target term");
  CHECK(nmt::glossary_error({{"  ", "x"}}) == "the glossary has a source term of spaces only");
  CHECK(nmt::glossary_error({{std::string(201, 'a'), "x"}}).find("longer than 200 bytes") != std::string::npos);
  // a control character would be written into the translation as it is (a NUL, a line break in a line)
  for (const nmt::Glossary& g : {nmt::Glossary{{"Haus", std::string("ho\0use", 6)}}, nmt::Glossary{{"Haus", "ho\nuse"}},
                                 nmt::Glossary{{"Haus", "ho\tuse"}}, nmt::Glossary{{"Ha\x01us", "house"}},
                                 nmt::Glossary{{"Haus", "ho\xC2\x85use"}}, nmt::Glossary{{"Haus", "ho\x7Fuse"}}})
    CHECK(nmt::glossary_error(g).find("has a control character") != std::string::npos);
  CHECK(nmt::glossary_error({{"Haus", "h\xC3\xA4use \xE2\x80\x8B\xE2\x80\xAE"}}).empty());  // (letters, format marks)
  nmt::Glossary big;
  for (int i = 0; i <= 10000; ++i) big.emplace_back("term" + std::to_string(i), "x");
  CHECK(nmt::glossary_error(big) == "the glossary has 10001 terms; at most 10000");
  big.pop_back();
  CHECK(nmt::glossary_error(big).empty());
  // the options' JSON: the same rules, and not an object or a term that is no string
  CHECK(nmt::options_from_json(R"({"glossary": {"Haus": "house"}})")->glossary == nmt::Glossary{{"Haus", "house"}});
  CHECK(nmt::options_from_json(R"({"glossary": ["Haus"]})").error() ==
        "glossary must be an object of source terms to target terms (strings) (got [\"Haus\"])");
  CHECK(nmt::options_from_json(R"({"glossary": {"Haus": 1}})").error().find("glossary must be") == 0);
  CHECK(nmt::options_from_json(R"({"glossary": {"a": "b"}})").error() == "the glossary's source term \"a\" is shorter than 2 bytes");
  CHECK(nmt::options_from_json(R"({"passes": {"numbers": false}})")->passes_off == std::vector<std::string>{"numbers"});
  CHECK(nmt::options_from_json(R"({"passes": {"nope": false}})").error().find("passes must be an object of pass names (verbatim,") == 0);
}

TEST_CASE("passes: codes of hyphen-joined digit groups are copied whole, ranges and scores are not") {
  const auto masked = [](std::string_view sentence) {
    nmt::SourceSentence s(sentence, "en", nmt::SentenceCase::normal, nullptr);
    nmt::run_source_passes(s, all_but());
    std::vector<std::string> out;
    for (auto [b, e] : s.masked) out.push_back(std::string(sentence.substr(b, e - b)));
    return out;
  };
  using List = std::vector<std::string>;
  // an ISBN keeps every hyphen group (the model wrote "978-396-449970-4")
  CHECK(masked("The ISBN is 978-3-96-449970-4.") == List{"978-3-96-449970-4"});
  CHECK(masked("ISBN 3-598-21508-X, 2nd edition") == List{"3-598-21508-X"});
  CHECK(masked("Call 555-371-2323 or write.") == List{"555-371-2323"});
  // two groups: a range, a score, a year and month: the number passes' (ranges keeps 3-5)
  CHECK(masked("It takes 3-5 days, they won 1-0 in 2022-12.").empty());
  // part of a longer word or code: not a code of its own
  CHECK(masked("Error AB-778-27-12 again.") != List{"778-27-12"});
  // a date inside a file name: the name is copied whole (the model translated "report_" and "_v1.2.pdf")
  CHECK(masked("The file report_2024-03-12_v1.2.pdf has 3.5 MB.") == List{"report_2024-03-12_v1.2.pdf"});
  CHECK(masked("Open backup_2023-10-01.tar.gz now.") == List{"backup_2023-10-01.tar.gz"});
}

TEST_CASE("retries: the numbers retry's unknown piece goes where the first translation had its number") {
  const nmt::SentencePiece& tok = fixture_tokenizer();
  const auto ids = fixture_ids;
  const auto join = joined;
  const int unk = tok.unk_id(), eos = tok.eos_id();
  const std::vector<int> start = ids("Der Laden schließt am Samstag"), um = ids(" um"), uhr = ids(" Uhr.");
  REQUIRE(ids(" um 15.30 Uhr.").size() > um.size() + uhr.size());  // (the number is pieces of its own)
  const std::vector<int> first = join({start, ids(" um 15.30 Uhr."), {eos}});
  REQUIRE(join({start, um}) == std::vector<int>(first.begin(), first.begin() + long(start.size() + um.size())));
  // "am Samstag <unk> um Uhr." -> "am Samstag um <unk> Uhr.", every per-token row moved along
  nmt::Hypothesis second;
  second.tokens = join({start, {unk}, um, uhr, {eos}});
  const size_t n = second.tokens.size(), unk_at = start.size();
  for (size_t k = 0; k < n; ++k) {
    second.token_log_probs.push_back(-float(k));
    second.attention.insert(second.attention.end(), {float(k), float(k)});  // two source tokens
  }
  nmt::put_number_where_first_had_one(second, first, tok);
  CHECK(second.tokens == join({start, um, {unk}, uhr, {eos}}));
  CHECK(second.token_log_probs[unk_at + um.size()] == -float(unk_at));  // the unknown piece's row
  CHECK(second.attention[2 * (unk_at + um.size())] == float(unk_at));
  CHECK(second.token_log_probs[unk_at] == -float(unk_at + 1));  // " um" moved up one
  // already in place, or other words than the first translation's: left as it is
  const std::vector<int> in_place = join({start, um, {unk}, uhr, {eos}});
  second.tokens = in_place;
  nmt::put_number_where_first_had_one(second, first, tok);
  CHECK(second.tokens == in_place);
  const std::vector<int> reworded = join({ids("Der Laden ist"), {unk}, um, uhr, {eos}});
  second.tokens = reworded;
  nmt::put_number_where_first_had_one(second, first, tok);
  CHECK(second.tokens == reworded);
  // where the first translation had its number (a changed one: "384" for "3844"), even where a
  // neighbour's first piece reads the same ("▁3" of "3774"): left as it is
  const std::vector<int> iban = join({ids("IBAN DE89"), ids(" 384 3774 5043."), {eos}});
  const std::vector<int> iban_retry = join({ids("IBAN DE89"), {unk}, ids(" 3774 5043."), {eos}});
  second.tokens = iban_retry;
  nmt::put_number_where_first_had_one(second, iban, tok);
  CHECK(second.tokens == iban_retry);
  // the first translation had words, not a number, where the retry left a gap: left as it is
  const std::vector<int> worded_first = join({start, ids(" um halb Uhr."), {eos}});
  second.tokens = join({start, {unk}, um, uhr, {eos}});
  nmt::put_number_where_first_had_one(second, worded_first, tok);
  CHECK(second.tokens == join({start, {unk}, um, uhr, {eos}}));
}

TEST_CASE("retries: a retry that writes a word twice the first translation wrote once is not better") {
  struct DoubledRow {
    const char* first;
    const char* second;
    bool doubles;
  };
  const DoubledRow rows[] = {
      // issue 49: "Am 24.07.2016 kamen 3.450 Menschen." retried as "The <unk> people came on <unk> people."
      {"On 24,07,2016,450 people came.", "The 24.07.2016 people came on 3,450 people.", true},
      {"On 24,07,2016,450 people came.", "On 24.07.2016, 3,450 people came.", false},
      {"On 24,07,2016,450 PEOPLE came.", "The people came on 3,450 People.", true},  // any case
      {"Er kam mit Alonso.", "Er kam mit Alonso Alonso.", false},  // twice in a row: the repeated_words pass
      {"Der Bus ging, als das Auto ging.", "Der Bus ging, als das Auto ging.", false},  // short words repeat
      {"Er sagte, dass es ging.", "Er ging, als es ging.", false},
      // a word the first translation writes twice may come once more (a long sentence repeats it)
      {"783,562 square kilometers (300,948 square miles) and 23,764 square miles",
       "783,562 square kilometers (300,948 square miles), 755,688 square miles and 23,764 square miles", false},
      {"", "", false},
  };
  for (const DoubledRow& row : rows) {
    CAPTURE(row.second);
    CHECK(nmt::doubles_a_word(row.first, row.second) == row.doubles);
  }
}

TEST_CASE("alternatives: a filled unknown piece (a glossary term, an address) carries no stray spaces") {
  const auto fill = [](std::string word, std::string continuation, const std::string& prefix) {
    nmt::Alternative a{std::move(word), 0.5f, std::move(continuation)};
    nmt::fill_unknown(a, {"notice period"}, "Die Kündigungsfrist beträgt drei Monate.", prefix);
    return a.word + "|" + a.continuation;
  };
  const std::string unknown = " \xE2\x81\x87 ";  // " ⁇ ", as the decoder writes the unknown piece
  // the translation's first word: no space before it, none doubled with the continuation's
  CHECK(fill(unknown, " is three months.", "") == "notice period| is three months.");
  // after a prefix: its own space before it
  CHECK(fill(unknown, " is three months.", "The") == " notice period| is three months.");
  CHECK(fill(unknown, ".", "The") == " notice period|.");
  // in the continuation, at its end
  CHECK(fill("The", unknown, "") == "The| notice period");
  // an alternative without an unknown piece is left as it is
  CHECK(fill(" is", " three months. ", "The") == " is| three months. ");
}
