// No text is lost (text/pass_through.h): characters the tokenizer deletes outright (U+FFFD gets no
// piece, not even the unknown one) are copied into the translation like emoji are, and a sentence
// of nothing else comes back as its own text. Unit tests of dropped_runs / pass_through_unknown,
// then the whole translate() on the fixture model.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "text/pass_through.h"
#include "text/utf8.h"
#include "translator.h"

namespace {

const std::string kFffd = "\xEF\xBF\xBD";        // U+FFFD
const std::string kZwsp = "\xE2\x80\x8B";        // U+200B
const std::string kGrin = "\xF0\x9F\x98\x80";    // 😀
const std::string kParty = "\xF0\x9F\x8E\x89";   // 🎉

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// A stand-in for SentencePiece::normalizes_to_nothing: deletes U+FFFD and U+200B.
bool deletes(std::string_view ch) { return ch == kFffd || ch == kZwsp; }

}  // namespace

TEST_CASE("dropped_runs: visible deleted characters, one run across the spaces between them") {
  using Runs = std::vector<std::pair<size_t, size_t>>;
  CHECK(nmt::dropped_runs("", deletes).empty());
  CHECK(nmt::dropped_runs("The house.", deletes).empty());
  CHECK(nmt::dropped_runs(kFffd, deletes) == Runs{{0, 3}});
  CHECK(nmt::dropped_runs(kFffd + kFffd + " " + kFffd + " ", deletes) == Runs{{0, 10}});
  CHECK(nmt::dropped_runs("a " + kFffd + " b " + kFffd, deletes) == Runs{{2, 5}, {8, 11}});
  // invisible characters are not text to keep: never a run of their own, but inside one they stay
  CHECK(nmt::dropped_runs(kZwsp + "a", deletes).empty());
  CHECK(nmt::dropped_runs(kFffd + kZwsp + kFffd, deletes) == Runs{{0, 9}});
  // asked once per distinct character, never for ASCII, whitespace or controls
  int asked = 0;
  nmt::dropped_runs("ab \x01\t" + kFffd + kFffd + " \xC3\xA4" + kFffd, [&](std::string_view ch) {
    ++asked;
    return deletes(ch);
  });
  CHECK(asked == 2);  // U+FFFD and ä
  CHECK(nmt::is_invisible(0x200B));
  CHECK(nmt::is_invisible(0xFEFF));
  CHECK(!nmt::is_invisible(0xFFFD));
}

TEST_CASE("pass_through_unknown: a deleted run goes after its neighbour's translation; alone it is the whole target") {
  const int unk = 0;
  // "a \uFFFD b": the tokenizer gives "▁a" and a "▁b" whose span reaches back over the U+FFFD
  const std::string source = "a " + kFffd + " b";
  const std::vector<nmt::Token> toks = {{5, "\xE2\x96\x81" "a", 0, 1}, {6, "\xE2\x96\x81" "b", 1, 7}};
  std::string target = "x y";
  std::vector<std::pair<size_t, size_t>> spans = {{0, 1}, {1, 3}};
  const std::vector<float> attention = {0.9f, 0.05f, 0.05f,   // "x" looks at a
                                        0.05f, 0.9f, 0.05f};  // " y" looks at b
  nmt::pass_through_unknown(source, toks, unk, {5, 6}, attention, target, spans, 0, {{2, 5}});
  CHECK(target == "x " + kFffd + " y");
  CHECK(target.substr(spans[1].first, spans[1].second - spans[1].first) == " y");
  // without attention: by position (after the translation)
  std::string plain = "x y";
  auto s2 = std::vector<std::pair<size_t, size_t>>{{0, 1}, {1, 3}};
  nmt::pass_through_unknown(source, toks, unk, {5, 6}, {}, plain, s2, 0, {{2, 5}});
  CHECK(count(plain, kFffd) == 1);
  // a sentence without tokens: its text is the translation
  std::string empty;
  std::vector<std::pair<size_t, size_t>> none;
  nmt::pass_through_unknown(kFffd + kFffd, {}, unk, {}, {}, empty, none, 0, {{0, 6}});
  CHECK(empty == kFffd + kFffd);
  // inside a word too (the model saw "Strae"): the character is not the model's to spell
  std::string word = "Strae";
  auto s3 = std::vector<std::pair<size_t, size_t>>{{0, 5}};
  nmt::pass_through_unknown("Stra" + kFffd + "e", {{7, "\xE2\x96\x81" "Stra", 0, 4}, {8, "e", 4, 8}}, unk, {9},
                            {0.5f, 0.5f, 0.0f}, word, s3, 0, {{4, 7}});
  CHECK(count(word, kFffd) == 1);
  // a forced prefix stays as it is
  std::string fixed = "x y";
  auto s4 = std::vector<std::pair<size_t, size_t>>{{0, 1}, {1, 3}};
  nmt::pass_through_unknown(kFffd + " a b", {{5, "\xE2\x96\x81" "a", 0, 5}, {6, "\xE2\x96\x81" "b", 5, 7}}, unk, {5, 6},
                            attention, fixed, s4, /*fixed_bytes=*/3, {{0, 3}});
  CHECK(fixed.rfind("x y", 0) == 0);
  CHECK(count(fixed, kFffd) == 1);
}

