#include "http/moderation_answers.h"

#include <nlohmann/json.hpp>

#include "protocol/http_api.h"
#include "protocol/overloaded.h"

namespace tengen::http {

namespace {

int status_of(moderation::Refused::Why why) {
  using Why = moderation::Refused::Why;
  switch (why) {
    case Why::NoSuchGame:
    case Why::NoSuchLine:
      return 404;
    case Why::TournamentGame:
    case Why::VoidAlready:
    case Why::OverAlready:
      return 409;
    case Why::Failed:
      return 500;
  }
  return 500;
}

}  // namespace

std::pair<int, std::string> answer_of(const moderation::GameActionOutcome& outcome) {
  using json = nlohmann::json;
  return std::visit(
      Overloaded{
          [](const moderation::ChatLineDeleted& d) {
            return std::pair{
                200, json{{"author", {{"id", d.author.id}, {"name", d.author.name}}}}.dump()};
          },
          [](const moderation::GameAnnulled& a) {
            return std::pair{200, json{{"ratings_rebuilt", a.ratings_rebuilt}}.dump()};
          },
          [](const moderation::GameAdjudicated&) {
            return std::pair{200, std::string("{}")};
          },
          [](const moderation::Refused& r) {
            const int status = status_of(r.why);
            return std::pair{status, protocol::http::encode_error(
                                         status == 404 ? "not_found" : "conflict", r.message)};
          },
      },
      outcome);
}

}  // namespace tengen::http
