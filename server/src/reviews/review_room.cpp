#include "reviews/review_room.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "protocol/overloaded.h"
#include "rooms/position_view.h"
#include "rooms/wording.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using protocol::ErrorCode;

// A node's share of a snapshot beyond its comment and marks: ids, move, keys.
constexpr std::size_t kNodeBytes = 120;
constexpr std::size_t kMarkBytes = 48;
constexpr std::size_t kStoneBytes = 6;

MarkShape shape_of(protocol::MarkKind k) {
  switch (k) {
    case protocol::MarkKind::Triangle:
      return MarkShape::Triangle;
    case protocol::MarkKind::Square:
      return MarkShape::Square;
    case protocol::MarkKind::Circle:
      return MarkShape::Circle;
    case protocol::MarkKind::Cross:
      return MarkShape::Cross;
    case protocol::MarkKind::Label:
      return MarkShape::Label;
  }
  return MarkShape::Triangle;
}

protocol::MarkKind kind_of(MarkShape s) {
  switch (s) {
    case MarkShape::Triangle:
      return protocol::MarkKind::Triangle;
    case MarkShape::Square:
      return protocol::MarkKind::Square;
    case MarkShape::Circle:
      return protocol::MarkKind::Circle;
    case MarkShape::Cross:
      return protocol::MarkKind::Cross;
    case MarkShape::Label:
      return protocol::MarkKind::Label;
  }
  return protocol::MarkKind::Triangle;
}

// A comment's size on the wire, escapes included (a control character takes six bytes).
std::size_t wire_size(const std::string& text) {
  return json(text).dump(-1, ' ', false, json::error_handler_t::replace).size();
}

const char* role_name(ReviewRoom::RelayRole role) {
  return role == ReviewRoom::RelayRole::Board ? "board" : "commentary";
}

ReviewTree tree_of(const std::string& sgf, std::size_t max_nodes) {
  return ReviewTree(read_sgf_tree(sgf, max_nodes));
}

}  // namespace

ReviewRoom::ReviewRoom(const store::ReviewCreated& created, protocol::UserRef owner,
                       ReviewLimits limits, std::vector<protocol::UserRef> players)
    : id_(created.id),
      owner_(owner),
      controller_(std::move(owner)),
      title_(created.title),
      game_(created.game_id),
      audience_(std::move(players)),
      created_at_ms_(created.at_ms),
      active_at_ms_(created.at_ms),
      limits_(limits),
      review_(tree_of(created.sgf, limits.max_nodes)) {
  bytes_ = tree_bytes();
}

std::unique_ptr<ReviewRoom> ReviewRoom::recover(const store::StoredReview& stored,
                                                protocol::UserRef owner, ReviewLimits limits,
                                                std::vector<protocol::UserRef> players) {
  // What was accepted once is replayed whatever today's limits say.
  limits.max_nodes = limits.max_events = limits.max_bytes = std::numeric_limits<std::size_t>::max();
  auto room =
      std::make_unique<ReviewRoom>(stored.created, std::move(owner), limits, std::move(players));
  for (const auto& e : stored.events) {
    protocol::ReviewUpdate ignored;
    if (auto problem = room->apply(e.kind, e.record, ignored)) {
      throw std::runtime_error("review " + std::to_string(stored.created.id) + ", event " +
                               std::to_string(e.seq) + " (" + e.kind + "): " + problem->second);
    }
    room->channel_.restore_seq(static_cast<protocol::Seq>(e.seq));
    room->touched(e.at_ms);
  }
  return room;
}

protocol::Error ReviewRoom::error(const std::string& cid, ErrorCode code, std::string text) const {
  return protocol::Error{cid, code, std::move(text), {}};
}

ReviewRoom::Reply ReviewRoom::join(const std::shared_ptr<Recipient>& who, const std::string& cid) {
  channel_.add(who);
  const auto& user = who->user();
  pending_.send(who,
                protocol::ServerMessage{snapshot(user ? std::optional(user->id) : std::nullopt)});
  broadcast(followers_view());
  return protocol::Ack{cid, {}, channel_.seq(), {}, {}};
}

void ReviewRoom::leave(const std::shared_ptr<Recipient>& who) {
  if (channel_.remove(who)) broadcast(followers_view());
}

