// Units -> hypotheses, batch by batch; see batching.h.
#include "batching.h"

#include <algorithm>
#include <chrono>

#include "search/rerank.h"
#include "search/sampling.h"

namespace nmt {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The units translated together, as lists of unit indices: shortest first (similar lengths), each
// batch bounded by source tokens and by decoder rows (sentences x beam), which size the KV cache.
// A unit with no tokens (e.g. only zero-width characters) or one that is copied is left out.
// Under the lexical shortlist every sentence is a batch of its own: the list is a batch's, so in a
// shared batch a sentence's translation would depend on its neighbours (and on how a document was
// cut into requests or split across workers).
std::vector<std::vector<size_t>> make_batches(const std::vector<Unit>& units, const TranslateOptions& options,
                                              bool one_per_batch) {
  std::vector<size_t> order;
  for (size_t i = 0; i < units.size(); ++i)
    if (!units[i].tokens.empty() && !units[i].copied) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return units[a].tokens.size() < units[b].tokens.size(); });
  const size_t max_sentences = one_per_batch ? 1 : size_t(std::max(1, options.batch_rows / options.beam_size));
  std::vector<std::vector<size_t>> batches;
  for (size_t i = 0; i < order.size();) {
    std::vector<size_t> members;
    size_t tokens = 0;
    while (i < order.size() && (members.empty() || (tokens + units[order[i]].ids.size() <= size_t(options.batch_tokens) &&
                                                    members.size() < max_sentences))) {
      tokens += units[order[i]].ids.size();
      members.push_back(order[i++]);
    }
    batches.push_back(std::move(members));
  }
  return batches;
}

// The rows of the output projection a batch may use under the lexical shortlist: its sources'
// candidates plus every token a forced prefix needs.
OutputRows shortlist_rows(const Transformer& model, const Shortlist& shortlist,
                          const std::vector<std::vector<int>>& batch, const SearchOptions& search_opts) {
  std::vector<int> forced;
  for (const ForcedTokens& f : search_opts.forced) {
    forced.insert(forced.end(), f.tokens.begin(), f.tokens.end());
    for (const std::vector<HealStep>& steps : f.heal)
      for (const HealStep& h : steps) forced.push_back(h.id);
  }
  return model.output_rows(shortlist.tokens_for(batch, forced));
}

// One batch of sources (ids with eos) -> the best hypothesis of each: encoded once, then searched
// (over the `shortlist`'s tokens when there is one); with a `reverse` model and a beam, the beam's
// candidates are reranked. Adds the times to `out`.
std::vector<Hypothesis> translate_batch(const Transformer& model, const Transformer* reverse, const Shortlist* shortlist,
                                        const std::vector<std::vector<int>>& batch, const SearchOptions& search_opts,
                                        float reverse_weight, Translation& out) {
  const auto te = Clock::now();
  EncoderOutput enc = model.encode(batch);
  out.ms_encode += ms_since(te);
  const auto td = Clock::now();
  OutputRows rows;
  SearchOptions opts = search_opts;
  if (opts.sample_top_k > 0) opts.sample_seeds = sentence_seeds(opts.seed, batch);  // each sentence its own stream
  if (shortlist) {
    rows = shortlist_rows(model, *shortlist, batch, search_opts);
    opts.output_rows = &rows;
  }
  std::vector<Hypothesis> best;
  if (reverse && opts.beam_size > 1) {
    best = rerank(*reverse, search_nbest(model, enc, opts, opts.beam_size), batch, reverse_weight,
                  opts.length_penalty);
  } else {
    best = search(model, enc, opts);
  }
  out.ms_decode += ms_since(td);
  return best;
}

// The hypothesis that writes a unit's own tokens back, each sure. For a sentence with nothing to
// translate. It holds no attention: no text pass reads a copied unit's, and its identity (each token
// on itself) is built by assemble.cpp one unit at a time, only when the result returns alignments
// (a 1 MB line of copied text is 5,209 units: their tokens x tokens matrices held together were 347 MB).
Hypothesis copy_hypothesis(const std::vector<int>& ids) {
  Hypothesis h;
  h.tokens = ids;  // ends with eos
  h.token_log_probs.assign(ids.size(), 0.0f);
  return h;
}

}  // namespace

// The reverse model reads every translated unit's translation back into its source, all at once,
// for symmetrized word alignments (Hypothesis::reverse_readout).
void read_back(const Transformer& reverse, const std::vector<Unit>& units, const SearchOptions& search_opts,
               std::vector<Hypothesis>& hyps) {
  std::vector<std::vector<int>> candidates;
  std::vector<const std::vector<int>*> sources;
  std::vector<size_t> which;
  for (size_t u = 0; u < units.size(); ++u) {
    if (units[u].copied || units[u].ids.empty() || hyps[u].tokens.empty() || hyps[u].readout.empty()) continue;
    candidates.push_back(hyps[u].tokens);
    sources.push_back(&units[u].ids);
    which.push_back(u);
  }
  std::vector<std::vector<float>> back =
      reverse_readout(reverse, candidates, sources, search_opts.readout_layer, search_opts.readout_head);
  for (size_t k = 0; k < which.size(); ++k) hyps[which[k]].reverse_readout = std::move(back[k]);
}

std::vector<Hypothesis> translate_units(const std::vector<Unit>& units, const BatchRunner& runner,
                                        const SearchOptions& search_opts, Translation& out) {
  const Transformer& model = runner.model;
  std::vector<Hypothesis> hyps(units.size());
  for (size_t u = 0; u < units.size(); ++u)
    if (units[u].copied && !units[u].tokens.empty())
      hyps[u] = copy_hypothesis(units[u].ids);
  for (const std::vector<size_t>& members : make_batches(units, runner.options, runner.shortlist != nullptr)) {
    std::vector<std::vector<int>> batch;
    for (size_t u : members) batch.push_back(units[u].ids);
    // sentences from the translation memory are forced through its translation (a prefix's
    // sentence is never one: the memory is not looked up under a prefix)
    SearchOptions opts = search_opts;
    if (std::any_of(members.begin(), members.end(), [&](size_t u) { return !units[u].memory_ids.empty(); })) {
      opts.forced.assign(members.size(), ForcedTokens{});
      for (size_t k = 0; k < members.size(); ++k) opts.forced[k].tokens = units[members[k]].memory_ids;
    }
    std::vector<Hypothesis> best =
        translate_batch(model, runner.reverse, runner.shortlist, batch, opts, runner.options.reverse_weight, out);
    // the read-out head's rows serve the word alignments alone (assemble.cpp, read_back): without
    // them, a long text of units kept as much again as their attention (121 MB on a 1 MB line)
    if (!runner.options.alignments)
      for (Hypothesis& h : best) std::vector<float>().swap(h.readout);
    for (size_t k = 0; k < members.size(); ++k) hyps[members[k]] = std::move(best[k]);
  }
  return hyps;
}

}  // namespace nmt
