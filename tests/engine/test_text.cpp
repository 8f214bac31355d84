// Tests of the text layer (engine/text): UTF-8 sanitizing and UTF-16 offsets, sentence
// segmentation (hand-picked English/German cases plus a randomized round-trip property test),
// long-sentence splitting, word finding and the token-to-word alignment. The 100,000-character
// cases guard against quadratic behaviour: each must finish well within a second.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "text/pass_through.h"
#include "text/segmenter.h"
#include "text/utf8.h"
#include "text/word_alignment.h"

using namespace nmt;

namespace {

std::vector<std::string> sentences(std::string_view text, std::string_view lang = "en") {
  std::vector<std::string> out;
  for (const TextPiece& p : segment_text(text, lang)) {
    if (p.is_sentence) out.emplace_back(text.substr(p.begin, p.end - p.begin));
  }
  return out;
}

// "S:" sentence / "G:" gap, in order: shows the exact cut.
std::vector<std::string> pieces(std::string_view text, std::string_view lang = "en") {
  std::vector<std::string> out;
  for (const TextPiece& p : segment_text(text, lang)) {
    const std::string_view piece = text.substr(p.begin, p.end - p.begin);
    out.push_back((p.is_sentence ? "S:" : "G:") + std::string(piece));
  }
  return out;
}

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  for (const Span& w : find_words(text)) out.emplace_back(text.substr(w.begin, w.end - w.begin));
  return out;
}

using Strings = std::vector<std::string>;

// A gap: whitespace, and the marks that separate a menu's items (" » ", " | ") standing alone in it.
// Whitespace, item separators after whitespace, and at the end a list number ("1. ", "12) ") that
// starts the text or its line, then spaces.
bool only_whitespace_and_separators(std::string_view s, bool at_text_start) {
  char32_t previous = ' ';
  bool line_start = at_text_start;  // only whitespace since the text's or the line's start
  for (size_t i = 0; i < s.size();) {
    char32_t cp;
    const size_t at = i;
    i += decode_utf8(s, i, cp);
    if (is_newline(cp) || cp == U'\t') line_start = true;
    if (cp >= '0' && cp <= '9' && line_start) {
      size_t k = at;
      while (k < s.size() && s[k] >= '0' && s[k] <= '9') ++k;
      if (k - at > 3 || k >= s.size() || (s[k] != '.' && s[k] != ')')) return false;
      for (++k; k < s.size(); ++k)
        if (s[k] != ' ' && s[k] != '\t') return false;
      return k > at + 2 || s.size() > k;  // (a space after the mark)
    }
    if (!is_whitespace(cp) && !(is_item_separator(cp) && is_whitespace(previous))) return false;
    previous = cp;
  }
  return true;
}

// Every structural promise of segment_text, checked on one input. It returns "" or a description of the first broken promise (one assertion per input keeps the
// 100,000-character cases fast).
std::string segmentation_problem(std::string_view text, std::string_view lang) {
  const std::vector<TextPiece> ps = segment_text(text, lang);
  std::string joined;
  size_t expected_begin = 0;
  bool previous_was_gap = false;
  for (const TextPiece& p : ps) {
    if (p.begin != expected_begin) return "pieces not contiguous at " + std::to_string(p.begin);
    if (p.end <= p.begin) return "empty piece at " + std::to_string(p.begin);
    const std::string_view piece = text.substr(p.begin, p.end - p.begin);
    joined += piece;
    expected_begin = p.end;
    if (p.is_sentence) {
      char32_t first, last;
      decode_utf8(piece, 0, first);
      size_t last_start = piece.size() - 1;
      while (last_start > 0 && (static_cast<unsigned char>(piece[last_start]) & 0xC0) == 0x80) {
        --last_start;
      }
      decode_utf8(piece, last_start, last);
      if (is_whitespace(first) || is_whitespace(last)) return "untrimmed sentence";
      for (size_t i = 0; i < piece.size();) {
        char32_t cp;
        i += decode_utf8(piece, i, cp);
        // only a hard-wrapped line's single break, with a letter after it, joins lines (segmenter.h)
        if (is_newline(cp) && !(cp == '\n' || (cp == '\r' && i < piece.size() && piece[i] == '\n')))
          return "newline inside a sentence";
        if (cp == '\r') ++i;
        if (is_newline(cp)) {
          size_t k = i;
          while (k < piece.size() && piece[k] == ' ') ++k;
          char32_t next = 0;
          if (k < piece.size()) decode_utf8(piece, k, next);
          if (!is_letter(next) || k - i > 3) return "newline inside a sentence";
        }
      }
    } else {
      if (!only_whitespace_and_separators(piece, p.begin == 0)) return "gap with text";
      if (previous_was_gap) return "two gaps in a row";
    }
    previous_was_gap = !p.is_sentence;
  }
  if (expected_begin != text.size()) return "pieces stop short";
  if (joined != text) return "pieces do not reproduce the text";
  return "";
}

