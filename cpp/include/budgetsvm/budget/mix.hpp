// Mixing budget models: the step that combines the models of data shards
// (multi-core training of one problem, shards.hpp) and of Dask workers
// (budgetsvm.dask) into one model of at most B support vectors.
//
// Problem: K models f_k(x) = sum_j beta_kj k(z_kj, x) + b_k trained from the
// same start on disjoint parts of the data, with weights w_k (the parts'
// shares of the rows). Their weighted average sum_k w_k f_k is itself one
// kernel expansion over the union of their support vectors (iterative
// parameter mixing, as in parallel SGD).
//
// Algorithm: the union is built support vector by support vector; equal
// points (the support vectors of the common start that no shard merged, and
// duplicates in the data) are combined exactly first, so they cost no
// merge; then the whole union is loaded into one model and the budget
// maintenance of the solver's parameters (start.hpp) merges (or removes, or
// projects) it back to B, each step taking the support vector of least
// weight and, for merging, its best partner among all that remain. The
// union is centred first at its mean, so that the kernel values the merges
// use are computed from short vectors (the Gaussian kernel only: linear and
// polynomial kernel values change under a shift).
// Reducing while loading (the union's support vectors one by one into a
// model of B, as a start is loaded) was the first version: once the first
// part filled the budget, each support vector of the second part forced a
// merge of the lightest one so far, whose nearest counterpart in the other
// part was often not loaded yet, so heavy support vectors of one part were
// merged with each other. Loading everything first lets a support vector
// meet its counterpart: shard models that moved apart from one common
// start stay close support vector by support vector (docs/scale.md).
// Reducing can fail: merging K B support vectors down to B at once, with
// no data steps between the merges to correct them, can lose the model (with
// a narrow kernel the merged average of two good shard models can predict
// one class where their exact average is better than either; docs/scale.md).
// So the reduced model is
// compared with each part in the kernel's feature space: whichever is
// closest to the exact average, ||f - f_avg||, goes on (a part wins only
// where the merges lost more than that part differs from the average;
// counted in Result::mix_fallbacks). This needs no data, so Dask's tree of
// pairwise mixes applies it too. Its inner products come from the kernel's
// tiles over the features, or, for wide data, from the union's dot products
// made once (mix_gram.hpp: GuardPath).
// One-vs-rest BSCA models are mixed class by class, each machine's column
// on its own budget, exactly as they were trained.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "../core/centre.hpp"
#include "../core/data_view.hpp"
#include "../core/expansion.hpp"
#include "../core/parallel.hpp"
#include "maintenance.hpp"
#include "mix_gram.hpp"
#include "start.hpp"

