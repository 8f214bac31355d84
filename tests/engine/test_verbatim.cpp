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
  CHECK(found("a@b.c and x@y.123 and x @ example and www. and http://").empty());
  // not addresses, but a domain's name is copied as a name (below)
  CHECK(found("swww.example.com and @example.com") == V{"swww.example.com", "@example.com"});  // (a mention)
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

TEST_CASE("verbatim_spans: hashtags and mentions") {
  using V = std::vector<std::string>;
  CHECK(found("Check out #travel and #Berlin_2024, @anna and @max.mustermann!") ==
        V{"#travel", "#Berlin_2024", "@anna", "@max.mustermann"});
  CHECK(found("(#MeToo) „@Bahn“") == V{"#MeToo", "@Bahn"});
  // a hashtag's letters of any script, whole
  CHECK(found("Besuchen Sie #M\xC3\xBCnchen, #caf\xC3\xA9 und #\xC3\x96ko!") == V{"#M\xC3\xBCnchen", "#caf\xC3\xA9", "#\xC3\x96ko"});
  // not handles: a number, inside a word, an e-mail address, a lone sign
  CHECK(found("Platz #1, C# and F#, x#y, # and @ 5") .empty());
  CHECK(found("Mail anna@example.org") == V{"anna@example.org"});
}

TEST_CASE("verbatim_spans: emoticons standing alone") {
  using V = std::vector<std::string>;
  CHECK(found("Great news :-) we won ;) See you :D") == V{":-)", ";)", ":D"});
  CHECK(found("Sad :( but fine :))) and <3 ^_^ xD, =P!") == V{":(", ":)))", "<3", "^_^", "xD", "=P"});
  // not inside a word, a ratio, a time or a sum, nor before a letter
  CHECK(found("Note:D ratio 3:2 at 10:30 a =3 :Debug (a):)").empty());
}