void check_segmentation(std::string_view text, std::string_view lang) {
  CHECK(segmentation_problem(text, lang) == "");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// UTF-8

TEST_CASE("sanitize_utf8 keeps valid text and replaces invalid sequences") {
  CHECK(sanitize_utf8("") == "");
  CHECK(sanitize_utf8("Grüße, 世界 😀 שלום مرحبا") == "Grüße, 世界 😀 שלום مرحبا");
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(sanitize_utf8("a\xFF" "b") == "a" + fffd + "b");
  CHECK(sanitize_utf8("\xE2\x82" "A") == fffd + "A");            // truncated, next byte kept
  CHECK(sanitize_utf8("\xC0\xAF") == fffd + fffd);                // overlong '/'
  CHECK(sanitize_utf8("\xED\xA0\x80") == fffd + fffd + fffd);     // UTF-16 surrogate
  CHECK(sanitize_utf8("\xF4\x90\x80\x80") == fffd + fffd + fffd + fffd);  // > U+10FFFF
  CHECK(sanitize_utf8("ok\xF0\x9F\x98") == "ok" + fffd);          // cut-off emoji at the end
  CHECK(sanitize_utf8("\x80\x80") == fffd + fffd);                // stray continuation bytes
  CHECK(sanitize_utf8(fffd) == fffd);                              // a real U+FFFD stays
}

TEST_CASE("sanitize_utf8 turns control characters into spaces and keeps line breaks as they are") {
  CHECK(sanitize_utf8("a\r\nb\rc\nd") == "a\r\nb\rc\nd");
  CHECK(sanitize_utf8("tab\tstays") == "tab\tstays");
  CHECK(sanitize_utf8(std::string("cat\0sleeps", 10)) == "cat sleeps");  // NUL separates words
  CHECK(sanitize_utf8("a\x01\x1B[31mb\x7F") == "a  [31mb ");
  CHECK(sanitize_utf8("x\xC2\x85y\xC2\x9Fz") == "x\xC2\x85y z");  // NEL is a line break, U+009F a space
  CHECK(sanitize_utf8("\xC2\xA0") == "\xC2\xA0");                  // U+00A0 is not a control
}

TEST_CASE("sanitize_utf8 keeps every valid character's UTF-16 length, so offsets need no map back") {
  const std::string inputs[] = {std::string("a\0b\r\n\x01" "c\xC2\x85\xC2\x9F d", 13), "Grüße 世界 😀 שלום \xE2\x80\x8F x",
                                "e\xCC\x81 \xEF\xBF\xBD \t\v\f end"};
  for (const std::string& in : inputs) {
    const std::string out = sanitize_utf8(in);
    const Utf16Offsets before(in), after(out);
    CHECK(before(in.size()) == after(out.size()));
    CHECK(out.size() <= in.size());
    for (size_t i = 0, j = 0; i < in.size() && j < out.size();) {  // character by character
      char32_t a, b;
      const size_t la = decode_utf8(in, i, a), lb = decode_utf8(out, j, b);
      CHECK(before(i) == after(j));
      i += la;
      j += lb;
    }
  }
}

TEST_CASE("sanitize_utf8 output is always valid and stable (random bytes)") {
  std::mt19937 rng(7);
  for (int round = 0; round < 500; ++round) {
    std::string bytes(rng() % 64, '\0');
    for (char& c : bytes) c = static_cast<char>(rng() % 256);
    const std::string clean = sanitize_utf8(bytes);
    CHECK(sanitize_utf8(clean) == clean);
    for (size_t i = 0; i < clean.size();) {
      char32_t cp;
      const size_t length = decode_utf8(clean, i, cp);
      REQUIRE((cp != 0xFFFD || length == 3));  // every U+FFFD is a real, encoded one
      REQUIRE((!is_control(cp) || cp == '\t' || is_newline(cp)));  // only tab and line breaks remain
      i += length;
    }
  }
}

TEST_CASE("Utf16Offsets counts surrogate pairs and umlauts") {
  const std::string s = "a\xC3\xA4\xF0\x9F\x98\x80" "b";  // a ä 😀 b
  const Utf16Offsets to16(s);
  CHECK(to16(0) == 0);  // a
  CHECK(to16(1) == 1);  // ä (2 bytes, 1 unit)
  CHECK(to16(3) == 2);  // 😀 (4 bytes, 2 units)
  CHECK(to16(7) == 4);  // b
  CHECK(to16(8) == 5);  // end = JavaScript "aä😀b".length
  CHECK(to16(5) == 2);  // inside 😀: its start
  CHECK(to16(1000) == 5);
  const Utf16Offsets empty("");
  CHECK(empty(0) == 0);
  CHECK(empty(3) == 0);
  const std::string cjk = "中文 Grüße";
  CHECK(Utf16Offsets(cjk)(cjk.size()) == 8);
}

// ---------------------------------------------------------------------------------------------
// Segmentation

TEST_CASE("segment_text: empty, whitespace only, and the gaps between sentences") {
  CHECK(segment_text("", "en").empty());
  CHECK(pieces("   \n\n\t ") == Strings{"G:   \n\n\t "});
  CHECK(pieces("One. Two.") == Strings{"S:One.", "G: ", "S:Two."});
  CHECK(pieces("  One.   Two.  \n") == Strings{"G:  ", "S:One.", "G:   ", "S:Two.", "G:  \n"});
  CHECK(pieces("Para one.\n\nPara two.\r\n\r\nThree") ==
        Strings{"S:Para one.", "G:\n\n", "S:Para two.", "G:\r\n\r\n", "S:Three"});
  // Every newline ends a sentence, with or without punctuation.
  CHECK(sentences("first line\nsecond line\n  third") ==
        Strings{"first line", "second line", "third"});
  CHECK(sentences("Hello!\nworld") == Strings{"Hello!", "world"});
  CHECK(sentences("no final punctuation") == Strings{"no final punctuation"});
  CHECK(sentences("a\xE2\x80\xA8" "b") == Strings{"a", "b"});  // U+2028 line separator
  // Tabs separate the cells of a pasted table: each cell on its own, the tabs kept as gaps (they
  // used to be read as spaces, and "Name\tAge\tCity" came back as "Namensstadt").
  CHECK(pieces("Name\tAge\tCity\nJohn\t34\tBerlin") ==
        Strings{"S:Name", "G:\t", "S:Age", "G:\t", "S:City", "G:\n", "S:John", "G:\t", "S:34", "G:\t", "S:Berlin"});
  CHECK(pieces("\tIndented. Two.") == Strings{"G:\t", "S:Indented.", "G: ", "S:Two."});
  CHECK(pieces("It ends.\t Next one.") == Strings{"S:It ends.", "G:\t ", "S:Next one."});
}

TEST_CASE("segment_text: the items of a menu or breadcrumb, and the marks between them") {
  // Read as one sentence, "Startseite » Wirtschaft » Zinsen" came out as "Economy \" interest rates".
  CHECK(pieces("Startseite \u00BB Wirtschaft \u00BB Zinsen", "de") ==
        Strings{"S:Startseite", "G: \u00BB ", "S:Wirtschaft", "G: \u00BB ", "S:Zinsen"});
  CHECK(pieces("Home | About us | Contact") == Strings{"S:Home", "G: | ", "S:About us", "G: | ", "S:Contact"});
  CHECK(sentences("Milk \u2022 Eggs \u00B7 Bread \u203A More \u2192 End") == Strings{"Milk", "Eggs", "Bread", "More", "End"});
  CHECK(pieces("Done. | Next  |  | Last") == Strings{"S:Done.", "G: | ", "S:Next", "G:  |  | ", "S:Last"});
  // Not a separator: touching a word, at the start of a line, at the end, doubled, or a quote.
  CHECK(sentences("a|b and a ||b, x || y") == Strings{"a|b and a ||b, x || y"});
  CHECK(sentences("| first cell | second") == Strings{"| first cell", "second"});
  CHECK(sentences("One.\n\u2022 Two \u2022") == Strings{"One.", "\u2022 Two \u2022"});
  CHECK(sentences("Er sagte \u00BB Hallo \u00AB und ging.", "de") == Strings{"Er sagte \u00BB Hallo \u00AB und ging."});
  CHECK(sentences("\u00AB Bonjour \u00BB dit-il.") == Strings{"\u00AB Bonjour \u00BB dit-il."});
  CHECK(sentences("Er sagte \u00BBHallo\u00AB und ging.", "de") == Strings{"Er sagte \u00BBHallo\u00AB und ging."});
  CHECK(sentences("A \u00AB b\nc \u00BB d") == Strings{"A \u00AB b", "c", "d"});  // a quote on another line is not this one's
  CHECK(sentences("x > 5 and 3 - 2") == Strings{"x > 5 and 3 - 2"});
  check_segmentation("a \u00BB b \u00BB \n \u00BB c | ", "en");
}

TEST_CASE("segment_text: a list number at a line's start is kept apart from its item") {
  // Read with its item, the number became an ordinal or was lost ("2. Am Montag ..." -> "2nd on
  // Monday ...", "8. Seit ..." -> "Since ...").
  CHECK(pieces("Steps:\n1. Mix the flour.\n2) Add the milk.\n12. Bake it.") ==
        Strings{"S:Steps:", "G:\n1. ", "S:Mix the flour.", "G:\n2) ", "S:Add the milk.", "G:\n12. ", "S:Bake it."});
  CHECK(pieces("1. Am Montag kam er.", "de") == Strings{"G:1. ", "S:Am Montag kam er."});
  CHECK(pieces("Name\t3. \"Quote\" here\n4. 800 Meilen") ==
        Strings{"S:Name", "G:\t3. ", "S:\"Quote\" here", "G:\n4. ", "S:800 Meilen"});
  // not a German date, a year, a decimal, a number mid-line, nor one with nothing after it
  CHECK(sentences("3. Oktober 2023 war ein Feiertag.", "de") == Strings{"3. Oktober 2023 war ein Feiertag."});
  CHECK(pieces("2010. Danach kam 2011.", "de") == Strings{"S:2010. Danach kam 2011."});
  CHECK(pieces("1.5 litres\nWe have 3. Then 4. Go") == Strings{"S:1.5 litres", "G:\n", "S:We have 3.", "G: ", "S:Then 4.", "G: ", "S:Go"});
  CHECK(pieces("Item\n7.\n8. ") == Strings{"S:Item", "G:\n", "S:7.", "G:\n", "S:8.", "G: "});
  check_segmentation("1. a\n2) b\t3. c\n\n 4. d", "en");
}

TEST_CASE("segment_text: Markdown's heading and quote marks at a line's start are in the gap") {
  CHECK(pieces("## Getting started\n> Note: new.\n> > 1. Step") ==
        Strings{"G:## ", "S:Getting started", "G:\n> ", "S:Note: new.", "G:\n> > 1. ", "S:Step"});
  CHECK(pieces(">Quoted mail\n  ### Title") == Strings{"G:>", "S:Quoted mail", "G:\n  ### ", "S:Title"});
  // no heading without a space, nor marks alone on their line or inside one
  CHECK(pieces("#hashtag here\n#\n>\nA > b and a # b") ==
        Strings{"S:#hashtag here", "G:\n", "S:#", "G:\n", "S:>", "G:\n", "S:A > b and a # b"});
  CHECK(pieces("####### Seven") == Strings{"S:####### Seven"});
}

TEST_CASE("segment_text: English sentence ends and abbreviations") {
  CHECK(sentences("Mr. Smith went to Washington. He arrived at 3.30 p.m. on Monday.") ==
        Strings{"Mr. Smith went to Washington.", "He arrived at 3.30 p.m. on Monday."});
  CHECK(sentences("I met Dr. Who and Mrs. Hudson. They were nice.") ==
        Strings{"I met Dr. Who and Mrs. Hudson.", "They were nice."});
  CHECK(sentences("Prof. Jones, e.g. The Times, i.e. A paper, etc. Anyway it works.") ==
        Strings{"Prof. Jones, e.g. The Times, i.e. A paper, etc. Anyway it works."});
  CHECK(sentences("J. R. R. Tolkien wrote it. It is long.") ==
        Strings{"J. R. R. Tolkien wrote it.", "It is long."});
  CHECK(sentences("The U.S. Army is big. St. Louis vs. Chicago on Jan. 5 was fun.") ==
        Strings{"The U.S. Army is big.", "St. Louis vs. Chicago on Jan. 5 was fun."});
  CHECK(sentences("See No. 5 for details. I said no. Then I left.") ==
        Strings{"See No. 5 for details.", "I said no.", "Then I left."});
  CHECK(sentences("So do I. Then we left.") == Strings{"So do I.", "Then we left."});
  CHECK(sentences("What?! Yes. Really? Yes! Fine.") ==
        Strings{"What?!", "Yes.", "Really?", "Yes!", "Fine."});
  CHECK(sentences("it ends here. but this is lower case.") ==
        Strings{"it ends here. but this is lower case."});
  // a face after a word ends a sentence before a capital; a heart (a verb), a face first or before a
  // small letter do not
  CHECK(sentences("Thanks :) See you. Great :-D Really. Das war toll ;-) Danke euch.") ==
        Strings{"Thanks :)", "See you.", "Great :-D", "Really.", "Das war toll ;-)", "Danke euch."});
  CHECK(sentences("I <3 NY and you. He wrote :) and left. Wow :) :) Nice.") ==
        Strings{"I <3 NY and you.", "He wrote :) and left.", "Wow :) :)", "Nice."});
  CHECK(sentences(":) Hello there.") == Strings{":) Hello there."});
  // so does an emoji of a face or a hand (with its skin tone); not a thing's nor a heart
  CHECK(sentences("Danke \xF0\x9F\x99\x8F Bis bald \xF0\x9F\x91\x8B", "de") ==
        Strings{"Danke \xF0\x9F\x99\x8F", "Bis bald \xF0\x9F\x91\x8B"});
  CHECK(sentences("Super \xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD Keep going! Happy birthday \xF0\x9F\x8E\x89 Have fun.") ==
        Strings{"Super \xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD", "Keep going!", "Happy birthday \xF0\x9F\x8E\x89", "Have fun."});
  CHECK(sentences("Ich liebe \xF0\x9F\x8D\x95 Pizza. I \xE2\x9D\xA4\xEF\xB8\x8F New York. \xF0\x9F\x98\x82 Funny.", "de") ==
        Strings{"Ich liebe \xF0\x9F\x8D\x95 Pizza.", "I \xE2\x9D\xA4\xEF\xB8\x8F New York. \xF0\x9F\x98\x82", "Funny."});
}

TEST_CASE("segment_text: an abbreviation that ends a sentence, before a word that starts one") {
  CHECK(sentences("We bought it from Acme Inc. It works. She moved to the U.S. Her brother stayed.") ==
        Strings{"We bought it from Acme Inc.", "It works.", "She moved to the U.S.", "Her brother stayed."});
  CHECK(sentences("We sell apples, pears etc. But not milk. It ends at 5 p.m. The next one is later.") ==
        Strings{"We sell apples, pears etc.", "But not milk.", "It ends at 5 p.m.", "The next one is later."});
  CHECK(sentences("Der Zug f\xC3\xA4hrt um 8 Uhr ab usw. Wir kommen sp\xC3\xA4ter.", "de") ==
        Strings{"Der Zug f\xC3\xA4hrt um 8 Uhr ab usw.", "Wir kommen sp\xC3\xA4ter."});
  // inside a sentence, before a name or a noun, they stay abbreviations
  CHECK(sentences("Acme Inc. announced a product. The U.S. Army and Acme Inc. CEO John Smith agreed.") ==
        Strings{"Acme Inc. announced a product.", "The U.S. Army and Acme Inc. CEO John Smith agreed."});
  CHECK(sentences("Es berichteten u.a. Die Welt und 3 Mio. Euro fehlen.", "de") ==
        Strings{"Es berichteten u.a. Die Welt und 3 Mio. Euro fehlen."});
  // a club's e.V., a weekday's and a month's abbreviations; a number before an adverb or a question word
  CHECK(sentences("Sie ist im Verein e.V. Das freut uns. Wir treffen uns am Mo. Danach fahren wir. Siehe Abb. 4. Dort steht mehr.", "de") ==
        Strings{"Sie ist im Verein e.V.", "Das freut uns.", "Wir treffen uns am Mo.", "Danach fahren wir.", "Siehe Abb. 4.", "Dort steht mehr."});
  CHECK(sentences("We met in Jan. The weather was bad. On Jan. 5 we met.") ==
        Strings{"We met in Jan.", "The weather was bad.", "On Jan. 5 we met."});
  CHECK(sentences("Wir sahen Fr. M\xC3\xBCller am 3. Dezember.", "de") == Strings{"Wir sahen Fr. M\xC3\xBCller am 3. Dezember."});
}

TEST_CASE("segment_text: numbers, ellipses, URLs and e-mail addresses") {
  CHECK(sentences("Pi is 3.14. It is irrational. It costs $5. The end.") ==
        Strings{"Pi is 3.14.", "It is irrational.", "It costs $5.", "The end."});
  CHECK(sentences("I was born in 1990. Then I grew up. 2020 was odd.") ==
        Strings{"I was born in 1990.", "Then I grew up.", "2020 was odd."});
  CHECK(pieces("1. Introduction") == Strings{"G:1. ", "S:Introduction"});  // (a list number)
  CHECK(sentences("I was thinking... maybe not. Wait\xE2\x80\xA6 What? Hmm... Ok.") ==
        Strings{"I was thinking... maybe not.", "Wait\xE2\x80\xA6", "What?", "Hmm...", "Ok."});
  CHECK(sentences("Mail john.doe@example.com. Visit https://example.com/a.b?c=d. Done.") ==
        Strings{"Mail john.doe@example.com.", "Visit https://example.com/a.b?c=d.", "Done."});
  CHECK(sentences("Go to www.example.org now. Version 2.0.1 is out.") ==
        Strings{"Go to www.example.org now.", "Version 2.0.1 is out."});
}

TEST_CASE("segment_text: quotes and brackets") {
  CHECK(sentences("He said \"Stop.\" Then he left.") ==
        Strings{"He said \"Stop.\"", "Then he left."});
  CHECK(sentences("\"Really?\" she asked. \"Yes!\" he said.") ==
        Strings{"\"Really?\" she asked.", "\"Yes!\" he said."});
  CHECK(sentences("He said \"stop\". Then he left.") ==
        Strings{"He said \"stop\".", "Then he left."});
  CHECK(sentences("(This is a note.) Next sentence. \xE2\x80\x9CQuoted.\xE2\x80\x9D Fine.") ==
        Strings{"(This is a note.)", "Next sentence.", "\xE2\x80\x9CQuoted.\xE2\x80\x9D", "Fine."});
  CHECK(sentences("It ended. \"Why?\" he asked. (Nobody knew.)") ==
        Strings{"It ended.", "\"Why?\" he asked.", "(Nobody knew.)"});
}

TEST_CASE("segment_text: German rules") {
  CHECK(sentences("Das ist z. B. ein Test. Dann geht es weiter.", "de") ==
        Strings{"Das ist z. B. ein Test.", "Dann geht es weiter."});
  CHECK(sentences("Er kam am 3. Oktober nach Hause. Es war kalt.", "de") ==
        Strings{"Er kam am 3. Oktober nach Hause.", "Es war kalt."});
  CHECK(sentences("Im Jahr 2010. Danach kam 2011.", "de") ==
        Strings{"Im Jahr 2010.", "Danach kam 2011."});
  CHECK(sentences("Bitte Obst mitbringen, z.B. \xC3\x84pfel, Birnen usw. Danke.", "de") ==
        Strings{"Bitte Obst mitbringen, z.B. \xC3\x84pfel, Birnen usw. Danke."});
  CHECK(sentences("Hr. Schmidt und Fr. Meier kommen ca. 10 Min. später. Das ist gut.", "de") ==
        Strings{"Hr. Schmidt und Fr. Meier kommen ca. 10 Min. später.", "Das ist gut."});
  CHECK(sentences("Dr. Müller wohnt in der Goethe Str. Nr. 5, d.h. Mitte. Vgl. Seite 3.", "de") ==
        Strings{"Dr. Müller wohnt in der Goethe Str. Nr. 5, d.h. Mitte.", "Vgl. Seite 3."});
  // units and weekdays before a noun, a street's abbreviation before its number
  CHECK(sentences("Die Bahn hat 20 Min. Verspätung. Das dauert 3 Std. Fahrt.", "de") ==
        Strings{"Die Bahn hat 20 Min. Verspätung.", "Das dauert 3 Std. Fahrt."});
  CHECK(sentences("Geöffnet Di. und Do. ab 9 Uhr. Er wohnt in der Hauptstr. 5 in Berlin.", "de") ==
        Strings{"Geöffnet Di. und Do. ab 9 Uhr.", "Er wohnt in der Hauptstr. 5 in Berlin."});
  CHECK(sentences("Das ist so. Er kam. Ich wohne im Haus. 5 Leute wohnen hier.", "de") ==
        Strings{"Das ist so.", "Er kam.", "Ich wohne im Haus.", "5 Leute wohnen hier."});
  // a number's full stop before a pronoun, an article or a conjunction ends the sentence: no ordinal
  // comes before one ("am 3. Oktober", "der 2. Sieger" are ordinals)
  CHECK(sentences("Er wohnt in Nr. 5. Er ist nett. Es waren genau 5. Die anderen kamen nicht.", "de") ==
        Strings{"Er wohnt in Nr. 5.", "Er ist nett.", "Es waren genau 5.", "Die anderen kamen nicht."});
  CHECK(sentences("Das ist Platz 5. Wir sind froh. Er ist der 2. Sieger. Im 19. Jahrhundert. Am 3. Dezember.", "de") ==
        Strings{"Das ist Platz 5.", "Wir sind froh.", "Er ist der 2. Sieger.", "Im 19. Jahrhundert.", "Am 3. Dezember."});
  CHECK(sentences("Die 3. Diebin kam. Die 3. Erwähnung.", "de") == Strings{"Die 3. Diebin kam.", "Die 3. Erwähnung."});
  // German quotes: „…“ and »…«.
  CHECK(sentences("\xE2\x80\x9EKomm her!\xE2\x80\x9C, rief er. Dann ging er.", "de") ==
        Strings{"\xE2\x80\x9EKomm her!\xE2\x80\x9C, rief er.", "Dann ging er."});
  CHECK(sentences("\xC2\xBBWirklich?\xC2\xAB Sie lachte.", "de") ==
        Strings{"\xC2\xBBWirklich?\xC2\xAB", "Sie lachte."});
  // The pronoun exception is English only: in German "I." is an initial or a Roman numeral.
  CHECK(sentences("Wilhelm I. Kaiser", "de") == Strings{"Wilhelm I. Kaiser"});
  // Ordinals are a German rule: in English "3." before a capital ends the sentence.
  CHECK(sentences("We have 3. The rest is gone.", "en") ==
        Strings{"We have 3.", "The rest is gone."});
}

TEST_CASE("segment_text: other scripts, emoji, HTML-looking and broken text") {
  CHECK(sentences("你好。我很好！谢谢") == Strings{"你好。", "我很好！", "谢谢"});
  CHECK(sentences("مرحبا. كيف حالك؟") == Strings{"مرحبا.", "كيف حالك؟"});
  CHECK(sentences("שלום. מה שלומך?") == Strings{"שלום.", "מה שלומך?"});
  CHECK(sentences("Привет. Как дела? Γειά σου. Τι κάνεις;") ==
        Strings{"Привет.", "Как дела?", "Γειά σου.", "Τι κάνεις;"});
  CHECK(sentences("I love it \xF0\x9F\x98\x80. Great!") ==
        Strings{"I love it \xF0\x9F\x98\x80.", "Great!"});
  CHECK(sentences("<p>Hello world.</p> <p>Next one.</p>") ==
        Strings{"<p>Hello world.</p> <p>Next one.</p>"});
  // Unsanitized input must not break anything either.
  check_segmentation("bad \xFF\xFE bytes. \xE2\x82 More\x01 text.\r\nEnd\xF0\x9F", "en");
  check_segmentation(std::string("nul\0inside. Yes.", 16), "de");
}

TEST_CASE("segment_text: pieces always concatenate to the input (randomized)") {
  const std::vector<std::string> fragments = {
      "Dr.", "Mr.", "e.g.", "z. B.", "usw.", "3.", "14", "2010.", "No.", " ", " ", " ", "  ",
      "\n", "\n\n", "\r\n", "\t", "\xC2\xA0", "\xE2\x80\xA8", "a", "B", "word", "Hello", "Welt",
      ".", ".", "!", "?", "...", "\xE2\x80\xA6", "\"", "'", "\xE2\x80\x9D", "\xE2\x80\x9E",
      "\xC2\xBB", "\xC2\xAB", "(", ")", "[", "]", ",", ";", ":", "\xF0\x9F\x98\x80", "\xE4\xB8\xAD",
      "\xE3\x80\x82", "\xD7\xA9", "\xD8\xB3", "\xFF", "\xE2\x82", "\x01", "<b>", "J.", "I.",
      "\xC3\x84", "http://x.y/z.", "\xCC\x81", "\xE2\x80\x8D"};
  std::mt19937 rng(12345);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const size_t count = rng() % 40;
    for (size_t k = 0; k < count; ++k) text += fragments[rng() % fragments.size()];
    check_segmentation(text, round % 2 ? "de" : "en");
    // Every sentence also yields sane words.
    for (const TextPiece& p : segment_text(text, "en")) {
      if (!p.is_sentence) continue;
      const std::string_view s = std::string_view(text).substr(p.begin, p.end - p.begin);
      size_t previous_end = 0;
      for (const Span& w : find_words(s)) {
        REQUIRE(w.begin >= previous_end);
        REQUIRE(w.end > w.begin);
        REQUIRE(w.end <= s.size());
        previous_end = w.end;
      }
    }
  }
}