namespace budgetsvm::budget {

/// One model to mix, with its weight (>= 0).
struct MixPart {
  const MatrixXd* support_vectors = nullptr;  // m x d
  const MatrixXd* dual_coef = nullptr;        // m x n_outputs
  std::vector<double> intercept;              // n_outputs, or empty
  double weight = 1.0;
  long long steps = 0;  // the part's steps_total
};

/// How the mix's guard makes its inner products: from the union's dot
/// products (mix_gram.hpp; merging only) or from the features. `automatic`:
/// the dot products for unions of at least kMinGramFeatures features and at
/// most kMaxGramUnion points (docs/scale.md, "The mix from dot products").
/// Either way the reduced model is the same; tests compare the two.
enum class GuardPath { automatic, features, dot_products };

/// What a mix works in, kept by a caller that mixes again and again (the
/// rounds of a sharded fit) so that each mix reuses the pages the last one
/// touched (mix_gram.hpp says what it saves). Not for two mixes at once.
struct MixBuffers {
  detail::GramBuffers gram;
};

namespace detail {

/// The weighted union of the parts' support vectors with exactly equal
/// points combined (in order of first appearance: deterministic). Rows are
/// kept in a hash set of row indices: the hash mixes each value's bits (0 and
/// -0 alike, as == compares them) with its place alone and xors them (no
/// chain through the row), and equal hashes are confirmed value by value:
/// cheaper than a map of whole rows, and this is a serial step of every
/// mix.
inline void weighted_union(const std::vector<MixPart>& parts, double total_weight, Index d, int n_outputs, MatrixXd& S,
                           MatrixXd& A, std::vector<std::vector<Index>>* where = nullptr) {
  Index m = 0;
  for (const MixPart& p : parts) m += p.support_vectors->rows();
  S.resize(m, d);  // row-major: the union is its first `size` rows; row `size` holds the candidate
  A.setZero(m, n_outputs);
  auto row_hash = [&](Index r) {
    const double* row = S.row(r).data();
    std::uint64_t h = 0;
    for (Index k = 0; k < d; ++k) {
      std::uint64_t bits;
      const double v = row[k] + 0.0;  // -0 -> +0
      std::memcpy(&bits, &v, sizeof bits);
      const std::uint64_t x = (bits ^ (static_cast<std::uint64_t>(k) * 0x9E3779B97F4A7C15ULL)) * 0xFF51AFD7ED558CCDULL;
      h ^= x ^ (x >> 32);
    }
    return static_cast<std::size_t>(h);
  };
  auto row_equal = [&](Index a, Index b) { return std::equal(S.row(a).data(), S.row(a).data() + d, S.row(b).data()); };
  std::unordered_set<Index, decltype(row_hash), decltype(row_equal)> seen(static_cast<std::size_t>(m), row_hash,
                                                                          row_equal);
  Index size = 0;
  if (where) where->clear();
  for (const MixPart& p : parts) {
    const double w = p.weight / total_weight;
    if (where) where->emplace_back();
    for (Index j = 0; j < p.support_vectors->rows(); ++j) {
      S.row(size) = p.support_vectors->row(j);
      const auto [it, fresh] = seen.insert(size);
      const Index at = fresh ? size++ : *it;
      for (int o = 0; o < n_outputs; ++o) A(at, o) += w * (*p.dual_coef)(j, o);
      if (where) where->back().push_back(at);
    }
  }
  S.conservativeResize(size, d);
  A.conservativeResize(size, n_outputs);
}

/// <f_1, f_2> in the kernel's feature space, summed over outputs, for
/// f_i = sum_j B_i(j, .) k(Z_i(j), .) (Z_i: m_i rows of d features, row-major):
/// f_2 evaluated at f_1's points by the prediction's kernel expansion
/// (expansion.hpp: vectorised tiles, no kernel matrix stored, n_threads
/// threads with the same result), weighted by f_1's coefficients.
inline double feature_inner(const double* Z1, const Eigen::Ref<const MatrixXd>& B1, const double* Z2,
                            const Eigen::Ref<const MatrixXd>& B2, Index d, const Kernel& kernel, int n_threads) {
  if (B1.rows() == 0 || B2.rows() == 0) return 0.0;
  using View = DenseView<double, Eigen::RowMajor>;
  MatrixXd E(B1.rows(), B2.cols());
  kernel_expansion(kernel, View(Z1, B1.rows(), d), View(Z2, B2.rows(), d), B2, E, n_threads);
  return (B1.array() * E.array()).sum();
}

/// Whether a maintenance tells a MergeListener its steps (merging).
template <class M, class = void>
struct Listens : std::false_type {};
template <class M>
struct Listens<M, std::void_t<decltype(std::declval<M&>().listen(nullptr))>> : std::true_type {};

/// One block of a Gram matrix of models (feature_gram): rows [ra, ra + ma)
/// of model a against rows [rb, rb + mb) of model b, times `factor`.
struct InnerBlock {
  std::size_t a, b;
  Index ra, ma, rb, mb;
  double factor;
};

/// The blocks of <f_a, f_a> for rows [r0, r0 + m): by halves, <f, f> =
/// <f_1, f_1> + 2 <f_1, f_2> + <f_2, f_2>, each half split again down to
/// blocks of 64 to 127 rows, so that most kernel values of the symmetric
/// block are made once (at 500 rows, 5/8 of the full block's).
inline void self_blocks(std::size_t a, Index r0, Index m, std::vector<InnerBlock>& out) {
  if (m < 128) {
    out.push_back({a, a, r0, m, r0, m, 1.0});
    return;
  }
  const Index h = m / 2;
  self_blocks(a, r0, h, out);
  self_blocks(a, r0 + h, m - h, out);
  out.push_back({a, a, r0, h, r0 + h, m - h, 2.0});
}

/// The blocks of row `a` of the Gram matrix of models with rows Z[.]:
/// <f_a, f_a> by self_blocks, then <f_a, f_b> for every b > a, whole.
inline void gram_row_blocks(const std::vector<MatrixXd>& Z, std::size_t a, std::vector<InnerBlock>& out) {
  self_blocks(a, 0, Z[a].rows(), out);
  for (std::size_t b = a + 1; b < Z.size(); ++b) out.push_back({a, b, 0, Z[a].rows(), 0, Z[b].rows(), 1.0});
}

/// G(a, b) += the inner products of `blocks`, and G(b, a) = G(a, b). The
/// blocks run as tasks on n_threads threads, the largest first, each summed
/// alone on one thread and added in the blocks' order, so G does not depend
/// on n_threads. `lead`, when given, runs first as a task of its own beside
/// them (mix: the reduction, which the parts' blocks do not wait for).
inline void add_block_inners(const std::vector<InnerBlock>& blocks, const std::vector<MatrixXd>& Z,
                             const std::vector<MatrixXd>& B, const Kernel& kernel, int n_threads,
                             const std::function<void()>& lead, MatrixXd& G) {
  std::vector<std::size_t> order(blocks.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto size = [&](std::size_t t) { return blocks[t].ma * blocks[t].mb; };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t p, std::size_t q) { return size(p) > size(q); });
  std::vector<double> value(blocks.size());
  const Index first = lead ? 1 : 0;
  RunControl none;
  parallel_tasks(first + static_cast<Index>(blocks.size()), n_threads, none, [&](Index task, RunControl&) {
    if (task < first) {
      lead();
      return;
    }
    const std::size_t t = order[static_cast<std::size_t>(task - first)];
    const InnerBlock& k = blocks[t];
    const MatrixXd &Za = Z[k.a], &Zb = Z[k.b];
    value[t] =
        k.factor * feature_inner(Za.data() + k.ra * Za.cols(), B[k.a].middleRows(k.ra, k.ma),
                                 Zb.data() + k.rb * Zb.cols(), B[k.b].middleRows(k.rb, k.mb), Za.cols(), kernel, 1);
  });
  for (std::size_t t = 0; t < blocks.size(); ++t)
    G(static_cast<Index>(blocks[t].a), static_cast<Index>(blocks[t].b)) += value[t];
  for (const InnerBlock& k : blocks)
    G(static_cast<Index>(k.b), static_cast<Index>(k.a)) = G(static_cast<Index>(k.a), static_cast<Index>(k.b));
}

/// G(a, b) = <f_a, f_b> for models f_a = sum_j B[a](j, .) k(Z[a](j), .), all
/// pairs: the symmetric diagonal by self_blocks, each pair a < b once, as
/// one list of tasks (add_block_inners), added in a fixed order, so the
/// result does not depend on n_threads.
inline MatrixXd feature_gram(const std::vector<MatrixXd>& Z, const std::vector<MatrixXd>& B, const Kernel& kernel,
                             int n_threads) {
  std::vector<InnerBlock> blocks;
  for (std::size_t a = 0; a < Z.size(); ++a) gram_row_blocks(Z, a, blocks);
  MatrixXd G = MatrixXd::Zero(static_cast<Index>(Z.size()), static_cast<Index>(Z.size()));
  add_block_inners(blocks, Z, B, kernel, n_threads, {}, G);
  return G;
}

/// The rows of a model that belong to machine `column` (all for -1), with
/// that column's coefficients (all columns for -1).
inline void machine_rows(const MatrixXd& S, const MatrixXd& A, int column, MatrixXd& Z, MatrixXd& B) {
  std::vector<Index> rows;
  for (Index j = 0; j < S.rows(); ++j)
    if (column < 0 || A(j, column) != 0.0) rows.push_back(j);
  Z.resize(static_cast<Index>(rows.size()), S.cols());
  B.resize(static_cast<Index>(rows.size()), column < 0 ? A.cols() : 1);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    Z.row(static_cast<Index>(r)) = S.row(rows[r]);
    if (column < 0)
      B.row(static_cast<Index>(r)) = A.row(rows[r]);
    else
      B(static_cast<Index>(r), 0) = A(rows[r], column);
  }
}

}  // namespace detail

