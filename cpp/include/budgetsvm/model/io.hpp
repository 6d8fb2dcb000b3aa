// budgetsvm::load_model / save_model: a Model from and to a model file
// (docs/model_format.md). The MODL section holds the family, kernel and
// decision rule; ARRY sections the labels, support vectors, coefficients and
// intercepts under the names the Python writer uses. Every array's type,
// shape and values are checked against the others before the model is
// built, and the ATTR section against its rules (attributes.hpp), so a
// damaged or hostile file is std::invalid_argument, never a wrong
// prediction. These are the rules Python's load_model enforces
// (model_files/_estimator_state.py, _container.py); tests/fuzz/test_fuzz_model_files.py
// runs both readers on the same mutated files.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "attributes.hpp"
#include "format.hpp"
#include "model.hpp"

// save_model's writer (replace_file below): a new file renamed over the target
#include <atomic>
#include <cerrno>
#include <system_error>
#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <fcntl.h>
#include <io.h>
#include <process.h>
#include <share.h>
#include <sys/stat.h>
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace budgetsvm {

namespace detail::model_io {

using model_format::Array;
using model_format::Dtype;
using ArrayMap = std::map<std::string, Array>;

inline void check(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("model file: ") + what + " (damaged model file)");
}
inline void check(bool ok, const std::string& what) { require(ok, "model file: " + what + " (damaged model file)"); }

inline const Array* find(const ArrayMap& arrays, const std::string& name) {
  const auto it = arrays.find(name);
  return it == arrays.end() ? nullptr : &it->second;
}

inline std::vector<double> float_vector(const ArrayMap& a, const std::string& name, std::uint64_t length) {
  const Array* x = find(a, name);
  check(x && x->dtype == Dtype::f8 && x->shape.size() == 1 && x->shape[0] == length,
        name + " must be " + std::to_string(length) + " finite float64 values");
  auto v = x->as<double>();
  for (double d : v) check(std::isfinite(d), name + " must be " + std::to_string(length) + " finite float64 values");
  return v;
}

inline MatrixXd float_matrix(const ArrayMap& a, const std::string& name, std::uint64_t rows, std::uint64_t cols) {
  const Array* x = find(a, name);
  const std::string what =
      name + " must be finite float64 of shape (" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
  check(x && x->dtype == Dtype::f8 && x->shape.size() == 2 && x->shape[0] == rows && x->shape[1] == cols, what);
  MatrixXd m(static_cast<Index>(rows), static_cast<Index>(cols));
  for (std::uint64_t i = 0; i < rows; ++i)
    for (std::uint64_t j = 0; j < cols; ++j) m(static_cast<Index>(i), static_cast<Index>(j)) = x->number(i * cols + j);
  check(m.allFinite(), what);
  return m;
}

inline std::vector<std::int64_t> int_vector(const Array& x) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(x.size()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::int64_t>(model_format::load_uint(x.raw.data() + 8 * i, 8));
  return v;
}

inline SupportVectors support_vectors(const ArrayMap& a, Index width) {
  SupportVectors sv;
  sv.cols = width;
  auto take_values = [&](const Array& x) {
    check(x.dtype == Dtype::f8 || x.dtype == Dtype::f4, "support vector values must be float32 or float64");
    sv.single = x.dtype == Dtype::f4;
    if (sv.single) sv.values32 = x.as<float>(); else sv.values64 = x.as<double>();
    bool finite = true;
    for (float v : sv.values32) finite = finite && std::isfinite(v);
    for (double v : sv.values64) finite = finite && std::isfinite(v);
    check(finite, "support vector values must be finite");
  };
  if (const Array* x = find(a, "sv")) {
    check(x->shape.size() == 2 && x->shape[1] == static_cast<std::uint64_t>(width),
          "support vectors must have " + std::to_string(width) + " columns");
    sv.rows = static_cast<Index>(x->shape[0]);
    take_values(*x);
    return sv;
  }
  const Array *data = find(a, "sv_data"), *ind = find(a, "sv_indices"), *ptr = find(a, "sv_indptr"),
              *shape = find(a, "sv_shape");
  check(data && ind && ptr && shape, "no support vectors");
  check(shape->dtype == Dtype::i8 && shape->shape == std::vector<std::uint64_t>{2} && ind->dtype == Dtype::i8 &&
            ptr->dtype == Dtype::i8 && data->shape.size() == 1 && ind->shape == data->shape && ptr->shape.size() == 1,
        "the sparse support vectors' arrays disagree");
  const auto dims = int_vector(*shape);
  check(dims[0] >= 0 && dims[1] == width && ptr->shape[0] == static_cast<std::uint64_t>(dims[0]) + 1,
        "the sparse support vectors' arrays disagree");
  sv.sparse = true;
  sv.rows = static_cast<Index>(dims[0]);
  take_values(*data);
  sv.indices = int_vector(*ind);
  sv.indptr = int_vector(*ptr);
  const auto nnz = static_cast<std::int64_t>(data->size());
  bool ok = sv.indptr[0] == 0 && sv.indptr.back() == nnz;
  for (Index i = 0; ok && i < sv.rows; ++i) {
    const auto b = sv.indptr[static_cast<std::size_t>(i)], e = sv.indptr[static_cast<std::size_t>(i) + 1];
    ok = b <= e && e <= nnz;
    for (auto k = b; ok && k < e; ++k) {
      const auto j = sv.indices[static_cast<std::size_t>(k)];
      ok = j >= 0 && j < width && (k == b || j > sv.indices[static_cast<std::size_t>(k) - 1]);
    }
  }
  check(ok, "malformed CSR support vectors (row pointers from 0 to nnz, increasing column indices in range)");
  return sv;
}

/// The class labels: at least two, unique and increasing (as the estimators store them).
inline void read_labels(Model& m, const ArrayMap& a) {
  const Array* c = find(a, "classes");
  check(c && c->shape.size() == 1 && c->size() >= 2, "classes must hold at least 2 labels");
  for (std::uint64_t i = 1; i < c->size(); ++i)
    check(c->less(i - 1, i), "classes must be unique and in increasing order");
  m.classes = *c;
  m.label_text.clear();
  m.label_numbers.clear();
  for (std::uint64_t i = 0; i < c->size(); ++i) {
    m.label_text.push_back(c->text(i));
    if (!c->is_string()) m.label_numbers.push_back(c->number(i));
  }
}

inline void read_header(Model& m, const std::string& p) {
  check(p.size() >= 40, "MODL section too short");
  const char* d = p.data();
  const auto family = model_format::load_uint(d, 4), kernel = model_format::load_uint(d + 4, 4);
  const auto degree = static_cast<std::int32_t>(model_format::load_uint(d + 8, 4));
  const auto rule = model_format::load_uint(d + 12, 4);
  require(family >= 1 && family <= kLastFamily, "model file: unknown estimator family code " + std::to_string(family) +
                                          " (damaged model file, or written by a newer budgetsvm)");
  require(kernel <= 3, "model file: unknown kernel code " + std::to_string(kernel) +
                           " (damaged model file, or written by a newer budgetsvm)");
  require(rule >= 1 && rule <= kLastRule, "model file: unknown decision rule code " + std::to_string(rule) +
                                      " (damaged model file, or written by a newer budgetsvm)");
  m.family = static_cast<ModelFamily>(family);
  m.rule = static_cast<DecisionRule>(rule);
  m.kernel.type = static_cast<KernelType>(kernel);
  m.kernel.degree = degree;
  m.kernel.gamma = model_format::load_f8(d + 16);
  m.kernel.coef0 = model_format::load_f8(d + 24);
  const bool linear = m.kernel.type == KernelType::linear;
  require(std::isfinite(m.kernel.gamma) && std::isfinite(m.kernel.coef0) && (linear || m.kernel.gamma > 0.0) && degree >= 0,
          "model file: invalid kernel parameters (gamma must be finite, and positive unless the kernel is linear; "
          "coef0 finite; degree >= 0)");
  check(m.family != ModelFamily::linear_svc || linear, "a LinearSVC model must have the linear kernel");
  if (linear && m.kernel.gamma == 0.0) m.kernel.gamma = 1.0;
  const auto n_features = model_format::load_uint(d + 32, 8);
  check(n_features >= 1 && n_features < (std::uint64_t{1} << 62), "n_features out of range");
  m.n_features = static_cast<Index>(n_features);
}

inline void read_arrays(Model& m, const ArrayMap& a) {
  const bool regression = regression_family(m.family), ovo = ovo_family(m.family);
  if (regression) {
    check(find(a, "classes") == nullptr, "a regression model has no classes");
    m.classes = Array();
    m.label_text.clear();
    m.label_numbers.clear();
  } else {
    read_labels(m, a);
  }
  if (one_class_family(m.family))
    check(m.label_numbers.size() == 2 && m.label_numbers[0] == -1.0 && m.label_numbers[1] == 1.0,
          "a one-class model's classes must be -1 and 1");
  const auto k = static_cast<std::uint64_t>(m.n_classes());
  const std::uint64_t n_out = regression ? 1 : ovo ? k * (k - 1) / 2 : (k == 2 ? 1 : k);
  const DecisionRule expected = regression ? DecisionRule::value
                                : ovo      ? DecisionRule::ovo
                                : n_out == 1 ? DecisionRule::sign
                                             : DecisionRule::argmax;
  check(m.rule == expected, "the decision rule does not fit the family and classes");
  m.intercept = float_vector(a, "intercept", n_out);
  if (m.family == ModelFamily::linear_svc) {
    m.weights = float_matrix(a, "weights", n_out, static_cast<std::uint64_t>(m.n_features));
    return;
  }
  Index width = m.n_features;
  if (const Array* u = find(a, "used_columns")) {
    check(u->dtype == Dtype::i8 && u->shape.size() == 1, "used_columns must be int64 values");
    m.used_columns = int_vector(*u);
    m.restricted = true;
    bool ok = true;
    for (std::size_t j = 0; ok && j < m.used_columns.size(); ++j)
      ok = m.used_columns[j] >= 0 && m.used_columns[j] < m.n_features && (j == 0 || m.used_columns[j] > m.used_columns[j - 1]);
    check(ok, "used_columns must increase within [0, n_features)");
    width = std::max<Index>(static_cast<Index>(m.used_columns.size()), 1);
  }
  m.sv = support_vectors(a, width);
  const auto n_sv = static_cast<std::uint64_t>(m.sv.rows);
  const std::uint64_t n_pairs = k * (k - 1) / 2;
  if (!ovo) {  // the expansion's coefficients as stored (BudgetedSVC, the regressors, the one-class families)
    m.coef = float_matrix(a, "coef", n_sv, n_out);
    if (m.family == ModelFamily::budgeted_svr && find(a, "y_offset")) m.y_offset = float_vector(a, "y_offset", 1);
    if (find(a, "prob_a") || find(a, "prob_b")) {  // optional: probability=True (Python predicts with them)
      check(m.family == ModelFamily::budgeted_svc, "only a classifier's model holds probability sigmoids");
      m.prob_a = float_vector(a, "prob_a", n_pairs);
      m.prob_b = float_vector(a, "prob_b", n_pairs);
    }
    return;
  }
  const Array* ns = find(a, "n_support");
  check(ns && ns->dtype == Dtype::i8 && ns->shape.size() == 1 && ns->shape[0] == k,
        "n_support must be " + std::to_string(k) + " counts summing to the " + std::to_string(n_sv) + " support vectors");
  m.n_support = int_vector(*ns);
  std::int64_t total = 0;
  for (auto c : m.n_support) {
    check(c >= 0 && c <= static_cast<std::int64_t>(n_sv),
          "n_support must be " + std::to_string(k) + " counts summing to the " + std::to_string(n_sv) + " support vectors");
    total += c;
  }
  check(total == static_cast<std::int64_t>(n_sv),
        "n_support must be " + std::to_string(k) + " counts summing to the " + std::to_string(n_sv) + " support vectors");
  m.dual_coef = float_matrix(a, "dual_coef", k - 1, n_sv);
  if (find(a, "prob_a") || find(a, "prob_b")) {
    m.prob_a = float_vector(a, "prob_a", n_pairs);
    m.prob_b = float_vector(a, "prob_b", n_pairs);
  }
  m.derive_pair_coef();
}

}  // namespace detail::model_io

