// Checks of the result structs' field tables (core/fields.hpp) shared by
// the families' tests.
#pragma once

#include <algorithm>
#include <cstddef>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "budgetsvm/core/fields.hpp"

namespace budgetsvm::test {

/// Whether no name appears twice.
inline bool unique_names(const std::vector<std::string>& names) {
  return std::set<std::string>(names.begin(), names.end()).size() == names.size();
}

/// The largest run of the bytes of an S that its table does not visit as
/// a member: padding only (less than alignof(S)) when every member has its
/// line in the table. A member left out of the table shows as a larger gap
/// (one that fits into padding does not).
template <class S>
std::size_t largest_unvisited_gap() {
  S s{};
  const auto* begin = reinterpret_cast<const unsigned char*>(&s);
  std::vector<std::pair<std::size_t, std::size_t>> spans;  // [offset, end) of the visited members
  S::for_each_field(s, [&](const char*, auto&& field) {
    const auto* at = reinterpret_cast<const unsigned char*>(&field);
    if (at >= begin && at < begin + sizeof(S))  // derived values live elsewhere
      spans.emplace_back(static_cast<std::size_t>(at - begin), static_cast<std::size_t>(at - begin) + sizeof(field));
  });
  std::sort(spans.begin(), spans.end());
  std::size_t gap = 0, end = 0;
  for (const auto& [first, last] : spans) {
    if (first < end) return sizeof(S);  // a member visited twice
    gap = std::max(gap, first - end);
    end = last;
  }
  return std::max(gap, sizeof(S) - end);
}

}  // namespace budgetsvm::test
