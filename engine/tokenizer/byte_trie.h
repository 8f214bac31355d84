// A compact read-only byte trie mapping strings to non-negative ints, built once from a list of
// (key, value) pairs. It answers the one question both the tokenizer's Viterbi and the normalizer's
// user-symbol matcher ask: "which keys are prefixes of this text?", reporting them shortest first
// (the order SentencePiece's darts-clone trie yields them, which matters for tie-breaking). Nodes
// keep their children in one sorted label array; the root has a direct 256-entry table since it
// is visited at every text position.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nmt {

class ByteTrie {
 public:
  ByteTrie() { build({}); }
  explicit ByteTrie(const std::vector<std::pair<std::string, int>>& entries) { build(entries); }

  // Calls on_match(prefix_length, value) for every key that is a prefix of s[0, n), shortest
  // first. Stops early when on_match returns false. Cost: O(length of the longest matching path).
  template <class F>
  void for_each_prefix(const char* s, size_t n, F&& on_match) const {
    if (n == 0) return;
    uint32_t node = root_[static_cast<uint8_t>(s[0])];
    for (size_t i = 0;;) {
      if (node == kNone) return;
      if (nodes_[node].value >= 0 && !on_match(i + 1, nodes_[node].value)) return;
      if (++i == n) return;
      node = child(node, static_cast<uint8_t>(s[i]));
    }
  }

  // Length of the longest key that prefixes s[0, n) (0 if none); its value goes to *value.
  size_t longest_prefix(const char* s, size_t n, int* value) const {
    size_t best = 0;
    for_each_prefix(s, n, [&](size_t len, int v) {
      best = len;
      *value = v;
      return true;
    });
    return best;
  }

  bool empty() const { return nodes_.size() <= 1; }

 private:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  struct Node {
    uint32_t first = 0;  // index of the first child in labels_/targets_
    uint32_t count = 0;  // number of children
    int value = -1;      // >= 0 when a key ends here
  };

  uint32_t child(uint32_t node, uint8_t label) const {
    const Node& nd = nodes_[node];
    const uint8_t* b = labels_.data() + nd.first;
    const uint8_t* e = b + nd.count;
    const uint8_t* it = nd.count <= 8 ? std::find(b, e, label) : std::lower_bound(b, e, label);
    if (it == e || *it != label) return kNone;
    return targets_[nd.first + static_cast<uint32_t>(it - b)];
  }

  void build(const std::vector<std::pair<std::string, int>>& entries) {
    // Build with per-node child lists, then lay the (sorted) lists out contiguously.
    std::vector<std::vector<std::pair<uint8_t, uint32_t>>> kids(1);
    std::vector<int> values(1, -1);
    for (const auto& [key, value] : entries) {
      uint32_t node = 0;
      for (unsigned char c : key) {
        uint32_t next = kNone;
        for (const auto& [label, target] : kids[node])
          if (label == c) next = target;
        if (next == kNone) {
          next = static_cast<uint32_t>(kids.size());
          kids[node].emplace_back(c, next);
          kids.emplace_back();
          values.push_back(-1);
        }
        node = next;
      }
      if (node != 0 && values[node] < 0) values[node] = value;  // first entry wins on duplicates
    }
    nodes_.assign(kids.size(), Node());
    labels_.clear();
    targets_.clear();
    for (size_t i = 0; i < kids.size(); ++i) {
      std::sort(kids[i].begin(), kids[i].end());
      nodes_[i].first = static_cast<uint32_t>(labels_.size());
      nodes_[i].count = static_cast<uint32_t>(kids[i].size());
      nodes_[i].value = values[i];
      for (const auto& [label, target] : kids[i]) {
        labels_.push_back(label);
        targets_.push_back(target);
      }
    }
    std::fill(std::begin(root_), std::end(root_), kNone);
    for (const auto& [label, target] : kids[0]) root_[label] = target;
  }

  std::vector<Node> nodes_;
  std::vector<uint8_t> labels_;
  std::vector<uint32_t> targets_;
  uint32_t root_[256];
};

}  // namespace nmt