TEST_CASE("verbatim_spans: names from code, file names and paths") {
  using V = std::vector<std::string>;
  CHECK(found("Edit config/settings.yaml and set max_connections to 100.") == V{"config/settings.yaml", "max_connections"});
  CHECK(found("Call document.getElementById() or child_process.fork().") == V{"document.getElementById", "child_process.fork"});
  CHECK(found("The value of maxRetries defaults to 3; see parentURL.") == V{"maxRetries", "parentURL"});
  CHECK(found("Open report.docx, then package.json and the package-lock.json file.") ==
        V{"report.docx", "package.json", "package-lock.json"});
  CHECK(found("Set NODE_ENV and $HOME, or Acquire::http::Proxy.") == V{"NODE_ENV", "$HOME", "Acquire::http::Proxy"});
  CHECK(found("Look in /etc/apt/sources.list.d/ and ~/.config/app or C:\\Users\\Public.") ==
        V{"/etc/apt/sources.list.d/", "~/.config/app", "C:\\Users\\Public"});
  // a Windows path with a space in a folder's name is one (the model wrote "C:\\Program Dateis\\app.exe")
  CHECK(found("Open C:\\Program Files\\App\\app.exe or C:\\My Documents\\a b\\x.txt now.") ==
        V{"C:\\Program Files\\App\\app.exe", "C:\\My Documents\\a b\\x.txt"});
  CHECK(found("Look in C:\\Users or the Files folder.") == V{"C:\\Users"});
  CHECK(found("Compare version1/prog.c with bar-foo_1.0-2_i386.deb (example.com).") ==
        V{"version1/prog.c", "bar-foo_1.0-2_i386.deb", "example.com"});
  // a German compound keeps its own word: only the name is copied
  CHECK(found("Die diff.gz-Datei und die ftp_proxy-Umgebungsvariable") == V{"diff.gz", "ftp_proxy"});
  CHECK(found("#PRS_ORG#-Konto") == V{"#PRS_ORG#"});
  // Markdown's italics around a name are not the name's; a Python name keeps its underscores
  CHECK(found("relative to _parentURL_ and __init__ and _a_b_") == V{"parentURL", "__init__", "a_b"});
  // words, abbreviations, names and numbers are the model's
  CHECK(found("z.B. so, e.g. this, i.e. that, U.S. and Ph.D. students at 3.11 p.m.").empty());
  CHECK(found("Er war verlassen hatte.x").empty());  // a stray letter after a sentence, not a file
  CHECK(found("I bought an iPhone on eBay for 3 kWh, from McDonald's and YouTube.").empty());
  CHECK(found("Node.js, Amazon.com and Kiwi.com are names the model knows").empty());
  CHECK(found("Die LehrerInnen, Lehrer_innen und Schüler_in; and/or km/h; 10.5kg; Python 3.11.").empty());
  CHECK(found("apt-get and --save-dev or -rf are left to the model").empty());
  // a name that ends in a number ("Windows11" came out "Fenstern11", "Check24" "check24")
  CHECK(found("The password is Sunflower2024, on Windows11 via Check24 and Sonnenblume2024.") ==
        V{"Sunflower2024", "Windows11", "Check24", "Sonnenblume2024"});
  CHECK(found("MP3, G7, H2O, A4, 3D, 2nd, COVID-19 and 10km are the model's").empty());
  // hidden files and folders ("source .venv/bin/activate" came out "Quelle .venv/bin/aktivieren"), a
  // commit's hash ("a1b2c3d" came out "ein1b2c3d"); not ".NET", nor "-Dateien" after a hidden file
  CHECK(found("Run source .venv/bin/activate, edit .bashrc and .profile-Dateien, install .NET.") ==
        V{".venv/bin/activate", ".bashrc", ".profile"});
  CHECK(found("Die Datei „Bericht (final).docx“ wird gespeichert.").empty());
  // a file or folder in the home folder ("... config.toml statt ~/.toolrc." came out "... config.toml/.toolrc instead of ~/.")
  CHECK(found("Unter ~/.config/tool/config.toml statt ~/.toolrc, ~/Downloads oder ~/ und ~5 km.") ==
        V{"~/.config/tool/config.toml", "~/.toolrc", "~/Downloads"});  // a file name's ending, after a bracket
  CHECK(found("Commit a1b2c3d fixed 9fceb02d0ae598e95dc970b74767f19372d61af8, not deadbeef, 1234567 or a380.") ==
        V{"a1b2c3d", "9fceb02d0ae598e95dc970b74767f19372d61af8"});
  // an address or code span holds its names
  CHECK(found("See https://example.com/my_page.html and `a.b_c`.") == V{"https://example.com/my_page.html", "`a.b_c`"});
}

TEST_CASE("variant_codes: an abbreviation in capitals with a one-letter variant after a hyphen") {
  using V = std::vector<std::string>;
  const auto codes = [](std::string_view text, std::vector<std::pair<size_t, size_t>> taken = {}) {
    V out;
    for (auto [b, e] : nmt::variant_codes(text, taken)) out.emplace_back(text.substr(b, e - b));
    return out;
  };
  // de->en: "Mein USB-C Kabel ist kaputt." came out "My USB cable is broken.", "DVD-R" "DVD r"
  CHECK(codes("Mein USB-C Kabel ist kaputt.") == V{"USB-C"});
  CHECK(codes("Schließen Sie das USB-C-Kabel an, oder brennen Sie eine DVD-R.") == V{"USB-C", "DVD-R"});
  CHECK(codes("Eine PCI-E Karte") == V{"PCI-E"});
  CHECK(codes("Siehe https://x.org/USB-C und USB-C.", {{6, 25}}) == V{"USB-C"});  // not inside a span taken
  // a word after the hyphen, one capital before it, digits, a longer code
  CHECK(codes("LOG-IN with an X-Ray, a COVID-19 test, a USB-CD or 3-D glasses.") == V{});
  CHECK(found("Mein USB-C Kabel ist kaputt.").empty());  // not a verbatim span: the verbatim pass masks it in German only
}