// Hostile 100,000-character inputs: each must finish (a quadratic or looping path would hit the
// ctest timeout) and give a valid segmentation. Speed itself is measured by benchmarks, not here.
TEST_CASE("segment_text and find_words handle 100,000-character inputs") {
  std::string prose;
  const std::string paragraph =
      "Dr. M\xC3\xBCller sagte am 3. Oktober: \xE2\x80\x9E" "Es ist 3.14!\xE2\x80\x9C Wirklich? "
      "Ja... e.g. \xF0\x9F\x98\x80 \xE4\xB8\xAD\xE6\x96\x87\xE3\x80\x82 don't Kaiser-Wilhelm.\n\n";
  while (prose.size() < 100000) prose += paragraph;
  const std::vector<std::string> inputs = {
      prose,
      std::string(100000, '.'),                       // one long run of dots
      std::string(100000, ' '),                       // whitespace only
      std::string(100000, '\n'),
      std::string(100000, 'a'),                       // one huge word
      [] { std::string s; while (s.size() < 100000) s += "a."; return s; }(),
      [] { std::string s; while (s.size() < 100000) s += ". "; return s; }(),
      [] { std::string s; while (s.size() < 100000) s += "Dr. "; return s; }(),
      [] { std::string s; while (s.size() < 100000) s += "x.\xE2\x80\x9D)"; return s; }(),
      [] { std::string s; while (s.size() < 100000) s += "👩\u200D"; return s; }(),  // ZWJ chain
      [] { std::string s; while (s.size() < 100000) s += "1.2,"; return s; }(),
      [] { std::string s; while (s.size() < 100000) s += "a'"; return s; }(),
  };
  for (const std::string& text : inputs) {
    segment_text(text, "en");
    CHECK(Utf16Offsets(text)(text.size()) <= text.size());
    CHECK(sanitize_utf8(text).size() >= text.size() / 2);
    CHECK(find_words(text).size() <= text.size());
    check_segmentation(text, "de");
  }
  // The long prose really was cut into many sentences, gaps kept.
  CHECK(sentences(prose, "de").size() > 1000);
}

