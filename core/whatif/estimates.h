// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

/// \file estimates.h
/// The building blocks of a fitted server model: a parameter with its standard error and the requests
/// behind it (or the reason it could not be fitted), a least-squares line with standard errors that hold
/// when the noise grows with x (they do here: a longer prompt's prefill varies more), and an empirical
/// distribution kept as a table of quantiles. Plain arithmetic only (no libm beyond sqrt), so the same
/// inputs give the same model on every platform.

namespace lx::whatif {

/// One fitted parameter.
struct Estimate {
    double value = 0;
    double stdError = 0;    ///< one standard error of value
    std::int64_t n = 0;     ///< the requests it was fitted from
    std::string refused;    ///< why it could not be fitted; empty when it was

    bool ok() const { return refused.empty(); }
};

/// y = intercept + slope * x by ordinary least squares. The standard errors are White's
/// heteroscedasticity-consistent ones (HC1): the spread of prefill around its line grows with the prompt,
/// and the textbook errors, which assume it constant, would be too narrow for the long prompts.
struct LineFit {
    Estimate intercept, slope;
    double residualSd = 0; ///< of y around the line
};

/// Fits the line; both estimates are refused with \a what in the reason when there are fewer than 3
/// points or x never varies ("<what>: every request has x = 512: no slope can be fitted").
LineFit fitLine(std::span<const double> x, std::span<const double> y, const std::string &what);

/// An empirical distribution as kQuantileSteps + 1 type-7 quantiles (0%, 0.5%, ..., 100%): small enough
/// to print and store in a simulated store's meta, fine enough for a p99.
struct EmpiricalDistribution {
    static constexpr int kQuantileSteps = 200;
    std::vector<double> quantiles; ///< empty when refused
    std::int64_t n = 0;
    std::string refused;

    bool ok() const { return refused.empty() && !quantiles.empty(); }
    /// The value at probability u in [0, 1], interpolated linearly between the table's quantiles.
    double at(double u) const;
};

/// The quantile table of the samples (reordered in place); refused with \a refusal when there are none.
EmpiricalDistribution empiricalOf(std::vector<double> samples, const std::string &refusal);

} // namespace lx::whatif
