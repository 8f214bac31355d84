// Units -> hypotheses: the units the model runs grouped into batches (similar lengths together,
// bounded by tokens and decoder rows), each batch encoded once and searched.
#pragma once

#include <vector>

#include "model/shortlist.h"
#include "model/transformer.h"
#include "search/beam_search.h"
#include "translator.h"
#include "units.h"

namespace nmt {

// What runs the units: the model, the reverse model that reranks a beam's candidates (null: none),
// the lexical shortlist (null: the whole vocabulary) and the request's batch sizes.
struct BatchRunner {
  const Transformer& model;
  const Transformer* reverse;
  const Shortlist* shortlist;
  const TranslateOptions& options;
};

// Every unit's best hypothesis (empty for a unit with no tokens), translated batch by batch; a
// copied unit writes its own tokens back, a unit from the translation memory is forced through its
// translation. Adds the encoder's and the search's times to `out`.
std::vector<Hypothesis> translate_units(const std::vector<Unit>& units, const BatchRunner& runner,
                                        const SearchOptions& search_opts, Translation& out);

// The reverse model reads every translated unit's translation back into its source, all at once,
// for symmetrized word alignments (Hypothesis::reverse_readout).
void read_back(const Transformer& reverse, const std::vector<Unit>& units, const SearchOptions& search_opts,
               std::vector<Hypothesis>& hyps);

}  // namespace nmt