// ---------------------------------------------------------------------------------------------
// Words

TEST_CASE("find_words: apostrophes, hyphens, numbers, punctuation") {
  CHECK(words("") == Strings{});
  CHECK(words("  \t ") == Strings{});
  CHECK(words("Don't stop, Kaiser-Wilhelm-Stra\xC3\x9F" "e!") ==
        Strings{"Don't", "stop", ",", "Kaiser-Wilhelm-Stra\xC3\x9F" "e", "!"});
  CHECK(words("it\xE2\x80\x99s 'quoted' students' -x- a--b") ==
        Strings{"it\xE2\x80\x99s", "'", "quoted", "'", "students", "'", "-", "x", "-", "a", "-",
                "-", "b"});
  CHECK(words("Pi 3.14, 1,000 and 2.") == Strings{"Pi", "3.14", ",", "1,000", "and", "2", "."});
  CHECK(words("Hi!!") == Strings{"Hi", "!", "!"});
  CHECK(words("<b>bold</b>") == Strings{"<", "b", ">", "bold", "<", "/", "b", ">"});
  CHECK(words("e\xCC\x81t\xC3\xA9 caf\xC3\xA9") == Strings{"e\xCC\x81t\xC3\xA9", "caf\xC3\xA9"});
}

TEST_CASE("find_words: other scripts, CJK and emoji") {
  CHECK(words("Привет, мир! Γειά σου") == Strings{"Привет", ",", "мир", "!", "Γειά", "σου"});
  CHECK(words("مرحبا بالعالم") == Strings{"مرحبا", "بالعالم"});
  CHECK(words("שלום עולם") == Strings{"שלום", "עולם"});
  CHECK(words("\xD7\xAA\xD7\x9C\xD6\xBE\xD7\x90\xD7\x91\xD7\x99\xD7\x91") ==
        Strings{"\xD7\xAA\xD7\x9C\xD6\xBE\xD7\x90\xD7\x91\xD7\x99\xD7\x91"});  // תל־אביב (maqaf)
  // One word per ideograph; kana runs stay together.
  CHECK(words("我爱你") == Strings{"我", "爱", "你"});
  CHECK(words("こんにちは世界") == Strings{"こんにちは", "世", "界"});
  // 😀😀 → two words; ❤️ with its variation selector; family (ZWJ); flag; thumbs up + skin tone.
  CHECK(words("😀😀") == Strings{"😀", "😀"});
  CHECK(words("I \xE2\x9D\xA4\xEF\xB8\x8F you") == Strings{"I", "\xE2\x9D\xA4\xEF\xB8\x8F", "you"});
  const std::string family = "👩\u200D👩\u200D👧";
  const std::string flag = "\xF0\x9F\x87\xA9\xF0\x9F\x87\xAA";
  const std::string thumbs = "\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD";
  CHECK(words(family + flag + flag + thumbs + "ok") == Strings{family, flag, flag, thumbs, "ok"});
  // Zero-width and bidi controls belong to no word; invalid bytes are one-byte words.
  CHECK(words("\xE2\x80\x8B" "a\xE2\x80\x8F b") == Strings{"a", "b"});
  CHECK(words("a\xFF" "b") == Strings{"a", "\xFF", "b"});
}

