// nmt: the engine's command-line tool.
//
//   nmt --model FILE [decoding options] [--reverse-model FILE] < input.txt > output.txt
//       Translates stdin to stdout (paragraphs and line breaks kept). --alignments prints JSON with
//       tokens, the soft attention matrix and word alignments instead of plain text.
//       --reverse-model FILE (the other direction's model) reranks the beam's candidates by how well
//       it gets the source back, weighted by --reverse-weight W (search/rerank.h).
//       The decoding options (--beam N, --length-penalty A, --coverage-penalty B, --max-length-ratio R,
//       --reverse-weight W, --alignments, --all-heads) are the table in engine/options.h: `nmt --help`
//       lists them with their defaults and ranges; a value outside its range is an error (exit 2).
//   nmt bench --model FILE --input FILE [decoding options] [--repeat N] [--reverse-model FILE]
//       Translates every line of the file, prints sentences/s, target tokens/s and peak memory.
//   nmt info --model FILE
//       Prints the model's header: config, languages, provenance.
//   nmt segment --lang en|de < lines.txt
//       Cuts each input line into sentences with the engine's segmenter and prints them on one line,
//       separated by tabs (the training recipe splits long paragraph pairs with it).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "options.h"
#include "text/segmenter.h"
#include "translator.h"

namespace {

// "--length-penalty" for "length_penalty".
std::string flag_name(const nmt::OptionSpec& spec) {
  std::string flag = std::string("--") + spec.name;
  for (char& c : flag) if (c == '_') c = '-';
  return flag;
}

int usage() {
  std::fprintf(stderr,
               "usage: nmt --model FILE [decoding options] [--reverse-model FILE] < in > out\n"
               "       nmt bench --model FILE --input FILE [decoding options] [--repeat N] [--reverse-model FILE]\n"
               "       nmt info --model FILE\n"
               "       nmt segment --lang en|de < lines.txt\n"
               "decoding options:\n");
  for (const nmt::OptionSpec* spec : nmt::kOptionSpecs) {
    if (!spec->cli) continue;
    const bool flag = spec->kind == nmt::OptionKind::flag;
    std::fprintf(stderr, "  %-22s %s", (flag_name(*spec) + (flag ? "" : " X")).c_str(), spec->doc);
    if (!flag) std::fprintf(stderr, " (%s, default %g)", nmt::allowed_values(*spec).c_str(), spec->fallback);
    std::fprintf(stderr, "\n");
  }
  return 2;
}

// Resident memory now (Linux /proc), to separate the loaded model from the activations.
double current_rss_mb() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  long pages = 0, resident = 0;
  if (f) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return double(resident) * 4096.0 / 1e6;
}

double peak_rss_mb() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;  // Linux reports KiB
}

// Parses and checks a command-line value for `spec`; prints the error and returns false when bad.
bool parse_value(const nmt::OptionSpec& spec, const char* text, double& out) {
  if (nmt::parse_number(text, out) && nmt::option_allowed(spec, out)) return true;
  std::fprintf(stderr, "nmt: %s\n", nmt::option_error(spec, flag_name(spec), '"' + std::string(text) + '"').c_str());
  return false;
}

// `nmt segment`: one output line per input line, its sentences separated by tabs (tabs inside a
// sentence become spaces so the output stays parseable).
int segment_lines(int argc, char** argv) {
  std::string lang;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--lang") == 0 && i + 1 < argc) lang = argv[++i];
    else return usage();
  }
  if (lang.empty()) return usage();
  std::string line;
  while (std::getline(std::cin, line)) {
    std::string out;
    for (const nmt::TextPiece& piece : nmt::segment_text(line, lang)) {
      if (!piece.is_sentence) continue;
      std::string sentence = line.substr(piece.begin, piece.end - piece.begin);
      for (char& c : sentence) if (c == '\t') c = ' ';
      if (!out.empty()) out += '\t';
      out += sentence;
    }
    out += '\n';
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  return 0;
}

// The decoding option whose flag is `arg`, or null.
const nmt::OptionSpec* cli_option(const std::string& arg) {
  for (const nmt::OptionSpec* spec : nmt::kOptionSpecs)
    if (spec->cli && arg == flag_name(*spec)) return spec;
  return nullptr;
}

