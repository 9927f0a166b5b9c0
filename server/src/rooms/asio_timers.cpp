#include <boost/asio/bind_executor.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <future>
#include <map>
#include <memory>
#include <mutex>
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
      for (auto& [id, timer] : timers_) timer->cancel();
      timers_.clear();
      work_.reset();
    });
    thread_.join();
  }
  AsioTimers(const AsioTimers&) = delete;
  AsioTimers& operator=(const AsioTimers&) = delete;

  void set_handler(Fire fire) override {
    // On the timer thread, where handlers run: once it has been replaced, none is under way.
    std::promise<void> replaced;
    asio::post(io_, [this, &replaced, fire = std::move(fire)]() mutable {
      fire_ = std::move(fire);
      replaced.set_value();
    });
    replaced.get_future().wait();
  }

  void arm(const TimerId& id, std::optional<Steady> when) override {
    {
      // Most calls change nothing (every move of an untimed game re-arms "no deadline"): those
      // stay on the caller's thread instead of waking the timer thread.
      std::lock_guard lock(mutex_);
      const auto it = armed_.find(id);
      const std::optional<Steady> current =
          it == armed_.end() ? std::nullopt : std::optional<Steady>(it->second);
      if (current == when) return;
      if (when) {
        armed_.insert_or_assign(id, *when);
      } else {
        armed_.erase(it);
      }
    }
    asio::post(io_, [this, id, when] {
      auto it = timers_.find(id);
      if (!when) {
        if (it != timers_.end()) {
          it->second->cancel();
          timers_.erase(it);
        }
        return;
      }
      if (it == timers_.end())
        it = timers_.emplace(id, std::make_shared<asio::steady_timer>(io_)).first;
      auto timer = it->second;
      timer->expires_at(*when);
      timer->async_wait([this, id, timer, at = *when](const boost::system::error_code& ec) {
        if (ec || !fire_) return;  // cancelled or re-armed
        {
          std::lock_guard lock(mutex_);  // fired: arming the same time again must set a timer again
          if (const auto armed = armed_.find(id); armed != armed_.end() && armed->second == at)
            armed_.erase(armed);
        }
        fire_(id);
      });
    });
  }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  Fire fire_;
  std::map<TimerId, std::shared_ptr<asio::steady_timer>> timers_;  // on the timer thread
  std::mutex mutex_;
  std::map<TimerId, Steady> armed_;  // what was last asked for each id, by any thread
  std::thread thread_;
};

}  // namespace

std::unique_ptr<Timers> make_asio_timers() {
  return std::make_unique<AsioTimers>();
}

}  // namespace tengen
