// Hypotheses -> the translation; see assemble.h.
#include "assemble.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "text/verbatim.h"
#include "text/word_alignment.h"

namespace nmt {
namespace {

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

// What the translation holds as known copies of source stretches (text/word_alignment.h
// align_copies): the glossary's terms, the runs the model saw as unknown pieces (each written as its
// rewrite, or as the text it is copied from: pass_through_unknown), and the characters the tokenizer
// deleted.
std::vector<TextEdit> known_copies(const Unit& u, const std::string& source, int unk_id) {
  std::vector<TextEdit> copies = u.terms;
  const std::string& copied_from = u.copy_source.size() == source.size() ? u.copy_source : source;
  const auto add = [&](size_t begin, size_t end) {
    while (begin < end && std::isspace(static_cast<unsigned char>(source[begin]))) ++begin;
    while (end > begin && std::isspace(static_cast<unsigned char>(source[end - 1]))) --end;
    if (begin >= end || end > source.size()) return;
    std::string text = copied_from.substr(begin, end - begin);
    for (const auto& [at, rewrite] : u.rewrites)
      if (at == begin) text = rewrite;
    copies.push_back({begin, end - begin, std::move(text)});
  };
  // (a term is a copy of its own, also next to another unknown piece: "😀 Acme Cloud")
  const auto in_run = [&](size_t k) {
    const Token& t = u.tokens[k];
    return t.id == unk_id && std::none_of(u.terms.begin(), u.terms.end(), [&](const TextEdit& term) {
             return term.at < t.end && t.begin < term.at + term.length;
           });
  };
  // a run: unknown pieces one after another, or with a lone word-boundary piece between them
  for (size_t k = 0; k < u.tokens.size();) {
    if (!in_run(k)) {
      ++k;
      continue;
    }
    size_t last = k;
    while (true) {
      if (last + 1 < u.tokens.size() && in_run(last + 1)) ++last;
      else if (last + 2 < u.tokens.size() && in_run(last + 2) && u.tokens[last + 1].piece == "\xE2\x96\x81") last += 2;
      else break;
    }
    add(u.tokens[k].begin, u.tokens[last].end);
    k = last + 1;
  }
  for (auto [begin, end] : u.dropped) add(begin, end);
  return copies;
}

// The alignments of a translated unit: its source and target tokens with their spans, the
// hypothesis' attention (moved out of it) and the word alignment computed from them.
void add_alignments(const Unit& u, const std::vector<int>& target_words_ids,
                    const std::vector<std::pair<size_t, size_t>>& target_spans, const SentencePiece& tokenizer,
                    Hypothesis& h, SentenceTranslation& s) {
  s.source_tokens.reserve(u.tokens.size() + 1);
  s.target_tokens.reserve(target_words_ids.size() + 1);
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
  align_copies(known_copies(u, s.source, tokenizer.unk_id()), s.source, s.target, s.words);
  align_mark_runs(s.source, s.target, s.words);
  std::vector<Span> marks;  // the emphasis marks, which the model read as nothing
  for (const EmphasisMark& m : u.emphasis) marks.push_back({m.begin, m.end});
  align_written_words(s.source, s.target, tgt_spans, s.words, marks);
  for (const std::vector<int>& toks : word_tokens(s.words.target_words, tgt_spans, tgt_spans.size(), s.target.size())) {
    float p = 1.0f;
    for (int k : toks) p *= s.token_probs[size_t(k)];
    s.target_word_probs.push_back(p);
  }
}

// A copied unit's attention when the result returns alignments: each of its `n` tokens (eos
// included) on itself, in the mean and, with `heads_per_token`, in every layer and head.
void copy_attention(size_t n, size_t heads_per_token, Hypothesis& h) {
  h.attention.assign(n * n, 0.0f);
  for (size_t k = 0; k < n; ++k) h.attention[k * n + k] = 1.0f;
  if (!heads_per_token) return;
  h.heads.assign(n * heads_per_token * n, 0.0f);
  for (size_t k = 0; k < n; ++k)
    for (size_t j = 0; j < heads_per_token; ++j) h.heads[(k * heads_per_token + j) * n + k] = 1.0f;
}

// One unit and its hypothesis as a SentenceTranslation (target_begin/end are set by the caller):
// the decoded text, repaired by the target passes (text/passes.h); with a `prefix`, its text
// starts with the prefix verbatim. The unit's ids and the hypothesis' attention move into it.
SentenceTranslation describe_unit(const std::string& text, Unit& u, Hypothesis& h, const TargetWriter& writer,
                                  bool in_code) {
  const SentencePiece& tokenizer = writer.tokenizer;
  const int eos_id = writer.eos_id;
  const TargetPrefix* prefix = writer.prefix;
  SentenceTranslation s;
  s.source = text.substr(u.begin, u.end - u.begin);
  s.source_begin = u.begin;
  s.source_end = u.end;
  s.source_ids = std::move(u.ids);
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
  t.from = writer.languages.from;
  t.to = writer.languages.to;
  for (float lp : h.token_log_probs) t.token_probs.push_back(s.from_memory ? 1.0f : std::exp(lp));
  t.fixed = prefix ? prefix->text.size() : 0;
  t.prefixed = prefix != nullptr;
  t.copied = u.copied;
  t.starts_sentence = u.starts_sentence;
  t.in_capitals = u.source_case == SentenceCase::upper;
  t.in_code = in_code;
  if (u.copied && writer.alignments && h.attention.empty()) copy_attention(h.tokens.size(), writer.heads_per_token, h);
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
  run_target_passes(t, writer.switches);
  s.passes = u.fired;
  s.passes.insert(s.passes.end(), t.fired.begin(), t.fired.end());
  s.target = std::move(t.target);
  s.token_probs = std::move(t.token_probs);
  if (writer.alignments) add_alignments(u, words_ids, t.spans, tokenizer, h, s);
  return s;
}

}  // namespace

void assemble(const std::string& text, const std::vector<TextPiece>& pieces, std::vector<Unit>& units,
              std::vector<Hypothesis>& hyps, const TargetWriter& writer, Translation& out, const SentenceSink* sink) {
  size_t next_unit = 0;
  const std::vector<std::pair<size_t, size_t>> code = code_blocks(text);  // copied as they are (units.cpp)
  size_t block = 0;
  for (size_t p = 0; p < pieces.size(); ++p) {
    if (!pieces[p].is_sentence) {
      out.text.append(text, pieces[p].begin, pieces[p].end - pieces[p].begin);
      continue;
    }
    for (bool first = true; next_unit < units.size() && units[next_unit].piece == p; ++next_unit, first = false) {
      const size_t cut = units[next_unit].begin;
      while (block < code.size() && code[block].second <= cut) ++block;
      const bool in_code = units[next_unit].copied && block < code.size() && code[block].first <= cut;
      SentenceTranslation s = describe_unit(text, units[next_unit], hyps[next_unit], writer, in_code);
      units[next_unit] = Unit{};  // (used up: its tokens are in the sentence now)
      hyps[next_unit] = Hypothesis{};
      // chunks of a long sentence: a space between their translations where the source had one
      // at the cut (a run of 5,000 letters with no space in it stays one word), unless a copied
      // chunk's own text already has it (a long line of numbers gained a space every 128 tokens)
      const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
      if (!first && (space(text[cut]) || (cut > 0 && space(text[cut - 1]))) && !(!out.text.empty() && space(out.text.back())) &&
          !(!s.target.empty() && space(s.target.front())))
        out.text += ' ';
      s.target_begin = out.text.size();
      out.text += s.target;
      s.target_end = out.text.size();
      out.source_tokens += int(s.source_ids.size());
      out.target_tokens += int(s.target_ids.size());
      if (sink) (*sink)(std::move(s), out);
      else out.sentences.push_back(std::move(s));
    }
  }
  // Whitespace-only input comes back as it is, like the whitespace around any sentence (and as the
  // JS module, which keeps the gaps between its chunks, returns it).
}

}  // namespace nmt
