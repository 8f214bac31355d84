// The user's glossary: terms that must come out as the user says ("Kündigungsfrist" -> "notice
// period"), or stay as they are ("Acme Cloud" -> "Acme Cloud"). Each source term found in a
// sentence is shown to the model as one unknown piece, as an address is (text/verbatim.h), and the
// target term is written where the model puts that piece (text/pass_through.h); its words link to
// the source term's words (assemble.cpp align_terms). Rules:
//   - the spaces around a source or target term are no part of it (" invoice " is "invoice");
//   - whole words only ("Haus" is not found in "Hausaufgabe", "invoice" not in "invoices", "Vertrag"
//     not in "des Vertrags": no inflected forms), nor the part of a word after a hyphen ("Saison" in
//     "Basketball-Saison", "mail" in "e-mail"; "Acme Cloud" in "Acme Cloud-Dienste" is found),
//     nor the word of a gender form ("Mitarbeiter" in "Mitarbeiter*innen", "Kunde" in "Kunde/in"),
//     nor an emoji inside a longer one ("👍" in "👍🏽", or in a sequence joined by U+200D);
//   - in any letter case of the term ("acme cloud", "ACME CLOUD"), but a word the term writes in
//     capitals ("IT", "US") only in capitals ("it", "us" are other words); ß is found as SS or ẞ
//     in capitals ("STRASSE"), not as ss ("Masse" is not "Maße");
//   - however the characters are written: a typographic apostrophe or hyphen for ' or -, any
//     spaces (a no-break space, two) for one, an accent as its own character after the letter
//     (NFD) or one with it (NFC), a soft hyphen or zero-width character inside a word (text/
//     format_characters.h: "in\u00ADvoice") as none;
//   - the target term is written as given (in a sentence written in capitals, in capitals: the
//     pass "capitals" writes the whole translation so), but a sentence of terms only, which is
//     copied, not translated, starts with a capital where it does ("Kündigungsfrist!" -> "Notice
//     period!"), as capital_start (text/casing.h) starts any other translation;
//   - overlapping terms: the longest match wins, then the leftmost, then the term the sentence
//     writes exactly ("Apple" -> "Apple" over "apple" -> "Apfel"), then the first in the glossary;
//   - a term ending in "." that ends its sentence ("Acme Inc.") leaves that full stop to the
//     sentence when its target term does not end in one ("Acme GmbH");
//   - not inside an address, code or a name from code (text/verbatim.h: those are copied), nor
//     where the term reads as code: a call or a setting ("invoice()", "invoice=1") or a command's
//     option ("--invoice");
//   - at most kMaxGlossaryTerms entries of at most kMaxGlossaryTermBytes bytes each; a source or
//     target term may not be empty, nor a source term shorter than 2 bytes, and neither may hold
//     a control character (a tab, a line break: it would be written into the translation as is).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/text_edit.h"

namespace nmt {

using Glossary = std::vector<std::pair<std::string, std::string>>;  // (source term, target term)

constexpr size_t kMaxGlossaryTerms = 10000;
constexpr size_t kMaxGlossaryTermBytes = 200;

// Empty when `glossary` keeps the rules above, else why not ("the glossary's source term \"\" is empty").
std::string glossary_error(const Glossary& glossary);

// The glossary's terms, folded once, to find in sentence after sentence: the cost of a sentence
// grows with its length (and the matches' number, times its logarithm), not with the glossary's.
class GlossaryIndex {
 public:
  explicit GlossaryIndex(const Glossary& glossary);
  // The terms in `sentence` (not overlapping `skip`), as edits of the sentence: the term's bytes
  // and the target term to write for them, in order.
  std::vector<TextEdit> find(std::string_view sentence, const std::vector<std::pair<size_t, size_t>>& skip) const;

 private:
  struct Terms;
  std::shared_ptr<const Terms> index_;
};

// The index of `glossary`, null when it is empty. The last one made on this thread is kept and
// given again for the same glossary: the CLI translates line by line, each line a request with the
// same glossary, folded once. (translate() asks once a request; its sentences share the index.)
std::shared_ptr<const GlossaryIndex> glossary_index(const Glossary& glossary);

// glossary_index(glossary)->find(sentence, skip); none for an empty glossary.
std::vector<TextEdit> find_terms(std::string_view sentence, const Glossary& glossary,
                                 const std::vector<std::pair<size_t, size_t>>& skip);

}  // namespace nmt
