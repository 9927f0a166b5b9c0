#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/sgf.h"
#include "protocol/analysis_api.h"

// The engines the analysis worker runs (docs/analysis.md): each turns a game record into a result
// of one analysed position per move and the start, Black's lead and (when it knows) Black's
// chance to win, with its line for the player to move. A failure throws EngineDown.
namespace tengen::analysis {

class AnalysisEngine {
 public:
  virtual ~AnalysisEngine() = default;
  // "GNU Go 3.8, level 10", "KataGo 1.15.3, 400 visits": what the page shows.
  virtual std::string name() = 0;
  // The positions from number `from` (0: the start) to the end, `progress(done)` after each, for
  // the server's progress bar. A review board's position is its line's last (`from` = its moves).
  virtual protocol::http::AnalysisResult analyse(const GameRecord& record, int from,
                                                 const std::function<void(int done)>& progress) = 0;
};

// GNU Go in GTP mode, with a fixed seed (the same game, the same analysis): estimate_score for
// the score (averaged with the estimate after its best move, which cancels the estimate's lean
// toward the player who moved last), top_moves_black / top_moves_white for its best move (its
// line is that one move; it gives no win rate).
std::unique_ptr<AnalysisEngine> gnugo_engine(const std::string& binary, int level);

// KataGo's analysis engine (`katago analysis -config ... -model ...`), its JSON protocol: one
// query per game with every turn analysed, `maxVisits` each; its scores and win rates reported
// for the side to move, as its example configuration does (reportAnalysisWinratesAs SIDETOMOVE).
std::unique_ptr<AnalysisEngine> katago_engine(const std::vector<std::string>& command, int visits);

// Any GTP engine with `kata-analyze` (KataGo in GTP mode, and engines that speak its extension)
// or, failing that, Leela Zero's `lz-analyze` (Leela Zero, SAI): each position searched until
// `visits` visits in all, its best candidate's scoreLead (kata-analyze only: lz-analyze gives no
// score, so such a result has win rates only), winrate and pv, turned from the side to move's to
// Black's.
std::unique_ptr<AnalysisEngine> gtp_analyze_engine(const std::vector<std::string>& command,
                                                   int visits);

// Who is to move before each move of the record and after the last (the record's colours; at the
// start PL, else White after handicap stones, else Black).
std::vector<Color> players_to_move(const GameRecord& record);

}  // namespace tengen::analysis