TEST_CASE("pass_through_unknown: runs of the same text before a mark each lose their own space, and only a space") {
  // "\uFFFD!\u03BC\uFFFD!R\uFFFD!": three U+FFFD runs followed by "!"; step 3 found the first copy
  // for all three and removed its space, then the "!" and the first byte of "μ" (invalid UTF-8)
  const int unk = 0;
  const std::string mu = "\xCE\xBC";
  const std::string source = kFffd + "!" + mu + kFffd + "!R" + kFffd + "!";
  const std::vector<nmt::Token> toks = {{7, "!", 3, 4}, {8, mu, 4, 6}, {7, "!", 9, 10}, {9, "R", 10, 11}, {7, "!", 14, 15}};
  std::string target = "!" + mu + " !R !";
  std::vector<std::pair<size_t, size_t>> spans = {{0, 1}, {1, 3}, {3, 5}, {5, 6}, {6, 8}};
  std::vector<float> attention(5 * 6, 0.0f);  // each target token looks at its source token
  for (size_t t = 0; t < 5; ++t) attention[t * 6 + t] = 1.0f;
  nmt::pass_through_unknown(source, toks, unk, {7, 8, 7, 9, 7}, attention, target, spans, 0, {{0, 3}, {6, 9}, {11, 14}});
  CHECK(nmt::is_valid_utf8(target));
  CHECK(count(target, kFffd) == 3);
  CHECK(count(target, mu) == 1);
  CHECK(count(target, "!") == 3);
  CHECK(count(target, "R") == 1);
  for (size_t k = 0; k < spans.size(); ++k) {
    CHECK(spans[k].first <= spans[k].second);
    CHECK(spans[k].second <= target.size());
    if (k > 0) CHECK(spans[k - 1].second <= spans[k].first);
  }
}