ReviewRoom::Reply ReviewRoom::command(const protocol::UserRef& by, const std::string& cid,
                                      const protocol::ClientMessage& m) {
  if (closed_) return error(cid, ErrorCode::GameOver, "this review is closed");
  if (relay_role_ == RelayRole::Board) return error(cid, ErrorCode::Forbidden, kRelayBoardWords);
  json record;
  std::string kind;
  if (const auto* c = std::get_if<protocol::ReviewHandOver>(&m)) {
    if (by.id != owner_.id && by.id != controller_.id) {
      return error(cid, ErrorCode::Forbidden,
                   "only " + owner_.name + " (the owner) or " + controller_.name +
                       " (in control) can hand control over");
    }
    // User names compare without case, as everywhere (docs/games.md).
    auto same = [](std::string_view a, std::string_view b) {
      return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
             });
    };
    std::optional<protocol::UserRef> to;
    if (same(c->to, owner_.name)) to = owner_;
    for (const auto& member : channel_.members()) {
      if (!to && member->user() && same(member->user()->username, c->to))
        to = protocol::UserRef{member->user()->id, member->user()->username};
    }
    if (!to) {
      return error(cid, ErrorCode::NotFound,
                   c->to + " is not following this review: control goes to someone who is");
    }
    if (to->id == controller_.id)
      return error(cid, ErrorCode::Conflict, to->name + " already has control");
    kind = "control";
    record = {{"to", {{"id", to->id}, {"name", to->name}}}};
    return apply_and_publish(by, cid, kind, record.dump());
  }
  if (const auto* c = std::get_if<protocol::ReviewChat>(&m)) {  // anyone following
    record = {{"from", {{"id", by.id}, {"name", by.name}}}, {"text", c->text}};
    return apply_and_publish(by, cid, "chat", record.dump());
  }
  if (by.id != controller_.id) {
    return error(cid, ErrorCode::Forbidden,
                 controller_.name + " has control of this review; ask them to hand it over");
  }
  std::visit(Overloaded{
                 [&](const protocol::ReviewPlay& p) {
                   kind = "play";
                   const Color c = p.color.value_or(review_.position().to_move());
                   record = {{"color", color_name(c)}, {"vertex", p.vertex}};
                 },
                 [&](const protocol::ReviewGoTo& g) {
                   kind = "goto";
                   record = {{"node", g.node}};
                 },
                 [&](const protocol::ReviewMark& k) {
                   kind = "mark";
                   record = {{"vertex", k.vertex}};
                   if (k.mark) record["mark"] = std::string(protocol::wire::name(*k.mark));
                   if (k.label) record["label"] = *k.label;
                 },
                 [&](const protocol::ReviewComment& c) {
                   kind = "comment";
                   record = {{"text", c.text}};
                 },
                 [&](const protocol::ReviewDelete& d) {
                   kind = "delete";
                   record = {{"node", d.node}};
                 },
                 [](const auto&) {},
             },
             m);
  if (kind.empty()) return error(cid, ErrorCode::UnknownType, "not a review command");
  return apply_and_publish(by, cid, kind, record.dump());
}

ReviewRoom::Reply ReviewRoom::invite(const protocol::UserRef& by, const std::string& cid,
                                     const protocol::UserRef& user, bool remove) {
  if (closed_) return error(cid, ErrorCode::GameOver, "this review is closed");
  if (!audience_.is_private()) {
    return error(cid, ErrorCode::Conflict,
                 "this review is public: anyone may follow it without an invitation");
  }
  if (!audience_.is_player(by.id)) {
    const auto& p = audience_.players();
    return error(cid, ErrorCode::Forbidden,
                 "only the game's players (" + p.front().name + " and " + p.back().name +
                     ") can invite others to its review");
  }
  if (audience_.is_player(user.id))
    return error(cid, ErrorCode::Conflict, user.name + " played this game: they always see it");
  if (remove && !audience_.is_invited(user.id))
    return error(cid, ErrorCode::NotFound, user.name + " is not invited");
  if (!remove && audience_.is_invited(user.id))
    return error(cid, ErrorCode::Conflict, user.name + " is invited already");
  if (!remove && audience_.invited().size() >= ReviewAudience::kMaxInvited) {
    return error(cid, ErrorCode::TooLarge,
                 "this review has " + std::to_string(ReviewAudience::kMaxInvited) +
                     " people invited, the most it may: take an invitation back first");
  }
  auto reply = apply_and_publish(by, cid, "invite", ReviewAudience::invite_record(user, remove));
  if (!remove || std::holds_alternative<protocol::Error>(reply)) return reply;
  // Whoever is no longer invited stops following (an administrator sees it all the same).
  protocol::ReviewUpdate gone;
  gone.review = id_;
  gone.seq = channel_.seq();
  gone.change = protocol::ReviewChange::Removed;
  gone.current = review_.current();
  gone.by = by;
  const auto text = std::make_shared<const std::string>(protocol::encode(gone));
  const auto removed = channel_.remove_if([&](const auto& m) {
    const bool out = m->user() && m->user()->id == user.id && !m->user()->is_admin;
    if (out) pending_.send(m, text);
    return out;
  });
  if (removed > 0) broadcast(followers_view());
  return reply;
}

