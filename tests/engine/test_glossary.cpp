// Tests of how the user's glossary finds its terms in a sentence (engine/text/glossary.h): the
// ways one word is written (typographic apostrophes, no-break spaces, accents composed or not,
// ß in capitals), abbreviations in capitals, the term the sentence writes exactly, and words
// joined by a hyphen.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "text/glossary.h"

namespace {

// "found text=target term" for each term found in `sentence`, in order.
std::vector<std::string> terms(std::string_view sentence, const nmt::Glossary& glossary) {
  std::vector<std::string> out;
  for (const nmt::TextEdit& t : nmt::find_terms(sentence, glossary, {}))
    out.push_back(std::string(sentence.substr(t.at, t.length)) + "=" + t.text);
  return out;
}

using List = std::vector<std::string>;

}  // namespace

TEST_CASE("glossary: a term is found however the sentence writes its characters") {
  // a typographic apostrophe for the term's ' (and the other way round)
  CHECK(terms("Don\u2019t touch the customer\u2019s data.", {{"customer's", "Kundenkonto"}, {"don't", "nicht"}}) ==
        List{"Don\u2019t=nicht", "customer\u2019s=Kundenkonto"});
  CHECK(terms("the customer's data", {{"customer\u2019s", "Kundenkonto"}}) == List{"customer's=Kundenkonto"});
  // a no-break space, or two spaces, between the words of a term
  CHECK(terms("Use Acme\u00A0Cloud now, or Acme  Cloud.", {{"Acme Cloud", "Zeta Sky"}}) ==
        List{"Acme\u00A0Cloud=Zeta Sky", "Acme  Cloud=Zeta Sky"});
  // an accent written as its own character after the letter (NFD), in the sentence or the term
  CHECK(terms("The cafe\u0301 is open.", {{"caf\u00E9", "Kaffeehaus"}}) == List{"cafe\u0301=Kaffeehaus"});
  CHECK(terms("The CAF\u00C9 is open.", {{"cafe\u0301", "Kaffeehaus"}}) == List{"CAF\u00C9=Kaffeehaus"});
  CHECK(terms("Die Ma\u00DFe und die Masse", {{"Ma\u00DFe", "dimensions"}}) == List{"Ma\u00DFe=dimensions"});
  // ß in capitals: SS or ẞ ("DIE STRASSE" was "THE STRAIT"); "Strasse" in small letters is not found
  // ("Masse" is not "Maße")
  CHECK(terms("DIE STRASSE IST LANG.", {{"Stra\u00DFe", "street"}}) == List{"STRASSE=street"});
  CHECK(terms("DIE STRA\u1E9EE IST LANG.", {{"Stra\u00DFe", "street"}}) == List{"STRA\u1E9EE=street"});
  CHECK(terms("Die Strasse ist lang.", {{"Stra\u00DFe", "street"}}).empty());
  CHECK(terms("Die MASSE", {{"Ma\u00DFe", "dimensions"}}) == List{"MASSE=dimensions"});
  // a typographic hyphen for the term's -
  CHECK(terms("Send an e\u2011mail.", {{"e-mail", "E-Mail"}}) == List{"e\u2011mail=E-Mail"});
  // a soft hyphen, a zero-width space or a word joiner inside the word (the model reads the word
  // whole: text/format_characters.h), also right after it; not one that stands between two words
  CHECK(terms("Pay the in\u00ADvoice.", {{"invoice", "Rechnung"}}) == List{"in\u00ADvoice=Rechnung"});
  CHECK(terms("Pay the in\u200Bvoi\u2060ce\u00AD now.", {{"invoice", "Rechnung"}}) ==
        List{"in\u200Bvoi\u2060ce\u00AD=Rechnung"});
  CHECK(terms("Use Acme\u00ADCloud now.", {{"Acme Cloud", "Zeta Sky"}}).empty());
  CHECK(terms("Pay the invoice\u200B.", {{"invoice", "Rechnung"}}) == List{"invoice=Rechnung"});
  // still whole words: the accent that makes another letter, a letter after the term
  CHECK(terms("The cafes are open.", {{"caf\u00E9", "Kaffeehaus"}}).empty());
  CHECK(terms("The cafe is open.", {{"caf\u00E9", "Kaffeehaus"}}).empty());
  CHECK(terms("The cafe\u0301s are open.", {{"caf\u00E9", "Kaffeehaus"}}).empty());
}

