// SentencePiece unigram tokenizer, written from scratch (no sentencepiece/protobuf libraries) and
// checked to produce exactly the pieces `spm_encode` (sentencepiece 0.1.97) produces. load() parses
// the ModelProto bytes that spm_train writes; encode() normalizes the text (normalizer.h) and runs
// Viterbi over the unigram lattice of the model's pieces; decode() turns ids back into text the way
// `spm_decode` does. Only unigram models without byte_fallback / treat_whitespace_as_suffix are
// accepted (load() says so otherwise).
//
// Offset rule (Token::begin/end), identical to spm's SentencePieceText begin/end (checked against
// the library on ~35k lines, golden in tests/fixtures/spm_golden/edge.offsets.txt): each normalized
// byte remembers the original offset of the input chunk it came from, and a piece covering
// normalized bytes [b, e) gets [orig(b), orig(e)). Hence:
//   - consecutive pieces are contiguous (end of one == begin of the next), spans never decrease;
//   - a "▁" standing for whitespace starts at that whitespace, so "▁world" in "hello  world"
//     covers "  world" (collapsed spaces included); the dummy-prefix "▁" of the first piece starts
//     at the first non-whitespace byte, so a lone dummy "▁" piece has an empty span;
//   - leading and trailing whitespace belong to no piece;
//   - a character whose normalized form is split between pieces (e.g. "ﬂow" -> "▁f" "low") is
//     covered only by the piece holding the end of that form; the earlier piece stops before the
//     character (here "▁f" covers just the preceding space; a piece made only of such a prefix
//     gets an empty span);
//   - consecutive unknown characters form ONE token (id unk_id, piece = their normalized text),
//     as spm_encode merges them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "tokenizer/byte_trie.h"
#include "tokenizer/normalizer.h"

namespace nmt {

struct Token {
  int id;
  std::string piece;  // normalized text of the piece, e.g. "\xE2\x96\x81Hallo" ("▁Hallo")
  size_t begin, end;  // byte span in the original input (see the offset rule above)
};

class SentencePiece {
 public:
  SentencePiece() = default;  // empty (encode gives no tokens) until assigned from load()

  // Parses ModelProto bytes (as spm_train writes them); errors name what is wrong.
  static Result<SentencePiece> load(const uint8_t* data, size_t size);

  // Pieces of `text` (any bytes: invalid UTF-8 becomes U+FFFD, unknown characters unk_id).
  std::vector<Token> encode(std::string_view text) const;

  // Text of the ids as spm_decode prints it: pieces concatenated with "▁" -> " ", the leading
  // "▁" dropped while the text is still empty, control ids (pad/bos/eos) skipped, unk_id (and any
  // id outside [0, vocab_size)) -> unk surface " ⁇ ". If spans != nullptr, (*spans)[i] is the
  // byte span of ids[i]'s text in the result (empty for skipped ids).
  std::string decode(const std::vector<int>& ids,
                     std::vector<std::pair<size_t, size_t>>* spans = nullptr) const;

  // True when the normalizer turns `text` (e.g. one character) into nothing at all, so encode()
  // gives it no piece and the model never sees it: whitespace, and characters the charsmap deletes
  // (nmt_nfkc: U+FFFD, U+200B, U+FEFF). text/pass_through.h copies the visible ones over.
  bool normalizes_to_nothing(std::string_view text) const;

  int vocab_size() const { return static_cast<int>(pieces_.size()); }
  const std::string& id_to_piece(int id) const;  // "" for ids out of range
  int unk_id() const { return unk_id_; }
  int bos_id() const { return bos_id_; }
  int eos_id() const { return eos_id_; }
  int pad_id() const { return pad_id_; }

 private:
  enum PieceType : uint8_t { kNormal = 1, kUnknown = 2, kControl = 3, kUserDefined = 4, kUnused = 5, kByte = 6 };
  struct Piece {
    std::string text;
    float score = 0.f;
    PieceType type = kNormal;
  };

  Status init(const NormalizerSpec& normalizer_spec);  // validates, builds the lookup structures
  // Viterbi segmentation of normalized text: (start, end, id) triples in normalized bytes.
  struct Span { size_t begin, end; int id; };
  std::vector<Span> viterbi(std::string_view normalized) const;

  std::vector<Piece> pieces_;
  ByteTrie trie_;          // NORMAL and USER_DEFINED pieces -> id
  Normalizer normalizer_;
  std::string unk_surface_ = " \xE2\x81\x87 ";
  float min_score_ = 0.f, max_score_ = 0.f;  // over NORMAL pieces
  int unk_id_ = -1, bos_id_ = -1, eos_id_ = -1, pad_id_ = -1;
  int trainer_unk_id_ = 0, trainer_bos_id_ = 1, trainer_eos_id_ = 2, trainer_pad_id_ = -1;
};

}  // namespace nmt
