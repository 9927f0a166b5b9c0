#include <boost/asio/bind_executor.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <map>
#include <memory>
#include <thread>

#include "rooms/timers.h"

namespace tengen {
namespace {

namespace asio = boost::asio;

class AsioTimers final : public Timers {
 public:
  AsioTimers() : work_(asio::make_work_guard(io_)), thread_([this] { io_.run(); }) {}
  ~AsioTimers() override {
    asio::post(io_, [this] {
      for (auto& [game, timer] : timers_) timer->cancel();
      timers_.clear();
      work_.reset();
    });
    thread_.join();
  }
  AsioTimers(const AsioTimers&) = delete;
  AsioTimers& operator=(const AsioTimers&) = delete;

  void set_handler(Fire fire) override {
    asio::post(io_, [this, fire = std::move(fire)]() mutable { fire_ = std::move(fire); });
  }

  void arm(protocol::GameId game, std::optional<Steady> when) override {
    asio::post(io_, [this, game, when] {
      auto it = timers_.find(game);
      if (!when) {
        if (it != timers_.end()) {
          it->second->cancel();
          timers_.erase(it);
        }
        return;
      }
      if (it == timers_.end()) it = timers_.emplace(game, std::make_shared<asio::steady_timer>(io_)).first;
      auto timer = it->second;
      timer->expires_at(*when);
      timer->async_wait([this, game, timer](const boost::system::error_code& ec) {
        if (ec || !fire_) return;  // cancelled or re-armed
        fire_(game);
      });
    });
  }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  Fire fire_;
  std::map<protocol::GameId, std::shared_ptr<asio::steady_timer>> timers_;
  std::thread thread_;
};

}  // namespace

std::unique_ptr<Timers> make_asio_timers() { return std::make_unique<AsioTimers>(); }

}  // namespace tengen