ReviewRoom::Reply ReviewRoom::apply_and_publish(const protocol::UserRef& by, const std::string& cid,
                                                const std::string& kind,
                                                const std::string& record) {
  if (channel_.seq() >=
      limits_.max_events) {  // every stored change counts, chat and control included
    return error(cid, ErrorCode::TooLarge,
                 "this review has had its " + std::to_string(limits_.max_events) +
                     " changes: download it (SGF) and start a new review from the file");
  }
  protocol::ReviewUpdate update;
  if (auto problem = apply(kind, record, update))
    return error(cid, problem->first, problem->second);
  update.review = id_;
  update.seq = channel_.next();
  update.current = review_.current();
  update.by = by;
  pending_.writes.push_back(store::ReviewEvent{id_, static_cast<std::int64_t>(channel_.seq()), kind,
                                               record,
                                               by.id > 0 ? std::optional(by.id) : std::nullopt, 0});
  if (!update.line || !blocks_) {
    broadcast(update);
    return protocol::Ack{cid, {}, channel_.seq(), {}, {}};
  }
  // A chat line: those kept apart from its author get the change without it (their numbering
  // goes on, so that they do not take the gap for a lost change).
  const auto author = update.line->from.id;
  const auto full =
      std::make_shared<const std::string>(protocol::encode(protocol::ServerMessage{update}));
  auto without = update;
  without.line.reset();
  without.change = protocol::ReviewChange::Other;
  const auto redacted =
      std::make_shared<const std::string>(protocol::encode(protocol::ServerMessage{without}));
  for (const auto& m : channel_.members()) {
    const auto& user = m->user();
    pending_.send(m,
                  apart(user ? std::optional(user->id) : std::nullopt, author) ? redacted : full);
  }
  return protocol::Ack{cid, {}, channel_.seq(), {}, {}};
}

