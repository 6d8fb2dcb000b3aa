// The floor of one budgeted training step: the margin of a training row
// against a Gaussian budget model (its kernel row and one dot product),
// measured with the solvers' own model (budget/model.hpp). Every BSGD or
// BSCA step pays at least this; bench/budgeted.py and
// bench/budget_core_profile.py report their per-step time against it.
//
//   margin_floor DATA SUPPORT_VECTORS GAMMA [REPEATS]
//
// DATA and SUPPORT_VECTORS are LIBSVM/svmlight text files (the support
// vectors' labels are ignored; every coefficient is 1). Prints the seconds
// for REPEATS (default 1) passes of margins over the rows of DATA.
// Built with -DBUDGETSVM_BUILD_BENCH=ON; not part of the shipped module.
#include <budgetsvm/budgetsvm.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

budgetsvm::SvmlightParser<double> read(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot open ") + path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string bytes = text.str();
  budgetsvm::SvmlightParser<double> parser;
  parser.feed(bytes.data(), bytes.size());
  parser.finish();
  return parser;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: margin_floor DATA SUPPORT_VECTORS GAMMA [REPEATS]\n");
    return 2;
  }
  try {
    using namespace budgetsvm;
    const auto data = read(argv[1]);
    const auto svs = read(argv[2]);
    const double gamma = std::atof(argv[3]);
    const int repeats = argc > 4 ? std::max(1, std::atoi(argv[4])) : 1;
    const Index d = std::max(data.columns_seen(), svs.columns_seen());
    const CsrView<double, std::int64_t> X(data.values.data(), data.indices.data(), data.indptr.data(), data.rows(), d);
    const CsrView<double, std::int64_t> S(svs.values.data(), svs.indices.data(), svs.indptr.data(), svs.rows(), d);
    if (!(gamma > 0) || S.rows() < 2) throw std::invalid_argument("need gamma > 0 and at least 2 support vectors");
    budget::BudgetModel model(d, S.rows(), 1, Kernel{KernelType::rbf, gamma, 0.0, 3});
    budget::ViewRows<decltype(S)> sv_rows(S);
    budget::ViewRows<decltype(X)> rows(X);
    budget::SampleRow row;
    const double one = 1.0;
    for (Index j = 0; j < S.rows(); ++j) {
      sv_rows.load(j, row);
      model.add(row, &one);
    }
    std::vector<double> krow(static_cast<std::size_t>(model.capacity()));
    double sink = 0.0;
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < repeats; ++r)
      for (Index i = 0; i < rows.rows(); ++i) {
        rows.load(i, row);
        model.kernel_row(row, krow.data());
        sink += model.margin(krow.data());
      }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%.9f %zu %.17g\n", seconds, static_cast<std::size_t>(rows.rows()) * repeats, sink);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "margin_floor: %s\n", e.what());
    return 1;
  }
}
