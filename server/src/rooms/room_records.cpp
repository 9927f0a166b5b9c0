#include "rooms/room_records.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace tengen::records {
namespace {

using json = nlohmann::json;

// Colours and channels are stored by their names on the wire.
std::string_view name_of(Color c) {
  return protocol::wire::name(c);
}

Color color_at(const json& r, const char* field) {
  const auto name = r.at(field).get<std::string>();
  const auto color = protocol::wire::parse<Color>(name);
  if (!color) throw std::runtime_error(std::string("'") + field + "' is not a colour: " + name);
  return *color;
}

// A move's record: {"c":colour,"clock":both clocks,"v":vertex}, both clocks as kept between
// turns ([main, periods, period, stones, lag quota] each, or null), written directly (a JSON
// document per move was a measurable part of the server's CPU). Colour and vertex are ours
// ("black", "D4", "pass"): nothing to escape.
std::string encode_move(const Moved& m) {
  std::string out = R"({"c":")";
  out += name_of(m.color);
  out += R"(","clock":)";
  if (!m.clocks) {
    out += "null";
  } else {
    out += '[';
    for (std::size_t i = 0; i < 2; ++i) {
      const PlayerTime& t = (*m.clocks)[i];
      if (i == 1) out += ',';
      out += '[' + std::to_string(t.main_ms) + ',' + std::to_string(t.periods) + ',' +
             std::to_string(t.period_ms) + ',' + std::to_string(t.stones) + ',' +
             std::to_string(t.lag_quota_ms) + ']';
    }
    out += ']';
  }
  out += R"(,"v":")";
  out += m.vertex;
  out += R"("})";
  return out;
}

Record read_kind(const std::string& kind, const json& r, const std::string& text) {
  if (kind == "move") {
    Moved m{color_at(r, "c"), r.at("v").get<std::string>(), std::nullopt};
    if (const json& both = r.at("clock"); both.is_array()) {
      std::array<PlayerTime, 2> clocks;
      for (std::size_t i = 0; i < 2; ++i) {
        const json& t = both.at(i);
        clocks[i] =
            PlayerTime{t.at(0).get<std::int64_t>(), t.at(1).get<int>(), t.at(2).get<std::int64_t>(),
                       t.at(3).get<int>(), t.at(4).get<std::int64_t>()};
      }
      m.clocks = clocks;
    }
    return m;
  }
  if (kind == "undo_request") return UndoAsked{color_at(r, "c")};
  if (kind == "conditional")
    return ConditionalSet{color_at(r, "c"), r.at("lines").get<std::vector<std::string>>()};
  if (kind == "chat_deleted") return ChatRemoved{r.at("line").get<protocol::Seq>()};
  if (kind == "undo_answer") return UndoAnswered{r.at("accept").get<bool>()};
  if (kind == "chat") {
    const auto channel =
        protocol::wire::parse<protocol::Channel>(r.at("channel").get<std::string>());
    if (!channel) throw std::runtime_error("'channel' is not a chat channel");
    return Chatted{{r.at("from").get<std::int64_t>(), r.at("name").get<std::string>()},
                   *channel,
                   r.at("text").get<std::string>(),
                   r.value("at", std::int64_t{0})};
  }
  if (kind == "nigiri" || kind == "nigiri_done") {
    NigiriChosen n{r.at("guesser").get<bool>(), r.at("seed").get<std::string>(), std::nullopt};
    if (n.guesser) n.guess = r.at("guess").get<std::string>();
    return n;
  }
  if (kind == "scoring" || kind == "marking")
    return Marked{r.at("dead").get<std::vector<std::string>>(),
                  r.at("version").get<std::uint64_t>()};
  if (kind == "accept")
    return ScoreAccepted{color_at(r, "c"), r.at("version").get<std::uint64_t>()};
  if (kind == "resume") return Resumed{color_at(r, "first")};
  if (kind == "end") {
    const auto sgf = r.at("result").get<std::string>();
    const auto result = Result::parse_sgf(sgf);
    if (!result) throw std::runtime_error("'" + sgf + "' is not a result");
    Ended e{*result, std::nullopt};
    // The count of a scored game is in the message the players were sent.
    const json sent = json::parse(text, nullptr, false);
    if (sent.is_object() && sent.contains("score") && sent.at("score").is_object()) {
      const json& score = sent.at("score");
      e.score = protocol::ScoreView{
          score.at("black").get<double>(),
          score.at("white").get<double>(),
          Result::parse_sgf(score.at("result").get<std::string>()).value_or(e.result),
          score.at("ownership").get<std::string>(),
          {}};
      // How the totals were made (stored since it was sent; older records have no breakdown).
      if (score.contains("breakdown") && score.at("breakdown").is_object()) {
        const json& b = score.at("breakdown");
        const auto parts = [&](const char* color) {
          const json& p = b.at(color);
          return protocol::ScoreParts{p.at("stones").get<int>(), p.at("territory").get<int>(),
                                      p.at("prisoners").get<int>()};
        };
        e.score->breakdown = protocol::ScoreBreakdown{b.at("area").get<bool>(), parts("black"),
                                                      parts("white"), b.at("komi").get<double>(),
                                                      b.at("handicap_compensation").get<double>()};
      }
    }
    return e;
  }
  throw std::runtime_error("a record of an unknown kind");
}