std::optional<std::pair<ErrorCode, std::string>> ReviewRoom::apply(const std::string& kind,
                                                                   const std::string& text,
                                                                   protocol::ReviewUpdate& update) {
  using Problem = std::pair<ErrorCode, std::string>;
  const json r = json::parse(text, nullptr, false);
  if (!r.is_object()) return Problem{ErrorCode::Internal, "an unreadable record"};
  const Geometry g = review_.tree().record.geometry();
  auto too_large = [&](std::size_t more) -> std::optional<Problem> {
    if (bytes_ + more <= limits_.max_bytes) return std::nullopt;
    return Problem{ErrorCode::TooLarge,
                   "this review is full (" + std::to_string(limits_.max_bytes / 1024) +
                       " KiB of moves, marks and comments): delete a line or start a new review"};
  };
  try {
    if (kind == "play") {
      const std::string vertex = r.at("vertex").get<std::string>();
      const auto p = g.parse_gtp(vertex);
      if (!p) return Problem{ErrorCode::BadField, "no point " + vertex + " on this board"};
      const Move m{r.at("color").get<std::string>() == "white" ? Color::White : Color::Black, *p};
      if (review_.child_with(m) < 0) {
        if (review_.tree().nodes.size() >= limits_.max_nodes) {
          return Problem{ErrorCode::TooLarge, "this review has its " +
                                                  std::to_string(limits_.max_nodes) +
                                                  " moves: delete a line or start a new review"};
        }
        if (auto full = too_large(kNodeBytes)) return full;
      }
      const auto played = review_.play(m);
      if (played.error != MoveError::Ok)
        return Problem{ErrorCode::IllegalMove, why_illegal(played.error, vertex)};
      if (played.added) {
        bytes_ += kNodeBytes;
        update.change = protocol::ReviewChange::NodeAdded;
        update.node = node_view(played.node);
      } else {
        update.change = protocol::ReviewChange::Moved;
      }
      update.position = current_position();
    } else if (kind == "goto") {
      const auto node = r.at("node").get<std::int64_t>();
      if (node > std::numeric_limits<int>::max() || !review_.go_to(static_cast<int>(node)))
        return Problem{ErrorCode::NotFound, "no node " + std::to_string(node) + " in this review"};
      update.change = protocol::ReviewChange::Moved;
      update.position = current_position();
    } else if (kind == "mark") {
      const std::string vertex = r.at("vertex").get<std::string>();
      const auto p = g.parse_gtp(vertex);
      if (!p || *p == kPass)
        return Problem{ErrorCode::BadField, "no point " + vertex + " on this board"};
      std::optional<Mark> mark;
      if (r.contains("mark")) {
        const auto k = protocol::wire::parse<protocol::MarkKind>(r["mark"].get<std::string>());
        if (!k) return Problem{ErrorCode::BadField, "no such mark"};
        mark = Mark{*p, shape_of(*k), ""};
        if (*k == protocol::MarkKind::Label) {
          if (!r.contains("label"))
            return Problem{ErrorCode::BadField, "a label mark needs its text ('label')"};
          mark->label = r["label"].get<std::string>();
        }
        if (auto full = too_large(kMarkBytes)) return full;
      }
      const auto before = review_.marks(review_.current()).size();
      review_.set_mark(*p, std::move(mark));
      bytes_ = bytes_ + review_.marks(review_.current()).size() * kMarkBytes - before * kMarkBytes;
      update.change = protocol::ReviewChange::Marked;
      update.node = node_view(review_.current());
    } else if (kind == "comment") {
      std::string comment = r.at("text").get<std::string>();
      const auto old = wire_size(review_.comment(review_.current()));
      const auto now = wire_size(comment);
      if (now > old) {
        if (auto full = too_large(now - old)) return full;
      }
      bytes_ = bytes_ + now - old;
      review_.set_comment(std::move(comment));
      update.change = protocol::ReviewChange::Commented;
      update.node = node_view(review_.current());
    } else if (kind == "delete") {
      const auto node = r.at("node").get<std::int64_t>();
      if (node == 0) return Problem{ErrorCode::Forbidden, "the root of a review stays"};
      if (const auto on = std::find(relay_line_.begin(), relay_line_.end(), node);
          on != relay_line_.end()) {
        return Problem{ErrorCode::Forbidden,
                       "move " + std::to_string(on - relay_line_.begin() + 1) +
                           " is the relayed game's own: it stays (delete a variation instead)"};
      }
      if (node > std::numeric_limits<int>::max() || !review_.remove(static_cast<int>(node)))
        return Problem{ErrorCode::NotFound, "no node " + std::to_string(node) + " in this review"};
      bytes_ = tree_bytes();
      update.change = protocol::ReviewChange::Deleted;
      update.deleted = node;
      update.position = current_position();
    } else if (kind == "chat") {
      const auto& from = r.at("from");
      protocol::ReviewChatLine line{
          channel_.seq() + 1,
          {from.at("id").get<std::int64_t>(), from.at("name").get<std::string>()},
          r.at("text").get<std::string>()};
      if (chat_lines_ >= limits_.chat_lines) {
        return Problem{ErrorCode::Conflict, "this review's chat is full (" +
                                                std::to_string(limits_.chat_lines) +
                                                " lines): the board goes on"};
      }
      if (chat_by_[line.from.id] >= limits_.chat_lines_per_person) {
        return Problem{ErrorCode::Conflict,
                       "you have written " + std::to_string(limits_.chat_lines_per_person) +
                           " lines in this review's chat, the most one person may"};
      }
      ++chat_lines_;
      ++chat_by_[line.from.id];
      chat_.push_back(line);
      if (chat_.size() > kKeptChatLines) chat_.pop_front();
      update.change = protocol::ReviewChange::Chat;
      update.line = std::move(line);
    } else if (kind == "invite") {
      if (auto problem = audience_.apply_invite(text))
        return Problem{ErrorCode::Internal, *problem};
      update.change = protocol::ReviewChange::Invited;
      update.invited = audience_.invited();
    } else if (kind == "relay") {
      return apply_relay(r, update);
    } else if (kind == "relay_role") {
      relay_role_ =
          r.at("role").get<std::string>() == "board" ? RelayRole::Board : RelayRole::Commentary;
      update.change = protocol::ReviewChange::Other;
    } else if (kind == "control") {
      const auto& to = r.at("to");
      controller_ = {to.at("id").get<std::int64_t>(), to.at("name").get<std::string>()};
      update.change = protocol::ReviewChange::Control;
      update.controller = controller_;
    } else {
      return Problem{ErrorCode::Internal, "an unknown change '" + kind + "'"};
    }
  } catch (const json::exception& e) {
    return Problem{ErrorCode::Internal, std::string("an unreadable record: ") + e.what()};
  }
  return std::nullopt;
}

