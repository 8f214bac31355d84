// The decoding options' checks, their TranslateOptions fields and their JSON; see options.h.
#include "options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "text/glossary.h"
#include "text/passes.h"

namespace nmt {
namespace {

// Whole numbers in full ("2147483647", not %g's "2.14748e+09"), as JavaScript prints them.
std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, x == std::floor(x) && std::fabs(x) < 1e15 ? "%.0f" : "%g", x);
  return buf;
}

const char* kind_name(OptionKind kind) {
  switch (kind) {
    case OptionKind::integer: return "integer";
    case OptionKind::number: return "number";
    case OptionKind::flag: return "flag";
    case OptionKind::text: return "text";
    case OptionKind::switches: return "switches";
    case OptionKind::terms: return "terms";
  }
  return "";
}

// The TranslateOptions field a table entry stands for: exactly one pointer is set.
struct Field {
  int* i = nullptr;
  float* f = nullptr;
  bool* b = nullptr;
};

Field field(TranslateOptions& o, const OptionSpec& spec) {
  if (&spec == &option::beam) return {&o.beam_size, nullptr, nullptr};
  if (&spec == &option::length_penalty) return {nullptr, &o.length_penalty, nullptr};
  if (&spec == &option::coverage_penalty) return {nullptr, &o.coverage_penalty, nullptr};
  if (&spec == &option::max_length_ratio) return {nullptr, &o.max_length_ratio, nullptr};
  if (&spec == &option::reverse_weight) return {nullptr, &o.reverse_weight, nullptr};
  if (&spec == &option::rerank) return {nullptr, nullptr, &o.rerank};
  if (&spec == &option::alignments) return {nullptr, nullptr, &o.alignments};
  if (&spec == &option::all_heads) return {nullptr, nullptr, &o.all_heads};
  if (&spec == &option::attention_limit) return {&o.attention_limit, nullptr, nullptr};
  if (&spec == &option::alternatives) return {&o.alternatives, nullptr, nullptr};
  if (&spec == &option::shortlist) return {nullptr, nullptr, &o.shortlist};
  if (&spec == &option::sample_top_k) return {&o.sample_top_k, nullptr, nullptr};
  if (&spec == &option::seed) return {&o.seed, nullptr, nullptr};
  if (&spec == &option::keep_case) return {nullptr, nullptr, &o.keep_case};
  if (&spec == &option::raw_numbers) return {nullptr, nullptr, &o.raw_numbers};
  if (&spec == &option::model_only) return {nullptr, nullptr, &o.model_only};
  return {};  // not in the table: nothing to read or write
}

}  // namespace

std::string allowed_values(const OptionSpec& spec) {
  switch (spec.kind) {
    case OptionKind::integer: return "an integer from " + number_text(spec.min) + " to " + number_text(spec.max);
    case OptionKind::number: return "a number from " + number_text(spec.min) + " to " + number_text(spec.max);
    case OptionKind::flag: return "true or false";
    case OptionKind::text: return "a string";
    case OptionKind::switches: return "an object of pass names (" + pass_names() + ") to true or false";
    case OptionKind::terms: return "an object of source terms to target terms (strings)";
  }
  return "";
}

std::string option_error(const OptionSpec& spec, std::string_view shown_name, std::string_view got) {
  return std::string(shown_name) + " must be " + allowed_values(spec) + " (got " + std::string(got) + ")";
}

bool option_allowed(const OptionSpec& spec, double value) {
  if (spec.kind == OptionKind::text || spec.kind == OptionKind::switches || spec.kind == OptionKind::terms)
    return true;  // (checked where parsed)
  if (spec.kind == OptionKind::flag) return value == 0.0 || value == 1.0;
  if (!(value >= spec.min && value <= spec.max)) return false;  // also false for NaN
  return spec.kind != OptionKind::integer || value == std::floor(value);
}

bool parse_number(std::string_view text, double& out) {
  const std::string s(text);
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size() && std::isfinite(out);
}

double get_option(const TranslateOptions& options, const OptionSpec& spec) {
  TranslateOptions copy = options;  // (field() hands out writable pointers)
  const Field f = field(copy, spec);
  if (f.i) return *f.i;
  if (f.f) return *f.f;
  if (f.b) return *f.b ? 1.0 : 0.0;
  return spec.fallback;
}

void set_option(TranslateOptions& options, const OptionSpec& spec, double value) {
  const Field f = field(options, spec);
  if (f.i) *f.i = int(value);
  if (f.f) *f.f = float(value);
  if (f.b) *f.b = value != 0.0;
}

