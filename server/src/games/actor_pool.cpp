#include "games/actor_pool.h"

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>

namespace tengen::games {
namespace asio = boost::asio;
namespace {

class StrandMailbox final : public Mailbox {
 public:
  explicit StrandMailbox(asio::thread_pool& pool) : strand_(asio::make_strand(pool)) {}
  void post(Job job) override { asio::post(strand_, std::move(job)); }

 private:
  asio::strand<asio::thread_pool::executor_type> strand_;
};

}  // namespace

struct ActorPool::Impl {
  explicit Impl(unsigned threads) : pool(threads == 0 ? 1 : threads) {}
  asio::thread_pool pool;
};

ActorPool::ActorPool(unsigned threads) : impl_(std::make_unique<Impl>(threads)) {}

ActorPool::~ActorPool() {
  join();
}

std::unique_ptr<Mailbox> ActorPool::mailbox() {
  return std::make_unique<StrandMailbox>(impl_->pool);
}

void ActorPool::join() {
  impl_->pool.join();
}

}  // namespace tengen::games