/// The weighted average of `parts` (weights normalised to sum 1) reduced to params.budget support vectors
/// per machine (one machine, or one per column when `one_vs_rest`). The
/// result's steps_total is the parts' weighted mean step count. `buffers`:
/// kept from an earlier mix (none: the mix's own).
inline Result mix(const std::vector<MixPart>& parts, const Params& params, bool one_vs_rest,
                  GuardPath path = GuardPath::automatic, MixBuffers* buffers = nullptr) {
  params.validate();
  require(!parts.empty(), "no models to mix");
  const Index d = parts.front().support_vectors->cols();
  const int n_outputs = static_cast<int>(parts.front().dual_coef->cols());
  double total_weight = 0.0, steps = 0.0;
  for (const MixPart& p : parts) {
    require(p.support_vectors->cols() == d && p.dual_coef->cols() == n_outputs &&
                p.dual_coef->rows() == p.support_vectors->rows(),
            "the models to mix have different shapes");
    require(std::isfinite(p.weight) && p.weight >= 0.0, "mixing weights must be finite and >= 0");
    total_weight += p.weight;
    steps += p.weight * static_cast<double>(p.steps);
  }
  require(total_weight > 0.0, "mixing weights must not all be 0");
  MixBuffers own_buffers;
  detail::GramBuffers& gram_buffers = (buffers ? *buffers : own_buffers).gram;
  MatrixXd S, A;
  std::vector<std::vector<Index>> where;  // where[k][j]: the union's row of part k's support vector j
  detail::weighted_union(parts, total_weight, d, n_outputs, S, A, &where);
  // The Gaussian kernel's distances do not change under the shift; other
  // kernels do. Made by the first reduction, which runs beside the guard's
  // first blocks (one reduction at a time: the machines are reduced in turn).
  Centre centre;
  bool centred = false;
  auto union_centre = [&]() -> const Centre& {
    if (!centred && params.kernel.needs_norms())
      centre = choose_centre(DenseView<double, Eigen::RowMajor>(S.data(), S.rows(), S.cols()));
    centred = true;
    return centre;
  };

  Result result;
  result.n_outputs = n_outputs;
  result.intercept.assign(static_cast<std::size_t>(n_outputs), 0.0);
  for (const MixPart& p : parts)
    for (int o = 0; o < n_outputs && static_cast<std::size_t>(o) < p.intercept.size(); ++o)
      result.intercept[static_cast<std::size_t>(o)] += p.weight / total_weight * p.intercept[static_cast<std::size_t>(o)];
  Start all;
  all.support_vectors = &S;
  all.dual_coef = &A;
  const int n_machines = one_vs_rest ? n_outputs : 1;
  std::vector<MatrixXd> sv(static_cast<std::size_t>(n_machines)), coef(static_cast<std::size_t>(n_machines));
  bool fallback = false;
  detail::with_maintenance(params, [&](auto make) -> Result {
    using Maint = decltype(make(std::declval<BudgetModel&>()));
    const int threads = std::max(1, params.n_jobs);
    const std::size_t K = parts.size();
    for (int m = 0; m < n_machines; ++m) {
      const int column = one_vs_rest ? m : -1;
      const Index union_size = start_size(all, column);
      MatrixXd& out_sv = sv[static_cast<std::size_t>(m)];
      MatrixXd& out_coef = coef[static_cast<std::size_t>(m)];
      // The whole union is loaded first, then reduced (see "Reducing" above).
      auto reduce = [&](MergeListener* listener, VectorXd* norms) {
        BudgetModel model(d, std::max<Index>(2, union_size), one_vs_rest ? 1 : n_outputs, params.kernel);
        auto maintenance = make(model);
        if constexpr (detail::Listens<Maint>::value) maintenance.listen(listener);
        const Centre& c = union_centre();
        load_start(model, maintenance, result.totals, all, c, column, 1.0, union_size);  // no reduction
        while (model.size() > params.budget) maintenance.reduce(model, result.totals, nullptr);
        model.export_to(out_sv, out_coef);
        if (norms) {
          norms->resize(model.size());
          for (Index j = 0; j < model.size(); ++j) (*norms)[j] = model.sv_norm(j);
        }
        c.unshift_rows(out_sv);
      };
      if (union_size <= params.budget) {  // nothing to reduce: the exact average
        reduce(nullptr, nullptr);
        continue;
      }
      // The guard (see "Reducing can fail" above): the candidate closest to
      // the exact average f_avg = sum_k w_k f_k goes on. Up to the common
      // ||f_avg||^2, ||c - f_avg||^2 = <c, c> - 2 sum_k w_k <c, f_k>, so the
      // inner products of the reduced model and the parts, each pair once,
      // decide it. G(0, .): the reduced model's, G(k + 1, .): part k's.
      MatrixXd G = MatrixXd::Zero(static_cast<Index>(K + 1), static_cast<Index>(K + 1));
      std::vector<Index> part_rows(K, 0);  // part k's support vectors of this machine
      // The union's rows this machine's parts use, in the union's order, and
      // each part's coefficients on them.
      std::vector<Index> at(static_cast<std::size_t>(S.rows()), -1), R;
      for (std::size_t k = 0; k < K; ++k)
        for (Index j = 0; j < parts[k].support_vectors->rows(); ++j)
          if (column < 0 || (*parts[k].dual_coef)(j, column) != 0.0) {
            at[static_cast<std::size_t>(where[k][static_cast<std::size_t>(j)])] = 0;
            ++part_rows[k];
          }
      for (Index p = 0; p < S.rows(); ++p)
        if (at[static_cast<std::size_t>(p)] == 0) at[static_cast<std::size_t>(p)] = static_cast<Index>(R.size()), R.push_back(p);
      const bool dot_products = path == GuardPath::dot_products ||
                                (path == GuardPath::automatic && d >= detail::kMinGramFeatures &&
                                 static_cast<Index>(R.size()) <= detail::kMaxGramUnion);
      if (detail::Listens<Maint>::value && dot_products) {
        // From the union's dot products (mix_gram.hpp).
        const int outs = one_vs_rest ? 1 : n_outputs;
        std::vector<MatrixXd> part_coef(K, MatrixXd::Zero(static_cast<Index>(R.size()), outs));
        for (std::size_t k = 0; k < K; ++k)
          for (Index j = 0; j < parts[k].support_vectors->rows(); ++j) {
            if (column >= 0 && (*parts[k].dual_coef)(j, column) == 0.0) continue;  // another machine's (at: -1)
            for (int o = 0; o < outs; ++o)
              part_coef[k](at[static_cast<std::size_t>(where[k][static_cast<std::size_t>(j)])], o) +=
                  (*parts[k].dual_coef)(j, one_vs_rest ? column : o);
          }
        std::vector<Index> slots;  // the union's rows in the order load_start loads them
        for (std::size_t i = 0; i < R.size(); ++i)
          if (column < 0 || A(R[i], column) != 0.0) slots.push_back(static_cast<Index>(i));
        const Centre& c = union_centre();  // before the tasks: both read it
        std::optional<detail::UnionGram> made;
        auto gather = [&] {
          MatrixXd rows(static_cast<Index>(R.size()), d);
          for (std::size_t i = 0; i < R.size(); ++i) rows.row(static_cast<Index>(i)) = S.row(R[i]);
          made.emplace(std::move(rows), c, gram_buffers.dots);
        };
        detail::MergeRecord record;
        VectorXd c_norms;
        // The union's dot products and the parts' inner products beside the
        // reduction, the union's rows gathered for them beside it too.
        const std::vector<double> part_inners = detail::blocked_sums(
            static_cast<Index>(R.size()), K * K, threads,
            [&](Index start, Index count, std::vector<double>& out) {
              made->make_rows(start, count);
              detail::add_part_block(*made, start, count, part_coef, params.kernel, out, gram_buffers.blocks);
            },
            [&] { reduce(&record, &c_norms); }, gather);
        require(made.has_value(), "the mix's union has no rows");  // R holds more than the budget: a block ran
        detail::UnionGram& gram = *made;
        for (std::size_t k = 0; k < K; ++k)
          for (std::size_t l = 0; l < K; ++l)
            G(static_cast<Index>(k + 1), static_cast<Index>(l + 1)) = part_inners[k * K + l];
        gram.mirror(threads);
        detail::MergeRowSource source(gram.D, slots, gram_buffers.merged);
        source.replay(record, threads);
        require(source.size() == out_sv.rows(), "the mix's merges and its dot products went out of step");
        const std::vector<double> inner =
            detail::reduced_inners(gram, part_coef, source, out_coef, out_sv, c_norms, params.kernel, threads,
                                   gram_buffers.blocks);
        G(0, 0) = inner[0];
        for (std::size_t k = 0; k < K; ++k)
          G(0, static_cast<Index>(k + 1)) = G(static_cast<Index>(k + 1), 0) = inner[k + 1];
      } else {
        // From the features: the parts' inner products do not depend on the
        // reduction, which is serial: they are made beside it, on the other
        // threads, and the reduced model's after it (K = 2: 6 blocks of
        // kernel values, the 3 symmetric ones mostly made once: self_blocks).
        std::vector<MatrixXd> Z(K + 1), B(K + 1);  // 0: the reduced model, k + 1: part k
        for (std::size_t k = 0; k < K; ++k)
          detail::machine_rows(*parts[k].support_vectors, *parts[k].dual_coef, column, Z[k + 1], B[k + 1]);
        std::vector<detail::InnerBlock> part_blocks, reduced_blocks;
        for (std::size_t a = 1; a <= K; ++a) detail::gram_row_blocks(Z, a, part_blocks);
        detail::add_block_inners(part_blocks, Z, B, params.kernel, threads, [&] { reduce(nullptr, nullptr); }, G);
        Z[0] = out_sv, B[0] = out_coef;
        detail::gram_row_blocks(Z, 0, reduced_blocks);
        detail::add_block_inners(reduced_blocks, Z, B, params.kernel, threads, {}, G);
      }
      auto distance = [&](std::size_t c) {
        double cross = 0.0;
        for (std::size_t k = 0; k < K; ++k)
          cross += parts[k].weight / total_weight * G(static_cast<Index>(c), static_cast<Index>(k + 1));
        return G(static_cast<Index>(c), static_cast<Index>(c)) - 2.0 * cross;
      };
      std::size_t chosen = 0;
      double best = distance(0);
      for (std::size_t k = 0; k < K; ++k) {
        if (part_rows[k] > params.budget) continue;
        const double dist = distance(k + 1);
        if (dist < best) best = dist, chosen = k + 1;
      }
      if (chosen > 0)
        detail::machine_rows(*parts[chosen - 1].support_vectors, *parts[chosen - 1].dual_coef, column, out_sv,
                             out_coef);
      fallback = fallback || chosen > 0;
    }
    return Result{};
  });
  Index total = 0;
  for (const auto& s : sv) total += s.rows();
  result.support_vectors.resize(total, d);
  result.dual_coef.setZero(total, n_outputs);
  Index r = 0;
  for (int m = 0; m < n_machines; ++m) {
    const MatrixXd& s = sv[static_cast<std::size_t>(m)];
    result.support_vectors.middleRows(r, s.rows()) = s;
    result.dual_coef.block(r, one_vs_rest ? m : 0, s.rows(), one_vs_rest ? 1 : n_outputs) =
        coef[static_cast<std::size_t>(m)];
    r += s.rows();
  }
  result.mix_fallbacks = fallback ? 1 : 0;
  result.steps_total = static_cast<long long>(std::llround(steps / total_weight));
  return result;
}

