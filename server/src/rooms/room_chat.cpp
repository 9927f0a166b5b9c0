#include <nlohmann/json.hpp>

#include "rooms/room.h"
#include "rooms/room_records.h"

namespace tengen {

// Room's chat (docs/games.md, docs/limits.md): its bounds, the lines kept for snapshots, and an
// administrator's deletion.

using protocol::EndReason;

std::optional<protocol::UserRef> Room::erase_chat(protocol::Seq line) {
  for (auto& channel : chat_) {
    for (auto& kept : channel) {
      if (kept.line.seq != line || kept.line.deleted) continue;
      kept.line.text.clear();
      kept.line.deleted = true;
      return kept.line.from;
    }
  }
  return std::nullopt;
}

std::variant<protocol::UserRef, protocol::Error> Room::delete_chat(protocol::Seq line) {
  const auto author = erase_chat(line);
  if (!author) {
    return refuse(Refused::NoChatLine, "", {std::to_string(id_), std::to_string(line)});
  }
  // A client resuming from before the line must not get its words back from the kept events.
  for (const auto& channel : chat_) {
    for (const auto& kept : channel) {
      if (kept.line.seq != line) continue;
      channel_.rewrite(line, std::make_shared<const std::string>(protocol::encode(
                                 protocol::RoomEvent{id_, line, protocol::ChatPosted{kept.line}})));
    }
  }
  publish("", protocol::ChatDeleted{line}, records::ChatRemoved{line}, false);
  return *author;
}

std::size_t Room::chat_index(const protocol::ChatLine& line) const {
  if (line.channel != protocol::Channel::Team) return static_cast<std::size_t>(line.channel);
  return color_of(line.from.id) == Color::White ? 3 : 2;
}

void Room::keep_chat(const protocol::ChatLine& line) {
  const auto channel = chat_index(line);
  // The line's size as the snapshot will encode it: escaping can make text up to six times longer.
  const std::size_t bytes =
      nlohmann::json(line.text).dump().size() + nlohmann::json(line.from.name).dump().size() + 80;
  chat_[channel].push_back({line, bytes});
  if (chat_[channel].size() > kKeptChatLines) chat_[channel].pop_front();
  ++chat_lines_[channel];
  ++chat_by_[line.from.id];
}

Room::Reply Room::chat(const protocol::UserRef& from, const std::string& cid,
                       const std::string& text, std::int64_t at_ms, bool team) {
  const bool player = is_player(from.id);
  if (team && !(settings_.teams && player)) return refuse(Refused::NoTeamChat, cid);
  const auto mine = chat_by_.find(from.id);
  if (mine != chat_by_.end() && mine->second >= options_.chat_lines_per_person) {
    return refuse(Refused::OwnChatFull, cid, {std::to_string(mine->second)});
  }
  if (!player && chat_lines_[1] >= options_.spectator_chat_lines) {
    return refuse(Refused::SpectatorChatFull, cid, {std::to_string(chat_lines_[1])});
  }
  const records::Chatted said{from,
                              team     ? protocol::Channel::Team
                              : player ? protocol::Channel::Players
                                       : protocol::Channel::Spectators,
                              text, at_ms};
  auto ack =
      publish(cid, protocol::ChatPosted{{0, from, said.channel, text, at_ms}}, said, !player);
  apply(said, channel_.seq());  // a line is kept with its event's number
  return ack;
}

}  // namespace tengen
