// Tests for the SentencePiece tokenizer (engine/tokenizer). The core check is parity with the
// reference tools: every line of both columns of every dev set, plus ~1,500 seeded edge-case lines
// (invalid UTF-8, control characters, NFKC-sensitive and out-of-vocabulary scripts), must give
// exactly the pieces `spm_encode` gave and decode to exactly what `spm_decode` printed; the golden
// files come from tests/fixtures/make_spm_golden.sh; the edge cases' offsets must also equal the
// begin/end the library reports. Then: the offset rule documented in sentencepiece.h, decode spans,
// clear errors for bad model bytes, and no crash or hang on hostile text.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "text/utf8.h"
#include "tokenizer/sentencepiece.h"

namespace {

const char* const kDevSets[] = {"flores-dev.en-de", "multi30k-test2016.en-de", "multi30k-val.en-de",
                                "tatoeba-dev.en-de"};
const std::string kSpace = "\xE2\x96\x81";  // "▁"

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Lines separated by '\n' (a final newline does not start another line); '\r' and NUL are kept.
std::vector<std::string> read_lines(const std::string& path) {
  const std::string data = read_file(path);
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < data.size()) {
    size_t nl = data.find('\n', start);
    if (nl == std::string::npos) nl = data.size();
    lines.push_back(data.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// Column `col` (0 = en, 1 = de) of a two-column TSV.
std::vector<std::string> tsv_column(const std::string& path, int col) {
  std::vector<std::string> out;
  for (const std::string& line : read_lines(path)) {
    const size_t tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    out.push_back(col == 0 ? line.substr(0, tab) : line.substr(tab + 1));
  }
  return out;
}

const nmt::SentencePiece& model() {
  static const nmt::SentencePiece sp = [] {
    const std::string bytes = read_file(NMT_FIXTURES "/spm.model");
    auto r = nmt::SentencePiece::load(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    REQUIRE_MESSAGE(r.ok(), r.error());
    return std::move(r.value());
  }();
  return sp;
}

std::string joined_pieces(const std::vector<nmt::Token>& tokens) {
  std::string s;
  for (size_t i = 0; i < tokens.size(); ++i) s += (i ? " " : "") + tokens[i].piece;
  return s;
}

std::vector<int> ids_of(const std::vector<nmt::Token>& tokens) {
  std::vector<int> ids;
  for (const auto& t : tokens) ids.push_back(t.id);
  return ids;
}

// Printable form of arbitrary bytes for failure messages.
std::string show(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

struct Tally {
  size_t total = 0, matched = 0;
  std::vector<std::string> first_mismatches;
  void add(bool ok, const std::string& where, const std::string& input, const std::string& expected,
           const std::string& got) {
    ++total;
    if (ok) {
      ++matched;
    } else if (first_mismatches.size() < 8) {
      first_mismatches.push_back(where + "\n  input:    " + show(input) + "\n  expected: " +
                                 show(expected) + "\n  got:      " + show(got));
    }
  }
  void report(const char* what) const {
    MESSAGE(std::string(what) << ": " << matched << " / " << total << " lines match");
    for (const auto& m : first_mismatches) MESSAGE(m);
    CHECK(matched == total);
  }
};

// Offsets must lie within the input, never decrease, and tile a contiguous range.
void check_offsets(const std::string& text, const std::vector<nmt::Token>& tokens) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    const auto& t = tokens[i];
    REQUIRE(t.begin <= t.end);
    REQUIRE(t.end <= text.size());
    if (i > 0) REQUIRE(t.begin == tokens[i - 1].end);
    REQUIRE(!t.piece.empty());
  }
}

}  // namespace

TEST_CASE("tokenizer: loads the fixture vocabulary") {
  const auto& sp = model();
  CHECK(sp.vocab_size() == 8000);
  CHECK(sp.pad_id() == 0);
  CHECK(sp.unk_id() == 1);
  CHECK(sp.bos_id() == 2);
  CHECK(sp.eos_id() == 3);
  CHECK(sp.id_to_piece(1) == "<unk>");
  CHECK(sp.id_to_piece(2) == "<s>");
  CHECK(sp.id_to_piece(-1).empty());
  CHECK(sp.id_to_piece(8000).empty());
}

TEST_CASE("tokenizer: pieces match spm_encode on every dev line, both columns") {
  const auto& sp = model();
  Tally tally;
  for (const char* set : kDevSets) {
    for (int col = 0; col < 2; ++col) {
      const std::string lang = col == 0 ? "en" : "de";
      const auto inputs = tsv_column(std::string(NMT_FIXTURES "/dev/") + set + ".tsv", col);
      const auto golden =
          read_lines(std::string(NMT_FIXTURES "/spm_golden/") + set + "." + lang + ".pieces.txt");
      REQUIRE(inputs.size() == golden.size());
      for (size_t i = 0; i < inputs.size(); ++i) {
        const std::string got = joined_pieces(sp.encode(inputs[i]));
        tally.add(got == golden[i], std::string(set) + " " + lang + " line " + std::to_string(i + 1),
                  inputs[i], golden[i], got);
      }
    }
  }
  CHECK(tally.total > 10000);
  tally.report("dev parity (pieces)");
}

TEST_CASE("tokenizer: pieces match spm_encode on edge cases (invalid UTF-8, controls, scripts)") {
  const auto& sp = model();
  const auto inputs = read_lines(NMT_FIXTURES "/spm_golden/edge.input.txt");
  const auto golden = read_lines(NMT_FIXTURES "/spm_golden/edge.pieces.txt");
  REQUIRE(inputs.size() == golden.size());
  Tally tally;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto tokens = sp.encode(inputs[i]);
    check_offsets(inputs[i], tokens);
    const std::string got = joined_pieces(tokens);
    tally.add(got == golden[i], "edge line " + std::to_string(i + 1), inputs[i], golden[i], got);
  }
  tally.report("edge-case parity (pieces)");
}

TEST_CASE("tokenizer: offsets equal the library's begin/end on edge cases") {
  const auto& sp = model();
  const auto inputs = read_lines(NMT_FIXTURES "/spm_golden/edge.input.txt");
  const auto golden = read_lines(NMT_FIXTURES "/spm_golden/edge.offsets.txt");
  REQUIRE(inputs.size() == golden.size());
  Tally tally;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string got;
    for (const auto& t : sp.encode(inputs[i]))
      got += (got.empty() ? "" : " ") + std::to_string(t.begin) + ":" + std::to_string(t.end);
    tally.add(got == golden[i], "edge line " + std::to_string(i + 1), inputs[i], golden[i], got);
  }
  tally.report("edge-case parity (offsets)");
}

