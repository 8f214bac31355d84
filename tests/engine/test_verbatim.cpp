// Tests of web and e-mail addresses (engine/text/verbatim.h): which spans are addresses, the masked
// text the model reads, and the translator copying them verbatim (fixture model).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "text/casing.h"
#include "text/verbatim.h"
#include "translator.h"
#include "translator_internal.h"

using namespace nmt;

namespace {

std::vector<std::string> found(std::string_view text) {
  std::vector<std::string> out;
  for (auto [b, e] : verbatim_spans(text)) out.emplace_back(text.substr(b, e - b));
  return out;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("verbatim_spans: web and e-mail addresses, without the punctuation around them") {
  using V = std::vector<std::string>;
  CHECK(found("Write to max.mustermann@beispiel.de or visit https://www.beispiel.de/kontakt.") ==
        V{"max.mustermann@beispiel.de", "https://www.beispiel.de/kontakt"});
  CHECK(found("See www.example.org, or (http://x.com/a_(b)) now!") == V{"www.example.org", "http://x.com/a_(b)"});
  CHECK(found("Mail support@my-company.co.uk.") == V{"support@my-company.co.uk"});
  CHECK(found("HTTPS://EXAMPLE.COM/PATH?q=1&r=2#top") == V{"HTTPS://EXAMPLE.COM/PATH?q=1&r=2#top"});
  CHECK(found("„www.bahn.de“ und «ftp://files.example.net/x»") == V{"www.bahn.de", "ftp://files.example.net/x"});
  CHECK(found("https://user@host.example.com/x") == V{"https://user@host.example.com/x"});  // one address
  // not addresses
  CHECK(found("The house is small.").empty());
  CHECK(found("Meet me @ 5 or at home@night.").empty());  // "night" has no top-level domain
  CHECK(found("a@b.c and x@y.123 and @example.com and www. and http://").empty());
  CHECK(found("swww.example.com").empty());  // not at the start of a word
  CHECK(found("").empty());
}

TEST_CASE("verbatim_spans: a run of more than kLongRun characters without whitespace") {
  using V = std::vector<std::string>;
  const std::string at_limit(kLongRun, 'a'), over(kLongRun + 1, 'a');
  CHECK(found("A " + at_limit + " b.").empty());
  CHECK(found("A " + over + " b.") == V{over});
  CHECK(found(over + ".") == V{over});              // the full stop is the sentence's
  CHECK(found("(" + over + "),") == V{over});  // the brackets and quotes around it are the sentence's
  CHECK(found("\"" + over + "\"") == V{over});
  CHECK(found("\xE2\x80\x9E" + over + "\xE2\x80\x9C") == V{over});
  CHECK(found("f(" + over + ")") == V{"f(" + over + ")"});  // a bracket it opened is its own
  // counted in characters, not bytes: 40 "ä" are 80 bytes but a word
  std::string umlauts;
  for (int i = 0; i < 40; ++i) umlauts += "ä";
  CHECK(found(umlauts).empty());
  // a long address is found once, as an address
  const std::string url = "https://example.com/" + std::string(80, 'p');
  CHECK(found("See " + url + " now") == V{url});
  // real German compounds stay words
  CHECK(found("Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz").empty());  // 63 letters
  CHECK(found("Prüfungszeitpunkt-Nutzungszeitpunkt-Ressourcenwettläufe").empty());
}

TEST_CASE("verbatim_spans: code between backticks, with its backticks") {
  using V = std::vector<std::string>;
  CHECK(found("Run `npm install` first, then `npm test`.") == V{"`npm install`", "`npm test`"});
  CHECK(found("Use ``a`b`` here") == V{"``a`b``"});
  CHECK(found("(`x`)") == V{"`x`"});
  CHECK(found("`rm -rf /tmp/foo && ls -la`") == V{"`rm -rf /tmp/foo && ls -la`"});
  CHECK(found("`see www.example.org`, or www.example.org") == V{"`see www.example.org`", "www.example.org"});
  // not code
  CHECK(found("Press `q' to quit and `h' for help.").empty());  // manual-page quotes
  CHECK(found("a ` b ` c").empty());
  CHECK(found("un`matched").empty());
  CHECK(found("``").empty());
  CHECK(found("`one\ntwo`").empty());  // not across lines
  CHECK(found("x`y`z").empty());
}

TEST_CASE("mask_spans: the same length, one unknown run per address") {
  const std::string text = "Go to www.a.de or b@c.de now.";
  const auto spans = verbatim_spans(text);
  REQUIRE(spans.size() == 2);
  for (size_t len = 2; len < 12; ++len) {
    const std::string s = "x " + std::string(len, 'a') + " y";
    const std::string m = mask_spans(s, {{2, 2 + len}});
    CHECK(m.size() == s.size());
    CHECK(m.substr(0, 2) == "x ");
    CHECK(m.substr(2 + len) == " y");
  }
  CHECK(mask_spans("ab", {{0, 1}}) == "ab");  // too short to mask
  const std::string masked = mask_spans(text, spans);
  CHECK(masked.size() == text.size());
  CHECK(masked.find("www") == std::string::npos);
  CHECK(masked.find('@') == std::string::npos);
}

TEST_CASE("translate(): web and e-mail addresses come out as they went in (fixture model)") {
  auto loaded = Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE(loaded);
  const Translator& t = *loaded.value();
  const Translator::Impl& m = t.impl();
  const std::string text = "Write to max.mustermann@beispiel.de or visit https://www.beispiel.de/kontakt.";
  // what the model reads: each address is one unknown piece spanning it
  int unknown = 0;
  for (const Token& k : m.tokenizer.encode(mask_spans(text, verbatim_spans(text))))
    if (k.id == m.tokenizer.unk_id()) {
      ++unknown;
      const std::string span = text.substr(k.begin, k.end - k.begin);
      CHECK((span.find("max.mustermann@beispiel.de") != std::string::npos ||
             span.find("https://www.beispiel.de/kontakt") != std::string::npos));
    }
  CHECK(unknown == 2);
  for (int beam : {1, 2}) {
    for (bool alignments : {false, true}) {
      TranslateOptions options;
      options.beam_size = beam;
      options.alignments = alignments;
      auto r = t.translate(text, options);
      REQUIRE(r);
      CHECK(count(r->text, "max.mustermann@beispiel.de") == 1);
      CHECK(count(r->text, "https://www.beispiel.de/kontakt") == 1);
    }
  }
}

TEST_CASE("addresses and casing on hostile 100,000-character inputs: linear, lengths kept") {
  // each must finish well within a second (a quadratic path, e.g. counting brackets per trimmed
  // character, would take minutes on the bracket run)
  const std::vector<std::string> inputs = {
      "http://x.de/" + std::string(100000, ')'),
      "www.a" + std::string(100000, '.'),
      [] { std::string s; while (s.size() < 100000) s += "a@"; return s; }(),
      [] { std::string s; while (s.size() < 100000) s += "x@y.de "; return s; }(),
      std::string(100000, 'a') + "@b.de",
      [] { std::string s; while (s.size() < 100000) s += "https://e.com/ "; return s; }(),
      [] { std::string s; while (s.size() < 100000) s += "SHOUT "; return s; }(),
      [] { std::string s; while (s.size() < 100000) s += "\xC3\x84\xC3\x96\xC3\x9C "; return s; }(),
  };
  for (const std::string& text : inputs) {
    const auto spans = verbatim_spans(text);
    for (auto [b, e] : spans) CHECK((b < e && e <= text.size()));
    CHECK(mask_spans(text, spans).size() == text.size());
    const SentenceCase how = sentence_case(text, "en");
    CHECK(Truecaser().recase(text, how).size() == text.size());
  }
  CHECK(verbatim_spans(inputs[0]).size() == 1);
  CHECK(verbatim_spans(inputs[0])[0].second == 12);  // the brackets it did not open are not its
}
