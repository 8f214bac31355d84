// Tests of a sentence's final "!!" / "???" kept as the source has it (engine/text/final_marks.h).
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/final_marks.h"

using namespace nmt;

namespace {

std::string edited(const std::string& source, std::string target, size_t fixed = 0) {
  for (const TextEdit& e : final_marks(source, target, fixed)) target.replace(e.at, e.length, e.text);
  return target;
}

}  // namespace

TEST_CASE("final_marks: two or more ! and ? at the end are the source's") {
  CHECK(edited("I love you!!", "Ich liebe dich!") == "Ich liebe dich!!");
  CHECK(edited("Nein!!!!!", "No!!!!") == "No!!!!!");
  CHECK(edited("Really???", "Wirklich?") == "Wirklich???");
  CHECK(edited("What?!", "Was?") == "Was?!");
  CHECK(edited("Stop it!!", "Hör auf.") == "Hör auf!!");
  // before closing quotes and brackets, in both
  CHECK(edited("He shouted \"Stop!!\"", "Er schrie „Stopp!“") == "Er schrie „Stopp!!“");
  CHECK(edited("(Really?" "?)", "(Wirklich?)") == "(Wirklich?" "?)"); // (split: "??)" is a trigraph)
  CHECK(edited("Toll!! ", "Great! ") == "Great!! ");
  // before an emoji or a Markdown closing mark (an emoji after the marks was left to the model
  // until session 22: "I love it!!! 😍" -> "Ich liebe es!! 😍")
  CHECK(edited("I love it!!! 😍", "Ich liebe es!! 😍") == "Ich liebe es!!! 😍");
  CHECK(edited("Great!! 😀", "Toll!") == "Toll!!");
  CHECK(edited("Great!! 👍🏽❤️", "Toll! 👍🏽❤️") == "Toll!! 👍🏽❤️");
  CHECK(edited("**Wow!!!**", "**Wow!**") == "**Wow!!!**");
}

TEST_CASE("final_marks: everything else is the model's") {
  CHECK(edited("Come here!", "Komm her.") == "Komm her.");   // one mark
  CHECK(edited("Wait for it...", "Warte!") == "Warte!");     // dots
  CHECK(edited("Really?.", "Wirklich?") == "Wirklich?");
  CHECK(edited("I love you!!", "Ich liebe dich") == "Ich liebe dich");  // no mark in the target
  CHECK(edited("I love you!!", "Ich liebe dich!!") == "Ich liebe dich!!");
  CHECK(edited("Wow!!", "Wow!", 4) == "Wow!");                // inside a forced prefix
  CHECK(edited("", "") == "");
  CHECK(edited("!!", "") == "");
  CHECK(edited("Ja!!", "Ja!!!").size() == 4);
}

TEST_CASE("final_mark_after_copy: the source's final mark after a copy the target ends on") {
  using Spans = std::vector<std::pair<size_t, size_t>>;
  const auto after_copy = [](std::string_view source, const Spans& source_spans, std::string target, const Spans& copies,
                             size_t fixed = 0) {
    for (const TextEdit& e : final_mark_after_copy(source, source_spans, target, copies, fixed)) target.insert(e.at, e.text);
    return target;
  };
  // "Mit `npm test` speichern Sie Ihre Arbeit." -> "Save your work with `npm test`"
  const std::string_view source = "Mit `npm test` speichern Sie Ihre Arbeit.";
  const Spans code = {{4, 14}};
  CHECK(after_copy(source, code, "Save your work with `npm test`", {{20, 30}}) == "Save your work with `npm test`.");
  CHECK(after_copy("Mail a@b.de!", {{5, 11}}, "Schreib a@b.de ", {{8, 14}}) == "Schreib a@b.de! ");
  CHECK(after_copy("Wait for `make`...", {{9, 15}}, "Warte auf `make`", {{10, 16}}) == "Warte auf `make`...");
  // a target that ends on a word or a mark of its own, a source without a final mark, a mark the
  // source's address holds, a copy inside a forced prefix: nothing
  CHECK(after_copy(source, code, "Save `npm test` work.", {{5, 15}}) == "Save `npm test` work.");
  CHECK(after_copy("Run `npm test`", {{4, 14}}, "Führe `npm test`", {{6, 16}}) == "Führe `npm test`");
  CHECK(after_copy("Go x.de/?", {{3, 9}}, "Geh x.de/?", {{4, 10}}) == "Geh x.de/?");
  CHECK(after_copy(source, code, "Save your work with `npm test`", {{20, 30}}, 25) == "Save your work with `npm test`");
  // a copy that ends in the mark already: a number copied as the German ordinal "3." for "3rd."
  CHECK(after_copy("She came 3rd.", {}, "Sie kam 3.", {{8, 10}}) == "Sie kam 3.");
}

TEST_CASE("final_marks: an ordinal's dot and the full stop are one dot") {
  CHECK(edited("She came 3rd.", "Sie kam 3..") == "Sie kam 3.");
  CHECK(edited("He said \"I came 2nd.\"", "Er sagte „Ich kam 2..“") == "Er sagte „Ich kam 2.“");
  CHECK(edited("She came 3rd.", "Sie kam 3.") == "Sie kam 3.");          // one already
  CHECK(edited("Count to 3...", "Zähle bis 3...") == "Zähle bis 3...");  // an ellipsis stays
  CHECK(edited("She came third..", "Sie kam 3..") == "Sie kam 3..");     // the source's own two
  CHECK(edited("Wait.", "Warte..") == "Warte..");                        // not after a digit
  CHECK(edited("Page 3.", "Seite 3..", 9) == "Seite 3..");                // inside a forced prefix
}
