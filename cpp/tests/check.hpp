// A minimal test harness: CHECK records a failure and goes on; main() of
// each test program returns the number of failures.
#pragma once

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace budgetsvm::test {

inline int& failures() {
  static int count = 0;
  return count;
}

/// Test cases that could not run (a reference file is absent): the program
/// then exits with 77, which CTest reports as skipped (SKIP_RETURN_CODE).
inline std::vector<std::string>& skipped() {
  static std::vector<std::string> reasons;
  return reasons;
}

inline void skip(const std::string& reason) { skipped().push_back(reason); }

inline std::vector<std::pair<std::string, std::function<void()>>>& registry() {
  static std::vector<std::pair<std::string, std::function<void()>>> tests;
  return tests;
}

struct Register {
  Register(const char* name, std::function<void()> body) { registry().emplace_back(name, std::move(body)); }
};

inline int run_all() {
  for (auto& [name, body] : registry()) {
    const int before = failures();
    const std::size_t skips_before = skipped().size();
    try {
      body();
    } catch (const std::exception& e) {
      std::printf("  %s: unexpected exception: %s\n", name.c_str(), e.what());
      ++failures();
    }
    const char* status = failures() != before ? "FAIL" : skipped().size() != skips_before ? "SKIP" : "ok  ";
    std::printf("%s %s\n", status, name.c_str());
    if (skipped().size() != skips_before) std::printf("  skipped: %s\n", skipped().back().c_str());
  }
  if (failures() != 0) return 1;
  return skipped().empty() ? 0 : 77;
}

}  // namespace budgetsvm::test

#define BSVM_CONCAT2(a, b) a##b
#define BSVM_CONCAT(a, b) BSVM_CONCAT2(a, b)
#define TEST_CASE(name)                                                          \
  static void BSVM_CONCAT(test_body_, __LINE__)();                               \
  static ::budgetsvm::test::Register BSVM_CONCAT(test_reg_, __LINE__)(           \
      name, &BSVM_CONCAT(test_body_, __LINE__));                                 \
  static void BSVM_CONCAT(test_body_, __LINE__)()

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      std::printf("  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);     \
      ++::budgetsvm::test::failures();                                           \
    }                                                                            \
  } while (0)

#define CHECK_CLOSE(a, b, tol)                                                   \
  do {                                                                           \
    const double va_ = (a), vb_ = (b);                                           \
    if (!(std::fabs(va_ - vb_) <= (tol))) {                                      \
      std::printf("  %s:%d: |%s - %s| = |%.17g - %.17g| > %g\n", __FILE__,       \
                  __LINE__, #a, #b, va_, vb_, static_cast<double>(tol));         \
      ++::budgetsvm::test::failures();                                           \
    }                                                                            \
  } while (0)

#define CHECK_THROWS(expr, Exception)                                            \
  do {                                                                           \
    bool thrown_ = false;                                                        \
    try {                                                                        \
      (void)(expr);                                                              \
    } catch (const Exception&) {                                                 \
      thrown_ = true;                                                            \
    }                                                                            \
    if (!thrown_) {                                                              \
      std::printf("  %s:%d: %s did not throw %s\n", __FILE__, __LINE__, #expr,   \
                  #Exception);                                                   \
      ++::budgetsvm::test::failures();                                           \
    }                                                                            \
  } while (0)
