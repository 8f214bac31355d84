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
//       --prefix TEXT (stdin must be one sentence): the translation starts with TEXT, kept exactly,
//       and the search continues after it (search/forced_prefix.h).
//       --beam 1 --sample-top-k K [--seed S]: each next token drawn from the model's K most probable
//       instead of the most probable (for back-translation; search/sampling.h); reproducible per seed.
//       --alternatives N: instead of the translation, prints the N most probable next words after
//       --prefix (or the first words) as JSON: {"alternatives": [{word, probability, continuation}]}.
//   nmt bench --model FILE --input FILE [decoding options] [--repeat N] [--reverse-model FILE]
//       Translates every line of the file, prints sentences/s, target tokens/s and peak memory.
//   nmt info --model FILE
//       Prints the model's header: config, languages, provenance.
//   nmt segment --lang en|de < lines.txt
//       Cuts each input line into sentences with the engine's segmenter and prints them on one line,
//       separated by tabs (the training recipe splits long paragraph pairs with it).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "options.h"
#include "text/glossary.h"
#include "text/passes.h"
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
               "decoding options:\n"
               "  --glossary FILE        a TSV of source and target terms: each found comes out as its target term\n"
               "  --no-pass NAME         switch a text pass off (repeatable; `nmt info` lists them in order):\n"
               "                         %s\n",
               nmt::pass_names().c_str());
  for (const nmt::OptionSpec* spec : nmt::kOptionSpecs) {
    if (!spec->cli) continue;
    const bool flag = spec->kind == nmt::OptionKind::flag, text = spec->kind == nmt::OptionKind::text;
    std::fprintf(stderr, "  %-22s %s", (flag_name(*spec) + (flag ? "" : text ? " TEXT" : " X")).c_str(), spec->doc);
    if (text) std::fprintf(stderr, " (%s, default none)", nmt::allowed_values(*spec).c_str());
    else if (!flag) std::fprintf(stderr, " (%s, default %g)", nmt::allowed_values(*spec).c_str(), spec->fallback);
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
  // an integer option takes digits only: "1e1" or "4.0" is not the integer the help asks for
  const bool digits = text[0] != '\0' && std::strspn(text + (text[0] == '-' || text[0] == '+'), "0123456789") ==
                                             std::strlen(text) - (text[0] == '-' || text[0] == '+') &&
                      std::strlen(text) > size_t(text[0] == '-' || text[0] == '+');
  const bool integer_ok = spec.kind != nmt::OptionKind::integer || digits;
  if (integer_ok && nmt::parse_number(text, out) && nmt::option_allowed(spec, out)) return true;
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

// Reads a glossary file: one term a line, "source<TAB>target"; empty lines and lines starting with
// "#" are skipped. 0, or exit code 2 with the reason printed (a line without exactly one tab, or a
// glossary that breaks the rules of text/glossary.h).
int read_glossary(const char* path, std::vector<std::pair<std::string, std::string>>& glossary) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "nmt: --glossary: cannot read %s\n", path);
    return 2;
  }
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    if (tab == std::string::npos || line.find('\t', tab + 1) != std::string::npos) {
      std::fprintf(stderr, "nmt: --glossary: %s line %d is not \"source<TAB>target\"\n", path, number);
      return 2;
    }
    glossary.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  if (const std::string bad = nmt::glossary_error(glossary); !bad.empty()) {
    std::fprintf(stderr, "nmt: --glossary: %s\n", bad.c_str());
    return 2;
  }
  return 0;
}

// `nmt bench --repeat N` (not a decoding option, but checked the same way).
constexpr nmt::OptionSpec kRepeat{"repeat", nmt::OptionKind::integer, 1, 1, 1000, true, "bench: passes over the input"};

// The command line of `nmt`, `nmt bench` and `nmt info`.
struct Args {
  std::string mode = "translate";  // or "bench", "info"
  std::string model_path, input_path, reverse_path;
  nmt::TranslateOptions options;
  int repeat = 1;
  bool list_alternatives = false;  // --alternatives N: print the next words instead of the translation
};