// ---------------------------------------------------------------------------------------------
// Alignment

TEST_CASE("align_words merges tokens into words") {
  // Source "New York is big." tokens: ▁New ▁York ▁is ▁b ig . </s>
  const std::string source = "New York is big.";
  const std::vector<Span> src = {{0, 3}, {3, 8}, {8, 11}, {11, 13}, {13, 15}, {15, 16}, {16, 16}};
  // Target "New York ist groß." tokens: ▁New ▁Yo rk ▁ist ▁groß . </s>   (ß is 2 bytes)
  const std::string target = "New York ist gro\xC3\x9F.";
  const std::vector<Span> tgt = {{0, 3}, {3, 6}, {6, 8}, {8, 12}, {12, 18}, {18, 19}, {19, 19}};
  // clang-format off
  const std::vector<float> soft = {
      // New  York  is    b     ig    .     </s>
      0.9f, 0.1f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,   // ▁New
      0.2f, 0.8f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f,   // ▁Yo
      0.0f, 0.6f, 0.0f, 0.0f, 0.0f, 0.0f, 0.4f,   // rk
      0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f,   // ▁ist
      0.0f, 0.0f, 0.0f, 0.5f, 0.3f, 0.2f, 0.0f,   // ▁groß
      0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f,   // .  (all on </s>: no word mass)
      0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.4f,   // </s> (empty span: ignored)
  };
  // clang-format on
  const WordAlignment a = align_words(source, src, target, tgt, soft.data(), 7, 7);
  REQUIRE(a.source_words.size() == 5);  // New York is big .
  REQUIRE(a.target_words.size() == 5);  // New York ist groß .
  CHECK(a.target_words[3].begin == 13);
  CHECK(a.target_words[3].end == 18);
  REQUIRE(a.matrix.size() == 25);
  const auto at = [&](int t, int s) { return a.matrix[t * 5 + s]; };
  CHECK(at(0, 0) == doctest::Approx(0.9));
  CHECK(at(0, 1) == doctest::Approx(0.1));
  // York: (0.8 + 0.6) / 2 on York, 0.2 / 2 on New, renormalized over 0.8.
  CHECK(at(1, 1) == doctest::Approx(0.875));
  CHECK(at(1, 0) == doctest::Approx(0.125));
  CHECK(at(2, 2) == doctest::Approx(1.0));
  // groß: ▁b + ig pooled into "big".
  CHECK(at(3, 3) == doctest::Approx(0.8));
  CHECK(at(3, 4) == doctest::Approx(0.2));
  for (int s = 0; s < 5; ++s) CHECK(at(4, s) == 0.0f);
  const std::vector<std::pair<int, int>> expected = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};
  CHECK(a.links == expected);
}