/// A Model from the bytes of a model file.
inline Model model_from_bytes(const std::string& data) {
  using namespace detail::model_io;
  const auto sections = model_format::parse_container(data, {"MODL", "ARRY", "ATTR"});
  Model m;
  ArrayMap arrays;
  std::map<std::string, model_format::ArrayInfo> attr_arrays;
  const std::string* attributes = nullptr;
  int headers = 0;
  for (const auto& s : sections) {
    if (s.tag == "MODL") {
      read_header(m, s.payload);
      ++headers;
      continue;
    }
    if (s.tag == "ARRY") {
      Array a = model_format::decode_array(s.payload);
      check(arrays.count(a.name) == 0 && attr_arrays.count(a.name) == 0, "array '" + a.name + "' appears twice");
      if (a.name.rfind("attr/", 0) != 0) {
        arrays.emplace(a.name, std::move(a));
        continue;
      }
      attr_arrays[a.name] = model_format::ArrayInfo{a.dtype, a.shape};
    }
    if (s.tag == "ATTR") {
      check(attributes == nullptr, "more than one ATTR section");
      attributes = &s.payload;
    }
    m.extra.push_back(s);  // attributes, and sections of later versions: kept for writing back
  }
  check(headers == 1, "needs exactly one MODL section");
  read_arrays(m, arrays);
  if (attributes != nullptr) {
    model_format::AttributeDims dims;
    dims.n_classes = static_cast<std::uint64_t>(m.n_classes());
    dims.n_support_vectors = static_cast<std::uint64_t>(m.sv.rows);
    dims.n_features = static_cast<std::uint64_t>(m.n_features);
    model_format::check_attributes(*attributes, static_cast<int>(m.family), dims, attr_arrays);
  }
  return m;
}

