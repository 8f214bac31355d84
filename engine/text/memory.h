// The translation memory: short everyday sentences of the training corpus whose human translation the
// engine gives instead of the model's. The small models get such phrases wrong although the corpus
// holds them word for word ("Tschüss, bis morgen!" -> "Shut up until tomorrow.", "Happy birthday!"
// -> "Glück Geburtstag!"). weights/recipe/memory.py keeps the ones the model gets wrong (at most four
// words, from tatoeba and the dictionary's example sentences) in the model file's `memory` tensor
// (engine/FORMAT.md): lines "key<TAB>translation", sorted by key.
//
// The translator looks each whole sentence up by its key; on a hit it decodes the memory's
// translation through the model (forced decoding: alignments and attention are the model's own),
// with the source's final marks, and marks the sentence as from the memory.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"
#include "model/model_file.h"

namespace nmt {

// What a sentence is looked up by (weights/recipe/memory.py memory_key is the same function): the
// letters A-Z and U+00C0-U+00DE (not U+00D7) in lower case, curly quotes straight (’ ‘ -> ', “ ” „ ->
// "), commas left out (people leave them out: "hello how are you"), each run of whitespace one
// space, and spaces and final marks (. ! ? …) at the ends removed.
std::string memory_key(std::string_view sentence);

// `translation` ending as `source` ends: its final run of . ! ? … becomes the source's ("Goodbye
// till tomorrow." for "Tschüss, bis morgen!" -> "Goodbye till tomorrow!"); with no final mark in the
// source, a final "." goes ("tschüss" -> "Goodbye") and a "?" or "!" stays. A translation that does
// not end in a mark (a closing quote) is left as it is.
std::string with_final_marks(std::string_view translation, std::string_view source);

class TranslationMemory {
 public:
  // The model file's `memory` tensor; empty without one. Error: not a u8 list, a line without
  // exactly one tab, or one without a translation after it.
  static Result<TranslationMemory> from(const ModelFile& file);
  // From the tensor's text ("key<TAB>translation" lines; any order).
  static Result<TranslationMemory> from_table(std::string_view lines);

  // The memory's translation of `sentence` (as written: its key is taken here), or "" when none.
  std::string_view find(std::string_view sentence) const;
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    uint32_t key_begin, key_end, translation_end;  // bytes of table_; the translation follows the tab
  };
  std::string table_;
  std::vector<Entry> entries_;  // sorted by key
  std::string_view key(const Entry& e) const { return std::string_view(table_).substr(e.key_begin, e.key_end - e.key_begin); }
};

}  // namespace nmt