// `nmt bench --repeat N` (not a decoding option, but checked the same way).
constexpr nmt::OptionSpec kRepeat{"repeat", nmt::OptionKind::integer, 1, 1, 1000, true, "bench: passes over the input"};

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "segment") == 0) return segment_lines(argc, argv);
  std::string mode = "translate", model_path, input_path, reverse_path;
  nmt::TranslateOptions options;
  int repeat = 1;
  int first = 1;
  if (argc > 1 && (std::strcmp(argv[1], "bench") == 0 || std::strcmp(argv[1], "info") == 0)) {
    mode = argv[1];
    first = 2;
  }
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--model") {
      const char* v = value();
      if (!v) return usage();
      model_path = v;
    } else if (a == "--input") {
      const char* v = value();
      if (!v) return usage();
      input_path = v;
    } else if (const nmt::OptionSpec* spec = cli_option(a)) {
      double x = 1.0;  // a flag's value: present = true
      if (spec->kind != nmt::OptionKind::flag) {
        const char* v = value();
        if (!v) return usage();
        if (!parse_value(*spec, v, x)) return 2;
      }
      nmt::set_option(options, *spec, x);
    } else if (a == "--reverse-model") {
      const char* v = value();
      if (!v) return usage();
      reverse_path = v;
    } else if (a == "--repeat") {
      const char* v = value();
      if (!v) return usage();
      double x = 0;
      if (!parse_value(kRepeat, v, x)) return 2;
      repeat = int(x);
    } else {
      return usage();
    }
  }
  if (model_path.empty()) return usage();

  auto loaded = nmt::Translator::load_file(model_path);
  if (!loaded) {
    std::fprintf(stderr, "nmt: %s\n", loaded.error().c_str());
    return 1;
  }
  const nmt::Translator& translator = *loaded.value();
  std::unique_ptr<nmt::Translator> reverse_model;
  if (!reverse_path.empty()) {
    auto r = nmt::Translator::load_file(reverse_path);
    if (!r) {
      std::fprintf(stderr, "nmt: %s\n", r.error().c_str());
      return 1;
    }
    reverse_model = std::move(r.value());
    const std::string why = translator.check_reverse(*reverse_model);
    if (!why.empty()) {
      std::fprintf(stderr, "nmt: --reverse-model: %s\n", why.c_str());
      return 1;
    }
  }
  const nmt::Translator* reverse = reverse_model.get();
  const double loaded_rss_mb = current_rss_mb();

  if (mode == "info") {
    std::printf("%s\n", translator.info_json().c_str());
    return 0;
  }

  if (mode == "bench") {
    if (input_path.empty()) return usage();
    std::ifstream in(input_path);
    if (!in) {
      std::fprintf(stderr, "nmt: cannot read %s\n", input_path.c_str());
      return 1;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    double seconds = 0;
    int sentences = 0, target_tokens = 0;
    size_t words = 0;
    for (int r = 0; r < repeat; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      auto result = translator.translate(text, options, reverse);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (!result) {
        std::fprintf(stderr, "nmt: %s\n", result.error().c_str());
        return 1;
      }
      sentences += int(result->sentences.size());
      target_tokens += result->target_tokens;
      std::istringstream ws(result->text);
      std::string w;
      while (ws >> w) ++words;
    }
    std::printf("model      %s (%zu bytes)\n", model_path.c_str(), translator.file().file_bytes());
    std::printf("beam       %d%s\n", options.beam_size, reverse ? ", reranked with the reverse model" : "");
    std::printf("sentences  %d in %.2f s\n", sentences, seconds);
    std::printf("sentences/s      %.1f\n", sentences / seconds);
    std::printf("target tokens/s  %.1f\n", target_tokens / seconds);
    std::printf("words/s          %.1f\n", double(words) / seconds);
    std::printf("memory loaded    %.1f MB resident after loading (model file %.1f MB)\n", loaded_rss_mb,
                double(translator.file().file_bytes()) / 1e6);
    std::printf("peak memory      %.1f MB (with activations and KV caches)\n", peak_rss_mb());
    return 0;
  }

  std::stringstream ss;
  ss << std::cin.rdbuf();
  auto result = translator.translate(ss.str(), options, reverse);
  if (!result) {
    std::fprintf(stderr, "nmt: %s\n", result.error().c_str());
    return 1;
  }
  if (options.alignments)
    std::printf("%s\n", nmt::to_json(result.value(), options).c_str());
  else
    std::fwrite(result->text.data(), 1, result->text.size(), stdout);
  return 0;
}