inline Model load_model(const std::string& path) { return model_from_bytes(model_format::read_model_file(path)); }

namespace detail::model_io {

inline Array make_array(const std::string& name, Dtype t, std::vector<std::uint64_t> shape) {
  Array a;
  a.name = name;
  a.dtype = t;
  a.shape = std::move(shape);
  return a;
}

inline Array doubles(const std::string& name, const double* v, std::uint64_t n, std::vector<std::uint64_t> shape) {
  Array a = make_array(name, Dtype::f8, std::move(shape));
  for (std::uint64_t i = 0; i < n; ++i) model_format::store_f8(a.raw, v[i]);
  return a;
}

inline Array row_major(const std::string& name, const MatrixXd& m) {
  Array a = make_array(name, Dtype::f8, {static_cast<std::uint64_t>(m.rows()), static_cast<std::uint64_t>(m.cols())});
  for (Index i = 0; i < m.rows(); ++i)
    for (Index j = 0; j < m.cols(); ++j) model_format::store_f8(a.raw, m(i, j));  // row-major
  return a;
}

inline Array int64s(const std::string& name, const std::vector<std::int64_t>& v) {
  Array a = make_array(name, Dtype::i8, {v.size()});
  for (auto x : v) model_format::store_uint(a.raw, static_cast<std::uint64_t>(x), 8);
  return a;
}

inline void sv_arrays(const SupportVectors& sv, std::vector<Array>& out) {
  const auto values = [&](const std::string& name, std::vector<std::uint64_t> shape) {
    Array a = make_array(name, sv.single ? Dtype::f4 : Dtype::f8, std::move(shape));
    if (sv.single)
      for (float v : sv.values32) model_format::store_f4(a.raw, v);
    else
      for (double v : sv.values64) model_format::store_f8(a.raw, v);
    return a;
  };
  if (!sv.sparse) {
    out.push_back(values("sv", {static_cast<std::uint64_t>(sv.rows), static_cast<std::uint64_t>(sv.cols)}));
    return;
  }
  out.push_back(values("sv_data", {sv.single ? sv.values32.size() : sv.values64.size()}));
  out.push_back(int64s("sv_indices", sv.indices));
  out.push_back(int64s("sv_indptr", sv.indptr));
  out.push_back(int64s("sv_shape", {static_cast<std::int64_t>(sv.rows), static_cast<std::int64_t>(sv.cols)}));
}

inline std::vector<Array> arrays_of(const Model& m) {
  std::vector<Array> out;
  if (!regression_family(m.family)) out.push_back(m.classes);
  out.push_back(doubles("intercept", m.intercept.data(), m.intercept.size(), {m.intercept.size()}));
  if (m.family == ModelFamily::linear_svc) {
    out.push_back(row_major("weights", m.weights));
    return out;
  }
  sv_arrays(m.sv, out);
  if (m.restricted) out.push_back(int64s("used_columns", m.used_columns));
  if (!ovo_family(m.family)) {
    out.push_back(row_major("coef", m.coef));
    if (!m.y_offset.empty()) out.push_back(doubles("y_offset", m.y_offset.data(), m.y_offset.size(), {1}));
  } else {
    out.push_back(row_major("dual_coef", m.dual_coef));
    out.push_back(int64s("n_support", m.n_support));
  }
  if (!m.prob_a.empty()) {
    out.push_back(doubles("prob_a", m.prob_a.data(), m.prob_a.size(), {m.prob_a.size()}));
    out.push_back(doubles("prob_b", m.prob_b.data(), m.prob_b.size(), {m.prob_b.size()}));
  }
  return out;
}

}  // namespace detail::model_io