TEST_CASE("align_words survives bad input") {
  const std::string source = "Hello world", target = "Hallo Welt";
  const std::vector<Span> src = {{0, 5}, {5, 11}}, tgt = {{0, 5}, {5, 10}};
  const float soft[] = {1.0f, 0.0f, 0.0f, 1.0f};
  // No attention: words still found, matrix all zero, no links.
  WordAlignment a = align_words(source, src, target, tgt, nullptr, 2, 2);
  CHECK(a.source_words.size() == 2);
  CHECK(a.matrix == std::vector<float>(4, 0.0f));
  CHECK(a.links.empty());
  CHECK(align_words(source, src, target, tgt, soft, 0, -3).links.empty());
  // Fewer spans than tokens, spans past the end or reversed, NaN and negative weights.
  const std::vector<Span> odd = {{3, 999}, {8, 2}};
  const float weird[] = {NAN, -1.0f, INFINITY, 0.5f};
  a = align_words(source, odd, target, {{0, 5}}, weird, 2, 2);
  CHECK(a.links.empty());  // the only usable weight (0.5) belongs to the reversed span
  a = align_words(source, src, target, {{0, 5}}, soft, 2, 2);
  CHECK(a.links == std::vector<std::pair<int, int>>{{0, 0}});
  // Empty sentences.
  a = align_words("", {}, "", {}, soft, 2, 2);
  CHECK(a.matrix.empty());
  CHECK(a.links.empty());
}

