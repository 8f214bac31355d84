// Tests of the translation memory (engine/text/memory.h): the key a sentence is looked up by (the same
// cases as tests/weights/test_memory.py, whose memory_key must agree), final marks, the table.
#include <doctest/doctest.h>

#include <string>

#include "text/memory.h"

using namespace nmt;

TEST_CASE("memory_key: case, spacing, curly quotes and final marks do not count") {
  CHECK(memory_key("Tschüss, bis morgen!") == "tschüss bis morgen");
  CHECK(memory_key("  TSCHÜSS,   bis\tmorgen ?! ") == "tschüss bis morgen");
  CHECK(memory_key("Hello, how are you?") == memory_key("hello how are you"));
  CHECK(memory_key("a ,b") == "a b");
  CHECK(memory_key("Ärger über Öl…") == "ärger über öl");
  CHECK(memory_key("I\xE2\x80\x99m fine.") == "i'm fine");
  CHECK(memory_key("\xE2\x80\x9EJa\xE2\x80\x9C, sagte er.") == "\"ja\" sagte er");
  CHECK(memory_key("Really???") == "really");
  CHECK(memory_key("3 \xC3\x97 4") == "3 \xC3\x97 4");  // U+00D7 is no letter
  CHECK(memory_key("...") == "");
  CHECK(memory_key("") == "");
  CHECK(memory_key("ÉCOLE") == "école");
  CHECK(memory_key("ß") == "ß");
}

TEST_CASE("with_final_marks: the translation ends as the source ends") {
  CHECK(with_final_marks("Goodbye till tomorrow.", "Tschüss, bis morgen!") == "Goodbye till tomorrow!");
  CHECK(with_final_marks("Really?", "Wirklich???") == "Really???");
  CHECK(with_final_marks("Goodbye.", "tschüss") == "Goodbye");
  CHECK(with_final_marks("How are you?", "wie geht's") == "How are you?");
  CHECK(with_final_marks("Stop!", "halt") == "Stop!");
  CHECK(with_final_marks("Er sagte: \xE2\x80\x9EJa.\xE2\x80\x9C", "He said: \"Yes.\"!") == "Er sagte: \xE2\x80\x9EJa.\xE2\x80\x9C");
  CHECK(with_final_marks("Warte\xE2\x80\xA6", "Wait.") == "Warte.");
}

TEST_CASE("TranslationMemory: lookup by key, any order of lines, clear errors") {
  auto m = TranslationMemory::from_table("tsch\xC3\xBCss bis morgen\tGoodbye till tomorrow.\nalles gute zum geburtstag\tHappy birthday!\n");
  REQUIRE(m);
  CHECK(m->size() == 2);
  CHECK(m->find("Tschüss, bis morgen!") == "Goodbye till tomorrow.");
  CHECK(m->find("ALLES GUTE ZUM GEBURTSTAG") == "Happy birthday!");
  CHECK(m->find("tschüss bis morgen") == "Goodbye till tomorrow.");
  CHECK(m->find("Alles Gute zum Geburtstag, Tom!").empty());
  CHECK(m->find("").empty());
  CHECK(m->find("!!!").empty());
  CHECK(TranslationMemory::from_table("")->size() == 0);
  CHECK(TranslationMemory::from_table("\n\n")->size() == 0);
  CHECK(!TranslationMemory::from_table("no tab here\n"));
  CHECK(!TranslationMemory::from_table("a\tb\tc\n"));
  CHECK(!TranslationMemory::from_table("a\t\n"));
  const auto empty = TranslationMemory{};
  CHECK(empty.find("Hello").empty());
}
