// Bindings of the C++ model files (model/io.hpp): used by the tests that
// check Python-written files load and predict the same in C++, and the
// reverse (a file C++ wrote, loaded in Python); and the one checker of ATTR
// sections (model/attributes.hpp), which Python's load_model calls before
// it decodes a file's attributes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "budgetsvm/model/io.hpp"
#include "data.hpp"
#include "register.hpp"

namespace budgetsvm::python {

namespace {

/// (decision values, class indices, labels) of X under the model in `path`.
py::tuple py_model_predict(const std::string& path, py::object X, int n_jobs) {
  const Model model = load_model(path);
  const Index n = visit_data(X, [](const auto& v) { return v.rows(); });
  py::array_t<double> dec({n, model.n_outputs()});
  py::array_t<int> index(n);
  auto* dec_ptr = dec.mutable_data();
  auto* index_ptr = index.mutable_data();
  visit_data(X, [&](const auto& view) {
    py::gil_scoped_release release;  // X is kept alive by the caller
    Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> out(dec_ptr, n, model.n_outputs());
    MatrixXd d(n, model.n_outputs());
    model.decision_function(view, d, n_jobs);
    out = d;
    for (Index i = 0; i < n; ++i) index_ptr[i] = model.class_of(d.row(i));
  });
  return py::make_tuple(dec, index, model.labels());
}

const char* dim_name(model_format::Dim d) {
  switch (d) {
    case model_format::Dim::classes: return "classes";
    case model_format::Dim::pairs: return "pairs";
    case model_format::Dim::support_vectors: return "support_vectors";
    case model_format::Dim::features: return "features";
    default: return "any";
  }
}

/// The fixed list of attributes of a family: (name, kind, dtype code, dims).
py::list py_attribute_rules(int family) {
  py::list out;
  for (const auto& r : model_format::attribute_rules(family)) {
    py::list dims;
    for (int k = 0; k < r.ndim; ++k) dims.append(dim_name(r.dims[k]));
    out.append(py::make_tuple(r.name, model_format::kind_name(r.kind), static_cast<int>(r.dtype), py::tuple(dims)));
  }
  return out;
}

void py_check_attributes(const py::bytes& text, int family, std::uint64_t n_classes, std::uint64_t n_support_vectors,
                         std::uint64_t n_features, const py::dict& arrays) {
  model_format::AttributeDims dims;
  dims.n_classes = n_classes;
  dims.n_support_vectors = n_support_vectors;
  dims.n_features = n_features;
  std::map<std::string, model_format::ArrayInfo> infos;
  for (const auto& item : arrays) {
    const auto spec = item.second.cast<py::tuple>();
    model_format::ArrayInfo info;
    info.dtype = static_cast<model_format::Dtype>(spec[0].cast<int>());
    info.shape = spec[1].cast<std::vector<std::uint64_t>>();
    infos[item.first.cast<std::string>()] = std::move(info);
  }
  const std::string payload = text;
  py::gil_scoped_release release;
  model_format::check_attributes(payload, family, dims, infos);
}

}  // namespace

void register_model(py::module_& m) {
  m.def("check_model_attributes", &py_check_attributes, py::arg("text"), py::arg("family"), py::arg("n_classes"),
        py::arg("n_support_vectors"), py::arg("n_features"), py::arg("arrays"),
        "Checks a model file's ATTR text against the rules both readers enforce (model/attributes.hpp); "
        "arrays: {name: (dtype code, shape)} of its attr/<n> arrays. ValueError naming the problem.");
  m.def("model_attribute_rules", &py_attribute_rules, py::arg("family"),
        "The attributes a model file may hold for a family code: [(name, kind, dtype code, dims)]");
  m.def("model_predict", &py_model_predict, py::arg("path"), py::arg("X"), py::arg("n_jobs") = 1,
        "(decision values, class indices, labels) of X under the model file at path, computed by the C++ "
        "budgetsvm::Model");
  m.def(
      "model_summary",
      [](const std::string& path) {
        const Model model = load_model(path);
        return py::make_tuple(static_cast<int>(model.family), model.n_features, model.n_classes(), model.n_outputs());
      },
      py::arg("path"),
      "(family code, n_features, n_classes, n_outputs) of the model file at path, read by the C++ reader "
      "(ValueError when it refuses the file)");
  m.def(
      "model_resave", [](const std::string& source, const std::string& target) { save_model(load_model(source), target); },
      py::arg("source"), py::arg("target"), "Loads a model file in C++ and saves it again with the C++ writer");
}

}  // namespace budgetsvm::python
