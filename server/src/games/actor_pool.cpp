#include "games/actor_pool.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <deque>
#include <mutex>

namespace tengen::games {
namespace asio = boost::asio;
namespace {

// A job that throws is logged and dropped: the pool's thread goes on with the next (the owner
// answers its own failures: GameActor::receive).
void run(Mailbox::Job& job) {
  try {
    job();
  } catch (const std::exception& e) {
    spdlog::error("an owner's job failed: {}", e.what());
  }
}

// A mailbox's queue and whether a thread is running its jobs. Shared with the pool's drain jobs:
// the last job may release the owner, and with it the mailbox, while its drain still runs.
struct Queue {
  explicit Queue(asio::thread_pool& p) : pool(p) {}
  asio::thread_pool& pool;
  std::mutex mutex;
  std::deque<Mailbox::Job> jobs;
  bool running = false;  // a thread runs this mailbox's jobs (the caller's, or a drain)
  bool in_job = false;   // that thread is inside a job now
  bool held = false;     // a job held the mailbox (hold()): nothing runs until it is let go
};

void drain(const std::shared_ptr<Queue>& queue);

// After a job: true if the thread that ran it goes on with the queue, false if it lets go (the
// queue is empty, or held: whoever lets it go resumes it). Under the queue's lock.
bool after_job(Queue& queue) {
  queue.in_job = false;
  if (queue.held) return false;  // `running` stays: the release resumes the queue
  if (queue.jobs.empty()) {
    queue.running = false;
    return false;
  }
  return true;
}

// Runs a mailbox's queued jobs on a pool thread, a few at a time, then hands the rest to the pool
// again so that one busy owner does not keep a thread from the others.
void drain(const std::shared_ptr<Queue>& queue) {
  constexpr int kTurn = 64;
  Mailbox::Job job;
  {
    std::lock_guard lock(queue->mutex);
    if (queue->jobs.empty()) {
      queue->running = false;
      return;
    }
  }
  for (int i = 0; i < kTurn; ++i) {
    {
      std::lock_guard lock(queue->mutex);
      job = std::move(queue->jobs.front());
      queue->jobs.pop_front();
      queue->in_job = true;
    }
    run(job);
    job = nullptr;
    std::lock_guard lock(queue->mutex);
    if (!after_job(*queue)) return;
  }
  asio::post(queue->pool, [queue] { drain(queue); });
}

class PoolMailbox final : public Mailbox {
 public:
  explicit PoolMailbox(asio::thread_pool& pool) : queue_(std::make_shared<Queue>(pool)) {}

  void post(Job job) override {
    {
      std::lock_guard lock(queue_->mutex);
      queue_->jobs.push_back(std::move(job));
      if (queue_->running) return;
      queue_->running = true;
    }
    asio::post(queue_->pool, [queue = queue_] { drain(queue); });
  }

  void run_or_post(Job job) override {
    {
      std::lock_guard lock(queue_->mutex);
      if (queue_->running) {
        queue_->jobs.push_back(std::move(job));
        return;
      }
      queue_->running = true;
      queue_->in_job = true;
    }
    const auto queue = queue_;  // the job may release this mailbox
    run(job);
    job = nullptr;
    {
      std::lock_guard lock(queue->mutex);
      if (!after_job(*queue)) return;
    }
    asio::post(queue->pool, [queue] { drain(queue); });  // what others queued meanwhile
  }

  std::function<void()> hold() override {
    {
      std::lock_guard lock(queue_->mutex);
      queue_->held = true;
    }
    return [queue = queue_, once = std::make_shared<std::once_flag>()] {
      std::call_once(*once, [&] {
        {
          std::lock_guard lock(queue->mutex);
          queue->held = false;
          if (queue->in_job) return;  // the job that held it is still running: it goes on
          if (queue->jobs.empty()) {
            queue->running = false;
            return;
          }
        }
        asio::post(queue->pool, [queue] { drain(queue); });
      });
    };
  }

 private:
  std::shared_ptr<Queue> queue_;
};

}  // namespace

struct ActorPool::Impl {
  explicit Impl(unsigned threads) : pool(threads == 0 ? 2 : threads) {}
  asio::thread_pool pool;
};

ActorPool::ActorPool(unsigned threads) : impl_(std::make_unique<Impl>(threads)) {}

ActorPool::~ActorPool() {
  join();
}

std::unique_ptr<Mailbox> ActorPool::mailbox() {
  return std::make_unique<PoolMailbox>(impl_->pool);
}

void ActorPool::post(Mailbox::Job job) {
  asio::post(impl_->pool, std::move(job));
}

void ActorPool::join() {
  impl_->pool.join();
}

}  // namespace tengen::games
