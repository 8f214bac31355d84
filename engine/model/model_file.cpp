// Parsing and validating the model file; see model_file.h and engine/FORMAT.md.
#include "model/model_file.h"

#include <algorithm>

#include <array>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace nmt {
namespace {

// The CRC-32 (IEEE, reflected polynomial 0xEDB88320) of every byte value, built at compile time, so
// there is nothing to initialize at run time and nothing to race on between threads.
constexpr std::array<uint32_t, 256> make_crc_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kCrcTable = make_crc_table();

using nlohmann::json;

uint32_t read_u32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

uint64_t read_u64(const uint8_t* p) { return uint64_t(read_u32(p)) | uint64_t(read_u32(p + 4)) << 32; }

const char* dtype_name(DType t) {
  switch (t) {
    case DType::f32: return "f32";
    case DType::i8: return "i8";
    case DType::u8: return "u8";
    case DType::u16: return "u16";
  }
  return "?";
}

size_t dtype_size(DType t) { return t == DType::f32 ? 4 : t == DType::u16 ? 2 : 1; }

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// Reads config[key] as an integer in [lo, hi]; false (and a message) otherwise.
bool read_int(const json& obj, const char* key, int lo, int hi, int* out, std::string* err) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_number_integer()) {
    *err = std::string("model header: config.") + key + " is missing or not an integer";
    return false;
  }
  int64_t v = it->get<int64_t>();
  if (v < lo || v > hi) {
    *err = std::string("model header: config.") + key + " = " + std::to_string(v) + " is out of range";
    return false;
  }
  *out = int(v);
  return true;
}

constexpr int kMinHeadDim = 8;
constexpr double kMaxNormEps = 0.1;
constexpr int kMaxHeaderDepth = 64;

// How deeply the JSON text nests ({ and [ outside strings): a header nested thousands deep (in its
// free-form provenance, say) would exhaust the stack while it is parsed or freed, so it is refused
// before parsing. One linear pass.
int json_depth(std::string_view text) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char ch : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (ch == '\\') escaped = true;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '{' || ch == '[') {
      deepest = std::max(deepest, ++depth);
    } else if (ch == '}' || ch == ']') {
      --depth;
    }
  }
  return deepest;
}

Result<ModelConfig> parse_config(const json& c) {
  if (!c.is_object()) return Error{"model header: \"config\" is missing"};
  ModelConfig cfg;
  std::string err;
  if (!read_int(c, "d_model", 1, 8192, &cfg.d_model, &err) || !read_int(c, "n_heads", 1, 256, &cfg.n_heads, &err) ||
      !read_int(c, "d_ff", 1, 65536, &cfg.d_ff, &err) ||
      !read_int(c, "encoder_layers", 1, 128, &cfg.encoder_layers, &err) ||
      !read_int(c, "decoder_layers", 1, 128, &cfg.decoder_layers, &err) ||
      !read_int(c, "vocab_size", 4, 1 << 20, &cfg.vocab_size, &err) ||
      !read_int(c, "max_length", 2, 65536, &cfg.max_length, &err) ||
      !read_int(c, "pad_id", 0, 1 << 20, &cfg.pad_id, &err) || !read_int(c, "unk_id", 0, 1 << 20, &cfg.unk_id, &err) ||
      !read_int(c, "bos_id", 0, 1 << 20, &cfg.bos_id, &err) || !read_int(c, "eos_id", 0, 1 << 20, &cfg.eos_id, &err))
    return Error{err};
  if (cfg.d_model % cfg.n_heads != 0) return Error{"model header: d_model is not a multiple of n_heads"};
  if (cfg.head_dim() < kMinHeadDim)  // e.g. n_heads = d_model: loads, but is no trained model of this format
    return Error{"model header: d_model / n_heads = " + std::to_string(cfg.head_dim()) + " is below " +
                 std::to_string(kMinHeadDim) + " dimensions per head"};
  for (int id : {cfg.pad_id, cfg.unk_id, cfg.bos_id, cfg.eos_id})
    if (id >= cfg.vocab_size) return Error{"model header: a special token id is not below vocab_size"};
  auto norm = c.find("norm");
  if (norm == c.end() || !norm->is_string() || (*norm != "pre" && *norm != "post"))
    return Error{"model header: config.norm must be \"pre\" or \"post\""};
  cfg.pre_norm = *norm == "pre";
  auto eps = c.find("norm_eps");
  if (eps != c.end()) {
    // Layer norm's epsilon is ~1e-5 in practice; 1e300 would become infinity in float and zero every layer.
    if (!eps->is_number() || !(eps->get<double>() > 0) || eps->get<double>() > kMaxNormEps)
      return Error{"model header: config.norm_eps must be positive and at most 0.1"};
    cfg.norm_eps = eps->get<float>();
  }
  return cfg;
}

}  // namespace

