// The model file (engine/FORMAT.md): validation and zero-copy access to its tensors.
//
// ModelFile::parse checks everything a broken or hostile file could get wrong (magic, version,
// length, CRC, JSON header, tensor bounds/alignment) and returns a clear error instead. After that,
// tensors are views into the caller's buffer: nothing is copied, so the buffer must outlive the
// ModelFile and must itself be 64-byte aligned (tensors are 64-aligned relative to its start).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/aligned_buffer.h"
#include "common/result.h"

namespace nmt {

struct ModelConfig {
  int d_model = 0;
  int n_heads = 0;
  int d_ff = 0;
  int encoder_layers = 0;
  int decoder_layers = 0;
  int vocab_size = 0;
  int max_length = 0;
  bool pre_norm = true;  // "norm": "pre" | "post"
  float norm_eps = 1e-5f;
  int pad_id = 0, unk_id = 1, bos_id = 2, eos_id = 3;
  int head_dim() const { return d_model / n_heads; }
};

enum class DType { f32, i8, u8, u16 };  // u16: little-endian, like every integer in the file

struct TensorView {
  DType dtype = DType::f32;
  std::vector<int64_t> shape;
  const uint8_t* data = nullptr;
  size_t bytes = 0;
  template <class T>
  const T* as() const { return reinterpret_cast<const T*>(data); }
};

class ModelFile {
 public:
  static constexpr uint32_t kFormatVersion = 1;
  static constexpr size_t kPrefixBytes = 32;
  static constexpr size_t kAlign = 64;

  // data[0, size) must be 64-byte aligned and outlive the returned ModelFile.
  static Result<ModelFile> parse(const uint8_t* data, size_t size);

  const ModelConfig& config() const { return config_; }
  const std::string& source_language() const { return source_language_; }
  const std::string& target_language() const { return target_language_; }
  int alignment_layer() const { return alignment_layer_; }
  // The JSON header as it is in the file (a view into the buffer): config, languages, provenance, ...
  std::string_view header_json() const { return header_json_; }
  size_t file_bytes() const { return size_; }

  // The tensor called `name`, checked to have this dtype and shape (an error names what differs).
  Result<TensorView> tensor(const std::string& name, DType dtype, const std::vector<int64_t>& shape) const;
  const TensorView* find(const std::string& name) const;
  // The tensor holding the tokenizer, as the header's tokenizer.tensor names it (checked to exist).
  const std::string& tokenizer_tensor() const { return tokenizer_tensor_; }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  std::string_view header_json_;
  ModelConfig config_;
  std::string source_language_, target_language_;
  int alignment_layer_ = 0;
  std::string tokenizer_tensor_;
  std::map<std::string, TensorView> tensors_;
};

uint32_t crc32(const uint8_t* data, size_t size);

// The bytes of the model file at `path`, for ModelFile::parse. Refuses what is not a regular file
// (a directory, a FIFO, /dev/zero: never blocks or reads without end) and files over `max_bytes`,
// with a message that says which.
constexpr size_t kMaxModelFileBytes = size_t(1) << 30;  // 1 GiB; the shipped models are ~11 MB
Result<AlignedBuffer> read_model_file(const std::string& path, size_t max_bytes = kMaxModelFileBytes);

}  // namespace nmt