TEST_CASE("verbatim_spans: sorted spans that never overlap, whatever the text (fuzz_text found [0,6) and [0,30))") {
  using V = std::vector<std::string>;
  // the parts before a name that ends in a number are taken back over the hyphens, up to a name
  // already found: one span, not two that overlap
  CHECK(found("ext000-005000-wwwwwwwwwww00012") == V{"ext000-005000-wwwwwwwwwww00012"});
  for (const std::string text : {"ext000-005000-wwwwwwwwwww00012", "a_b-c_d-e1-f_g", "x_y-ab12-cd-ef34 and a1-b_c-d2",
                                 "https://a.b/c_d-x_y `q_r`-s_t #u_v-w_x www.y_z-ab1"}) {
    const auto spans = verbatim_spans(text);
    for (size_t i = 0; i < spans.size(); ++i) {
      CHECK(spans[i].first < spans[i].second);
      CHECK(spans[i].second <= text.size());
      if (i > 0) CHECK(spans[i - 1].second <= spans[i].first);
    }
  }
}

TEST_CASE("verbatim_spans: fullwidth and mathematical letters are copied, not folded to plain ones") {
  using V = std::vector<std::string>;
  CHECK(found("Our company \xEF\xBC\xA1\xEF\xBC\xA2\xEF\xBC\xA3 makes cars.") == V{"\xEF\xBC\xA1\xEF\xBC\xA2\xEF\xBC\xA3"});  // ＡＢＣ
  CHECK(found("Let \xF0\x9D\x92\xB3 be a set.") == V{"\xF0\x9D\x92\xB3"});  // 𝒳
  // superscripts, subscripts, fractions and signs folded to letters ("mc2", "1 2 cup", "MarkeTM")
  CHECK(found("E = mc\xC2\xB2, H\xE2\x82\x82O, \xC2\xBD cup, brand\xE2\x84\xA2, \xE2\x84\x96 5") ==
        V{"\xC2\xB2", "\xE2\x82\x82", "\xC2\xBD", "\xE2\x84\xA2", "\xE2\x84\x96"});
  CHECK(found("50 m2, H2O, 1/2 cup, TM").empty());  // (written plainly: the model's)
  CHECK(found("Room \xEF\xBC\x91\xEF\xBC\x92 and \xEF\xBC\x81").size() == 1);  // １２ copied, fullwidth "！" is punctuation
  CHECK(found("Plain ABC, caf\xC3\xA9 and \xE6\x97\xA5\xE6\x9C\xAC are not styled").empty());
}

TEST_CASE("fenced_code_blocks: from a fence line to the same fence, closed blocks only") {
  const std::string text = "Intro.\n```js\nnpm install\n\nnpm test\n```\nThen.\n   ~~~\nx\n   ~~~\n```\nstray";
  std::vector<std::string> blocks;
  for (auto [b, e] : fenced_code_blocks(text)) blocks.push_back(text.substr(b, e - b));
  CHECK(blocks == std::vector<std::string>{"```js\nnpm install\n\nnpm test\n```\n", "   ~~~\nx\n   ~~~\n"});
  CHECK(fenced_code_blocks("``` open\nno close").empty());
  CHECK(fenced_code_blocks("    ```\nindented four: not a fence\n    ```").empty());
  CHECK(fenced_code_blocks("").empty());
}