uint32_t crc32(const uint8_t* data, size_t size) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i) c = kCrcTable[(c ^ data[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

Result<ModelFile> ModelFile::parse(const uint8_t* data, size_t size) {
  if (size < kPrefixBytes) return Error{"model file is too short (" + std::to_string(size) + " bytes): truncated or not a model"};
  if (std::memcmp(data, "NMTMODEL", 8) != 0) return Error{"not a model file (wrong magic; expected \"NMTMODEL\")"};
  uint32_t version = read_u32(data + 8);
  if (version != kFormatVersion)
    return Error{"unsupported model format version " + std::to_string(version) + " (this engine reads version " +
                 std::to_string(kFormatVersion) + ")"};
  uint32_t header_bytes = read_u32(data + 12);
  uint64_t file_bytes = read_u64(data + 16);
  if (file_bytes != size)
    return Error{"model file is truncated or padded: header says " + std::to_string(file_bytes) + " bytes, got " +
                 std::to_string(size)};
  if (kPrefixBytes + uint64_t(header_bytes) > size) return Error{"model file is truncated inside its JSON header"};
  if (crc32(data + kPrefixBytes, size - kPrefixBytes) != read_u32(data + 24))
    return Error{"model file is corrupted (checksum mismatch)"};
  if (reinterpret_cast<uintptr_t>(data) % kAlign != 0) return Error{"model buffer is not 64-byte aligned"};

  ModelFile m;
  m.data_ = data;
  m.size_ = size;
  const char* hb = reinterpret_cast<const char*>(data + kPrefixBytes);
  m.header_json_ = std::string_view(hb, header_bytes);
  if (json_depth(m.header_json_) > kMaxHeaderDepth)
    return Error{"model header nests deeper than " + std::to_string(kMaxHeaderDepth) + " levels: not a model header"};
  const json h = json::parse(hb, hb + header_bytes, nullptr, /*allow_exceptions=*/false);
  if (h.is_discarded() || !h.is_object()) return Error{"model header is not valid JSON"};

  auto cfg = parse_config(h.contains("config") ? h["config"] : json());
  if (!cfg) return Error{cfg.error()};
  m.config_ = cfg.value();

  const json langs = h.contains("languages") ? h["languages"] : json();
  if (!langs.is_object() || !langs.contains("source") || !langs["source"].is_string() || !langs.contains("target") ||
      !langs["target"].is_string())
    return Error{"model header: \"languages\" must name a source and a target"};
  m.source_language_ = langs["source"].get<std::string>();
  m.target_language_ = langs["target"].get<std::string>();
  m.alignment_layer_ = m.config_.decoder_layers - 1;
  if (h.contains("alignment") && h["alignment"].is_object() && h["alignment"].contains("layer")) {
    const json& l = h["alignment"]["layer"];
    if (!l.is_number_integer() || l.get<int64_t>() < 0 || l.get<int64_t>() >= m.config_.decoder_layers)
      return Error{"model header: alignment.layer is not a decoder layer"};
    m.alignment_layer_ = l.get<int>();
  }

  if (!h.contains("tensors") || !h["tensors"].is_array()) return Error{"model header: \"tensors\" table is missing"};
  const uint64_t data_start = (kPrefixBytes + header_bytes + kAlign - 1) / kAlign * kAlign;
  for (const json& t : h["tensors"]) {
    if (!t.is_object() || !t.contains("name") || !t["name"].is_string() || !t.contains("dtype") ||
        !t["dtype"].is_string() || !t.contains("shape") || !t["shape"].is_array() || !t.contains("offset") ||
        !t["offset"].is_number_unsigned() || !t.contains("bytes") || !t["bytes"].is_number_unsigned())
      return Error{"model header: a tensor entry lacks name/dtype/shape/offset/bytes"};
    const std::string name = t["name"].get<std::string>();
    TensorView v;
    const std::string dt = t["dtype"].get<std::string>();
    if (dt == "f32") v.dtype = DType::f32;
    else if (dt == "i8") v.dtype = DType::i8;
    else if (dt == "u8") v.dtype = DType::u8;
    else if (dt == "u16") v.dtype = DType::u16;
    else return Error{"tensor " + name + ": unknown dtype \"" + dt + "\""};
    uint64_t count = 1;
    for (const json& d : t["shape"]) {
      if (!d.is_number_unsigned() || d.get<uint64_t>() > (1ull << 32))
        return Error{"tensor " + name + ": bad shape"};
      v.shape.push_back(d.get<int64_t>());
      count *= d.get<uint64_t>();
      if (count > size) return Error{"tensor " + name + ": shape is larger than the file"};
    }
    const uint64_t offset = t["offset"].get<uint64_t>(), bytes = t["bytes"].get<uint64_t>();
    if (bytes != count * dtype_size(v.dtype)) return Error{"tensor " + name + ": byte size does not match its shape"};
    if (offset % kAlign != 0) return Error{"tensor " + name + ": offset is not 64-byte aligned"};
    if (offset > size || data_start + offset + bytes > size)
      return Error{"tensor " + name + " lies outside the file (out of bounds)"};
    v.data = data + data_start + offset;
    v.bytes = size_t(bytes);
    if (!m.tensors_.emplace(name, std::move(v)).second) return Error{"tensor " + name + " appears twice"};
  }
  // The tokenizer the header names: a SentencePiece unigram model stored as a u8 tensor.
  const json tok = h.contains("tokenizer") ? h["tokenizer"] : json();
  if (!tok.is_object() || !tok.contains("type") || tok["type"] != "sentencepiece-unigram" || !tok.contains("tensor") ||
      !tok["tensor"].is_string())
    return Error{"model header: \"tokenizer\" must be {\"type\": \"sentencepiece-unigram\", \"tensor\": NAME}"};
  m.tokenizer_tensor_ = tok["tensor"].get<std::string>();
  const TensorView* spm = m.find(m.tokenizer_tensor_);
  if (!spm || spm->dtype != DType::u8)
    return Error{"model header: tokenizer.tensor names " + m.tokenizer_tensor_ + ", which is not a u8 tensor of the file"};
  return m;
}

Result<AlignedBuffer> read_model_file(const std::string& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever; a regular
  // file ignores the flag. The checks below then refuse anything that is not a regular file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return Error{"cannot open model file " + path + ": " + std::strerror(errno)};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return Error{"cannot read model file " + path + ": " + std::strerror(errno)};
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    const char* what = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
                       S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : S_ISSOCK(st.st_mode) ? "a socket" : "not a file";
    return Error{"model file " + path + " is " + what + ", not a regular file"};
  }
  const uint64_t size = uint64_t(st.st_size);
  if (size > max_bytes) {
    ::close(fd);
    return Error{"model file " + path + " is " + std::to_string(size) + " bytes, more than the " +
                 std::to_string(max_bytes) + " a model of this format may have"};
  }
  AlignedBuffer bytes = AlignedBuffer::allocate(size_t(size));
  size_t done = 0;
  while (done < size) {  // a file that shrinks while read is cut short: parse() then says truncated
    const ssize_t n = ::read(fd, bytes.data() + done, size_t(size) - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      return Error{"cannot read model file " + path + ": " + why};
    }
    if (n == 0) break;
    done += size_t(n);
  }
  ::close(fd);
  bytes.shrink_to(done);
  return bytes;
}

const TensorView* ModelFile::find(const std::string& name) const {
  auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

Result<TensorView> ModelFile::tensor(const std::string& name, DType dtype, const std::vector<int64_t>& shape) const {
  const TensorView* t = find(name);
  if (!t) return Error{"model file lacks tensor " + name};
  if (t->dtype != dtype)
    return Error{"tensor " + name + " has dtype " + dtype_name(t->dtype) + ", expected " + dtype_name(dtype)};
  if (t->shape != shape)
    return Error{"tensor " + name + " has shape " + shape_string(t->shape) + ", but the config implies " +
                 shape_string(shape)};
  return *t;
}

}  // namespace nmt