TEST_CASE("pass_through_unknown: an unknown piece the model wrote inside a name takes the source word's letters") {
  const int unk = 0;
  const std::string q = " \xE2\x81\x87 ";  // the unknown piece's surface " ⁇ "
  // "Kyoto" has no unknown piece, but the model learned "Ky" <unk> "to" from "Kyōto"
  const std::vector<nmt::Token> toks = {{5, "\xE2\x96\x81" "Kyoto", 0, 5}};
  std::string target = "Ky" + q + "to-Abkommen";
  std::vector<std::pair<size_t, size_t>> spans = {{0, 2}, {2, 7}, {7, 18}};
  nmt::pass_through_unknown("Kyoto accord", toks, unk, {7, unk, 8}, {}, target, spans, 0);
  CHECK(target == "Kyoto-Abkommen");
  CHECK(spans == std::vector<std::pair<size_t, size_t>>{{0, 2}, {2, 3}, {3, 14}});
  // two in one word: "T" <unk> "ky" <unk> " Olympia"
  std::string tokyo = "T" + q + "ky" + q + " Olympia";
  std::vector<std::pair<size_t, size_t>> s2 = {{0, 1}, {1, 6}, {6, 8}, {8, 13}, {13, 21}};
  nmt::pass_through_unknown("Tokyo Olympics", {{5, "\xE2\x96\x81" "Tokyo", 0, 5}}, unk, {7, unk, 8, unk, 9}, {}, tokyo, s2, 0);
  CHECK(tokyo == "Tokyo Olympia");
  // a run of the source with those letters is used up by it, not written again ("Erdo" <unk> "an")
  const std::string erdogan = "Erdo\xC4\x9F" "an sprach";
  std::string e = "Erdo" + q + "an spoke";
  std::vector<std::pair<size_t, size_t>> s3 = {{0, 4}, {4, 9}, {9, 11}, {11, 17}};
  nmt::pass_through_unknown(erdogan, {{5, "\xE2\x96\x81" "Erdo", 0, 4}, {unk, "\xC4\x9F", 4, 6}, {6, "an", 6, 8}}, unk,
                            {5, unk, 6, 7}, {}, e, s3, 0);
  CHECK(e == "Erdo\xC4\x9F" "an spoke");
  // the word that reads exactly so, not one that only starts like it ("Republic" for "Rep" <unk> "blica")
  std::string rep = "Rep" + q + "blica";
  std::vector<std::pair<size_t, size_t>> s5 = {{0, 3}, {3, 8}, {8, 13}};
  nmt::pass_through_unknown("Republic (Rep\xC3\xBA" "blica)", {{5, "\xE2\x96\x81" "Republic", 0, 8}}, unk, {5, unk, 6}, {}, rep, s5, 0);
  CHECK(rep == "Rep\xC3\xBA" "blica");
  // no source word reads so: the piece goes, never shown as " ⁇ "
  std::string none = "Ab" + q + "cd";
  std::vector<std::pair<size_t, size_t>> s4 = {{0, 2}, {2, 7}, {7, 9}};
  nmt::pass_through_unknown("nothing like it", {{5, "\xE2\x96\x81" "nothing", 0, 7}}, unk, {5, unk, 6}, {}, none, s4, 0);
  CHECK(none.find("\xE2\x81\x87") == std::string::npos);
}

TEST_CASE("drop_doubled_spaces: a lone space token before a token that starts with one") {
  // "etwa", " ", " Millionen", ",": the model began an unknown piece and left it out
  std::string target = "etwa  Millionen,";
  std::vector<std::pair<size_t, size_t>> spans = {{0, 4}, {4, 5}, {5, 15}, {15, 16}};
  nmt::drop_doubled_spaces(target, spans);
  CHECK(target == "etwa Millionen,");
  CHECK(spans == std::vector<std::pair<size_t, size_t>>{{0, 4}, {4, 4}, {4, 14}, {14, 15}});
  std::string single = "etwa Millionen";  // one space: nothing to do
  std::vector<std::pair<size_t, size_t>> s1 = {{0, 4}, {4, 14}};
  nmt::drop_doubled_spaces(single, s1);
  CHECK(single == "etwa Millionen");
  std::string lone = "a b";  // a lone space before a token without one is the word gap
  std::vector<std::pair<size_t, size_t>> s2 = {{0, 1}, {1, 2}, {2, 3}};
  nmt::drop_doubled_spaces(lone, s2);
  CHECK(lone == "a b");
  std::string prefixed = "a  b";  // inside a forced prefix: kept as given
  std::vector<std::pair<size_t, size_t>> s3 = {{0, 1}, {1, 2}, {2, 4}};
  nmt::drop_doubled_spaces(prefixed, s3, 3);
  CHECK(prefixed == "a  b");
}

