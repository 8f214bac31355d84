// The decoding options' table (engine/options.h): the structs' defaults come from it, and bad
// values are errors naming the option and its range, in JSON (the WASM binding) and in translate().
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "options.h"
#include "search/beam_search.h"
#include "translator.h"

TEST_CASE("TranslateOptions and SearchOptions take their defaults from the table") {
  const nmt::TranslateOptions o;
  for (const nmt::OptionSpec* spec : nmt::kOptionSpecs) {
    CAPTURE(spec->name);
    CHECK(nmt::get_option(o, *spec) == doctest::Approx(spec->fallback));
    CHECK(nmt::option_allowed(*spec, spec->fallback));
  }
  CHECK(o.beam_size == 4);
  CHECK(o.length_penalty == 0.6f);
  CHECK(o.coverage_penalty == 0.1f);
  CHECK(o.reverse_weight == 0.3f);
  CHECK(o.rerank);
  CHECK(!o.alignments);
  const nmt::SearchOptions s;
  CHECK(s.beam_size == o.beam_size);
  CHECK(s.length_penalty == o.length_penalty);
  CHECK(s.coverage_penalty == o.coverage_penalty);
  CHECK(s.max_length_ratio == o.max_length_ratio);
  CHECK(s.max_length_offset == o.max_length_offset);
  CHECK(nmt::check_options(o).empty());
}

TEST_CASE("options_from_json sets what it names, and refuses wrong types and values out of range") {
  auto o = nmt::options_from_json(R"({"beam": 16, "length_penalty": 0, "alignments": true, "rerank": false, "x": 1})");
  REQUIRE(o.ok());
  CHECK(o->beam_size == 16);
  CHECK(o->length_penalty == 0.0f);
  CHECK(o->coverage_penalty == 0.1f);  // not named: the default
  CHECK(o->alignments);
  CHECK(!o->rerank);
  CHECK(nmt::options_from_json("").ok());

  auto error = [](const char* json) {
    auto r = nmt::options_from_json(json);
    CHECK(!r.ok());
    return r.error();
  };
  CHECK(error(R"({"beam": 0})") == "beam must be an integer from 1 to 16 (got 0)");
  CHECK(error(R"({"beam": 17})") == "beam must be an integer from 1 to 16 (got 17)");
  CHECK(error(R"({"beam": 2.5})") == "beam must be an integer from 1 to 16 (got 2.5)");
  CHECK(error(R"({"beam": "4"})") == "beam must be an integer from 1 to 16 (got \"4\")");
  CHECK(error(R"({"length_penalty": -0.1})") == "length_penalty must be a number from 0 to 2 (got -0.1)");
  CHECK(error(R"({"coverage_penalty": 2.5})") == "coverage_penalty must be a number from 0 to 2 (got 2.5)");
  CHECK(error(R"({"max_length_ratio": 0})") == "max_length_ratio must be a number from 0.1 to 4 (got 0)");
  CHECK(error(R"({"reverse_weight": 6})") == "reverse_weight must be a number from 0 to 5 (got 6)");
  CHECK(error(R"({"alignments": 1})") == "alignments must be true or false (got 1)");
  CHECK(error(R"({"all_heads": null})") == "all_heads must be true or false (got null)");
  CHECK(error("[1]") == "options must be a JSON object");
  CHECK(error("not json") == "options must be a JSON object");
}

TEST_CASE("prefix is a text option and alternatives a count, from the same table") {
  auto o = nmt::options_from_json(R"({"prefix": "Das Ha", "alternatives": 3})");
  REQUIRE(o.ok());
  CHECK(o->prefix == "Das Ha");
  CHECK(o->alternatives == 3);
  CHECK(nmt::TranslateOptions().prefix.empty());
  CHECK(nmt::TranslateOptions().alternatives == 5);
  auto error = [](const char* json) {
    auto r = nmt::options_from_json(json);
    CHECK(!r.ok());
    return r.error();
  };
  CHECK(error(R"({"prefix": 5})") == "prefix must be a string (got 5)");
  CHECK(error(R"({"prefix": null})") == "prefix must be a string (got null)");
  CHECK(error(R"({"alternatives": 21})") == "alternatives must be an integer from 1 to 20 (got 21)");
  CHECK(error(R"({"attention_limit": 2000})") == "attention_limit must be an integer from 0 to 1024 (got 2000)");
  CHECK(nmt::options_from_json(R"({"attention_limit": 64})")->attention_limit == 64);
  CHECK(error(R"({"alternatives": "5"})") == "alternatives must be an integer from 1 to 20 (got \"5\")");
  CHECK(nmt::allowed_values(nmt::option::prefix) == "a string");
}

TEST_CASE("parse_number takes whole finite numbers only") {
  double x = 0;
  CHECK((nmt::parse_number("4", x) && x == 4));
  CHECK((nmt::parse_number("0.6", x) && x == 0.6));
  for (const char* bad : {"", "abc", "4x", "nan", "inf", " "}) {
    CAPTURE(bad);
    CHECK(!nmt::parse_number(bad, x));
  }
}

TEST_CASE("the table as JSON names every option with its default and range") {
  const auto specs = nlohmann::json::parse(nmt::option_specs_json());
  REQUIRE(specs.size() == std::size(nmt::kOptionSpecs));
  CHECK(specs[0] == nlohmann::json::parse(R"({"name": "beam", "kind": "integer", "default": 4, "min": 1, "max": 16,
                                               "cli": true, "doc": "beam size; 1 = greedy search"})"));
  for (const auto& s : specs) CHECK((s["kind"] == "flag") == s["default"].is_boolean());
}

TEST_CASE("translate() refuses options out of range instead of clamping them") {
  auto t = nmt::Translator::load_file(std::string(NMT_FIXTURES) + "/tiny.nmt");
  REQUIRE(t.ok());
  nmt::TranslateOptions o;
  o.beam_size = 17;
  auto r = t.value()->translate("Hello.", o);
  REQUIRE(!r.ok());
  CHECK(r.error() == "beam must be an integer from 1 to 16 (got 17)");
  o.beam_size = 16;
  CHECK(t.value()->translate("Hello.", o).ok());
}
