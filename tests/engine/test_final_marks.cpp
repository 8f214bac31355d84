// Tests of a sentence's final "!!" / "???" kept as the source has it (engine/text/final_marks.h).
#include <doctest/doctest.h>

#include <string>

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
  CHECK(edited("(Really??)", "(Wirklich?)") == "(Wirklich??)");
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
