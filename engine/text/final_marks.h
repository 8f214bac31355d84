// A sentence that ends in more than one mark ("I love you!!", "Really???", "No way!!!!!") keeps
// them. The model writes as many as it likes: "I love you!!" -> "Ich liebe dich!", "Nein!!!!!" ->
// "No!!!!". A run of two or more "!" and "?" is the writer's emphasis, which translators keep as
// written; a single mark is left to the model (German imperatives take "!", English ones "."; forcing
// the source's single mark cost 0.2 BLEU on tatoeba-dev).
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "text/text_edit.h"

namespace nmt {

// The edit that sets the target's final run of ".", "!", "?" (before closing quotes and brackets,
// emoji and Markdown's closing "*", "_", "~": "I love it!!! 😍", "**Wow!!!**")
// to the source's, where the source's final run is two or more marks of which none is "." ("!!",
// "???", "?!", "!!!!!"; not "..." nor "?."), and the target's differs. Nothing when the target has
// no final mark (the model may have ended on a word the source ends with) or when the target's run
// lies inside the first `fixed` bytes (a forced prefix). Also where the source ends in one "." and
// the target in ".." right after a digit (a German ordinal "3." and the full stop): one ".".
std::vector<TextEdit> final_marks(std::string_view source, std::string_view target, size_t fixed = 0);

// The edit that puts back the source's final mark (".", "!", "?", "...") where the target ends on a
// verbatim copy (`copies`: bytes of the target, passes.h's verbatim_copies) and the model, having
// written the copy's unknown piece last, ended the sentence without one: "Mit `git commit`
// speichern Sie Ihre Arbeit." came out "Save your work with `git commit`". Nothing when the source
// ends without a mark, or with one inside a copy of its own (`source_spans`: an address that ends
// in "?"), or when the copy lies inside the first `fixed` bytes, or when the target ends in that
// mark already (the German ordinal "3." copied for "She came 3rd.": "Sie kam 3.", not "3..").
std::vector<TextEdit> final_mark_after_copy(std::string_view source, const std::vector<std::pair<size_t, size_t>>& source_spans,
                                            std::string_view target, const std::vector<std::pair<size_t, size_t>>& copies,
                                            size_t fixed = 0);

}  // namespace nmt