TEST_CASE("tokenizer: decode(encode(x)) equals spm_decode of spm_encode's ids") {
  const auto& sp = model();
  Tally tally;
  auto run = [&](const std::vector<std::string>& inputs, const std::string& golden_path,
                 const std::string& name) {
    const auto golden = read_lines(golden_path);
    REQUIRE(inputs.size() == golden.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      const std::string got = sp.decode(ids_of(sp.encode(inputs[i])));
      tally.add(got == golden[i], name + " line " + std::to_string(i + 1), inputs[i], golden[i], got);
    }
  };
  for (const char* set : kDevSets) {
    run(tsv_column(std::string(NMT_FIXTURES "/dev/") + set + ".tsv", 0),
        std::string(NMT_FIXTURES "/spm_golden/") + set + ".en.decoded.txt", std::string(set) + " en");
    run(tsv_column(std::string(NMT_FIXTURES "/dev/") + set + ".tsv", 1),
        std::string(NMT_FIXTURES "/spm_golden/") + set + ".de.decoded.txt", std::string(set) + " de");
  }
  run(read_lines(NMT_FIXTURES "/spm_golden/edge.input.txt"),
      NMT_FIXTURES "/spm_golden/edge.decoded.txt", "edge");
  tally.report("round-trip parity (decode)");
}