TEST_CASE("replace_at: a rewritten number grows its token and shifts the spans after it") {
  std::string target = "um 7 Uhr";  // "um", " 7", " Uhr"
  std::vector<std::pair<size_t, size_t>> spans = {{0, 2}, {2, 4}, {4, 8}};
  nmt::replace_at(target, spans, 3, 1, "19");
  CHECK(target == "um 19 Uhr");
  CHECK(spans == std::vector<std::pair<size_t, size_t>>{{0, 2}, {2, 5}, {5, 9}});
  nmt::replace_at(target, spans, 3, 2, "7");  // and shrinks it
  CHECK(target == "um 7 Uhr");
  CHECK(spans == std::vector<std::pair<size_t, size_t>>{{0, 2}, {2, 4}, {4, 8}});
}

TEST_CASE("translate(): U+FFFD, emoji and lone controls are never lost (fixture model)") {
  auto loaded = nmt::Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE(loaded);
  const nmt::Translator& t = *loaded.value();
  for (int beam : {1, 2}) {
    for (bool alignments : {false, true}) {
      CAPTURE(beam);
      CAPTURE(alignments);
      nmt::TranslateOptions options;
      options.beam_size = beam;
      options.alignments = alignments;
      auto run = [&](const std::string& text) {
        auto r = t.translate(text, options);
        REQUIRE(r);
        for (const nmt::SentenceTranslation& s : r->sentences) {  // ranges still index the text
          CHECK(r->text.substr(s.target_begin, s.target_end - s.target_begin) == s.target);
          if (!alignments) continue;
          for (const auto& k : s.target_tokens) CHECK(k.end <= s.target.size());
          for (const auto& w : s.words.target_words) CHECK(w.end <= s.target.size());
        }
        CHECK(nmt::sanitize_utf8(r->text) == r->text);
        return r.value();
      };
      // a sentence of only U+FFFD: its text, verbatim
      CHECK(run(kFffd).text == kFffd);
      CHECK(run(kFffd + kFffd + " " + kFffd + "\n").text == kFffd + kFffd + " " + kFffd + "\n");
      // after a normal sentence, in the same sentence and on a line of its own
      const std::string hello = run("Hello.").text;
      const nmt::Translation same = run("Hello. " + kFffd + kFffd);
      CHECK(count(same.text, kFffd) == 2);
      CHECK(same.text.find(kFffd + kFffd) != std::string::npos);
      CHECK(run("Hello.\n" + kFffd + "\n").text == hello + "\n" + kFffd + "\n");
      CHECK(count(run(kFffd + " The house is small.").text, kFffd) == 1);
      CHECK(count(run("The " + kFffd + " house is small.").text, kFffd) == 1);
      // SentencePiece's own meta symbol "▁" (U+2581), which its normalizer reads as a space
      CHECK(run("\xE2\x96\x81").text == "\xE2\x96\x81");
      CHECK(count(run("The \xE2\x96\x81 house.").text, "\xE2\x96\x81") == 1);
      // emoji only
      CHECK(run(kGrin).text == kGrin);
      const std::string two = run(kGrin + " " + kParty).text;
      CHECK(count(two, kGrin) == 1);
      CHECK(count(two, kParty) == 1);
      CHECK(count(run("Hello.\n" + kGrin + kFffd + "\n").text, kFffd) == 1);
      // lone controls are read as spaces (the caller's offsets stay exact): whitespace back, no crash
      for (const std::string& control : {std::string("\x01"), std::string(1, '\0'), std::string("\x1F\x7F")}) {
        const nmt::Translation r = run(control);
        CHECK(r.text.size() == control.size());
        CHECK(r.text.find_first_not_of(' ') == std::string::npos);
        CHECK(r.sentences.empty());
      }
      CHECK(count(run("Hello.\x01" + kFffd).text, kFffd) == 1);
      // an invisible character alone is not text to keep (as before): nothing to translate
      CHECK(run(kZwsp).text.empty());
    }
  }
}

