// Translator: text -> sentences -> tokens -> encoder -> search -> text + alignments.
#include "translator.h"
#include "translator_internal.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>

#include <nlohmann/json.hpp>

#include "search/alternatives.h"
#include "search/forced_prefix.h"
#include "search/rerank.h"
#include "search/sampling.h"
#include "text/casing.h"
#include "text/dates.h"
#include "text/emphasis.h"
#include "text/final_marks.h"
#include "text/glossary.h"
#include "text/memory.h"
#include "text/numbers.h"
#include "text/pass_through.h"
#include "text/passes.h"
#include "text/segmenter.h"
#include "text/utf8.h"
#include "text/verbatim.h"

namespace nmt {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The model's source and target languages.
struct Languages {
  std::string from, to;
};

// The text passes a request runs: all but those it switches off by name or by an older flag.
PassSwitches pass_switches(const TranslateOptions& o) {
  return PassSwitches(o.passes_off, o.raw_numbers, o.keep_case, o.model_only);
}

// A unit of translation: one sentence, or a chunk of a sentence too long for the model.
struct Unit {
  size_t begin = 0, end = 0;  // bytes in the cleaned text
  size_t piece = 0;           // index of its sentence in the segmentation
  std::vector<Token> tokens;  // spans relative to `begin`
  std::vector<int> ids;       // the tokens' ids + eos, as the encoder takes them; empty without tokens
  // Visible characters the tokenizer deleted (U+FFFD): bytes relative to `begin`, copied over by
  // text/pass_through.h so that no text is lost.
  std::vector<std::pair<size_t, size_t>> dropped;
  // How its sentence was cased: an upper or title sentence is tokenized recased (text/casing.h),
  // and an upper one's translation is written in capitals.
  SentenceCase source_case = SentenceCase::normal;
  // What the unknown pieces are copied from when not the source itself: the source with the numbers
  // the model was shown as unknown pieces written the target language's way (text/numbers.h); and
  // the dates it was shown so, as the target language writes them (text/dates.h).
  std::string copy_source;
  Rewrites rewrites;
  // Its sentence has nothing the model can translate (text/pass_through.h has_no_words,
  // has_no_known_words): copied, not run.
  bool copied = false;
  // The translation memory's translation of its sentence (text/memory.h), as target ids + eos that
  // the search is forced through; empty when the model translates it.
  std::vector<int> memory_ids;
  bool starts_sentence = true;  // false for the second and later chunks of a long sentence
  // Markdown emphasis marks in it ("**Note:**"), bytes relative to `begin`: the model reads the
  // sentence without them, and they go back next to the words aligned with what they mark (text/emphasis.h).
  std::vector<EmphasisMark> emphasis;
  std::vector<std::string> fired;  // the passes that changed it before decoding and the retries that replaced it
  // The glossary's terms in it (text/glossary.h), bytes relative to `begin`: each shown to the model
  // as one unknown piece, and written as its target term (`rewrites` has them too).
  std::vector<TextEdit> terms;
};

// Cuts a token list longer than `limit` into runs of at most `limit` tokens, preferring to cut
// before a token that starts a word ("▁...") right after punctuation, else before any word start.
std::vector<std::pair<size_t, size_t>> chunk_tokens(const std::vector<Token>& toks, size_t limit) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t start = 0;
  auto starts_word = [&](size_t i) { return toks[i].piece.rfind("\xE2\x96\x81", 0) == 0; };
  while (toks.size() - start > limit) {
    size_t cut = 0;
    for (size_t i = start + limit; i > start + limit / 2 && !cut; --i) {
      const std::string& prev = toks[i - 1].piece;
      if (starts_word(i) && !prev.empty() && std::strchr(".,;:!?)", prev.back())) cut = i;
    }
    for (size_t i = start + limit; i > start + limit / 2 && !cut; --i)
      if (starts_word(i)) cut = i;
    if (!cut) cut = start + limit;
    out.emplace_back(start, cut);
    start = cut;
  }
  out.emplace_back(start, toks.size());
  return out;
}

// Tokens [a, b) of sentence `p` (which spans `piece` of the text) as one unit; its first and
// last unit reach the sentence's ends, the others span their tokens.
Unit make_unit(const std::vector<Token>& toks, size_t a, size_t b, const TextPiece& piece, size_t p, int eos_id) {
  Unit u;
  u.piece = p;
  u.starts_sentence = a == 0;
  u.begin = piece.begin + (a < toks.size() ? toks[a].begin : 0);
  u.end = b > a ? piece.begin + toks[b - 1].end : piece.end;
  if (a == 0) u.begin = piece.begin;
  if (b == toks.size()) u.end = piece.end;
  for (size_t i = a; i < b; ++i) {
    Token t = toks[i];
    t.begin = t.begin + piece.begin - u.begin;
    t.end = t.end + piece.begin - u.begin;
    u.tokens.push_back(std::move(t));
  }
  for (const Token& t : u.tokens) u.ids.push_back(t.id);
  if (!u.tokens.empty()) u.ids.push_back(eos_id);
  return u;
}

// A sentence's tokens, spans in the sentence as given: read as the source passes write it (text/passes.h:
// recased as `how` says, with a `truecaser`; emphasis marks left out; German gender forms read as
// the feminine ones), `masked` spans (addresses, numbers) shown as one unknown piece each, and an
// unknown piece reading as the text it stands for (a masked address: not its mask).
std::vector<Token> sentence_tokens(std::string_view sentence, SentenceCase how, const Truecaser* truecaser,
                                   const SentencePiece& tokenizer, const ByteSpans& masked, const std::string& language,
                                   const PassSwitches& switches, std::vector<std::string>* fired = nullptr) {
  SourceSentence read{sentence, language, how, truecaser, masked, std::string(sentence)};
  run_source_passes(read, switches, fired);
  std::vector<Token> toks = tokenizer.encode(mask_spans(read.shown, masked));
  for (Token& t : toks)
    if (t.id == tokenizer.unk_id() && t.end <= sentence.size()) t.piece = std::string(sentence.substr(t.begin, t.end - t.begin));
  return toks;
}

