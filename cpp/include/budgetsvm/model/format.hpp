// The container of budgetsvm model files (docs/model_format.md): a header
// and tagged sections, little-endian on every machine.
//
//   magic (8 bytes) | version u32 | flags u32 | file size u64 | sections u64
//   per section:      tag (4 ASCII bytes) | flags u32 | length u64 | payload
//
// Bit 0 of a section's flags marks it required: a reader that does not know
// a required tag refuses the file, an optional one it keeps as opaque bytes
// (and writes back). ARRY sections hold one named n-d array each (numbers,
// or UTF-8 strings for labels). Every length is checked against the bytes
// left before anything is read, so a damaged or truncated file throws
// std::invalid_argument and never reads out of bounds. Byte order is fixed
// by assembling values from bytes, not by the host's layout. Writers end the
// file with an optional CSUM section, the CRC-32 (zlib's) of every byte
// before it; readers that find one check it, so a byte changed anywhere in
// the model is an error too (readers that predate it skip it as unknown).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/errors.hpp"

namespace budgetsvm::model_format {

inline constexpr char kMagic[8] = {'\x89', 'B', 'S', 'V', 'M', '\r', '\n', '\x1a'};
inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::uint32_t kRequired = 1;
inline constexpr char kChecksumTag[5] = "CSUM";

/// CRC-32 of bytes (the reflected polynomial 0xEDB88320, as zlib's crc32).
inline std::uint32_t crc32(const char* data, std::size_t n) {
  static const auto table = [] {
    std::vector<std::uint32_t> t(256);
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) c = table[(c ^ static_cast<unsigned char>(data[i])) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

enum class Dtype : std::uint8_t { f8 = 1, f4 = 2, i4 = 3, i8 = 4, b1 = 5, u1 = 6, utf8 = 7, utf8_fixed = 8 };

inline std::size_t item_size(Dtype t) {
  switch (t) {
    case Dtype::f8: case Dtype::i8: return 8;
    case Dtype::f4: case Dtype::i4: return 4;
    case Dtype::b1: case Dtype::u1: return 1;
    default: return 0;  // strings: variable
  }
}

/// A named n-d array. Numbers keep their little-endian bytes (`raw`);
/// strings are decoded into `strings`.
struct Array {
  std::string name;
  Dtype dtype = Dtype::f8;
  std::vector<std::uint64_t> shape;
  std::string raw;
  std::vector<std::string> strings;

  std::uint64_t size() const {
    std::uint64_t n = 1;
    for (auto s : shape) n *= s;
    return n;
  }
  bool is_string() const { return dtype == Dtype::utf8 || dtype == Dtype::utf8_fixed; }
  /// Element i as a double (numeric arrays only).
  double number(std::uint64_t i) const;
  template <class T>
  std::vector<T> as() const {
    std::vector<T> out(static_cast<std::size_t>(size()));
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<T>(number(i));
    return out;
  }
};

struct Section {
  std::string tag;  // 4 characters
  bool required = false;
  std::string payload;
};

// ---- little-endian bytes ------------------------------------------------------

inline std::uint64_t load_uint(const char* p, int bytes) {
  std::uint64_t v = 0;
  for (int k = bytes - 1; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(p[k]);
  return v;
}

inline void store_uint(std::string& out, std::uint64_t v, int bytes) {
  for (int k = 0; k < bytes; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xffu));
}

inline double load_f8(const char* p) {
  const std::uint64_t bits = load_uint(p, 8);
  double v;
  std::memcpy(&v, &bits, 8);
  return v;
}

inline float load_f4(const char* p) {
  const auto bits = static_cast<std::uint32_t>(load_uint(p, 4));
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

inline void store_f8(std::string& out, double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, 8);
  store_uint(out, bits, 8);
}

inline void store_f4(std::string& out, float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  store_uint(out, bits, 4);
}

inline double Array::number(std::uint64_t i) const {
  const char* p = raw.data() + i * item_size(dtype);
  switch (dtype) {
    case Dtype::f8: return load_f8(p);
    case Dtype::f4: return static_cast<double>(load_f4(p));
    case Dtype::i4: return static_cast<double>(static_cast<std::int32_t>(load_uint(p, 4)));
    case Dtype::i8: return static_cast<double>(static_cast<std::int64_t>(load_uint(p, 8)));
    case Dtype::b1: case Dtype::u1: return static_cast<double>(static_cast<unsigned char>(*p));
    default: throw std::invalid_argument("array '" + name + "' holds strings, not numbers");
  }
}

/// Bounds-checked reads from a byte string.
class ByteReader {
 public:
  ByteReader(const std::string& data, std::string what) : data_(data), what_(std::move(what)) {}
  const char* take(std::uint64_t n) {
    require(n <= data_.size() - pos_, what_ + ": needs " + std::to_string(n) + " bytes at offset " +
                                          std::to_string(pos_) + " but only " + std::to_string(data_.size() - pos_) +
                                          " are left (damaged or truncated model file)");
    const char* p = data_.data() + pos_;
    pos_ += static_cast<std::size_t>(n);
    return p;
  }
  std::uint64_t uint(int bytes) { return load_uint(take(static_cast<std::uint64_t>(bytes)), bytes); }
  std::size_t pos() const { return pos_; }
  std::size_t left() const { return data_.size() - pos_; }

 private:
  const std::string& data_;
  std::string what_;
  std::size_t pos_ = 0;
};

inline Array decode_array(const std::string& payload) {
  ByteReader r(payload, "array section");
  Array a;
  const auto name_len = r.uint(2);
  a.name.assign(r.take(name_len), static_cast<std::size_t>(name_len));
  const auto code = r.uint(1);
  const auto ndim = r.uint(1);
  require(code >= 1 && code <= 8, "array '" + a.name + "': unknown element type code " + std::to_string(code));
  require(ndim <= 8, "array '" + a.name + "': too many dimensions (damaged model file)");
  a.dtype = static_cast<Dtype>(code);
  std::uint64_t count = 1;
  for (std::uint64_t k = 0; k < ndim; ++k) {
    a.shape.push_back(r.uint(8));
    count *= a.shape.back();
    // every element takes at least one byte: a shape larger than what is left is damage (and no overflow)
    require(count == 0 || count <= r.left(),
            "array '" + a.name + "': its shape does not fit in the section (damaged model file)");
  }
  if (a.is_string()) {
    for (std::uint64_t k = 0; k < count; ++k) {
      const auto n = r.uint(8);
      a.strings.emplace_back(r.take(n), static_cast<std::size_t>(n));
    }
  } else {
    const std::uint64_t bytes = count * item_size(a.dtype);
    a.raw.assign(r.take(bytes), static_cast<std::size_t>(bytes));
  }
  require(r.left() == 0, "array '" + a.name + "': bytes left over (damaged model file)");
  return a;
}

inline std::string encode_array(const Array& a) {
  std::string out;
  store_uint(out, a.name.size(), 2);
  out += a.name;
  store_uint(out, static_cast<std::uint64_t>(a.dtype), 1);
  store_uint(out, a.shape.size(), 1);
  for (auto s : a.shape) store_uint(out, s, 8);
  if (a.is_string()) {
    for (const auto& s : a.strings) {
      store_uint(out, s.size(), 8);
      out += s;
    }
  } else {
    out += a.raw;
  }
  return out;
}

/// The sections of a model file's bytes (every tag kept, known or not;
/// `known` decides which unknown required tags refuse the file).
inline std::vector<Section> parse_container(const std::string& data, const std::vector<std::string>& known) {
  require(data.size() >= 32 && std::memcmp(data.data(), kMagic, 8) == 0,
          data.size() < 32 && data.size() > 0 && std::memcmp(data.data(), kMagic, std::min<std::size_t>(8, data.size())) == 0
              ? "truncated budgetsvm model file: shorter than its header"
              : "not a budgetsvm model file (wrong magic bytes)");
  const auto version = load_uint(data.data() + 8, 4);
  require(version != 0, "model file format version 0 does not exist (damaged model file)");
  require(version <= kVersion, "model file format version " + std::to_string(version) +
                                   " is newer than this budgetsvm reads (up to " + std::to_string(kVersion) +
                                   "); upgrade budgetsvm");
  const auto size = load_uint(data.data() + 16, 8);
  require(size == data.size(), "model file size mismatch: its header says " + std::to_string(size) +
                                   " bytes, the file has " + std::to_string(data.size()) + " (truncated or damaged)");
  const auto n_sections = load_uint(data.data() + 24, 8);
  ByteReader r(data, "model file");
  r.take(32);
  std::vector<Section> sections;
  for (std::uint64_t k = 0; k < n_sections; ++k) {
    Section s;
    const std::size_t begins = data.size() - r.left();
    s.tag.assign(r.take(4), 4);
    const auto flags = r.uint(4);
    const auto length = r.uint(8);
    s.payload.assign(r.take(length), static_cast<std::size_t>(length));
    if (s.tag == kChecksumTag) {  // the container's own: checked, not returned
      require(k + 1 == n_sections && length == 4, "model file: its checksum is not the last section (damaged model file)");
      require(static_cast<std::uint32_t>(load_uint(s.payload.data(), 4)) == crc32(data.data(), begins),
              "model file: checksum mismatch, the bytes changed after it was written (damaged model file)");
      continue;
    }
    s.required = (flags & kRequired) != 0;
    bool is_known = false;
    for (const auto& t : known) is_known = is_known || t == s.tag;
    require(is_known || !s.required,
            "model file needs section '" + s.tag + "', which this budgetsvm does not know; upgrade budgetsvm");
    sections.push_back(std::move(s));
  }
  require(r.left() == 0, "model file: bytes after its last section (damaged model file)");
  return sections;
}

inline std::string write_container(const std::vector<Section>& sections) {
  std::string body;
  for (const auto& s : sections) {
    require(s.tag.size() == 4, "section tags have 4 characters");
    body += s.tag;
    store_uint(body, s.required ? kRequired : 0, 4);
    store_uint(body, s.payload.size(), 8);
    body += s.payload;
  }
  std::string out(kMagic, 8);
  store_uint(out, kVersion, 4);
  store_uint(out, 0, 4);
  store_uint(out, 32 + body.size() + 16 + 4, 8);  // with the checksum section
  store_uint(out, sections.size() + 1, 8);
  out += body;
  const std::uint32_t sum = crc32(out.data(), out.size());
  out.append(kChecksumTag, 4);
  store_uint(out, 0, 4);
  store_uint(out, 4, 8);
  store_uint(out, sum, 4);
  return out;
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  require(static_cast<bool>(f), "cannot open model file '" + path + "'");
  std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  require(!f.bad(), "cannot read model file '" + path + "'");
  return data;
}

inline void write_bytes(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  require(static_cast<bool>(f), "cannot open '" + path + "' for writing");
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
  f.close();
  require(!f.fail(), "cannot write model file '" + path + "'");
}

}  // namespace budgetsvm::model_format
