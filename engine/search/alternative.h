// One alternative next word (search/alternatives.h finds them; Translator::alternatives returns
// them): its own header so that the public translator.h stays free of the search's.
#pragma once

#include <string>

namespace nmt {

struct Alternative {
  std::string word;          // the text after the prefix up to the word's end (it may start with a space)
  // p(word | source, prefix) under the model: its pieces' probabilities multiplied (after a prefix
  // ending inside a word, the pieces that spell that word's start count too)
  float probability = 0.0f;
  std::string continuation;  // the rest of the sentence: prefix + word + continuation is a translation
};

}  // namespace nmt