// The sentences of the text -> units of tokens (long sentences cut into chunks the model can take).
// What the model reads of a sentence has the sentence's length, so the tokens' spans are spans of
// the text as given: with a `truecaser`, a sentence in capitals or Title Case is recased; web and
// e-mail addresses become one unknown piece each, copied into the translation (text/verbatim.h).
std::vector<Unit> tokenize_sentences(const std::string& text, const std::vector<TextPiece>& pieces,
                                     const SentencePiece& tokenizer, const ModelConfig& c,
                                     const Truecaser* truecaser, const std::string& language, const PassSwitches& switches,
                                     const Glossary& glossary) {
  std::vector<Unit> units;
  const size_t max_tokens = size_t(c.max_length - 1);  // room for eos
  const bool one_sentence = std::count_if(pieces.begin(), pieces.end(), [](const TextPiece& p) { return p.is_sentence; }) == 1;
  const ByteSpans code_blocks = fenced_code_blocks(text);  // ``` ... ```: copied, not translated
  size_t block = 0;                                          // (both in order)
  for (size_t p = 0; p < pieces.size(); ++p) {
    if (!pieces[p].is_sentence) continue;
    while (block < code_blocks.size() && code_blocks[block].second <= pieces[p].begin) ++block;
    const bool in_code = block < code_blocks.size() && code_blocks[block].first <= pieces[p].begin;
    const std::string_view sentence(text.data() + pieces[p].begin, pieces[p].end - pieces[p].begin);
    SentenceCase how = truecaser ? sentence_case(sentence, language) : SentenceCase::normal;
    if (how == SentenceCase::fragment && !one_sentence) how = SentenceCase::normal;  // "(see below)" in a text
    ByteSpans verbatim = switches.on("verbatim") ? verbatim_spans(sentence) : ByteSpans{};
    std::vector<std::string> fired;
    if (!verbatim.empty()) fired.push_back("verbatim");
    const std::vector<TextEdit> terms =
        switches.on("glossary") && !in_code ? find_terms(sentence, glossary, verbatim) : std::vector<TextEdit>{};
    if (!terms.empty()) fired.push_back("glossary");
    for (const TextEdit& t : terms) verbatim.emplace_back(t.at, t.at + t.length);  // masked as addresses are
    std::sort(verbatim.begin(), verbatim.end());
    const std::vector<Token> toks = sentence_tokens(sentence, how, truecaser, tokenizer, verbatim, language, switches, &fired);
    const std::vector<EmphasisMark> marks = switches.on("emphasis") ? find_emphasis(sentence, verbatim) : std::vector<EmphasisMark>{};
    for (auto [a, b] : chunk_tokens(toks, max_tokens)) {
      Unit u = make_unit(toks, a, b, pieces[p], p, c.eos_id);
      u.source_case = how;
      u.fired = fired;
      const size_t from = u.begin - pieces[p].begin, to = u.end - pieces[p].begin;
      for (const TextEdit& t : terms)  // each term goes with the chunk it starts in
        if (t.at >= from && t.at + t.length <= to) {
          u.terms.push_back({t.at - from, t.length, t.text});
          u.rewrites.emplace_back(t.at - from, t.text);
        }
      for (EmphasisMark m : marks)  // each mark goes with the chunk it is in, marking within it
        if (m.begin >= from && m.begin < to) {
          m.marks_begin = std::clamp(m.marks_begin, from, to) - from;
          m.marks_end = std::clamp(m.marks_end, from, to) - from;
          m.begin -= from;
          m.end = std::min(m.end, to) - from;
          u.emphasis.push_back(m);
        }
      // (zero-width characters alone: nothing, not a copy)
      u.copied = !u.tokens.empty() && (in_code || has_no_words(sentence) || has_no_known_words(toks, tokenizer.unk_id()));
      u.dropped = dropped_runs(text.substr(u.begin, u.end - u.begin),
                               [&](std::string_view ch) { return tokenizer.normalizes_to_nothing(ch); });
      units.push_back(std::move(u));
    }
  }
  return units;
}