TEST_CASE("a target word inside another word's token still gets an alignment row") {
  // target "1." is one token covering two words ("1" and "."): both rows must carry its attention
  const std::string source = "number 1.";
  const std::string target = "1.";
  const std::vector<Span> src_spans = {{0, 6}, {6, 8}, {8, 9}, {9, 9}};  // "number" " 1" "." </s>
  const std::vector<Span> tgt_spans = {{0, 2}, {2, 2}};                  // "1." </s>
  const float soft[] = {0.1f, 0.6f, 0.2f, 0.1f,   // "1."
                        0.0f, 0.0f, 0.0f, 1.0f};  // </s>
  WordAlignment a = align_words(source, src_spans, target, tgt_spans, soft, 2, 4);
  REQUIRE(a.target_words.size() == 2);
  for (size_t w = 0; w < 2; ++w) {
    float sum = 0;
    for (size_t s = 0; s < a.source_words.size(); ++s) sum += a.matrix[w * a.source_words.size() + s];
    CHECK(sum == doctest::Approx(1.0f));
  }
  CHECK(a.links.size() == 2);
}

TEST_CASE("word_tokens: a word's own tokens, or the tokens over it when it owns none") {
  // "Hausboot ist 1." as pieces "▁Haus" "boot" "▁ist" "▁1." </s>
  const std::string target = "Hausboot ist 1.";
  const std::vector<Span> words = find_words(target);
  REQUIRE(words.size() == 4);  // Hausboot, ist, 1, .
  const std::vector<Span> spans = {{0, 4}, {4, 8}, {8, 12}, {12, 15}, {15, 15}};
  const auto tokens = word_tokens(words, spans, spans.size(), target.size());
  REQUIRE(tokens.size() == 4);
  CHECK(tokens[0] == std::vector<int>{0, 1});
  CHECK(tokens[1] == std::vector<int>{2});
  CHECK(tokens[2] == std::vector<int>{3});  // " 1." overlaps "1" most
  CHECK(tokens[3] == std::vector<int>{3});  // "." owns none: the token over it
  CHECK(word_tokens(words, spans, 2, target.size())[1].empty());  // only the first `count` spans
}

// ---------------------------------------------------------------------------------------------
// Pass-through of what the vocabulary cannot write (text/pass_through.h)

TEST_CASE("pass_through_unknown: the model's unknown piece takes the source run, spacing as in the source") {
  const int unk = 0;
  const std::string source = "a \xF0\x9F\x98\x80 b";  // "a 😀 b"
  const std::vector<Token> toks = {{5, "\xE2\x96\x81" "a", 0, 1}, {unk, "<unk>", 1, 6}, {6, "\xE2\x96\x81" "b", 6, 8}};
  CHECK(has_unknown(toks, unk));
  std::string target = "x \xE2\x81\x87  y";  // "x ⁇  y" as decode() spells it
  std::vector<std::pair<size_t, size_t>> spans = {{0, 1}, {1, 6}, {6, 8}};
  const std::vector<float> attention = {0.8f, 0.1f, 0.05f, 0.05f,  // [3 targets, 3 sources + eos]
                                        0.1f, 0.8f, 0.05f, 0.05f,  //
                                        0.05f, 0.1f, 0.8f, 0.05f};
  pass_through_unknown(source, toks, unk, {5, unk, 6}, attention, target, spans);
  CHECK(target == "x \xF0\x9F\x98\x80 y");
  CHECK(target.substr(spans[1].first, spans[1].second - spans[1].first) == " \xF0\x9F\x98\x80");
  CHECK(target.substr(spans[2].first, spans[2].second - spans[2].first) == " y");
}

