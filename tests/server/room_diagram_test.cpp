// The room read like a diagram: a position drawn as players see it, commands in, each event as
// one line of text out, and the board drawn again. No sockets and no store: a spectator's fake
// connection takes what the room sends, delivered by hand from its outbox.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "rooms/room.h"

namespace tengen {
namespace {

using json = nlohmann::json;

constexpr std::int64_t kBlack = 1;
constexpr std::int64_t kWhite = 2;
const Steady kNow{std::chrono::hours(5)};

class Spectator final : public Recipient {
 public:
  void send(std::shared_ptr<const std::string> message) override {
    received.push_back(json::parse(*message));
  }
  std::uint64_t id() const override { return 9; }
  const std::optional<store::UserRecord>& user() const override { return guest_; }
  std::vector<json> received;

 private:
  std::optional<store::UserRecord> guest_;
};

// "X" Black, "O" White, "." empty; the top line is the highest row, as on a board.
class Table {
 public:
  Table(const char* ruleset, const std::string& diagram, char to_move = 'X')
      : rows_(lines(diagram)),
        size_(static_cast<int>(rows_.size())),
        room_(1, settings(ruleset, size_), {kBlack, "black"}, {kWhite, "white"}, std::nullopt,
              kNow) {
    room_.join(spectator_, "watch", std::nullopt, kNow);
    // The position is played in: Black and White in turn, a pass where one has no stone left
    // to place, then a pass by the side not to move, if needed. It must capture nothing.
    std::vector<std::string> stones[2];
    for (int r = 0; r < size_; ++r) {
      for (int c = 0; c < size_; ++c) {
        const char p = rows_[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
        if (p == 'X' || p == 'O') stones[p == 'O'].push_back(vertex(c, r));
        rows_[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] = '.';
      }
    }
    std::size_t next[2] = {0, 0};
    int side = 0;
    while (next[0] < stones[0].size() || next[1] < stones[1].size()) {
      const auto& mine = stones[side];
      const std::string said =
          next[side] < mine.size() ? play(side, mine[next[side]++]) : pass(side);
      if (said.find("captures") != std::string::npos || said.starts_with("refused"))
        ADD_FAILURE() << "setting up the diagram: " << said;
      side = 1 - side;
    }
    if (side != (to_move == 'O')) pass(side);
  }

  // A command of Black ('X') or White ('O'); what it caused, one line per event.
  std::string play(char who, const std::string& vertex) { return play(who == 'O', vertex); }
  std::string pass(char who) { return pass(who == 'O'); }
  std::string resign(char who) { return said(room_.resign(user(who == 'O'), "c", kNow)); }
  std::string ask_undo(char who) { return said(room_.request_undo(user(who == 'O'), "c")); }
  std::string answer_undo(char who, bool accept) {
    return said(room_.answer_undo(user(who == 'O'), "c", accept, kNow));
  }

  // The board as the spectator's events drew it.
  std::string board() const {
    std::string out;
    for (const auto& row : rows_) {
      for (std::size_t c = 0; c < row.size(); ++c) out += (c ? " " : "") + std::string(1, row[c]);
      out += '\n';
    }
    return out;
  }

 private:
  struct Played {
    std::string vertex;
    std::vector<std::pair<std::string, char>> removed;  // and what stood there
  };

  static std::vector<std::string> lines(const std::string& diagram) {
    std::vector<std::string> out;
    std::istringstream in(diagram);
    for (std::string line; std::getline(in, line);) {
      std::string row;
      for (const char ch : line)
        if (ch == 'X' || ch == 'O' || ch == '.') row += ch;
      if (!row.empty()) out.push_back(row);
    }
    return out;
  }
  static protocol::GameSettings settings(const char* ruleset, int size) {
    protocol::GameSettings s;
    s.width = s.height = size;
    s.ruleset = *parse_ruleset(ruleset);
    s.color = protocol::GameSettings::ColorChoice::Black;
    return s;
  }
  static std::int64_t user(int side) { return side ? kWhite : kBlack; }
  std::string vertex(int column, int row) const {
    const char letter = static_cast<char>('A' + column + (column >= 8));  // no I
    return letter + std::to_string(size_ - row);
  }
  char& at(const std::string& v) {
    int column = v[0] - 'A';
    if (v[0] > 'I') --column;
    const int row = size_ - std::stoi(v.substr(1));
    return rows_[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)];
  }
  std::string play(int side, const std::string& v) {
    return said(room_.play(user(side), "c", v, {kNow, {}, {}}));
  }
  std::string pass(int side) { return said(room_.pass(user(side), "c", {kNow, {}, {}})); }

  // The reply (if refused) and the events since the last command, one line each, applied to the
  // drawing.
  std::string said(const Room::Reply& reply) {
    std::string out;
    if (const auto* e = std::get_if<protocol::Error>(&reply))
      out += "refused: " + e->message + "\n";
    Outbox outbox;
    room_.drain_into(outbox);
    for (const auto& [to, text] : outbox.sends) to->send(text);
    for (; seen_ < spectator_->received.size(); ++seen_) {
      const json& m = spectator_->received[seen_];
      if (m["type"] == "snapshot") continue;
      out += line(m) + "\n";
    }
    return out;
  }

