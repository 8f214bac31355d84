// Next-word alternatives (search/alternatives.h) as translate() would write them: the unknown
// pieces filled with what they stand for, the target passes run over prefix + word + continuation,
// words that read the same merged.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "assemble.h"
#include "search/alternative.h"
#include "text/passes.h"
#include "units.h"

namespace nmt {

// What the unknown pieces of the unit stand for (addresses, emoji: their source text; a glossary
// term: its target term), in order, less those the prefix already holds: what a continuation's
// unknown pieces are filled with.
std::vector<std::string> unused_runs(const Unit& u, int unk_id, std::string_view prefix);

// An alternative's unknown pieces (" ⁇ ") as the text they stand for (`runs`, in order).
void fill_unknown(Alternative& a, const std::vector<std::string>& runs, const std::string& source, const std::string& prefix);

// The one next word of a copied sentence after its first `at` bytes, sure, with the rest as its
// continuation; none at its end.
std::vector<Alternative> copied_next_word(const std::string& sentence, size_t at);

// The target passes over prefix + word + continuation, never touching the prefix.
void rewrite_alternative(Alternative& a, const std::string& prefix, bool prefixed, const std::string& source,
                         bool in_capitals, const Languages& languages, const PassSwitches& switches);

// Alternatives that read the same are one word: probabilities added, the first's continuation kept.
std::vector<Alternative> merge_same_words(std::vector<Alternative> words);

}  // namespace nmt
