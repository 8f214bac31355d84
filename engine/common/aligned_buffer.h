// A 64-byte-aligned byte buffer: the model file lives in one, so its tensors can be used in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

namespace nmt {

class AlignedBuffer {
 public:
  static constexpr size_t kAlign = 64;
  static AlignedBuffer allocate(size_t size) {
    AlignedBuffer b;
    b.data_.reset(static_cast<uint8_t*>(::operator new[](size ? size : 1, std::align_val_t(kAlign))));
    b.size_ = size;
    return b;
  }
  uint8_t* data() { return data_.get(); }
  const uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }
  // Keeps only the first n bytes (a read that ended early); never grows.
  void shrink_to(size_t n) { size_ = n < size_ ? n : size_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { ::operator delete[](p, std::align_val_t(kAlign)); }
  };
  std::unique_ptr<uint8_t[], Free> data_;
  size_t size_ = 0;
};

}  // namespace nmt