TEST_CASE("indented_code_blocks: CommonMark's indented blocks that read as code") {
  const auto blocks = [](std::string_view text) {
    std::vector<std::string> out;
    for (auto [b, e] : indented_code_blocks(text)) out.emplace_back(text.substr(b, e - b));
    return out;
  };
  using Strings = std::vector<std::string>;
  // after a line that ends in ":", a blank line and four spaces or a tab: code
  CHECK(blocks("Run the tests:\n\n    npm test\n    npm run lint\n\nThen push.") ==
        Strings{"    npm test\n    npm run lint"});
  CHECK(blocks("Build it:\r\n\r\n\tmake install\r\n") == Strings{"\tmake install\r"});
  // a blank line inside the block is the block's; code shows itself without a colon before it
  CHECK(blocks("Example\n\n    def greet(name):\n        \"\"\"Say hello.\"\"\"\n\n    greet(\"World\")\nDone.") ==
        Strings{"    def greet(name):\n        \"\"\"Say hello.\"\"\"\n\n    greet(\"World\")"});
  CHECK(blocks("# Usage\n    $ tool --verbose") == Strings{"    $ tool --verbose"});  // after a heading
  // prose indented (a letter, a poem, a quotation) stays text, after a colon too
  CHECK(blocks("Dear John,\n\n    Thank you for your letter. I was glad.\n    We will visit you.").empty());
  CHECK(blocks("The poem reads:\n\n    The woods are lovely, dark and deep,\n    But I have promises to keep,").empty());
  CHECK(blocks("She wrote:\n\n    \"I will come tomorrow,\" she said.").empty());
  CHECK(blocks("\tLiebe Kolleg(inn)en,\n\n\tdas Treffen ist morgen.").empty());
  CHECK(blocks("Then:\n\n    thanks for the update, see you").size() == 1);  // (read as a command after a colon)
  CHECK(blocks("Install it with\n\n    npm install").empty());  // no colon, nothing that shows code
  // an indented line cannot interrupt a paragraph; a list item's continuation is no code, unless
  // it is indented four more than the item's text
  CHECK(blocks("Run this:\n    npm test").empty());
  CHECK(blocks("- Install:\n\n    npm install --save\n\n- Test:\n\n      npm test --watch") == Strings{"      npm test --watch"});
  CHECK(blocks("1. Open it:\n\n    open(file)\n\nAfter the list:\n\n    close(file)") == Strings{"    close(file)"});
  // inside a fenced block nothing is an indented block
  CHECK(blocks("```\n\n    f(x)\n```").empty());
  CHECK(blocks("").empty());
  CHECK(blocks("    ").empty());
}

TEST_CASE("translate(): an indented code block comes back as it is (fixture model)") {
  auto loaded = Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE(loaded);
  const std::string code = "    npm install --save-dev\n    the house is small\n";
  auto r = loaded.value()->translate("The house is small:\n\n" + code + "\nThe house is small.", TranslateOptions{});
  REQUIRE(r);
  CHECK(r->text.find(code) != std::string::npos);
  size_t copied = 0;
  for (const SentenceTranslation& s : r->sentences) copied += s.copied;
  CHECK(copied == 2);
}

TEST_CASE("translate(): a fenced code block comes back as it is (fixture model)") {
  auto loaded = Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE(loaded);
  const std::string code = "```\nnpm install --save-dev\nThe house is small.\n```";
  auto r = loaded.value()->translate("The house is small.\n" + code + "\nThe house is small.", TranslateOptions{});
  REQUIRE(r);
  CHECK(r->text.find(code) != std::string::npos);
  for (const SentenceTranslation& s : r->sentences)
    if (s.source_begin > 20 && s.source_begin < 20 + code.size()) CHECK(s.copied);
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
      [] { std::string s; while (s.size() < 100000) s += "aa-"; return s + "b.js"; }(),
      [] { std::string s; while (s.size() < 100000) s += "ab.cd-"; return s; }(),
      [] { std::string s; while (s.size() < 100000) s += "a_b "; return s; }(),
      [] { std::string s; while (s.size() < 100000) s += "#a x@y.de @b "; return s; }(),
      "/" + [] { std::string s; while (s.size() < 100000) s += "a-/"; return s; }(),
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
