#include "rooms/event_channel.h"

namespace tengen {

void EventChannel::keep(Event e) {
  if (kept_events_ == 0) return;
  kept_bytes_now_ += e.text->size();
  kept_.push_back(std::move(e));
  // The newest one stays, whatever its size: a member who missed only it gets it.
  while (kept_.size() > 1 && (kept_.size() > kept_events_ || kept_bytes_now_ > kept_bytes_)) {
    kept_bytes_now_ -= kept_.front().text->size();
    kept_.pop_front();
  }
}

void EventChannel::rewrite(protocol::Seq seq, Text text) {
  for (auto& e : kept_) {
    if (e.seq != seq) continue;
    kept_bytes_now_ -= e.text->size();
    e.text = std::move(text);
    kept_bytes_now_ += e.text->size();
  }
}

}  // namespace tengen