TEST_CASE("glossary: a word the term writes in capitals is found only in capitals") {
  const nmt::Glossary glossary = {{"IT", "IT-Abteilung"}, {"US", "USA"}, {"invoice", "Rechnung"}};
  // "Is it ready? Contact us." came out "Ist IT-Abteilung bereit? Kontakt USA."
  CHECK(terms("Is it ready? Contact us.", glossary).empty());
  CHECK(terms("The IT team in the US is here.", glossary) == List{"IT=IT-Abteilung", "US=USA"});
  CHECK(terms("IS IT READY?", glossary) == List{"IT=IT-Abteilung"});
  // a term in small letters, or in Title Case, is found in any letter case
  CHECK(terms("INVOICE: the Invoice, the invoice", glossary) ==
        List{"INVOICE=Rechnung", "Invoice=Rechnung", "invoice=Rechnung"});
  CHECK(terms("acme cloud and ACME CLOUD", {{"Acme Cloud", "Zeta Sky"}}) == List{"acme cloud=Zeta Sky", "ACME CLOUD=Zeta Sky"});
  // a word of one capital, or of capitals and small letters, is no abbreviation
  CHECK(terms("r&d and iphone", {{"R&D", "F&E"}, {"iPhone", "iPhone"}}) == List{"r&d=F&E", "iphone=iPhone"});
  CHECK(terms("covid-19 and COVID-19", {{"COVID-19", "COVID-19"}}) == List{"COVID-19=COVID-19"});
}

TEST_CASE("glossary: of two terms that differ in letter case, the one the sentence writes wins") {
  const nmt::Glossary glossary = {{"apple", "Apfel"}, {"Apple", "Apple"}};
  CHECK(terms("Apple sells an apple.", glossary) == List{"Apple=Apple", "apple=Apfel"});
  CHECK(terms("APPLE", glossary) == List{"APPLE=Apfel"});  // (neither: the glossary's order)
  // the same term twice: the first
  CHECK(terms("the invoice", {{"invoice", "Rechnung"}, {"invoice", "Faktura"}}) == List{"invoice=Rechnung"});
}

TEST_CASE("glossary: a word joined on after a hyphen is no term") {
  // "Die Basketball-Saison beginnt." came out "The basketballseason begins."; "Self-driving cars"
  // "Self-Fahren Autos", "e-mail" "E-Post"
  const nmt::Glossary glossary = {{"Saison", "season"}, {"driving", "Fahren"}, {"mail", "Post"}, {"Acme Cloud", "Zeta Sky"}};
  CHECK(terms("Die Basketball-Saison beginnt.", glossary).empty());
  CHECK(terms("Self-driving cars, e-mail, e\u2011mail", glossary).empty());
  // the word before the hyphen is one ("Acme Cloud-Dienste": "Zeta Sky services"), and so is a
  // term after a dash between spaces
  CHECK(terms("Die Acme Cloud-Dienste sind schnell.", glossary) == List{"Acme Cloud=Zeta Sky"});
  CHECK(terms("Die Pause - Saison ist vorbei; -Saison", glossary) == List{"Saison=season", "Saison=season"});
}

TEST_CASE("glossary: the word of a gender form is no term") {
  // "Alle Mitarbeiter*innen sind da." came out "All employees* inside.", "Der/die Kunde/in zahlt."
  // "The client/the /in is paying."
  const nmt::Glossary glossary = {{"Mitarbeiter", "employees"}, {"Kunde", "client"}};
  for (const char* sentence : {"Alle Mitarbeiter*innen sind da.", "Alle Mitarbeiter:innen", "Alle Mitarbeiter_innen",
                               "Alle Mitarbeiter/-innen", "Der/die Kunde/in zahlt."})
    CHECK_MESSAGE(terms(sentence, glossary).empty(), sentence);
  CHECK(terms("Alle Mitarbeiter sind da: Mitarbeiter/Kunde", glossary) ==
        List{"Mitarbeiter=employees", "Mitarbeiter=employees", "Kunde=client"});
  CHECK(terms("Alle Mitarbeiter*innen", {{"Mitarbeiter*innen", "staff"}}) == List{"Mitarbeiter*innen=staff"});
}

TEST_CASE("glossary: an emoji term is not found inside a longer emoji") {
  // "I give it a 👍🏽 today." with { "👍": "Daumen hoch" } came out "Ich gebe es heute Daumen hoch."
  // (the skin tone lost)
  const nmt::Glossary glossary = {{"\U0001F44D", "Daumen hoch"}, {"\U0001F469", "Frau"}};
  CHECK(terms("I give it a \U0001F44D\U0001F3FD today.", glossary).empty());
  CHECK(terms("A \U0001F44D\uFE0F and a \U0001F468\u200D\U0001F469\u200D\U0001F467.", glossary).empty());
  CHECK(terms("I give it a \U0001F44D today, \U0001F44D!", glossary) == List{"\U0001F44D=Daumen hoch", "\U0001F44D=Daumen hoch"});
  CHECK(terms("\U0001F44D\U0001F3FD", {{"\U0001F44D\U0001F3FD", "Daumen hoch"}}) == List{"\U0001F44D\U0001F3FD=Daumen hoch"});
}

