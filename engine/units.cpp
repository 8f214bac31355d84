// Text -> units; see units.h.
#include "units.h"

#include <algorithm>
#include <cstring>

#include "text/memory.h"
#include "text/numbers.h"
#include "text/utf8.h"
#include "text/verbatim.h"

namespace nmt {
namespace {

// Cuts a token list longer than `limit` tokens or `max_bytes` of text into runs of at most that,
// preferring to cut before a token that starts a word ("▁...") right after punctuation, else before
// any word start. (A single token longer than `max_bytes` is a run of its own.)
std::vector<std::pair<size_t, size_t>> chunk_tokens(const std::vector<Token>& toks, size_t limit, size_t max_bytes) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t start = 0;
  auto starts_word = [&](size_t i) { return toks[i].piece.rfind("\xE2\x96\x81", 0) == 0; };
  const auto fits = [&](size_t from, size_t to) {
    return to - from <= limit && (to == from || toks[to - 1].end - toks[from].begin <= max_bytes);
  };
  while (!fits(start, toks.size())) {
    size_t room = start + 1;  // the most tokens from `start` that fit (one at least)
    while (room < toks.size() && room - start < limit && toks[room].end - toks[start].begin <= max_bytes) ++room;
    size_t cut = 0;
    for (size_t i = room; i > start + (room - start) / 2 && !cut; --i) {
      const std::string& prev = toks[i - 1].piece;
      if (starts_word(i) && !prev.empty() && std::strchr(".,;:!?)", prev.back())) cut = i;
    }
    for (size_t i = room; i > start + (room - start) / 2 && !cut; --i)
      if (starts_word(i)) cut = i;
    if (!cut) cut = room;
    out.emplace_back(start, cut);
    start = cut;
  }
  out.emplace_back(start, toks.size());
  return out;
}

// An unknown piece longer than `max_bytes` (a run of characters the vocabulary lacks) as unknown
// pieces of at most `max_bytes` each, cut between characters; other tokens as they are.
std::vector<Token> cut_long_unknowns(std::vector<Token> toks, std::string_view sentence, int unk_id, size_t max_bytes) {
  const auto long_unknown = [&](const Token& t) { return t.id == unk_id && t.end - t.begin > max_bytes && t.end <= sentence.size(); };
  if (std::none_of(toks.begin(), toks.end(), long_unknown)) return toks;
  std::vector<Token> out;
  for (Token& t : toks) {
    if (!long_unknown(t)) {
      out.push_back(std::move(t));
      continue;
    }
    for (size_t begin = t.begin; begin < t.end;) {
      size_t end = std::min(t.end, begin + max_bytes);
      while (end < t.end && end > begin + 1 && (static_cast<unsigned char>(sentence[end]) & 0xC0) == 0x80) --end;
      out.push_back({unk_id, std::string(sentence.substr(begin, end - begin)), begin, end});
      begin = end;
    }
  }
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
  u.tokens.reserve(b - a);
  u.ids.reserve(b - a + 1);
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

// The tokens of what the source passes made of a sentence (`read.shown`, its masked spans shown as
// one unknown piece each), spans in the sentence as given; an unknown piece reads as the text it
// stands for (a masked address: not its mask).
std::vector<Token> tokens_of(const SourceSentence& read, const SentencePiece& tokenizer) {
  std::vector<Token> toks = tokenizer.encode(mask_spans(read.shown, read.masked));
  for (Token& t : toks)
    if (t.id == tokenizer.unk_id() && t.end <= read.sentence.size())
      t.piece = std::string(read.sentence.substr(t.begin, t.end - t.begin));
  return toks;
}

// The memory's translation of a sentence as the ids its search is forced through (+ eos); empty
// when the tokenizer would write it with an unknown piece or it is too long for the model.
std::vector<int> memory_ids(const std::string& translation, const SentencePiece& tokenizer, const ModelConfig& c) {
  std::vector<int> ids;
  for (const Token& t : tokenizer.encode(translation)) ids.push_back(t.id);
  if (ids.empty() || std::count(ids.begin(), ids.end(), c.unk_id) || int(ids.size()) + 1 >= c.max_length) return {};
  ids.push_back(c.eos_id);
  return ids;
}

}  // namespace

std::vector<Unit> read_units(const std::string& text, const std::vector<TextPiece>& pieces, const SourceReader& reader) {
  std::vector<Unit> units;
  const ModelConfig& c = reader.config;
  const size_t max_tokens = std::min(size_t(c.max_length - 1), reader.chunk_tokens);  // (room for eos)
  const bool one_sentence = std::count_if(pieces.begin(), pieces.end(), [](const TextPiece& p) { return p.is_sentence; }) == 1;
  const ByteSpans code_blocks = nmt::code_blocks(text);  // Markdown code blocks, fenced and indented: copied, not translated
  size_t block = 0;                                          // (both in order)
  for (size_t p = 0; p < pieces.size(); ++p) {
    if (!pieces[p].is_sentence) continue;
    while (block < code_blocks.size() && code_blocks[block].second <= pieces[p].begin) ++block;
    const bool in_code = block < code_blocks.size() && code_blocks[block].first <= pieces[p].begin;
    const std::string_view sentence(text.data() + pieces[p].begin, pieces[p].end - pieces[p].begin);
    SentenceCase how = reader.truecaser ? sentence_case(sentence, reader.language) : SentenceCase::normal;
    if (how == SentenceCase::fragment && !one_sentence) how = SentenceCase::normal;  // "(see below)" in a text
    SourceSentence read(sentence, reader.language, how, reader.truecaser);
    read.glossary = reader.glossary;
    read.in_code = in_code;
    read.memory = reader.memory;
    std::vector<std::string> fired;
    run_source_passes(read, reader.switches, &fired);  // text/passes.h
    const std::vector<Token> toks =
        cut_long_unknowns(tokens_of(read, reader.tokenizer), sentence, reader.tokenizer.unk_id(), reader.chunk_bytes);
    const std::vector<EmphasisMark> marks =
        reader.switches.on("emphasis") ? find_emphasis(sentence, read.masked) : std::vector<EmphasisMark>{};
    // (once per sentence: each chunk of a long sentence shares it)
    const bool continues_line = continues_a_line(text, pieces, p);  // (text/segmenter.h)
    const bool nothing_to_translate =
        in_code || has_no_words(sentence) || has_no_known_words(toks, reader.tokenizer.unk_id());
    for (auto [a, b] : chunk_tokens(toks, max_tokens, reader.chunk_bytes)) {
      Unit u = make_unit(toks, a, b, pieces[p], p, c.eos_id);
      if (continues_line) u.starts_sentence = false;  // its translation starts in lower case too
      u.source_case = how;
      u.fired = fired;
      const bool whole = a == 0 && b == toks.size();
      if (whole) u.masked = read.masked;  // (only a whole sentence is read again; a copy per chunk grows as chunks x spans)
      const size_t from = u.begin - pieces[p].begin, to = u.end - pieces[p].begin;
      // each term goes with the chunk it starts in (the terms are in order: from the first at `from`)
      const auto first_term = std::lower_bound(read.terms.begin(), read.terms.end(), from,
                                               [](const TextEdit& t, size_t at) { return t.at < at; });
      for (auto t = first_term; t != read.terms.end() && t->at < to; ++t)
        if (t->at + t->length <= to) {
          u.terms.push_back({t->at - from, t->length, t->text});
          u.rewrites.emplace_back(t->at - from, t->text);
        }
      for (EmphasisMark m : marks)  // each mark goes with the chunk it is in, marking within it
        if (m.begin >= from && m.begin < to) {
          m.marks_begin = std::clamp(m.marks_begin, from, to) - from;
          m.marks_end = std::clamp(m.marks_end, from, to) - from;
          m.begin -= from;
          m.end = std::min(m.end, to) - from;
          u.emphasis.push_back(m);
        }
      // (zero-width characters alone: nothing, not a copy); a chunk of a long sentence with nothing
      // to translate in it is copied too (50,000 quotation marks around one word: 391 chunks the
      // model ran for 141 s, for the one word)
      u.copied = !u.tokens.empty() &&
                 (nothing_to_translate || (!whole && (has_no_words(std::string_view(text).substr(u.begin, u.end - u.begin)) ||
                                                      has_no_known_words(u.tokens, reader.tokenizer.unk_id()))));
      u.dropped = dropped_runs(text.substr(u.begin, u.end - u.begin),
                               [&](std::string_view ch) { return reader.tokenizer.normalizes_to_nothing(ch); });
      // a whole sentence the model runs is forced through the memory's translation (text/memory.h)
      if (!read.memory_translation.empty() && whole && !u.tokens.empty() && !u.copied)
        u.memory_ids = memory_ids(read.memory_translation, reader.tokenizer, c);
      if (!read.memory_translation.empty() && u.memory_ids.empty())  // (the memory's translation not used)
        u.fired.erase(std::remove(u.fired.begin(), u.fired.end(), "memory"), u.fired.end());
      units.push_back(std::move(u));
    }
  }
  return units;
}

Unit reread_sentence(const std::string& text, const TextPiece& piece, size_t p, SentenceCase how,
                     const std::vector<std::pair<size_t, size_t>>& masked, const SourceReader& reader) {
  const std::string_view sentence(text.data() + piece.begin, piece.end - piece.begin);
  SourceSentence read(sentence, reader.language, how, reader.truecaser, masked);
  run_source_passes(read, reader.switches);  // (no glossary or memory: the first reading found those)
  const std::vector<Token> toks = tokens_of(read, reader.tokenizer);
  if (toks.size() > size_t(reader.config.max_length - 1)) return Unit{};
  return make_unit(toks, 0, toks.size(), piece, p, reader.config.eos_id);
}

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

}  // namespace nmt
