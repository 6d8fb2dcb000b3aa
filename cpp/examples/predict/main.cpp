// predict MODEL DATA OUTPUT
//
// Loads a budgetsvm model file, reads DATA (LIBSVM / svmlight text with
// 1-based feature indices; uncompressed), writes the predicted label of each
// row to OUTPUT, one per line, and prints the accuracy when the model's
// labels are numbers (the data file's first column). Errors are one line on
// stderr and exit code 1.
#include <budgetsvm/budgetsvm.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

// The rows of a data file; a feature index beyond the model's is an error naming its line.
budgetsvm::SvmlightParser<double> read_data(const std::string& path, std::int64_t n_features) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot open data file '" + path + "'");
  budgetsvm::SvmlightParser<double> parser(false, std::max<std::int64_t>(n_features, 1));
  std::vector<char> chunk(1 << 20);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    parser.feed(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  parser.finish();
  return parser;
}

int run(const std::string& model_path, const std::string& data_path, const std::string& output_path) {
  const budgetsvm::Model model = budgetsvm::load_model(model_path);
  const auto data = read_data(data_path, model.n_features);
  // the model's width: a file whose last features are all zero has fewer columns
  const budgetsvm::CsrView<double, std::int64_t> X(data.values.data(), data.indices.data(), data.indptr.data(),
                                                   data.rows(), model.n_features);
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const std::vector<int> predicted = model.predict(X, threads);

  std::ofstream out(output_path);
  if (!out) throw std::invalid_argument("cannot open output file '" + output_path + "'");
  std::size_t correct = 0;
  for (std::size_t i = 0; i < predicted.size(); ++i) {
    const auto c = static_cast<std::size_t>(predicted[i]);
    out << model.labels()[c] << '\n';
    if (!model.label_numbers.empty()) correct += model.label_numbers[c] == data.labels[i];
  }
  out.close();
  if (!out) throw std::invalid_argument("cannot write output file '" + output_path + "'");
  if (!model.label_numbers.empty() && !predicted.empty())
    std::printf("Accuracy = %.4f%% (%zu/%zu)\n", 100.0 * static_cast<double>(correct) / static_cast<double>(predicted.size()),
                correct, predicted.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: predict MODEL DATA OUTPUT\n");
    return 1;
  }
  try {
    return run(argv[1], argv[2], argv[3]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "predict: error: %s\n", e.what());
    return 1;
  }
}