TEST_CASE("has_no_words: digits, punctuation, symbols and emoji only") {
  for (const std::string& none : {std::string("?!?!... ***"), std::string("12345"), std::string("1,234.56"),
                                  std::string("* * *"), std::string("\xE2\x80\x94 12 \xE2\x80\x94"), std::string("(1)"),
                                  kGrin + kParty, kFffd, std::string("")})
    CHECK_MESSAGE(nmt::has_no_words(none), none);
  // a letter of any script, or a CJK ideograph, is something to translate (or to pass through by the model)
  for (const std::string& some : {std::string("a"), std::string("10 km"), std::string("#1 Hit"), std::string("\xC3\xA4"),
                                  std::string("\xD0\x96"), std::string("\xE7\x8E\x8B"), std::string("\xD7\xA9")})
    CHECK_MESSAGE(!nmt::has_no_words(some), some);
}

TEST_CASE("has_no_known_words: every token with a letter is the unknown piece") {
  const int unk = 0;
  auto tok = [](int id, const std::string& piece) { return nmt::Token{id, piece, 0, 0}; };
  using T = std::vector<nmt::Token>;
  CHECK(nmt::has_no_known_words(T{tok(unk, "\xE4\xBB\x8A\xE5\xA4\xA9"), tok(5, ","), tok(unk, "\xD0\x96"), tok(6, "\xE2\x96\x81?")}, unk));
  CHECK(nmt::has_no_known_words(T{tok(unk, "https://example.com")}, unk));
  CHECK(nmt::has_no_known_words(T{}, unk));
  CHECK(!nmt::has_no_known_words(T{tok(unk, "\xD0\x96"), tok(7, "\xE2\x96\x81Haus")}, unk));
  CHECK(!nmt::has_no_known_words(T{tok(8, "a")}, unk));
}

TEST_CASE("translate(): a sentence with nothing to translate is copied as it is, sure, aligned to itself (fixture model)") {
  // the model only reshuffles such a sentence ("!!!" -> "!!", "* * *" -> "* * * * *"), found by a QA pass
  auto loaded = nmt::Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE(loaded);
  const nmt::Translator& t = *loaded.value();
  const std::vector<std::string> nothing = {"?!?!... ***", "!!!", "* * *", "-", "\xE2\x80\x94 12 \xE2\x80\x94", "(1)",
                                            "3 \xC3\x97 4 = 12", "+49 30 1234567", kGrin + " ... " + kParty};
  for (int beam : {1, 3}) {
    for (bool all_heads : {false, true}) {
      nmt::TranslateOptions options;
      options.beam_size = beam;
      options.alignments = true;
      options.all_heads = all_heads;
      for (const std::string& text : nothing) {
        CAPTURE(text);
        auto r = t.translate(text, options);
        REQUIRE(r);
        CHECK(r->text == text);
        REQUIRE(r->sentences.size() == 1);
        const nmt::SentenceTranslation& s = r->sentences[0];
        CHECK(s.target == text);
        CHECK(s.copied);
        for (float p : s.token_probs) CHECK(p == 1.0f);
        for (float p : s.target_word_probs) CHECK(p == 1.0f);
        CHECK(s.target_ids == s.source_ids);  // its own tokens, eos included
        const size_t n = s.source_ids.size();
        REQUIRE(s.attention.size() == n * n);
        for (size_t k = 0; k < n; ++k) CHECK(s.attention[k * n + k] == 1.0f);
        CHECK(s.heads.size() == (all_heads ? n * n * size_t(r->decoder_layers * r->n_heads) : 0));
        CHECK(s.words.target_words.size() == s.words.source_words.size());
      }
      // between sentences of words, on a line of its own: copied there, the rest translated as alone
      const std::string before = t.translate("The house is small.", options)->text;
      const std::string after = t.translate("Good morning.", options)->text;
      auto r = t.translate("The house is small.\n\n* * *\n\nGood morning.", options);
      REQUIRE(r);
      CHECK(r->text == before + "\n\n* * *\n\n" + after);
      REQUIRE(r->sentences.size() == 3);
      CHECK(!r->sentences[0].copied);
      CHECK(r->sentences[1].copied);
      CHECK(nmt::to_json(r.value(), options).find("\"copied\":true") != std::string::npos);
      // a forced prefix that is its own start (what the page's alternatives send): still copied;
      // another prefix goes to the model
      nmt::TranslateOptions prefixed = options;
      prefixed.prefix = "* *";
      auto p = t.translate("* * *", prefixed);
      REQUIRE(p);
      CHECK(p->text == "* * *");
      prefixed.prefix = "Das";
      p = t.translate("* * *", prefixed);
      REQUIRE(p);
      CHECK(p->text.rfind("Das", 0) == 0);
      // its alternatives: the one next word, sure, and the rest; none at its end
      prefixed.prefix = "*";
      auto next = t.alternatives("* * *", prefixed);
      REQUIRE(next);
      REQUIRE(next->size() == 1);
      CHECK(next.value()[0].word == " *");
      CHECK(next.value()[0].probability == 1.0f);
      CHECK(next.value()[0].continuation == " *");
      prefixed.prefix = "* * *";
      next = t.alternatives("* * *", prefixed);
      REQUIRE(next);
      CHECK(next->empty());
    }
  }
}

