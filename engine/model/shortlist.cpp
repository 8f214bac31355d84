// The lexical shortlist's table and the token set of a batch; see shortlist.h.
#include "model/shortlist.h"

#include <string>

namespace nmt {

Result<std::optional<Shortlist>> Shortlist::from(const ModelFile& file) {
  const TensorView* frequent = file.find("shortlist.frequent");
  const TensorView* counts = file.find("shortlist.counts");
  const TensorView* targets = file.find("shortlist.targets");
  if (!frequent && !counts && !targets) return std::optional<Shortlist>();
  if (!frequent || !counts || !targets)
    return Error{"model file has a partial shortlist (it needs shortlist.frequent, shortlist.counts and shortlist.targets)"};
  const ModelConfig& c = file.config();
  auto f = file.tensor("shortlist.frequent", DType::u16, {frequent->shape.empty() ? 0 : frequent->shape[0]});
  if (!f.ok() || frequent->shape.size() != 1) return Error{"tensor shortlist.frequent must be u16 [n]"};
  auto n = file.tensor("shortlist.counts", DType::u8, {c.vocab_size});
  if (!n.ok()) return Error{n.error()};
  if (targets->dtype != DType::u16 || targets->shape.size() != 1) return Error{"tensor shortlist.targets must be u16 [n]"};

  Shortlist s;
  s.vocab_size_ = c.vocab_size;
  s.eos_id_ = c.eos_id;
  s.unk_id_ = c.unk_id;
  const uint16_t* fr = f.value().as<uint16_t>();
  for (int64_t i = 0; i < frequent->shape[0]; ++i) {
    if (fr[i] >= c.vocab_size) return Error{"tensor shortlist.frequent has a token id outside the vocabulary"};
    s.frequent_.push_back(fr[i]);
  }
  const uint8_t* cn = n.value().as<uint8_t>();
  s.begin_.resize(size_t(c.vocab_size) + 1, 0);
  for (int v = 0; v < c.vocab_size; ++v) s.begin_[v + 1] = s.begin_[v] + cn[v];
  if (int64_t(s.begin_.back()) != targets->shape[0])
    return Error{"shortlist.counts add up to " + std::to_string(s.begin_.back()) + " candidates, but shortlist.targets has " +
                 std::to_string(targets->shape[0])};
  s.targets_ = targets->as<uint16_t>();
  for (uint32_t i = 0; i < s.begin_.back(); ++i)
    if (s.targets_[i] >= c.vocab_size) return Error{"tensor shortlist.targets has a token id outside the vocabulary"};
  return std::optional<Shortlist>(std::move(s));
}

std::vector<int> Shortlist::tokens_for(const std::vector<std::vector<int>>& sources, const std::vector<int>& extra) const {
  std::vector<uint8_t> in(size_t(vocab_size_), 0);
  for (int t : frequent_) in[size_t(t)] = 1;
  in[size_t(eos_id_)] = 1;
  in[size_t(unk_id_)] = 1;  // what the vocabulary cannot write (emoji, CJK) is copied through unk
  for (const std::vector<int>& sentence : sources)
    for (int s : sentence)
      if (s >= 0 && s < vocab_size_)
        for (uint32_t i = begin_[size_t(s)]; i < begin_[size_t(s) + 1]; ++i) in[targets_[i]] = 1;
  for (int t : extra)
    if (t >= 0 && t < vocab_size_) in[size_t(t)] = 1;
  std::vector<int> ids;
  for (int v = 0; v < vocab_size_; ++v)
    if (in[size_t(v)]) ids.push_back(v);
  return ids;
}

}  // namespace nmt
