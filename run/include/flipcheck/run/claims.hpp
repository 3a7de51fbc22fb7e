// Claims the audit checks beside its subjects: the C++ standard ties std::strong_order on floating
// point to IEEE totalOrder; flipcheck checks that on every pair of 16-bit patterns.
#pragma once
#include <string>
#include <vector>

namespace flipcheck::run {

struct claim_report {
    std::string claim;
    bool holds;
    bool exhaustive;      // every pair, or a sample (and the verdict says how many)
    std::string verdict;  // "holds on all 4294967296 pairs" or the first pair that breaks it
};

// std::strong_order on float against totalOrder, on every pair of binary16 and of bfloat16 values
// widened exactly to float (payloads kept). `quick` samples 2^22 pairs of each instead.
std::vector<claim_report> strong_order_claims(bool quick);

}  // namespace flipcheck::run