struct Encode {
  std::string operator()(const Moved& m) const { return encode_move(m); }
  std::string operator()(const UndoAsked& u) const { return json{{"c", name_of(u.by)}}.dump(); }
  std::string operator()(const UndoAnswered& u) const {
    return json{{"accept", u.accepted}}.dump();
  }
  std::string operator()(const Chatted& c) const {
    json r{{"from", c.from.id},
           {"name", c.from.name},
           {"channel", protocol::wire::name(c.channel)},
           {"text", c.text}};
    if (c.at_ms) r["at"] = c.at_ms;
    return r.dump();
  }
  std::string operator()(const NigiriChosen& n) const {
    json r{{"guesser", n.guesser}, {"seed", n.seed}};
    if (n.guess) r["guess"] = *n.guess;
    return r.dump();
  }
  std::string operator()(const Marked& m) const {
    return json{{"dead", m.dead}, {"version", m.version}}.dump();
  }
  std::string operator()(const ScoreAccepted& a) const {
    return json{{"c", name_of(a.by)}, {"version", a.version}}.dump();
  }
  std::string operator()(const Resumed& r) const {
    return json{{"first", name_of(r.first)}}.dump();
  }
  std::string operator()(const ChatRemoved& c) const { return json{{"line", c.line}}.dump(); }
  std::string operator()(const ConditionalSet& c) const {
    return json{{"c", name_of(c.by)}, {"lines", c.lines}}.dump();
  }
  // The count travels in the event's text, which is stored beside the record.
  std::string operator()(const Ended& e) const {
    return json{{"result", e.result.to_sgf()}}.dump();
  }
};

struct KindOf {
  const char* operator()(const protocol::MovePlayed&) const { return "move"; }
  const char* operator()(const protocol::UndoRequested&) const { return "undo_request"; }
  const char* operator()(const protocol::UndoAnswered&) const { return "undo_answer"; }
  const char* operator()(const protocol::ChatPosted&) const { return "chat"; }
  const char* operator()(const protocol::GameEnded&) const { return "end"; }
  const char* operator()(const protocol::NigiriStarted&) const { return "nigiri"; }
  const char* operator()(const protocol::NigiriDone&) const { return "nigiri_done"; }
  const char* operator()(const protocol::ScoringStarted&) const { return "scoring"; }
  const char* operator()(const protocol::MarkingChanged&) const { return "marking"; }
  const char* operator()(const protocol::ScoreAccepted&) const { return "accept"; }
  const char* operator()(const protocol::PlayResumed&) const { return "resume"; }
  const char* operator()(const protocol::PlayerLeft&) const { return "left"; }
  const char* operator()(const protocol::PlayerReturned&) const { return "returned"; }
  const char* operator()(const protocol::ChatDeleted&) const { return "chat_deleted"; }
  const char* operator()(const protocol::ConditionalMoves&) const { return "conditional"; }
};

}  // namespace

const char* kind_of(const protocol::RoomEventBody& body) {
  return std::visit(KindOf{}, body);
}

std::string encode(const Record& record) {
  return std::visit(Encode{}, record);
}

std::optional<Record> read(const store::GameEvent& event) {
  if (!event.record) return std::nullopt;
  auto problem = [&](const std::string& why) {
    return std::runtime_error("game " + std::to_string(event.game_id) + ", event " +
                              std::to_string(event.seq) + " (" + event.kind + "): " + why);
  };
  try {
    const json r = json::parse(*event.record);
    if (!r.is_object()) throw problem("the record is not a JSON object");
    if (const auto v = r.find("schema"); v != r.end()) {
      if (!v->is_number_integer() || v->get<int>() < 1)
        throw problem("the record's schema is not a positive whole number");
      if (v->get<int>() > kVersion) {
        throw problem("the record is of schema version " + std::to_string(v->get<int>()) +
                      ", written by a newer Tengen; this one reads up to version " +
                      std::to_string(kVersion));
      }
    }
    return read_kind(event.kind, r, event.text);
  } catch (const json::exception& e) {
    throw problem(std::string("unreadable record: ") + e.what());
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    if (what.starts_with("game ")) throw;
    throw problem(what);
  }
}

}  // namespace tengen::records