/// `mix` applied pairwise up a tree, in order ((0, 1), (2, 3), ...; an odd
/// one out moves up as it is): K models cost K - 1 mixes of two, each
/// reducing 2 B support vectors to B, instead of one reduction of K B (whose
/// guard alone costs O(K^2 B^2) kernel values). Dask mixes the same tree.
/// `buffers`: as mix's, shared by the tree's mixes.
inline Result mix_tree(const std::vector<MixPart>& parts, const Params& params, bool one_vs_rest,
                       MixBuffers* buffers = nullptr) {
  require(!parts.empty(), "no models to mix");
  std::deque<Result> store;  // every mix made; a deque never moves its elements, which `level` points into
  std::vector<MixPart> level = parts;
  Counters totals;
  int fallbacks = 0;
  while (level.size() > 1) {
    std::vector<MixPart> next;
    for (std::size_t i = 0; i < level.size(); i += 2) {
      if (i + 1 == level.size()) {
        next.push_back(level[i]);  // the odd one out moves up as it is
        continue;
      }
      store.push_back(mix({level[i], level[i + 1]}, params, one_vs_rest, GuardPath::automatic, buffers));
      const Result& r = store.back();
      totals += r.totals;
      fallbacks += r.mix_fallbacks;
      next.push_back({&r.support_vectors, &r.dual_coef, r.intercept, level[i].weight + level[i + 1].weight,
                      r.steps_total});
    }
    level = std::move(next);
  }
  Result out;
  const MixPart& top = level.front();
  out.support_vectors = *top.support_vectors;
  out.dual_coef = *top.dual_coef;
  out.intercept = top.intercept;
  out.intercept.resize(static_cast<std::size_t>(out.dual_coef.cols()), 0.0);
  out.n_outputs = static_cast<int>(out.dual_coef.cols());
  out.steps_total = top.steps;
  out.totals = totals;
  out.mix_fallbacks = fallbacks;
  return out;
}

}  // namespace budgetsvm::budget