TEST_CASE("glossary: the terms folded once find in each sentence what the glossary finds") {
  // (find_terms keeps the last glossary's index: a changed glossary must be read again)
  const nmt::Glossary first = {{"invoice", "Rechnung"}, {"Acme Cloud", "Zeta Sky"}};
  const nmt::Glossary second = {{"invoice", "Faktura"}};
  CHECK(terms("Pay the invoice on Acme Cloud.", first) == List{"invoice=Rechnung", "Acme Cloud=Zeta Sky"});
  CHECK(terms("Pay the invoice on Acme Cloud.", second) == List{"invoice=Faktura"});
  CHECK(terms("Pay the invoice on Acme Cloud.", {}).empty());
  const nmt::GlossaryIndex index(first);
  for (const char* sentence : {"Pay the invoice.", "ACME CLOUD and acme cloud", "no term here", "invoices"}) {
    std::vector<std::string> found;
    for (const nmt::TextEdit& t : index.find(sentence, {})) found.push_back(std::string(sentence).substr(t.at, t.length) + "=" + t.text);
    CHECK_MESSAGE(found == terms(sentence, first), sentence);
  }
  // a term at a place where a shorter one starts too, and ß matched by "SS" next to "ss"
  const nmt::Glossary nested = {{"Acme", "A"}, {"Acme Cloud", "B"}, {"Acme Cloud Pro", "C"}, {"Stra\u00DFe", "street"}, {"STRASSEN", "streets"}};
  CHECK(terms("Acme Cloud Pro, Acme Cloud Prox, Acme", nested) == List{"Acme Cloud Pro=C", "Acme Cloud=B", "Acme=A"});
  CHECK(terms("DIE STRASSE, DIE STRASSEN", nested) == List{"STRASSE=street", "STRASSEN=streets"});
}

TEST_CASE("glossary: every match of a term repeated many times is found") {
  // (each match was checked against every one taken before it: 512 KB of one term took 12 s)
  std::string sentence;
  for (int i = 0; i < 20000; ++i) sentence += "invoice ";
  const std::vector<nmt::TextEdit> found = nmt::find_terms(sentence, {{"invoice", "Rechnung"}}, {{8, 16}});
  REQUIRE(found.size() == 19999);  // (not the one in `skip`)
  CHECK(found[0].at == 0);
  CHECK(found[1].at == 16);
  CHECK(found.back().at == sentence.size() - 8);
}

TEST_CASE("glossary: a sentence of terms only starts with a capital where the sentence does") {
  // "Kündigungsfrist!" came out "notice period!": such a sentence is copied, not translated, so
  // no other pass writes its first capital
  const nmt::Glossary glossary = {{"K\u00FCndigungsfrist", "notice period"}, {"Betriebsrat", "works council"}, {"Handy", "iPhone"}};
  CHECK(terms("K\u00FCndigungsfrist!", glossary) == List{"K\u00FCndigungsfrist=Notice period"});
  CHECK(terms("\u201EK\u00FCndigungsfrist\u201C \u2013 Betriebsrat.", glossary) ==
        List{"K\u00FCndigungsfrist=Notice period", "Betriebsrat=works council"});
  CHECK(terms("k\u00FCndigungsfrist!", glossary) == List{"k\u00FCndigungsfrist=notice period"});  // (as the sentence)
  CHECK(terms("Handy!", glossary) == List{"Handy=iPhone"});  // (a word with a capital inside stays)
  // a sentence with other words is the model's to start (the pass capital_start)
  CHECK(terms("Die K\u00FCndigungsfrist!", glossary) == List{"K\u00FCndigungsfrist=notice period"});
  CHECK(terms("K\u00FCndigungsfrist 3", glossary) == List{"K\u00FCndigungsfrist=notice period"});
}

TEST_CASE("glossary: a term that reads as code is no term") {
  // "Call invoice() now." came out "Call Rechnung() jetzt.", "Use --invoice now." "Verwenden Sie
  // --Rechnung", "Set invoice=1" "Setzt Rechnung=1"
  const nmt::Glossary glossary = {{"invoice", "Rechnung"}};
  for (const char* sentence : {"Call invoice() now.", "Call invoice(42).", "Use --invoice now.", "Set invoice=1 now."})
    CHECK_MESSAGE(terms(sentence, glossary).empty(), sentence);
  // prose: a bracket or an equals sign after a space, a dash before the word
  CHECK(terms("The invoice (see below) - invoice, -invoice and invoice = total", glossary) ==
        List{"invoice=Rechnung", "invoice=Rechnung", "invoice=Rechnung", "invoice=Rechnung"});
}