// Fills `args` from argv; 0, or the exit code of a bad command line (2, with the reason printed).
int parse_args(int argc, char** argv, Args& args) {
  int first = 1;
  if (argc > 1 && (std::strcmp(argv[1], "bench") == 0 || std::strcmp(argv[1], "info") == 0)) {
    args.mode = argv[1];
    first = 2;
  }
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    const nmt::OptionSpec* spec = cli_option(a);
    const bool takes_value = !spec || spec->kind != nmt::OptionKind::flag;
    const char* v = takes_value && i + 1 < argc ? argv[++i] : nullptr;
    if (takes_value && !v) return usage();
    double x = 1.0;  // a flag's value: present = true
    if (a == "--model") {
      args.model_path = v;
    } else if (a == "--input") {
      args.input_path = v;
    } else if (a == "--reverse-model") {
      args.reverse_path = v;
    } else if (a == "--glossary") {  // a TSV file of source and target terms (text/glossary.h)
      if (const int bad = read_glossary(v, args.options.glossary)) return bad;
    } else if (a == "--no-pass") {  // a text pass switched off by name (text/passes.h)
      if (!nmt::find_pass(v)) {
        std::fprintf(stderr, "nmt: --no-pass takes one of %s (got \"%s\")\n", nmt::pass_names().c_str(), v);
        return 2;
      }
      args.options.passes_off.push_back(v);
    } else if (a == "--repeat") {
      if (!parse_value(kRepeat, v, x)) return 2;
      args.repeat = int(x);
    } else if (spec == &nmt::option::prefix) {
      args.options.prefix = v;
    } else if (spec) {
      if (v && !parse_value(*spec, v, x)) return 2;
      nmt::set_option(args.options, *spec, x);
      if (spec == &nmt::option::alternatives) args.list_alternatives = true;
    } else {
      return usage();
    }
  }
  if (const std::string bad = nmt::sampling_error(args.options, flag_name(nmt::option::beam),
                                                  flag_name(nmt::option::sample_top_k));
      !bad.empty()) {
    std::fprintf(stderr, "nmt: %s\n", bad.c_str());
    return 2;
  }
  return args.model_path.empty() ? usage() : 0;
}

// Prints "nmt: <message>"; returns exit code 1.
int fail(const std::string& message) {
  std::fprintf(stderr, "nmt: %s\n", message.c_str());
  return 1;
}

// The model, and the reverse model when --reverse-model names one.
struct Models {
  std::unique_ptr<nmt::Translator> forward, reverse;
};

// Loads --model and --reverse-model and checks that they pair up; 0, or exit code 1 (printed).
int load_models(const Args& args, Models& models) {
  auto loaded = nmt::Translator::load_file(args.model_path);
  if (!loaded) return fail(loaded.error());
  models.forward = std::move(loaded.value());
  if (args.reverse_path.empty()) return 0;
  auto r = nmt::Translator::load_file(args.reverse_path);
  if (!r) return fail(r.error());
  models.reverse = std::move(r.value());
  const std::string why = models.forward->check_reverse(*models.reverse);
  return why.empty() ? 0 : fail("--reverse-model: " + why);
}

// A whole file (or stream) as a string.
std::string read_all(std::istream& in) {
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One sentence from stdin (--prefix, --alternatives), or false when stdin holds more than any
// sentence could (memory stays bounded whatever is piped in).
constexpr size_t kMaxSentenceInput = 1 << 20;
bool read_sentence(std::string& out) {
  out.clear();
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0) {
    out.append(buf, n);
    if (out.size() > kMaxSentenceInput) return false;
  }
  return true;
}

// What `nmt bench` adds up over its passes.
struct BenchTotals {
  double seconds = 0;
  int sentences = 0, target_tokens = 0;
  size_t words = 0;
};

// Translates `text` args.repeat times, timing each pass; 0, or exit code 1 (printed).
int time_passes(const Args& args, const Models& models, const std::string& text, BenchTotals& totals) {
  for (int r = 0; r < args.repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    auto result = models.forward->translate(text, args.options, models.reverse.get());
    totals.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!result) return fail(result.error());
    totals.sentences += int(result->sentences.size());
    totals.target_tokens += result->target_tokens;
    std::istringstream ws(result->text);
    std::string w;
    while (ws >> w) ++totals.words;
  }
  return 0;
}

void print_bench(const Args& args, const Models& models, const BenchTotals& t, double loaded_rss_mb) {
  const size_t file_bytes = models.forward->file_bytes();
  std::printf("model      %s (%zu bytes)\n", args.model_path.c_str(), file_bytes);
  std::printf("beam       %d%s\n", args.options.beam_size, models.reverse ? ", reranked with the reverse model" : "");
  std::printf("sentences  %d in %.2f s\n", t.sentences, t.seconds);
  std::printf("sentences/s      %.1f\n", t.sentences / t.seconds);
  std::printf("target tokens/s  %.1f\n", t.target_tokens / t.seconds);
  std::printf("words/s          %.1f\n", double(t.words) / t.seconds);
  std::printf("memory loaded    %.1f MB resident after loading (model file %.1f MB)\n", loaded_rss_mb,
              double(file_bytes) / 1e6);
  std::printf("peak memory      %.1f MB (with activations and KV caches)\n", peak_rss_mb());
}

// `nmt bench`: throughput and memory over the lines of --input.
int bench(const Args& args, const Models& models, double loaded_rss_mb) {
  if (args.input_path.empty()) return usage();
  std::ifstream in(args.input_path);
  if (!in) return fail("cannot read " + args.input_path);
  const std::string text = read_all(in);
  BenchTotals totals;
  if (const int failed = time_passes(args, models, text, totals)) return failed;
  print_bench(args, models, totals, loaded_rss_mb);
  return 0;
}

