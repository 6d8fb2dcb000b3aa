// Uses the installed headers: parses LIBSVM text and computes an RBF kernel
// matrix, then checks one entry by hand. Exit status 0 means it all worked.
#include <budgetsvm/budgetsvm.hpp>

#include <cmath>
#include <cstdio>
#include <string>

int main() {
  const std::string text = "+1 1:1 2:0.5\n-1 2:2\n+1 1:-1 3:1\n";
  budgetsvm::SvmlightParser<double> parser;
  parser.feed(text.data(), text.size());
  parser.finish();

  // The parser's arrays are exactly what a CSR view reads in place.
  const budgetsvm::CsrView<double, std::int64_t> X(parser.values.data(), parser.indices.data(),
                                                   parser.indptr.data(), parser.rows(),
                                                   parser.columns_seen());
  budgetsvm::Kernel rbf{budgetsvm::KernelType::rbf, 0.5, 0.0, 3};
  budgetsvm::MatrixXd K(X.rows(), X.rows());
  budgetsvm::kernel_matrix(rbf, X, X, K);

  // ||x_0 - x_1||^2 = 1 + 1.5^2 = 3.25
  const double expected = std::exp(-0.5 * 3.25);
  std::printf("budgetsvm %s: K(0,1) = %.6f (expected %.6f)\n", BUDGETSVM_VERSION_STRING, K(0, 1), expected);
  return std::fabs(K(0, 1) - expected) < 1e-12 ? 0 : 1;
}