TEST_CASE("pass_through_unknown: a run the model left out goes after its neighbour's translation") {
  const int unk = 0;
  const std::string source = "a \xF0\x9F\x98\x80 b";
  const std::vector<Token> toks = {{5, "\xE2\x96\x81" "a", 0, 1}, {unk, "<unk>", 1, 6}, {6, "\xE2\x96\x81" "b", 6, 8}};
  std::string target = "y x";  // the model wrote b's word first, then a's
  std::vector<std::pair<size_t, size_t>> spans = {{0, 1}, {1, 3}};
  const std::vector<float> attention = {0.1f, 0.0f, 0.9f, 0.0f,  // "y" looks at b
                                        0.9f, 0.0f, 0.1f, 0.0f};  // " x" looks at a
  std::string with_attention = target;
  auto s1 = spans;
  pass_through_unknown(source, toks, unk, {6, 7}, attention, with_attention, s1);
  CHECK(with_attention == "y x \xF0\x9F\x98\x80");  // after a's translation
  std::string fixed = "y x";
  auto s2 = spans;
  pass_through_unknown(source, toks, unk, {6, 7}, {}, fixed, s2, /*fixed_bytes=*/3);
  CHECK(fixed.rfind("y x", 0) == 0);  // a forced prefix stays as it is
  CHECK(fixed.find("\xF0\x9F\x98\x80") != std::string::npos);
  std::string none = "y x";
  auto s3 = spans;
  pass_through_unknown("a b", {{5, "\xE2\x96\x81" "a", 0, 1}, {6, "\xE2\x96\x81" "b", 1, 3}}, unk, {6, 7}, {}, none, s3);
  CHECK(none == "y x");  // nothing unknown: nothing changes
}

TEST_CASE("pass_through_unknown: a run the model left out goes after the word before it, not a lone space's") {
  // "The cake 🎂 was delicious." came out "Der Kuchen war 🎂 köstlich.": the tokenizer writes the
  // space before an unknown piece as a piece of its own, whose attention went anywhere
  const int unk = 0;
  const std::string source = "a \xF0\x9F\x8E\x82 b";
  const std::vector<Token> toks = {{5, "\xE2\x96\x81" "a", 0, 1}, {3, "\xE2\x96\x81", 1, 2}, {unk, "<unk>", 2, 6},
                                   {6, "\xE2\x96\x81" "b", 6, 8}};
  std::string target = "x y z";
  std::vector<std::pair<size_t, size_t>> spans = {{0, 1}, {1, 3}, {3, 5}};
  const std::vector<float> attention = {0.9f, 0.0f, 0.0f, 0.1f, 0.0f,   // "x" looks at a
                                        0.1f, 0.8f, 0.0f, 0.1f, 0.0f,   // " y" at the lone space
                                        0.0f, 0.1f, 0.0f, 0.9f, 0.0f};  // " z" at b
  pass_through_unknown(source, toks, unk, {5, 7, 6}, attention, target, spans);
  CHECK(target == "x \xF0\x9F\x8E\x82 y z");
}

TEST_CASE("pass_through_unknown never cuts inside a character (bytes 0x85 / 0xA0 are not spaces)") {
  const int unk = 0;
  const std::string source = "\xE4\xBD\xA0 b";  // "你 b": 你 ends with byte 0xA0
  const std::vector<Token> toks = {{unk, "<unk>", 0, 3}, {6, "\xE2\x96\x81" "b", 3, 5}};
  std::string target = "v\xC3\xA0\xC2\x85x";  // "và" + U+0085 + "x": bytes 0xA0 and 0x85 inside characters
  std::vector<std::pair<size_t, size_t>> spans = {{0, 7}};
  pass_through_unknown(source, toks, unk, {6}, {0.1f, 0.8f, 0.1f}, target, spans);
  CHECK(sanitize_utf8(target) == target);  // still valid UTF-8
  CHECK(target.find("\xE4\xBD\xA0") != std::string::npos);
}

TEST_CASE("pass_through_unknown leaves a letter inside a word to the model") {
  const int unk = 0;
  const std::string source = "Bar\xC3\xA7" "a";  // "Barça": ç unknown, between letters
  const std::vector<Token> toks = {{5, "\xE2\x96\x81" "Bar", 0, 3}, {unk, "<unk>", 3, 5}, {6, "a", 5, 6}};
  std::string target = "Bara";
  std::vector<std::pair<size_t, size_t>> spans = {{0, 3}, {3, 4}};
  pass_through_unknown(source, toks, unk, {5, 6}, {0.9f, 0.05f, 0.05f, 0.0f, 0.1f, 0.1f, 0.8f, 0.0f}, target, spans);
  CHECK(target == "Bara");
}

TEST_CASE("pass_through_unknown: a letter the vocabulary lacks, copied inside its word, keeps the word whole") {
  const int unk = 0;
  const std::string source = "Erdo\xC4\x9F" "an left";  // "Erdoğan left": ğ unknown, between letters
  const std::vector<Token> toks = {{5, "\xE2\x96\x81" "Erdo", 0, 4}, {unk, "<unk>", 4, 6}, {6, "an", 6, 8},
                                   {7, "\xE2\x96\x81" "left", 8, 13}};
  // the model wrote "▁Erdo" "<unk>" "an" "▁ging"; decode() spells the unknown piece " ⁇ ", spaces in its span
  std::string target = "Erdo \xE2\x81\x87 an ging";
  std::vector<std::pair<size_t, size_t>> spans = {{0, 4}, {4, 9}, {9, 11}, {11, 16}};
  const std::vector<float> attention = {0.9f, 0.05f, 0.05f, 0.0f, 0.0f,  // [4 targets, 4 sources + eos]
                                        0.05f, 0.9f, 0.05f, 0.0f, 0.0f,  //
                                        0.05f, 0.05f, 0.9f, 0.0f, 0.0f,  //
                                        0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
  pass_through_unknown(source, toks, unk, {5, unk, 6, 7}, attention, target, spans);
  CHECK(target == "Erdo\xC4\x9F" "an ging");  // not "Erdoğ an ging": the " ⁇ " spaces are not the source's
  CHECK(target.substr(spans[2].first, spans[2].second - spans[2].first) == "an");
}