TEST_CASE("tokenizer: decode of random id sequences equals spm_decode, spans tile the text") {
  const auto& sp = model();
  const auto inputs = read_lines(NMT_FIXTURES "/spm_golden/random_ids.input.txt");
  const auto golden = read_lines(NMT_FIXTURES "/spm_golden/random_ids.decoded.txt");
  REQUIRE(inputs.size() == golden.size());
  Tally tally;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<int> ids;
    std::istringstream in(inputs[i]);
    for (int id; in >> id;) ids.push_back(id);
    std::vector<std::pair<size_t, size_t>> spans;
    const std::string got = sp.decode(ids, &spans);
    tally.add(got == golden[i], "random ids line " + std::to_string(i + 1), inputs[i], golden[i], got);
    REQUIRE(spans.size() == ids.size());
    size_t pos = 0;
    for (size_t k = 0; k < ids.size(); ++k) {
      REQUIRE(spans[k].first == pos);
      REQUIRE(spans[k].second >= spans[k].first);
      pos = spans[k].second;
      if (ids[k] == sp.bos_id() || ids[k] == sp.eos_id() || ids[k] == sp.pad_id())
        CHECK(spans[k].first == spans[k].second);
    }
    REQUIRE(pos == got.size());
  }
  tally.report("decode parity (random ids)");
}

TEST_CASE("tokenizer: decode details") {
  const auto& sp = model();
  int hallo = -1;
  for (int id = 0; id < sp.vocab_size() && hallo < 0; ++id)
    if (sp.id_to_piece(id) == kSpace + "the") hallo = id;
  REQUIRE(hallo >= 0);
  std::vector<std::pair<size_t, size_t>> spans;
  CHECK(sp.decode({sp.bos_id(), hallo, hallo, sp.eos_id()}, &spans) == "the the");
  CHECK(spans == std::vector<std::pair<size_t, size_t>>{{0, 0}, {0, 3}, {3, 7}, {7, 7}});
  CHECK(sp.decode({sp.unk_id(), hallo}) == " \xE2\x81\x87  the");
  CHECK(sp.decode({}).empty());
  CHECK(sp.decode({-5, 100000}) == " \xE2\x81\x87  \xE2\x81\x87 ");  // invalid ids read as unknown
}

TEST_CASE("tokenizer: offsets follow the documented rule") {
  const auto& sp = model();
  SUBCASE("ASCII dev lines: each span is the piece's own text") {
    size_t checked = 0;
    for (const char* set : kDevSets) {
      for (int col = 0; col < 2; ++col) {
        for (const std::string& line : tsv_column(std::string(NMT_FIXTURES "/dev/") + set + ".tsv", col)) {
          bool simple = !line.empty() && line.front() != ' ' && line.back() != ' ' &&
                        line.find("  ") == std::string::npos;
          for (unsigned char c : line) simple = simple && c >= 0x20 && c < 0x7F;
          const auto tokens = sp.encode(line);
          check_offsets(line, tokens);
          if (!simple) continue;
          REQUIRE(!tokens.empty());
          CHECK(tokens.front().begin == 0);
          CHECK(tokens.back().end == line.size());
          for (size_t i = 0; i < tokens.size(); ++i) {
            std::string expect = i == 0 ? kSpace : "";
            for (char c : line.substr(tokens[i].begin, tokens[i].end - tokens[i].begin))
              expect += c == ' ' ? kSpace : std::string(1, c);
            REQUIRE_MESSAGE(tokens[i].piece == expect, show(line));
          }
          ++checked;
        }
      }
    }
    CHECK(checked > 5000);
  }
  SUBCASE("whitespace, dummy prefix, unknown runs, normalization") {
    const std::string text = "  Hello   world \t";
    const auto t = sp.encode(text);
    REQUIRE(!t.empty());
    CHECK(t.front().begin == 2);  // leading whitespace belongs to no piece
    CHECK(t.back().end == 15);    // nor does trailing whitespace
    CHECK(t.back().piece.rfind(kSpace, 0) == 0);
    CHECK(text.substr(t.back().begin, t.back().end - t.back().begin).find("   ") == 0);

    const std::string cjk = "a \xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E b";  // "a 日本語 b"
    const auto u = sp.encode(cjk);
    int unk_tokens = 0;
    for (const auto& tok : u) {
      if (tok.id != sp.unk_id()) continue;
      ++unk_tokens;
      CHECK(tok.piece == "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E");  // one merged unknown piece
      CHECK(tok.begin == 2);
      CHECK(tok.end == 11);
    }
    CHECK(unk_tokens == 1);

    const std::string lig = "\xEF\xAC\x81" "ne";  // "ﬁne" normalizes to "fine"
    const auto l = sp.encode(lig);
    REQUIRE(!l.empty());
    CHECK(joined_pieces(l) == kSpace + "fine");
    CHECK(l.front().begin == 0);
    CHECK(l.back().end == lig.size());
    CHECK(sp.encode("").empty());
    CHECK(sp.encode(" \t  ").empty());
  }
}

