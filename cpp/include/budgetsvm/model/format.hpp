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
// by assembling values from bytes, not by the host's layout. Every file ends
// with a CSUM section, the CRC-32 (zlib's) of every byte before it; readers
// require it, so a byte changed anywhere in the file is an error too.
// Reading a file (read_model_file) checks the header's declared size before
// reading the rest and never reads more than that size plus one byte, so a
// device or a pipe without end (/dev/zero) costs 32 bytes, not all memory.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "../core/errors.hpp"

namespace budgetsvm::model_format {

inline constexpr char kMagic[8] = {'\x89', 'B', 'S', 'V', 'M', '\r', '\n', '\x1a'};
inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::uint32_t kRequired = 1;
inline constexpr char kChecksumTag[5] = "CSUM";
inline constexpr std::size_t kHeaderSize = 32;
/// The most sections a file may declare: a model needs about 30 (MODL, the
/// arrays, ATTR and its arrays, CSUM), so a header that declares more is
/// damage, refused before anything is read.
inline constexpr std::uint64_t kMaxSections = 4096;

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

/// Element types of ARRY sections, by their code in the file (the table in
/// docs/model_format.md; model_files/_container.DTYPE_CODES in Python).
enum class Dtype : std::uint8_t {
  f8 = 1, f4 = 2, i4 = 3, i8 = 4, b1 = 5, u1 = 6, utf8 = 7, utf8_fixed = 8,
  i1 = 9, i2 = 10, u2 = 11, u4 = 12, u8 = 13, f2 = 14
};
inline constexpr std::uint64_t kLastDtype = 14;

inline std::size_t item_size(Dtype t) {
  switch (t) {
    case Dtype::f8: case Dtype::i8: case Dtype::u8: return 8;
    case Dtype::f4: case Dtype::i4: case Dtype::u4: return 4;
    case Dtype::f2: case Dtype::i2: case Dtype::u2: return 2;
    case Dtype::b1: case Dtype::u1: case Dtype::i1: return 1;
    default: return 0;  // strings: variable
  }
}

inline bool is_float(Dtype t) { return t == Dtype::f8 || t == Dtype::f4 || t == Dtype::f2; }
inline bool is_signed(Dtype t) { return t == Dtype::i1 || t == Dtype::i2 || t == Dtype::i4 || t == Dtype::i8; }
inline bool is_unsigned(Dtype t) {
  return t == Dtype::u1 || t == Dtype::u2 || t == Dtype::u4 || t == Dtype::u8 || t == Dtype::b1;
}

/// IEEE 754 binary16 -> double (exact).
inline double half_to_double(std::uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const int fraction = h & 0x3ff;
  double v;
  if (exponent == 0)
    v = std::ldexp(static_cast<double>(fraction), -24);
  else if (exponent == 31)
    v = fraction != 0 ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else
    v = std::ldexp(static_cast<double>(fraction + 1024), exponent - 25);
  return (h & 0x8000) != 0 ? -v : v;
}

/// Whether bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF), as Python's strict "utf-8" codec.
inline bool valid_utf8(const char* data, std::size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  std::size_t i = 0;
  while (i < n) {
    const unsigned c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len;
    unsigned lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
    } else {
      return false;
    }
    if (n - i < len || p[i + 1] < lo || p[i + 1] > hi) return false;
    for (std::size_t k = 2; k < len; ++k)
      if (p[i + k] < 0x80 || p[i + k] > 0xBF) return false;
    i += len;
  }
  return true;
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
  /// Element i as a double (numeric arrays only; exact except for 64-bit
  /// integers beyond 2^53).
  double number(std::uint64_t i) const;
  /// Element i of an integer (or bool) array, exactly.
  std::int64_t signed_at(std::uint64_t i) const;
  std::uint64_t unsigned_at(std::uint64_t i) const;
  /// Whether element i < element j in the array's own type (numbers by
  /// value, NaN never; strings by code point, i.e. by their UTF-8 bytes).
  bool less(std::uint64_t i, std::uint64_t j) const;
  /// Element i as Python's str() writes it (True / False, integers exactly,
  /// floats in the fewest digits that read back in their own precision).
  std::string text(std::uint64_t i) const;
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

inline std::string float_text(double v, Dtype t, std::uint16_t half_bits);

/// Whether x (of the same sign) rounds to the binary16 value with bits h.
inline bool half_rounds_to(double x, std::uint16_t h) {
  const int magnitude = h & 0x7fff;
  const double v = std::fabs(half_to_double(h)), a = std::fabs(x);
  const double up = magnitude < 0x7bff ? half_to_double(static_cast<std::uint16_t>(magnitude + 1)) : 65520.0;
  const double down = magnitude > 0 ? half_to_double(static_cast<std::uint16_t>(magnitude - 1)) : -v;
  const double d = std::fabs(a - v), du = up - a, dd = a - down;
  if (d < du && d < dd) return true;
  return (d == du || d == dd) && magnitude % 2 == 0;  // a tie goes to the even neighbour
}

inline std::int64_t Array::signed_at(std::uint64_t i) const {
  const auto bytes = static_cast<int>(item_size(dtype));
  const std::uint64_t v = load_uint(raw.data() + i * static_cast<std::uint64_t>(bytes), bytes);
  if (bytes == 8) return static_cast<std::int64_t>(v);
  const std::uint64_t sign = std::uint64_t{1} << (8 * bytes - 1);
  return (v & sign) != 0 ? static_cast<std::int64_t>(v) - static_cast<std::int64_t>(sign << 1) : static_cast<std::int64_t>(v);
}

inline std::uint64_t Array::unsigned_at(std::uint64_t i) const {
  const auto bytes = static_cast<int>(item_size(dtype));
  return load_uint(raw.data() + i * static_cast<std::uint64_t>(bytes), bytes);
}

inline double Array::number(std::uint64_t i) const {
  const char* p = raw.data() + i * item_size(dtype);
  switch (dtype) {
    case Dtype::f8: return load_f8(p);
    case Dtype::f4: return static_cast<double>(load_f4(p));
    case Dtype::f2: return half_to_double(static_cast<std::uint16_t>(load_uint(p, 2)));
    default: break;
  }
  require(!is_string(), "array '" + name + "' holds strings, not numbers");
  if (is_signed(dtype)) return static_cast<double>(signed_at(i));
  return static_cast<double>(unsigned_at(i));
}

inline bool Array::less(std::uint64_t i, std::uint64_t j) const {
  if (is_string()) return strings[static_cast<std::size_t>(i)] < strings[static_cast<std::size_t>(j)];
  if (is_signed(dtype)) return signed_at(i) < signed_at(j);
  if (is_unsigned(dtype)) return unsigned_at(i) < unsigned_at(j);
  return number(i) < number(j);  // exact for f2 / f4 / f8; false when either is NaN
}

inline std::string Array::text(std::uint64_t i) const {
  if (is_string()) return strings[static_cast<std::size_t>(i)];
  if (dtype == Dtype::b1) return unsigned_at(i) != 0 ? "True" : "False";
  if (is_signed(dtype)) return std::to_string(signed_at(i));
  if (is_unsigned(dtype)) return std::to_string(unsigned_at(i));
  return float_text(number(i), dtype, static_cast<std::uint16_t>(dtype == Dtype::f2 ? unsigned_at(i) : 0));
}

/// A float of type t as numpy's str() writes it: the fewest digits that read
/// back as the same value of type t; positional for 1e-4 <= |v| < 1e3 (f2),
/// 1e6 (f4) or 1e16 (f8) and for zero, else scientific ("1.5e+16").
inline std::string float_text(double v, Dtype t, std::uint16_t half_bits) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[48];
  int p = 0;
  for (; p < 17; ++p) {  // the shortest "d.ddde+x" that reads back
    std::snprintf(buf, sizeof buf, "%.*e", p, v);
    const double back = std::strtod(buf, nullptr);
    if (t == Dtype::f8 ? back == v
        : t == Dtype::f4 ? static_cast<float>(back) == static_cast<float>(v)
                         : half_rounds_to(back, half_bits))
      break;
  }
  std::string text = buf;
  const bool negative = text[0] == '-';
  const std::size_t e = text.find('e');
  const int exponent = std::atoi(text.c_str() + e + 1);
  std::string digits;
  for (std::size_t k = negative ? 1 : 0; k < e; ++k)
    if (text[k] != '.') digits.push_back(text[k]);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const double a = std::fabs(v), limit = t == Dtype::f2 ? 1e3 : t == Dtype::f4 ? 1e6 : 1e16;
  std::string out = negative ? "-" : "";
  if (v == 0.0 || (a < limit && a >= 1e-4)) {
    if (exponent >= 0) {
      std::string whole = digits.substr(0, std::min<std::size_t>(digits.size(), static_cast<std::size_t>(exponent) + 1));
      whole.resize(static_cast<std::size_t>(exponent) + 1, '0');
      const std::string fraction = digits.size() > whole.size() ? digits.substr(whole.size()) : "0";
      return out + whole + "." + fraction;
    }
    return out + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  std::snprintf(buf, sizeof buf, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
  return out + buf;
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

/// The most elements an array may declare, counting non-zero dimensions
/// only (so that an empty array of a huge declared width is refused too):
/// 2^59, whose 8-byte elements still have a size numpy can represent.
inline constexpr std::uint64_t kMaxElements = std::uint64_t{1} << 59;

inline Array decode_array(const std::string& payload) {
  ByteReader r(payload, "array section");
  Array a;
  const auto name_len = r.uint(2);
  a.name.assign(r.take(name_len), static_cast<std::size_t>(name_len));
  require(valid_utf8(a.name.data(), a.name.size()), "array section: the name is not UTF-8 (damaged model file)");
  const auto code = r.uint(1);
  const auto ndim = r.uint(1);
  require(code >= 1 && code <= kLastDtype,
          "array '" + a.name + "': unknown element type code " + std::to_string(code) + " (damaged model file)");
  require(ndim <= 8, "array '" + a.name + "': " + std::to_string(ndim) + " dimensions (damaged model file)");
  a.dtype = static_cast<Dtype>(code);
  std::uint64_t count = 1, nonzero = 1;
  for (std::uint64_t k = 0; k < ndim; ++k) {
    a.shape.push_back(r.uint(8));
    const std::uint64_t s = a.shape.back();
    // at most kMaxElements (so no overflow below), and every element takes at
    // least one byte: a shape larger than what is left is damage
    require(s == 0 || s <= kMaxElements / nonzero,
            "array '" + a.name + "': its shape does not fit in the section (damaged model file)");
    if (s != 0) nonzero *= s;
    count *= s;
    require(count <= r.left(), "array '" + a.name + "': its shape does not fit in the section (damaged model file)");
  }
  if (a.is_string()) {
    for (std::uint64_t k = 0; k < count; ++k) {
      const auto n = r.uint(8);
      a.strings.emplace_back(r.take(n), static_cast<std::size_t>(n));
      const std::string& t = a.strings.back();
      require(valid_utf8(t.data(), t.size()), "array '" + a.name + "': a string is not UTF-8 (damaged model file)");
      // numpy's fixed-width strings cannot end with NUL (it strips them): such a label would change
      require(a.dtype != Dtype::utf8_fixed || t.empty() || t.back() != '\0',
              "array '" + a.name + "': a fixed-width string ends with NUL (damaged model file)");
    }
  } else {
    const std::uint64_t bytes = count * item_size(a.dtype);
    a.raw.assign(r.take(bytes), static_cast<std::size_t>(bytes));
  }
  require(r.left() == 0, "array '" + a.name + "': " + std::to_string(r.left()) + " bytes left over (damaged model file)");
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

/// Checks a file's first bytes (at least its 32-byte header when the file
/// has them): magic, version; returns the file size the header declares.
inline std::uint64_t check_header(const std::string& head) {
  const bool magic = std::memcmp(head.data(), kMagic, std::min<std::size_t>(8, head.size())) == 0;
  require(head.size() >= kHeaderSize || !magic || head.empty(),
          "truncated budgetsvm model file: " + std::to_string(head.size()) + " bytes, shorter than its header");
  require(head.size() >= kHeaderSize && magic, "not a budgetsvm model file (wrong magic bytes)");
  const auto version = load_uint(head.data() + 8, 4);
  require(version != 0, "model file format version 0 does not exist (damaged model file)");
  require(version <= kVersion, "model file format version " + std::to_string(version) +
                                   " is newer than this budgetsvm reads (up to " + std::to_string(kVersion) +
                                   "); upgrade budgetsvm");
  return load_uint(head.data() + 16, 8);
}

/// The sections of a model file's bytes (every tag kept, known or not;
/// `known` decides which unknown required tags refuse the file). The file
/// must end with its CSUM section (tag, flags 0, length 4, the CRC-32 of
/// every byte before it), checked before anything else is read.
inline std::vector<Section> parse_container(const std::string& data, const std::vector<std::string>& known) {
  const auto size = check_header(data);
  require(size == data.size(), "model file size mismatch: its header says " + std::to_string(size) +
                                   " bytes, the file has " + std::to_string(data.size()) + " (truncated or damaged)");
  const auto n_sections = load_uint(data.data() + 24, 8);
  require(n_sections <= kMaxSections, "model file: its header declares " + std::to_string(n_sections) +
                                          " sections, more than the " + std::to_string(kMaxSections) +
                                          " a model file may hold (damaged model file)");
  const std::size_t tail = data.size() - 20;  // where the CSUM section must begin
  require(data.size() >= kHeaderSize + 20 && std::memcmp(data.data() + tail, kChecksumTag, 4) == 0 &&
              load_uint(data.data() + tail + 4, 4) == 0 && load_uint(data.data() + tail + 8, 8) == 4,
          "model file: it does not end with its checksum section (CSUM): damaged, or not written by budgetsvm");
  require(static_cast<std::uint32_t>(load_uint(data.data() + tail + 16, 4)) == crc32(data.data(), tail),
          "model file: checksum mismatch, the bytes changed after it was written (damaged model file)");
  ByteReader r(data, "model file");
  r.take(kHeaderSize);
  std::vector<Section> sections;
  for (std::uint64_t k = 0; k < n_sections; ++k) {
    Section s;
    const std::size_t begins = data.size() - r.left();
    s.tag.assign(r.take(4), 4);
    const auto flags = r.uint(4);
    const auto length = r.uint(8);
    const char* payload = r.take(length);
    if (s.tag == kChecksumTag) {  // the container's own, checked above: not returned
      require(k + 1 == n_sections && begins == tail, "model file: its checksum is not the last section (damaged model file)");
      continue;
    }
    require(k + 1 < n_sections, "model file: its checksum is not the last section (damaged model file)");
    s.required = (flags & kRequired) != 0;
    bool is_known = false;
    for (const auto& t : known) is_known = is_known || t == s.tag;
    require(is_known || !s.required,
            "model file needs section '" + s.tag + "', which this budgetsvm does not know; upgrade budgetsvm");
    s.payload.assign(payload, static_cast<std::size_t>(length));
    sections.push_back(std::move(s));
  }
  require(r.left() == 0, "model file: " + std::to_string(r.left()) + " bytes after its last section (damaged model file)");
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

/// The bytes of the model file at `path`, read within bounds: its header
/// first (magic, version, declared size), then, for a regular file, its
/// size checked against the declared one before anything else is read; from
/// a device or a pipe, never more than the declared size plus one byte.
inline std::string read_model_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  require(static_cast<bool>(f), "cannot open model file '" + path + "'");
  std::string data(kHeaderSize, '\0');
  f.read(&data[0], static_cast<std::streamsize>(kHeaderSize));
  require(!f.bad(), "cannot read model file '" + path + "'");
  data.resize(static_cast<std::size_t>(f.gcount()));
  const std::uint64_t size = check_header(data);
  const auto mismatch = [&](const std::string& actual) {
    return "model file size mismatch: its header says " + std::to_string(size) + " bytes, the file has " + actual +
           " (truncated or damaged)";
  };
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (!error && std::filesystem::is_regular_file(status)) {
    const auto actual = std::filesystem::file_size(path, error);
    require(error || actual == size, mismatch(std::to_string(actual)));
    if (!error) data.reserve(static_cast<std::size_t>(size) + 1);
  }
  require(size >= kHeaderSize && size - kHeaderSize < std::numeric_limits<std::size_t>::max() / 2,
          mismatch("another length"));
  // in pieces: a declared size is only a claim until the bytes are there
  constexpr std::uint64_t kPiece = std::uint64_t{1} << 24;
  while (f && data.size() <= size) {
    const std::uint64_t want = std::min<std::uint64_t>(kPiece, size + 1 - data.size());
    const std::size_t old = data.size();
    data.resize(old + static_cast<std::size_t>(want));
    f.read(&data[old], static_cast<std::streamsize>(want));
    require(!f.bad(), "cannot read model file '" + path + "'");
    data.resize(old + static_cast<std::size_t>(f.gcount()));
  }
  require(data.size() == size, mismatch(data.size() > size ? "more" : std::to_string(data.size())));
  return data;
}

}  // namespace budgetsvm::model_format