std::string sampling_error(const TranslateOptions& options, std::string_view beam_name, std::string_view top_k_name) {
  if (options.sample_top_k == 0 || options.beam_size == 1) return "";
  const std::string k(top_k_name), beam(beam_name);
  return k + " must be 0 unless " + beam + " is 1 (got " + k + " " + std::to_string(options.sample_top_k) + " with " +
         beam + " " + std::to_string(options.beam_size) + ")";
}

std::string check_options(const TranslateOptions& options) {
  for (const OptionSpec* spec : kOptionSpecs) {
    const double value = get_option(options, *spec);
    if (!option_allowed(*spec, value)) return option_error(*spec, spec->name, number_text(value));
  }
  for (const std::string& name : options.passes_off)
    if (!find_pass(name)) return option_error(option::passes, option::passes.name, '"' + name + '"');
  if (const std::string bad = glossary_error(options.glossary); !bad.empty()) return bad;
  return sampling_error(options, option::beam.name, option::sample_top_k.name);
}

Result<TranslateOptions> options_from_json(std::string_view text) {
  using nlohmann::json;
  const json j = json::parse(text.empty() ? std::string_view("{}") : text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{"options must be a JSON object"};
  TranslateOptions options;
  for (const OptionSpec* spec : kOptionSpecs) {
    const auto it = j.find(spec->name);
    if (it == j.end()) continue;
    const bool flag = spec->kind == OptionKind::flag;
    if (spec->kind == OptionKind::switches) {  // {"numbers": false}: known names to booleans
      const auto bad = [&] { return Error{option_error(*spec, spec->name, it->dump(-1, ' ', false, json::error_handler_t::replace))}; };
      if (!it->is_object()) return bad();
      for (const auto& [name, on] : it->items()) {
        if (!on.is_boolean() || !find_pass(name)) return bad();
        if (!on.get<bool>()) options.passes_off.push_back(name);
      }
      continue;
    }
    if (spec->kind == OptionKind::terms) {  // {"Kündigungsfrist": "notice period"}
      if (!it->is_object() || std::any_of(it->begin(), it->end(), [](const json& v) { return !v.is_string(); }))
        return Error{option_error(*spec, spec->name, it->dump(-1, ' ', false, json::error_handler_t::replace))};
      if (it->size() > kMaxGlossaryTerms)
        return Error{"the glossary has " + std::to_string(it->size()) + " terms; at most " + std::to_string(kMaxGlossaryTerms)};
      for (const auto& [source, target] : it->items()) options.glossary.emplace_back(source, target.get<std::string>());
      if (const std::string bad = glossary_error(options.glossary); !bad.empty()) return Error{bad};
      continue;
    }
    if (spec->kind == OptionKind::text) {
      if (!it->is_string()) return Error{option_error(*spec, spec->name, it->dump(-1, ' ', false, json::error_handler_t::replace))};
      if (spec == &option::prefix) options.prefix = it->get<std::string>();
      continue;
    }
    const bool right_type = flag ? it->is_boolean() : it->is_number();
    const double value = !right_type ? 0.0 : flag ? double(it->get<bool>()) : it->get<double>();
    if (!right_type || !option_allowed(*spec, value))
      return Error{option_error(*spec, spec->name, it->dump(-1, ' ', false, json::error_handler_t::replace))};
    set_option(options, *spec, value);
  }
  return options;
}

std::string option_specs_json() {
  using nlohmann::json;
  json out = json::array();
  for (const OptionSpec* spec : kOptionSpecs) {
    json j = {{"name", spec->name}, {"kind", kind_name(spec->kind)}};
    if (spec->kind == OptionKind::flag) {
      j["default"] = spec->fallback != 0;
    } else if (spec->kind == OptionKind::text) {
      j["default"] = "";
    } else if (spec->kind == OptionKind::terms) {
      j["default"] = json::object();
    } else if (spec->kind == OptionKind::switches) {
      j["default"] = json::object();
      json names = json::array();
      for (const Pass& p : passes()) names.push_back(p.name);
      j["names"] = std::move(names);
    } else {
      j["default"] = spec->fallback;
      j["min"] = spec->min;
      j["max"] = spec->max;
    }
    j["cli"] = spec->cli;
    j["doc"] = spec->doc;
    out.push_back(std::move(j));
  }
  return out.dump();
}

}  // namespace nmt
