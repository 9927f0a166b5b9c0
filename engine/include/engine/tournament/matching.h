#pragma once

#include <cstdint>
#include <vector>

namespace tengen::tournament {

// Weights wide enough for pairing criteria in separate tiers (swiss.cpp): a repeat must
// outweigh every score gap, a gap every colour or seeding preference.
__extension__ typedef __int128 Weight;

struct WeightedEdge {
  int a = 0, b = 0;
  Weight weight = 0;
};

// A matching of greatest total weight in a general graph (Edmonds' blossom algorithm with dual
// variables, O(n³), after Galil's 1986 survey). With `max_cardinality`, the greatest weight
// among the matchings with the most edges. Returns each vertex's mate, or -1. Integer weights
// keep every dual variable exact. Deterministic: the same edges in the same order give the
// same matching.
std::vector<int> maximum_weight_matching(int vertices, const std::vector<WeightedEdge>& edges,
                                         bool max_cardinality);

}  // namespace tengen::tournament