/// The bytes of a model file holding m.
inline std::string model_to_bytes(const Model& m) {
  using namespace detail::model_io;
  std::string header;
  model_format::store_uint(header, static_cast<std::uint64_t>(m.family), 4);
  model_format::store_uint(header, static_cast<std::uint64_t>(m.kernel.type), 4);
  model_format::store_uint(header, static_cast<std::uint32_t>(m.kernel.degree), 4);
  model_format::store_uint(header, static_cast<std::uint64_t>(m.rule), 4);
  model_format::store_f8(header, m.kernel.gamma);
  model_format::store_f8(header, m.kernel.coef0);
  model_format::store_uint(header, static_cast<std::uint64_t>(m.n_features), 8);
  std::vector<model_format::Section> sections{{"MODL", true, header}};
  for (const auto& a : arrays_of(m)) sections.push_back({"ARRY", false, model_format::encode_array(a)});
  for (const auto& s : m.extra) sections.push_back(s);
  // checks what is written by reading it back: a model that would not load is not saved
  std::string bytes = model_format::write_container(sections);
  model_from_bytes(bytes);
  return bytes;
}

namespace detail::model_io {

#ifdef _WIN32
inline bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const int w = _write(fd, p, static_cast<unsigned>(n < (1u << 30) ? n : (1u << 30)));
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}
#else
inline bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n < (std::size_t{1} << 30) ? n : (std::size_t{1} << 30));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (w == 0) errno = EIO;
      return false;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}