TEST_CASE("tokenizer: bad model bytes give errors, never crashes") {
  const std::string good = read_file(NMT_FIXTURES "/spm.model");
  auto load = [](const std::string& b) {
    return nmt::SentencePiece::load(reinterpret_cast<const uint8_t*>(b.data()), b.size());
  };
  CHECK(!nmt::SentencePiece::load(nullptr, 0).ok());
  CHECK(nmt::SentencePiece().encode("anything").empty());
  CHECK(!load("").ok());
  CHECK(!load("this is not a model").ok());
  CHECK(!load(std::string(100, '\xFF')).ok());
  CHECK(!load(std::string(100, '\0')).ok());
  {
    const auto r = load(good.substr(0, good.size() / 2));
    REQUIRE(!r.ok());
    MESSAGE("truncated model: " << r.error());
    CHECK(r.error().find("SentencePiece model") != std::string::npos);
  }
  // Every strict prefix is an error (spot-checked densely at the start and end, sparsely between).
  for (size_t len = 0; len < good.size(); len += (len < 300 || len + 300 > good.size()) ? 1 : 997)
    REQUIRE_MESSAGE(!load(good.substr(0, len)).ok(), "prefix of " << len << " bytes loaded");

  // Random corruption: loading may succeed or fail, but must stay memory-safe, and a model that
  // loads must still tokenize anything without crashing.
  std::mt19937 rng(7);
  const size_t charsmap_start = 135407;  // the normalizer spec; its darts units are worth fuzzing
  for (int trial = 0; trial < 150; ++trial) {
    std::string bad = good;
    const int flips = 1 + static_cast<int>(rng() % 8);
    for (int k = 0; k < flips; ++k) {
      const size_t pos = trial % 2 ? charsmap_start + rng() % (bad.size() - charsmap_start)
                                   : rng() % bad.size();
      bad[pos] = static_cast<char>(rng());
    }
    const auto r = load(bad);
    if (!r.ok()) {
      CHECK(!r.error().empty());
      continue;
    }
    for (const char* text : {"Hello world, this is a test.", "Grüße aus Köln — ﬁne ①", "\xFF\xFE x"}) {
      const auto tokens = r->encode(text);
      check_offsets(text, tokens);
      (void)r->decode(ids_of(tokens));
    }
  }
}

// A ModelProto with these pieces (text, type: 1 normal, 2 unknown, 3 control), unigram, identity normalizer.
static std::string tiny_model_proto(const std::vector<std::pair<std::string, int>>& pieces) {
  auto varint = [](uint64_t v) {
    std::string out;
    do {
      out += static_cast<char>((v & 0x7F) | (v >= 0x80 ? 0x80 : 0));
      v >>= 7;
    } while (v);
    return out;
  };
  auto field = [&](int number, const std::string& bytes) { return varint(uint64_t(number) << 3 | 2) + varint(bytes.size()) + bytes; };
  std::string proto;
  for (const auto& [text, type] : pieces)
    proto += field(1, field(1, text) + std::string("\x15\x00\x00\x80\xBF", 5) /* score -1 */ + "\x18" + varint(type));
  proto += field(2, "\x18\x01");                 // trainer_spec.model_type = UNIGRAM
  proto += field(3, field(1, "identity"));        // normalizer_spec.name
  return proto;
}

