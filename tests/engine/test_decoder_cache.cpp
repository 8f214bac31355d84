// The decoder's self-attention cache grows with the steps taken (model/transformer.h,
// DecoderState::stride), so that a batch's memory follows the length its translations reach, not
// its longest sentence's limit. Growing it must change nothing: the logits and cross-attention
// weights of every step are the same, bit for bit, as with room for every step from the start,
// through beam reorders that add rows, drop them and repeat them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "model_bytes.h"
#include "translator.h"
#include "translator_internal.h"

using namespace test_model_bytes;

namespace {

bool same_floats(const std::vector<float>& a, const std::vector<float>& b, size_t n) {
  return a.size() >= n && b.size() >= n && std::memcmp(a.data(), b.data(), n * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE("decoder cache: grown step by step, every step's logits and attention as with the whole capacity up front") {
  const auto bytes = read_bytes(fixture("tiny.nmt"));
  auto loaded = nmt::Translator::load(bytes.data(), bytes.size());
  REQUIRE_MESSAGE(loaded.ok(), loaded.error());
  const nmt::Transformer& m = loaded.value()->impl().model;
  const nmt::ModelConfig& c = m.config();
  const int vocab = c.vocab_size;

  // two sentences of different lengths (ids below the vocabulary, each ending with eos)
  const nmt::EncoderOutput enc = m.encode({{10, 11, 12, 13, c.eos_id}, {20, 21, 22, 23, 24, 25, 26, 27, 28, c.eos_id}});
  const int capacity = c.max_length;  // 64: several growths from a stride of 1, two from the default 32

  // the same steps on three states: the whole capacity up front (the reference), growing from one
  // step (a growth at once and every few steps), and the default start
  std::vector<nmt::DecoderState> states;
  states.push_back(m.start(enc, {0, 1}, capacity, capacity));
  states.push_back(m.start(enc, {0, 1}, capacity, 1));
  states.push_back(m.start(enc, {0, 1}, capacity));
  CHECK(states[0].stride == capacity);
  CHECK(states[2].stride == nmt::Transformer::kFirstStride);
  CHECK(states[2].self_k[0].size() < states[0].self_k[0].size());

  // reorders of the rows as a beam does them: widen to four, keep some, repeat one, drop to one
  const std::vector<std::vector<int>> reorders = {{0, 0, 1, 1}, {3, 1, 2, 0}, {1, 1, 2}, {2, 0, 1, 1}, {0, 3}, {1}, {0, 0, 0}};
  for (int step = 0; step < capacity; ++step) {
    const int rows = states[0].rows;
    std::vector<int> inputs(static_cast<size_t>(rows));
    for (int r = 0; r < rows; ++r) inputs[size_t(r)] = step == 0 ? c.bos_id : 4 + (step * 37 + r * 11) % (vocab - 4);
    std::vector<std::vector<float>> logits(states.size(), std::vector<float>(size_t(rows) * vocab));
    for (size_t k = 0; k < states.size(); ++k) m.step(enc, states[k], inputs.data(), logits[k].data());
    for (size_t k = 1; k < states.size(); ++k) {
      INFO("step " << step << ", state " << k << " (stride " << states[k].stride << ")");
      CHECK(states[k].steps == step + 1);
      CHECK(states[k].stride >= states[k].steps);
      CHECK(states[k].stride <= std::max(nmt::Transformer::kFirstStride, states[k].steps + 16 + states[k].steps / 4));  // room for a few more, not for all
      CHECK(same_floats(logits[k], logits[0], size_t(rows) * vocab));
      for (int l = 0; l < c.decoder_layers; ++l)
        CHECK(same_floats(states[k].cross_weights[size_t(l)], states[0].cross_weights[size_t(l)],
                          states[0].cross_weights[size_t(l)].size()));
    }
    if (step % 3 == 2) {
      std::vector<int> parents = reorders[size_t(step / 3) % reorders.size()];
      for (int& p : parents) p %= rows;  // (valid for the rows there are now)
      for (nmt::DecoderState& st : states) m.select_rows(st, parents);
    }
  }
  for (size_t k = 1; k < states.size(); ++k) CHECK(states[k].stride == capacity);
  // a step past the capacity does nothing, as before
  std::vector<float> unused(size_t(states[1].rows) * vocab, 1.0f);
  std::vector<int> inputs(size_t(states[1].rows), c.bos_id);
  m.step(enc, states[1], inputs.data(), unused.data());
  CHECK(states[1].steps == capacity);
}