ReviewRoom::Reply ReviewRoom::set_relay_role(RelayRole role) {
  return apply_and_publish(owner_, "", "relay_role", json{{"role", role_name(role)}}.dump());
}

ReviewRoom::Reply ReviewRoom::relay_play(const protocol::UserRef& by, int number,
                                         const std::string& vertex) {
  if (closed_) return error("", ErrorCode::GameOver, "this review is closed");
  const Color color = review_.position_at(relay_line_.empty() ? 0 : relay_line_.back()).to_move();
  return apply_and_publish(
      by, "", "relay",
      json{{"n", number}, {"color", color_name(color)}, {"vertex", vertex}}.dump());
}

ReviewRoom::Reply ReviewRoom::relay_take_back(const protocol::UserRef& by, int number) {
  if (closed_) return error("", ErrorCode::GameOver, "this review is closed");
  return apply_and_publish(by, "", "relay", json{{"n", number}, {"back", true}}.dump());
}

std::optional<std::pair<ErrorCode, std::string>> ReviewRoom::apply_relay(
    const json& r, protocol::ReviewUpdate& update) {
  using Problem = std::pair<ErrorCode, std::string>;
  const int n = r.at("n").get<int>();
  const bool back = r.value("back", false);
  if (back ? n != relay_moves() : n != relay_moves() + 1) {
    return Problem{ErrorCode::Conflict, "the relay has " + std::to_string(relay_moves()) +
                                            " moves here, not " + std::to_string(back ? n : n - 1)};
  }
  const int tail = relay_line_.empty() ? 0 : relay_line_.back();
  const int was = review_.current();
  const bool following = was == tail;
  if (back) {
    relay_line_.pop_back();
    const int parent = relay_line_.empty() ? 0 : relay_line_.back();
    const auto& node = review_.tree().nodes[static_cast<std::size_t>(tail)];
    // Nobody's work is lost: a move someone commented, marked or played on from stays.
    const bool untouched =
        node.children.empty() && node.marks.empty() && review_.comment(tail).empty();
    if (relay_role_ == RelayRole::Board || untouched) {
      review_.remove(tail);
      bytes_ = tree_bytes();
      update.change = protocol::ReviewChange::Deleted;
      update.deleted = tail;
    } else if (following) {
      review_.go_to(parent);
      update.change = protocol::ReviewChange::Moved;
    } else {
      update.change = protocol::ReviewChange::Other;
    }
    if (following) update.position = current_position();
    return std::nullopt;
  }
  const std::string vertex = r.at("vertex").get<std::string>();
  const auto p = review_.tree().record.geometry().parse_gtp(vertex);
  if (!p) return Problem{ErrorCode::BadField, "no point " + vertex + " on this board"};
  const Move m{r.at("color").get<std::string>() == "white" ? Color::White : Color::Black, *p};
  review_.go_to(tail);
  if (review_.child_with(m) < 0 && review_.tree().nodes.size() >= limits_.max_nodes) {
    review_.go_to(was);
    return Problem{ErrorCode::TooLarge, "this board has its " + std::to_string(limits_.max_nodes) +
                                            " moves: no more fit"};
  }
  const auto played = review_.play(m);
  if (played.error != MoveError::Ok) {
    review_.go_to(was);
    return Problem{ErrorCode::IllegalMove, why_illegal(played.error, vertex)};
  }
  relay_line_.push_back(played.node);
  if (!following) review_.go_to(was);
  if (played.added) {
    bytes_ += kNodeBytes;
    update.change = protocol::ReviewChange::NodeAdded;
    update.node = node_view(played.node);
  } else {
    update.change = following ? protocol::ReviewChange::Moved : protocol::ReviewChange::Other;
  }
  if (following) update.position = current_position();
  return std::nullopt;
}

ReviewRoom::Reply ReviewRoom::close(const protocol::UserRef& by, const std::string& cid,
                                    std::int64_t at_ms) {
  if (closed_) return error(cid, ErrorCode::GameOver, "this review is closed already");
  if (relay_role_ == RelayRole::Board) return error(cid, ErrorCode::Forbidden, kRelayBoardWords);
  if (by.id != owner_.id)
    return error(cid, ErrorCode::Forbidden, "only " + owner_.name + " (the owner) can close it");
  return close_now(by, cid, at_ms);
}

