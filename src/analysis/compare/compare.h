// gpuperf compare's analysis: verdicts for the whole program and per kernel, the environment
// check, the before/after audit and the reconciliation of predictions with what happened.
#pragma once

#include "gpuperf/compare.h"

namespace gpuperf::analysis {

// Pure: everything it needs is in the two sides (see cli/compare_inputs for loading them).
//
// Overall verdict: `incomparable` when a gating environment field differs or the sides run
// different workloads (unless options.allow_different_env); else `same` when both inputs have
// the same sha256 (the same bytes cannot differ); else the end-to-end verdict when
// both sides have at least min_repeats end-to-end samples; else a verdict from the kernels:
// `slower` if a kernel holding >= 5% of kernel time is slower, else `faster` if one is faster,
// else `same` if kernels judged `same` hold >= 80% of kernel time, else `inconclusive`.
compare::CompareReport Compare(const compare::Side& before,
                               const compare::Side& after,
                               const compare::Options& options);

}  // namespace gpuperf::analysis
