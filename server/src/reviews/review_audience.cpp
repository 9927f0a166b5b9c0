#include "reviews/review_audience.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <variant>

#include "protocol/codec.h"
#include "store/game_store.h"

namespace tengen {

using json = nlohmann::json;

bool ReviewAudience::may_see(const protocol::http::Viewer& viewer) const {
  if (!is_private() || viewer.admin) return true;
  return viewer.user && (is_player(*viewer.user) || is_invited(*viewer.user));
}

bool ReviewAudience::is_player(std::int64_t user) const {
  return std::any_of(players_.begin(), players_.end(), [&](const auto& p) { return p.id == user; });
}

bool ReviewAudience::is_invited(std::int64_t user) const {
  return std::any_of(invited_.begin(), invited_.end(), [&](const auto& p) { return p.id == user; });
}

std::string ReviewAudience::invite_record(const protocol::UserRef& user, bool remove) {
  return json{{"user", {{"id", user.id}, {"name", user.name}}}, {"remove", remove}}.dump();
}

std::optional<std::string> ReviewAudience::apply_invite(const std::string& record) {
  const json r = json::parse(record, nullptr, false);
  try {
    const protocol::UserRef user{r.at("user").at("id").get<std::int64_t>(),
                                 r.at("user").at("name").get<std::string>()};
    std::erase_if(invited_, [&](const auto& p) { return p.id == user.id; });
    if (!r.value("remove", false)) invited_.push_back(user);
    return std::nullopt;
  } catch (const json::exception& e) {
    return std::string("an unreadable invitation: ") + e.what();
  }
}

std::vector<protocol::UserRef> private_players(store::GameStore& store,
                                               std::optional<std::int64_t> game) {
  if (!game) return {};
  const auto row = store.game(*game);
  if (!row) return {};
  const auto settings = protocol::decode_stored_settings(row->settings);
  const auto* s = std::get_if<protocol::GameSettings>(&settings);
  // Settings that no longer read: kept from all but the players, as the game's own page does.
  if (s && !s->is_private) return {};
  return {{row->black_id, row->black_name}, {row->white_id, row->white_name}};
}

ReviewAudience closed_review_audience(store::GameStore& store, const store::ClosedReview& review) {
  ReviewAudience audience(private_players(store, review.game_id));
  for (const auto& e : review.invitations) audience.apply_invite(e.record);
  return audience;
}

}  // namespace tengen
