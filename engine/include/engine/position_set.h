#pragma once

#include <cstdint>
#include <vector>

#include "engine/hash.h"

namespace tengen {

// A multiset of position hashes: open addressing with linear probing, grown at half load.
// Superko asks contains() for every candidate move, so lookups must not scan the history.
// clear() is O(1): slots carry the generation that wrote them.
class PositionSet {
 public:
  explicit PositionSet(std::size_t capacity = 1024) { resize(capacity); }

  void clear() noexcept {
    size_ = 0;
    if (++generation_ == 0) {  // wrapped: really wipe, once every 4 billion clears
      for (auto& s : slots_) s.generation = 0;
      generation_ = 1;
    }
  }

  int count(const Hash128& key) const noexcept {
    for (std::size_t i = key.lo & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.generation != generation_) return 0;
      if (s.key == key) return static_cast<int>(s.count);
    }
  }
  bool contains(const Hash128& key) const noexcept { return count(key) > 0; }

  // Adds one occurrence and returns how many there now are.
  int add(const Hash128& key) {
    if (2 * (size_ + 1) > slots_.size()) resize(2 * slots_.size());
    for (std::size_t i = key.lo & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.generation != generation_) {
        s = Slot{key, generation_, 1};
        ++size_;
        return 1;
      }
      if (s.key == key) return static_cast<int>(++s.count);
    }
  }

  std::size_t size() const noexcept { return size_; }

 private:
  struct Slot {
    Hash128 key;
    std::uint32_t generation = 0;
    std::uint32_t count = 0;
  };

  void resize(std::size_t capacity) {
    std::size_t n = 16;
    while (n < capacity) n *= 2;
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(n, Slot{});
    mask_ = n - 1;
    const std::uint32_t old_generation = generation_;
    generation_ = 1;
    size_ = 0;
    for (const Slot& s : old) {
      if (s.generation != old_generation) continue;
      for (std::size_t i = s.key.lo & mask_;; i = (i + 1) & mask_) {
        if (slots_[i].generation != generation_) {
          slots_[i] = Slot{s.key, generation_, s.count};
          ++size_;
          break;
        }
      }
    }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::uint32_t generation_ = 1;
  std::size_t size_ = 0;
};

}  // namespace tengen
