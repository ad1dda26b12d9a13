// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

/// \file sim_random.h
/// Distributions for the simulation that give the same numbers on every platform (internal header).
///
/// std::mt19937_64's sequence is fixed by the standard, but the distributions over it are not
/// (std::normal_distribution, even std::generate_canonical, differ between libstdc++, libc++ and MSVC),
/// and libm's log/exp may differ in the last bit. So everything here uses only IEEE-exact operations:
/// + - * /, sqrt, floor, frexp and ldexp. A fused multiply-add rounds once instead of twice, and both GCC
/// (in C++, whenever the target has FMA, e.g. -march=native or arm64) and Clang contract a * b + c into
/// one by default (measured: GCC 12 with -march=native changed the output of 200,000 requests). Hence the
/// pragmas, which hold for the rest of each file that includes this header; MSVC does not contract under
/// its default /fp:precise.

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace lx::sim::detail {

inline constexpr double kLn2 = 0.6931471805599453094;

/// Natural logarithm of x > 0, to about 1e-15 relative, from a fixed series.
inline double detLog(double x)
{
    int exponent = 0;
    double m = std::frexp(x, &exponent); // x = m * 2^exponent, m in [0.5, 1)
    if (m < 0.70710678118654752440) {    // bring m into [sqrt(1/2), sqrt(2)) so the series converges fast
        m = m * 2.0;
        exponent -= 1;
    }
    // ln(m) = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...) with |s| < 0.172
    const double s = (m - 1.0) / (m + 1.0);
    const double s2 = s * s;
    double term = s;
    double sum = 0.0;
    for (int k = 1; k <= 21; k += 2) {
        sum = sum + term / static_cast<double>(k);
        term = term * s2;
    }
    return static_cast<double>(exponent) * kLn2 + 2.0 * sum;
}

/// e^x, to about 1e-15 relative, for |x| < 700.
inline double detExp(double x)
{
    const double k = std::floor(x / kLn2 + 0.5);
    const double r = x - k * kLn2; // |r| <= ln(2)/2
    double term = 1.0;
    double sum = 1.0;
    for (int n = 1; n <= 16; ++n) {
        term = term * r / static_cast<double>(n);
        sum = sum + term;
    }
    return std::ldexp(sum, static_cast<int>(k));
}

/// The draws the simulation needs, over one std::mt19937_64.
class Random {
public:
    explicit Random(std::uint64_t seed) : m_engine(seed) {}

    /// Uniform in [0, 1): the top 53 bits of one draw.
    double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }
    /// Uniform in [lo, hi).
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    bool chance(double p) { return uniform() < p; }

    /// Exponential with mean 1.
    double exponential() { return -detLog(1.0 - uniform()); }

    /// Standard normal by Marsaglia's polar method (no trigonometry); caches the second value.
    double normal()
    {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        double u = 0.0;
        double v = 0.0;
        double s = 0.0;
        do {
            u = uniform(-1.0, 1.0);
            v = uniform(-1.0, 1.0);
            s = u * u + v * v;
        } while (s >= 1.0 || s == 0.0);
        const double f = std::sqrt(-2.0 * detLog(s) / s);
        m_spare = v * f;
        m_hasSpare = true;
        return u * f;
    }

    /// Gamma with the given shape (> 0) and scale 1, by Marsaglia and Tsang's method; below a shape of 1
    /// through shape + 1 and a power of a uniform.
    double gamma(double shape)
    {
        if (shape < 1.0)
            return gamma(shape + 1.0) * detExp(detLog(1.0 - uniform()) / shape);
        const double d = shape - 1.0 / 3.0;
        const double c = 1.0 / std::sqrt(9.0 * d);
        for (;;) {
            const double x = normal();
            double v = 1.0 + c * x;
            if (v <= 0.0)
                continue;
            v = v * v * v;
            const double u = 1.0 - uniform();
            if (detLog(u) < 0.5 * x * x + d - d * v + d * detLog(v))
                return d * v;
        }
    }

    /// Log-normal with the given median and log-space sigma.
    double logNormal(double median, double sigma) { return median * detExp(sigma * normal()); }

    /// Index into cumulative weights (the last must be 1.0).
    template<typename Array>
    int pick(const Array &cumulative)
    {
        const double u = uniform();
        int i = 0;
        while (i + 1 < static_cast<int>(cumulative.size()) && u >= cumulative[static_cast<std::size_t>(i)])
            ++i;
        return i;
    }

private:
    std::mt19937_64 m_engine;
    double m_spare = 0.0;
    bool m_hasSpare = false;
};

} // namespace lx::sim::detail
