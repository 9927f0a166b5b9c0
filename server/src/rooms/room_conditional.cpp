#include <algorithm>

#include "rooms/room.h"
#include "rooms/room_records.h"

namespace tengen {

// Room's conditional moves (docs/correspondence.md).

using protocol::EndReason;

Room::Reply Room::set_conditional_moves(std::int64_t user, const std::string& cid,
                                        const std::vector<std::string>& lines) {
  if (auto e = check_player(user, cid)) return *e;
  if (!correspondence()) {
    return refuse(Refused::ConditionalNotCorrespondence, cid);
  }
  if (stage() != Stage::Playing || !game_) {
    return refuse(Refused::ConditionalNotNow, cid);
  }
  const Color owner = *color_of(user);
  if (game_->to_move() == owner) {
    return refuse(Refused::ConditionalYourMove, cid);
  }
  const Geometry g{settings_.width, settings_.height};
  auto tree = conditional_tree(lines, g);
  if (auto* problem = std::get_if<std::string>(&tree))
    return refuse(Refused::ConditionalUnreadable, cid, {*problem});
  if (auto problem = conditional_problem(std::get<ConditionalTree>(tree), *game_, owner, g))
    return refuse(Refused::ConditionalIllegal, cid, {*problem});
  keep_conditional(owner, std::get<ConditionalTree>(tree), cid);
  return protocol::Ack{cid, id_, channel_.seq(), {}, {}};
}

void Room::keep_conditional(Color owner, const ConditionalTree& tree, const std::string& cid) {
  const records::ConditionalSet set{owner,
                                    conditional_lines(tree, {settings_.width, settings_.height})};
  apply(set);  // as on recovery: the lines are what is kept
  publish(cid, protocol::ConditionalMoves{owner, set.lines}, set);
}

void Room::follow_conditional(Color mover, Point point, Steady now) {
  const Color owner = opponent(mover);
  const auto& tree = conditional_[index_of(owner)];
  if (tree.empty()) return;
  const auto branch = std::find_if(tree.begin(), tree.end(),
                                   [&](const ConditionalBranch& b) { return b.expected == point; });
  if (branch == tree.end() || stage() != Stage::Playing) {
    keep_conditional(owner, {});
    return;
  }
  const ConditionalBranch taken = *branch;
  // The reply is a move like any other, made the instant the opponent's arrived (no lag).
  const auto replied = play_move(owner == Color::Black ? black_.id : white_.id, "", taken.reply,
                                 {now, std::nullopt, std::nullopt});
  if (finished()) return;  // the reply ended it: nothing more to answer
  const bool going_on = std::holds_alternative<protocol::Ack>(replied) && stage() == Stage::Playing;
  keep_conditional(owner, going_on ? taken.then : ConditionalTree{});
}

void Room::drop_conditionals() {
  for (const Color c : {Color::Black, Color::White}) {
    if (!conditional_[index_of(c)].empty()) keep_conditional(c, {});
  }
}

}  // namespace tengen