TEST_CASE("translate(): a forced prefix that already holds the passed-through text gets it once (fixture model)") {
  // the page's alternatives force the translation so far, emoji and all, as the prefix: what the
  // prefix already carries must not be inserted again after it (found by a QA pass)
  auto loaded = nmt::Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE(loaded);
  const nmt::Translator& t = *loaded.value();
  const std::string pizza = "\xF0\x9F\x8D\x95";  // 🍕
  const std::string cjk = "\xE7\x8E\x8B\xE5\xB0\x8F\xE6\x98\x8E";  // 王小明
  struct Case {
    std::string source, prefix, kept;
    int times;
  };
  for (const Case& c : {Case{"I love pizza " + pizza + pizza + " and my family.", "Ich liebe Pizza " + pizza + pizza + " ", pizza, 2},
                        Case{"My friend " + cjk + " lives here.", "Mein Freund " + cjk + " wohnt ", cjk, 1},
                        Case{"The " + kFffd + " house is small.", "Das " + kFffd + " Haus ", kFffd, 1},
                        Case{pizza + " and " + pizza + " again.", pizza + " und ", pizza, 2}}) {
    for (int beam : {1, 2}) {
      CAPTURE(c.source);
      CAPTURE(beam);
      nmt::TranslateOptions options;
      options.beam_size = beam;
      options.prefix = c.prefix;
      auto r = t.translate(c.source, options);
      REQUIRE(r);
      CHECK(r->text.rfind(c.prefix, 0) == 0);
      CHECK(count(r->text, c.kept) == c.times);
    }
  }
}

TEST_CASE("pass_through_unknown: a quotation mark the model wrote in its own style is not written again") {
  const int unk = 0;
  // "She said ‘maybe’ twice.": the vocabulary lacks ‘, the model quotes with »…« instead
  const std::string source = "She said \xE2\x80\x98maybe\xE2\x80\x99 twice.";
  const std::vector<nmt::Token> toks = {{5, "\xE2\x96\x81" "She", 0, 3},   {6, "\xE2\x96\x81" "said", 3, 8},
                                        {unk, "<unk>", 8, 12},             {7, "maybe", 12, 17},
                                        {8, "\xE2\x80\x99", 17, 20},       {9, "\xE2\x96\x81" "twice", 20, 26},
                                        {10, ".", 26, 27}};
  const auto translated = [&](std::string target, std::vector<std::pair<size_t, size_t>> spans) {
    std::vector<float> attention(spans.size() * (toks.size() + 1), 0.0f);  // each target token on its source token
    for (size_t t = 0; t < spans.size(); ++t) attention[t * (toks.size() + 1) + std::min(t, toks.size() - 1)] = 1.0f;
    std::vector<int> ids(spans.size(), 20);
    nmt::pass_through_unknown(source, toks, unk, ids, attention, target, spans);
    return target;
  };
  // "Sie sagte »maybe« zweimal." has its two quotation marks: nothing to add
  CHECK(translated("Sie sagte \xC2\xBBmaybe\xC2\xAB zweimal.", {{0, 3}, {3, 9}, {9, 12}, {12, 17}, {17, 19}, {19, 27}, {27, 28}}) ==
        "Sie sagte \xC2\xBBmaybe\xC2\xAB zweimal.");
  // de->en kept one and wrote the other its own way (‚Tschüss‘ -> ‚Thin’)
  CHECK(translated("Sie sagte \xE2\x80\x9Amaybe\xE2\x80\x99 zweimal.", {{0, 3}, {3, 9}, {9, 13}, {13, 18}, {18, 21}, {21, 29}, {29, 30}}) ==
        "Sie sagte \xE2\x80\x9Amaybe\xE2\x80\x99 zweimal.");
  // a quotation mark the translation lacks is still copied (an apostrophe inside a word is none)
  const std::string lost = translated("Sie sagte don't zweimal.", {{0, 3}, {3, 9}, {9, 9}, {9, 15}, {15, 15}, {15, 23}, {23, 24}});
  CHECK(count(lost, "\xE2\x80\x98") == 1);
}