#endif

/// Writes `bytes` to `path` all at once: to a new file next to it (the same folder, so the same file
/// system), flushed to the disk, then renamed over `path`, which therefore holds its old bytes or all of
/// the new ones, never a part, whatever happens meanwhile (an error, a full disk, kill -9, a reader
/// opening it). On failure the new file is removed and std::invalid_argument names the reason. As
/// Python's writer (budgetsvm._atomic.replacing): the temporary file is ".<name>.tmp-<suffix>", an
/// existing target keeps its permission bits, a symbolic link is written through, a target that is
/// not a regular file (/dev/null) is written directly, a read-only one is refused.
inline void replace_file(const std::string& path, const std::string& bytes) {
  const std::string fail = "cannot write model file '" + path + "': ";
  static std::atomic<unsigned long> counter{0};
#ifdef _WIN32
  const std::string& target = path;
  const auto cut = target.find_last_of("/\\");
  const std::string folder = cut == std::string::npos ? "" : target.substr(0, cut + 1);
  const std::string name = target.substr(cut == std::string::npos ? 0 : cut + 1, 200);  // 200: NAME_MAX
  const DWORD attributes = GetFileAttributesA(target.c_str());
  const bool exists = attributes != INVALID_FILE_ATTRIBUTES;
  require(!(exists && (attributes & FILE_ATTRIBUTE_DIRECTORY)), fail + "it is a folder");
  require(!(exists && (attributes & FILE_ATTRIBUTE_READONLY)), fail + "it is read-only");
  std::string temp;
  int fd = -1;
  int err = 0;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = folder + "." + name + ".tmp-" + std::to_string(_getpid()) + "-" + std::to_string(counter++);
    err = _sopen_s(&fd, temp.c_str(), _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY, _SH_DENYNO, _S_IREAD | _S_IWRITE);
    if (fd < 0 && err != EEXIST) break;
  }
  require(fd >= 0, fail + std::generic_category().message(err));
  bool ok = write_all(fd, bytes.data(), bytes.size()) && _commit(fd) == 0;
  err = errno;
  if (_close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  std::string reason = std::generic_category().message(err);
  if (ok && !MoveFileExA(temp.c_str(), target.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
    ok = false;
    reason = std::system_category().message(static_cast<int>(GetLastError()));
  }
  if (!ok) {
    _unlink(temp.c_str());
    require(false, fail + reason);
  }
#else
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;  // through symbolic links
  require(!(exists && S_ISDIR(st.st_mode)), fail + "it is a folder");
  if (exists && !S_ISREG(st.st_mode)) {  // a device or a pipe: nothing can be renamed over it
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    require(fd >= 0, fail + std::generic_category().message(errno));
    const bool ok = write_all(fd, bytes.data(), bytes.size());
    const int err = errno;
    ::close(fd);
    require(ok, fail + std::generic_category().message(err));
    return;
  }
  std::string target = path;
  struct stat entry {};
  if (::lstat(path.c_str(), &entry) == 0 && S_ISLNK(entry.st_mode)) {  // the file it points to, as open() would
    if (char* real = ::realpath(path.c_str(), nullptr)) {
      target = real;
      std::free(real);
    }
  }
  require(!exists || ::access(target.c_str(), W_OK) == 0, fail + std::generic_category().message(EACCES));
  const auto cut = target.find_last_of('/');
  const std::string folder = cut == std::string::npos ? "" : target.substr(0, cut + 1);
  const std::string name = target.substr(cut == std::string::npos ? 0 : cut + 1, 200);  // 200: NAME_MAX
  std::string temp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = folder;
    temp += '.';
    temp += name;
    temp += ".tmp-";
    temp += std::to_string(::getpid());
    temp += '-';
    temp += std::to_string(counter++);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // the umask applies, as to open()
    if (fd < 0 && errno != EEXIST) break;
  }
  require(fd >= 0, fail + std::generic_category().message(errno));
  if (exists) (void)::fchmod(fd, st.st_mode & 07777);  // best effort: some file systems have no modes
  bool ok = write_all(fd, bytes.data(), bytes.size()) && ::fsync(fd) == 0;
  int err = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && std::rename(temp.c_str(), target.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(temp.c_str());
    require(false, fail + std::generic_category().message(err));
  }
#ifdef O_DIRECTORY
  const int dir_flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
#else
  const int dir_flags = O_RDONLY | O_CLOEXEC;
#endif
  const int dir = ::open(folder.empty() ? "." : folder.c_str(), dir_flags);  // the rename itself to the disk
  if (dir >= 0) {
    (void)::fsync(dir);  // some file systems cannot sync a folder (EINVAL): the rename is done all the same
    ::close(dir);
  }
#endif
}

}  // namespace detail::model_io

/// Writes m to `path` (docs/model_format.md) all at once: a failed or interrupted save leaves the
/// previous file as it was (detail::model_io::replace_file).
inline void save_model(const Model& m, const std::string& path) {
  detail::model_io::replace_file(path, model_to_bytes(m));
}

}  // namespace budgetsvm
