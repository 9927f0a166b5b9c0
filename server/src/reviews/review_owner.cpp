#include "reviews/review_owner.h"

#include "games/wait.h"
#include "protocol/http_api.h"

namespace tengen {

void ReviewOwner::command(std::shared_ptr<Recipient> who, std::string cid,
                          protocol::ClientMessage message,
                          std::function<void(Outbox&, const Reply&)> answered,
                          std::function<void()> submitted) {
  mailbox_->run_or_post([this, who = std::move(who), cid = std::move(cid),
                         message = std::move(message), answered = std::move(answered),
                         submitted = std::move(submitted)] {
    Outbox out;
    const Reply reply = boards_.command(who, cid, message, clock_.unix_ms(), out);
    answered(out, reply);
    commit_.submit(out);
    submitted();
  });
}

void ReviewOwner::disconnected(std::shared_ptr<Recipient> who) {
  mailbox_->run_or_post([this, who = std::move(who)] {
    Outbox out;
    boards_.disconnected(who, out);
    commit_.submit(out);
  });
}

std::pair<int, std::string> ReviewOwner::create(const protocol::http::ReviewRequest& request) {
  using Made = std::variant<protocol::ReviewId, Reviews::Refusal>;
  const Made made = games::wait_for<Made>(*mailbox_, [&] {
    Outbox out;
    auto outcome = boards_.create(request, clock_.unix_ms(), clock_.steady_now(), out);
    commit_.submit(out);
    return outcome;
  });
  if (const auto* no = std::get_if<Reviews::Refusal>(&made))
    return {no->status, protocol::http::encode_error(no->code, no->message)};
  journal_.barrier().wait();  // answered once the review's row is durable
  return {201, protocol::http::encode_review_created(std::get<protocol::ReviewId>(made))};
}

std::pair<int, std::string> ReviewOwner::relay(const protocol::http::RelayOp& op) {
  auto answer = games::wait_for<std::pair<int, std::string>>(*mailbox_, [&] {
    Outbox out;
    auto outcome = boards_.relay(op, clock_.unix_ms(), out);
    commit_.submit(out);
    return outcome;
  });
  if (answer.first < 300) journal_.barrier().wait();  // answered once it is durable
  return answer;
}

std::string ReviewOwner::list_json(const protocol::http::Viewer& viewer) {
  return games::wait_for<std::string>(
      *mailbox_, [&] { return protocol::http::encode_reviews(boards_.list(viewer)); });
}

std::optional<std::string> ReviewOwner::sgf(protocol::ReviewId id,
                                            const protocol::http::Viewer& viewer) {
  return games::wait_for<std::optional<std::string>>(*mailbox_,
                                                     [&] { return boards_.sgf(id, viewer); });
}

std::size_t ReviewOwner::recover(store::GameStore& store, const Reviews::FindUserById& find_user) {
  return games::wait_for<std::size_t>(*mailbox_, [&] { return boards_.recover(store, find_user); });
}

}  // namespace tengen
