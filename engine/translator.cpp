// Translator: text -> sentences -> units of tokens (source passes) -> encoder -> search (batches)
// -> retries -> text passes + alignments. This file loads a model and runs a request through those
// steps in order; each step lives in its own file: units.h, batching.h, retries.h, assemble.h,
// alternative_text.h, and the text passes' list in text/passes.h.
#include "translator.h"
#include "translator_internal.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>

#include <nlohmann/json.hpp>

#include "alternative_text.h"
#include "assemble.h"
#include "batching.h"
#include "result_json.h"
#include "retries.h"
#include "search/alternatives.h"
#include "search/sampling.h"
#include "text/no_break_spaces.h"
#include "text/passes.h"
#include "text/segmenter.h"
#include "text/utf8.h"
#include "units.h"

namespace nmt {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The text passes a request runs: all but those it switches off by name or by an older flag.
PassSwitches pass_switches(const TranslateOptions& o) {
  return PassSwitches(o.passes_off, o.raw_numbers, o.keep_case, o.model_only);
}

bool starts_with(std::string_view text, std::string_view start) { return text.substr(0, start.size()) == start; }

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

namespace {

// translate(), its sentences to `sink` when given (translate_json), else into the result.
Result<Translation> translate_to(const Translator& self, std::string_view input, const TranslateOptions& options,
                                 const Translator* reverse, const SentenceSink* sink) {
  const std::string bad_option = check_options(options);
  if (!bad_option.empty()) return Error{bad_option};
  if (!options.rerank) reverse = nullptr;
  if (reverse) {
    const std::string why = self.check_reverse(*reverse);
    if (!why.empty()) return Error{"cannot rerank with the reverse model: " + why};
  }
  const auto t0 = Clock::now();
  const Translator::Impl& m = self.impl();
  const ModelConfig& c = m.model.config();
  Translation out;
  out.decoder_layers = c.decoder_layers;
  out.n_heads = c.n_heads;
  out.source_text = sanitize_utf8(input);
  const std::string& text = out.source_text;
  const std::vector<TextPiece> pieces = segment_text(text, m.file.source_language());       // sentences
  const PassSwitches switches = pass_switches(options);
  const Truecaser* source_case = switches.on("casing") ? &m.source_case : nullptr;
  // (the memory is not looked up under a prefix: the user chose how the translation starts)
  const size_t one_unit = size_t(c.max_length - 1);  // (a prefix's sentence is translated whole)
  const std::shared_ptr<const GlossaryIndex> glossary = glossary_index(options.glossary);  // (folded once)
  const SourceReader reader{m.tokenizer, c, m.file.source_language(), switches, source_case, glossary.get(),
                            options.prefix.empty() ? &m.memory : nullptr, options.prefix.empty() ? kChunkTokens : one_unit,
                            options.prefix.empty() ? kChunkBytes : SIZE_MAX};
  std::vector<Unit> units = read_units(text, pieces, reader);  // tokens, through the source passes
  SearchOptions search_opts = m.search_options(options);
  // The attention places what the vocabulary cannot write (text/pass_through.h), a hard-wrapped
  // sentence's line breaks (text/passes.h place_line_breaks) and the source's no-break spaces
  // (text/no_break_spaces.h): kept when needed.
  for (const Unit& u : units) {
    const std::string_view source = std::string_view(text).substr(u.begin, u.end - u.begin);
    search_opts.keep_attention |= has_unknown(u.tokens, m.tokenizer.unk_id()) || !u.dropped.empty() || !u.emphasis.empty() ||
                                  source.find_first_of("\r\n") != std::string_view::npos || has_no_break_space(source);
  }
  Result<TargetPrefix> prefix = TargetPrefix{};
  if (!options.prefix.empty()) {  // one sentence, forced through the prefix
    prefix = prefix_for(units, options.prefix, m.tokenizer, c, source_case ? &m.target_case : nullptr);
    if (!prefix) return Error{prefix.error()};
    search_opts.forced = {prefix->forced};
    // a sentence with nothing to translate stays copied while the prefix is its own start (the
    // page's alternatives offer that); another prefix goes to the model
    units[0].copied = units[0].copied && starts_with(text.substr(units[0].begin, units[0].end - units[0].begin), prefix->text);
  }
  const Shortlist* shortlist = options.shortlist && m.shortlist ? &m.shortlist.value() : nullptr;
  const Transformer* reverse_model = reverse ? &reverse->impl().model : nullptr;
  const BatchRunner runner{m.model, reverse_model, shortlist, options};
  std::vector<Hypothesis> hyps = translate_units(units, runner, search_opts, out);  // encoder, search
  const auto translate_again = [&](const std::vector<Unit>& again, const SearchOptions& opts) {
    return translate_units(again, runner, opts, out);
  };
  RetryRound round{text, pieces, reader, m.file.target_language(), m.silent_tokens, search_opts, translate_again, units, hyps};
  run_retry_passes(round, switches);  // empty translations, lost numbers (retries.h)
  if (reverse_model && options.alignments) read_back(*reverse_model, units, search_opts, hyps);  // symmetrized alignments
  const TargetWriter writer{m.tokenizer, c.eos_id, options.alignments, options.prefix.empty() ? nullptr : &prefix.value(),
                            {m.file.source_language(), m.file.target_language()}, switches,
                            options.alignments && options.all_heads ? size_t(c.decoder_layers) * size_t(c.n_heads) : 0};
  if (!sink) out.sentences.reserve(units.size());  // (one a unit: a long line's thousands would otherwise leave it up to 2x its size)
  assemble(text, pieces, units, hyps, writer, out, sink);  // text (target passes), alignments
  out.ms_total = ms_since(t0);
  return out;
}

}  // namespace

Result<Translation> Translator::translate(std::string_view input, const TranslateOptions& options,
                                          const Translator* reverse) const {
  return translate_to(*this, input, options, reverse, nullptr);
}

std::string Translator::translate_json(std::string_view input, const TranslateOptions& options,
                                       const Translator* reverse, std::string& json) const {
  const size_t start = json.size();
  ResultJsonWriter writer(options, json);
  const SentenceSink sink = [&](SentenceTranslation&& s, const Translation& so_far) { writer.add(s, so_far); };
  Result<Translation> done = translate_to(*this, input, options, reverse, &sink);
  if (!done) {
    json.resize(start);
    return done.error();
  }
  writer.finish(done.value());
  return "";
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
  const std::shared_ptr<const GlossaryIndex> glossary = glossary_index(options.glossary);
  const SourceReader reader{m.tokenizer, c, m.file.source_language(), switches, recase ? &m.source_case : nullptr,
                            glossary.get(), nullptr, size_t(c.max_length - 1), SIZE_MAX};  // (one sentence, whole)
  const std::vector<Unit> units = read_units(text, segment_text(text, m.file.source_language()), reader);
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

std::vector<std::pair<size_t, size_t>> Translator::sentence_ranges(std::string_view input) const {
  std::vector<std::pair<size_t, size_t>> ranges;
  const std::string text = sanitize_utf8(input);  // as translate() reads it
  for (const TextPiece& p : segment_text(text, impl_->file.source_language()))
    if (p.is_sentence) ranges.emplace_back(p.begin, p.end);
  return ranges;
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
