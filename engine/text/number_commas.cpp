// A comma between two numbers kept; see number_commas.h.
#include "text/number_commas.h"

#include <algorithm>
#include <string>

namespace nmt {
namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// The pairs "A<mark> B" of whole numbers in `text` (mark ',' or '.'), as "A" + "\t" + "B", each
// with the byte of its mark.
std::vector<std::pair<std::string, size_t>> number_pairs(std::string_view text, char mark) {
  std::vector<std::pair<std::string, size_t>> out;
  for (size_t at = 1; at + 2 < text.size(); ++at) {
    if (text[at] != mark || text[at + 1] != ' ' || !digit(text[at - 1]) || !digit(text[at + 2])) continue;
    size_t b = at, e = at + 2;
    while (b > 0 && digit(text[b - 1])) --b;
    while (e < text.size() && digit(text[e])) ++e;
    // whole numbers only: not "3.5, 6" nor "1,000, 2"
    if (b > 0 && (text[b - 1] == '.' || text[b - 1] == ',' || text[b - 1] == ':')) continue;
    if (e < text.size() && (digit(text[e]) || ((text[e] == '.' || text[e] == ',') && e + 1 < text.size() && digit(text[e + 1]))))
      continue;
    out.emplace_back(std::string(text.substr(b, at - b)) + "\t" + std::string(text.substr(at + 2, e - at - 2)), at);
  }
  return out;
}

}  // namespace

std::vector<TextEdit> number_commas(std::string_view source, std::string_view target, size_t fixed) {
  std::vector<TextEdit> edits;
  const auto commas = number_pairs(source, ',');
  if (commas.empty()) return edits;
  for (const auto& found : number_pairs(target, '.')) {
    const std::string& pair = found.first;  // (clang 14 cannot capture a structured binding)
    const bool in_source = std::any_of(commas.begin(), commas.end(), [&](const auto& c) { return c.first == pair; });
    if (in_source && found.second >= fixed) edits.push_back({found.second, 1, ","});
  }
  std::reverse(edits.begin(), edits.end());  // last first
  return edits;
}

}  // namespace nmt
