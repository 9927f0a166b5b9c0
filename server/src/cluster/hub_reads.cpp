#include "cluster/hub_reads.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "centre/centre.h"
#include "http/moderation_answers.h"
#include "protocol/bus.h"
#include "protocol/codec.h"
#include "protocol/server_reader.h"
#include "tournaments/opengotha.h"
#include "tournaments/player_list.h"

namespace tengen::cluster {

namespace bus = protocol::bus;

HubReads hub_reads_of(Centre& centre) {
  return HubReads{
      .live_sgf = [&centre](std::int64_t game) { return centre.sgf(game); },
      .tournaments = [&centre](const store::Page& page) { return centre.tournaments_json(page); },
      .tournament = [&centre](std::int64_t id) { return centre.tournament_json(id); },
      .reviews =
          [&centre](const protocol::http::Viewer& viewer) { return centre.reviews_json(viewer); },
      .review_sgf =
          [&centre](std::int64_t id, const protocol::http::Viewer& viewer) {
            return centre.review_sgf(id, viewer);
          },
      .create_review =
          [&centre](const protocol::http::ReviewRequest& r) { return centre.create_review(r); },
      .relay = [&centre](const protocol::http::RelayOp& op) { return centre.relay(op); },
      .reload_player = [&centre](std::int64_t user) { centre.reload_player(user); },
      .account_restricted = [&centre](std::int64_t user) { centre.account_restricted(user); },
      .group_changed = [&centre](std::int64_t group) { centre.group_changed(group); },
      .start_game = [&centre](
                        const std::string& settings, std::int64_t black, std::int64_t white,
                        std::int64_t start_timeout_ms) -> std::variant<std::int64_t, std::string> {
        auto decoded = protocol::decode_stored_settings(settings);
        if (const auto* why = std::get_if<std::string>(&decoded)) return *why;
        auto started = centre.start_game(
            std::get<protocol::GameSettings>(decoded), black, white,
            start_timeout_ms > 0 ? std::optional(Millis(start_timeout_ms)) : std::nullopt);
        if (const auto* game = std::get_if<protocol::GameId>(&started)) return *game;
        return std::get<std::string>(started);
      },
      .class_tournament = [&centre](const std::string& settings, std::int64_t director,
                                    const std::vector<std::int64_t>& players)
          -> std::variant<std::int64_t, std::string> {
        auto decoded = protocol::decode_tournament_settings(settings);
        if (const auto* why = std::get_if<std::string>(&decoded)) return *why;
        auto made = centre.class_tournament(std::get<protocol::TournamentSettings>(decoded),
                                            director, players);
        if (const auto* id = std::get_if<protocol::TournamentId>(&made)) return *id;
        return std::get<std::string>(made);
      },
      .import_tournament = [&centre](const std::string& xml, std::int64_t director)
          -> std::variant<std::int64_t, std::string> {
        auto file = federation::read_opengotha(xml);
        if (const auto* why = std::get_if<std::string>(&file)) return *why;
        auto made = centre.import_tournament(std::get<federation::OpenGothaFile>(file), director);
        if (const auto* id = std::get_if<protocol::TournamentId>(&made)) return *id;
        return std::get<std::string>(made);
      },
      .add_tournament_players = [&centre](
                                    std::int64_t tournament, std::int64_t director,
                                    const std::string& csv) -> std::variant<int, std::string> {
        auto list = federation::read_player_list(csv, tournament);
        if (const auto* why = std::get_if<std::string>(&list)) return *why;
        return centre.add_tournament_players(tournament, director,
                                             std::get<std::vector<federation::ListedPlayer>>(list));
      },
      .tell = [&centre](const std::vector<std::int64_t>& users, std::optional<std::int64_t> from,
                        const std::string& text) { centre.tell(users, from, text); },
      .game_action =
          [&centre](std::int64_t game, const std::string& action) {
            const auto decoded = protocol::http::decode_game_action(action);
            if (const auto* problem = std::get_if<std::string>(&decoded))
              return std::pair{400, protocol::http::encode_error("bad_request", *problem)};
            return http::answer_of(
                centre.game_action(game, std::get<protocol::http::GameAction>(decoded)));
          },
      .my_games = [&centre](std::int64_t user) { return centre.games_of(user); },
      .rebuild_ratings = [&centre] { return centre.rebuild_ratings(); }};
}

namespace {

std::unique_ptr<Bus::Subscription> answer_reads(Bus& bus, const std::string& subject,
                                                HubReads local) {
  return bus.answer(subject, [local = std::move(local)](std::string_view text) {
    const auto question = bus::decode_hub_read(text);
    if (!question) throw std::runtime_error("unreadable, not answered");  // the bus logs it
    bus::HubReadAnswer answer;
    switch (question->what) {
      case bus::HubRead::What::LiveSgf:
        answer.body = local.live_sgf(question->id);
        break;
      case bus::HubRead::What::MyGames:
        answer.body = protocol::encode(protocol::ServerMessage{local.my_games(question->id)});
        break;
      case bus::HubRead::What::RebuildRatings:
        answer.body = nlohmann::json{{"rows", local.rebuild_ratings()}}.dump();
        break;
      case bus::HubRead::What::Tournaments:
        answer.body = local.tournaments(store::Page{question->before, question->limit});
        break;
      case bus::HubRead::What::Tournament:
        answer.body = local.tournament(question->id);
        break;
      case bus::HubRead::What::Reviews:
        answer.body = local.reviews({question->viewer, question->admin});
        break;
      case bus::HubRead::What::ReviewSgf:
        answer.body = local.review_sgf(question->id, {question->viewer, question->admin});
        break;
      case bus::HubRead::What::CreateReview: {
        const auto request = protocol::http::decode_review_request(question->text);
        if (!request) throw std::runtime_error("an unreadable review request, not answered");
        const auto [status, body] = local.create_review(*request);
        answer.body = nlohmann::json{{"status", status}, {"body", body}}.dump();
        break;
      }
      case bus::HubRead::What::Relay: {
        const auto op = protocol::http::decode_relay_op(question->text);
        if (!op) throw std::runtime_error("an unreadable relay request, not answered");
        const auto [status, body] = local.relay(*op);
        answer.body = nlohmann::json{{"status", status}, {"body", body}}.dump();
        break;
      }
      case bus::HubRead::What::GameAction: {
        const auto [status, body] = local.game_action(question->id, question->text);
        answer.body = nlohmann::json{{"status", status}, {"body", body}}.dump();
        break;
      }
      case bus::HubRead::What::ReloadPlayer:
        local.reload_player(question->id);
        answer.body = "{}";
        break;
      case bus::HubRead::What::AccountRestricted:
        local.account_restricted(question->id);
        answer.body = "{}";
        break;
      case bus::HubRead::What::GroupChanged:
        local.group_changed(question->id);
        answer.body = "{}";
        break;
      case bus::HubRead::What::StartGame: {
        const auto j = nlohmann::json::parse(question->text, nullptr, false);
        if (!j.is_object() || !j.contains("settings") || !j["settings"].is_string() ||
            !j.contains("black") || !j["black"].is_number_integer() || !j.contains("white") ||
            !j["white"].is_number_integer())
          throw std::runtime_error("an unreadable game to start, not started");
        const auto started = local.start_game(
            j["settings"].get<std::string>(), j["black"].get<std::int64_t>(),
            j["white"].get<std::int64_t>(),
            j.contains("start_timeout_ms") && j["start_timeout_ms"].is_number_integer()
                ? j["start_timeout_ms"].get<std::int64_t>()
                : 0);
        if (const auto* game = std::get_if<std::int64_t>(&started))
          answer.body = nlohmann::json{{"game", *game}}.dump();
        else
          answer.body = nlohmann::json{{"error", std::get<std::string>(started)}}.dump();
        break;
      }
      case bus::HubRead::What::ClassTournament: {
        const auto j = nlohmann::json::parse(question->text, nullptr, false);
        if (!j.is_object() || !j.contains("settings") || !j["settings"].is_string() ||
            !j.contains("director") || !j["director"].is_number_integer() ||
            !j.contains("players") || !j["players"].is_array())
          throw std::runtime_error("an unreadable class tournament, not made");
        for (const auto& p : j["players"])
          if (!p.is_number_integer()) throw std::runtime_error("an unreadable player, not made");
        const auto made = local.class_tournament(j["settings"].get<std::string>(),
                                                 j["director"].get<std::int64_t>(),
                                                 j["players"].get<std::vector<std::int64_t>>());
        if (const auto* id = std::get_if<std::int64_t>(&made))
          answer.body = nlohmann::json{{"tournament", *id}}.dump();
        else
          answer.body = nlohmann::json{{"error", std::get<std::string>(made)}}.dump();
        break;
      }
      case bus::HubRead::What::ImportTournament: {
        const auto j = nlohmann::json::parse(question->text, nullptr, false);
        if (!j.is_object() || !j.contains("xml") || !j["xml"].is_string() ||
            !j.contains("director") || !j["director"].is_number_integer())
          throw std::runtime_error("an unreadable import, not made");
        const auto made =
            local.import_tournament(j["xml"].get<std::string>(), j["director"].get<std::int64_t>());
        if (const auto* id = std::get_if<std::int64_t>(&made))
          answer.body = nlohmann::json{{"tournament", *id}}.dump();
        else
          answer.body = nlohmann::json{{"error", std::get<std::string>(made)}}.dump();
        break;
      }
      case bus::HubRead::What::AddTournamentPlayers: {
        const auto j = nlohmann::json::parse(question->text, nullptr, false);
        if (!j.is_object() || !j.contains("csv") || !j["csv"].is_string() ||
            !j.contains("tournament") || !j["tournament"].is_number_integer() ||
            !j.contains("director") || !j["director"].is_number_integer())
          throw std::runtime_error("an unreadable list of players, not added");
        const auto added = local.add_tournament_players(j["tournament"].get<std::int64_t>(),
                                                        j["director"].get<std::int64_t>(),
                                                        j["csv"].get<std::string>());
        if (const auto* n = std::get_if<int>(&added))
          answer.body = nlohmann::json{{"added", *n}}.dump();
        else
          answer.body = nlohmann::json{{"error", std::get<std::string>(added)}}.dump();
        break;
      }
      case bus::HubRead::What::Tell: {
        const auto j = nlohmann::json::parse(question->text, nullptr, false);
        if (!j.is_object() || !j.contains("users") || !j["users"].is_array() ||
            !j.contains("message") || !j["message"].is_string())
          throw std::runtime_error("an unreadable message for users, not sent");
        std::optional<std::int64_t> from;
        if (j.contains("from") && j["from"].is_number_integer())
          from = j["from"].get<std::int64_t>();
        local.tell(j["users"].get<std::vector<std::int64_t>>(), from,
                   j["message"].get<std::string>());
        answer.body = "{}";
        break;
      }
    }
    return bus::encode(answer);
  });
}

}  // namespace

std::unique_ptr<Bus::Subscription> answer_hub_reads(Bus& bus, HubReads local) {
  struct Both final : Bus::Subscription {
    std::unique_ptr<Bus::Subscription> reads, ratings;
  };
  auto both = std::make_unique<Both>();
  both->ratings = answer_reads(bus, bus::hub_ratings_subject(), local);
  both->reads = answer_reads(bus, bus::hub_reads_subject(), std::move(local));
  return both;
}

std::unique_ptr<Bus::Subscription> answer_game_reads(Bus& bus, HubReads local, std::int64_t node) {
  return answer_reads(bus, bus::game_reads_subject(node), std::move(local));
}

namespace {

std::optional<std::string> ask(Bus& bus, std::chrono::milliseconds patience,
                               const bus::HubRead& question,
                               const std::string& subject = bus::hub_reads_subject()) {
  const auto reply = bus.request(subject, bus::encode(question), patience);
  if (!reply) {
    throw Unavailable(
        subject == bus::hub_reads_subject()
            ? "the cluster's hub did not answer (it may be changing over to another node): try "
              "again in a moment"
            : "the node that plays the game did not answer (it may be stopping, and its games "
              "moving to another node): try again in a moment");
  }
  auto answer = bus::decode_hub_read_answer(*reply);
  if (!answer) throw Unavailable("the cluster's hub answered something unreadable");
  return std::move(answer->body);
}

// A write's answer from the hub: {"status", "body"}.
std::pair<int, std::string> status_and_body(const std::optional<std::string>& answer) {
  const auto j = nlohmann::json::parse(answer.value_or(""), nullptr, false);
  if (!j.is_object() || !j.contains("status") || !j["status"].is_number_integer() ||
      !j.contains("body") || !j["body"].is_string())
    throw Unavailable("the cluster's hub answered something unreadable");
  return {j["status"].get<int>(), j["body"].get<std::string>()};
}

// A list of games, as the server message my_games.
protocol::MyGames my_games_of(const std::optional<std::string>& body) {
  const auto message = protocol::read_server_message(body.value_or(""));
  const auto* games = message ? std::get_if<protocol::MyGames>(&*message) : nullptr;
  if (!games) throw Unavailable("a node answered an unreadable list of games");
  return *games;
}

}  // namespace

HubReads ask_hub(Bus& bus, std::chrono::milliseconds patience) {
  using What = bus::HubRead::What;
  return HubReads{
      .live_sgf =
          [&bus, patience](std::int64_t game) {
            return ask(bus, patience, {What::LiveSgf, game, std::nullopt, 0});
          },
      .tournaments =
          [&bus, patience](const store::Page& page) {
            auto body = ask(bus, patience, {What::Tournaments, 0, page.before, page.limit});
            if (!body) throw Unavailable("the cluster's hub answered no tournament list");
            return std::move(*body);
          },
      .tournament =
          [&bus, patience](std::int64_t id) {
            return ask(bus, patience, {What::Tournament, id, std::nullopt, 0});
          },
      .reviews =
          [&bus, patience](const protocol::http::Viewer& viewer) {
            auto body = ask(bus, patience,
                            {What::Reviews, 0, std::nullopt, 0, {}, viewer.user, viewer.admin});
            if (!body) throw Unavailable("the cluster's hub answered no review list");
            return std::move(*body);
          },
      .review_sgf =
          [&bus, patience](std::int64_t id, const protocol::http::Viewer& viewer) {
            return ask(bus, patience,
                       {What::ReviewSgf, id, std::nullopt, 0, {}, viewer.user, viewer.admin});
          },
      .create_review =
          [&bus, patience](const protocol::http::ReviewRequest& r) {
            return status_and_body(
                ask(bus, patience,
                    {What::CreateReview, 0, std::nullopt, 0, protocol::http::encode(r)}));
          },
      .relay =
          [&bus, patience](const protocol::http::RelayOp& op) {
            return status_and_body(
                ask(bus, patience, {What::Relay, 0, std::nullopt, 0, protocol::http::encode(op)}));
          },
      .reload_player =
          [&bus, patience](std::int64_t user) {
            if (!ask(bus, patience, {What::ReloadPlayer, user, std::nullopt, 0}))
              throw Unavailable("the cluster's hub did not take the new blocks");
          },
      .account_restricted =
          [&bus, patience](std::int64_t user) {
            if (!ask(bus, patience, {What::AccountRestricted, user, std::nullopt, 0}))
              throw Unavailable("the cluster's hub did not take the suspension");
          },
      .group_changed =
          [&bus, patience](std::int64_t group) {
            if (!ask(bus, patience, {What::GroupChanged, group, std::nullopt, 0}))
              throw Unavailable("the cluster's hub did not take the group's change");
          },
      .start_game = [&bus, patience](
                        const std::string& settings, std::int64_t black, std::int64_t white,
                        std::int64_t start_timeout_ms) -> std::variant<std::int64_t, std::string> {
        const nlohmann::json q{{"settings", settings},
                               {"black", black},
                               {"white", white},
                               {"start_timeout_ms", start_timeout_ms}};
        const auto body = ask(bus, patience, {What::StartGame, 0, std::nullopt, 0, q.dump()});
        const auto j = nlohmann::json::parse(body.value_or(""), nullptr, false);
        if (j.is_object() && j.contains("game") && j["game"].is_number_integer())
          return j["game"].get<std::int64_t>();
        if (j.is_object() && j.contains("error") && j["error"].is_string())
          return j["error"].get<std::string>();
        throw Unavailable("the cluster's hub answered something unreadable");
      },
      .class_tournament = [&bus, patience](const std::string& settings, std::int64_t director,
                                           const std::vector<std::int64_t>& players)
          -> std::variant<std::int64_t, std::string> {
        const nlohmann::json q{
            {"settings", settings}, {"director", director}, {"players", players}};
        const auto body = ask(bus, patience, {What::ClassTournament, 0, std::nullopt, 0, q.dump()});
        const auto j = nlohmann::json::parse(body.value_or(""), nullptr, false);
        if (j.is_object() && j.contains("tournament") && j["tournament"].is_number_integer())
          return j["tournament"].get<std::int64_t>();
        if (j.is_object() && j.contains("error") && j["error"].is_string())
          return j["error"].get<std::string>();
        throw Unavailable("the cluster's hub answered something unreadable");
      },
      .import_tournament = [&bus, patience](const std::string& xml, std::int64_t director)
          -> std::variant<std::int64_t, std::string> {
        const nlohmann::json q{{"xml", xml}, {"director", director}};
        const auto body =
            ask(bus, patience, {What::ImportTournament, 0, std::nullopt, 0, q.dump()});
        const auto j = nlohmann::json::parse(body.value_or(""), nullptr, false);
        if (j.is_object() && j.contains("tournament") && j["tournament"].is_number_integer())
          return j["tournament"].get<std::int64_t>();
        if (j.is_object() && j.contains("error") && j["error"].is_string())
          return j["error"].get<std::string>();
        throw Unavailable("the cluster's hub answered something unreadable");
      },
      .add_tournament_players = [&bus, patience](
                                    std::int64_t tournament, std::int64_t director,
                                    const std::string& csv) -> std::variant<int, std::string> {
        const nlohmann::json q{{"tournament", tournament}, {"director", director}, {"csv", csv}};
        const auto body =
            ask(bus, patience, {What::AddTournamentPlayers, 0, std::nullopt, 0, q.dump()});
        const auto j = nlohmann::json::parse(body.value_or(""), nullptr, false);
        if (j.is_object() && j.contains("added") && j["added"].is_number_integer())
          return j["added"].get<int>();
        if (j.is_object() && j.contains("error") && j["error"].is_string())
          return j["error"].get<std::string>();
        throw Unavailable("the cluster's hub answered something unreadable");
      },
      .tell =
          [&bus, patience](const std::vector<std::int64_t>& users, std::optional<std::int64_t> from,
                           const std::string& text) {
            nlohmann::json j{{"users", users}, {"message", text}};
            if (from) j["from"] = *from;
            if (!ask(bus, patience, {What::Tell, 0, std::nullopt, 0, j.dump()}))
              throw Unavailable("the cluster's hub did not take the group's news");
          },
      .game_action =
          [&bus, patience](std::int64_t game, const std::string& action) {
            return status_and_body(
                ask(bus, patience, {What::GameAction, game, std::nullopt, 0, action}));
          },
      .my_games =
          [&bus, patience](std::int64_t user) {
            return my_games_of(ask(bus, patience, {What::MyGames, user, std::nullopt, 0}));
          },
      // Every rating replayed: a minute's patience, not a read's.
      .rebuild_ratings =
          [&bus, patience] {
            const auto body =
                ask(bus, std::max(patience, std::chrono::milliseconds(60'000)),
                    {What::RebuildRatings, 0, std::nullopt, 0}, bus::hub_ratings_subject());
            if (!body) throw Unavailable("the cluster's hub did not rebuild the ratings");
            const auto j = nlohmann::json::parse(*body, nullptr, false);
            if (!j.is_object() || !j.contains("rows") || !j["rows"].is_number_unsigned())
              throw Unavailable("the cluster's hub answered the ratings' rebuild unreadably");
            return j["rows"].get<std::size_t>();
          }};
}

HubReads ask_node(Bus& bus, std::int64_t node, std::chrono::milliseconds patience) {
  using What = bus::HubRead::What;
  const auto subject = bus::game_reads_subject(node);
  HubReads reads;
  reads.live_sgf = [&bus, patience, subject](std::int64_t game) {
    return ask(bus, patience, {What::LiveSgf, game, std::nullopt, 0}, subject);
  };
  reads.game_action = [&bus, patience, subject](std::int64_t game, const std::string& action) {
    return status_and_body(
        ask(bus, patience, {What::GameAction, game, std::nullopt, 0, action}, subject));
  };
  reads.my_games = [&bus, patience, subject](std::int64_t user) {
    return my_games_of(ask(bus, patience, {What::MyGames, user, std::nullopt, 0}, subject));
  };
  return reads;
}

}  // namespace tengen::cluster
