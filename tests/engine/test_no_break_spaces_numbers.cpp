// Tests of numbers whose digit groups are set apart by a thin or no-break space (engine/text/numbers.h
// find_numbers): one number, as with a plain space, so the number check sees the whole of it.
#include <doctest/doctest.h>

#include <string>

#include "text/numbers.h"

using namespace nmt;

TEST_CASE("find_numbers: groups set apart by a thin or no-break space are one number") {
  for (const std::string space : {" ", "\xE2\x80\x89", "\xE2\x80\xAF", "\xC2\xA0", "\xE2\x80\x87"}) {
    const std::string number = "1" + space + "000" + space + "000";
    const std::string text = "The population is " + number + " people.";
    const auto found = find_numbers(text, "en", false, {});
    REQUIRE(found.size() == 1);
    CHECK(text.substr(found[0].first, found[0].second - found[0].first) == number);
  }
  // a phone number's groups stay apart, whatever the space ("0800 555 111")
  const std::string phone = "Call 0800\xE2\x80\xAF" "555\xE2\x80\xAF" "111 now.";
  CHECK(find_numbers(phone, "en", false, {}).size() == 3);
}
