#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/color.h"
#include "engine/result.h"
#include "protocol/messages.h"
#include "rooms/game_clock.h"
#include "store/game_store.h"

// What a room stores of each event so that it can be rebuilt after a restart (docs/persistence.md):
// one type per thing that changes a game's state, written as a small JSON record beside the
// event's text. The records written today are schema version 1 and carry no version field; a
// later schema will write "schema": 2 (or more), and a record naming a schema later than this
// server reads is refused, so that an older server never rebuilds a game it would misread. Events
// that change nothing a restart needs (a player leaving or coming back) have no record.
namespace tengen::records {

inline constexpr int kVersion = 1;

// A stone played or a pass ("pass"); a free handicap stone is Black's move before the game
// begins. Both players' clocks as kept between turns, if the game is timed.
struct Moved {
  Color color = Color::Black;
  std::string vertex;
  std::optional<std::array<PlayerTime, 2>> clocks;  // Black's, White's
};
struct UndoAsked {
  Color by = Color::Black;
};
struct UndoAnswered {
  bool accepted = false;
};
struct Chatted {
  protocol::UserRef from;
  protocol::Channel channel = protocol::Channel::Players;
  std::string text;
  std::int64_t at_ms{};  // Unix ms; absent (0) in records made before times were kept
};
// One player's nigiri choice: the holder's seed, or the guesser's seed and guess.
struct NigiriChosen {
  bool guesser = false;
  std::string seed;
  std::optional<std::string> guess;
};
// The scoring phase's marking: its first (the suggestion), or a change.
struct Marked {
  std::vector<std::string> dead;
  std::uint64_t version = 0;
};
struct ScoreAccepted {
  Color by = Color::Black;
  std::uint64_t version = 0;
};
struct Resumed {
  Color first = Color::Black;  // to move
};
struct Ended {
  Result result;                             // stored in SGF form
  std::optional<protocol::ScoreView> score;  // a scored game's count (read from the event text)
};
// An administrator deleted the chat line of event `line` (docs/moderation.md).
struct ChatRemoved {
  protocol::Seq line = 0;
};
// A player's conditional moves as kept from now on (docs/correspondence.md): the lines of their
// tree, none when it was used up or dropped.
struct ConditionalSet {
  Color by = Color::Black;
  std::vector<std::string> lines;
};
using Record = std::variant<Moved, UndoAsked, UndoAnswered, Chatted, NigiriChosen, Marked,
                            ScoreAccepted, Resumed, Ended, ChatRemoved, ConditionalSet>;

// The record's JSON, as stored.
std::string encode(const Record& record);

// The kind column of an event's row ("move", "chat", "end", ...).
const char* kind_of(const protocol::RoomEventBody& body);

// The record of a stored event; nullopt for an event that has none. Throws std::runtime_error,
// naming the event, for a record that cannot be read or is of a later version.
std::optional<Record> read(const store::GameEvent& event);

}  // namespace tengen::records