TEST_CASE("tokenizer: a piece that is not valid UTF-8 is refused at load (found by fuzz_tokenizer)") {
  auto load = [](const std::string& b) {
    return nmt::SentencePiece::load(reinterpret_cast<const uint8_t*>(b.data()), b.size());
  };
  const std::vector<std::pair<std::string, int>> base = {{"<unk>", 2}, {"<s>", 3}, {"</s>", 3}, {kSpace, 1}, {"a", 1}, {"\xEF\xBF\xBD", 1}};
  REQUIRE(load(tiny_model_proto(base)).ok());  // a real U+FFFD piece is fine
  for (const std::string& bad : {std::string("0\x96\x81x"), std::string("\xFF"), std::string("\xC0\xAF"), std::string("\xED\xA0\x80"),
                                std::string("\xF4\x90\x80\x80"), std::string("ab\xE2\x96")}) {
    auto pieces = base;
    pieces.emplace_back(bad, 1);
    const auto r = load(tiny_model_proto(pieces));
    REQUIRE(!r.ok());
    CHECK(r.error() == "SentencePiece model: piece 6 is not valid UTF-8");
  }
  // (Before, such a piece loaded and decode() put its bytes into the translation as they were.)
  CHECK(nmt::is_valid_utf8(""));
  CHECK(nmt::is_valid_utf8("Gr\xC3\xBC\xC3\x9F\x65 \xF0\x9F\x98\x80 \xEF\xBF\xBD"));
  CHECK(!nmt::is_valid_utf8("\xEF\xBF"));
  CHECK(!nmt::is_valid_utf8("\xF0\x9F\x98"));
  CHECK(!nmt::is_valid_utf8("x\x80"));
}

TEST_CASE("tokenizer: hostile input never crashes or hangs") {
  const auto& sp = model();
  std::mt19937 rng(42);
  std::vector<std::string> texts;
  std::string all_bytes;
  for (int b = 0; b < 256; ++b) {
    texts.push_back(std::string(1, static_cast<char>(b)));
    all_bytes += static_cast<char>(b);
  }
  texts.push_back(all_bytes);
  std::string random_bytes(100000, '\0');
  for (char& c : random_bytes) c = static_cast<char>(rng());
  texts.push_back(random_bytes);
  texts.push_back(std::string(100000, 'a'));
  texts.push_back(std::string(100000, ' '));
  std::string emoji, cjk, spaces, rtl;
  for (int i = 0; i < 25000; ++i) emoji += "\xF0\x9F\x98\x80";      // 😀
  for (int i = 0; i < 33000; ++i) cjk += "\xE6\x97\xA5";            // 日
  for (int i = 0; i < 33000; ++i) spaces += kSpace;                 // literal ▁
  for (int i = 0; i < 25000; ++i) rtl += "\xD8\xB3\xD9\x84 ";       // Arabic
  texts.push_back(emoji);
  texts.push_back(cjk);
  texts.push_back(spaces);
  texts.push_back(rtl);
  std::string words;
  while (words.size() < 100000) words += "Internationalisierung understanding ";
  texts.push_back(words);

  for (const std::string& text : texts) {
    const auto start = std::chrono::steady_clock::now();
    const auto tokens = sp.encode(text);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    check_offsets(text, tokens);
    for (const auto& t : tokens) REQUIRE((t.id >= 0 && t.id < sp.vocab_size()));
    std::vector<std::pair<size_t, size_t>> spans;
    const std::string back = sp.decode(ids_of(tokens), &spans);
    REQUIRE(spans.size() == tokens.size());
    if (text.size() >= 100000) {
      MESSAGE(text.size() << " bytes -> " << tokens.size() << " tokens in " << ms << " ms");
      CHECK(ms < 5000);  // linear time: a hang or quadratic blow-up would show here
    }
  }
}