TEST_CASE("pass_through_unknown: an unknown piece written for a mark the source reads as known takes that mark") {
  const int unk = 0;
  const std::string q = " \xE2\x81\x87 ";  // the unknown piece's surface " ⁇ "
  // "They said «no».": « and » are known pieces of the source, but the model writes them as unknown ones
  const std::string source = "They said \xC2\xABno\xC2\xBB.";
  const std::vector<nmt::Token> toks = {{5, "\xE2\x96\x81" "They", 0, 4}, {6, "\xE2\x96\x81" "said", 4, 9},
                                        {7, "\xE2\x96\x81", 9, 10},       {8, "\xC2\xAB", 10, 12},
                                        {9, "no", 12, 14},                {10, "\xC2\xBB", 14, 16},
                                        {11, ".", 16, 17}};
  const size_t cols = toks.size() + 1;
  const auto translated = [&](std::string target, std::vector<std::pair<size_t, size_t>> spans, std::vector<int> ids,
                              std::vector<size_t> looks_at, bool with_attention = true) {
    std::vector<float> attention(ids.size() * cols, 0.0f);
    for (size_t t = 0; t < ids.size(); ++t) attention[t * cols + looks_at[t]] = 1.0f;
    nmt::pass_through_unknown(source, toks, unk, ids, with_attention ? attention : std::vector<float>{}, target, spans);
    return target;
  };
  const std::vector<std::pair<size_t, size_t>> spans = {{0, 3}, {3, 10}, {10, 15}, {15, 19}, {19, 24}, {24, 25}};
  CHECK(translated("Sie sagten" + q + "nein" + q + ".", spans, {1, 2, unk, 3, unk, 4}, {0, 1, 3, 4, 5, 6}) ==
        "Sie sagten \xC2\xABnein\xC2\xBB.");
  // never more of a mark than the source has: a target that holds its « already gets no second one
  const std::string quoted = "Sie sagten \xC2\xABnein\xC2\xBB" + q + ".";
  const std::string once = translated(quoted, {{0, 3}, {3, 10}, {10, 13}, {13, 17}, {17, 19}, {19, 24}, {24, 25}},
                                      {1, 2, 3, 4, 5, unk, 6}, {0, 1, 3, 4, 5, 3, 6});
  CHECK(count(once, "\xC2\xAB") == 1);
  CHECK(count(once, "\xE2\x81\x87") == 0);
  // an unknown piece looking at a word, or without attention, is dropped as before
  CHECK(translated("Sie sagten" + q + "nein.", {{0, 3}, {3, 10}, {10, 15}, {15, 19}, {19, 20}}, {1, 2, unk, 3, 4},
                   {0, 1, 4, 4, 6}) == "Sie sagten nein.");
  const std::string blind = translated("Sie sagten" + q + "nein" + q + ".", spans, {1, 2, unk, 3, unk, 4}, {0, 1, 3, 4, 5, 6}, false);
  CHECK(blind.find("\xC2\xAB") == std::string::npos);
  CHECK(blind.rfind("Sie sagten nein", 0) == 0);
}