// Each whole sentence the translation memory holds gets its translation, ending as the sentence ends,
// as the ids its search is forced through (text/memory.h); not one the tokenizer would write with
// an unknown piece, nor one too long for the model.
void look_up_memory(const std::string& text, const std::vector<TextPiece>& pieces, const TranslationMemory& memory,
                    const SentencePiece& tokenizer, const ModelConfig& c, std::vector<Unit>& units) {
  if (memory.size() == 0) return;
  for (Unit& u : units) {
    const TextPiece& piece = pieces[u.piece];
    if (u.tokens.empty() || u.copied || !u.terms.empty() || u.begin != piece.begin || u.end != piece.end) continue;
    const std::string_view sentence(text.data() + u.begin, u.end - u.begin);
    const std::string_view found = memory.find(sentence);
    if (found.empty()) continue;
    std::vector<int> ids;
    for (const Token& t : tokenizer.encode(with_final_marks(found, sentence))) ids.push_back(t.id);
    if (ids.empty() || std::count(ids.begin(), ids.end(), c.unk_id) || int(ids.size()) + 1 >= c.max_length) continue;
    ids.push_back(c.eos_id);
    u.memory_ids = std::move(ids);
    u.fired.push_back("memory");
  }
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

// The hypothesis that writes a unit's own tokens back: each sure, each attending to itself (in
// every layer and head, when they are kept). For a sentence with nothing to translate.
Hypothesis copy_hypothesis(const std::vector<int>& ids, const ModelConfig& c, const SearchOptions& search_opts) {
  Hypothesis h;
  const size_t n = ids.size(), heads = size_t(c.decoder_layers) * size_t(c.n_heads);
  h.tokens = ids;  // ends with eos
  h.token_log_probs.assign(n, 0.0f);
  if (search_opts.keep_attention || search_opts.keep_all_heads) {
    h.attention.assign(n * n, 0.0f);
    for (size_t k = 0; k < n; ++k) h.attention[k * n + k] = 1.0f;
  }
  if (search_opts.keep_all_heads) {
    h.heads.assign(n * heads * n, 0.0f);
    for (size_t k = 0; k < n; ++k)
      for (size_t j = 0; j < heads; ++j) h.heads[(k * heads + j) * n + k] = 1.0f;
  }
  return h;
}

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

// Every unit's best hypothesis (empty for a unit with no tokens), translated batch by batch; a
// copied unit writes its own tokens back.
std::vector<Hypothesis> translate_units(const std::vector<Unit>& units, const Transformer& model,
                                        const Transformer* reverse, const Shortlist* shortlist,
                                        const SearchOptions& search_opts,
                                        const TranslateOptions& options, Translation& out) {
  std::vector<Hypothesis> hyps(units.size());
  for (size_t u = 0; u < units.size(); ++u)
    if (units[u].copied && !units[u].tokens.empty()) hyps[u] = copy_hypothesis(units[u].ids, model.config(), search_opts);
  for (const std::vector<size_t>& members : make_batches(units, options, shortlist != nullptr)) {
    std::vector<std::vector<int>> batch;
    for (size_t u : members) batch.push_back(units[u].ids);
    // sentences from the translation memory are forced through its translation (a prefix's
    // sentence is never one: the memory is not looked up under a prefix)
    SearchOptions opts = search_opts;
    if (std::any_of(members.begin(), members.end(), [&](size_t u) { return !units[u].memory_ids.empty(); })) {
      opts.forced.assign(members.size(), ForcedTokens{});
      for (size_t k = 0; k < members.size(); ++k) opts.forced[k].tokens = units[members[k]].memory_ids;
    }
    std::vector<Hypothesis> best = translate_batch(model, reverse, shortlist, batch, opts, options.reverse_weight, out);
    for (size_t k = 0; k < members.size(); ++k) hyps[members[k]] = std::move(best[k]);
  }
  return hyps;
}

// The text a hypothesis' tokens spell (without eos), before anything is copied into it.
std::string hypothesis_text(const Hypothesis& h, const SentencePiece& tokenizer, int eos_id) {
  std::vector<int> ids;
  for (int id : h.tokens)
    if (id != eos_id) ids.push_back(id);
  return tokenizer.decode(ids);
}

// A sentence whose translation came out empty (the model wrote only tokens that write nothing:
// "sehr" alone came out "▁" and eos) is translated again with none of them allowed as its first
// token: no text is lost to an empty translation.
void translate_empty_again(std::vector<Unit>& units, std::vector<Hypothesis>& hyps, const std::vector<int>& silent,
                           const std::function<std::vector<Hypothesis>(const std::vector<Unit>&)>& translate_again) {
  std::vector<size_t> redo;
  std::vector<Unit> again;
  for (size_t u = 0; u < units.size(); ++u) {
    if (units[u].tokens.empty() || units[u].copied || !units[u].memory_ids.empty()) continue;
    if (!std::all_of(hyps[u].tokens.begin(), hyps[u].tokens.end(),
                     [&](int id) { return std::binary_search(silent.begin(), silent.end(), id); }))
      continue;
    redo.push_back(u);
    again.push_back(units[u]);
  }
  if (again.empty()) return;
  std::vector<Hypothesis> second = translate_again(again);
  for (size_t k = 0; k < redo.size(); ++k) {
    hyps[redo[k]] = std::move(second[k]);
    units[redo[k]].fired.push_back("retry_empty");
  }
}

// Sentences whose translation lost or changed one of their numbers (text/numbers.h) are translated
// again, with the numbers they lost shown to the model as unknown pieces (like addresses) and copied
// in, in the target language's separators ("50.000" -> "50,000"). A second translation replaces the
// first only if it keeps every number the first one kept, and, where a lost number is one digit,
// if the model itself wrote the unknown pieces (else the digit would be put next to a word). Sentences cut into chunks are left as they
// are (a chunk's numbers may sit in the next one).
struct NumberCheck {
  const PassSwitches& switches;
  const SentencePiece& tokenizer;
  const Truecaser* truecaser;  // the source's, when sentences are recased
  std::string source_language, target_language;
  int max_tokens, eos_id;
};

void keep_numbers(const std::string& text, const std::vector<TextPiece>& pieces, const NumberCheck& check,
                  std::vector<Unit>& units, std::vector<Hypothesis>& hyps,
                  const std::function<std::vector<Hypothesis>(const std::vector<Unit>&)>& translate_again) {
  std::vector<size_t> redo;       // unit indices
  std::vector<Unit> again;        // their units with the lost numbers masked
  std::vector<ByteSpans> kept;    // the numbers their first translation kept
  std::vector<size_t> masks;      // how many unknown pieces their source has, when one is a one-digit number
  for (size_t i = 0; i < units.size(); ++i) {
    const Unit& u = units[i];
    const TextPiece& piece = pieces[u.piece];
    if (u.tokens.empty() || u.copied || !u.memory_ids.empty() || u.begin != piece.begin || u.end != piece.end) continue;
    const std::string_view sentence(text.data() + u.begin, u.end - u.begin);
    ByteSpans addresses = verbatim_spans(sentence);  // and the glossary's terms: shown as before
    for (const TextEdit& t : u.terms) addresses.emplace_back(t.at, t.at + t.length);
    std::sort(addresses.begin(), addresses.end());
    const ByteSpans numbers = find_numbers(sentence, check.source_language, false, addresses);
    const std::vector<NamedDate> dates = find_named_dates(sentence, check.source_language);
    if (numbers.empty() && dates.empty()) continue;
    const std::string first = hypothesis_text(hyps[i], check.tokenizer, check.eos_id);
    const std::vector<size_t> missing = missing_numbers(sentence, numbers, first, check.target_language);
    std::vector<NamedDate> lost_dates;  // shown whole as an unknown piece, written the target's way
    for (const NamedDate& d : dates)
      if (!has_named_date(first, d, check.target_language)) lost_dates.push_back(d);
    if (missing.empty() && lost_dates.empty()) continue;
    ByteSpans lost, had, masked = addresses;
    Rewrites rewrites = u.rewrites;
    for (const NamedDate& d : lost_dates) {
      masked.emplace_back(d.begin, d.end);
      rewrites.emplace_back(d.begin, write_named_date(d, check.target_language));
    }
    const auto in_lost_date = [&](const std::pair<size_t, size_t>& n) {
      return std::any_of(lost_dates.begin(), lost_dates.end(), [&](const NamedDate& d) { return d.begin <= n.first && n.second <= d.end; });
    };
    for (size_t k = 0; k < numbers.size(); ++k) {
      if (in_lost_date(numbers[k])) continue;  // (the date's own numbers come back with it)
      if (std::find(missing.begin(), missing.end(), k) == missing.end()) {
        had.push_back(numbers[k]);
        continue;
      }
      lost.push_back(numbers[k]);
      auto [b, e] = numbers[k];
      // a one-digit number takes the space before it: a mask needs 2 bytes
      if (e - b == 1 && b > 0 && sentence[b - 1] == ' ') --b;
      if (e - b >= 2) masked.emplace_back(b, e);  // (one that starts the sentence cannot be shown)
    }
    if (masked.size() == addresses.size()) continue;
    std::sort(masked.begin(), masked.end());
    const std::vector<Token> toks =
        sentence_tokens(sentence, u.source_case, check.truecaser, check.tokenizer, masked, check.source_language, check.switches);
    if (toks.empty() || toks.size() > size_t(check.max_tokens)) continue;
    Unit r = make_unit(toks, 0, toks.size(), piece, u.piece, check.eos_id);
    r.source_case = u.source_case;
    r.fired = u.fired;
    r.fired.push_back("numbers");
    r.terms = u.terms;
    r.dropped = u.dropped;
    r.emphasis = u.emphasis;
    r.copy_source = localize_numbers(sentence, lost, check.source_language, check.target_language);
    r.rewrites = std::move(rewrites);
    const bool one_digit = std::any_of(lost.begin(), lost.end(), [](const auto& n) { return n.second - n.first == 1; });
    masks.push_back(one_digit ? masked.size() - lost_dates.size() : 0);  // (a date the model leaves out goes next to its neighbour word)
    redo.push_back(i);
    again.push_back(std::move(r));
    kept.push_back(std::move(had));
  }
  if (again.empty()) return;
  std::vector<Hypothesis> second = translate_again(again);
  for (size_t k = 0; k < redo.size(); ++k) {
    const std::string_view sentence(text.data() + again[k].begin, again[k].end - again[k].begin);
    const std::string retry = hypothesis_text(second[k], check.tokenizer, check.eos_id);
    if (!missing_numbers(sentence, kept[k], retry, check.target_language).empty()) continue;
    // a currency the source does not name, guessed for an amount shown as an unknown piece ("$ <unk>
    // million" -> "Millionen Pfund": € and £ are unknown pieces in the training data)
    if (adds_currency(sentence, retry) && !adds_currency(sentence, hypothesis_text(hyps[redo[k]], check.tokenizer, check.eos_id)))
      continue;
    // a lone digit only where the model wrote it: put next to a word ("nach 3 Washington" for "to
    // Washington at 3 p.m.") it says nothing, unlike a year or an amount
    const long written = std::count(second[k].tokens.begin(), second[k].tokens.end(), check.tokenizer.unk_id());
    if (size_t(written) < masks[k]) continue;
    units[redo[k]] = std::move(again[k]);
    hyps[redo[k]] = std::move(second[k]);
  }
}

// The word alignment shown to users: the read-out head's attention one step late
// (text/word_alignment.h read_alignment), symmetrized with the reverse model's when it read the
// translation back (reverse_readout); a hypothesis without a read-out (a copied sentence) has the
// alignment layer's attention as it is.
WordAlignment word_alignment(const SentenceTranslation& s, const std::vector<Span>& src_spans,
                             const std::vector<Span>& tgt_spans, const Hypothesis& h) {
  const int rows = int(tgt_spans.size()), cols = int(src_spans.size());
  if (h.readout.size() < size_t(rows) * size_t(cols))
    return align_words(s.source, src_spans, s.target, tgt_spans, s.attention.data(), rows, cols);
  const std::vector<float> shifted = next_step_rows(h.readout.data(), int(h.readout.size() / size_t(cols)), rows, cols);
  const WordAlignment forward = read_alignment(s.source, src_spans, s.target, tgt_spans, shifted.data(), rows, cols);
  // the reverse model read the target's tokens without eos, then eos: one row per source token
  const bool has_eos = !s.target_tokens.empty() && s.target_tokens.back().piece == "</s>";
  std::vector<Span> back_cols(tgt_spans.begin(), tgt_spans.end() - (has_eos ? 1 : 0));
  back_cols.push_back({s.target.size(), s.target.size()});
  if (h.reverse_readout.empty() || h.reverse_readout.size() != back_cols.size() * size_t(cols)) return forward;
  const std::vector<float> back = next_step_rows(h.reverse_readout.data(), cols, cols, int(back_cols.size()));
  return symmetrize(forward, read_alignment(s.target, back_cols, s.source, src_spans, back.data(), cols, int(back_cols.size())));
}

// The alignments of a translated unit: its source and target tokens with their spans, the
// hypothesis' attention (moved out of it) and the word alignment computed from them.
void add_alignments(const Unit& u, const std::vector<int>& target_words_ids,
                    const std::vector<std::pair<size_t, size_t>>& target_spans, const SentencePiece& tokenizer,
                    Hypothesis& h, SentenceTranslation& s) {
  for (const Token& t : u.tokens) s.source_tokens.push_back({t.piece, t.begin, t.end});
  s.source_tokens.push_back({"</s>", s.source.size(), s.source.size()});
  for (size_t k = 0; k < target_words_ids.size(); ++k)
    s.target_tokens.push_back({tokenizer.id_to_piece(target_words_ids[k]), target_spans[k].first, target_spans[k].second});
  if (s.target_ids.size() > target_words_ids.size()) s.target_tokens.push_back({"</s>", s.target.size(), s.target.size()});
  s.attention = std::move(h.attention);
  s.heads = std::move(h.heads);
  std::vector<Span> src_spans, tgt_spans;
  for (const TokenSpan& t : s.source_tokens) src_spans.push_back({t.begin, t.end});
  for (const TokenSpan& t : s.target_tokens) tgt_spans.push_back({t.begin, t.end});
  s.words = word_alignment(s, src_spans, tgt_spans, h);
  for (const std::vector<int>& toks : word_tokens(s.words.target_words, tgt_spans, tgt_spans.size(), s.target.size())) {
    float p = 1.0f;
    for (int k : toks) p *= s.token_probs[size_t(k)];
    s.target_word_probs.push_back(p);
  }
}

// One unit and its hypothesis as a SentenceTranslation (target_begin/end are set by the caller):
// the decoded text, repaired by the target passes (text/passes.h); with a `prefix`, its text
// starts with the prefix verbatim.
SentenceTranslation describe_unit(const std::string& text, const Unit& u, Hypothesis& h, const SentencePiece& tokenizer,
                                  int eos_id, bool alignments, const TargetPrefix* prefix, const Languages& languages,
                                  const PassSwitches& switches) {
  SentenceTranslation s;
  s.source = text.substr(u.begin, u.end - u.begin);
  s.source_begin = u.begin;
  s.source_end = u.end;
  s.source_ids = u.ids;
  s.copied = u.copied;
  s.from_memory = !u.memory_ids.empty();
  // A unit with no tokens (only zero-width or deleted characters) is not run, but its source is
  // still "</s>", as source_tokens says: one token per id (found by tests/fuzz/fuzz_translate).
  if (s.source_ids.empty()) s.source_ids.push_back(eos_id);
  s.target_ids = h.tokens;
  s.score = h.score;
  std::vector<int> words_ids;  // the target without eos
  for (int id : h.tokens)
    if (id != eos_id) words_ids.push_back(id);
  TargetSentence t;
  t.source = s.source;
  t.from = languages.from;
  t.to = languages.to;
  for (float lp : h.token_log_probs) t.token_probs.push_back(s.from_memory ? 1.0f : std::exp(lp));
  t.fixed = prefix ? prefix->text.size() : 0;
  t.prefixed = prefix != nullptr;
  t.copied = u.copied;
  t.starts_sentence = u.starts_sentence;
  t.in_capitals = u.source_case == SentenceCase::upper;
  if (u.copied) {  // its own text, character for character ("…" is not normalized to "..."), over its tokens
    t.target = s.source;
    for (const Token& k : u.tokens) t.spans.emplace_back(k.begin, k.end);
    for (auto term = u.terms.rbegin(); term != u.terms.rend(); ++term)  // (a sentence of glossary terms)
      replace_at(t.target, t.spans, term->at, term->length, term->text);
  } else {
    t.target = prefix ? prefixed_decode(*prefix, tokenizer, words_ids, &t.spans) : tokenizer.decode(words_ids, &t.spans);
    drop_doubled_spaces(t.target, t.spans, t.fixed);
  }
  const DecodedSentence decoded{u.tokens, tokenizer.unk_id(), words_ids, h.attention, s.target_ids.size() > words_ids.size(),
                                u.copy_source, u.dropped, u.rewrites, u.emphasis};
  t.decoded = &decoded;
  run_target_passes(t, switches);
  s.passes = u.fired;
  s.passes.insert(s.passes.end(), t.fired.begin(), t.fired.end());
  s.target = std::move(t.target);
  s.token_probs = std::move(t.token_probs);
  if (alignments) add_alignments(u, words_ids, t.spans, tokenizer, h, s);
  return s;
}

// The translation's text and sentences: the gaps between sentences copied verbatim, each sentence
// replaced by the translations of its units (joined by a space where the source has one).
void assemble(const std::string& text, const std::vector<TextPiece>& pieces, const std::vector<Unit>& units,
              std::vector<Hypothesis>& hyps, const SentencePiece& tokenizer, int eos_id, bool alignments,
              const TargetPrefix* prefix, const Languages& languages, const PassSwitches& switches, Translation& out) {
  size_t next_unit = 0;
  for (size_t p = 0; p < pieces.size(); ++p) {
    if (!pieces[p].is_sentence) {
      out.text.append(text, pieces[p].begin, pieces[p].end - pieces[p].begin);
      continue;
    }
    for (bool first = true; next_unit < units.size() && units[next_unit].piece == p; ++next_unit, first = false) {
      // chunks of a long sentence: a space between their translations where the source had one
      // at the cut (a run of 5,000 letters with no space in it stays one word)
      const size_t cut = units[next_unit].begin;
      if (!first && (std::isspace(static_cast<unsigned char>(text[cut])) ||
                     (cut > 0 && std::isspace(static_cast<unsigned char>(text[cut - 1])))))
        out.text += ' ';
      SentenceTranslation s =
          describe_unit(text, units[next_unit], hyps[next_unit], tokenizer, eos_id, alignments, prefix, languages, switches);
      s.target_begin = out.text.size();
      out.text += s.target;
      s.target_end = out.text.size();
      out.source_tokens += int(s.source_ids.size());
      out.target_tokens += int(s.target_ids.size());
      out.sentences.push_back(std::move(s));
    }
  }
  // Whitespace-only input comes back as it is, like the whitespace around any sentence (and as the
  // JS module, which keeps the gaps between its chunks, returns it).
}

// A forced prefix needs one sentence (a unit: a sentence the model takes whole) and must leave the
// model room to go on after it. When that sentence is in capitals, so is its translation, and a
// prefix taken from it is recased for the model by the target language's `truecaser` (if given);
// addresses in it are masked as in the source; the translation still starts with the prefix as given.
Result<TargetPrefix> prefix_for(const std::vector<Unit>& units, const std::string& prefix_text,
                                const SentencePiece& tokenizer, const ModelConfig& c, const Truecaser* truecaser) {
  if (units.size() != 1 || units[0].tokens.empty())
    return Error{"a prefix needs exactly one sentence to translate (this text has " +
                 (units.size() > 1 ? std::to_string(units.size()) : std::string("nothing to translate")) + ")"};
  const std::string given = sanitize_utf8(prefix_text);
  const bool recase = truecaser && units[0].source_case == SentenceCase::upper;
  const std::string recased = recase ? truecaser->recase(given, SentenceCase::upper) : given;
  // an address in the prefix reads as the unknown piece the model saw in the source (text/verbatim.h)
  TargetPrefix prefix = make_target_prefix(tokenizer, mask_spans(recased, verbatim_spans(given)));
  prefix.text = given;  // what the model reads has its length, so the spans hold
  if (int(prefix.forced.tokens.size()) + 2 > c.max_length)
    return Error{"the prefix is too long: " + std::to_string(prefix.forced.tokens.size()) +
                 " pieces, the model writes at most " + std::to_string(c.max_length - 2) + " before going on"};
  return prefix;
}

// What the unknown pieces of the unit stand for (addresses, emoji: their source text), in order,
// less those the prefix already holds: what a continuation's unknown pieces are filled with.
std::vector<std::string> unused_runs(const Unit& u, int unk_id, std::string_view prefix) {
  std::vector<std::string> runs;
  size_t from = 0;
  for (const Token& t : u.tokens) {
    if (t.id != unk_id) continue;
    std::string run = t.piece;
    for (const auto& [begin, written] : u.rewrites)  // a glossary term: its target term
      if (begin >= t.begin && begin < t.end) run = written;
    run.erase(0, run.find_first_not_of(' '));
    if (run.empty()) continue;
    const size_t at = prefix.find(run, from);
    if (at != std::string_view::npos) {
      from = at + run.size();
      continue;
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

// An alternative's unknown pieces (" ⁇ ") as the text they stand for, in order; with none left, one
// inside a word as the letters of the source word that reads so ("Ky ⁇ to" -> "Kyoto",
// text/pass_through.h letters_from_source), else dropped; the doubled spaces that leaves behind
// collapsed: the menu must never offer "⁇", nor a continuation that lost an address.
void fill_unknown(Alternative& a, const std::vector<std::string>& runs, const std::string& source, const std::string& prefix) {
  static const std::string kUnknown = "\xE2\x81\x87";  // U+2047, the decoded unknown piece
  size_t next = 0;
  for (std::string* s : {&a.word, &a.continuation}) {
    if (s->find(kUnknown) == std::string::npos) continue;
    const std::string before = prefix + (s == &a.continuation ? a.word : "");  // the text before *s
    std::string out;
    for (size_t i = 0; i < s->size();) {
      if (s->compare(i, kUnknown.size(), kUnknown) == 0) {
        std::string letters;
        if (next >= runs.size()) {  // its surface " ⁇ " as a span of the whole text
          const std::string text = before + out + s->substr(i) + (s == &a.word ? a.continuation : "");
          const size_t at = before.size() + out.size();
          const size_t b = !out.empty() && out.back() == ' ' ? at - 1 : at;
          const size_t e = i + kUnknown.size() < s->size() && (*s)[i + kUnknown.size()] == ' ' ? at + kUnknown.size() + 1
                                                                                               : at + kUnknown.size();
          letters = letters_from_source(source, text, b, e);
        }
        if (!letters.empty()) {  // "Ky" + "o" + "to": no space on either side
          if (!out.empty() && out.back() == ' ') out.pop_back();
          out += letters;
          i += kUnknown.size();
          if (i < s->size() && (*s)[i] == ' ') ++i;
          continue;
        }
        if (next < runs.size()) out += runs[next++];
        i += kUnknown.size();
        // the unknown piece's own space before punctuation: "name@example.org ." -> "name@example.org."
        if (i + 1 < s->size() && (*s)[i] == ' ' && std::strchr(".,;:!?)", (*s)[i + 1])) ++i;
        continue;
      }
      if ((*s)[i] == ' ' && !out.empty() && out.back() == ' ') {
        ++i;
        continue;
      }
      out += (*s)[i++];
    }
    *s = std::move(out);
  }
}

bool starts_with(std::string_view text, std::string_view start) { return text.substr(0, start.size()) == start; }

// The one next word of a copied sentence after its first `at` bytes (the spaces before it and the
// characters up to the next space), sure, with the rest as its continuation; none at its end.
std::vector<Alternative> copied_next_word(const std::string& sentence, size_t at) {
  size_t end = at;
  while (end < sentence.size() && std::isspace(static_cast<unsigned char>(sentence[end]))) ++end;
  while (end < sentence.size() && !std::isspace(static_cast<unsigned char>(sentence[end]))) ++end;
  if (end == at) return {};
  return {Alternative{sentence.substr(at, end - at), 1.0f, sentence.substr(end)}};
}

// An alternative as translate() would write it after the prefix: the target passes run over the
// prefix, word and continuation as one text (text/passes.h; those that place text by the attention
// have none to read here: fill_unknown has copied what the unknown pieces stand for), and never
// touch the prefix. The word and its continuation are kept apart as two spans of that text.
void rewrite_alternative(Alternative& a, const std::string& prefix, bool prefixed, const std::string& source,
                         bool in_capitals, const Languages& languages, const PassSwitches& switches) {
  TargetSentence t;
  t.source = source;
  t.from = languages.from;
  t.to = languages.to;
  t.target = prefix + a.word + a.continuation;
  const size_t word_end = prefix.size() + a.word.size();
  t.spans = {{0, prefix.size()}, {prefix.size(), word_end}, {word_end, t.target.size()}};
  t.fixed = prefix.size();
  t.prefixed = prefixed;
  t.in_capitals = in_capitals;
  run_target_passes(t, switches);
  a.word = t.target.substr(t.spans[1].first, t.spans[1].second - t.spans[1].first);
  a.continuation = t.target.substr(t.spans[1].second);
}

// Alternatives that read the same (two spellings written in capitals, an unknown piece filled) are
// one word: its probabilities added, the first one's continuation kept.
std::vector<Alternative> merge_same_words(std::vector<Alternative> words) {
  std::vector<Alternative> out;
  for (Alternative& a : words) {
    const bool empty = a.word.find_first_not_of(' ') == std::string::npos;
    auto same = std::find_if(out.begin(), out.end(), [&](const Alternative& b) { return b.word == a.word; });
    if (same != out.end()) same->probability += a.probability;
    else if (!empty) out.push_back(std::move(a));
  }
  std::stable_sort(out.begin(), out.end(), [](const Alternative& x, const Alternative& y) { return x.probability > y.probability; });
  return out;
}

}  // namespace

Translator::Translator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Translator::~Translator() = default;

Result<std::unique_ptr<Translator>> Translator::load(const uint8_t* data, size_t size) {
  if (!data || size == 0) return Error{"model file is empty"};
  AlignedBuffer bytes = AlignedBuffer::allocate(size);
  std::memcpy(bytes.data(), data, size);
  return load(std::move(bytes));
}

// The tokens that write nothing (Impl::silent_tokens), ascending.
std::vector<int> silent_tokens(const SentencePiece& tokenizer) {
  std::vector<int> silent;
  for (int id = 0; id < tokenizer.vocab_size(); ++id) {
    const std::string& piece = tokenizer.id_to_piece(id);
    bool blank = !piece.empty() && piece.size() % 3 == 0;
    for (size_t i = 0; blank && i < piece.size(); i += 3) blank = piece.compare(i, 3, "\xE2\x96\x81") == 0;  // "▁"
    if (blank || id == tokenizer.eos_id() || id == tokenizer.unk_id()) silent.push_back(id);
  }
  return silent;
}

Result<std::unique_ptr<Translator>> Translator::load(AlignedBuffer bytes) {
  if (bytes.size() == 0) return Error{"model file is empty"};
  auto file = ModelFile::parse(bytes.data(), bytes.size());
  if (!file) return Error{file.error()};
  const TensorView* spm = file->find(file->tokenizer_tensor());  // checked by parse: a u8 tensor
  auto tokenizer = SentencePiece::load(spm->data, spm->bytes);
  if (!tokenizer) return Error{"model's tokenizer: " + tokenizer.error()};
  const ModelConfig& c = file->config();
  if (tokenizer->vocab_size() != c.vocab_size)
    return Error{"tokenizer has " + std::to_string(tokenizer->vocab_size()) + " pieces but the model's vocab_size is " +
                 std::to_string(c.vocab_size)};
  if (tokenizer->eos_id() != c.eos_id || tokenizer->bos_id() != c.bos_id || tokenizer->unk_id() != c.unk_id)
    return Error{"tokenizer special ids (unk/bos/eos) differ from the model config"};
  auto model = Transformer::create(file.value());
  if (!model) return Error{model.error()};
  auto shortlist = Shortlist::from(file.value());
  if (!shortlist) return Error{shortlist.error()};
  auto source_case = Truecaser::from(file.value(), file->source_language());
  if (!source_case) return Error{source_case.error()};
  auto target_case = Truecaser::from(file.value(), file->target_language());
  if (!target_case) return Error{target_case.error()};
  auto memory = TranslationMemory::from(file.value());
  if (!memory) return Error{memory.error()};
  std::vector<int> silent = silent_tokens(tokenizer.value());
  return std::unique_ptr<Translator>(new Translator(std::unique_ptr<Impl>(
      new Impl{std::move(bytes), std::move(file.value()), std::move(tokenizer.value()), std::move(model.value()),
               std::move(shortlist.value()), std::move(source_case.value()), std::move(target_case.value()),
               std::move(memory.value()), std::move(silent)})));
}

Result<std::unique_ptr<Translator>> Translator::load_file(const std::string& path) {
  auto bytes = read_model_file(path);  // a regular file of a sane size only (model/model_file.h)
  if (!bytes) return Error{bytes.error()};
  return load(std::move(bytes.value()));
}

SearchOptions Translator::Impl::search_options(const TranslateOptions& o) const {
  SearchOptions s;
  s.beam_size = o.beam_size;
  s.length_penalty = o.length_penalty;
  s.coverage_penalty = o.coverage_penalty;
  s.max_length_ratio = o.max_length_ratio;
  s.max_length_offset = o.max_length_offset;
  s.alignment_layer = file.alignment_layer();
  s.keep_attention = o.alignments;
  s.keep_all_heads = o.alignments && o.all_heads;
  s.sample_top_k = o.sample_top_k;
  s.seed = o.seed;
  return s;
}

std::vector<Hypothesis> Translator::Impl::translate_ids(const std::vector<std::vector<int>>& sources,
                                                        const SearchOptions& options) const {
  std::vector<std::vector<int>> with_eos;
  const size_t limit = size_t(model.config().max_length);
  for (const auto& s : sources) {
    std::vector<int> ids(s.begin(), s.begin() + std::min(s.size(), limit - 1));
    ids.push_back(model.config().eos_id);
    with_eos.push_back(std::move(ids));
  }
  if (with_eos.empty()) return {};
  EncoderOutput enc = model.encode(with_eos);
  if (options.sample_top_k <= 0) return search(model, enc, options);
  SearchOptions sampled = options;  // seeded as translate() seeds them
  sampled.sample_seeds = sentence_seeds(options.seed, with_eos);
  return search(model, enc, sampled);
}

std::string Translator::check_reverse(const Translator& reverse) const {
  const Impl &m = *impl_, &r = *reverse.impl_;
  if (r.file.source_language() != m.file.target_language() || r.file.target_language() != m.file.source_language())
    return "the reverse model translates " + r.file.source_language() + "->" + r.file.target_language() + ", not " +
           m.file.target_language() + "->" + m.file.source_language();
  const ModelConfig &a = m.model.config(), &b = r.model.config();
  bool same = a.vocab_size == b.vocab_size && a.eos_id == b.eos_id && a.bos_id == b.bos_id && a.pad_id == b.pad_id &&
              m.tokenizer.vocab_size() == r.tokenizer.vocab_size();
  for (int i = 0; same && i < a.vocab_size; ++i) same = m.tokenizer.id_to_piece(i) == r.tokenizer.id_to_piece(i);
  if (!same) return "the reverse model has a different vocabulary";
  return "";
}

Result<Translation> Translator::translate(std::string_view input, const TranslateOptions& options,
                                          const Translator* reverse) const {
  const std::string bad_option = check_options(options);
  if (!bad_option.empty()) return Error{bad_option};
  if (!options.rerank) reverse = nullptr;
  if (reverse) {
    const std::string why = check_reverse(*reverse);
    if (!why.empty()) return Error{"cannot rerank with the reverse model: " + why};
  }
  const auto t0 = Clock::now();
  const Impl& m = *impl_;
  const ModelConfig& c = m.model.config();
  Translation out;
  out.decoder_layers = c.decoder_layers;
  out.n_heads = c.n_heads;
  out.source_text = sanitize_utf8(input);
  const std::string& text = out.source_text;
  const std::vector<TextPiece> pieces = segment_text(text, m.file.source_language());       // sentences
  const PassSwitches switches = pass_switches(options);
  const Truecaser* source_case = switches.on("casing") ? &m.source_case : nullptr;
  std::vector<Unit> units =
      tokenize_sentences(text, pieces, m.tokenizer, c, source_case, m.file.source_language(), switches, options.glossary);  // tokens
  SearchOptions search_opts = m.search_options(options);
  // The attention places what the vocabulary cannot write (text/pass_through.h): kept when needed.
  for (const Unit& u : units)
    search_opts.keep_attention |= has_unknown(u.tokens, m.tokenizer.unk_id()) || !u.dropped.empty() || !u.emphasis.empty();
  Result<TargetPrefix> prefix = TargetPrefix{};
  if (!options.prefix.empty()) {  // one sentence, forced through the prefix
    prefix = prefix_for(units, options.prefix, m.tokenizer, c, source_case ? &m.target_case : nullptr);
    if (!prefix) return Error{prefix.error()};
    search_opts.forced = {prefix->forced};
    // a sentence with nothing to translate stays copied while the prefix is its own start (the
    // page's alternatives offer that); another prefix goes to the model
    units[0].copied = units[0].copied && starts_with(text.substr(units[0].begin, units[0].end - units[0].begin), prefix->text);
  }
  if (options.prefix.empty() && switches.on("memory")) look_up_memory(text, pieces, m.memory, m.tokenizer, c, units);
  const Shortlist* shortlist = options.shortlist && m.shortlist ? &m.shortlist.value() : nullptr;
  const Transformer* reverse_model = reverse ? &reverse->impl_->model : nullptr;
  std::vector<Hypothesis> hyps = translate_units(units, m.model, reverse_model, shortlist, search_opts, options, out);  // encoder, search
  if (switches.on("retry_empty"))
    translate_empty_again(units, hyps, m.silent_tokens, [&](const std::vector<Unit>& again) {  // none comes out empty
      SearchOptions again_opts = search_opts;
      again_opts.not_first = m.silent_tokens;
      return translate_units(again, m.model, reverse_model, shortlist, again_opts, options, out);
    });
  if (switches.on("numbers")) {  // a sentence that lost a number: again, with it copied (text/numbers.h)
    SearchOptions again_opts = search_opts;
    again_opts.keep_attention = true;  // places the copied numbers
    keep_numbers(text, pieces,
                 {switches, m.tokenizer, source_case, m.file.source_language(), m.file.target_language(), int(c.max_length - 1), c.eos_id},
                 units, hyps, [&](const std::vector<Unit>& again) {
                   return translate_units(again, m.model, reverse_model, shortlist, again_opts, options, out);
                 });
  }
  if (reverse_model && options.alignments) read_back(*reverse_model, units, search_opts, hyps);  // symmetrized alignments
  assemble(text, pieces, units, hyps, m.tokenizer, c.eos_id, options.alignments, options.prefix.empty() ? nullptr : &prefix.value(),
           {m.file.source_language(), m.file.target_language()}, switches, out);  // text (target passes), alignments
  out.ms_total = ms_since(t0);
  return out;
}

Result<std::vector<Alternative>> Translator::alternatives(std::string_view source,
                                                          const TranslateOptions& options) const {
  const std::string bad_option = check_options(options);
  if (!bad_option.empty()) return Error{bad_option};
  const Impl& m = *impl_;
  const ModelConfig& c = m.model.config();
  const std::string text = sanitize_utf8(source);
  const PassSwitches switches = pass_switches(options);
  const bool recase = switches.on("casing");
  const std::vector<Unit> units = tokenize_sentences(text, segment_text(text, m.file.source_language()), m.tokenizer, c,
                                                     recase ? &m.source_case : nullptr, m.file.source_language(), switches,
                                                     options.glossary);
  auto prefix = prefix_for(units, options.prefix, m.tokenizer, c, recase ? &m.target_case : nullptr);
  if (!prefix) return Error{prefix.error()};
  const std::string sentence = text.substr(units[0].begin, units[0].end - units[0].begin);
  if (units[0].copied && starts_with(sentence, prefix->text)) return copied_next_word(sentence, prefix->text.size());
  const EncoderOutput enc = m.model.encode({units[0].ids});
  const std::vector<std::string> runs = unused_runs(units[0], m.tokenizer.unk_id(), prefix->text);
  // each candidate as translate() would write it, before words that read the same become one
  const auto rewrite = [&](Alternative& a) {
    fill_unknown(a, runs, sentence, prefix->text);
    rewrite_alternative(a, prefix->text, !options.prefix.empty(), sentence, units[0].source_case == SentenceCase::upper,
                        {m.file.source_language(), m.file.target_language()}, switches);
    // the unknown piece's name, which the models learned to write from a few training lines: never offered
    if (sentence.find("<unk>") == std::string::npos && (a.word + a.continuation).find("<unk>") != std::string::npos)
      a.word.clear();
  };
  return merge_same_words(next_words(m.model, m.tokenizer, enc, prefix.value(), options.alternatives,
                                     m.search_options(options), rewrite));
}

std::string Translator::info_json() const {
  nlohmann::json j;
  const ModelFile& file = impl_->file;
  const std::string_view text = file.header_json();
  const nlohmann::json h = nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  j["config"] = h["config"];
  j["languages"] = h["languages"];
  j["alignment"] = {{"layer", file.alignment_layer()}, {"heads", "mean"}};
  j["provenance"] = h.contains("provenance") ? h["provenance"] : nlohmann::json::object();
  j["file_bytes"] = file.file_bytes();
  j["shortlist"] = impl_->shortlist.has_value();  // the option shortlist can be used
  nlohmann::json list = nlohmann::json::array();  // the text passes, in the order they run (text/passes.h)
  for (const Pass& p : passes()) {
    nlohmann::json pass = {{"name", p.name},
                           {"stage", p.stage == PassStage::source ? "source" : p.stage == PassStage::retry ? "retry" : "target"},
                           {"doc", p.doc}};
    if (p.alias) pass["alias"] = p.alias;  // the older option that switches it off too
    list.push_back(std::move(pass));
  }
  j["passes"] = std::move(list);
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

size_t Translator::file_bytes() const { return impl_->file.file_bytes(); }

}  // namespace nmt
