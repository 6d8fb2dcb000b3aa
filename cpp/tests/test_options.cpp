// Tests of the hyperparameter registries (core/options.hpp): defaults are the
// structs' initialisers, set checks kind and range, check_options catches a
// struct built by hand, every family's registry is well formed.
#include <cstdint>
#include <limits>
#include <set>
#include <string>

#include "budgetsvm/budget/params.hpp"
#include "budgetsvm/exact/fit.hpp"
#include "budgetsvm/linear/params.hpp"
#include "check.hpp"

using namespace budgetsvm;

namespace {

template <class P>
void check_registry(const std::vector<Option<P>>& registry) {
  const P defaults{};
  std::set<std::string> names;
  for (const auto& o : registry) {
    CHECK(names.insert(o.name).second);  // no name twice
    CHECK(!o.doc.empty());
    CHECK(o.problem(o.get(defaults)).empty());  // the default is valid
  }
  CHECK(options_problem(registry, defaults).empty());
}

}  // namespace

TEST_CASE("options: every family's registry is well formed, defaults valid") {
  check_registry(budget::params_options());
  check_registry(exact::params_options());
  check_registry(linear::params_options());
}

TEST_CASE("options: set writes a checked value; get reads it back") {
  budget::Params p;
  const auto& r = budget::params_options();
  find_option(r, "budget", "budgeted").set(p, OptionValue(std::int64_t{77}));
  CHECK(p.budget == 77);
  find_option(r, "gamma", "budgeted").set(p, OptionValue(0.25));
  CHECK(p.kernel.gamma == 0.25);
  find_option(r, "C", "budgeted").set(p, OptionValue(std::int64_t{3}));  // an integer is a real
  CHECK(p.C == 3.0);
  find_option(r, "merge_method", "budgeted").set(p, OptionValue(std::string("gss")));
  CHECK(p.merge_method == merge::Method::gss);
  CHECK(std::get<std::string>(find_option(r, "merge_method", "budgeted").get(p)) == "gss");
  find_option(r, "fit_intercept", "budgeted").set(p, OptionValue(true));
  CHECK(p.fit_intercept);
  find_option(r, "radius", "budgeted").set(p, OptionValue(std::numeric_limits<double>::infinity()));
  CHECK(std::isinf(p.radius));
}

TEST_CASE("options: wrong kinds, ranges, choices and names are errors") {
  budget::Params p;
  const auto& r = budget::params_options();
  CHECK_THROWS(find_option(r, "budget", "budgeted").set(p, OptionValue(2.0)), OptionTypeError);
  CHECK_THROWS(find_option(r, "budget", "budgeted").set(p, OptionValue(std::int64_t{1})), std::invalid_argument);
  CHECK_THROWS(find_option(r, "C", "budgeted").set(p, OptionValue(0.0)), std::invalid_argument);
  CHECK_THROWS(find_option(r, "C", "budgeted").set(p, OptionValue(std::nan(""))), std::invalid_argument);
  CHECK_THROWS(find_option(r, "lookup_grid", "budgeted").set(p, OptionValue(std::int64_t{401})), std::invalid_argument);
  CHECK_THROWS(find_option(r, "kernel", "budgeted").set(p, OptionValue(std::string("cosine"))), std::invalid_argument);
  CHECK_THROWS(find_option(r, "budgt", "budgeted"), std::invalid_argument);
  CHECK(p.budget == 500 && p.C == 1.0);  // failed sets leave the struct unchanged
  // int fields narrower than 64 bits: the range stops at the type's maximum
  CHECK(find_option(r, "epochs", "budgeted").int_high == std::numeric_limits<int>::max());
}

TEST_CASE("options: validate() checks a struct filled by hand through the registry") {
  budget::Params p;
  p.C = -1.0;
  CHECK_THROWS(p.validate(), std::invalid_argument);
  p = budget::Params{};
  p.kernel.type = KernelType::linear;  // the default maintenance is merge: needs rbf
  CHECK_THROWS(p.validate(), std::invalid_argument);
  exact::ExactSettings s;
  s.alfpgm.pairs = 0;
  CHECK_THROWS(s.validate(), std::invalid_argument);
  s = exact::ExactSettings{};
  s.max_iter = 0;
  CHECK_THROWS(s.validate(), std::invalid_argument);
  s.max_iter = -1;
  s.validate();
  CHECK(options_problem(linear::params_options(), linear::Params{}).empty());
}

TEST_CASE("options: value_text writes values as a user would") {
  CHECK(value_text(OptionValue(0.1)) == "0.1");
  CHECK(value_text(OptionValue(1.0)) == "1.0");
  CHECK(value_text(OptionValue(1e-12)) == "1e-12");
  CHECK(value_text(OptionValue(std::numeric_limits<double>::infinity())) == "inf");
  CHECK(value_text(OptionValue(std::int64_t{-3})) == "-3");
  CHECK(value_text(OptionValue(std::string("rbf"))) == "'rbf'");
}

int main() { return budgetsvm::test::run_all(); }
