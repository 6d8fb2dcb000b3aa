// Repeated training points in the linear dual: an exact reduction.
//
// If rows i and j of X are equal and y_i = y_j, the primal terms
// C_i L(y <w, x>) + C_j L(y <w, x>) are one term with C = C_i + C_j, for the
// hinge and the squared hinge loss alike. So each group of equal rows with
// equal labels is solved as one variable with the summed C, and the group's
// alpha is split back in proportion to C_i: alpha_i = alpha_g C_i / C_g.
// That split is optimal for the original dual, with the same w, the same
// objective and the same projected gradient on every copy (for the squared
// hinge, alpha_i / (2 C_i) = alpha_g / (2 C_g)), so the stopping test means
// what it meant. liblinear solves the copies as separate coordinates. The
// merge changes the visiting frequencies (a group once per sweep instead of
// once per copy), which cuts both ways: fewer steps where many rows repeat
// in large groups, more where the repeats are small groups, when every group
// is merged. The loss comes from the small groups: a group of k copies visited
// k times a sweep is visited in proportion to its weight in w, and merging
// takes that away; the gain comes from the large ones, whose k visits a
// sweep repeat one exact step. So by default, with the hinge loss, only
// groups of at least Options::merge_min_copies rows are merged (both sets
// then gain or keep their time, docs/linear.md); merge_duplicates merges
// every group. With the squared hinge even that lost: a group's variable
// carries its D_ii = 1 / (2 C_g), and a large group that also has copies of
// the other label made the solver take several times the sweeps merged; so
// the squared hinge merges nothing by default.
//
// Rows are compared as vectors (stored zeros ignored, CSR indices in any
// order, repeated CSR indices summed). Grouping keeps O(n) memory: a hash per
// row, rows sorted by hash, and each run of equal hashes compared entry by
// entry against its first row (a true hash collision just merges less).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <utility>
#include <vector>

#include "../core/control.hpp"
#include "../core/eigen.hpp"

namespace budgetsvm::linear {

namespace detail {

/// Row i as sorted (column, value) pairs, repeated columns summed, zeros dropped.
template <class View>
void canonical_row(const View& X, Index i, std::vector<std::pair<Index, double>>& out) {
  out.clear();
  X.for_each(i, [&](Index j, double v) {
    if (v != 0.0) out.emplace_back(j, v);
  });
  if (!std::is_sorted(out.begin(), out.end(),
                      [](const auto& a, const auto& b) { return a.first < b.first; }))
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t m = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (m > 0 && out[m - 1].first == out[k].first) {
      out[m - 1].second += out[k].second;
    } else {
      out[m++] = out[k];
    }
  }
  out.resize(m);
  out.erase(std::remove_if(out.begin(), out.end(), [](const auto& e) { return e.second == 0.0; }),
            out.end());
}

inline std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

inline std::uint64_t row_hash(const std::vector<std::pair<Index, double>>& row) {
  std::uint64_t h = 0x84222325cbf29ce4ULL ^ row.size();
  for (const auto& e : row) {
    std::uint64_t bits;
    std::memcpy(&bits, &e.second, sizeof bits);
    h = mix(mix(h, static_cast<std::uint64_t>(e.first)), bits);
  }
  return h;
}

}  // namespace detail

/// For each row, the index of the first row with the same content (the row
/// itself when it has no earlier copy).
template <class View>
std::vector<Index> first_copies(const View& X, RunControl& control) {
  const Index n = X.rows();
  // (hash, row) pairs sorted: rows with equal hashes in increasing order
  std::vector<std::pair<std::uint64_t, Index>> order(static_cast<std::size_t>(n));
  std::vector<std::pair<Index, double>> a, b;
  for (Index i = 0; i < n; ++i) {
    control.poll();
    detail::canonical_row(X, i, a);
    order[static_cast<std::size_t>(i)] = {detail::row_hash(a), i};
  }
  std::sort(order.begin(), order.end());
  std::vector<Index> first(static_cast<std::size_t>(n));
  std::iota(first.begin(), first.end(), Index{0});
  for (std::size_t s = 0; s < order.size();) {
    std::size_t e = s + 1;
    while (e < order.size() && order[e].first == order[s].first) ++e;
    if (e - s > 1) {
      // order[s] is the smallest index of the run
      const Index head = order[s].second;
      detail::canonical_row(X, head, a);
      for (std::size_t k = s + 1; k < e; ++k) {
        detail::canonical_row(X, order[k].second, b);
        if (a == b) first[static_cast<std::size_t>(order[k].second)] = head;
      }
    }
    s = e;
  }
  return first;
}

/// One binary problem's groups: for each row, its representative, the first
/// row with the same content and the same label -- or the row itself when
/// its group has fewer than min_copies rows (those stay separate variables).
inline std::vector<Index> representatives(const std::vector<Index>& first, const double* y,
                                          Index min_copies = 2) {
  const std::size_t n = first.size();
  // first row of group g (g = a first copy) with label +1 / -1; -1 = none yet
  std::vector<Index> pos(n, -1), neg(n, -1), rep(n), copies(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    Index& r = y[i] > 0 ? pos[static_cast<std::size_t>(first[i])] : neg[static_cast<std::size_t>(first[i])];
    if (r < 0) r = static_cast<Index>(i);
    rep[i] = r;
    ++copies[static_cast<std::size_t>(r)];
  }
  for (std::size_t i = 0; i < n; ++i)
    if (copies[static_cast<std::size_t>(rep[i])] < min_copies) rep[i] = static_cast<Index>(i);
  return rep;
}

/// Moves the C of every row onto its representative. Returns how many rows
/// were folded into another.
inline Index merge_copies(const std::vector<Index>& rep, std::vector<double>& C) {
  Index folded = 0;
  for (std::size_t i = 0; i < rep.size(); ++i) {
    const auto r = static_cast<std::size_t>(rep[i]);
    if (r != i && C[i] > 0) {
      C[r] += C[i];
      C[i] = 0.0;
      ++folded;
    }
  }
  return folded;
}

/// Splits each group's alpha back onto its rows in proportion to the
/// original C: alpha_i = C_i (alpha_rep / C_rep(merged)), in that order so
/// that a group at its bound (alpha_rep = C_rep, ratio exactly 1) puts every
/// copy exactly at its own bound C_i.
inline void split_alpha(const std::vector<Index>& rep, const std::vector<double>& C_original,
                        const std::vector<double>& C_merged, std::vector<double>& alpha) {
  // Copies first (they read the representative's merged alpha), then the
  // representatives themselves.
  for (const bool representatives_now : {false, true}) {
    for (std::size_t i = 0; i < rep.size(); ++i) {
      const auto r = static_cast<std::size_t>(rep[i]);
      if ((r == i) != representatives_now) continue;
      alpha[i] = C_merged[r] > 0 ? C_original[i] * (alpha[r] / C_merged[r]) : 0.0;
    }
  }
}

}  // namespace budgetsvm::linear
