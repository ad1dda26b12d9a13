// SPDX-License-Identifier: GPL-3.0-or-later
#include "whatif/estimates.h"

#include "simulation/sim_random.h" // for its pragmas: no fused multiply-add, the same fit on every platform

#include <algorithm>
#include <cmath>
#include <sstream>

namespace lx::whatif {

LineFit fitLine(std::span<const double> x, std::span<const double> y, const std::string &what)
{
    LineFit fit;
    const std::size_t n = std::min(x.size(), y.size());
    fit.intercept.n = fit.slope.n = static_cast<std::int64_t>(n);
    const auto refuse = [&](const std::string &why) {
        fit.intercept.refused = fit.slope.refused = what + ": " + why;
        return fit;
    };
    if (n < 3)
        return refuse(std::to_string(n) + (n == 1 ? " request" : " requests") + ": a line needs at least 3");
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < n; ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= static_cast<double>(n);
    my /= static_cast<double>(n);
    double sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    if (!(sxx > 0)) {
        std::ostringstream why;
        why << "every request has the same value (" << x[0] << "): no slope can be fitted";
        return refuse(why.str());
    }
    const double slope = sxy / sxx;
    const double intercept = my - slope * mx;
    // HC1: Var(slope) = n/(n-2) * sum((x-mx)^2 e^2) / sxx^2; the intercept's from the same sandwich.
    double sxxee = 0, see = 0, sxee = 0, sse = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double e = y[i] - intercept - slope * x[i];
        const double d = x[i] - mx;
        sxxee += d * d * e * e;
        sxee += d * e * e;
        see += e * e;
        sse += e * e;
    }
    const double nn = static_cast<double>(n);
    const double dof = nn / (nn - 2);
    const double varSlope = dof * sxxee / (sxx * sxx);
    // intercept = my - slope * mx; with w_i = 1/n - mx d_i / sxx its variance is sum(w_i^2 e_i^2).
    const double varIntercept = dof * (see / (nn * nn) - 2 * mx * sxee / (nn * sxx) + mx * mx * sxxee / (sxx * sxx));
    fit.slope.value = slope;
    fit.slope.stdError = std::sqrt(std::max(varSlope, 0.0));
    fit.intercept.value = intercept;
    fit.intercept.stdError = std::sqrt(std::max(varIntercept, 0.0));
    fit.residualSd = std::sqrt(sse / (nn - 2));
    return fit;
}

double EmpiricalDistribution::at(double u) const
{
    if (quantiles.empty())
        return 0;
    const double pos = std::clamp(u, 0.0, 1.0) * static_cast<double>(quantiles.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, quantiles.size() - 1);
    const double frac = pos - static_cast<double>(lo);
    return quantiles[lo] + (quantiles[hi] - quantiles[lo]) * frac;
}

EmpiricalDistribution empiricalOf(std::vector<double> samples, const std::string &refusal)
{
    EmpiricalDistribution d;
    d.n = static_cast<std::int64_t>(samples.size());
    if (samples.empty()) {
        d.refused = refusal;
        return d;
    }
    std::sort(samples.begin(), samples.end());
    const double last = static_cast<double>(samples.size() - 1);
    d.quantiles.reserve(EmpiricalDistribution::kQuantileSteps + 1);
    for (int k = 0; k <= EmpiricalDistribution::kQuantileSteps; ++k) {
        const double pos = last * k / EmpiricalDistribution::kQuantileSteps; // type 7
        const auto lo = static_cast<std::size_t>(std::floor(pos));
        const std::size_t hi = std::min(lo + 1, samples.size() - 1);
        d.quantiles.push_back(samples[lo] + (samples[hi] - samples[lo]) * (pos - static_cast<double>(lo)));
    }
    return d;
}

} // namespace lx::whatif
