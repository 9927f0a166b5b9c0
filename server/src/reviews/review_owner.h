#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "clock.h"
#include "games/actor_pool.h"
#include "lobby/commit_path.h"
#include "reviews/reviews.h"
#include "store/journal.h"

namespace tengen {

// The review boards' owner (docs/reviews.md, docs/architecture.md "Owners"): every open board,
// touched on its mailbox only. Commands from connections are posted and answered from there;
// the HTTP API's calls and start-up wait for their answer on their own thread.
class ReviewOwner {
 public:
  using Reply = Reviews::Reply;
  ReviewOwner(Reviews boards, CommitPath& commit, store::Journal& journal, Clock& clock,
              std::unique_ptr<games::Mailbox> mailbox)
      : boards_(std::move(boards)),
        commit_(commit),
        journal_(journal),
        clock_(clock),
        mailbox_(std::move(mailbox)) {}

  // A review command from `who`: `answered` puts the reply into the outbox after what it caused;
  // `submitted` follows once it is submitted.
  void command(std::shared_ptr<Recipient> who, std::string cid, protocol::ClientMessage message,
               std::function<void(Outbox&, const Reply&)> answered,
               std::function<void()> submitted);
  // The boards it followed let the connection go.
  void disconnected(std::shared_ptr<Recipient> who);

  // A new board, once its row is durable: the status and body of the HTTP answer (201 and its
  // id, or why not). Waits.
  std::pair<int, std::string> create(const protocol::http::ReviewRequest& request);
  // A relay's boards (docs/events.md, "Relays"): the status and body of the HTTP API's answer,
  // once what changed is durable. Waits.
  std::pair<int, std::string> relay(const protocol::http::RelayOp& op);
  // The open boards as JSON; an open one's SGF. Wait.
  std::string list_json(const protocol::http::Viewer& viewer);
  std::optional<std::string> sgf(protocol::ReviewId id, const protocol::http::Viewer& viewer);
  // Start-up: the open boards from the store. Waits.
  std::size_t recover(store::GameStore& store, const Reviews::FindUserById& find_user);

 private:
  Reviews boards_;
  CommitPath& commit_;
  store::Journal& journal_;
  Clock& clock_;
  std::unique_ptr<games::Mailbox> mailbox_;
};

}  // namespace tengen
