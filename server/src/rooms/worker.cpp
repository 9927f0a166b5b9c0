#include "rooms/worker.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace tengen {
namespace {

class ThreadWorker final : public Worker {
 public:
  ThreadWorker() : thread_([this](std::stop_token stop) { run(stop); }) {}
  // std::jthread's destructor asks the thread to stop, which wakes its wait, and joins.
  ~ThreadWorker() override = default;

  void post(Job job) override {
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(std::move(job));
    }
    ready_.notify_one();
  }

 private:
  void run(const std::stop_token& stop) {
    while (true) {
      Job job;
      {
        std::unique_lock lock(mutex_);
        if (!ready_.wait(lock, stop, [&] { return !jobs_.empty(); })) return;  // stopped
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }

  std::mutex mutex_;
  std::condition_variable_any ready_;
  std::deque<Job> jobs_;
  std::jthread thread_;  // last: it starts once the rest is ready, and stops first
};

}  // namespace

std::unique_ptr<Worker> make_thread_worker() {
  return std::make_unique<ThreadWorker>();
}

}  // namespace tengen
