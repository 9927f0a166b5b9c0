#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/sgf.h"
#include "protocol/analysis_api.h"

namespace tengen::analysis {

// Whether a worker's result fits the game it analysed (docs/analysis.md): a position for the start
// and after each move of `record`'s main line (from position `from` on: a review board's
// position's job analyses the last one only), each of its lines legal move by move from that
// position under the record's rules. The reason, in words, if not.
std::optional<std::string> check_result(const GameRecord& record,
                                        const protocol::http::AnalysisResult& result, int from = 0);

// The line `moves` from the start of a review board's tree (each move a child of the one before,
// by colour and point) as a record of its own: the tree's size, komi, rules and starting stones,
// and these moves. The reason, in words, if the tree has no such line, or stones are set up on it
// after the start.
std::variant<GameRecord, std::string> line_of(
    const GameTree& tree, const std::vector<std::pair<bool, std::string>>& moves);

// The positions a result for `record` must hold: its moves and the start.
int positions_of(const GameRecord& record);

// The record with the analysis written in (docs/analysis.md, "In the SGF"): on each move's node
// Black's win rate as SBKV (percent, as Sabaki reads it; only when the engine gave win rates) and a
// comment with the score, the swing and the engine's better move; beside the five moves that lost
// the most (a point or more), the engine's line as a variation.
std::string annotated_sgf(const std::string& sgf, const protocol::http::AnalysisResult& result);

}  // namespace tengen::analysis