// `nmt --alternatives N`: the next words after --prefix in the translation of stdin, as JSON.
int alternatives_stdin(const Args& args, const Models& models) {
  std::string sentence;
  if (!read_sentence(sentence)) return fail("--alternatives: the input is longer than one sentence can be (1 MiB)");
  auto result = models.forward->alternatives(sentence, args.options);
  if (!result) return fail(result.error());
  std::printf("%s\n", nmt::to_json(result.value()).c_str());
  return 0;
}

// Where to end the block of input `buffer` holds (more follows): after its last line break between
// two sentences (else its last line break; not one inside a hard-wrapped sentence); in a
// line longer than a block, after its last sentence but one (the last may still go on), else after
// its last space, else at a character boundary. Never 0 for a buffer of a block or more.
size_t block_end(const std::string& buffer, const std::string& language) {
  const size_t newline = buffer.rfind('\n');
  if (newline != std::string::npos) {
    size_t between = 0;  // (a line break inside a hard-wrapped sentence, text/segmenter.h, is in no gap)
    for (const nmt::TextPiece& piece : nmt::segment_text(buffer, language))
      if (!piece.is_sentence && piece.begin <= newline) {
        const size_t last = buffer.rfind('\n', std::min(piece.end, newline + 1) - 1);
        if (last != std::string::npos && last >= piece.begin) between = last + 1;
      }
    return between > 0 ? between : newline + 1;
  }
  size_t end = 0;
  for (const nmt::TextPiece& piece : nmt::segment_text(buffer, language))
    if (piece.is_sentence && piece.end < buffer.size()) end = std::max(end, piece.end);
  if (end > 0) return end;
  for (size_t i = buffer.size(); i > 1; --i)
    if (buffer[i - 1] == ' ' || buffer[i - 1] == '\t') return i;
  // one unbroken run: cut before the first byte of a character (the last byte stays for the next
  // block: the bytes after it, not read yet, may continue its character)
  size_t cut = buffer.size() - 1;
  while (cut > 0 && (static_cast<unsigned char>(buffer[cut]) & 0xC0) == 0x80) --cut;
  return cut > 0 ? cut : buffer.size();
}

// The model's source language, for the segmenter that cuts long lines.
std::string source_language(const nmt::Translator& translator) {
  const auto info = nlohmann::json::parse(translator.info_json(), nullptr, false);
  if (info.is_object() && info.contains("languages") && info["languages"].contains("source") &&
      info["languages"]["source"].is_string())
    return info["languages"]["source"].get<std::string>();
  return "en";
}

// `nmt`: stdin translated to stdout, as text or (--alignments) as JSON. The input is read and
// translated in blocks of whole lines of about kBlockBytes, each written out at once: memory stays
// flat on any input length and the first lines come out within seconds. A text shorter than a
// block is translated whole, exactly as before; a longer one block by block (sentences translate
// the same alone and in a batch: tests/engine/test_cli_batch.py). With --alignments, each block
// is one JSON document on its own line (offsets within the block).
constexpr size_t kBlockBytes = 8 * 1024;
int translate_stdin(const Args& args, const Models& models) {
  if (args.list_alternatives) return alternatives_stdin(args, models);
  if (!args.options.prefix.empty()) {  // one sentence: read whole (bounded)
    std::string sentence;
    if (!read_sentence(sentence)) return fail("--prefix: the input is longer than one sentence can be (1 MiB)");
    auto result = models.forward->translate(sentence, args.options, models.reverse.get());
    if (!result) return fail(result.error());
    if (args.options.alignments) std::printf("%s\n", nmt::to_json(result.value(), args.options).c_str());
    else std::fwrite(result->text.data(), 1, result->text.size(), stdout);
    return 0;
  }
  const std::string language = source_language(*models.forward);
  std::string buffer;
  char chunk[1 << 14];
  bool at_end = false;
  while (!at_end || !buffer.empty()) {
    while (!at_end && buffer.size() < kBlockBytes) {
      const size_t n = std::fread(chunk, 1, sizeof chunk, stdin);
      if (n == 0) at_end = true;
      buffer.append(chunk, n);
    }
    const size_t end = at_end ? buffer.size() : block_end(buffer, language);
    auto result = models.forward->translate(std::string_view(buffer).substr(0, end), args.options, models.reverse.get());
    if (!result) return fail(result.error());
    if (args.options.alignments)
      std::printf("%s\n", nmt::to_json(result.value(), args.options).c_str());
    else
      std::fwrite(result->text.data(), 1, result->text.size(), stdout);
    std::fflush(stdout);
    buffer.erase(0, end);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "segment") == 0) return segment_lines(argc, argv);
  Args args;
  if (const int bad = parse_args(argc, argv, args)) return bad;
  Models models;
  if (const int failed = load_models(args, models)) return failed;
  const double loaded_rss_mb = current_rss_mb();
  if (args.mode == "info") {
    std::printf("%s\n", models.forward->info_json().c_str());
    return 0;
  }
  if (args.mode == "bench") return bench(args, models, loaded_rss_mb);
  return translate_stdin(args, models);
}
