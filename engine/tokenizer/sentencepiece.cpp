// SentencePiece unigram tokenizer (see sentencepiece.h). Reading order: load() walks the ModelProto
// (pieces = field 1, TrainerSpec = 2, NormalizerSpec = 3) with the wire-format reader; init()
// checks the vocabulary and builds the piece trie; encode() = normalize + viterbi + merge of
// consecutive unknowns; decode() mirrors SentencePieceProcessor::Decode. viterbi() follows
// sentencepiece's Model::EncodeOptimized, including its arithmetic types, because exact parity on
// score ties depends on them.
#include "tokenizer/sentencepiece.h"

#include <algorithm>
#include <cfloat>
#include <unordered_set>

#include "text/utf8.h"
#include "tokenizer/protobuf_reader.h"

namespace nmt {
namespace {

constexpr std::string_view kSpaceSymbol = "\xE2\x96\x81";  // "▁"
constexpr float kUnkPenalty = 10.0f;                        // unk score = min piece score - 10

// Bytes in the UTF-8 character starting with byte c (1 for stray continuation bytes), as
// sentencepiece's OneCharLen.
inline size_t one_char_len(uint8_t c) {
  static constexpr uint8_t kLen[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
  return kLen[c >> 4];
}

Error proto_error(const char* where, const std::string& what) {
  return Error{std::string("SentencePiece model: ") + where + ": " + what};
}

// Checks that a field has the wire type its schema says; unknown fields are skipped by callers.
bool wire_is(const pb::Field& f, int wire_type) { return f.wire_type == wire_type; }

struct TrainerInfo {
  int model_type = 1;  // UNIGRAM
  bool byte_fallback = false;
  bool treat_whitespace_as_suffix = false;
};

}  // namespace

Result<SentencePiece> SentencePiece::load(const uint8_t* data, size_t size) {
  if (data == nullptr || size == 0) return Error{"SentencePiece model: empty input"};
  SentencePiece sp;
  NormalizerSpec norm;
  TrainerInfo trainer;
  bool have_trainer = false, have_normalizer = false;

  pb::Reader model(data, size);
  pb::Field f;
  while (model.next(&f)) {
    if (f.number == 1) {  // repeated SentencePiece pieces
      if (!wire_is(f, pb::kLengthDelimited)) return proto_error("pieces", "wrong wire type");
      Piece piece;
      pb::Reader r(f.bytes);
      pb::Field g;
      while (r.next(&g)) {
        if (g.number == 1 && wire_is(g, pb::kLengthDelimited)) {
          piece.text = std::string(g.bytes);
        } else if (g.number == 2 && wire_is(g, pb::kFixed32)) {
          piece.score = g.as_float();
        } else if (g.number == 3 && wire_is(g, pb::kVarint)) {
          if (g.varint < kNormal || g.varint > kByte)
            return proto_error("pieces", "unknown piece type " + std::to_string(g.varint));
          piece.type = static_cast<PieceType>(g.varint);
        } else if (g.number <= 3) {
          return proto_error("pieces", "field " + std::to_string(g.number) + " has a wrong wire type");
        }
      }
      if (!r.error().empty()) return proto_error("pieces", r.error());
      sp.pieces_.push_back(std::move(piece));
    } else if (f.number == 2) {  // TrainerSpec
      if (!wire_is(f, pb::kLengthDelimited)) return proto_error("trainer_spec", "wrong wire type");
      have_trainer = true;
      pb::Reader r(f.bytes);
      pb::Field g;
      while (r.next(&g)) {
        if (g.number == 44 && wire_is(g, pb::kLengthDelimited)) {
          sp.unk_surface_ = std::string(g.bytes);
          continue;
        }
        if (!wire_is(g, pb::kVarint)) continue;  // fields we read are all varints
        switch (g.number) {
          case 3: trainer.model_type = g.as_int32(); break;
          case 24: trainer.treat_whitespace_as_suffix = g.as_bool(); break;
          case 35: trainer.byte_fallback = g.as_bool(); break;
          case 40: sp.trainer_unk_id_ = g.as_int32(); break;
          case 41: sp.trainer_bos_id_ = g.as_int32(); break;
          case 42: sp.trainer_eos_id_ = g.as_int32(); break;
          case 43: sp.trainer_pad_id_ = g.as_int32(); break;
          default: break;
        }
      }
      if (!r.error().empty()) return proto_error("trainer_spec", r.error());
    } else if (f.number == 3) {  // NormalizerSpec
      if (!wire_is(f, pb::kLengthDelimited)) return proto_error("normalizer_spec", "wrong wire type");
      have_normalizer = true;
      pb::Reader r(f.bytes);
      pb::Field g;
      while (r.next(&g)) {
        if (g.number == 2 && wire_is(g, pb::kLengthDelimited)) {
          norm.precompiled_charsmap = std::string(g.bytes);
        } else if (wire_is(g, pb::kVarint)) {
          if (g.number == 3) norm.add_dummy_prefix = g.as_bool();
          if (g.number == 4) norm.remove_extra_whitespaces = g.as_bool();
          if (g.number == 5) norm.escape_whitespaces = g.as_bool();
        }
      }
      if (!r.error().empty()) return proto_error("normalizer_spec", r.error());
    }
  }
  if (!model.error().empty()) return proto_error("ModelProto", model.error());

  if (sp.pieces_.empty()) return Error{"SentencePiece model: no pieces (not a ModelProto?)"};
  if (trainer.model_type != 1)
    return Error{"SentencePiece model: only unigram models are supported (model_type " +
                 std::to_string(trainer.model_type) + ")"};
  if (trainer.byte_fallback) return Error{"SentencePiece model: byte_fallback is not supported"};
  if (trainer.treat_whitespace_as_suffix)
    return Error{"SentencePiece model: treat_whitespace_as_suffix is not supported"};
  // spm_train always writes both specs, after the pieces: a missing one means a truncated file.
  if (!have_trainer || !have_normalizer)
    return Error{"SentencePiece model: missing trainer_spec or normalizer_spec (truncated file?)"};

  Status st = sp.init(norm);
  if (!st) return Error{st.error()};
  return sp;
}

Status SentencePiece::init(const NormalizerSpec& normalizer_spec) {
  std::vector<std::pair<std::string, int>> trie_entries;
  std::vector<std::string> user_symbols;
  std::unordered_set<std::string_view> seen;  // (views into pieces_, which does not change here)
  min_score_ = FLT_MAX;
  max_score_ = FLT_MIN;  // sic: sentencepiece starts from FLT_MIN (smallest positive float)
  for (size_t i = 0; i < pieces_.size(); ++i) {
    const Piece& p = pieces_[i];
    const int id = static_cast<int>(i);
    if (p.text.empty()) return Error{"SentencePiece model: piece " + std::to_string(i) + " is empty"};
    // Translations are made of piece texts: an invalid one would put invalid UTF-8 in the output
    // (and its offsets would not match the text JavaScript gets). spm_train never writes one.
    if (!is_valid_utf8(p.text)) return Error{"SentencePiece model: piece " + std::to_string(i) + " is not valid UTF-8"};
    if (!seen.insert(p.text).second)
      return Error{"SentencePiece model: piece \"" + p.text + "\" is defined twice"};
    switch (p.type) {
      case kNormal:
        min_score_ = std::min(min_score_, p.score);
        max_score_ = std::max(max_score_, p.score);
        trie_entries.emplace_back(p.text, id);
        break;
      case kUserDefined:
        trie_entries.emplace_back(p.text, id);
        user_symbols.push_back(p.text);
        break;
      case kUnknown:
        if (unk_id_ >= 0) return Error{"SentencePiece model: more than one unknown piece"};
        unk_id_ = id;
        break;
      case kByte:
        return Error{"SentencePiece model: byte pieces are not supported"};
      default:
        break;  // CONTROL and UNUSED pieces never come out of encode()
    }
  }
  if (unk_id_ < 0) return Error{"SentencePiece model: no unknown piece"};
  auto control = [&](int id) {
    return id >= 0 && id < vocab_size() && pieces_[id].type == kControl ? id : -1;
  };
  bos_id_ = control(trainer_bos_id_);
  eos_id_ = control(trainer_eos_id_);
  pad_id_ = control(trainer_pad_id_);

  trie_ = ByteTrie(trie_entries);
  auto normalizer = Normalizer::create(normalizer_spec, user_symbols);
  if (!normalizer) return Error{"SentencePiece model: " + normalizer.error()};
  normalizer_ = std::move(normalizer.value());
  return Status();
}

std::vector<SentencePiece::Span> SentencePiece::viterbi(std::string_view normalized) const {
  // best[e]: best path over normalized[0, e) — its score, and the last piece (start, id).
  struct Best {
    int id = -1;
    float score = 0.f;
    int64_t start = -1;
  };
  const size_t n = normalized.size();
  std::vector<Best> best(n + 1);
  const float unk_score = min_score_ - kUnkPenalty;
  const char* s = normalized.data();

  size_t start = 0;
  while (start < n) {
    const float score_here = best[start].score;
    const size_t mblen = std::min(one_char_len(static_cast<uint8_t>(s[start])), n - start);
    bool has_single = false;
    trie_.for_each_prefix(s + start, n - start, [&](size_t len, int id) {
      const Piece& p = pieces_[id];
      // sentencepiece computes this in double (the user-symbol branch is double) and stores a
      // float: comparing the double candidate with the stored float decides exact ties.
      const double score = p.type == kUserDefined
                               ? static_cast<double>(static_cast<float>(len) * max_score_) - 0.1
                               : static_cast<double>(p.score);
      const double candidate = score + static_cast<double>(score_here);
      Best& target = best[start + len];
      if (target.start == -1 || candidate > static_cast<double>(target.score)) {
        target.score = static_cast<float>(candidate);
        target.start = static_cast<int64_t>(start);
        target.id = id;
      }
      if (len == mblen) has_single = true;
      return true;
    });
    if (!has_single) {  // no piece is exactly this character: an unknown node of one character
      const float candidate = unk_score + score_here;
      Best& target = best[start + mblen];
      if (target.start == -1 || candidate > target.score) {
        target.score = candidate;
        target.start = static_cast<int64_t>(start);
        target.id = unk_id_;
      }
    }
    start += mblen;
  }

  std::vector<Span> path;
  for (size_t end = n; end > 0;) {
    const Best& b = best[end];
    if (b.start < 0 || static_cast<size_t>(b.start) >= end) break;  // cannot happen; never loop
    path.push_back({static_cast<size_t>(b.start), end, b.id});
    end = static_cast<size_t>(b.start);
  }
  std::reverse(path.begin(), path.end());
  return path;
}

bool SentencePiece::normalizes_to_nothing(std::string_view text) const {
  if (pieces_.empty()) return false;  // default-constructed: no normalizer to ask
  std::string normalized;
  std::vector<size_t> norm_to_orig;
  normalizer_.normalize(text, &normalized, &norm_to_orig);
  return normalized.empty();
}

std::vector<Token> SentencePiece::encode(std::string_view text) const {
  if (pieces_.empty()) return {};  // default-constructed
  std::string normalized;
  std::vector<size_t> norm_to_orig;
  normalizer_.normalize(text, &normalized, &norm_to_orig);
  std::vector<Token> tokens;
  if (normalized.empty()) return tokens;

  const std::vector<Span> path = viterbi(normalized);
  tokens.reserve(path.size());
  bool prev_unk = false;
  for (const Span& s : path) {
    const bool is_unk = s.id == unk_id_;
    const std::string_view piece = std::string_view(normalized).substr(s.begin, s.end - s.begin);
    const size_t begin = norm_to_orig[s.begin], end = norm_to_orig[s.end];
    if (is_unk && prev_unk) {  // spm_encode merges runs of unknown characters into one piece
      tokens.back().piece += piece;
      tokens.back().end = end;
    } else {
      tokens.push_back(Token{s.id, std::string(piece), begin, end});
    }
    prev_unk = is_unk;
  }
  return tokens;
}

std::string SentencePiece::decode(const std::vector<int>& ids,
                                  std::vector<std::pair<size_t, size_t>>* spans) const {
  std::string text;
  if (spans) spans->clear();
  for (const int id : ids) {
    const size_t begin = text.size();
    const bool valid = id >= 0 && id < vocab_size();
    const PieceType type = valid ? pieces_[id].type : kUnknown;
    if (type == kControl) {
      // invisible
    } else if (type == kUnknown) {
      text += unk_surface_;
    } else {
      std::string_view piece = pieces_[id].text;
      // The first visible piece loses its leading "▁" (the dummy prefix); note that this keeps
      // applying while the text is still empty, as in sentencepiece 0.1.97.
      if (text.empty() && piece.substr(0, kSpaceSymbol.size()) == kSpaceSymbol)
        piece.remove_prefix(kSpaceSymbol.size());
      for (size_t pos = 0; pos < piece.size();) {
        if (piece.compare(pos, kSpaceSymbol.size(), kSpaceSymbol) == 0) {
          text += ' ';
          pos += kSpaceSymbol.size();
        } else {
          text += piece[pos++];
        }
      }
    }
    if (spans) spans->emplace_back(begin, text.size());
  }
  return text;
}

const std::string& SentencePiece::id_to_piece(int id) const {
  static const std::string kEmpty;
  return id >= 0 && id < vocab_size() ? pieces_[id].text : kEmpty;
}

}  // namespace nmt