ReviewRoom::Reply ReviewRoom::close_relay(const protocol::UserRef& by, std::int64_t at_ms) {
  if (closed_) return protocol::Ack{"", {}, channel_.seq(), {}, {}};
  return close_now(by, "", at_ms);
}

ReviewRoom::Reply ReviewRoom::close_now(const protocol::UserRef& by, const std::string& cid,
                                        std::int64_t at_ms) {
  closed_ = true;
  pending_.writes.push_back(store::ReviewClosed{id_, sgf(), at_ms});
  protocol::ReviewUpdate update;
  update.review = id_;
  update.seq = channel_.next();
  update.change = protocol::ReviewChange::Closed;
  update.current = review_.current();
  update.by = by;
  broadcast(update);
  channel_.clear();
  return protocol::Ack{cid, {}, channel_.seq(), {}, {}};
}

protocol::ReviewNode ReviewRoom::node_view(int node) const {
  const auto& tree = review_.tree();
  const auto& n = tree.nodes[static_cast<std::size_t>(node)];
  protocol::ReviewNode v;
  v.id = node;
  v.parent = n.parent;
  auto points = [&](const std::vector<Point>& list) {
    std::vector<std::string> out;
    out.reserve(list.size());
    for (Point p : list) out.push_back(gtp(p));
    return out;
  };
  if (node == 0) {
    v.add_black = points(tree.record.setup_black);
    v.add_white = points(tree.record.setup_white);
  } else {
    if (n.move.is_move()) {
      v.color = n.move.color;
      v.vertex = n.move.point == kPass ? "pass" : gtp(n.move.point);
    }
    v.add_black = points(n.move.add_black);
    v.add_white = points(n.move.add_white);
    v.add_empty = points(n.move.add_empty);
  }
  for (const auto& m : n.marks) v.marks.push_back({gtp(m.point), kind_of(m.shape), m.label});
  v.comment = review_.comment(node);
  return v;
}

protocol::PositionView ReviewRoom::current_position() const {
  std::vector<Point> captured;
  const Variation line = review_.position(&captured);
  return position_view(line, captured);
}

protocol::ReviewFollowers ReviewRoom::followers_view() const {
  protocol::ReviewFollowers f;
  f.review = id_;
  std::set<std::int64_t> seen;
  for (const auto& m : channel_.members()) {
    if (!m->user()) {
      ++f.guests;
    } else if (seen.insert(m->user()->id).second) {
      f.followers.push_back({m->user()->id, m->user()->username});
    }
  }
  return f;
}

protocol::ReviewSnapshot ReviewRoom::snapshot(std::optional<std::int64_t> viewer) const {
  const auto& tree = review_.tree();
  protocol::ReviewSnapshot s;
  s.review = id_;
  s.seq = channel_.seq();
  s.title = title_;
  s.owner = owner_;
  s.controller = controller_;
  s.game = game_;
  s.width = tree.record.width;
  s.height = tree.record.height;
  s.komi = review_.rules().komi;
  s.rules = tree.record.rules;
  for (const int n : tree.preorder()) s.nodes.push_back(node_view(n));
  s.current = review_.current();
  s.position = current_position();
  auto f = followers_view();
  s.followers = std::move(f.followers);
  s.guests = f.guests;
  s.closed = closed_;
  // The newest lines that fit kSnapshotChatBytes as they travel: with the tree's own bound, a
  // snapshot stays well within what a connection may have queued.
  std::size_t bytes = 0;
  auto from = chat_.end();
  while (from != chat_.begin()) {
    const auto& line = *std::prev(from);
    bytes += wire_size(line.text) + line.from.name.size() + 48;
    if (bytes > kSnapshotChatBytes) break;
    --from;
  }
  for (auto line = from; line != chat_.end(); ++line)
    if (!apart(viewer, line->from.id)) s.chat.push_back(*line);
  s.is_private = audience_.is_private();
  s.players = audience_.players();
  s.invited = audience_.invited();
  return s;
}

std::size_t ReviewRoom::bytes_of(int node) const {
  const auto& n = review_.tree().nodes[static_cast<std::size_t>(node)];
  return kNodeBytes + wire_size(review_.comment(node)) + n.marks.size() * kMarkBytes +
         (n.move.add_black.size() + n.move.add_white.size() + n.move.add_empty.size()) *
             kStoneBytes;
}

std::size_t ReviewRoom::tree_bytes() const {
  std::size_t total = 0;
  for (const int n : review_.tree().preorder()) total += bytes_of(n);
  return total;
}

}  // namespace tengen
