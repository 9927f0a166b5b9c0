#pragma once

// The server's worker thread with a gate: while it is closed, posted jobs wait here, so that a
// test can see what happens while a job (a dead-stone suggestion) is still to come.
#include <deque>
#include <memory>
#include <mutex>

#include "rooms/worker.h"

namespace tengen::testing {

class GatedWorker final : public Worker {
 public:
  void post(Job job) override {
    std::lock_guard lock(mutex_);
    if (closed_) {
      held_.push_back(std::move(job));
    } else {
      inner_->post(std::move(job));
    }
  }
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  // Lets the held jobs through, and those to come.
  void open() {
    std::lock_guard lock(mutex_);
    closed_ = false;
    for (auto& job : held_) inner_->post(std::move(job));
    held_.clear();
  }
  std::size_t held() {
    std::lock_guard lock(mutex_);
    return held_.size();
  }

 private:
  std::mutex mutex_;
  bool closed_ = false;
  std::deque<Job> held_;
  std::unique_ptr<Worker> inner_ = make_thread_worker();
};

}  // namespace tengen::testing