  std::string line(const json& m) {
    const std::string type = m["type"];
    if (type == "move") {
      const std::string color = m["color"], v = m["vertex"];
      if (v == "pass") {
        played_.push_back({});
        return color + " passes";
      }
      Played p{v, {}};
      at(v) = color == "black" ? 'X' : 'O';
      std::string text = color + " " + v;
      if (!m["captured"].empty()) text += " captures";
      for (const auto& c : m["captured"]) {
        p.removed.emplace_back(c, at(c));
        at(c) = '.';
        text += " " + c.get<std::string>();
      }
      played_.push_back(std::move(p));
      return text;
    }
    if (type == "undo_answered" && m.value("accepted", m.value("accept", false))) {
      const int back = m["moves_taken_back"];
      for (int i = 0; i < back; ++i) {
        const Played p = played_.back();
        played_.pop_back();
        if (!p.vertex.empty()) at(p.vertex) = '.';
        for (const auto& [v, stone] : p.removed) at(v) = stone;
      }
      return "undo: " + std::to_string(back) + " move" + (back == 1 ? "" : "s") + " taken back";
    }
    if (type == "game_ended") return "game over: " + m["result"].get<std::string>();
    return type;  // the rest by name only
  }

  std::vector<std::string> rows_;
  int size_;
  Room room_;
  std::shared_ptr<Spectator> spectator_ = std::make_shared<Spectator>();
  std::size_t seen_ = 0;
  std::vector<Played> played_;
};

TEST(RoomDiagram, ACaptureTakesTheChainOffTheBoardAndAnUndoPutsItBack) {
  Table table("japanese", R"(
    . . . . .
    . . . . .
    . . . . .
    O O . . .
    X X . . .)",
              'O');
  EXPECT_EQ(table.play('X', "E5"), "refused: it is white's move\n");
  EXPECT_EQ(table.play('O', "B1"), "refused: occupied: there is already a stone on B1\n");
  EXPECT_EQ(table.play('O', "C1"), "white C1 captures A1 B1\n");
  EXPECT_EQ(table.board(),
            ". . . . .\n"
            ". . . . .\n"
            ". . . . .\n"
            "O O . . .\n"
            ". . O . .\n");
  EXPECT_EQ(table.ask_undo('O'), "undo_requested\n");
  EXPECT_EQ(table.answer_undo('X', true), "undo: 1 move taken back\n");
  EXPECT_EQ(table.board(),
            ". . . . .\n"
            ". . . . .\n"
            ". . . . .\n"
            "O O . . .\n"
            "X X . . .\n");
}

TEST(RoomDiagram, AKoIsRetakenOnlyAfterAMoveElsewhere) {
  Table table("japanese", R"(
    . . . . .
    . . . . .
    . X O . .
    X O . O .
    . X O . .)");
  EXPECT_EQ(table.play('X', "C2"), "black C2 captures B2\n");
  EXPECT_EQ(table.play('O', "B2"),
            "refused: ko: retaking at once is not allowed; play elsewhere first\n");
  EXPECT_EQ(table.board(),
            ". . . . .\n"
            ". . . . .\n"
            ". X O . .\n"
            "X . X O .\n"
            ". X O . .\n");
  EXPECT_EQ(table.play('O', "E5"), "white E5\n");  // a ko threat, say
  EXPECT_EQ(table.play('X', "E4"), "black E4\n");  // answered, not the ko filled
  EXPECT_EQ(table.play('O', "B2"), "white B2 captures C2\n");
  EXPECT_EQ(table.board(),
            ". . . . O\n"
            ". . . . X\n"
            ". X O . .\n"
            "X O . O .\n"
            ". X O . .\n");
}

TEST(RoomDiagram, SuicideIsRefusedUnderJapaneseRulesAndTakesTheStoneUnderNewZealand) {
  const std::string corner = R"(
    . . . . .
    . . . . .
    . . . . .
    O . . . .
    . O . . .)";
  Table japanese("japanese", corner);
  EXPECT_EQ(japanese.play('X', "A1"), "refused: suicide: a stone on A1 would have no liberty\n");
  Table new_zealand("new-zealand", corner);
  EXPECT_EQ(new_zealand.play('X', "A1"), "black A1 captures A1\n");
  EXPECT_EQ(new_zealand.board(),
            ". . . . .\n"
            ". . . . .\n"
            ". . . . .\n"
            "O . . . .\n"
            ". O . . .\n");
}

TEST(RoomDiagram, AResignationEndsTheGameAndNothingIsPlayedAfter) {
  Table table("chinese", R"(
    . . .
    . X .
    . . .)",
              'O');
  EXPECT_EQ(table.resign('O'), "game over: B+R\n");
  EXPECT_EQ(table.play('X', "A1"), "refused: the game is over: B+R\n");
}

}  // namespace
}  // namespace tengen
